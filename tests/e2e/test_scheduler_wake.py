"""Issue 39: the scheduler never loses a wake-up. A timer added while the scheduler's step runs (an order that
makes a seat on autopilot due now, issue 28) must start the next step at once; the wake-up was cleared after
the step, so that one waited for the next poll (30 s by default: a test waiting 15 s for the autopilot's
set-up failed once in a full run)."""
import asyncio

from tests.e2e.test_e2e_discord import World


async def test_a_wake_up_during_a_step_starts_the_next_step_at_once(tmp_path):
    async with World() as w:
        await w.start_bot(tmp_path / "wake.db")
        w.bot.cfg.deadlines.poll_seconds = 3600  # no poll to fall back on: only the wake-up can start a step
        clocks = w.service.clocks
        fire_due = clocks.fire_due
        steps = []
        second = asyncio.Event()

        async def a_step_that_adds_a_timer():
            steps.append(len(steps))
            if len(steps) == 1:
                w.service.table.on_timers_changed()  # as Table does when an order adds a timer due now
            else:
                second.set()
            return await fire_due()

        clocks.fire_due = a_step_that_adds_a_timer
        w.bot._wake.set()  # the first step
        await asyncio.wait_for(second.wait(), 60)  # (the poll is an hour: only the kept wake-up can bring it)
        assert len(steps) >= 2
