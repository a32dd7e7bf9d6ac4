"""Two bot processes that both believe they own a game (a stale process after a redeploy),
each with its own GameService and its own store on one database (issue 16). A writer whose
view of the game went stale between reading it and writing is refused by the fence (the
sequence number checked in the write's own transaction): its order is answered "nothing was
applied", it is not logged, and a resend is checked against the fresh game. SQLite and
PostgreSQL."""
import asyncio

from bot.service import Ctx, GameService
from bot.storage import open_store
from engine.core import state_digest
from tests.gondor_helpers import SAURON_SETUP

SAURON, WEST = 101, 202
_n = iter(range(1, 10**9))


def ctx(user, iid=None):
    return Ctx(channel_id=7, user_id=user, guild_id=1, interaction_id=iid or f"i{next(_n)}")


def svc(store):
    return GameService(store, renderer=None, seed_source=lambda: "two-writers", clock=lambda: 1000.0)


async def test_a_stale_second_writer_is_refused_not_applied_twice(store_url):
    sa, sb = await open_store(store_url), await open_store(store_url)
    a, b = svc(sa), svc(sb)
    try:
        assert (await a.lobby.new_game(ctx(SAURON), "gondor")).ok
        await a.lobby.join(ctx(SAURON), "sauron")
        await a.lobby.join(ctx(WEST), "westernesse")
        assert (await a.lobby.start(ctx(SAURON))).ok
        assert (await a.orders.order(ctx(SAURON), SAURON_SETUP[0])).ok
        # B loads the game (now at #1) and is held after reading it; A writes #2 meanwhile
        assert (await b.views.status(ctx(SAURON))).ok
        held, go = asyncio.Event(), asyncio.Event()
        real_context = sb.order_context

        async def slow_context(*args):  # B has read the game (at #1) and its seats, then is held
            got = await real_context(*args)
            held.set()
            await go.wait()
            return got

        sb.order_context = slow_context
        late = asyncio.create_task(b.orders.order(ctx(SAURON, "late"), SAURON_SETUP[1]))
        await held.wait()
        assert (await a.orders.order(ctx(SAURON), SAURON_SETUP[1])).ok  # #2, by the process that really owns it
        go.set()
        out = await late
        sb.order_context = real_context
        assert not out.ok and out.ephemeral and "Nothing was applied" in out.reply.text
        row = await sa.live_game(7)
        assert row.seq == 2 and [x.text for x in await sa.actions(row.id)] == SAURON_SETUP[:2]
        assert await sa.response_for("late") is None  # not remembered: a resend is tried afresh
        # sent again, B's order is checked against the fresh game (#3, a re-placement in the set-up)
        again = await b.orders.order(ctx(SAURON, "late"), SAURON_SETUP[1])
        assert again.ok and not again.replayed
        # the two processes alternate: each sees the other's orders, none is lost or doubled
        for i, o in enumerate(SAURON_SETUP[2:]):
            assert (await (a, b)[i % 2].orders.order(ctx(SAURON), o)).ok, o
        row = await sa.live_game(7)
        want = SAURON_SETUP[:2] + [SAURON_SETUP[1]] + SAURON_SETUP[2:]
        assert [x.text for x in await sa.actions(row.id)] == want and row.seq == len(want)
        ga, gb = await a.table.load(row), await b.table.load(row)
        assert state_digest(ga.state) == state_digest(gb.state) == state_digest((await a.table.replay_from_start(row)).state)
    finally:
        await sa.close()
        await sb.close()
