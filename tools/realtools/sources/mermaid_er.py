"""Mermaid ``erDiagram`` of real schemas drawn by mermaid-cli 11: typed rows, PK/FK, crow's feet.

Each chart is a connected subset of a committed schema's tables
(:mod:`tools.realtools.schemas`) written the way people write Mermaid ER: one entity block
per table (``type name PK|FK`` rows; types with spaces joined by ``_`` as Mermaid needs),
one relationship per foreign key, ``parent ||--o{ child`` with the one side ``|o`` when the
key may be null and the many side ``o|`` for a one-to-one key, a solid line for an
identifying key (part of the child's primary key) and a dotted one otherwise.  Ground
truth comes from the chart's input: bare column names, the type text drawn, PK/FK marks,
the relationship label as its name, and each end's crow's-foot glyph as ERUnderstand's
``1`` / ``N`` (the glyphs themselves in ``notation``).  Subsets ``repo`` and ``repo-dark``
draw ``erDiagram`` charts committed to public repositories (``inputs/mermaid_er/``, with
PROVENANCE.json) as committed and, without their front matter, in the dark theme; their
ground truth is read from the text by :mod:`tools.realtools.mmd_er`.
"""

from __future__ import annotations

import random
import re
import tempfile
from pathlib import Path

from tools.realtools import render, schemas
from tools.realtools.corpus import BuildResult, Requires, readable_inputs
from tools.realtools.mmd_er import FRONT_MATTER, Unsupported, crow_card, document, read
from tools.realtools.store import keep, keep_read, next_stem

NAME = "mermaid_er"
FAMILY = "er"
REQUIRES = Requires(apt=("chromium",), npm=("tools/realtools/node",))

OPTION_SETS = {
    "default": {"theme": "default", "label": "column"},
    "neutral-unlabelled": {"theme": "neutral", "label": "none"},
    "dark": {"theme": "dark", "label": "column", "background": "#333333"},
    "forest": {"theme": "forest", "label": "verb"},
    "names-only": {"theme": "default", "label": "column", "attributes": False},
}
NATURAL_SIZE = {"er": {"useMaxWidth": False}}
"""Draw at the diagram's own size: by default mermaid-cli shrinks it into an 800-pixel page,
where a page of tables is unreadably small."""
PER_SET = 12
VERB = "has"
REPO_LOOKS = {"repo": None, "repo-dark": ("dark", "#333333")}
"""Committed charts: as committed (their front matter choosing the look), and dark."""


def mermaid_type(text: str) -> str:
    """A declared type as Mermaid accepts it: runs of other characters become ``_``."""
    return re.sub(r"[^A-Za-z0-9_()\[\]-]+", "_", text.strip()) or "string"


def relationships(tables: dict[str, schemas.Table], opts: dict) -> list[dict]:
    """One relationship per drawn foreign key: its Mermaid line and its truth."""
    out = []
    for owner, fk in schemas.fk_edges(tables):
        table = tables[owner]
        left = "|o" if schemas.fk_optional(table, fk) else "||"
        right = "o|" if schemas.is_one_to_one(table, fk) else "o{"
        pk = {p.lower() for p in table.primary_keys}
        line = "--" if all(c.lower() in pk for c in fk.columns) else ".."
        label = {"column": fk.columns[0], "verb": VERB, "none": ""}[opts["label"]]
        out.append({"text": f'    {fk.ref_table} {left}{line}{right} {owner} : "{label}"',
                    "truth": {"name": label, "entities": [fk.ref_table, owner],
                              "cardinalities": [crow_card(left), crow_card(right)],
                              "weak": False, "attributes": [], "notation": [left, right],
                              "style": "solid" if line == "--" else "dashed"}})
    return out


def chart(tables: dict[str, schemas.Table], opts: dict) -> tuple[str, dict]:
    """The Mermaid text of a table subset and its ground truth."""
    lines = ["erDiagram"]
    with_attrs = opts.get("attributes", True)
    for t in tables.values():
        fk_cols = {c for fk in t.foreign_keys for c in fk.columns}
        if not with_attrs:
            lines.append(f"    {t.name}")
            continue
        lines.append(f"    {t.name} {{")
        for c in t.columns:
            keys = ", ".join(k for k, on in (("PK", c.primary_key), ("FK", c.name in fk_cols))
                             if on)
            lines.append(f"        {mermaid_type(c.type)} {c.name} {keys}".rstrip())
        lines.append("    }")
    rels = relationships(tables, opts)
    lines += [r["text"] for r in rels]
    if with_attrs:
        types = {t.name: {c.name: mermaid_type(c.type) for c in t.columns} for t in tables.values()}
        gt = schemas.er_truth(tables, types=types, drawn_not_null=False, all_foreign_keys=True)
    else:
        gt = schemas.er_truth({n: schemas.Table(n) for n in tables}, drawn_not_null=False)
    gt["relationships"] = [r["truth"] for r in rels]
    return "\n".join(lines) + "\n", gt


def build(out_dir: Path, *, seed: int, scale: float) -> BuildResult:
    rng = random.Random(f"{seed}:{NAME}")
    result = BuildResult(versions={"mermaid": render.mermaid_version()})
    all_schemas = schemas.load_schemas()
    per_set = max(1, round(PER_SET * scale))
    with tempfile.TemporaryDirectory() as tmp:
        for subset_name, opts in OPTION_SETS.items():
            items = []
            for k in range(per_set):
                schema, names, tables = schemas.pick(all_schemas, rng,
                                                     k + len(result.ids) + len(items), hi=10)
                text, gt = chart(tables, opts)
                gt.update(subset=subset_name, source=NAME, config=opts,
                          input=schemas.provenance(schema, names, chart=text))
                items.append((text, gt))
            stems = [next_stem(result, NAME, i) for i in range(len(items))]
            pngs = render.mermaid([t for t, _ in items], [Path(tmp) / f"{s}.png" for s in stems],
                                  theme=opts["theme"],
                                  background=opts.get("background", "white"),
                                  config=NATURAL_SIZE)
            for stem, png, (_, gt) in zip(stems, pngs, items):
                keep(result, out_dir, stem, png, gt)
        _build_repo(Path(tmp), out_dir, result, scale)
    return result


def _build_repo(work: Path, out_dir: Path, result: BuildResult, scale: float) -> None:
    """Subsets ``repo`` and ``repo-dark``: the committed charts the reader takes."""
    charts = readable_inputs(NAME, read, Unsupported, result, scale)
    for look, theme in REPO_LOOKS.items():
        texts = [t if theme is None else FRONT_MATTER.sub("", t) for t, _ in charts]
        stems = [next_stem(result, NAME, i) for i in range(len(texts))]
        pngs = render.mermaid(texts, [work / f"{s}.png" for s in stems],
                              theme=theme[0] if theme else "default",
                              background=theme[1] if theme else "white", config=NATURAL_SIZE)
        items = [(text, {"subset": look, "source": NAME, "config": {"theme": theme},
                          "input": where}) for text, (_, where) in zip(texts, charts)]
        keep_read(result, out_dir, stems, pngs, items, document)
