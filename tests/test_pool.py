"""The worker pool: every task gets a result, a death fails only its task, stop is quick."""

from __future__ import annotations

import os
import signal
import threading
import time

from cvparse.pool import Died, WorkerPool


def _square(x: int) -> int:
    return x * x


def _kill_self_on_three(x: int) -> int:
    if x == 3:
        os.kill(os.getpid(), signal.SIGKILL)
    return x


def _die_after_answering(x: int) -> int:
    threading.Timer(0.01, os._exit, (5,)).start()
    return x


def _raise(x: int) -> int:
    raise RuntimeError(f"bad {x}")


def test_every_task_gets_its_result():
    pool = WorkerPool(2, _square)
    got = dict(pool.run((i, (i,)) for i in range(10)))
    assert got == {i: i * i for i in range(10)}
    pool.stop()


def test_a_killed_worker_fails_only_its_task():
    pool = WorkerPool(2, _kill_self_on_three)
    got = dict(pool.run((i, (i,)) for i in range(8)))
    assert got.pop(3) == Died("worker process killed by SIGKILL (out of memory?)")
    assert got == {i: i for i in range(8) if i != 3}


def test_workers_dying_between_tasks_lose_nothing():
    pool = WorkerPool(2, _die_after_answering)
    got = dict(pool.run((i, (i,)) for i in range(6)))
    assert sorted(got) == list(range(6))
    assert all(v == k or isinstance(v, Died) for k, v in got.items())


def test_an_exception_is_a_result_not_a_dead_pool():
    pool = WorkerPool(1, _raise)
    got = dict(pool.run([(1, (1,)), (2, (2,))]))
    assert got == {1: Died("worker error: RuntimeError: bad 1"),
                   2: Died("worker error: RuntimeError: bad 2")}


def test_stop_ends_busy_workers_within_the_grace_time():
    at_once = WorkerPool(2, time.sleep)
    assert list(at_once.run([(0, (30,))], stop=lambda: True)) == []
    at_once.stop()
    stop_at = time.monotonic() + 0.3
    pool = WorkerPool(2, time.sleep)
    run = pool.run(((i, (30,)) for i in range(4)), stop=lambda: time.monotonic() > stop_at)
    assert list(run) == [] and len(pool.in_flight()) == 2
    t0 = time.monotonic()
    pool.stop()
    assert time.monotonic() - t0 < 1.5 and pool.in_flight() == []
