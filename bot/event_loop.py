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
