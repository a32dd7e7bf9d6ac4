"""The event loop a bot's process runs on (issue 25): uvloop where it is installed (a dependency on
Linux and macOS), else asyncio's own. The same asyncio API either way; uvloop's loop does its I/O,
timers and callbacks in C, which cut the bot's CPU per order by about a tenth in
``benchmarks/bench_ack.py`` (the transport alone, a null service: 0.94 -> 0.80 ms). ``PALANTIR_EVENT_LOOP=asyncio``
keeps asyncio's loop (to compare, or to rule uvloop out when chasing a fault)."""
from __future__ import annotations

import asyncio
import os
from typing import Any, Callable, Coroutine

ENV = "PALANTIR_EVENT_LOOP"


def loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's ``new_event_loop``, or None (asyncio's default) where uvloop is absent or refused."""
    if os.environ.get(ENV, "").strip().lower() == "asyncio":
        return None
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def loop_name(loop: asyncio.AbstractEventLoop) -> str:
    """``uvloop`` or ``asyncio``: which loop runs ``loop`` (for the start-up log line)."""
    return "uvloop" if type(loop).__module__.startswith("uvloop") else "asyncio"


def run(main: Coroutine[Any, Any, Any]) -> Any:
    """``asyncio.run(main)`` on the loop ``loop_factory`` chooses."""
    with asyncio.Runner(loop_factory=loop_factory()) as runner:
        return runner.run(main)


LAG_TICK = 0.1  # seconds between the lag monitor's ticks
LAG_WINDOW = 2.0  # seconds a lateness seen is remembered (the loop that ran this late a moment ago may again)
BUSY_LAG = 2.0  # seconds: a loop this late takes no new work (see ``Backlog``)


class Backlog:
    """The bot's own backlog (issue 39): how late its event loop runs, and how many interactions its handlers
    hold not yet acknowledged. A tick every ``LAG_TICK`` seconds measures how long after its time it ran
    (a loop busy with a burst, or blocked by a slow call, runs every callback that late: a timer, the
    acknowledgement it was to send); ``lag()`` is the largest lateness of the last ``LAG_WINDOW`` seconds, or
    the current tick's, overdue now. ``busy_lag``: past it the transport takes no new work (set per bot: the
    end-to-end tests raise it). A plain object the bot holds (``PalantirBot.backlog``), started with the bot."""

    def __init__(self, busy_lag: float = BUSY_LAG, window: float = LAG_WINDOW, tick: float = LAG_TICK):
        self.busy_lag, self.window, self.tick = busy_lag, window, tick
        self.unacked = 0  # interactions a handler holds whose acknowledgement waits on a timer
        self._loop: asyncio.AbstractEventLoop | None = None
        self._handle: asyncio.TimerHandle | None = None
        self._due = 0.0
        self._peak, self._peak_at = 0.0, 0.0

    def start(self) -> None:
        """Start ticking on the running loop (again after ``stop``)."""
        self.stop()
        self._loop = asyncio.get_running_loop()
        self._next()

    def stop(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        self._loop = None

    def _next(self) -> None:
        self._due = self._loop.time() + self.tick
        self._handle = self._loop.call_at(self._due, self._ticked)

    def _ticked(self) -> None:
        now = self._loop.time()
        late = now - self._due
        if late >= self._peak or now - self._peak_at > self.window:
            self._peak, self._peak_at = late, now
        self._next()

    def lag(self) -> float:
        """Seconds the loop runs late now (0 when not started)."""
        if self._loop is None:
            return 0.0
        now = self._loop.time()
        peak = self._peak if now - self._peak_at <= self.window else 0.0
        return max(peak, now - self._due, 0.0)
