"""Icon labels read again where lines running into them took letters away."""

from cvparse.assembly.graph.assemble import topology_nodes
from cvparse.assembly.graph.iconlabels import adds_letters, kept_words
from cvparse.primitives.inventory import build_inventory

from ...primitives.synth import canvas, font, to_array


def test_a_fuller_reading_keeps_every_old_letter_in_order():
    assert adds_letters("Dri Chip", "Driver Chip")
    assert adds_letters("ICROC TROLLER", "Microcon troller")  # case and spaces ignored
    assert adds_letters("Capacito", "Capacitor")
    assert not adds_letters("Header C onnector", "Header vonnector")  # a letter changed
    assert not adds_letters("Diode", "Diode")  # nothing added
    assert not adds_letters("Server C", "Server Cc")  # a capital read twice
    assert not adds_letters("datacenter", "dataccenter")
    assert not adds_letters("Bridge C", "Bridge Ce.")  # a lone suffix read as two letters
    assert adds_letters("Serve 7", "Server 7")
    assert not adds_letters("ICROC TROLLER", "TRO TROLLER")  # letters dropped


def test_words_with_none_of_the_old_letters_are_dropped():
    assert kept_words("diode 1", 'wr" diode 1') == "diode 1"
    assert kept_words("boost converter", "boost co wen nverter") == "boost co nverter"
    assert kept_words("Dri Chip", "Driver Chip") == "Driver Chip"


def _lines_into_label_page():
    """A faint tile with one dark stroke and its label under it, and two lines in other
    colours ending on the label's first and last letters (as lines start and end at an
    icon's box, whose bottom is the label)."""
    img, draw = canvas(360, 240)
    draw.rectangle([150, 40, 190, 75], fill=(245, 247, 248))
    draw.line([(163, 58), (176, 56)], fill=(60, 60, 60), width=3)
    draw.text((140, 95), "Thermistor", fill=(40, 40, 40), font=font(16))
    draw.line([(40, 200), (143, 99)], fill=(140, 70, 170), width=3)
    draw.line([(330, 200), (216, 100)], fill=(40, 110, 180), width=3)
    return to_array(img)


def test_letters_a_line_ends_on_are_read_with_the_label():
    inv = build_inventory(_lines_into_label_page())
    labels = [n.label.replace(" ", "").lower() for n in topology_nodes(inv)
              if n.shape == "icon"]
    assert labels == ["thermistor"]
