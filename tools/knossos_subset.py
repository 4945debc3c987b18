"""Copy a small subset of ``../shared/knossos-dev`` into ``fixtures/topology/knossos/``.

The end-to-end tests and CI read it where the full set (which lies outside the repository)
is absent: ``<domain>/<id>.png`` with a Graph document ``<id>.json`` each (``subset`` = the
difficulty), the first ``--per`` images of every domain and difficulty in gt.jsonl order.

    python tools/knossos_subset.py --per 4
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from benchmarks.suites import KNOSSOS_DEV, KNOSSOS_FIXTURES, knossos_items  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--src", default=str(KNOSSOS_DEV))
    p.add_argument("--dest", default=str(KNOSSOS_FIXTURES))
    p.add_argument("--per", type=int, default=4, help="images per domain and difficulty")
    args = p.parse_args(argv)
    dest = Path(args.dest)
    if dest.exists():
        shutil.rmtree(dest)
    staged = dest / ".staging"
    total = 0
    for domain, items in knossos_items(Path(args.src), staged, args.per).items():
        out = dest / domain
        out.mkdir(parents=True)
        for it in items:
            shutil.move(str(it.image), out / it.image.name)
            shutil.move(str(it.gt), out / it.gt.name)
            total += (out / it.image.name).stat().st_size
        manifest = {"source": "knossos-dev (the Knossos generator's own code)",
                    "domain": domain, "per_difficulty": args.per,
                    "items": [{"id": it.stem, "subset": it.subset} for it in items]}
        (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n",
                                           encoding="utf-8")
        print(f"{domain}: {len(items)} images -> {out}")
    shutil.rmtree(staged)
    print(f"{total / 1e6:.2f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
