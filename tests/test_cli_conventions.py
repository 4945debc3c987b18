"""Command-line conventions: --version, -o FILE, several formats, stdin, -q/-v, refusing an
impossible --kind/--format pair before parsing, overlay placement, exit codes."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from cvparse import __version__
from cvparse.batch import BatchSummary, Outcome
from cvparse.cli import EXIT_CODES, USAGE, _ErrorsOnly, build_parser, format_of_path, main
from cvparse.model import document_from_json
from tests.test_image import diagram_png

HEAVY = ("cv2", "numba", "onnxruntime", "skimage", "scipy", "shapely", "cvparse.pipeline")


def test_version(capsys):
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0 and capsys.readouterr().out.strip() == f"cvparse {__version__}"


def test_building_the_command_line_loads_no_heavy_library():
    code = ("import sys; from cvparse.cli import build_parser; build_parser(); "
            f"print([m for m in {HEAVY!r} if m in sys.modules])")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60, check=True)
    assert run.stdout.strip() == "[]"


@pytest.mark.parametrize("argv", [["--version"], ["--help"], ["parse", "--help"],
                                  ["convert", "--help"], ["eval", "--help"]])
def test_version_and_help_load_no_image_library(argv):
    """--version and --help need argparse and names, not NumPy or Pillow (they were most
    of the 0.25 s these took)."""
    code = ("import contextlib, io, sys\nfrom cvparse.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    try:\n"
            f"        main({argv!r})\n"
            "    except SystemExit:\n"
            "        pass\n"
            "print([m for m in ('numpy', 'PIL', 'cvparse.batch', 'cvparse.image') "
            "if m in sys.modules])")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60, check=True)
    assert run.stdout.strip() == "[]", run.stderr


def test_help_documents_the_exit_codes(capsys):
    with pytest.raises(SystemExit):
        main(["parse", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert EXIT_CODES in out and "130" in EXIT_CODES


def test_short_options_are_the_long_ones():
    args = build_parser().parse_args(["parse", "x.png", "-k", "er", "-f", "sql,json", "-j",
                                      "2", "-o", "y.sql", "-q"])
    assert (args.kind, args.format, args.jobs, args.output, args.quiet) == (
        "er", ("sql", "json"), 2, "y.sql", True)
    assert build_parser().parse_args(["parse", "x.png", "-v"]).verbose


@pytest.mark.parametrize("name, fmt", [("a.json", "json"), ("a.MMD", "mermaid"),
                                       ("a.puml", "plantuml"), ("a.gv", "dot"),
                                       ("a.drawio", "drawio"), ("a.graphml", "graphml")])
def test_output_extension_picks_the_format(name, fmt):
    assert format_of_path(name) == fmt


def _refuse_to_parse(monkeypatch):
    def boom(*a, **k):
        raise AssertionError("parsed although the options were refused")

    monkeypatch.setattr("cvparse.pipeline.parse", boom)


@pytest.mark.parametrize("argv, message", [
    (["-k", "flowchart", "-f", "sql"], "format sql needs an ER diagram, not flowchart"),
    (["--kind", "uml", "--format", "json,graphml"], "format graphml needs"),
    (["-o", "x.svg"], "cannot tell the format"),
    (["-f", "json,mermaid"], "several formats need -o FILE"),
    (["--stage", "nodes", "-f", "dot"], "--stage nodes"),
])
def test_impossible_options_are_refused_before_any_parse(tmp_path, capsys, monkeypatch,
                                                         argv, message):
    img = diagram_png(tmp_path / "flow.png")
    _refuse_to_parse(monkeypatch)
    assert main(["parse", str(img), *argv]) == USAGE
    [line] = capsys.readouterr().err.strip().splitlines()
    assert line.startswith("cvparse: error: ") and message in line


def test_unknown_format_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as info:
        main(["parse", "x.png", "-f", "json,svg"])
    assert info.value.code == USAGE and "unknown format svg" in capsys.readouterr().err


def test_output_file_and_several_formats_from_one_parse(tmp_path, capsys, monkeypatch):
    img = diagram_png(tmp_path / "flow.png")
    calls = []
    import cvparse.pipeline as pipeline

    real = pipeline.parse
    monkeypatch.setattr(pipeline, "parse", lambda *a, **k: calls.append(a) or real(*a, **k))
    out = tmp_path / "res" / "doc.json"
    out.parent.mkdir()
    assert main(["parse", str(img), "-o", str(out), "-f", "json,mermaid,drawio,dot"]) == 0
    assert len(calls) == 1 and capsys.readouterr().out == ""
    text = out.read_text()
    assert text.endswith("}\n")
    doc = document_from_json(text)
    assert (out.parent / "doc.mmd").read_text().startswith("flowchart ")
    assert (out.parent / "doc.drawio").read_text().startswith("<mxfile")
    assert (out.parent / "doc.dot").read_text().startswith("digraph")
    assert sorted(p.name for p in out.parent.iterdir()) == ["doc.dot", "doc.drawio",
                                                            "doc.json", "doc.mmd"]
    assert doc.kind in ("flowchart", "topology")


def test_json_on_stdout_ends_with_a_newline(tmp_path, capsys):
    assert main(["parse", str(diagram_png(tmp_path / "flow.png"))]) == 0
    assert capsys.readouterr().out.endswith("}\n")


def test_stdin(tmp_path, capsys, monkeypatch):
    data = diagram_png(tmp_path / "flow.png").read_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    assert main(["parse", "-", "-f", "mermaid"]) == 0
    assert capsys.readouterr().out.startswith("flowchart ")


def test_bad_stdin_is_named_stdin(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"not an image")))
    assert main(["parse", "-"]) == 1
    [line] = capsys.readouterr().err.strip().splitlines()
    assert line.startswith("cvparse: error: <stdin>: ") and "cvparse-" not in line


def test_stdin_must_be_alone(tmp_path, capsys):
    assert main(["parse", "-", str(diagram_png(tmp_path / "a.png"))]) == USAGE
    assert "standard input" in capsys.readouterr().err


def test_overlay_goes_next_to_output_or_where_asked(tmp_path, capsys, monkeypatch):
    img = diagram_png(tmp_path / "flow.png")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "o").mkdir()
    assert main(["parse", str(img), "-o", str(tmp_path / "o" / "x.mmd"), "--overlay"]) == 0
    assert (tmp_path / "o" / "x.overlay.png").is_file()
    assert not (tmp_path / "flow.overlay.png").exists()
    there = tmp_path / "elsewhere.png"
    assert main(["parse", str(img), "--overlay-out", str(there)]) == 0
    assert there.is_file() and not (tmp_path / "flow.overlay.png").exists()
    document_from_json(capsys.readouterr().out)


def _noise(tmp_path: Path) -> Path:
    import numpy as np
    from PIL import Image

    rng = np.random.default_rng(7)
    path = tmp_path / "noise.png"
    Image.fromarray(rng.integers(0, 256, (120, 160, 3), dtype=np.uint8)).save(path)
    return path


def test_quiet_hides_warnings_and_verbose_tells_the_family(tmp_path, capsys):
    img = _noise(tmp_path)
    assert main(["parse", str(img), "-q"]) == 0
    assert capsys.readouterr().err == ""
    assert main(["parse", str(img), "-v"]) == 0
    err = capsys.readouterr().err
    assert "cvparse: warning:" in err and f"{img}: parsed as " in err


def test_quiet_and_verbose_exclude_each_other(capsys):
    with pytest.raises(SystemExit) as info:
        main(["parse", "x.png", "-q", "-v"])
    assert info.value.code == USAGE


def test_quiet_batch_passes_errors_only():
    sink = io.StringIO()
    stream = _ErrorsOnly(sink)
    stream.write("progress: 1/2 done\ncvparse: warning: a.png: x\ncvparse: error: b.png: ")
    stream.write("bad\nparsed 1, failed 1\n")
    assert sink.getvalue() == "cvparse: error: b.png: bad\n"


def test_batch_writes_every_format_and_resumes_on_all_of_them(tmp_path, capsys):
    src = tmp_path / "in"
    src.mkdir()
    diagram_png(src / "a.png")
    out = tmp_path / "out"
    assert main(["parse", str(src), "--out", str(out), "-f", "json,mermaid", "-q"]) == 0
    assert capsys.readouterr().err == ""
    assert (out / "a.json").read_text().endswith("\n") and (out / "a.mmd").is_file()
    (out / "a.mmd").unlink()
    assert main(["parse", str(src), "--out", str(out), "-f", "json,mermaid"]) == 0
    assert "skipped 0" in capsys.readouterr().err and (out / "a.mmd").is_file()


def test_summary_seconds_per_image_is_wall_time_per_image():
    s = BatchSummary(outcomes=[Outcome("a", True, 3.0), Outcome("b", True, 3.0)], total=2,
                     seconds=3.2)
    assert "1.60 s/image" in s.line(Path("r.jsonl"))


def test_progress_seconds_per_image_is_the_summarys(monkeypatch):
    """Both lines divide this run's wall time by the images finished: 3.2 s for 2 images
    is 1.60 s/image in the progress line as in the summary above."""
    import cvparse.batch as batch

    clock = iter([100.0, 103.2])
    monkeypatch.setattr(batch.time, "perf_counter", lambda: next(clock))
    sink = io.StringIO()
    progress = batch._Progress(2, sink)
    progress.update(2, 0)
    assert sink.getvalue() == "progress: 2/2 done, failed 0, 1.60 s/image, eta 0 s\n"


def test_every_bench_name_is_a_benchmark_script_with_main():
    from cvparse.cli import BENCHES

    root = Path(__file__).resolve().parents[1] / "benchmarks"
    for name in BENCHES:
        module = {"trace": "bench_trace"}.get(name, name)
        script = root / f"{module}.py"
        assert "\ndef main(" in script.read_text(), name
    assert "startup" in BENCHES
