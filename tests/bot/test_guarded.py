"""``guarded`` (bot/transports/discord_app.py, issue 25): a command's work and its acknowledgement. An
interaction that reaches the bot late is acknowledged at once, and its work takes its place in its
channel's queue at once too, in arrival order: a retry of the same order (its player saw Discord say
this one failed) must not overtake it while the acknowledgement is on its way, or both are applied
(the "already applied" guard needs the first one first)."""
import asyncio
import datetime
from types import SimpleNamespace

import discord

from bot.transports import discord_app


def interaction(age: float, iid: int):
    """What ``guarded`` reads of an interaction created ``age`` seconds ago."""
    created = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(seconds=age)
    return SimpleNamespace(id=iid, created_at=created, extras={}, response=SimpleNamespace(is_done=lambda: False))


async def test_a_late_interactions_work_is_queued_before_a_retry_that_arrives_while_it_is_acknowledged(monkeypatch):
    held = asyncio.Event()
    acknowledged = []

    async def slow_defer(i, ephemeral):  # Discord takes its time to answer the acknowledgement
        if i.id == 1:
            await held.wait()
        acknowledged.append(i.id)
        return True

    monkeypatch.setattr(discord_app, "defer", slow_defer)
    lock, applied = asyncio.Lock(), []

    async def work(name):  # the service's command: the channel's lock, then the order
        async with lock:
            applied.append(name)
            return name

    late = asyncio.create_task(discord_app.guarded(interaction(2.5, 1), work("first")))
    for _ in range(5):
        await asyncio.sleep(0)
    assert applied == ["first"] and not late.done()  # worked meanwhile; its answer waits for the acknowledgement
    retry = asyncio.create_task(discord_app.guarded(interaction(0.0, 2), work("retry")))
    held.set()
    assert await late == "first" and await retry == "retry"
    assert applied == ["first", "retry"] and acknowledged[0] == 1


async def test_an_acknowledgement_discord_fails_still_gives_the_work_its_answer(monkeypatch):
    async def failing_defer(i, ephemeral):
        raise discord.HTTPException(SimpleNamespace(status=503, reason="Service Unavailable"), "unavailable")

    monkeypatch.setattr(discord_app, "defer", failing_defer)

    async def work():
        return "applied"

    assert await discord_app.guarded(interaction(2.5, 3), work()) == "applied"
    monkeypatch.setattr(discord_app, "DEFER_AFTER", 0.01)

    async def slow_work():
        await asyncio.sleep(0.05)
        return "applied later"

    assert await discord_app.guarded(interaction(0.0, 4), slow_work()) == "applied later"
