"""Issue 39: no order loses track of itself in a bounded cache. The loaded games are a bounded LRU
(``Table.max_loaded``); a game may be pushed out of it by another game's load at any ``await`` of its
own order, in particular between the order's commit and what follows it. What an order needs after its
commit travels with it, and a game evicted in that window is neither written back stale nor resurrected
with a state its log position does not hold. SQLite and PostgreSQL."""
import pytest

from bot.service import Ctx, GameService
from bot.storage import open_store
from engine.core import state_digest
from tests import pbp_helpers  # noqa: F401  (registers tiny-pbp)

RED, BLUE = 11, 22
_ids = iter(range(1, 10**9))


def ctx(user, channel, *, expires_at=None):
    return Ctx(channel_id=channel, user_id=user, guild_id=1, interaction_id=f"e{next(_ids)}", expires_at=expires_at)


async def started(svc, channel):
    assert (await svc.lobby.new_game(ctx(RED, channel), "tiny-pbp", "deadline=1 policy=pass remind=off")).ok
    assert (await svc.lobby.join(ctx(RED, channel), "red")).ok and (await svc.lobby.join(ctx(BLUE, channel), "blue")).ok
    assert (await svc.lobby.start(ctx(RED, channel))).ok
    return await svc.store.live_game(channel)


class Clock:
    def __init__(self):
        self.t = 1000.0

    def __call__(self):
        return self.t


@pytest.fixture
async def two(store_url):
    """A service that keeps one game loaded (``max_loaded=1``) and two games under way, in channels 1
    and 2 (``a``, ``b``)."""
    store = await open_store(store_url)
    clock = Clock()
    svc = GameService(store, renderer=None, seed_source=lambda: "evict", clock=clock, max_loaded=1)
    try:
        a, b = await started(svc, 1), await started(svc, 2)
        yield svc, a, b, clock
    finally:
        await store.close()


async def consistent(svc, game_id):
    """The loaded game (if any) is the one its log position holds, and nothing of an evicted game
    stays behind in the table's bounded maps."""
    t = svc.table
    assert set(t.game_seq) <= set(t.games) and set(t.boards) <= set(t.games)
    if game_id in t.games:
        row = await svc.store.game(game_id)
        assert t.game_seq[game_id] == row.seq
        assert state_digest(t.games[game_id].state) == state_digest((await svc.table.rebuild(row)).state)


async def test_an_order_whose_game_is_evicted_after_its_commit_is_answered(two):
    """Issue 39: the order is committed, then another game's order loads that game and pushes this one
    out of the cache before the order's post-commit steps (the status board, the retry watch): the order
    is answered, applied once, and the watch names its own log position (it used to raise KeyError)."""
    svc, a, b, _ = two
    real = svc.table.board_edit
    other = []

    async def gate(game_id):  # between the commit and the post-commit steps: another game's order
        if game_id == a.id and not other:
            other.append(await svc.orders.order(ctx(RED, 2), "roll"))
            assert a.id not in svc.table.games  # pushed out
        return await real(game_id)

    svc.table.board_edit = gate
    c = ctx(RED, 1, expires_at=2e9)  # not yet acknowledged: the order is watched for a retry (issue 25)
    out = await svc.orders.order(c, "roll")
    assert out.ok and out.stored is not None, out.reply.text
    assert other and other[0].ok
    assert [x.text for x in await svc.store.actions(a.id)] == ["roll"]
    assert await svc.store.response_for(c.interaction_id) == {"text": out.reply.text, "ephemeral": False, "ok": True}
    # the retry watch carries the order's own log position
    assert [p[:2] for p in svc.recovery.recovered[(a.id, RED)]] == [["roll", a.seq + 1]]
    await consistent(svc, a.id)
    await consistent(svc, b.id)


async def test_a_game_evicted_and_reloaded_while_its_order_is_written_is_not_resurrected_stale(two):
    """Issue 39: while an order's write is under way, its game is pushed out of the cache and loaded
    again from storage by a reader outside the channel's lock (the map of an earlier order being posted)
    at the log position before the write. The order's game, at its new position, is what stays loaded:
    not the reloaded older state marked with the new position (whose next order would be applied to a
    stale position and break the log's dice counters)."""
    svc, a, b, _ = two
    dice = (await svc.table.rebuild(a)).state["dice"]["counter"]
    real = svc.store.append_action
    done = []

    async def gate(**kw):
        if kw["game_id"] == a.id and not done:
            done.append(await svc.orders.order(ctx(RED, 2), "roll"))  # pushes a out
            assert a.id not in svc.table.games
            await svc.table.render_game(a.id, None)  # reloads a, as it stands before this write
            assert svc.table.game_seq[a.id] == a.seq
        return await real(**kw)

    svc.store.append_action = gate
    assert (await svc.orders.order(ctx(RED, 1), "roll")).ok
    assert done and done[0].ok
    await consistent(svc, a.id)
    assert (await svc.orders.order(ctx(RED, 1), "roll")).ok  # the next order, on the right position
    await consistent(svc, a.id)
    row = await svc.store.game(a.id)
    assert [x.text for x in await svc.store.actions(a.id)] == ["roll", "roll"]
    assert (await svc.table.rebuild(row)).state["dice"]["counter"] == dice + 2  # a die each, no counter mismatch


async def test_an_undo_whose_game_is_evicted_and_reloaded_while_written_is_not_resurrected_stale(two):
    """Issue 39: the same window for an undo (`/game undo`): the undone position stays loaded, not the
    position before the undo marked with the undo's log position."""
    svc, a, b, _ = two
    assert (await svc.orders.order(ctx(RED, 1), "note a")).ok
    real = svc.store.append_action
    done = []

    async def gate(**kw):
        if kw["game_id"] == a.id and kw.get("kind") == "undo" and not done:
            done.append(await svc.orders.order(ctx(RED, 2), "roll"))
            assert a.id not in svc.table.games
            await svc.table.render_game(a.id, None)
        return await real(**kw)

    svc.store.append_action = gate
    out = await svc.undo.undo(ctx(RED, 1))
    assert out.ok and "takes back" in out.reply.text, out.reply.text
    assert done and done[0].ok
    await consistent(svc, a.id)
    assert svc.table.games[a.id].state["notes"] == []
    assert (await svc.orders.order(ctx(RED, 1), "note b")).ok
    await consistent(svc, a.id)
    assert (await svc.table.load(await svc.store.game(a.id))).state["notes"] == ["b"]


async def test_a_deadline_pass_whose_game_is_evicted_and_reloaded_while_written_is_not_resurrected_stale(two):
    """Issue 39: the scheduler's path (a deadline's `pass`, the same for the autopilot's plays): its order
    goes the one commit path, and a game evicted and reloaded during its write does not stay loaded at
    the older position. (Both games' deadlines pass; ``b``'s fires last, so nothing evicts it after.)"""
    svc, a, b, clock = two
    real = svc.store.append_action
    done = []

    async def gate(**kw):
        if kw["game_id"] == b.id and not done:
            done.append(await svc.orders.order(ctx(BLUE, 1), "roll"))  # a's deadline passed already: blue acts
            assert b.id not in svc.table.games
            await svc.table.render_game(b.id, None)
        return await real(**kw)

    svc.store.append_action = gate
    clock.t += 2 * 3600  # both games' deadlines passed
    assert await svc.clocks.fire_due() == 2
    assert done and done[0].ok, done[0].reply.text
    await consistent(svc, b.id)
    assert svc.table.games[b.id].active_seats() == ["blue"]
    assert (await svc.orders.order(ctx(BLUE, 2), "roll")).ok
    await consistent(svc, b.id)
