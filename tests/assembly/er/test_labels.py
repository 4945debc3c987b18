"""Names snapped to the words the page writes elsewhere."""

from cvparse.assembly.er.labels import edit_distance, snap_name

COLUMNS = {"entity_id", "user_id", "sharing_profile_id", "connection_id", "connection_name"}


def test_edit_distance():
    assert edit_distance("entity_id", "enti_y_id") == 1
    assert edit_distance("", "abc") == 3
    assert edit_distance("kitten", "sitting") == 3


def test_garbled_name_snaps_to_the_one_column_it_is_close_to():
    assert snap_name("enti_y_id", COLUMNS) == "entity_id"
    assert snap_name("sharin1_drofile_id", COLUMNS) == "sharing_profile_id"


def test_far_short_or_ambiguous_names_are_kept():
    assert snap_name("places", COLUMNS) == "places"      # close to nothing
    assert snap_name("user", {"users", "used"}) == "user"  # too short to tell
    assert snap_name("connection_nid", {"connection_id", "connection_nim"}) == "connection_nid"
    assert snap_name("entity_id", COLUMNS) == "entity_id"

