"""Worker processes that outlive each other's deaths, die with their parent and stop at once.

``concurrent.futures.ProcessPoolExecutor`` fails every pending task when one worker dies
(an out-of-memory kill, a segfault in a native library) and cannot say which task killed
it.  Here each worker holds one task at a time over its own pipe, so a death is pinned on
the task it was running, reported as a :class:`Died` result with its cause, and a fresh
worker takes over the rest.  Workers ask the kernel to kill them when their parent dies
(Linux ``PR_SET_PDEATHSIG``) and also watch their parent id, so a parent killed with
``kill -9`` leaves no workers behind.  :meth:`WorkerPool.stop` ends every worker within
about a second (SIGTERM, then SIGKILL).

Workers are forked: they inherit the parent's imported modules (the parser is imported
once) and its state at the time of the fork.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any

PR_SET_PDEATHSIG = 1
PARENT_POLL = 0.5
"""Seconds between a worker's checks that its parent is alive (the fallback watch)."""
STOP_GRACE = 1.0
"""Seconds workers get to exit after SIGTERM before SIGKILL."""


@dataclass(frozen=True)
class Died:
    """The result of a task whose worker died while running it."""

    cause: str


def death_cause(exitcode: int | None) -> str:
    """Words for a dead process's exit code (negative: the signal that killed it)."""
    if exitcode is None:
        return "worker process vanished"
    if exitcode < 0:
        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            name = f"signal {-exitcode}"
        hint = {"SIGKILL": " (out of memory?)", "SIGSEGV": " (a crash in native code)",
                "SIGBUS": " (a crash in native code)", "SIGABRT": " (aborted)"}.get(name, "")
        return f"worker process killed by {name}{hint}"
    return f"worker process exited with status {exitcode}"


def _die_with_parent(parent: int) -> None:
    """Make this process end when ``parent`` does: the kernel's parent-death signal where
    there is one, and a thread that polls the parent id everywhere."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:  # the parent died before the request took
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(PARENT_POLL)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _serve(conn: Connection, fn: Callable[..., Any], init: Callable[[], None] | None,
           parent: int) -> None:
    """Worker loop: receive ``(key, args)``, send back ``(key, fn(*args))``; stop on None
    or when the parent's end of the pipe closes."""
    _die_with_parent(parent)
    if init is not None:
        init()
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        key, args = task
        try:
            result = fn(*args)
        except Exception as exc:  # noqa: BLE001 - reported like a death, the worker lives on
            result = Died(f"worker error: {type(exc).__name__}: {exc}")
        conn.send((key, result))


class _Worker:
    def __init__(self, ctx, fn, init):
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_serve, args=(child, fn, init, os.getpid()),
                                daemon=True)
        self.proc.start()
        child.close()
        self.key: Any = None

    def give(self, key: Any, args: tuple) -> None:
        self.key = key
        self.conn.send((key, args))


class WorkerPool:
    """``n`` forked workers running ``fn``; ``init`` runs first in each worker."""

    def __init__(self, n: int, fn: Callable[..., Any], init: Callable[[], None] | None = None):
        self.n, self.fn, self.init = n, fn, init
        self._ctx = mp.get_context("fork")
        self._workers: list[_Worker] = []
        self._pending: deque = deque()

    def in_flight(self) -> list[Any]:
        """Keys of the tasks being run now."""
        return [w.key for w in self._workers if w.key is not None]

    def _assign(self, w: _Worker) -> bool:
        """Give ``w`` the next task; a worker that died before taking it is replaced
        (the task goes to the fresh one).  False when nothing is left."""
        while self._pending:
            task = self._pending.popleft()
            try:
                w.give(*task)
                return True
            except OSError:  # its end of the pipe is gone: the worker died idle
                w.key = None
                self._pending.appendleft(task)
                self._workers.remove(w)
                self._end(w)
                w = _Worker(self._ctx, self.fn, self.init)
                self._workers.append(w)
        return False

    @staticmethod
    def _end(w: _Worker) -> None:
        w.conn.close()
        w.proc.join(STOP_GRACE)
        if w.proc.is_alive():
            w.proc.kill()
            w.proc.join()

    def run(self, tasks: Iterable[tuple[Any, tuple]],
            stop: Callable[[], bool] = lambda: False,
            poll: float = 0.2) -> Iterator[tuple[Any, Any]]:
        """Yield ``(key, result)`` as tasks finish, ``result`` a :class:`Died` when the
        worker running it died.  Returns early (tasks left undone) once ``stop()`` is
        true; it is checked every ``poll`` seconds."""
        self._pending.extend(tasks)
        while self._pending and len(self._workers) < self.n:
            w = _Worker(self._ctx, self.fn, self.init)
            self._workers.append(w)
            self._assign(w)
        while self.in_flight() and not stop():
            busy = [w for w in self._workers if w.key is not None]
            ready = wait([w.conn for w in busy] + [w.proc.sentinel for w in busy], poll)
            for w in busy:
                if w.conn in ready or w.proc.sentinel in ready:
                    yield from self._collect(w)

    def drain(self) -> Iterator[tuple[Any, Any]]:
        """Results already sent by workers but not yet read (used when stopping)."""
        for w in self._workers:
            if w.key is not None and w.conn.poll(0):
                try:
                    key, result = w.conn.recv()
                except (EOFError, OSError):
                    continue
                w.key = None
                yield key, result

    def _collect(self, w: _Worker) -> Iterator[tuple[Any, Any]]:
        try:
            if not w.conn.poll(0):
                raise EOFError
            key, result = w.conn.recv()
        except (EOFError, OSError):
            key = w.key
            self._workers.remove(w)
            self._end(w)  # a worker that closed its pipe but lives on is killed
            w.key = None
            yield key, Died(death_cause(w.proc.exitcode))
            if self._pending:
                fresh = _Worker(self._ctx, self.fn, self.init)
                self._workers.append(fresh)
                self._assign(fresh)
            return
        w.key = None
        yield key, result
        if not self._assign(w):
            self._retire(w)

    def _retire(self, w: _Worker) -> None:
        try:
            w.conn.send(None)
        except OSError:
            pass
        self._workers.remove(w)
        self._end(w)

    def stop(self) -> None:
        """End every worker now: SIGTERM, then SIGKILL after ``STOP_GRACE`` seconds."""
        self._pending.clear()
        workers, self._workers = self._workers, []
        for w in workers:
            if w.proc.is_alive():
                w.proc.terminate()
        deadline = time.monotonic() + STOP_GRACE
        for w in workers:
            w.proc.join(max(0.0, deadline - time.monotonic()))
            if w.proc.is_alive():
                w.proc.kill()
                w.proc.join()
            w.conn.close()
