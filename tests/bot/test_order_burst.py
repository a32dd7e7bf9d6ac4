"""Issue 39: a thousand games, each with an order in flight at once, past the 512 games the table keeps
loaded (``Table.max_loaded``): every order is applied once and answered once, on SQLite and PostgreSQL.
How the orders are all held in flight together: tests/burst_helpers.py."""
import pytest

from bot.service import GameService
from bot.storage import open_store
from tests.burst_helpers import Burst, set_up

pytestmark = pytest.mark.heavy  # a long unit (5 s or more on one worker): handed out first under xdist (tests/conftest.py)

GAMES = 1000


async def test_a_thousand_games_each_with_an_order_in_flight_apply_and_answer_each_once(store_url):
    """Issue 39: 1,000 games, an order in flight in each at once, 512 games kept loaded: each order is
    applied once and answered once (it used to raise KeyError after its commit), and the games left
    loaded are each at their stored position."""
    store = await open_store(store_url)
    try:
        svc = GameService(store, renderer=None, seed_source=lambda: "burst")
        assert svc.table.max_loaded < GAMES  # the cache cannot hold them all
        burst = Burst(svc, await set_up(svc, range(1, GAMES + 1)))
        await burst.run()
        not_applied, not_answered, raised = await burst.check()
        assert not raised, raised[:3]
        assert not_applied == [] and not_answered == []
        assert all(not o.ephemeral and o.reply.text.startswith("**Red** `roll`") for o in burst.outs.values())
        assert len(svc.table.games) <= svc.table.max_loaded < burst.loads  # games were pushed out while in flight
        # the loaded games are each at their stored position, and nothing of an evicted one stays behind
        assert set(svc.table.game_seq) == set(svc.table.games) and set(svc.table.boards) <= set(svc.table.games)
        for gid, game in list(svc.table.games.items()):
            row = await store.game(gid)
            assert svc.table.game_seq[gid] == row.seq and game.state == (await svc.table.rebuild(row)).state
    finally:
        await store.close()
