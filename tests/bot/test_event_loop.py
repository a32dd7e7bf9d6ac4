"""bot/event_loop.py (issue 25): a bot's process runs on uvloop where it is installed, asyncio's loop where it
is not or where ``PALANTIR_EVENT_LOOP=asyncio`` asks for it; the same coroutine runs either way."""
from __future__ import annotations

import asyncio
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot import event_loop

ROOT = Path(__file__).resolve().parents[2]
HAS_UVLOOP = importlib.util.find_spec("uvloop") is not None


async def _which() -> str:
    await asyncio.sleep(0)
    return event_loop.loop_name(asyncio.get_running_loop())


def _in_process(env_value: str | None) -> str:
    """``bot.event_loop.run`` in a fresh process (the choice is made once a process, as in bot/cli.py)."""
    env = {k: v for k, v in os.environ.items() if k != event_loop.ENV}
    if env_value is not None:
        env[event_loop.ENV] = env_value
    code = ("import asyncio\nfrom bot.event_loop import run, loop_name\n"
            "async def main():\n    return loop_name(asyncio.get_running_loop())\nprint(run(main()))")
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                          check=True, timeout=60).stdout.strip()


@pytest.mark.skipif(not HAS_UVLOOP, reason="uvloop is not installed here (a dependency on Linux and macOS)")
def test_the_bot_process_runs_on_uvloop_where_it_is_installed():
    assert _in_process(None) == "uvloop"


def test_palantir_event_loop_asyncio_keeps_asyncios_own_loop():
    assert _in_process("asyncio") == "asyncio"
    assert _in_process(" AsyncIO ") == "asyncio"


def test_the_runner_returns_the_coroutines_result_and_closes_its_loop(monkeypatch):
    monkeypatch.setenv(event_loop.ENV, "asyncio")
    assert event_loop.loop_factory() is None
    assert event_loop.run(_which()) == "asyncio"
    monkeypatch.delenv(event_loop.ENV)
    if HAS_UVLOOP:
        assert event_loop.loop_factory() is not None
        assert event_loop.run(_which()) == "uvloop"
