"""Train the end-marker classifier (models/symbols.onnx) from the dev fixture renders.

Crops are cut exactly where the parser looks at run time: the pipeline is run on every
``fixtures/{flowchart,uml,topology}/dev`` image and each connector end it reads is labelled from the
ground truth (flowchart and topology: the GT edge end it lies on, a head at the GT head;
UML: the relation type and which class the end touches, by the FORMATS.md convention
table).  Synthetic ends drawn with OpenCV add open arrowheads and shape variety.
Diagrams whose number is divisible by 5 are held out for validation (all three UML scales
of a diagram fall on the same side).  Never reads ``fixtures/*/test``.

    pip install torch==2.13.0 onnx     # training only; the parser needs onnxruntime alone
    python tools/train_symbols.py      # ~10-15 min on one core; writes models/symbols.{onnx,md}

Seeded and deterministic (single-threaded torch); parsed crops are cached in ``--cache``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
import sys
import time
from functools import partial
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cvparse.connectors import symbols  # noqa: E402
from cvparse.connectors.markers import end_view  # noqa: E402
from cvparse.connectors.symbols import CLASSES, CROP, EndView, end_crop  # noqa: E402

LABEL = {c: i for i, c in enumerate(CLASSES)}
UML_END = {  # relation type -> (marker at source class, marker at target class)
    "inheritance": ("none", "triangle"),
    "realization": ("none", "triangle"),
    "composition": ("filled_diamond", "none"),
    "aggregation": ("diamond", "none"),
    "dependency": ("none", "arrow"),
}
AUG = 6
"""Jittered crops per training end (validation ends get one clean crop)."""


# --- samples: (mask, view, label, geometric guess, group) -------------------------------

def _held_out(stem: str) -> bool:
    """Validation diagrams: number divisible by 5 (UML scale copies share the number)."""
    m = re.search(r"_(\d{4})", stem)
    return bool(m) and int(m.group(1)) % 5 == 0


def _jitter(view: EndView, rng: np.random.Generator) -> EndView:
    """A view moved, turned and rescaled a little: run-time tips and headings are rough."""
    ang = math.radians(rng.uniform(-10, 10))
    dx, dy = view.direction
    c, s = math.cos(ang), math.sin(ang)
    d = (c * dx - s * dy, s * dx + c * dy)
    u = view.unit
    along, across = rng.uniform(-0.3, 0.3) * u, rng.uniform(-0.12, 0.12) * u
    tip = (view.tip[0] + along * dx - across * dy, view.tip[1] + along * dy + across * dx)
    return EndView(tip=tip, direction=d, unit=u * float(np.exp(rng.uniform(-0.2, 0.2))))


def _crops(mask: np.ndarray, view: EndView, train: bool, rng: np.random.Generator
           ) -> list[np.ndarray]:
    if not train:
        return [end_crop(mask, view)]
    return [end_crop(mask, view)] + [end_crop(mask, _jitter(view, rng)) for _ in range(AUG - 1)]


def flowchart_labels(gt: dict, connectors, mask: np.ndarray, th: float
                     ) -> list[tuple[int, int, EndView, str]]:
    """``(connector, end, view, label)`` for every traced end that the GT settles: an end on
    a GT edge end (arrow at a head, none at a tail) or a break far from any GT end (none)."""
    gends = []  # (point, outward direction, label)
    for e in gt["edges"]:
        pts = np.asarray(e["points"], float)
        if len(pts) < 2:
            continue
        head = np.asarray(e.get("head", pts[-1]), float)
        out0 = pts[0] - pts[1]
        out1 = head - pts[-1] if np.linalg.norm(head - pts[-1]) > 0.5 else pts[-1] - pts[-2]
        both = not e.get("directed", True) and e.get("heads") == 2
        gends.append((pts[0], out0 / (np.linalg.norm(out0) or 1), "arrow" if both else "none"))
        gends.append((head, out1 / (np.linalg.norm(out1) or 1),
                      "arrow" if e.get("directed", True) or both else "none"))
    out = []
    for i, c in enumerate(connectors):
        for k, end in enumerate(c.ends):
            view = end_view(mask, c, k, th)
            d = [float(np.linalg.norm(np.asarray(view.tip) - g[0])) for g in gends]
            j = int(np.argmin(d)) if d else -1
            if j >= 0 and d[j] < 0.9 * th and float(np.dot(view.direction, gends[j][1])) > 0.3:
                out.append((i, k, view, gends[j][2]))
            elif not d or min(d) > 2.5 * th:
                out.append((i, k, view, "none"))  # a break in mid-line
    return out


def _graph_ends(path: Path, kind: str) -> list[tuple[np.ndarray, EndView, str, str]]:
    """Every connector end the pipeline traces on one flowchart or topology diagram,
    labelled from the GT edges (every head ``arrow``, drawn filled or open, as UML's open
    dependency heads are)."""
    from cvparse.connectors.trace import marker_mask
    from cvparse.pipeline import parse

    gt = json.loads(path.with_suffix(".json").read_text())
    r = parse(path, kind=kind)
    mask = marker_mask(r.inventory)
    return [(mask, view, label, r.connectors[i].ends[k].marker)
            for i, k, view, label in flowchart_labels(gt, r.connectors, mask,
                                                      r.inventory.scale.text_height)]


def _uml_ends(path: Path) -> list[tuple[np.ndarray, EndView, str, str]]:
    """Both ends of every relation the UML assembler reads, labelled from the GT relation."""
    import cvparse.assembly.uml.assemble as uml
    from cvparse.pipeline import parse

    calls = []  # (mask, tip, inward, geometric guess), two per relation line
    original = uml.end_readings

    def record(mask, ends, half_span, stroke, *args, **kw):
        guesses, _ = original(mask, ends, half_span, stroke)  # geometry alone
        calls.extend((mask, tip, inward, g) for (tip, inward, _), g in zip(ends, guesses))
        return guesses, guesses

    uml.end_readings = record
    try:
        r = parse(path, kind="uml")
    finally:
        uml.end_readings = original
    th = r.inventory.scale.text_height
    gt = json.loads(path.with_suffix(".json").read_text())
    boxes = {c["name"]: c["bbox"] for c in gt["classes"] if "bbox" in c}

    def nearest(pt):
        best, name = 1e9, None
        for n, (x1, y1, x2, y2) in boxes.items():
            d = math.hypot(max(x1 - pt[0], 0, pt[0] - x2), max(y1 - pt[1], 0, pt[1] - y2))
            if d < best:
                best, name = d, n
        return name if best < 0.6 * th else None

    out = []
    for (ma, ta, ua, ga), (mb, tb, ub, gb) in zip(calls[0::2], calls[1::2]):
        na, nb = nearest(ta), nearest(tb)
        rel = next((x for x in gt["relations"] if {x["source"], x["target"]} == {na, nb}
                    and na != nb), None)
        if rel is None:
            continue
        ends = UML_END.get(rel["type"])
        if ends is None:  # association: a head at the target only if directed
            ends = ("none", "arrow" if rel.get("directed", True) else "none")
        for name, tip, u, guess in ((na, ta, ua, ga), (nb, tb, ub, gb)):
            label = ends[0] if name == rel["source"] else ends[1]
            out.append((ma, EndView(tip=tuple(tip), direction=tuple(u), unit=th), label, guess))
    return out


def _synthetic(n_per_class: int, rng: np.random.Generator
               ) -> tuple[list[np.ndarray], list[int]]:
    """Ends drawn with OpenCV: every class at random sizes, widths, angles, with or without
    the border line the end touches; more open arrowheads and variety."""
    crops, labels = [], []
    for label in CLASSES:
        for _ in range(n_per_class):
            unit = float(rng.uniform(9, 30))
            stroke = max(1, int(round(unit * rng.uniform(0.06, 0.16))))
            size = int(4 * unit)
            img = np.zeros((2 * size, 2 * size), np.uint8)
            ang = rng.uniform(0, 2 * math.pi)
            d = np.array([math.cos(ang), math.sin(ang)])
            nrm = np.array([-d[1], d[0]])
            tip = np.array([size, size], float)
            length = unit * rng.uniform(0.6, 1.1)
            half = length * rng.uniform(0.3, 0.55) * (0.8 if "diamond" in label else 1.0)
            base = tip - d * length
            far = tip - d * 3 * unit

            def P(p):
                return tuple(int(round(v * 4)) for v in p)  # 2 fractional bits

            def line(a, b):
                cv2.line(img, P(a), P(b), 255, stroke, cv2.LINE_AA, 2)

            if label == "none":
                line(far, tip)
            elif label in ("arrow", "triangle"):
                line(far, base if label == "triangle" else tip - d * 0.5 * length)
                poly = np.array([P(tip), P(base + nrm * half), P(base - nrm * half)], np.int32)
                if label == "arrow":  # plain or notched (barbed) filled head
                    notch = tip - d * length * (1.0 if rng.random() < 0.5
                                                else rng.uniform(0.8, 1.0))
                    poly = np.array([P(tip), P(base + nrm * half), P(notch),
                                     P(base - nrm * half)], np.int32)
                    cv2.fillPoly(img, [poly], 255, cv2.LINE_AA, 2)
                else:
                    cv2.polylines(img, [poly], True, 255, stroke, cv2.LINE_AA, 2)
            elif label == "open_arrow":
                line(far, tip)
                line(tip, base + nrm * half)
                line(tip, base - nrm * half)
            else:
                mid = tip - d * length / 2
                line(far, base)
                poly = np.array([P(tip), P(mid + nrm * half), P(base), P(mid - nrm * half)],
                                np.int32)
                if label == "filled_diamond":
                    cv2.fillPoly(img, [poly], 255, cv2.LINE_AA, 2)
                else:
                    cv2.polylines(img, [poly], True, 255, stroke, cv2.LINE_AA, 2)
            if rng.random() < 0.6:  # the border of the shape the end touches
                off = tip + d * stroke * 0.5
                span = unit * rng.uniform(1, 3)
                line(off + nrm * span, off - nrm * span * rng.uniform(0.2, 1))
            mask = img > 100
            view = _jitter(EndView(tip=tuple(tip), direction=tuple(d), unit=unit), rng)
            crops.append(end_crop(mask, view))
            labels.append(LABEL[label])
    return crops, labels


FAMILIES = (("flowchart", "jpg"), ("uml", "png"), ("topology", "png"))


def collect(fixtures: Path, cache: Path, limit: int | None) -> dict:
    """Crops, labels, held-out flags and geometric guesses of every dev end (each family
    cached on its own, beside ``cache``)."""
    parts = [_collect_family(fixtures, family, ext, cache.with_name(
        f"{cache.stem}_{family}{cache.suffix}"), limit) for family, ext in FAMILIES]
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def _collect_family(fixtures: Path, family: str, ext: str, cache: Path, limit: int | None
                    ) -> dict:
    if cache.exists():
        z = np.load(cache, allow_pickle=False)
        return {k: z[k] for k in z.files}
    reader = {"flowchart": partial(_graph_ends, kind="flowchart"), "uml": _uml_ends,
              "topology": partial(_graph_ends, kind="topology")}[family]
    rng = np.random.default_rng(5)
    X, y, val, geo, fam = [], [], [], [], []
    symbols.model_path = lambda: None  # the parser's own guesses: geometry alone
    t0 = time.time()
    paths = sorted((fixtures / family / "dev").glob(f"*.{ext}"))[:limit]
    for i, p in enumerate(paths):
        held = _held_out(p.stem)
        for mask, view, label, guess in reader(p):
            for crop in _crops(mask, view, not held, rng):
                X.append(crop)
                y.append(LABEL[label])
                val.append(held)
                geo.append(LABEL.get(guess, 0))
                fam.append(family)
        if i % 20 == 0:
            print(f"{family} {i}/{len(paths)} {len(X)} crops {time.time() - t0:.0f}s",
                  flush=True)
    data = {"X": np.asarray(X, np.float32).reshape(-1, CROP, CROP),
            "y": np.asarray(y, np.int64), "val": np.asarray(val, bool),
            "geo": np.asarray(geo, np.int64), "family": np.asarray(fam, dtype="<U9")}
    cache.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(cache, **data)
    return data


# --- model ------------------------------------------------------------------------------

def build_net():
    import torch.nn as nn

    return nn.Sequential(
        nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),     # 16
        nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),    # 8
        nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),   # 4
        nn.Flatten(), nn.Linear(32 * 4 * 4, 48), nn.ReLU(), nn.Dropout(0.2),
        nn.Linear(48, len(CLASSES)))


def train(X: np.ndarray, y: np.ndarray, epochs: int, seed: int):
    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    net = build_net()
    counts = np.bincount(y, minlength=len(CLASSES)).astype(float)
    weight = torch.tensor(np.where(counts > 0, (counts.sum() / np.maximum(counts, 1)) ** 0.5, 0),
                          dtype=torch.float32)
    loss_fn = torch.nn.CrossEntropyLoss(weight=weight / weight[weight > 0].mean())
    opt = torch.optim.Adam(net.parameters(), lr=2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, epochs)
    Xt = torch.from_numpy(X).unsqueeze(1)
    yt = torch.from_numpy(y)
    gen = torch.Generator().manual_seed(seed)
    for ep in range(epochs):
        net.train()
        perm = torch.randperm(len(Xt), generator=gen)
        total = 0.0
        for k in range(0, len(perm), 128):
            idx = perm[k:k + 128]
            xb = Xt[idx]
            flip = torch.rand(len(idx), generator=gen) < 0.5  # mirror across the line
            xb = torch.where(flip[:, None, None, None], xb.flip(2), xb)
            opt.zero_grad()
            loss = loss_fn(net(xb), yt[idx])
            loss.backward()
            opt.step()
            total += loss.item() * len(idx)
        sched.step()
        print(f"epoch {ep + 1}/{epochs} loss {total / len(Xt):.4f}", flush=True)
    net.eval()
    return net


def export(net, path: Path) -> None:
    import torch

    path.parent.mkdir(parents=True, exist_ok=True)
    dummy = torch.zeros(1, 1, CROP, CROP)
    torch.onnx.export(net, dummy, str(path), input_names=["crops"], output_names=["logits"],
                      dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}}, opset_version=17,
                      dynamo=False)


def confusion(truth: np.ndarray, pred: np.ndarray) -> np.ndarray:
    m = np.zeros((len(CLASSES), len(CLASSES)), int)
    np.add.at(m, (truth, pred), 1)
    return m


def table(m: np.ndarray) -> str:
    head = "| truth \\ predicted | " + " | ".join(CLASSES) + " |"
    rows = [head, "|---" * (len(CLASSES) + 1) + "|"]
    for i, c in enumerate(CLASSES):
        rows.append(f"| {c} | " + " | ".join(str(v) for v in m[i]) + " |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fixtures", type=Path, default=ROOT / "fixtures")
    ap.add_argument("--cache", type=Path, default=Path("/tmp/symbols_crops.npz"))
    ap.add_argument("--out", type=Path, default=ROOT / "models" / "symbols.onnx")
    ap.add_argument("--limit", type=int, default=None, help="images per family (debug)")
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--synthetic", type=int, default=600, help="synthetic ends per class")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--reuse-net", action="store_true",
                    help="export the network saved beside --cache instead of training")
    args = ap.parse_args(argv)

    random.seed(args.seed)
    data = collect(args.fixtures, args.cache, args.limit)
    X, y, val, geo, fam = data["X"], data["y"], data["val"], data["geo"], data["family"]
    rng = np.random.default_rng(args.seed)
    sx, sy = _synthetic(args.synthetic, rng)
    sx, sy = np.asarray(sx, np.float32), np.asarray(sy, np.int64)
    n_syn_val = len(sx) // 5
    order = rng.permutation(len(sx))
    sv, st = order[:n_syn_val], order[n_syn_val:]
    Xtr = np.concatenate([X[~val], sx[st]])
    ytr = np.concatenate([y[~val], sy[st]])
    saved = args.cache.with_suffix(".pt")
    if args.reuse_net and saved.exists():
        import torch

        net = build_net()
        net.load_state_dict(torch.load(saved))
        net.eval()
    else:
        net = train(Xtr, ytr, args.epochs, args.seed)
        import torch

        torch.save(net.state_dict(), saved)
    export(net, args.out)

    def predict(A):
        return np.argmax(symbols.classify_crops(A, args.out), axis=1) if len(A) else A

    report = {}
    for name, _ in FAMILIES:
        sel = val & (fam == name)
        p = predict(X[sel])
        report[name] = (int(sel.sum()), float((p == y[sel]).mean()),
                        float((geo[sel] == y[sel]).mean()), confusion(y[sel], p))
    ps = predict(sx[sv])
    report["synthetic"] = (len(sv), float((ps == sy[sv]).mean()), float("nan"),
                           confusion(sy[sv], ps))
    allv = np.concatenate([y[val], sy[sv]])
    allp = np.concatenate([predict(X[val]), ps])
    overall = float((allv == allp).mean())
    size = args.out.stat().st_size
    for k, (n, acc, gacc, m) in report.items():
        print(f"{k}: n={n} net acc {acc:.4f} geometry acc {gacc:.4f}\n{m}")
    print(f"overall held-out accuracy {overall:.4f}; model {size} bytes")
    write_card(args, report, overall, size, len(Xtr), int((~val).sum()), len(st),
               confusion(allv, allp))
    return 0


def write_card(args, report, overall, size, n_train, n_real, n_syn, m_all) -> None:
    """models/symbols.md: what the model is, what it was trained on, how well it does."""
    lines = [
        "# symbols.onnx: end-marker classifier",
        "",
        "Tiny CNN (3 conv 3x3 layers 8/16/32 channels + 2 dense layers) that names the symbol",
        "drawn at a connector end. `cvparse/connectors/markers.py` reads every end by geometry",
        "first; the network's answer replaces it where geometry is unsure (flowchart ends wider",
        "than the line itself; UML width profiles within 20% of a threshold) or where the",
        "network is sure (p >= 0.8) (`markers.decide`). Run by `cvparse/connectors/symbols.py`",
        "with onnxruntime only (single-threaded session, one batch per page); without the",
        "model file the parser falls back to geometry alone.",
        "",
        f"- Classes (output order): {', '.join(CLASSES)}.",
        f"- Input: `crops` float32 N x 1 x {CROP} x {CROP}, ink = 1, the line coming in from the",
        f"  left, tip at {symbols.BEHIND} text heights from the left edge, "
        f"{symbols.BEHIND + symbols.AHEAD:.1f} text heights across (`symbols.end_crop`).",
        "- Output: `logits` N x 6 (softmax in `symbols.classify_crops`).",
        f"- File size: {size} bytes. Seed {args.seed}, {args.epochs} epochs, Adam, class-weighted "
        "cross-entropy, mirror augmentation.",
        "",
        "## Training data",
        "",
        "Cut where the parser itself looks: the pipeline runs on every `fixtures/flowchart/dev`,",
        "`fixtures/uml/dev` and `fixtures/topology/dev` image and each connector end it reads is",
        "labelled from the ground truth (flowchart and topology: arrow at the GT head, filled or",
        "open, none at the source end or mid-line breaks; UML:",
        "relation type + which class the end touches, per the FORMATS.md table). Training ends",
        f"get {AUG - 1} jittered copies (shift, +-10 deg, +-20% scale). Synthetic OpenCV ends add",
        "more open arrowheads and variety. `fixtures/*/test` is never read.",
        f"Training crops: {n_train} ({n_real} real incl. jitter, {n_syn} synthetic).",
        "",
        "## Held-out accuracy",
        "",
        "Held out: dev diagrams whose number is divisible by 5 (all scales of a UML diagram on",
        "the same side), one clean crop per end, and 20% of the synthetic ends.",
        "",
        "| set | ends | network | geometry alone |",
        "|---|---|---|---|",
    ]
    for k, (n, acc, gacc, _) in report.items():
        g = "-" if math.isnan(gacc) else f"{gacc:.4f}"
        lines.append(f"| {k} | {n} | {acc:.4f} | {g} |")
    real = [report[k] for k, _ in FAMILIES]
    real_acc = sum(n * acc for n, acc, _, _ in real) / max(1, sum(n for n, _, _, _ in real))
    lines += ["", f"Held-out accuracy on real (rendered) ends: **{real_acc:.4f}**; "
              f"with the synthetic ends: **{overall:.4f}**.", "",
              "Confusion matrix (all held-out ends, rows = truth):", "", table(m_all), ""]
    for k, (_, _, _, m) in report.items():
        lines += [f"{k}:", "", table(m), ""]
    lines += [
        "## Retrain",
        "",
        "```bash",
        "pip install torch==2.13.0 onnx # training only, not runtime dependencies",
        "python tools/train_symbols.py  # parses the dev fixtures (cached in /tmp), trains, exports",
        "```",
        "",
        "Deterministic for a given seed and torch version (single thread). Re-run after changes",
        "to tracing or to `symbols.end_crop`, since crops are cut where the parser looks.",
        "",
    ]
    args.out.with_suffix(".md").write_text("\n".join(lines))


if __name__ == "__main__":
    raise SystemExit(main())
