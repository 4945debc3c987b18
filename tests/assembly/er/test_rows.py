"""Schema table rows split into column name, type, NOT NULL and key markers."""

from cvparse.assembly.er.rows import (is_type, name_column, split_cells, split_text,
                                      typed_rows)


def test_bracketed_type_and_not_null_leave_the_bare_name():
    f = split_text("InvoiceId [INTEGER] NOT NULL")
    assert (f.name, f.type, f.not_null, f.primary_key) == ("InvoiceId", "INTEGER", True, False)
    f = split_text("amount [NUMERIC(10, 2)]")
    assert (f.name, f.type, f.not_null) == ("amount", "NUMERIC(10,2)", False)


def test_words_ocr_joined_with_underscores_are_parted_again():
    f = split_text("history_id_[SERIAL]_NOT_NULL")
    assert (f.name, f.type, f.not_null) == ("history_id", "SERIAL", True)
    assert split_text("user id [INTEGER]").name == "user_id"


def test_a_user_type_in_brackets_is_kept_as_drawn():
    assert split_text("kind [entity_kind] NOT NULL").type == "entity_kind"


def test_colon_type_guillemet_markers_and_a_bullet():
    f = split_text("• SCHED_NAME : VARCHAR(120) «PK» «FK»")
    assert (f.name, f.type) == ("SCHED_NAME", "VARCHAR(120)")
    assert f.not_null and f.primary_key and f.foreign_key
    assert split_text("JOB_NAME : VARCHAR(200}").type == "VARCHAR(200)"
    f = split_text("DESCRIPTION : VARCHAR(250)")
    assert (f.name, f.type, f.not_null, f.primary_key) == ("DESCRIPTION", "VARCHAR(250)",
                                                           False, False)


def test_a_star_marks_a_key():
    f = split_text("*entity_id [SERIAL] NOT NULL")
    assert (f.name, f.primary_key, f.not_null) == ("entity_id", True, True)


def test_untyped_rows_keep_their_text():
    assert split_text("first name", typed=False).name == "first name"
    assert not typed_rows(["first name", "start date", "rate"])
    assert typed_rows(["id [INTEGER]", "name [TEXT] NOT NULL", "note"])


def test_sql_type_words():
    assert is_type("VARCHAR(200)") and is_type("numeric(13,4)") and is_type("DOUBLE PRECISION")
    assert is_type("int[]")
    assert not is_type("SCHED_NAME") and not is_type("customer")


def test_cells_name_type_markers_in_either_order():
    rows = [["VARCHAR(120)", "SCHED_NAME", "PK,FK"], ["BIGINT", "REPEAT_COUNT", ""],
            ["BOOL", "IS_DURABLE", ""]]
    assert name_column(rows) == 1
    f = split_cells(rows[0], 1)
    assert (f.name, f.type, f.primary_key, f.foreign_key) == ("SCHED_NAME", "VARCHAR(120)",
                                                              True, True)
    rows = [["SCHED_NAME", "VARCHAR(120)", "PK FK"], ["DATE", "DATE", ""]]
    assert name_column(rows) == 0
    f = split_cells(rows[1], 0)
    assert (f.name, f.type, f.primary_key) == ("DATE", "DATE", False)
