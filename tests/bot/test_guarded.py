"""``guarded`` (bot/transports/discord_app.py, issue 25): a command's work and its acknowledgement. An
interaction that reaches the bot late is acknowledged at once, and its work takes its place in its
channel's queue at once too, in arrival order: a retry of the same order (its player saw Discord say
this one failed) must not overtake it while the acknowledgement is on its way, or both are applied
(the "already applied" guard needs the first one first)."""
import asyncio
import datetime
from types import SimpleNamespace

import discord

from bot.event_loop import Backlog
from bot.transports import callback, discord_app


def interaction(age: float, iid: int, backlog: Backlog | None = None):
    """What ``guarded`` reads of an interaction created ``age`` seconds ago (its bot's backlog: none by default)."""
    created = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(seconds=age)
    return SimpleNamespace(id=iid, created_at=created, extras={}, response=SimpleNamespace(is_done=lambda: False),
                           client=SimpleNamespace(backlog=backlog or Backlog()))


async def test_a_late_interactions_work_is_queued_before_a_retry_that_arrives_while_it_is_acknowledged(monkeypatch):
    held = asyncio.Event()
    acknowledged = []

    async def slow_defer(i, ephemeral):  # Discord takes its time to answer the acknowledgement
        if i.id == 1:
            callback.connected()  # (its request has its connection: written; issue 43)
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


def behind(lag: float = 0.0, unacked: int = 0, busy_lag: float = 2.0):
    """A bot's backlog as ``guarded`` reads it: the loop ``lag`` seconds late, ``unacked`` interactions waiting."""
    return SimpleNamespace(lag=lambda: lag, unacked=unacked, busy_lag=busy_lag)


async def acknowledged_before_work(monkeypatch, backlog) -> tuple[bool, list[int]]:
    """A fresh interaction's ``guarded``: whether it was acknowledged before its work's first step ran, and the
    interactions acknowledged."""
    acknowledged = []

    async def defer(i, ephemeral):
        acknowledged.append(i.id)
        return True

    monkeypatch.setattr(discord_app, "defer", defer)
    seen = []

    async def work():
        seen.append(bool(acknowledged))
        return "applied"

    assert await discord_app.guarded(interaction(0.0, 5, backlog), work()) == "applied"
    return seen[0], acknowledged


async def test_a_loop_running_late_acknowledges_a_fresh_interaction_before_its_work_starts(monkeypatch):
    """Issue 39: the timer that would acknowledge a command after ``DEFER_AFTER`` fires as late as the loop runs,
    with the handler's wake-up after it: on a loop 1.5 s late (3 s of Discord's clock in two turns) a fresh
    interaction is acknowledged at once, its request written before its work's first step runs (a work that
    blocks the loop then no longer holds it back past Discord's 3 s)."""
    first, acked = await acknowledged_before_work(monkeypatch, behind(lag=1.5))
    assert first and acked == [5]


async def test_a_quiet_loop_keeps_the_fast_path_a_fast_command_is_answered_without_a_deferral(monkeypatch):
    """Issue 39: the fast path unchanged: on a loop on time a command that finishes at once is not deferred."""
    first, acked = await acknowledged_before_work(monkeypatch, behind(lag=0.0))
    assert not first and acked == []


async def test_behind_a_burst_of_unacknowledged_interactions_one_more_is_acknowledged_at_once(monkeypatch):
    """Issue 39: interactions that reach the handlers in one burst all see a loop on time (the lag monitor has not
    ticked yet) and would each wait ``DEFER_AFTER`` on a timer, then fire together late; past ``DEFER_BACKLOG``
    already waiting, the next is acknowledged at once."""
    first, acked = await acknowledged_before_work(monkeypatch, behind(unacked=discord_app.DEFER_BACKLOG))
    assert first and acked == [5]
    first, acked = await acknowledged_before_work(monkeypatch, behind(unacked=discord_app.DEFER_BACKLOG - 1))
    assert not first and acked == []


async def test_a_loop_past_its_busy_lag_answers_busy_and_never_starts_the_work(monkeypatch):
    """Issue 39: a loop running ``busy_lag`` late or more takes no new work: "Busy" (an error, answered privately
    by ``deliver``), the work's coroutine never run, nothing acknowledged first."""
    acknowledged, ran = [], []

    async def defer(i, ephemeral):
        acknowledged.append(i.id)
        return True

    monkeypatch.setattr(discord_app, "defer", defer)

    async def work():
        ran.append(1)
        return "applied"

    out = await discord_app.guarded(interaction(0.0, 6, behind(lag=2.5, busy_lag=2.0)), work())
    assert not out.ok and out.ephemeral and out.reply.text.startswith("Busy") and "Nothing was applied" in out.reply.text
    assert ran == [] and acknowledged == []


async def test_the_backlog_measures_how_late_a_blocked_loop_runs():
    """Issue 39: ``Backlog.lag`` sees a loop blocked by a slow call (the lateness of its tick: at least the block
    less one tick's interval), and keeps it for its window once the loop runs again."""
    import time

    from bot.event_loop import Backlog

    b = Backlog(window=3600.0, tick=0.05)
    assert b.lag() == 0.0  # not started: nothing measured
    b.start()
    try:
        time.sleep(0.4)  # a call that blocks the loop
        assert b.lag() >= 0.35  # the tick overdue now
        for _ in range(3):  # the loop runs again: the tick runs, late; its lateness is remembered
            await asyncio.sleep(0.06)
        assert b.lag() >= 0.35
    finally:
        b.stop()
    assert b.lag() == 0.0
