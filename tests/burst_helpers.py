"""Many games, each with an order in flight at once, past the games the table keeps loaded (issue 39):
shared by tests/bot/test_order_burst.py and benchmarks/bench_burst.py.

The games are of the tiny test ruleset; the orders are `roll` by the seat to act (harmful if applied
twice: a die from the game's stream and a line of its log). Each order waits, between its commit and the
steps that follow it, until every other order has been committed or has failed (a gate on the status
board's edit, which every order asks for): so all of them are in flight at the same moment, whatever the
store (SQLite's small reads and writes may run an order through without ever handing the loop over), and
the later ones' loads push the earlier ones' games out of the cache in the very window where an order used
to lose track of itself (a KeyError after its commit)."""
from __future__ import annotations

import asyncio
import itertools
from dataclasses import dataclass, field

from bot.service import Ctx, GameService
from tests import pbp_helpers  # noqa: F401  (registers tiny-pbp)

RED, BLUE = 11, 22
WAIT = 600.0  # seconds the gate waits for every order at most (a loaded machine), never slept on
_ids = itertools.count()


def ctx(user: int, channel: int) -> Ctx:
    return Ctx(channel_id=channel, user_id=user, guild_id=1, interaction_id=f"burst{next(_ids)}")


async def set_up(svc: GameService, channels) -> dict:
    """A started game in each channel, a hundred at a time (the store's pool is bounded); channel -> its row."""
    async def one(channel):
        for out in (await svc.lobby.new_game(ctx(RED, channel), "tiny-pbp"), await svc.lobby.join(ctx(RED, channel), "red"),
                    await svc.lobby.join(ctx(BLUE, channel), "blue"), await svc.lobby.start(ctx(RED, channel))):
            assert out.ok, out.reply.text

    channels = list(channels)
    for i in range(0, len(channels), 100):
        await asyncio.gather(*(one(ch) for ch in channels[i:i + 100]))
    return {ch: await svc.store.live_game(ch) for ch in channels}


@dataclass
class Burst:
    """One order in each of ``rows``' games, all in flight at once (``run``); then ``check``."""

    svc: GameService
    rows: dict
    loads: int = 0  # the games loaded meanwhile (a game pushed out and touched again is rebuilt)
    sent: dict = field(default_factory=dict)  # channel -> the order's Ctx
    outs: dict = field(default_factory=dict)  # channel -> its Outcome, or what it raised

    async def run(self) -> None:
        table, n = self.svc.table, len(self.rows)
        plain_edit, plain_load = table.board_edit, table.load
        reached, everyone = 0, asyncio.Event()

        def arrive():
            nonlocal reached
            reached += 1
            if reached >= n:
                everyone.set()

        async def gate(game_id):  # after the commit: until every order has been committed (or failed)
            arrive()
            await asyncio.wait_for(everyone.wait(), WAIT)
            return await plain_edit(game_id)

        async def load(row):
            self.loads += 1
            return await plain_load(row)

        async def one(ch):
            try:
                return await self.svc.orders.order(self.sent[ch], "roll")
            except BaseException:
                if not everyone.is_set():
                    arrive()  # (failed before the gate: the others need not wait for it)
                raise

        self.sent = {ch: ctx(RED, ch) for ch in self.rows}
        table.board_edit, table.load = gate, load
        try:
            outs = await asyncio.gather(*(one(ch) for ch in self.rows), return_exceptions=True)
        finally:
            table.board_edit, table.load = plain_edit, plain_load
        self.outs = dict(zip(self.rows, outs))

    async def check(self) -> tuple[list, list, list]:
        """(the channels whose order was not applied exactly once, those not answered exactly once with
        that order's stored answer, what was raised)."""
        store = self.svc.store
        not_applied, not_answered, raised = [], [], []
        for ch, out in self.outs.items():
            row, iid = self.rows[ch], self.sent[ch].interaction_id
            if [(a.seq, a.text, a.interaction_id) for a in await store.actions(row.id)] != [(row.seq + 1, "roll", iid)]:
                not_applied.append(ch)
            if isinstance(out, BaseException):
                raised.append((ch, out))
                not_answered.append(ch)
            elif not (out.ok and out.reply and out.seq == row.seq + 1 and await store.response_for(iid)
                      == {"text": out.reply.text, "ephemeral": out.ephemeral, "ok": True}):
                not_answered.append(ch)
        return not_applied, not_answered, raised
