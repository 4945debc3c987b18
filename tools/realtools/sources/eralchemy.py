"""eralchemy (PyPI) drawing SQLAlchemy metadata of real schemas: ``name [TYPE] NOT NULL`` rows.

Each image is a connected subset of 3-12 tables of a committed schema
(:mod:`tools.realtools.schemas`), turned into a SQLAlchemy ``MetaData`` (declared types as
SQLAlchemy prints them, keys, nullability, foreign-key constraints) and handed to
eralchemy's ``render_er``, which writes its Graphviz source; Graphviz's ``dot`` draws it as
eralchemy would.  The ground truth is read from eralchemy's own intermediary model of the
same metadata (the tables, columns and relations it draws), never from the picture:
attributes are the bare column names, ``types`` the bracketed type text, ``not_null`` the
rows marked NOT NULL, ``foreign_keys`` the key columns whose relation line is drawn.  A
relation line carries no name (``name: ""``); its cardinalities are the labels eralchemy
writes at each end (``0..N``, ``{0,1}``, ``1``, ``1..N``) or, in the crow's-foot look, the
glyph at that end read as ERUnderstand's ``1`` / ``N``.
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

from tools.realtools import render, schemas
from tools.realtools.corpus import BuildResult, Requires
from tools.realtools.imagesize import graph_size_attr
from tools.realtools.store import keep, next_stem

NAME = "eralchemy"
FAMILY = "er"
REQUIRES = Requires(apt=("graphviz",), pip=("eralchemy>=1.5", "sqlalchemy>=2"))

OPTION_SETS = {
    "default": {},
    "top-down": {"top_down": True},
    "crowfoot": {"crowfoot": True},
    "star-keys": {"star_keys": True, "sort_mode": "original"},
    "keys-only": {"keys_only": True},
    "dpi-72": {"dpi": 72, "sort_mode": "original"},
    "dpi-150": {"dpi": 150, "top_down": True},
}
PER_SET = 12
DROP_TEXT = {"0..N": "N", "1..N": "N", "{0,1}": "1", "1": "1"}
"""eralchemy's cardinality labels, as the crow's-foot glyph at the same end reads."""


def metadata(tables: dict[str, schemas.Table]):
    """SQLAlchemy ``MetaData`` of ``tables``: each column with its declared type (printed
    upper-case, as SQLAlchemy prints its own types), key, nullability and uniqueness; the
    foreign keys among these tables."""
    import sqlalchemy as sa
    from sqlalchemy.types import UserDefinedType

    class Declared(UserDefinedType):
        cache_ok = True

        def __init__(self, text: str):
            self.text = text

        def get_col_spec(self, **kw) -> str:
            return self.text

    md = sa.MetaData()
    for t in tables.values():
        cols = [sa.Column(c.name, Declared(c.type.upper() or "NULL"), primary_key=c.primary_key,
                          nullable=not c.not_null, unique=c.unique or None)
                for c in t.columns]
        fks = [sa.ForeignKeyConstraint(fk.columns, [f"{fk.ref_table}.{r}" for r in fk.ref_columns])
               for owner, fk in schemas.fk_edges(tables) if owner == t.name
               and len(fk.ref_columns) == len(fk.columns)]
        sa.Table(t.name, md, *cols, *fks)
    return md


def intermediary(md, opts: dict):
    """eralchemy's tables and relations of ``md`` after its own filtering and sorting."""
    from eralchemy.main import all_to_intermediary, filter_resources
    tables, rels = all_to_intermediary(md)
    exclude = None
    if opts.get("keys_only"):
        keep = {c.name for t in tables for c in t.columns if c.is_key or c.is_foreign_key}
        exclude = sorted({c.name for t in tables for c in t.columns} - keep)
    return filter_resources(tables, rels, exclude_columns=exclude,
                            sort_mode=opts.get("sort_mode", "alphabetical"))


def truth(tables, rels, *, crowfoot: bool) -> dict:
    """The ER document of eralchemy's intermediary model (see the module docstring)."""
    from eralchemy.models import Relation
    labels = Relation.cardinalities
    fks: dict[str, dict[str, str]] = {t.name: {} for t in tables}
    out_rels = []
    for r in rels:
        fks[r.right_table][r.right_column] = r.left_table
        left, right = labels[r.left_cardinality], labels[r.right_cardinality]
        # Crow's foot: eralchemy draws the left cardinality's glyph at the head (the right
        # table) and the right one's at the tail, so each end shows the other's number.
        cards = [DROP_TEXT[right], DROP_TEXT[left]] if crowfoot else [left, right]
        out_rels.append({"name": "", "entities": [r.left_table, r.right_table],
                         "cardinalities": cards, "weak": False, "attributes": [],
                         "foreign_key": [r.right_column]})
    entities = {}
    for t in tables:
        names = [c.name for c in t.columns]
        entities[t.name] = {
            "attributes": names, "primary_keys": [c.name for c in t.columns if c.is_key],
            "multivalued": [], "derived": [], "composite": {}, "weak": False,
            "types": {c.name: c.type for c in t.columns if c.type is not None},
            "not_null": [c.name for c in t.columns if not c.is_null],
            "foreign_keys": {k: v for k, v in fks[t.name].items() if k in names}}
    return {"kind": "er", "entities": entities, "relationships": out_rels}


def dot_source(tables, rels, opts: dict) -> str:
    """eralchemy's Graphviz text for its model, under the option set's settings (its
    module-level config is set for the call and reset after)."""
    from eralchemy import cst
    from eralchemy.main import _intermediary_to_dot
    try:
        if opts.get("top_down"):
            cst.dot_top_down()
        if opts.get("crowfoot"):
            cst.dot_crowfoot()
        if opts.get("star_keys"):
            cst.dot_star_primary()
        text = _intermediary_to_dot(tables, rels)
    finally:
        cst.reset_config()
    return text.replace("graph {", "graph {\n" + graph_size_attr(opts.get("dpi", 96)), 1)


def _versions() -> dict[str, str]:
    from importlib.metadata import version
    return {"eralchemy": version("eralchemy"), "sqlalchemy": version("sqlalchemy"),
            "graphviz": render.graphviz_version()}


def build(out_dir: Path, *, seed: int, scale: float) -> BuildResult:
    rng = random.Random(f"{seed}:{NAME}")
    result = BuildResult(versions=_versions())
    all_schemas = schemas.load_schemas()
    per_set = max(1, round(PER_SET * scale))
    with tempfile.TemporaryDirectory() as tmp:
        for subset_name, opts in OPTION_SETS.items():
            for k in range(per_set):
                schema, names, drawn = schemas.pick(all_schemas, rng, k + len(result.ids))
                md = metadata(drawn)
                tables, rels = intermediary(md, opts)
                stem = next_stem(result, NAME)
                png = render.graphviz(dot_source(tables, rels, opts), Path(tmp) / f"{stem}.png",
                                      dpi=opts.get("dpi"))
                gt = truth(tables, rels, crowfoot=bool(opts.get("crowfoot")))
                gt.update(subset=subset_name, source=NAME, config=opts,
                          input=schemas.provenance(schema, names))
                keep(result, out_dir, stem, png, gt)
    return result
