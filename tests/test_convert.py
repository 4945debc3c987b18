"""``cvparse convert``: a JSON document or a corrected draw.io file to other formats."""

import io
import json
import sys
from pathlib import Path

from cvparse.cli import USAGE, main
from cvparse.model import document_from_json
from tests.export.contract import contract

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "er" / "test" / "er_test_0000.json"


def test_json_to_drawio_and_back(tmp_path, capsys):
    drawio = tmp_path / "fix.drawio"
    assert main(["convert", str(FIXTURE), "-o", str(drawio)]) == 0
    assert drawio.read_text().startswith("<mxfile")
    assert main(["convert", str(drawio)]) == 0
    back = document_from_json(capsys.readouterr().out)
    assert contract(back) == contract(document_from_json(FIXTURE.read_text()))


def test_several_formats_from_one_document(tmp_path):
    out = tmp_path / "s.sql"
    assert main(["convert", str(FIXTURE), "-f", "sql,mermaid,plantuml", "-o", str(out)]) == 0
    assert "CREATE TABLE" in out.read_text()
    assert (tmp_path / "s.mmd").read_text().startswith("erDiagram")
    assert (tmp_path / "s.puml").read_text().startswith("@startuml")


def test_stdin(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(FIXTURE.read_text()))
    assert main(["convert", "-", "-f", "dot"]) == 0
    assert capsys.readouterr().out.startswith("graph ER {")


def test_errors(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"kind": "er"}))
    assert main(["convert", str(bad)]) == 1
    assert "entities: required field is missing" in capsys.readouterr().err
    assert main(["convert", str(FIXTURE), "-f", "graphml"]) == 1
    assert "format graphml needs" in capsys.readouterr().err
    assert main(["convert", str(tmp_path / "missing.json")]) == 1
    assert main(["convert", str(FIXTURE), "-f", "json,dot"]) == USAGE
    (tmp_path / "x.drawio").write_text("<mxfile><diagram/></mxfile>")
    assert main(["convert", str(tmp_path / "x.drawio")]) == 1
    assert "no mxGraphModel" in capsys.readouterr().err


def test_pipes_and_deep_json_are_one_error_line(tmp_path, capsys):
    import os

    os.mkfifo(tmp_path / "fifo.json")
    assert main(["convert", str(tmp_path / "fifo.json"), "-f", "mermaid"]) == 1
    assert capsys.readouterr().err == (
        f"cvparse: error: {tmp_path / 'fifo.json'}: is a named pipe, not a regular file\n")
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    assert main(["convert", str(deep), "-f", "mermaid"]) == 1
    assert capsys.readouterr().err == f"cvparse: error: {deep}: nested too deeply to read\n"
