"""``diagrams`` (the Python package): cloud and network architecture pictures, provider icons with their labels under them.

Each image is a generated ``diagrams`` program, run as its users run it: tiers of provider
icon nodes (AWS, GCP, Azure, on-premises, Kubernetes; classes picked at random from the
package's modules) with service or host names, ``Cluster`` boxes around tiers (sometimes
nested), links ``>>``, ``<<``, ``-`` and two-headed ``Edge(forward=True, reverse=True)``,
fan-outs to lists, edge labels, dashed and coloured edges, direction LR or TB (the subset).
Ground truth is read from the DOT that ``diagrams`` hands to Graphviz (written beside the PNG
with ``outformat=["png", "dot"]``) by :mod:`tools.realtools.dot_truth`: every icon is a node of
shape ``icon`` labelled with its text; clusters and the diagram title are not nodes.
"""

from __future__ import annotations

import importlib
import inspect
import random
import tempfile
from functools import cache
from pathlib import Path

from tools.realtools import dot_truth, labels, render, seeding
from tools.realtools.corpus import BuildResult, Requires, write_item

NAME = "diagrams"
FAMILY = "topology"
REQUIRES = Requires(apt=("graphviz", "wamerican"), pip=("diagrams", "pydot"))

PER_SUBSET = 40
DIRECTIONS = ("LR", "TB")
PROVIDERS = {
    "aws": ("aws.compute", "aws.database", "aws.network", "aws.storage", "aws.integration"),
    "gcp": ("gcp.compute", "gcp.database", "gcp.network", "gcp.storage"),
    "azure": ("azure.compute", "azure.database", "azure.network"),
    "onprem": ("onprem.database", "onprem.inmemory", "onprem.queue", "onprem.network",
               "onprem.compute", "onprem.client"),
    "k8s": ("k8s.compute", "k8s.network", "onprem.database", "onprem.inmemory"),
    "network": ("generic.network", "onprem.network", "onprem.compute", "onprem.client"),
}
SUFFIXES = ("service", "api", "db", "cache", "queue", "worker", "frontend", "store", "gateway",
            "proxy", "cluster", "replica", "backend", "events")
EDGE_LABELS = ("http", "https", "grpc", "sql", "events", "443", "tcp/5432", "replicate",
               "reads", "writes", "publish", "subscribe", "sync", "metrics", "vpn")
CLUSTER_NAMES = ("VPC", "Private Subnet", "Public Subnet", "Kubernetes", "Services",
                 "Data Layer", "eu-west-1", "us-east-1", "Frontend", "Backend", "Monitoring",
                 "DMZ", "Core Network", "Branch Office", "Workers", "Storage")
MAX_PNG_BYTES = 300_000


@cache
def icon_classes(module: str) -> tuple[str, ...]:
    """Names of the icon node classes a ``diagrams`` module defines (aliases left out)."""
    from diagrams import Node

    mod = importlib.import_module(f"diagrams.{module}")
    return tuple(sorted(n for n, c in vars(mod).items()
                        if inspect.isclass(c) and issubclass(c, Node) and n == c.__name__
                        and c.__module__ == mod.__name__ and getattr(c, "_icon", None)))


def service_label(rng: random.Random) -> str:
    if rng.random() < 0.45:
        return labels.host_label(rng)
    return f"{labels.word_label(rng, 1)} {rng.choice(SUFFIXES)}"


def make_program(rng: random.Random, direction: str) -> tuple[str, dict]:
    """A ``diagrams`` program (Python source; ``FILENAME`` is bound when it runs) and the
    options it was drawn with."""
    provider = rng.choice(tuple(PROVIDERS))
    modules = PROVIDERS[provider]
    n_tiers = rng.randint(2, 4)
    tiers = [rng.randint(1, 3) for _ in range(n_tiers)]
    total = sum(tiers)
    names = labels.unique_labels(rng, total, service_label)
    imports: dict[str, set[str]] = {}
    body: list[str] = []
    ids: list[list[str]] = []
    k = 0
    cluster_prob = rng.choice((0.0, 0.4, 0.7))
    cluster_titles = iter(rng.sample(CLUSTER_NAMES, len(CLUSTER_NAMES)))
    for size in tiers:
        tier_ids = []
        indent = "    "
        if rng.random() < cluster_prob:
            body.append(f'{indent}with Cluster("{next(cluster_titles)}"):')
            indent += "    "
            if size > 1 and rng.random() < 0.25:
                body.append(f'{indent}with Cluster("{next(cluster_titles)}"):')
                indent += "    "
        mod = rng.choice(modules)
        for _ in range(size):
            cls = rng.choice(icon_classes(mod))
            imports.setdefault(mod, set()).add(cls)
            body.append(f'{indent}n{k} = {cls}("{names[k]}")')
            tier_ids.append(f"n{k}")
            k += 1
        ids.append(tier_ids)
    stmts = []

    def link(a: str, b: str) -> str:
        kind = rng.choices((">>", "<<", "-", "both"), weights=(7, 1, 1, 1))[0]
        args = []
        if rng.random() < 0.3:
            args.append(f'label="{rng.choice(EDGE_LABELS)}"')
        if rng.random() < 0.15:
            args.append('style="dashed"')
        if rng.random() < 0.15:
            args.append(f'color="{rng.choice(("firebrick", "darkgreen", "darkorange", "navy"))}"')
        if kind == "both":
            args = ["forward=True", "reverse=True"] + args
            kind = ">>"
        edge = f" {kind} Edge({', '.join(args)}) {kind} " if args else f" {kind} "
        return f"    {a}{edge}{b}"

    for t in range(n_tiers - 1):
        src, dst = ids[t], ids[t + 1]
        if len(src) == 1 and len(dst) > 1 and rng.random() < 0.5:
            stmts.append(f"    {src[0]} >> [{', '.join(dst)}]")
            continue
        for b in dst:
            stmts.append(link(rng.choice(src), b))
        for a in src:
            if not any(s.split()[0] == a for s in stmts):
                stmts.append(link(a, rng.choice(dst)))
    flat = [i for tier in ids for i in tier]
    for _ in range(rng.randint(0, 2)):
        a, b = rng.sample(flat, 2)
        stmts.append(link(a, b))
    title = rng.choice(("", "", f"{labels.word_label(rng, 1, True)} Architecture",
                        f"{provider.upper()} {labels.word_label(rng, 1, True)}"))
    dpi = rng.choice(("72", "96"))
    head = ["from diagrams import Cluster, Diagram, Edge"]
    head += [f"from diagrams.{m} import {', '.join(sorted(c))}" for m, c in sorted(imports.items())]
    head.append(f'with Diagram("{title}", filename=FILENAME, outformat=["png", "dot"], '
                f'show=False, direction="{direction}", graph_attr={{"dpi": "{dpi}"}}):')
    code = "\n".join(head + body + stmts) + "\n"
    return code, {"provider": provider, "direction": direction, "dpi": int(dpi),
                  "tiers": tiers, "title": title}


def document(dot_text: str, width: int, height: int) -> dict:
    """Ground truth from the DOT ``diagrams`` wrote: icons are nodes (renamed n0, n1, ... in
    declaration order, as the package names them by random UUIDs)."""
    truth = dot_truth.ground_truth(dot_truth.parse(dot_text))
    rename = {n["id"]: f"n{i}" for i, n in enumerate(truth["nodes"])}
    nodes = [n | {"id": rename[n["id"]], "shape": "icon"} for n in truth["nodes"]]
    edges = [e | {"source": rename[e["source"]], "target": rename[e["target"]]}
             for e in truth["edges"]]
    return {"kind": "topology", "width": width, "height": height, "nodes": nodes,
            "edges": edges}


def build(out_dir: Path, *, seed: int, scale: float) -> BuildResult:
    from importlib.metadata import version

    from PIL import Image

    result = BuildResult(versions={"diagrams": version("diagrams"),
                                   "graphviz": render.graphviz_version()})
    with tempfile.TemporaryDirectory() as tmpname:
        for item in seeding.plan(seed, NAME, DIRECTIONS, max(1, round(PER_SUBSET * scale))):
            code, options = make_program(item.rng, item.subset)
            base = Path(tmpname) / item.stem
            try:
                exec(compile(code, f"<{item.stem}>", "exec"), {"FILENAME": str(base)})  # noqa: S102
            except Exception as exc:  # noqa: BLE001 - the package or Graphviz refused it
                result.skipped.append({"id": item.stem,
                                       "reason": f"{type(exc).__name__}: {exc}"})
                continue
            png = base.with_suffix(".png")
            if png.stat().st_size > MAX_PNG_BYTES:
                result.skipped.append({"id": item.stem, "reason": "png over 300 KB"})
                continue
            with Image.open(png) as im:
                w, h = im.size
            dot_text = base.with_suffix(".dot").read_text(encoding="utf-8")
            gt = document(dot_text, w, h) | {
                "subset": item.subset, "source": NAME, "config": options,
                "input": {"generator": "tools/realtools/sources/diagrams.py",
                          "seed": item.seed, "code": code}}
            write_item(out_dir, item.stem, png, gt)
            result.ids.append(item.stem)
    return result
