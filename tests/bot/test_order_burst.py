"""Issue 39: a thousand games, each with an order in flight at once, past the 512 games the table keeps
loaded (``Table.max_loaded``): every order is applied once and answered once, on SQLite and PostgreSQL.

The orders are `roll` (harmful if applied twice: a die from the game's stream and a line of its log).
Each waits, between its commit and the steps that follow it, until every other order has been
committed or has failed (a gate on the status board's edit, which every order asks for): so all of them
are in flight at the same moment, and the later ones' loads push the earlier ones' games out of the
cache in the very window where an order used to lose track of itself (a KeyError after its commit)."""
import asyncio
import itertools

import pytest

from bot.service import Ctx, GameService
from bot.storage import open_store
from tests import pbp_helpers  # noqa: F401  (registers tiny-pbp)

pytestmark = pytest.mark.heavy  # a long unit (5 s or more on one worker): handed out first under xdist (tests/conftest.py)

GAMES = 1000
RED, BLUE = 11, 22
WAIT = 300.0  # seconds a condition is waited for at most (a loaded machine), never slept on
_ids = itertools.count()


def ctx(user: int, channel: int) -> Ctx:
    return Ctx(channel_id=channel, user_id=user, guild_id=1, interaction_id=f"b{next(_ids)}")


async def set_up(svc: GameService, channel: int) -> None:
    assert (await svc.new_game(ctx(RED, channel), "tiny-pbp")).ok
    assert (await svc.join(ctx(RED, channel), "red")).ok and (await svc.join(ctx(BLUE, channel), "blue")).ok
    assert (await svc.start(ctx(RED, channel))).ok


async def test_a_thousand_games_each_with_an_order_in_flight_apply_and_answer_each_once(store_url):
    """Issue 39: 1,000 games, an order in flight in each at once, 512 games kept loaded."""
    store = await open_store(store_url)
    try:
        svc = GameService(store, renderer=None, seed_source=lambda: "burst")
        assert svc.table.max_loaded < GAMES  # the cache cannot hold them all
        channels = range(1, GAMES + 1)
        for chunk in range(0, GAMES, 100):  # (set up a hundred at a time: the store's pool is bounded)
            await asyncio.gather(*(set_up(svc, ch) for ch in channels[chunk:chunk + 100]))
        rows = {ch: await store.live_game(ch) for ch in channels}

        real = svc.table.board_edit
        reached, everyone = 0, asyncio.Event()
        loads = 0
        plain_load = svc.table.load

        async def counted_load(row):
            nonlocal loads
            loads += 1
            return await plain_load(row)

        async def gate(game_id):  # after the commit: wait until every order has been committed
            nonlocal reached
            reached += 1
            if reached == GAMES:
                everyone.set()
            await asyncio.wait_for(everyone.wait(), WAIT)
            return await real(game_id)

        svc.table.board_edit = gate
        svc.table.load = counted_load
        sent = {ch: ctx(RED, ch) for ch in channels}

        async def one(ch):
            nonlocal reached
            try:
                return await svc.order(sent[ch], "roll")
            except BaseException:
                reached += 1  # (failed before the gate: the others need not wait for it)
                if reached == GAMES:
                    everyone.set()
                raise

        outs = await asyncio.gather(*(one(ch) for ch in channels), return_exceptions=True)
        failed = [(ch, o) for ch, o in zip(channels, outs) if isinstance(o, BaseException)]
        assert not failed, failed[:3]
        assert len(svc.games) <= svc.table.max_loaded < loads  # games were pushed out while orders were in flight
        for ch, out in zip(channels, outs):
            row = rows[ch]
            assert out.ok and not out.ephemeral and out.reply.text.startswith("**Red** `roll`"), out.reply.text
            assert out.seq == row.seq + 1
            log = await store.actions(row.id)
            assert [(a.seq, a.text, a.interaction_id) for a in log] == [(row.seq + 1, "roll", sent[ch].interaction_id)]
            # answered once: the one answer stored with its order is the one given
            assert await store.response_for(sent[ch].interaction_id) == {
                "text": out.reply.text, "ephemeral": False, "ok": True}
        # the loaded games are each at their stored position, and nothing of an evicted one stays behind
        assert set(svc.table.game_seq) == set(svc.games) and set(svc.table.boards) <= set(svc.games)
        for gid, game in list(svc.games.items()):
            row = await store.game(gid)
            assert svc.table.game_seq[gid] == row.seq
            assert game.state == (await svc.rebuild(row)).state
    finally:
        await store.close()
