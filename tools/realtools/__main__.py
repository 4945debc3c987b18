"""``python -m tools.realtools setup | build | subset | list``: the real-tool corpus.

    python -m tools.realtools setup                 # install every renderer (apt, pip, npm)
    python -m tools.realtools build                 # render the whole corpus (time printed)
    python -m tools.realtools build --only graphviz --scale 0.1 --out /tmp/rt
    python -m tools.realtools subset                # copy the CI subset into fixtures/
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

from tools.realtools.corpus import (DEFAULT_ROOT, FIXTURE_ROOT, REPO, BuildResult,
                                    write_manifest)
from tools.realtools.sources import all_sources

SUBSET_MB = 14.0
"""The committed CI subset's budget shared equally by the sources that do not name their own
share (a source module's ``SUBSET_MB``); those add theirs.  The issue allows 15 MB in all."""
LIMIT_MB = 15.0


def setup(names: list[str]) -> int:
    """Install what the chosen sources need: Debian packages, PyPI packages (into this
    interpreter's environment) and the pinned node tools (no browser download)."""
    mods = [m for n, m in all_sources().items() if not names or n in names]
    apt = sorted({p for m in mods for p in m.REQUIRES.apt})
    if shutil.which("npm"):
        # A Node.js from another repository (e.g. NodeSource) ships its own npm and
        # conflicts with Debian's nodejs/npm packages: keep the one installed.
        apt = [p for p in apt if p not in ("nodejs", "npm")]
    pip = sorted({p for m in mods for p in m.REQUIRES.pip})
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive", PUPPETEER_SKIP_DOWNLOAD="1")
    if apt:
        subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
        subprocess.run(["apt-get", "install", "-y", "-qq", *apt], check=True, env=env)
    if pip:
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", *pip], check=True)
    node = sorted({d for m in mods for d in m.REQUIRES.npm})
    for folder in node:
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=REPO / folder,
                       check=True, env=env)
    print(f"setup: apt {len(apt)}, pip {len(pip)} packages; node tools in {', '.join(node)}")
    return 0


def build(names: list[str], root: Path, seed: int, scale: float) -> int:
    """Render each chosen source into ``root/<family>/<source>/`` afresh."""
    sources = all_sources()
    unknown = sorted(set(names) - set(sources))
    if unknown:
        print(f"build: unknown source(s) {', '.join(unknown)}; have {', '.join(sources)}",
              file=sys.stderr)
        return 2
    t_all = time.perf_counter()
    total = 0
    failed: list[str] = []
    for name, mod in sources.items():
        if names and name not in names:
            continue
        out = root / mod.FAMILY / name
        if out.exists():
            shutil.rmtree(out)
        out.mkdir(parents=True)
        t0 = time.perf_counter()
        try:
            result: BuildResult = mod.build(out, seed=seed, scale=scale)
        except Exception as exc:  # noqa: BLE001 - one broken renderer must not stop the rest
            failed.append(name)
            print(f"[{name}] failed: {type(exc).__name__}: {exc}", file=sys.stderr)
            continue
        secs = time.perf_counter() - t0
        write_manifest(out, name, mod.FAMILY, seed, result, secs)
        total += len(result.ids)
        print(f"[{name}] {len(result.ids)} images ({len(result.skipped)} skipped) "
              f"in {secs:.1f} s -> {out}")
    print(f"build: {total} images in {time.perf_counter() - t_all:.1f} s"
          + (f"; failed: {', '.join(failed)}" if failed else ""))
    return 1 if failed else 0


def subset_shares(folders: list[Path], budget_mb: float) -> dict[str, float]:
    """Bytes of the CI subset per built source: its module's own ``SUBSET_MB``, else an
    equal part of ``budget_mb``."""
    sources = all_sources()
    own = {f.name: getattr(sources.get(f.name), "SUBSET_MB", None) for f in folders}
    shared = [name for name, mb in own.items() if mb is None]
    part = budget_mb * 1e6 / max(1, len(shared))
    return {name: part if mb is None else mb * 1e6 for name, mb in own.items()}


def subset(root: Path, dest_root: Path, budget_mb: float, only: list[str]) -> int:
    """Copy a deterministic CI subset of every built source (or of ``only`` these) into
    ``fixtures/<family>/realtools/<source>/``: round-robin over each source's subsets, in id
    order, until the source's share (:func:`subset_shares`) is spent."""
    folders = sorted(p.parent for p in root.glob("*/*/manifest.json"))
    if not folders:
        print(f"subset: nothing built under {root}", file=sys.stderr)
        return 1
    shares = subset_shares(folders, budget_mb)
    if sum(shares.values()) > LIMIT_MB * 1e6:
        print(f"subset: shares add up to {sum(shares.values()) / 1e6:.2f} MB, over "
              f"{LIMIT_MB} MB", file=sys.stderr)
        return 1
    for folder in folders:
        if only and folder.name not in only:
            continue
        share = shares[folder.name]
        manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
        by_subset: dict[str, list[dict]] = defaultdict(list)
        for it in manifest["items"]:
            by_subset[it["subset"]].append(it)
        queue = [q for q in by_subset.values()]
        dest = dest_root / manifest["family"] / "realtools" / manifest["source"]
        if dest.exists():
            shutil.rmtree(dest)
        dest.mkdir(parents=True)
        kept, used = [], 0
        while any(queue):
            for q in queue:
                if not q:
                    continue
                it = q.pop(0)
                files = [f for f in folder.glob(f"{it['id']}.*")]
                size = sum(f.stat().st_size for f in files)
                if used + size > share:
                    q.clear()
                    continue
                for f in files:
                    shutil.copyfile(f, dest / f.name)
                used += size
                kept.append(it)
        (dest / "manifest.json").write_text(json.dumps(
            manifest | {"items": kept, "subset_of": len(manifest["items"])}, indent=1,
            ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"[{manifest['source']}] {len(kept)} of {len(manifest['items'])} images, "
              f"{used / 1e6:.2f} MB -> {dest}")
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tools.realtools", description=__doc__)
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("setup", help="install the renderers")
    s.add_argument("only", nargs="*", help="sources (default: all)")
    b = sub.add_parser("build", help="render the corpus")
    b.add_argument("--only", action="append", default=[], help="a source (repeatable)")
    b.add_argument("--out", default=str(DEFAULT_ROOT), help="corpus root")
    b.add_argument("--seed", type=int, default=20261201)
    b.add_argument("--scale", type=float, default=1.0,
                   help="fraction of each source's images (quick checks)")
    c = sub.add_parser("subset", help="copy the CI subset into fixtures/")
    c.add_argument("--root", default=str(DEFAULT_ROOT))
    c.add_argument("--dest", default=str(FIXTURE_ROOT))
    c.add_argument("--mb", type=float, default=SUBSET_MB,
                   help="budget shared by the sources without their own SUBSET_MB")
    c.add_argument("--only", action="append", default=[], help="a source (repeatable)")
    sub.add_parser("list", help="list the sources")
    args = p.parse_args(argv)
    if args.cmd == "setup":
        return setup(args.only)
    if args.cmd == "build":
        return build(args.only, Path(args.out), args.seed, args.scale)
    if args.cmd == "subset":
        return subset(Path(args.root), Path(args.dest), args.mb, args.only)
    for name, mod in all_sources().items():
        print(f"{name:16s} {mod.FAMILY:10s} {(mod.__doc__ or '').strip().splitlines()[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
