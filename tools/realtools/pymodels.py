"""Classes of installed Python packages as pylint's pyreverse sees them: its .dot, read back.

pyreverse reads one to three modules of a pure-Python package from PyPI (pinned in
``PACKAGES``) and writes ``classes_<name>.dot``: record boxes (names only with ``-k``, or
name / attributes / methods compartments) and edges with its arrowheads.  :func:`dot_truth`
reads that file into a FORMATS.md section 3 document: every node is a class named by its
drawn title, with the compartments' lines as attributes and methods; every edge is a
relation typed by its arrowhead (``empty``: inheritance, dashed ``empty``: realization,
``diamond``: composition, ``odiamond``: aggregation, ``vee`` or another open head:
association) and directed by FORMATS.md's convention (the diamond end is the whole, the
triangle end the superclass, an association points at its arrow end).  The pyreverse
source draws these diagrams; the PlantUML and Mermaid class sources redraw their models.
"""

from __future__ import annotations

import ast
import html
import pkgutil
import random
import re
import subprocess
import sys
from importlib import import_module
from importlib.util import find_spec
from pathlib import Path

PACKAGES = {"requests": "2.34.2", "click": "8.5.1", "rich": "15.0.0", "attr": "26.1.0",
            "jinja2": "3.1.6", "httpx": "0.28.1", "pygments": "2.21.0", "docutils": "0.23"}
"""The packages read, by import name, with their PyPI release (the distribution of ``attr``
is ``attrs``)."""
MIN_CLASSES, MAX_CLASSES = 2, 25

_HEADS = {"empty": "inheritance", "diamond": "composition", "odiamond": "aggregation"}
_NODE = re.compile(r'^"(?P<id>[^"]+)" \[(?P<attrs>.*)\];$')
_EDGE = re.compile(r'^"(?P<a>[^"]+)" -> "(?P<b>[^"]+)" \[(?P<attrs>.*)\];$')
_TAG = re.compile(r"</?[A-Za-z]+[^>]*>")
_ATTR = re.compile(r'(\w+)=(<.*>|"(?:[^"\\]|\\.)*")(?=, \w+=|$)')


def _attrs(text: str) -> dict[str, str]:
    out = {}
    for key, val in _ATTR.findall(text):
        out[key] = val[1:-1]
    return out


def _fields(label: str, *, italic: bool = False) -> list[list[str]]:
    """A record label's fields, each as its lines (HTML markup and escapes undone); with
    ``italic`` only the lines pyreverse set in italics (abstract methods)."""
    body = label[1:-1] if label.startswith("{") and label.endswith("}") else label
    parts = re.split(r"(?<!\\)\|", body)
    out = []
    for part in parts:
        lines = [html.unescape(_TAG.sub("", s).replace("\\|", "|")).strip()
                 for s in re.split(r'<br[^>]*/>', part) if not italic or "<I>" in s]
        out.append([s for s in lines if s])
    return out


def dot_truth(dot_text: str, *, details: bool = False) -> dict:
    """The UML document of a pyreverse class diagram (see the module docstring).

    With ``details`` each class also lists the methods pyreverse marked abstract (italics)
    and says whether it marked the class an exception (red title), for the sources that
    redraw its model (:func:`redraw_kinds`)."""
    classes, names = [], {}
    relations = []
    for line in dot_text.splitlines():
        line = line.strip()
        edge = _EDGE.match(line)
        if edge:
            a = _attrs(edge.group("attrs"))
            kind = _HEADS.get(a.get("arrowhead", ""), "association")
            if kind == "inheritance" and a.get("style") == "dashed":
                kind = "realization"
            tail, head = edge.group("a"), edge.group("b")
            src, dst = (head, tail) if kind in ("composition", "aggregation") else (tail, head)
            relations.append({"type": kind, "source": src, "target": dst,
                              "label": html.unescape(a.get("label", ""))})
            continue
        node = _NODE.match(line)
        if node:
            a = _attrs(node.group("attrs"))
            fields = _fields(a.get("label", node.group("id")))
            title = fields[0][0] if fields and fields[0] else node.group("id")
            names[node.group("id")] = title
            cls = {"name": title, "attributes": fields[1] if len(fields) > 1 else [],
                   "methods": fields[2] if len(fields) > 2 else []}
            if details:
                cls["abstract_methods"] = [m for f in _fields(a.get("label", ""), italic=True)[2:]
                                           for m in f]
                cls["exception"] = a.get("fontcolor") == "red"
            classes.append(cls)
    rels = [dict(r, source=names[r["source"]], target=names[r["target"]])
            for r in relations if r["source"] in names and r["target"] in names]
    return {"kind": "uml", "classes": classes, "relations": rels}


def module_groups(rng: random.Random) -> list[list[str]]:
    """Candidate pages in drawing order (taken from the end): each module of every package
    and runs of two or three neighbouring modules of one package, shuffled within each
    package and then dealt one package at a time, so that a package of hundreds of modules
    (Pygments' lexers) does not fill the corpus."""
    per_package = []
    for top in PACKAGES:
        mod = import_module(top)
        subs = sorted(m.name for m in pkgutil.walk_packages(mod.__path__, prefix=f"{top}.")
                      if not m.name.split(".")[-1].startswith("__"))
        groups = [[s] for s in subs]
        groups += [subs[i:i + n] for n in (2, 3) for i in range(0, len(subs) - n + 1, n)]
        rng.shuffle(groups)
        per_package.append(groups)
    dealt = []
    while any(per_package):
        for groups in per_package:
            if groups:
                dealt.append(groups.pop())
    return dealt[::-1]


def class_count(modules: list[str]) -> int:
    """Classes defined at the top of the modules' source (a cheap pre-check of page size)."""
    n = 0
    for name in modules:
        spec = find_spec(name)
        if spec is None or not spec.origin or not spec.origin.endswith(".py"):
            continue
        tree = ast.parse(Path(spec.origin).read_text(encoding="utf-8"))
        n += sum(isinstance(node, ast.ClassDef) for node in tree.body)
    return n


def run_pyreverse(modules: list[str], options: list[str], work: Path) -> str:
    """pyreverse's class diagram of ``modules`` as .dot text ("" if it wrote none)."""
    out = work / "classes_page.dot"
    out.unlink(missing_ok=True)
    cmd = [sys.executable, "-c", "from pylint import run_pyreverse; run_pyreverse()",
           "-o", "dot", "-p", "page", *options, *modules]
    subprocess.run(cmd, cwd=work, capture_output=True, text=True, timeout=300, check=True)
    return out.read_text(encoding="utf-8") if out.exists() else ""




def distribution(package: str) -> str:
    """The PyPI distribution of an import name."""
    return "attrs" if package == "attr" else package


class PageSource:
    """Pages of a few classes drawn from the shuffled module groups, each group used once."""

    def __init__(self, rng: random.Random, work: Path):
        self.groups = module_groups(rng)
        self.work = work
        self.failed: list[dict] = []

    def next_page(self, options: list[str], *, details: bool = False,
                  max_classes: int = MAX_CLASSES) -> tuple[list[str], str, dict] | None:
        """(modules, pyreverse's .dot text, its UML document) of the next group whose
        diagram holds 2 to ``max_classes`` classes; None when the groups run out."""
        while self.groups:
            modules = self.groups.pop()
            if not MIN_CLASSES <= class_count(modules) <= max_classes:
                continue
            try:
                dot = run_pyreverse(modules, options, self.work)
            except subprocess.CalledProcessError as exc:
                self.failed.append({"modules": modules, "reason": exc.stderr[-300:]})
                continue
            doc = dot_truth(dot, details=details)
            if MIN_CLASSES <= len(doc["classes"]) <= max_classes:
                return modules, dot, doc
        return None

    @staticmethod
    def provenance(modules: list[str]) -> dict:
        from importlib.metadata import version
        dist = distribution(modules[0].split(".")[0])
        return {"package": dist, "version": version(dist), "modules": modules}


def redraw_kinds(doc: dict) -> tuple[dict[str, str], list[dict]]:
    """How a class-diagram language shows a pyreverse model (``dot_truth(details=True)``):
    each class's kind (``interface``: every method abstract and no attributes;
    ``abstract``: some method abstract; ``exception``; else ``class``) and the relations,
    an inheritance whose superclass is an interface becoming a realization."""
    kinds = {}
    for c in doc["classes"]:
        abstract = c.get("abstract_methods", [])
        if abstract and len(abstract) == len(c["methods"]) and not c["attributes"]:
            kinds[c["name"]] = "interface"
        elif abstract:
            kinds[c["name"]] = "abstract"
        else:
            kinds[c["name"]] = "exception" if c.get("exception") else "class"
    rels = [dict(r, type="realization") if r["type"] == "inheritance"
            and kinds.get(r["target"]) == "interface" else dict(r) for r in doc["relations"]]
    return kinds, rels
