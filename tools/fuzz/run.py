"""One fuzz target in this process, under atheris (started by ``python -m tools.fuzz``).

``python -m tools.fuzz.run TARGET SECONDS WORKDIR``: the corpus grows in
``WORKDIR/corpus-TARGET``; each input that raises anything but ``ImageError`` is a
finding, saved once per signature (exception type and the innermost cvparse or Pillow
line) as ``WORKDIR/reproducers/TARGET-<hash>.bin`` beside a ``.txt`` with its traceback,
and fuzzing goes on.  A hard crash, a hang past ``--timeout`` or running out of memory is
caught by libFuzzer instead, which saves the input as ``WORKDIR/reproducers/TARGET-crash-*``
and stops this process.  ``WORKDIR/stats-TARGET.json`` is kept current.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
import traceback
from pathlib import Path

TIMEOUT = 30
"""Seconds one input may take before libFuzzer reports a hang."""
RSS_LIMIT_MB = 2500


def signature(exc: BaseException) -> str:
    """``Type at file:line`` of the innermost frame in cvparse or Pillow (else the last)."""
    frames = traceback.extract_tb(exc.__traceback__)
    ours = [f for f in frames if "/cvparse/" in f.filename or "/PIL/" in f.filename]
    f = (ours or frames or [None])[-1]
    where = f"{Path(f.filename).parent.name}/{Path(f.filename).name}:{f.lineno}" if f else "?"
    return f"{type(exc).__name__} at {where}"


def compare_arrays_in_python() -> None:
    """Route the instrumented comparisons that involve a numpy array past atheris.

    atheris 3.0.0 traces every ``COMPARE_OP`` of instrumented code through its native
    ``_trace_cmp``, which keeps a reference to the result whenever the result is not
    a bool: each ``mask = dist > thr`` on an image left its whole mask alive.  The fuzz
    process grew by about a megabyte an execution and libFuzzer's 2.5 GB RSS limit
    stopped it every 2,000-3,000 executions, blaming whichever input was running (none
    of those inputs takes more than 250 MB on its own).  Array comparisons give
    libFuzzer nothing to steer by anyway; comparisons of numbers, strings and bytes go
    on being traced.  The instrumented bytecode looks ``_trace_cmp`` up on the module
    at each call, so replacing the attribute takes effect everywhere.
    """
    import dis
    import operator

    import atheris
    import numpy as np
    from atheris.version_dependent import CMP_OP_SHIFT_AMOUNT

    native = atheris._trace_cmp
    if getattr(native, "passes_arrays", False):
        return
    ops = {"<": operator.lt, "<=": operator.le, "==": operator.eq, "!=": operator.ne,
           ">": operator.gt, ">=": operator.ge}
    by_id = [ops[name] for name in dis.cmp_op]

    def trace_cmp(obj1, obj2, opid, counter, is_const):
        if isinstance(obj1, np.ndarray) or isinstance(obj2, np.ndarray):
            return by_id[opid >> CMP_OP_SHIFT_AMOUNT](obj1, obj2)
        return native(obj1, obj2, opid, counter, is_const)

    trace_cmp.passes_arrays = True  # type: ignore[attr-defined]
    atheris._trace_cmp = trace_cmp


def main(argv: list[str]) -> None:
    import atheris

    target, seconds, workdir = argv[0], int(argv[1]), Path(argv[2])
    corpus = workdir / f"corpus-{target}"
    repro = workdir / "reproducers"
    corpus.mkdir(parents=True, exist_ok=True)
    repro.mkdir(parents=True, exist_ok=True)
    stats_path = workdir / f"stats-{target}.json"
    stats = json.loads(stats_path.read_text()) if stats_path.is_file() else {
        "executions": 0, "findings": 0, "signatures": {}}

    # Numba compiles _walk's functions from their bytecode: instrumented, they fail to type.
    with atheris.instrument_imports(include=["cvparse", "PIL"],
                                    exclude=["cvparse.connectors._walk"]):
        from PIL import (BmpImagePlugin, GifImagePlugin, Image, JpegImagePlugin,  # noqa: F401
                         PngImagePlugin, TiffImagePlugin, WebPImagePlugin)

        import cvparse  # noqa: F401
        from tools.fuzz import targets
        if target == "parse":
            from cvparse import pipeline  # noqa: F401
            from cvparse.connectors import _walk  # noqa: F401
    Image.init()
    if not any(corpus.iterdir()):
        for i, seed in enumerate(targets.SEEDS[target]()):
            (corpus / f"seed-{i:02d}").write_bytes(seed)
    check = targets.CHECKS[target]
    scratch = workdir / f"scratch-{target}"
    last_write = [0.0]

    def save_stats(force: bool = False) -> None:
        now = time.monotonic()
        if force or now - last_write[0] > 2:
            stats_path.write_text(json.dumps(stats, indent=1))
            last_write[0] = now

    def one_input(data: bytes) -> None:
        if not getattr(atheris._trace_cmp, "passes_arrays", False):
            compare_arrays_in_python()
        stats["executions"] += 1
        try:
            if target == "loader":
                check(data, scratch)
            else:
                check(data)
        except Exception as exc:  # noqa: BLE001 - every other exception is a finding
            stats["findings"] += 1
            sig = signature(exc)
            if sig not in stats["signatures"]:
                name = f"{target}-{hashlib.sha1(sig.encode()).hexdigest()[:10]}"
                (repro / f"{name}.bin").write_bytes(data)
                (repro / f"{name}.txt").write_text(sig + "\n\n" + "".join(
                    traceback.format_exception(exc)))
                stats["signatures"][sig] = name
                save_stats(force=True)
        save_stats()

    args = [sys.argv[0], str(corpus), f"-max_total_time={seconds}", f"-timeout={TIMEOUT}",
            f"-rss_limit_mb={RSS_LIMIT_MB}", f"-artifact_prefix={repro}/{target}-crash-",
            "-print_final_stats=1"]
    atheris.Setup(args, one_input)
    try:
        atheris.Fuzz()
    finally:
        save_stats(force=True)


if __name__ == "__main__":
    main(sys.argv[1:])
