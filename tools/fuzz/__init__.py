"""Coverage-guided fuzzing of cvparse with atheris (``pip install -e '.[dev]'``).

``python -m tools.fuzz --seconds N`` runs each target for ``N`` seconds and prints the
executions, the crashes and their unique signatures; every input that raised something
other than the loader's own :class:`cvparse.image.ImageError` (or crashed, hung or ran out
of memory) is saved as a reproducer.  Reproducers copied to ``tests/data/fuzz/<target>/``
are replayed by ``tests/tools/test_fuzz.py``.  See ``targets.py`` for what is fuzzed.
"""
