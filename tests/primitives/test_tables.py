"""Tables as perception finds them: stacked cells, their outline, their drop shadow, and
the stacks found once per inventory."""

import numpy as np

from cvparse.primitives.tables import cell_stacks

from .synth import cell, cells_inventory


def test_a_row_that_lost_a_cell_still_stacks_in_its_table():
    from cvparse.primitives.tables import _aligned

    name, row, partial = (10, 0, 300, 30), (10, 34, 300, 60), (250, 64, 300, 90)
    assert _aligned(name, row, 5) and _aligned(row, partial, 5)
    assert not _aligned(row, (200, 64, 400, 90), 5)  # a box off to one side
    assert not _aligned(row, (100, 64, 200, 90), 5)  # neither side shared


def test_a_stack_of_rows_clears_its_whole_outline():
    from cvparse.primitives.tables import table_boxes

    # (cells as their insides: a border apart)
    inv = cells_inventory([cell((100, 50, 220, 74), "Account"), cell((100, 76, 180, 160), "id"),
                           cell((182, 76, 220, 160)), cell((300, 50, 360, 80), "Lone")])
    assert table_boxes(inv) == [(100, 50, 220, 160)]


def test_a_light_shadow_along_a_table_is_no_ink_but_a_light_line_across_it_is():
    import cv2

    from cvparse.primitives.tables import shadowless_ink
    from cvparse.primitives.inventory import build_inventory

    rgb = np.full((200, 320, 3), 255, np.uint8)
    cv2.rectangle(rgb, (104, 44), (225, 165), (170, 170, 170), -1)  # the shadow, offset
    cv2.rectangle(rgb, (100, 40), (220, 160), (255, 255, 255), -1)
    cv2.rectangle(rgb, (100, 40), (220, 160), (0, 0, 0), 2)
    cv2.line(rgb, (226, 100), (310, 100), (170, 170, 170), 3)  # a light line leaving it
    inv = build_inventory(rgb, ocr=False)
    assert inv.ink[120, 223] and inv.ink[163, 160]
    kept = shadowless_ink(inv, [(100, 40, 221, 161)])
    assert not kept[120, 223] and not kept[163, 160]  # the shadow's right and bottom bands
    assert kept[100, 230] and kept[100, 300]          # the line, beside the table and away
    assert kept[40, 160] and kept[100, 100]           # the table's own border


def test_a_light_line_running_beside_a_table_is_no_shadow():
    import cv2

    from cvparse.primitives.tables import shadowless_ink
    from cvparse.primitives.inventory import build_inventory

    rgb = np.full((200, 320, 3), 255, np.uint8)
    cv2.rectangle(rgb, (100, 40), (220, 160), (0, 0, 0), 2)
    cv2.line(rgb, (229, 50), (229, 190), (170, 170, 170), 3)  # paper between it and the side
    inv = build_inventory(rgb, ocr=False)
    assert inv.ink[120, 229]
    assert shadowless_ink(inv, [(100, 40, 221, 161)])[120, 229]


def test_the_stacks_are_found_once_per_inventory_and_handed_out_as_copies():
    inv = cells_inventory([cell((100, 50, 220, 74), "Account"), cell((100, 76, 220, 160), "id"),
                           cell((300, 50, 360, 80), "Lone")])
    first = cell_stacks(inv)
    assert first == [[[0], [1]], [[2]]]
    first[0].append([2])  # a caller's change stays its own
    assert cell_stacks(inv) == [[[0], [1]], [[2]]]
    assert inv.facts.computed["cell_stacks"] == 1


def test_a_row_rounded_off_by_letters_on_its_corners_stays_in_its_table():
    # Labels written over a row's border round its box off to a stadium: between rows
    # of the table it is a row, and stadiums alone are no table.
    inv = cells_inventory([cell((100, 50, 220, 74), "QRTZ"),
                           cell((100, 76, 220, 100), "id", kind="stadium"),
                           cell((100, 102, 220, 126), "name"),
                           cell((300, 50, 360, 80), "age", kind="stadium"),
                           cell((300, 82, 360, 110), "size", kind="stadium")])
    assert cell_stacks(inv) == [[[0], [1], [2]]]
