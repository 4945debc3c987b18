"""The real programs that read our exports, found on this machine or None (tests skip).

Mermaid CLI (``mmdc``) is looked up on PATH, then in ``$CVPARSE_MMDC``; it drives a
Chromium, given through a puppeteer config when ``/usr/bin/chromium`` exists.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest


def mmdc() -> str | None:
    found = shutil.which("mmdc") or os.environ.get("CVPARSE_MMDC")
    return found if found and Path(found).exists() else None


def render_mermaid(text: str, tmp_path: Path) -> str:
    """The SVG Mermaid draws from ``text``; the test fails with Mermaid's message if it
    cannot parse it, and skips when ``mmdc`` is absent."""
    exe = mmdc()
    if exe is None:
        pytest.skip("Mermaid CLI (mmdc) not installed")
    src, out = tmp_path / "in.mmd", tmp_path / "out.svg"
    src.write_text(text, encoding="utf-8")
    cmd = [exe, "-q", "-i", str(src), "-o", str(out)]
    if Path("/usr/bin/chromium").exists():
        conf = tmp_path / "puppeteer.json"
        conf.write_text(json.dumps({"executablePath": "/usr/bin/chromium",
                                    "args": ["--no-sandbox", "--headless", "--disable-gpu"]}))
        cmd += ["-p", str(conf)]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=180)
    assert run.returncode == 0, run.stdout + run.stderr
    return out.read_text(encoding="utf-8")


def plantuml_syntax(text: str) -> str:
    """PlantUML's ``-syntax`` verdict (first line the diagram type); skips without it."""
    if shutil.which("plantuml") is None:
        pytest.skip("plantuml not installed")
    run = subprocess.run(["plantuml", "-syntax"], input=text, text=True, capture_output=True,
                         timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    return run.stdout
