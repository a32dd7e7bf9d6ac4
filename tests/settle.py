"""Waiting for "nothing more will happen" as a condition, not a time (issue 29).

A test that must show something did NOT happen (no second reminder, no public trace of a refused
order) used to sleep a fixed while and then count. ``settled`` waits instead until nothing is in
flight, in-process: every gateway frame the fake Discord logged has been sent and read by the bot
(its session's sequence number), the fake serves no REST request, no interaction handler, view
callback or event listener of the bot runs, and the bot's scheduler waits for its next wake-up; all
of it on a few polls in a row with no request served in between. Then the count is final."""
from __future__ import annotations

import asyncio
import time

# the tasks discord.py makes for an interaction (app command / autocomplete, a view's button, an
# event listener such as on_interaction); the bot's own work for an interaction runs inside them
BUSY_TASKS = ("CommandTree-invoker", "discord.py: ", "discord-ui-")


def _bot_busy(bot) -> str | None:
    if bot is not None and not getattr(bot, "scheduler_idle", True):
        return "the bot's scheduler is in a step"
    return None


def _busy_tasks() -> list[str]:
    me = asyncio.current_task()
    return [t.get_name() for t in asyncio.all_tasks() if t is not me and not t.done()
            and t.get_name().startswith(BUSY_TASKS)]


async def settled(server, bot=None, *, timeout: float = 20.0, polls: int = 3, interval: float = 0.01) -> None:
    """Return once the fake Discord and the in-process ``bot`` are idle on ``polls`` polls in a row
    (see the module's text); AssertionError naming what was still busy after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    quiet, seen, why = 0, None, ""
    while True:
        why = ""
        if server.inflight:
            why = f"{server.inflight} REST request(s) in flight"
        elif server.gateway_backlog():
            why = "gateway frames not yet sent"
        elif bot is not None and getattr(bot, "ws", None) is not None and \
                server.gateway_last_seq().get(None, 0) > (bot.ws.sequence or 0):
            why = "gateway frames sent but not yet read by the bot"
        elif (b := _bot_busy(bot)):
            why = b
        elif (tasks := _busy_tasks()):
            why = f"tasks running: {tasks}"
        if not why and server.requests_served == seen:
            quiet += 1
            if quiet >= polls:
                return
        else:
            quiet = 0
        seen = server.requests_served
        if time.monotonic() > deadline:
            raise AssertionError(f"not settled within {timeout} s: {why or 'requests still being served'}")
        await asyncio.sleep(interval)
