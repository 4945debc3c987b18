"""Safe file access: only regular files are read (never blocking), writes never follow links."""

from __future__ import annotations

import os
import socket
import threading

import pytest

from cvparse.files import (UnreadableFile, digest, matches, open_regular, partial_files,
                           read_regular, remove_partial, replace_for_append, write_atomic)


def _reason(path) -> str:
    with pytest.raises(UnreadableFile) as info:
        open_regular(path)
    return info.value.reason


def test_regular_file_and_link_to_one_are_read(tmp_path):
    (tmp_path / "a.png").write_bytes(b"abc")
    os.symlink(tmp_path / "a.png", tmp_path / "link.png")
    assert read_regular(tmp_path / "a.png") == b"abc"
    assert read_regular(tmp_path / "link.png") == b"abc"


def test_non_regular_files_are_refused_with_their_kind(tmp_path):
    os.mkfifo(tmp_path / "fifo.png")
    os.symlink(tmp_path / "nowhere.png", tmp_path / "dangling.png")
    os.symlink("loop.png", tmp_path / "loop.png")
    (tmp_path / "dir.png").mkdir()
    assert _reason(tmp_path / "fifo.png") == "is a named pipe, not a regular file"
    assert _reason(tmp_path / "dangling.png").startswith("broken symbolic link")
    assert _reason(tmp_path / "loop.png") == "symbolic link loop"
    assert _reason(tmp_path / "dir.png") == "is a directory, not a file"
    assert _reason(tmp_path / "missing.png") == "no such file"
    assert _reason("/dev/null") == "is a character device, not a regular file"
    sock = socket.socket(socket.AF_UNIX)
    try:
        sock.bind(str(tmp_path / "s.png"))
        assert _reason(tmp_path / "s.png") == "is a socket, not a regular file"
    finally:
        sock.close()


def test_a_fifo_is_refused_without_blocking(tmp_path):
    os.mkfifo(tmp_path / "fifo.png")
    done = threading.Event()

    def attempt():
        with pytest.raises(UnreadableFile):
            open_regular(tmp_path / "fifo.png")
        done.set()

    threading.Thread(target=attempt, daemon=True).start()
    assert done.wait(5), "open_regular blocked on a named pipe"


def test_size_limit_is_checked_before_reading(tmp_path):
    (tmp_path / "big.txt").write_bytes(b"x" * 101)
    assert read_regular(tmp_path / "big.txt", limit=101) == b"x" * 101
    with pytest.raises(UnreadableFile, match=r"file too large: 101 bytes \(limit 100\)"):
        read_regular(tmp_path / "big.txt", limit=100)


def test_atomic_write_replaces_planted_links_instead_of_following_them(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    out = tmp_path / "out"
    out.mkdir()
    os.symlink(victim, out / "x.json")
    os.symlink(victim, out / "x.json.part")
    write_atomic(out / "x.json", b"new")
    assert victim.read_text() == "precious"
    assert not (out / "x.json").is_symlink() and (out / "x.json").read_bytes() == b"new"
    assert partial_files(out, "x.json") == []


def test_failed_atomic_write_leaves_no_partial_file(tmp_path):
    (tmp_path / "x.json").mkdir()  # rename over a directory fails
    with pytest.raises(OSError):
        write_atomic(tmp_path / "x.json", b"data")
    assert [p.name for p in tmp_path.iterdir()] == ["x.json"]


def test_replace_for_append_keeps_the_renamed_file(tmp_path):
    target = tmp_path / "report.jsonl"
    fh = replace_for_append(target, b"one\n")
    os.replace(tmp_path / "report.jsonl", tmp_path / "moved.jsonl")
    os.symlink(tmp_path / "elsewhere", target)  # appending must not go through this
    with fh:
        fh.write(b"two\n")
    assert (tmp_path / "moved.jsonl").read_bytes() == b"one\ntwo\n"
    assert not (tmp_path / "elsewhere").exists()


def test_partial_files_are_found_and_removed(tmp_path):
    (tmp_path / ".a[1].png.0123.part").write_bytes(b"")
    (tmp_path / ".b.png.0123.part").write_bytes(b"")
    assert remove_partial(tmp_path, "a[1].png") == 1
    assert [p.name for p in tmp_path.iterdir()] == [".b.png.0123.part"]


def test_matches_checks_kind_size_and_hash(tmp_path):
    data = b"content"
    (tmp_path / "x.json").write_bytes(data)
    rec = digest(data)
    assert rec["bytes"] == 7 and matches(tmp_path / "x.json", rec)
    (tmp_path / "y.json").write_bytes(b"contenT")
    assert not matches(tmp_path / "y.json", rec)
    os.symlink(tmp_path / "x.json", tmp_path / "z.json")
    assert not matches(tmp_path / "z.json", rec)
    assert not matches(tmp_path / "missing.json", rec) and not matches(tmp_path / "x.json", None)
