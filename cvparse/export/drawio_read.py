"""Reading a diagrams.net (draw.io) file back into a document: the correction loop.

cvparse writes a parse as a draw.io file (:mod:`.drawio`); a person fixes it in
diagrams.net (moves a shape, retypes a label, redraws an arrow, deletes a false node) and
``cvparse convert fixed.drawio -f json`` turns the drawing into the document again.  The
cells are read by what they look like, the way cvparse draws them, so shapes and lines a
person adds with diagrams.net's own defaults are understood too:

* graph (``flowchart``/``topology``): each vertex is a node (its cell id is the node id;
  a new shape gets ``n<k>``), the shape read from the style, the box from the geometry, the
  label from the text; each edge joined at both ends is an edge: an arrowhead at the target
  only is ``directed``, one at the source only is a directed edge the other way, none or
  both is undirected; dashes give ``dashed``/``dotted``, a stroke of 2.5 px or more ``bold``.
* ER: rectangles are entities (double border: weak), rhombi relationships (double:
  identifying), ellipses attributes of what they are joined to (underlined: key, double:
  multivalued, dashed: derived; an ellipse joined to an attribute is a composite part),
  triangles IS-A (the superclass on the line drawn into the triangle, subclasses on the
  lines out of it); a line's text between a relationship and an entity is the cardinality.
* UML: each vertex is a class (name, then attributes and methods split at the horizontal
  rules of its text); a relation's type comes from its ends: hollow triangle (dashed:
  realization), diamond at the source (filled: composition), open arrow (dashed:
  dependency) or nothing (an undirected association).

The family is the diagram page's name as cvparse writes it (``flowchart``, ``er``...),
else ``flowchart``.  Compressed files (diagrams.net's older default) are inflated first.
Order follows the file, so an unedited file gives back the document it was written from.
"""

from __future__ import annotations

import base64
import html
import re
import xml.etree.ElementTree as ET
import zlib
from dataclasses import dataclass, field
from urllib.parse import unquote

from ..model import (DOC_KINDS, Edge, Entity, ERSchema, Graph, IsA, Node, Relationship,
                     UMLClass, UMLModel, UMLRelation)


class DrawioError(ValueError):
    """The text is not a diagrams.net file cvparse can read."""


@dataclass
class Cell:
    id: str
    value: str
    style: dict[str, str]
    vertex: bool
    edge: bool
    source: str | None = None
    target: str | None = None
    box: tuple[float, float, float, float] | None = None
    order: int = 0


@dataclass
class Drawing:
    kind: str
    width: int | None
    height: int | None
    vertices: list[Cell] = field(default_factory=list)
    edges: list[Cell] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def parse_style(style: str) -> dict[str, str]:
    """``"ellipse;dashed=1;"`` -> ``{"ellipse": "", "dashed": "1"}`` (first token a name)."""
    out: dict[str, str] = {}
    for part in style.split(";"):
        if not part.strip():
            continue
        key, _, value = part.partition("=")
        out[key.strip()] = value.strip()
    return out


def label_text(value: str) -> str:
    """A cell's text as plain text: line breaks kept, other markup dropped, entities decoded."""
    v = re.sub(r"(?i)<br\s*/?>|</div>\s*<div[^>]*>|</p>\s*<p[^>]*>", "\n", value)
    v = re.sub(r"<[^>]+>", "", v)
    return html.unescape(v).replace("\xa0", " ")


def _inflate(text: str) -> str:
    raw = zlib.decompress(base64.b64decode(text), -15).decode("utf-8")
    return unquote(raw)


def _number(v: str | None) -> float:
    try:
        return float(v) if v is not None else 0.0
    except ValueError:
        return 0.0


def read_cells(text: str) -> Drawing:
    """The first page's vertices and edges (ids, styles, geometry) in file order."""
    try:
        mxfile = ET.fromstring(text)
    except ET.ParseError as exc:
        raise DrawioError(f"not a diagrams.net file: {exc}") from None
    diagram = mxfile if mxfile.tag == "diagram" else mxfile.find("diagram")
    model = mxfile if mxfile.tag == "mxGraphModel" else None
    if diagram is not None:
        model = diagram.find("mxGraphModel")
        if model is None and (diagram.text or "").strip():
            try:
                model = ET.fromstring(_inflate(diagram.text.strip()))
            except (ValueError, zlib.error, ET.ParseError) as exc:
                raise DrawioError(f"compressed diagram cannot be read: {exc}") from None
    if model is None or model.find("root") is None:
        raise DrawioError("no mxGraphModel/root in the file")
    name = diagram.get("name", "") if diagram is not None else ""
    kind = name if name in DOC_KINDS else "flowchart"

    def size(key: str) -> int | None:
        v = model.get(key)
        return int(round(_number(v))) if v else None

    drawing = Drawing(kind, size("pageWidth"), size("pageHeight"))
    for k, el in enumerate(model.find("root")):
        cell = el if el.tag == "mxCell" else el.find("mxCell")
        if cell is None:
            continue
        cid = el.get("id") or cell.get("id") or f"cell{k}"
        value = el.get("label", "") if el.tag != "mxCell" else cell.get("value", "")
        geo = cell.find("mxGeometry")
        box = None
        if geo is not None and cell.get("vertex") == "1":
            x, y = _number(geo.get("x")), _number(geo.get("y"))
            box = (x, y, x + _number(geo.get("width")), y + _number(geo.get("height")))
        c = Cell(cid, value, parse_style(cell.get("style", "")), cell.get("vertex") == "1",
                 cell.get("edge") == "1", cell.get("source"), cell.get("target"), box, k)
        if c.vertex:
            drawing.vertices.append(c)
        elif c.edge:
            drawing.edges.append(c)
    known = {v.id for v in drawing.vertices}
    joined = []
    for e in drawing.edges:
        if e.source in known and e.target in known:
            joined.append(e)
        else:
            drawing.warnings.append(f"line {e.id} is not joined at both ends: left out")
    drawing.edges = joined
    return drawing


def _round(box) -> list[float]:
    return [int(v) if float(v).is_integer() else round(v, 2) for v in box]


# --- graphs -----------------------------------------------------------------------------

def _shape(style: dict[str, str]) -> str:
    shape = style.get("shape", "")
    if "ellipse" in style or shape in ("ellipse", "doubleEllipse"):
        return "circle" if style.get("aspect") == "fixed" else "ellipse"
    if "rhombus" in style or shape == "rhombus":
        return "diamond"
    if "triangle" in style or shape == "triangle":
        return "triangle"
    if "text" in style:
        return "text"
    for prefix, name in (("hexagon", "hexagon"), ("parallelogram", "parallelogram"),
                         ("cylinder", "cylinder")):
        if shape.startswith(prefix):
            return name
    if style.get("rounded") == "1":
        return "stadium" if style.get("arcSize") == "50" else "round_rect"
    if style.get("dashed") == "1":
        return "icon"
    return style.get("cvparseShape", "rect")


def _line_style(style: dict[str, str]) -> str:
    if style.get("dashed") == "1":
        return "dotted" if style.get("dashPattern", "").split()[:1] == ["1"] else "dashed"
    return "bold" if _number(style.get("strokeWidth")) >= 2.5 else "solid"


def _has_head(style: dict[str, str], end: str) -> bool:
    """diagrams.net draws a classic arrow at the target unless told otherwise."""
    default = "classic" if end == "endArrow" else "none"
    return style.get(end, default) not in ("none", "")


def _graph(d: Drawing) -> Graph:
    nodes = []
    for v in d.vertices:
        extra = {"double": True} if v.style.get("double") == "1" else {}
        box = None if "cvparseGrid" in v.style else _round(v.box)
        nodes.append(Node(v.id, label_text(v.value), _shape(v.style), box, extra))
    edges = []
    for e in d.edges:
        src, dst = e.source, e.target
        at_src, at_dst = _has_head(e.style, "startArrow"), _has_head(e.style, "endArrow")
        extra: dict = {}
        if at_src and not at_dst:
            src, dst = dst, src
        directed = at_src != at_dst
        if at_src and at_dst:
            extra["heads"] = 2
        edges.append(Edge(src, dst, directed, _line_style(e.style), label_text(e.value),
                          unquote(e.style.get("cvparseType", "")), extra))
    return Graph(kind=d.kind, width=d.width, height=d.height, nodes=nodes, edges=edges)


# --- ER ---------------------------------------------------------------------------------

def _er_role(style: dict[str, str]) -> str:
    shape = _shape(style)
    if shape in ("ellipse", "circle"):
        return "attribute"
    if shape == "diamond":
        return "relationship"
    if shape == "triangle":
        return "isa"
    return "entity"


def _schema(d: Drawing) -> ERSchema:
    role = {v.id: _er_role(v.style) for v in d.vertices}
    by_id = {v.id: v for v in d.vertices}
    name = {v.id: label_text(v.value) for v in d.vertices}
    links: dict[str, list[tuple[str, Cell]]] = {v.id: [] for v in d.vertices}
    for e in d.edges:
        links[e.source].append((e.target, e))
        links[e.target].append((e.source, e))

    def owner_of(attr: str) -> str | None:
        return next((o for o, _ in links[attr] if role[o] in ("entity", "relationship")), None)

    def attributes(owner: str) -> list[str]:
        """Attribute cells joined to ``owner``, in file order."""
        found = [o for o, _ in links[owner] if role[o] == "attribute" and (
            owner_of(o) == owner if role[owner] != "attribute" else owner_of(o) is None)]
        return sorted(dict.fromkeys(found), key=lambda c: by_id[c].order)

    entities: dict[str, Entity] = {}
    for v in d.vertices:
        if role[v.id] != "entity" or "cvparseRef" in v.style:
            continue
        e = Entity(name[v.id], weak=v.style.get("double") == "1")
        for a in attributes(v.id):
            st, aname = by_id[a].style, name[a]
            e.attributes.append(aname)
            if int(_number(st.get("fontStyle"))) & 4:
                e.primary_keys.append(aname)
            if st.get("shape") == "doubleEllipse":
                e.multivalued.append(aname)
            if st.get("dashed") == "1":
                e.derived.append(aname)
            parts = [name[p] for p in attributes(a)]
            if parts:
                e.composite[aname] = parts
        entities[e.name] = e
    rels: list[Relationship | IsA] = []
    for v in d.vertices:
        if role[v.id] == "relationship":
            ends = [(o, e) for o, e in links[v.id] if role[o] == "entity"]
            ends.sort(key=lambda t: t[1].order)
            rels.append(Relationship(name[v.id], [name[o] for o, _ in ends],
                                     [label_text(e.value) for _, e in ends],
                                     weak=v.style.get("double") == "1",
                                     attributes=[name[a] for a in attributes(v.id)]))
        elif role[v.id] == "isa":
            sup = [e.source for e in d.edges if e.target == v.id and role[e.source] == "entity"]
            subs = [e.target for e in d.edges if e.source == v.id and role[e.target] == "entity"]
            if not sup:
                d.warnings.append(f"IS-A {v.id} has no line drawn into it: left out")
                continue
            rels.append(IsA(name[sup[0]], [name[s] for s in subs], name[v.id] or "ISA"))
    return ERSchema(entities=entities, relationships=rels)


# --- UML --------------------------------------------------------------------------------

_STEREOTYPE = re.compile(r"^[«<]{1,2}\s*(\w+)\s*[»>]{1,2}$")


def _class(v: Cell) -> UMLClass:
    parts = re.split(r"(?i)<hr[^>]*>", v.value)
    head = [ln.strip() for ln in label_text(parts[0]).split("\n") if ln.strip()]
    extra = {}
    if head and (m := _STEREOTYPE.match(head[0])) and len(head) > 1:
        extra["stereotype"] = m.group(1)
        head = head[1:]

    def lines(i: int) -> list[str]:
        text = label_text(parts[i]) if i < len(parts) else ""
        return text.split("\n") if text else []

    box = None if "cvparseGrid" in v.style else _round(v.box)
    return UMLClass(" ".join(head), lines(1), lines(2), box, extra)


def _relation_type(style: dict[str, str]) -> tuple[str, bool]:
    """(type, source and target swapped) from a relation's line ends."""
    dashed = style.get("dashed") == "1"
    end, start = style.get("endArrow", "classic"), style.get("startArrow", "none")
    if start.startswith("diamond"):
        return ("composition" if style.get("startFill", "1") == "1" else "aggregation"), False
    if end.startswith("diamond"):
        return ("composition" if style.get("endFill", "1") == "1" else "aggregation"), True
    if end == "block" and style.get("endFill") == "0":
        return ("realization" if dashed else "inheritance"), False
    if start == "block" and style.get("startFill") == "0":
        return ("realization" if dashed else "inheritance"), True
    if end in ("none", ""):
        return ("dependency" if dashed and start not in ("none", "") else "association",
                start not in ("none", ""))
    return ("dependency" if dashed else "association"), False


def _model(d: Drawing) -> UMLModel:
    classes, names = [], {}
    for v in d.vertices:
        c = _class(v)
        names[v.id] = c.name
        if "cvparseRef" not in v.style:
            classes.append(c)
    relations = []
    for e in d.edges:
        kind, swap = _relation_type(e.style)
        src, dst = (e.target, e.source) if swap else (e.source, e.target)
        extra: dict = {}
        if kind == "association" and e.style.get("endArrow", "classic") in ("none", "") \
                and e.style.get("startArrow", "none") in ("none", ""):
            extra["directed"] = False
        label = label_text(e.value)
        if label:
            extra["label"] = label
        relations.append(UMLRelation(kind, names[src], names[dst], extra))
    return UMLModel(classes=classes, relations=relations)


def read_drawio(text: str) -> tuple[Graph | ERSchema | UMLModel, list[str]]:
    """The document a diagrams.net file draws, and warnings about cells left out.

    Parameters
    ----------
    text : str
        A ``.drawio`` file's XML (plain or compressed diagram).

    Returns
    -------
    document : Graph, ERSchema or UMLModel
        The family named by the page (``er``, ``uml``), else a flowchart graph.
    warnings : list of str
        One line per cell that could not be read.

    Raises
    ------
    DrawioError
        For text that is no diagrams.net file.
    """
    d = read_cells(text)
    if d.kind == "er":
        doc = _schema(d)
    elif d.kind == "uml":
        doc = _model(d)
    else:
        doc = _graph(d)
    return doc, d.warnings
