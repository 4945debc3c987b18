"""File-system access that cannot hang, and cannot be turned against the user by a link.

Inputs are read only when they are regular files: a named pipe, a device or a socket
would block or never end, so they are refused with a reason before anything is read
(the file is opened non-blocking and checked again on the open descriptor, so a swap
between the check and the open changes nothing).  Outputs are written to a temporary
file created exclusively (never through an existing name or link) in the target's own
folder, then renamed over the target: readers see the old file or the new one, never a
half-written one, and a link planted under the temporary name or the target's name is
replaced, not followed.
"""

from __future__ import annotations

import errno
import fcntl
import hashlib
import os
import secrets
import stat
from pathlib import Path
from typing import BinaryIO

PART_SUFFIX = ".part"
"""Temporary files are ``.<name>.<random>.part`` beside their target."""

_KINDS = {stat.S_IFDIR: "is a directory, not a file",
          stat.S_IFIFO: "is a named pipe, not a regular file",
          stat.S_IFCHR: "is a character device, not a regular file",
          stat.S_IFBLK: "is a block device, not a regular file",
          stat.S_IFSOCK: "is a socket, not a regular file"}


class UnreadableFile(ValueError):
    """``path`` cannot be read as a regular file; ``reason`` says why in a few words."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def _not_regular(mode: int) -> str:
    return _KINDS.get(stat.S_IFMT(mode), "is not a regular file")


def _stat_reason(path: Path, exc: OSError) -> str:
    """Words for a failed ``stat`` of ``path`` (telling broken links and loops apart)."""
    if exc.errno == errno.ELOOP:
        return "symbolic link loop"
    if exc.errno == errno.ENOENT:
        try:
            if stat.S_ISLNK(os.lstat(path).st_mode):
                return "broken symbolic link (its target does not exist)"
        except OSError:
            pass
        return "no such file"
    if exc.errno == errno.EACCES:
        return "permission denied"
    return f"cannot read file: {exc.strerror or exc}"


def open_regular(path: str | Path) -> BinaryIO:
    """Open ``path`` for binary reading if it is (or links to) a regular file.

    Raises :class:`UnreadableFile` otherwise: missing, broken link, link loop, directory,
    pipe, device, socket, no permission.  Never blocks on a pipe.
    """
    path = Path(path)
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        raise UnreadableFile(_stat_reason(path, exc)) from None
    if not stat.S_ISREG(mode):
        raise UnreadableFile(_not_regular(mode))
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        raise UnreadableFile(_stat_reason(path, exc)) from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):  # swapped for something else since the stat
            raise UnreadableFile(_not_regular(mode))
        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~os.O_NONBLOCK)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_regular(path: str | Path, limit: int | None = None) -> bytes:
    """The bytes of the regular file ``path``; :class:`UnreadableFile` if it is not one,
    or if it holds more than ``limit`` bytes (checked before reading it)."""
    with open_regular(path) as fh:
        size = os.fstat(fh.fileno()).st_size
        if limit is not None and size > limit:
            raise UnreadableFile(f"file too large: {size:,} bytes (limit {limit:,})")
        try:
            data = fh.read() if limit is None else fh.read(limit + 1)
        except OSError as exc:
            raise UnreadableFile(f"cannot read file: {exc.strerror or exc}") from None
    if limit is not None and len(data) > limit:  # grew while being read
        raise UnreadableFile(f"file too large: over {limit:,} bytes")
    return data


def _temporary(path: Path) -> tuple[Path, int]:
    """A new file beside ``path``, created exclusively; its name and write descriptor."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    while True:
        tmp = path.with_name(f".{path.name}.{secrets.token_hex(6)}{PART_SUFFIX}")
        try:
            return tmp, os.open(tmp, flags, 0o666)
        except FileExistsError:
            continue


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def write_atomic(path: str | Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` in one rename; on any failure (Ctrl-C included) the
    temporary file is removed and ``path`` is left as it was."""
    path = Path(path)
    tmp, fd = _temporary(path)
    try:
        try:
            _write_all(fd, data)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        _unlink_quietly(tmp)
        raise


def replace_for_append(path: str | Path, data: bytes) -> BinaryIO:
    """Like :func:`write_atomic`, and return the new file open for appending to it (the
    descriptor is the renamed file's own, so no later lookup of ``path`` is followed)."""
    path = Path(path)
    tmp, fd = _temporary(path)
    try:
        _write_all(fd, data)
        os.replace(tmp, path)
        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) | os.O_APPEND)
        return os.fdopen(fd, "ab")
    except BaseException:
        os.close(fd)
        _unlink_quietly(tmp)
        raise


def partial_files(folder: Path, name: str) -> list[Path]:
    """Temporary files left in ``folder`` by writes of ``name`` that did not finish
    (a killed process cannot remove its own)."""
    head = f".{name}."
    try:
        entries = list(folder.iterdir())
    except OSError:
        return []
    return [p for p in entries if p.name.startswith(head) and p.name.endswith(PART_SUFFIX)
            and p.is_file() and not p.is_symlink()]


def _unlink_quietly(path: Path) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def remove_partial(folder: Path, name: str) -> int:
    """Remove :func:`partial_files` of ``name``; returns how many."""
    found = partial_files(folder, name)
    for p in found:
        _unlink_quietly(p)
    return len(found)


def digest(data: bytes) -> dict:
    """What resume checks an output against: ``{"bytes": size, "sha256": hex}``."""
    return {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}


def matches(path: Path, record: object) -> bool:
    """Whether ``path`` is a regular file (not a link) holding exactly what ``record``
    (a :func:`digest`) describes."""
    if not isinstance(record, dict):
        return False
    try:
        st = os.lstat(path)
        if not stat.S_ISREG(st.st_mode) or st.st_size != record.get("bytes"):
            return False
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
        with os.fdopen(fd, "rb") as fh:
            if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                return False
            h = hashlib.sha256()
            for block in iter(lambda: fh.read(1 << 20), b""):
                h.update(block)
    except OSError:
        return False
    return h.hexdigest() == record.get("sha256")
