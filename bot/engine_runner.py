"""Where the engine's part of an order runs: on the event loop when that kind of order has proven
cheap, else in a worker thread (issue 25).

A trip to a worker thread and back costs more than a cheap order's whole engine work: the loop wakes
the thread, the thread contends for the GIL, and the thread wakes the loop again; on a machine whose
cores are shared, each wake-up can hand the core to another process for a time slice (measured with
``benchmarks/bench_ack.py``). An order that may take long must not block the loop for other games'
players, though. So each kind of order (ruleset, first word) is timed: its first ``SAMPLES`` runs go
to a thread, timed there, and once the slowest of them took at most ``BUDGET``, later ones run on the
loop, still timed. A run on the loop that takes longer than the budget sends that kind back to the
thread for good (the slowest time is kept, never forgotten), so a kind of order can stall the loop
past the budget at most once in a process's life, by its own worst case.

The times are the running thread's CPU time (``time.thread_time``): the work the order itself does, which
is what it holds the loop for. Not wall time: in the worker thread, wall time counts the waits for the GIL
while the loop runs other games' orders (Python hands the GIL over every 5 ms), and on a shared machine the
time slices other processes take; under load nearly every sample then overran the budget, and every kind of
order stayed in the thread, paying the trip, exactly when the trips cost most (profiled with py-spy under
``benchmarks/bench_ack.py``). Less the time the thread spent collecting garbage meanwhile (``gc_seconds``).
"""
from __future__ import annotations

import asyncio
import gc
import threading
import time
from typing import Callable, TypeVar

T = TypeVar("T")

_in_gc = threading.local()  # per thread: CPU seconds spent in the garbage collector, and when the current one began


def _on_gc(phase: str, info: dict) -> None:
    if phase == "start":
        _in_gc.began = time.thread_time()
    elif (began := getattr(_in_gc, "began", None)) is not None:
        _in_gc.seconds = getattr(_in_gc, "seconds", 0.0) + time.thread_time() - began
        _in_gc.began = None


gc.callbacks.append(_on_gc)


def gc_seconds() -> float:
    """CPU seconds the calling thread has spent collecting garbage. A collection runs in whichever thread's
    allocation tipped the count, whoever's objects it scans: a full one took some 20 ms of the bot's heap
    under ``benchmarks/bench_ack.py``, charged to whatever order was running. It is the process's pause, not
    that order's work, and it would send a cheap kind of order to the thread for good."""
    return getattr(_in_gc, "seconds", 0.0)


class EngineRunner:
    BUDGET = 0.002  # seconds: the most one order's engine work may hold the loop
    SAMPLES = 8  # runs in the thread before a kind of order may run on the loop
    MAX_KINDS = 4096  # kinds tracked (the first word is free text); past it, unknown kinds go to the thread

    def __init__(self, *, clock: Callable[[], float] | None = None):
        # the thread's CPU time less its time collecting garbage; a test's own clock is taken as it is
        self._clock = clock or time.thread_time
        self._gc = gc_seconds if clock is None else (lambda: 0.0)
        self._seen: dict[tuple[str, str], list] = {}  # kind -> [runs timed, slowest seconds]

    @staticmethod
    def kind(ruleset: str, text: str) -> tuple[str, str]:
        word = (text or "").split(maxsplit=1)
        return ruleset, (word[0].lower()[:32] if word else "")

    def inline(self, kind: tuple[str, str]) -> bool:
        """Whether this kind of order runs on the loop now."""
        seen = self._seen.get(kind)
        return seen is not None and seen[0] >= self.SAMPLES and seen[1] <= self.BUDGET

    def _timed(self, kind, fn: Callable[..., T], *args) -> T:
        g0, t0 = self._gc(), self._clock()
        try:
            return fn(*args)
        finally:
            self._record(kind, self._clock() - t0 - (self._gc() - g0))

    def _record(self, kind, seconds: float) -> None:
        seen = self._seen.get(kind)
        if seen is None:
            if len(self._seen) >= self.MAX_KINDS:
                return
            seen = self._seen[kind] = [0, 0.0]
        seen[0] += 1
        seen[1] = max(seen[1], seconds)

    async def run(self, kind: tuple[str, str], fn: Callable[..., T], *args) -> T:
        """``fn(*args)``, on the loop if ``kind`` has proven cheap, else in a thread; timed either way
        (an exception is timed and raised as it is)."""
        if self.inline(kind):
            return self._timed(kind, fn, *args)
        return await asyncio.to_thread(self._timed, kind, fn, *args)
