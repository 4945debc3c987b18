"""The benchmarks' own scoring code, so cvparse and any VLM are scored by one implementation.

One module per benchmark task, each with the same small interface used by
:mod:`cvparse.evaluate` (``cvparse eval``):

``TASK``
    the task name (``flowlearn``, ``er``, ``topology``, ``uml``, ``knossos``).
``SUMMARY_KEYS``
    the keys :func:`summarize` always returns.
``load(doc) -> (rep, valid)``
    ``doc`` is a parsed JSON document (dict) or raw text (a VLM answer: Mermaid in fences,
    JSON inside prose...).  Returns the task's comparable representation and whether the
    input could be read; an unreadable input gives the empty representation and ``False``.
``score(gt, pred) -> dict``
    per-image values for one (ground truth, prediction) pair of representations.
``summarize(per_image: list[dict]) -> dict``
    aggregates per-image values (means, or pooled counts where the paper pools).
"""

TASKS = ("flowlearn", "er", "topology", "uml", "knossos")

__all__ = ["TASKS"]
