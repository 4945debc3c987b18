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


def test_misread_header_words_snap_to_the_words_the_page_writes():
    from cvparse.assembly.er.labels import snap_header

    others = ["entity_id", "permission", "guacamole_user", "order_id", "entity_type",
              "permission", "guacamole_group", "order_id"]
    assert snap_header("guacamole_enitity", others) == "guacamole_entity"
    assert snap_header("guacamole_system_penmission", others) == "guacamole_system_permission"
    assert snap_header("orders", others) == "orders"            # a plural is another word
    assert snap_header("Guacamole_USER", others) == "Guacamole_USER"  # case is no misreading
    # a word read once may be the misread one: the header is kept
    assert snap_header("Staff", ["statf_id", "name"]) == "Staff"
