"""Legend boxes found by their swatch rows, once per inventory, before any text is read;
the cluster release keeps them and hands their rows on."""

from cvparse.primitives.clusters import release_clusters
from cvparse.primitives.inventory import build_inventory
from cvparse.primitives.swatches import _legend_rows, legend_rows, legend_shapes

from .synth import canvas, font, to_array


def _page():
    """A frame holding a labelled box (a cluster) beside a legend box of two rows."""
    img, draw = canvas(560, 300)
    draw.rectangle([20, 20, 320, 280], outline=(120, 130, 140), width=2)
    draw.text((32, 28), "Group", fill=(0, 0, 0), font=font(16))
    draw.rectangle([100, 110, 240, 190], outline=(0, 0, 0), width=2)
    draw.text((130, 140), "Billing", fill=(0, 0, 0), font=font(16))
    draw.rectangle([360, 20, 540, 110], outline=(40, 40, 40), width=2)
    draw.line([(372, 45), (412, 45)], fill=(200, 30, 30), width=2)
    draw.text((422, 36), "alpha", fill=(20, 20, 20), font=font(16))
    for x in range(372, 412, 13):
        draw.line([(x, 85), (min(x + 8, 412), 85)], fill=(30, 60, 200), width=2)
    draw.text((422, 76), "beta", fill=(20, 20, 20), font=font(16))
    return to_array(img)


def test_the_legend_box_is_found_once_and_stays_when_the_cluster_goes():
    inv = build_inventory(_page())
    legend = [k for k, s in enumerate(inv.shapes) if s.bbox[0] >= 350]
    assert len(legend) == 1
    assert legend_shapes(inv) == legend and legend_shapes(inv) == legend
    assert inv.facts.computed["legend_rows"] == 1
    out = release_clusters(inv, keep=legend_shapes(inv))
    assert len(out.shapes) == len(inv.shapes) - 1  # the frame left, the legend stayed
    kept = legend_rows(out)  # handed on, renumbered: not found again
    assert out.facts.computed["legend_rows"] == 0
    fresh = _legend_rows(out, out.ink)
    moved = out.shapes.index(inv.shapes[legend[0]])
    assert moved != legend[0] and [r[0] for r in kept] == [r[0] for r in fresh] == [moved]
    assert [[row[0] for row in r[4]] for r in kept] == [[row[0] for row in r[4]] for r in fresh]
