"""Documents as diagrams.net (draw.io) files, so a person can correct a parse by hand.

The file is uncompressed XML: ``mxfile/diagram/mxGraphModel/root`` with the two standard
cells ``0`` (root) and ``1`` (default layer, parent of everything else).  Coordinates are the
input image's pixels, so the redrawing lies where the original was:

* graph: one vertex per node at its ``bbox`` with a style for its shape; one edge per edge
  joined to its end vertices, the interior points of ``extra["points"]`` (the traced
  polyline, oriented source -> target) as waypoints; arrowheads, dashes and width as detected.
* ER schema: entities and relationships at ``extra["bbox"]`` when present; attributes on a
  ring around their owner; an IS-A triangle between its classes; Chen styles (double border
  for weak, underline for keys, double ellipse for multivalued, dashed for derived).
* UML model: class boxes (name, attributes, methods) at ``bbox``; relation ends marked by
  the FORMATS.md table (hollow triangle at the superclass/interface, diamond at the whole).

Anything without a position goes on a simple grid below the positioned content.  A name a
relation or edge uses but the document does not declare gets a vertex of its own, so every
edge joins existing vertices.

The file is also meant to be read back (:mod:`.drawio_read`, ``cvparse convert``) after a
person has corrected it, so it keeps what the drawing cannot show: a graph node's cell id
is its document id (edges and ER/UML cells are ``e<k>``/``v<k>``), and style keys that
diagrams.net keeps but does not draw mark an edge's ``type`` (``cvparseType``), a position
cvparse made up (``cvparseGrid=1``), a vertex drawn only because a relation names it
(``cvparseRef=1``) and the ``other`` shape (``cvparseShape=other``).
"""

from __future__ import annotations

import html
import math
import xml.etree.ElementTree as ET
from typing import Any
from urllib.parse import quote

from ..model import Entity, ERSchema, Graph, IsA, UMLModel
from ._ends import arrowheads

Box = tuple[float, float, float, float]

_NODE_STYLES = {
    "rect": "rounded=0;whiteSpace=wrap;html=1;",
    "round_rect": "rounded=1;whiteSpace=wrap;html=1;",
    "stadium": "rounded=1;arcSize=50;whiteSpace=wrap;html=1;",
    "diamond": "rhombus;whiteSpace=wrap;html=1;",
    "ellipse": "ellipse;whiteSpace=wrap;html=1;",
    "circle": "ellipse;aspect=fixed;whiteSpace=wrap;html=1;",
    "hexagon": "shape=hexagon;perimeter=hexagonPerimeter2;fixedSize=1;whiteSpace=wrap;html=1;",
    "parallelogram": ("shape=parallelogram;perimeter=parallelogramPerimeter;fixedSize=1;"
                      "whiteSpace=wrap;html=1;"),
    "cylinder": ("shape=cylinder3;boundedLbl=1;backgroundOutline=1;size=10;whiteSpace=wrap;"
                 "html=1;"),
    "triangle": "triangle;direction=north;whiteSpace=wrap;html=1;",
    "icon": "rounded=0;dashed=1;whiteSpace=wrap;html=1;",
    "text": "text;strokeColor=none;fillColor=none;align=center;verticalAlign=middle;html=1;",
    "other": "rounded=0;whiteSpace=wrap;html=1;cvparseShape=other;",
}
GRID = "cvparseGrid=1;"
"""Style key of a vertex cvparse placed on its grid (the document gives no position)."""
REF = "cvparseRef=1;"
"""Style key of a vertex drawn only because a relation names it (not declared)."""
RESERVED_IDS = ("0", "1")
"""Cell ids of the root and the default layer."""
_LINE_STYLES = {"solid": "", "dashed": "dashed=1;", "dotted": "dashed=1;dashPattern=1 3;",
                "bold": "strokeWidth=3;"}
_EDGE_BASE = "edgeStyle=none;rounded=0;html=1;"
_UML_ENDS = {
    "inheritance": "endArrow=block;endFill=0;endSize=12;",
    "realization": "endArrow=block;endFill=0;endSize=12;dashed=1;",
    "composition": "startArrow=diamondThin;startFill=1;startSize=14;endArrow=none;",
    "aggregation": "startArrow=diamondThin;startFill=0;startSize=14;endArrow=none;",
    "dependency": "endArrow=open;endSize=12;dashed=1;",
    "association": "endArrow=open;endSize=12;",
}
_GAP = 40.0


def _num(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".")


def _box(v: Any) -> Box | None:
    """A bbox from a document value, or None if it is not four numbers."""
    if (isinstance(v, (list, tuple)) and len(v) == 4
            and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in v)):
        x1, y1, x2, y2 = map(float, v)
        return min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2)
    return None


def _centre(b: Box) -> tuple[float, float]:
    return (b[0] + b[2]) / 2, (b[1] + b[3]) / 2


def _points(v: Any) -> list[tuple[float, float]]:
    if not isinstance(v, list):
        return []
    out = []
    for p in v:
        if (isinstance(p, (list, tuple)) and len(p) >= 2
                and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in p[:2])):
            out.append((float(p[0]), float(p[1])))
    return out


def _oriented(points: list[tuple[float, float]], src: Box, dst: Box
              ) -> list[tuple[float, float]]:
    """The polyline running from the source box to the target box."""
    if len(points) < 2:
        return points
    cs, ct = _centre(src), _centre(dst)
    keep = math.dist(points[0], cs) + math.dist(points[-1], ct)
    flip = math.dist(points[0], ct) + math.dist(points[-1], cs)
    return points[::-1] if flip < keep else points


class _Grid:
    """Places unpositioned boxes left to right in rows below the positioned content."""

    def __init__(self, known: list[Box], page_width: float):
        self.x0 = 20.0
        self.x = self.x0
        self.y = (max(b[3] for b in known) + _GAP) if known else 20.0
        self.row = 0.0
        self.width = max(page_width, 400.0)

    def place(self, w: float, h: float) -> Box:
        if self.x > self.x0 and self.x + w > self.width:
            self.x, self.y, self.row = self.x0, self.y + self.row + _GAP, 0.0
        b = (self.x, self.y, self.x + w, self.y + h)
        self.x += w + _GAP
        self.row = max(self.row, h)
        return b


class _Drawing:
    """The cells of one diagram, in insertion order."""

    def __init__(self) -> None:
        self.root = ET.Element("root")
        ET.SubElement(self.root, "mxCell", id="0")
        ET.SubElement(self.root, "mxCell", id="1", parent="0")
        self.boxes: dict[str, Box] = {}
        self.n_vertices = 0
        self.n_edges = 0

    def vertex(self, label: str, style: str, box: Box, cid: str | None = None) -> str:
        """A vertex; ``cid`` (a graph node's own id) when it is free, else ``v<k>``."""
        self.n_vertices += 1
        if cid is None or cid in RESERVED_IDS or cid in self.boxes:
            cid = self._free("v", self.n_vertices)
        cell = ET.SubElement(self.root, "mxCell", id=cid, value=label, style=style,
                             vertex="1", parent="1")
        x1, y1, x2, y2 = box
        ET.SubElement(cell, "mxGeometry", x=_num(x1), y=_num(y1), width=_num(max(x2 - x1, 1)),
                      height=_num(max(y2 - y1, 1)), **{"as": "geometry"})
        self.boxes[cid] = box
        return cid

    def edge(self, source: str, target: str, style: str, label: str = "",
             points: list[tuple[float, float]] | None = None) -> str:
        """An edge; ``points`` is the whole polyline, its interior becomes the waypoints."""
        self.n_edges += 1
        cid = self._free("e", self.n_edges)
        cell = ET.SubElement(self.root, "mxCell", id=cid, value=label, style=style, edge="1",
                             parent="1", source=source, target=target)
        geo = ET.SubElement(cell, "mxGeometry", relative="1", **{"as": "geometry"})
        inner = _oriented(points or [], self.boxes[source], self.boxes[target])[1:-1]
        if inner:
            arr = ET.SubElement(geo, "Array", **{"as": "points"})
            for x, y in inner:
                ET.SubElement(arr, "mxPoint", x=_num(x), y=_num(y))
        return cid

    def _free(self, prefix: str, k: int) -> str:
        taken = {c.get("id") for c in self.root}
        while f"{prefix}{k}" in taken:
            k += 1
        return f"{prefix}{k}"

    def extent(self) -> tuple[float, float]:
        if not self.boxes:
            return 0.0, 0.0
        return (max(b[2] for b in self.boxes.values()), max(b[3] for b in self.boxes.values()))


def _text(s: str) -> str:
    """A label for an ``html=1`` cell: the text escaped, line breaks kept."""
    return html.escape(s).replace("\n", "<br>")


# --- graphs ----------------------------------------------------------------------------

def _draw_graph(graph: Graph, d: _Drawing, page_width: float) -> None:
    grid = _Grid([b for n in graph.nodes if (b := _box(n.bbox))], page_width)
    ids: dict[str, str] = {}
    for n in graph.nodes:
        style = _NODE_STYLES.get(n.shape, _NODE_STYLES["other"])
        if n.extra.get("double") and n.shape in ("rect", "other"):
            style = "shape=ext;double=1;margin=3;" + style
        box = _box(n.bbox)
        ids[n.id] = d.vertex(_text(n.label), style + ("" if box else GRID),
                             box or grid.place(120, 60), cid=n.id)
    for e in graph.edges:
        for end in (e.source, e.target):
            if end not in ids:
                ids[end] = d.vertex(_text(end), _NODE_STYLES["other"] + GRID + REF,
                                    grid.place(120, 60))
        at_source, at_target = arrowheads(e)
        style = (_EDGE_BASE + _LINE_STYLES.get(e.style, "")
                 + ("endArrow=block;endFill=1;" if at_target else "endArrow=none;")
                 + ("startArrow=block;startFill=1;" if at_source else "startArrow=none;")
                 + (f"cvparseType={quote(e.type, safe='')};" if e.type else ""))
        d.edge(ids[e.source], ids[e.target], style, _text(e.label), _points(e.extra.get("points")))


# --- ER schemas ------------------------------------------------------------------------

_ENTITY = "rounded=0;whiteSpace=wrap;html=1;align=center;"
_WEAK_ENTITY = "shape=ext;margin=3;double=1;whiteSpace=wrap;html=1;align=center;"
_RELATION = "shape=rhombus;perimeter=rhombusPerimeter;whiteSpace=wrap;html=1;align=center;"
_ATTRIBUTE = "ellipse;whiteSpace=wrap;html=1;align=center;"
_PLAIN_LINE = _EDGE_BASE + "endArrow=none;startArrow=none;"


def _ring(centre: tuple[float, float], radius: float, k: int, n: int, w: float, h: float,
          phase: float = -math.pi / 2) -> Box:
    a = phase + 2 * math.pi * k / max(n, 1)
    cx, cy = centre[0] + radius * math.cos(a), centre[1] + radius * math.sin(a)
    return cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2


def _draw_attributes(d: _Drawing, owner: str, names: list[str], entity: Entity | None
                     ) -> None:
    """Attribute ellipses on a ring around ``owner``; composite components further out."""
    box = d.boxes[owner]
    centre = _centre(box)
    radius = max(box[2] - box[0], box[3] - box[1]) / 2 + 60
    for k, a in enumerate(names):
        style = _ATTRIBUTE
        label = _text(a)
        if entity is not None:
            if a in entity.primary_keys:
                style += "fontStyle=4;"
            if a in entity.multivalued:
                style = "ellipse;shape=doubleEllipse;margin=3;" + style[len("ellipse;"):]
            if a in entity.derived:
                style += "dashed=1;"
        at = _ring(centre, radius, k, len(names), 100, 40)
        cid = d.vertex(label, style, at)
        d.edge(cid, owner, _PLAIN_LINE)
        parts = entity.composite.get(a, []) if entity is not None else []
        for j, part in enumerate(parts):
            angle = -math.pi / 2 + 2 * math.pi * k / max(len(names), 1)
            spread = (j - (len(parts) - 1) / 2) * 0.35
            sub = _ring(_centre(at), 80, 0, 1, 90, 36, angle + spread)
            d.edge(d.vertex(_text(part), _ATTRIBUTE, sub), cid, _PLAIN_LINE)


def _draw_er(schema: ERSchema, d: _Drawing, page_width: float) -> None:
    known = [b for e in schema.entities.values() if (b := _box(e.extra.get("bbox")))]
    known += [b for r in schema.relationships if (b := _box(r.extra.get("bbox")))]
    grid = _Grid(known, page_width)
    ids: dict[str, str] = {}

    def entity(name: str) -> str:
        if name not in ids:
            e = schema.entities.get(name)
            box = _box(e.extra.get("bbox")) if e is not None else None
            if box is None:  # room for its attribute ring inside the grid cell
                cell = grid.place(360, 260)
                box = (cell[0] + 120, cell[1] + 105, cell[0] + 240, cell[1] + 155)
            style = _WEAK_ENTITY if e and e.weak else _ENTITY
            ids[name] = d.vertex(_text(name), style + ("" if e is not None else REF), box)
            if e is not None:
                _draw_attributes(d, ids[name], e.attributes, e)
        return ids[name]

    def between(names: list[str], w: float, h: float) -> Box:
        cs = [_centre(d.boxes[entity(n)]) for n in names]
        if not cs:
            return grid.place(w, h)
        cx, cy = sum(c[0] for c in cs) / len(cs), sum(c[1] for c in cs) / len(cs)
        return cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2

    for name in schema.entities:
        entity(name)
    for r in schema.relationships:
        if isinstance(r, IsA):
            box = _box(r.extra.get("bbox")) or between([r.superclass, *r.subclasses], 60, 40)
            tri = d.vertex(_text(r.name), "triangle;direction=north;whiteSpace=wrap;html=1;", box)
            d.edge(entity(r.superclass), tri, _PLAIN_LINE)
            for sub in r.subclasses:
                d.edge(tri, entity(sub), _PLAIN_LINE)
            continue
        box = _box(r.extra.get("bbox")) or between(r.entities, 110, 60)
        style = _RELATION + ("double=1;" if r.weak else "")
        rid = d.vertex(_text(r.name), style, box)
        lines = r.extra.get("lines") if isinstance(r.extra.get("lines"), list) else []
        for name, card in zip(r.entities, r.cardinalities):
            e = schema.entities.get(name)
            line = next((ln for ln in lines if isinstance(ln, dict)
                         and ln.get("entity") == name), {})
            double = r.weak and e is not None and e.weak  # total participation
            style = _PLAIN_LINE + ("shape=link;" if double else "")
            d.edge(rid, entity(name), style, _text(card), _points(line.get("points")))
        _draw_attributes(d, rid, r.attributes, None)


# --- UML models ------------------------------------------------------------------------

_CLASS = ("verticalAlign=top;align=left;overflow=fill;whiteSpace=wrap;html=1;rounded=0;"
          "spacingLeft=4;")


def _class_label(name: str, attributes: list[str], methods: list[str], stereotype: str) -> str:
    head = f"<b>{_text(name)}</b>"
    if stereotype in ("interface", "abstract", "enum"):
        head = f"&laquo;{stereotype}&raquo;<br>" + head
    parts = [f'<p style="margin:0;text-align:center;">{head}</p>']
    parts.append("<hr>" + "<br>".join(_text(a) for a in attributes))
    parts.append("<hr>" + "<br>".join(_text(m) for m in methods))
    return "".join(parts)


def _draw_uml(model: UMLModel, d: _Drawing, page_width: float) -> None:
    grid = _Grid([b for c in model.classes if (b := _box(c.bbox))], page_width)
    ids: dict[str, str] = {}

    def place(name: str, attributes: list[str], methods: list[str], stereotype: str,
              bbox: Any, declared: bool = True) -> str:
        h = 40 + 18 * (len(attributes) + len(methods))
        box = _box(bbox)
        style = _CLASS + ("" if box else GRID) + ("" if declared else REF)
        return d.vertex(_class_label(name, attributes, methods, stereotype), style,
                        box or grid.place(160, h))

    for c in model.classes:
        cid = place(c.name, c.attributes, c.methods, str(c.extra.get("stereotype", "")).lower(),
                    c.bbox)
        ids.setdefault(c.name, cid)
    for r in model.relations:
        for end in (r.source, r.target):
            if end not in ids:
                ids[end] = place(end, [], [], "", None, declared=False)
        style = _EDGE_BASE + _UML_ENDS[r.type]
        if r.type == "association" and r.extra.get("directed") is False:
            style = _EDGE_BASE + "endArrow=none;"
        d.edge(ids[r.source], ids[r.target], style, _text(str(r.extra.get("label", ""))),
               _points(r.extra.get("points")))


# --- file ------------------------------------------------------------------------------

def to_drawio(doc: Graph | ERSchema | UMLModel, width: int | None = None,
              height: int | None = None) -> str:
    """An uncompressed diagrams.net file redrawing ``doc`` at its detected geometry.

    ``width``/``height`` set the page size (default: the document's image size, else the
    drawing's extent plus a margin).
    """
    extra_w = doc.width if isinstance(doc, Graph) else doc.extra.get("width")
    extra_h = doc.height if isinstance(doc, Graph) else doc.extra.get("height")
    page_w = width or (extra_w if isinstance(extra_w, (int, float)) else None)
    page_h = height or (extra_h if isinstance(extra_h, (int, float)) else None)
    d = _Drawing()
    if isinstance(doc, Graph):
        _draw_graph(doc, d, page_w or 850)
    elif isinstance(doc, ERSchema):
        _draw_er(doc, d, page_w or 850)
    elif isinstance(doc, UMLModel):
        _draw_uml(doc, d, page_w or 850)
    else:
        raise TypeError(f"to_drawio needs a Graph, ERSchema or UMLModel, not "
                        f"{type(doc).__name__}")
    ext_w, ext_h = d.extent()
    page_w = width or page_w or ext_w + 20  # the image's size when known: read back as such
    page_h = height or page_h or ext_h + 20
    mxfile = ET.Element("mxfile", host="cvparse", type="device")
    diagram = ET.SubElement(mxfile, "diagram", id="cvparse-1", name=doc.kind)
    model = ET.SubElement(diagram, "mxGraphModel", dx="0", dy="0", grid="1", gridSize="10",
                          guides="1", tooltips="1", connect="1", arrows="1", fold="1", page="1",
                          pageScale="1", pageWidth=_num(page_w), pageHeight=_num(page_h),
                          math="0", shadow="0")
    model.append(d.root)
    ET.indent(mxfile, space="  ")
    return ET.tostring(mxfile, encoding="unicode") + "\n"
