"""Proof that a refactor leaves every prediction byte-identical.

``record`` parses every image of the fixture sets (``fixtures/<family>/{dev,test,style,
realtools}``, each as its family's ``kind``) and of ``../shared/knossos-dev`` (as
``topology``) with the normal pipeline and writes one SHA-256 per image of the prediction
document's JSON, of the family ``auto`` would guess, and of the ``nodes``-stage inventory.
``check`` parses the same images with the code imported now and lists every image whose
hashes differ from the record::

    python -m benchmarks.identity record /tmp/base.json --jobs 2
    python -m benchmarks.identity check /tmp/base.json --jobs 2 --sample 40

Images are taken in a fixed pseudo-random order and the record grows by one line per
image, so an interrupted record is a sample and resumes where it stopped; ``--sample N``
takes the first N (of those the record holds, on check) after skipping ``--offset K``.
The ``cvparse`` imported is the one of the current folder's checkout where it has one
(the record names it), so a second checkout is recorded by running from its folder.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._common import FIXTURES, IMAGE_SUFFIXES, REPO

SPLITS = ("dev", "test", "style", "realtools")
KNOSSOS_DEV = REPO.parent / "shared" / "knossos-dev"
FIELDS = ("document", "guessed_kind", "nodes")


def images() -> list[tuple[str, Path, str]]:
    """(key, image, kind) of every image the proof covers, in a fixed order."""
    out = []
    for fam_dir in sorted(p for p in FIXTURES.iterdir() if p.is_dir()):
        for split in SPLITS:
            root = fam_dir / split
            if root.is_dir():
                out += [(str(p.relative_to(FIXTURES)), p, fam_dir.name)
                        for p in _images_under(root)]
    if KNOSSOS_DEV.is_dir():
        out += [("knossos-dev/" + str(p.relative_to(KNOSSOS_DEV)), p, "topology")
                for p in _images_under(KNOSSOS_DEV)]
    return out


def _images_under(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.suffix.lower() in IMAGE_SUFFIXES
                  and not p.name.endswith(".overlay.png"))


def shuffled(items: list[tuple[str, Path, str]]) -> list[tuple[str, Path, str]]:
    """The items in a fixed pseudo-random order (by the hash of their key), so that every
    prefix is a sample spread over all sets and a smaller sample is part of a larger."""
    return sorted(items, key=lambda it: _sha(it[0]))


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def hashes(image: str, kind: str) -> dict[str, str]:
    """The hashes of one image's predictions (an exception's text counts as a result).

    The ``nodes`` inventory is what ``stage="nodes"`` prints: taken from the full parse
    as it leaves the inventory builder where the pipeline names one, else from a second,
    ``nodes``-stage parse."""
    from cvparse import pipeline

    out: dict[str, str] = {}
    seen: list[str] = []
    hooked = _hook_inventory(pipeline, seen)
    try:
        res = pipeline.parse(image, kind=kind)
        out["document"] = _sha(res.to_json())
        out["guessed_kind"] = res.guessed_kind
    except Exception as exc:
        out["document"] = "error: " + _sha(f"{type(exc).__name__}: {exc}")
        out["guessed_kind"] = ""
    if hooked and seen:
        out["nodes"] = _sha(seen[0])
        return out
    try:
        out["nodes"] = _sha(pipeline.parse(image, kind=kind, stage="nodes").to_json())
    except Exception as exc:
        out["nodes"] = "error: " + _sha(f"{type(exc).__name__}: {exc}")
    return out


def _hook_inventory(pipeline, seen: list[str]) -> bool:
    """Wrap the pipeline's ``build_inventory`` so each inventory's ``nodes`` JSON is kept
    in ``seen`` as it is built (once per process)."""
    build = getattr(pipeline, "build_inventory", None)
    if build is None:
        return False
    original = getattr(build, "_identity_original", build)

    def wrapped(*args, **kwargs):
        inv = original(*args, **kwargs)
        seen.append(json.dumps(inv.to_dict(), indent=2, ensure_ascii=False))
        return inv

    wrapped._identity_original = original  # type: ignore[attr-defined]
    pipeline.build_inventory = wrapped
    return True


def _work(job: tuple[str, str, str, str]) -> tuple[str, dict[str, str]]:
    key, image, kind, cache = job
    if cache:
        _cache_ocr(Path(cache))
    return key, hashes(image, kind)


def _cache_ocr(folder: Path) -> None:
    """Keep every Tesseract answer in ``folder`` keyed by the SHA-256 of the sheet's
    pixels and the page mode, and answer a sheet seen before from there.

    Tesseract gives the same words for the same pixels, so a run that crops the same
    sheets as the record gets the same words, and one that crops other pixels misses the
    cache and reads them: identity is still proven, in a fraction of the time."""
    import pickle

    from cvparse.primitives import ocr

    read = getattr(ocr, "_tesseract_data", None)
    if read is None or getattr(read, "_identity_cached", False):
        return
    folder.mkdir(parents=True, exist_ok=True)

    def cached(sheet, psm):
        h = hashlib.sha256(f"{sheet.shape}{sheet.dtype}{psm}".encode())
        h.update(sheet.tobytes())
        path = folder / (h.hexdigest() + ".pkl")
        if path.exists():
            return pickle.loads(path.read_bytes())
        data = read(sheet, psm)
        tmp = path.with_suffix(f".{os.getpid()}.{threading.get_ident()}.tmp")
        tmp.write_bytes(pickle.dumps(data))
        tmp.replace(path)
        return data

    cached._identity_cached = True  # type: ignore[attr-defined]
    ocr._tesseract_data = cached


def run(items: list[tuple[str, Path, str]], jobs: int, out_file: Path | None = None,
        ocr_cache: Path | None = None) -> dict[str, dict[str, str]]:
    """Hash every item, appending one JSON line per image to ``out_file`` as it is done
    (so that an interrupted run keeps what it did)."""
    jobs_ = [(k, str(p), kind, str(ocr_cache or "")) for k, p, kind in items]
    out: dict[str, dict[str, str]] = {}
    t0 = time.time()
    pool = ProcessPoolExecutor(jobs) if jobs > 1 else None
    done = pool.map(_work, jobs_, chunksize=1) if pool else map(_work, jobs_)
    sink = out_file.open("a", encoding="utf-8") if out_file else None
    for i, (key, h) in enumerate(done, 1):
        out[key] = h
        if sink:
            sink.write(json.dumps({"key": key, **h}, sort_keys=True) + "\n")
            sink.flush()
        if i % 25 == 0 or i == len(jobs_):
            print(f"  {i}/{len(jobs_)} images, {time.time() - t0:.0f} s", file=sys.stderr,
                  flush=True)
    if sink:
        sink.close()
    if pool:
        pool.shutdown()
    return out


def load(path: Path) -> dict[str, dict[str, str]]:
    """A record: one JSON line per image (the first line names the ``cvparse`` used)."""
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if "key" in row:
            out[row.pop("key")] = row
    return out


def compare(base: dict[str, dict[str, str]], new: dict[str, dict[str, str]]
            ) -> list[str]:
    """One line per image and field that differs (images in only one run are skipped)."""
    lines = []
    for key in sorted(set(base) & set(new)):
        for f in FIELDS:
            if base[key].get(f) != new[key].get(f):
                lines.append(f"{key}: {f} {base[key].get(f)} -> {new[key].get(f)}")
    return lines


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("mode", choices=("record", "check"))
    p.add_argument("file", type=Path, help="the record to write (record) or compare to")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--sample", type=int, default=None, help="only about N images")
    p.add_argument("--offset", type=int, default=0,
                   help="skip the first K images of the order (a sample checked already)")
    p.add_argument("--only", default="", help="only keys containing this text")
    p.add_argument("--ocr-cache", type=Path, default=None,
                   help="folder of Tesseract answers by sheet (shared by record and check)")
    p.add_argument("--out", type=Path, default=None,
                   help="check: also write this run's hashes here")
    args = p.parse_args(argv)
    import cvparse

    items = shuffled([it for it in images() if args.only in it[0]])
    base = load(args.file) if args.file.exists() else {}
    if args.mode == "check":
        items = [it for it in items if it[0] in base]
    else:
        items = [it for it in items if it[0] not in base]  # resume an interrupted record
    items = items[args.offset:]
    if args.sample:
        items = items[:args.sample]
    print(f"{args.mode}: {len(items)} images with {cvparse.__file__}", file=sys.stderr)
    if args.mode == "record":
        with args.file.open("a", encoding="utf-8") as f:
            f.write(json.dumps({"cvparse_file": cvparse.__file__}) + "\n")
        got = run(items, args.jobs, args.file, args.ocr_cache)
        print(f"recorded {len(got)} images in {args.file}")
        return 0
    got = run(items, args.jobs, args.out, args.ocr_cache)
    diff = compare(base, got)
    for line in diff:
        print(line)
    n_bad = len({line.split(":")[0] for line in diff})
    print(f"checked {len(got)} images: {n_bad} differ ({len(diff)} fields)")
    return 1 if diff else 0


if __name__ == "__main__":
    raise SystemExit(main())
