"""Clusters: a box holding a node-sized shape is a cluster, not a node, and the words
inside it are free text."""

from cvparse.primitives.clusters import cluster_shapes, clusters_of, release_clusters
from cvparse.primitives.inventory import build_inventory

from .synth import canvas, font, to_array


def _cluster_page(inner: str = "box", title: bool = True):
    """A tinted frame titled "Group" (unless not ``title``) holding a labelled box
    (``box``), a line between two words (``line``), one word only (``text``) or a label
    of two lines (``lines``)."""
    img, draw = canvas(420, 300)
    draw.rounded_rectangle([20, 20, 400, 280], radius=10, fill=(229, 245, 253),
                           outline=(120, 130, 140), width=2)
    if title:
        draw.text((32, 28), "Group", fill=(0, 0, 0), font=font(16))
    if inner == "box":
        draw.rectangle([140, 110, 280, 190], fill=(255, 255, 255), outline=(0, 0, 0),
                       width=2)
        draw.text((170, 140), "Billing", fill=(0, 0, 0), font=font(16))
    elif inner == "line":
        draw.text((60, 140), "alpha", fill=(0, 0, 0), font=font(16))
        draw.text((300, 140), "omega", fill=(0, 0, 0), font=font(16))
        draw.line([(120, 150), (290, 150)], fill=(0, 0, 0), width=2)
    elif inner == "lines":
        draw.text((170, 130), "Billing", fill=(0, 0, 0), font=font(16))
        draw.text((170, 150), "Service", fill=(0, 0, 0), font=font(16))
    else:
        draw.text((170, 140), "Billing", fill=(0, 0, 0), font=font(16))
    return to_array(img)


def test_a_frame_holding_a_box_is_a_cluster_and_its_title_free_text():
    inv = build_inventory(_cluster_page("box"))
    assert len(inv.shapes) == 2
    out = release_clusters(inv)
    assert [s.label for s in out.shapes] == ["Billing"]
    assert [t.text for t in out.texts] == ["Group"]
    assert len(clusters_of(out)) == 1 and clusters_of(inv) == []


def test_a_box_holding_one_label_only_is_no_cluster():
    inv = build_inventory(_cluster_page("lines", title=False))
    st, th = inv.scale.stroke, inv.scale.text_height
    assert cluster_shapes(inv.shapes, st, th, inv.ink) == []
    assert release_clusters(inv) is inv
    # it says so: later stages read that there are none, they need not look again
    assert clusters_of(inv) == [] and inv.facts.computed["clusters"] == 0


def test_a_box_holding_a_title_and_a_label_apart_is_a_cluster():
    # a plain-text node in a titled subgraph: two labels, no shape held
    inv = build_inventory(_cluster_page("text"))
    st, th = inv.scale.stroke, inv.scale.text_height
    assert cluster_shapes(inv.shapes, st, th) == []  # no shape inside it
    assert cluster_shapes(inv.shapes, st, th, inv.ink) == [0]
    out = release_clusters(inv)
    assert out.shapes == [] and sorted(t.text for t in out.texts) == ["Billing", "Group"]


def test_a_released_clusters_border_is_no_line():
    # a titled group holding two words and the line between them (no closed shape
    # inside, so the tracer's own frame finder does not see it): its border is cleared
    from cvparse.connectors.trace import connector_mask, trace_connectors

    inv = release_clusters(build_inventory(_cluster_page("line")))
    assert len(clusters_of(inv)) == 1
    lines = trace_connectors(inv, connector_mask(inv))
    assert lines, "the line between the words is traced"
    for c in lines:
        xs, ys = c.points[:, 0], c.points[:, 1]
        assert xs.min() > 30 and xs.max() < 390 and ys.min() > 30 and ys.max() < 270


def test_a_line_running_in_from_a_clusters_border_stays_out_of_it():
    # a line crossing into the group and ending inside cuts a slit into the cluster's
    # area; the slit's sides are the line, not the border
    from cvparse.primitives.clusters import cluster_borders

    img, draw = canvas(420, 300)
    draw.rounded_rectangle([20, 20, 400, 280], radius=10, outline=(120, 130, 140), width=2)
    draw.text((32, 28), "Group", fill=(0, 0, 0), font=font(16))
    draw.text((170, 140), "Billing", fill=(0, 0, 0), font=font(16))
    draw.line([(300, 250), (300, 295)], fill=(0, 0, 0), width=2)
    inv = release_clusters(build_inventory(to_array(img)))
    assert len(clusters_of(inv)) == 1
    border = cluster_borders(inv)
    assert border[21, 200] and border[279, 250]  # the frame itself
    assert not border[240:262, 298:303].any()  # the line, well inside the frame
