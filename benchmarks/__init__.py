"""cvparse's benchmark scripts: accuracy beside the papers' numbers, speed, and the tracer.

Run from the repository root, e.g. ``python -m benchmarks.accuracy --limit 2``; each script
prints plain-text tables and writes its results under ``benchmarks/results/``.
"""
