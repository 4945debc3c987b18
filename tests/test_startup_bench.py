"""benchmarks/startup.py: the import tree read back from ``-X importtime`` and a run of the
script on a stand-in command (a Python that does nothing), so no parse is timed here."""

import json
import sys

from benchmarks import startup

IMPORTTIME = """\
import time: self [us] | cumulative | imported package
import time:       100 |        100 |   _io
import time:       300 |        300 |     numpy._core
import time:       200 |        500 |   numpy
import time:        50 |        550 | cvparse.image
import time:        40 |         40 |   argparse
import time:        10 |         10 |     gettext
import time:        20 |         30 |   cvparse.display
import time:        60 |        130 | cvparse.cli
import time:        70 |         70 |   cvparse.model
import time:       900 |        970 | thirdparty
"""


def test_import_costs_names_what_cvparse_modules_import_directly():
    edges = startup.import_costs(IMPORTTIME)
    assert edges == [("cvparse.image", "numpy", 500), ("cvparse.image", "_io", 100),
                     ("cvparse.cli", "argparse", 40), ("cvparse.display", "gettext", 10)]
    # numpy's own import of numpy._core is inside numpy's figure, not listed apart; a
    # third-party package importing cvparse is not cvparse's cost
    assert startup.import_costs("garbage\nimport time: x | y | z\n") == []


def test_the_three_commands_and_their_targets(tmp_path):
    cmds = startup.commands(["cvparse"], tmp_path / "a.png", tmp_path)
    assert set(cmds) == set(startup.TARGETS) == {"--version", "--help", "parse"}
    assert cmds["parse"][:3] == ["cvparse", "parse", str(tmp_path / "a.png")]
    assert startup.TARGETS["--version"] == 0.5 and startup.TARGETS["parse"] == 1.5
    assert startup.SMALL_IMAGE.is_file()


def test_script_times_each_command_and_writes_json(tmp_path, capsys):
    out = tmp_path / "t.json"
    assert startup.main(["--command", f"{sys.executable} -c pass", "--runs", "2",
                         "--json", str(out)]) == 0
    text = capsys.readouterr().out
    for case in ("--version", "--help", "parse"):
        assert case in text
    rows = json.loads(out.read_text())["timings"]
    assert [len(r["wall_s"]) for r in rows] == [2, 2, 2]
    assert all(r["median_s"] > 0 and isinstance(r["met"], bool) for r in rows)


def test_a_failing_command_is_reported(capsys):
    assert startup.main(["--command", f"{sys.executable} -c 'raise SystemExit(3)'",
                         "--runs", "1"]) == 1
    assert "exit status 3" in capsys.readouterr().err
