"""An order's context remembered between orders (issue 25, bot/storage/contexts.py): the channel's live
game, its seats and departed seats are read once, followed through the game's own writes, and forgotten
at any other write; what memory cannot know (another writer, a redelivered interaction) is caught by the
order's own fenced write, and the command read afresh and run again. SQLite and PostgreSQL."""
from types import SimpleNamespace

import pytest

from bot.service import Ctx, GameService
from bot.storage import GameRow, StaleWriter, open_store
from bot.storage.contexts import TTL, ContextCache
from engine.modes import turns

SAURON, WEST, OTHER = 101, 202, 303
_n = iter(range(1, 10**9))


def ctx(user, iid=None, channel=7):
    return Ctx(channel_id=channel, user_id=user, guild_id=1, interaction_id=iid or f"i{next(_n)}")


def svc(store):
    return GameService(store, renderer=None, seed_source=lambda: "remembered", clock=lambda: 1000.0)


async def tabletop(s: GameService) -> GameRow:
    assert (await s.lobby.new_game(ctx(SAURON), "gondor", "mode=tabletop")).ok
    assert (await s.lobby.join(ctx(SAURON), "sauron")).ok
    assert (await s.lobby.join(ctx(WEST), "westernesse")).ok
    assert (await s.lobby.start(ctx(SAURON))).ok
    return await s.store.live_game(7)


def count_reads(store) -> list:
    reads = []
    real = store.order_context

    async def spy(*args):
        reads.append(args)
        return await real(*args)

    store.order_context = spy
    return reads


async def texts(store, game_id) -> list[str]:
    return [a.text for a in await store.actions(game_id)]


async def started(s: GameService) -> SimpleNamespace:
    """A tabletop game of Gondor under way: its row, the seat to act and that seat's holder."""
    row = await tabletop(s)
    first = turns.to_act((await s.table.load(row)).state)
    return SimpleNamespace(row=row, first=first, holder={"sauron": SAURON, "westernesse": WEST}[first])


@pytest.fixture
async def one(store_url):
    """One bot's store and service, with a game under way (``g``)."""
    store = await open_store(store_url)
    try:
        s = svc(store)
        yield SimpleNamespace(store=store, s=s, g=await started(s))
    finally:
        await store.close()


@pytest.fixture
async def two(store_url):
    """Two bots' stores and services on one database (a stale second process), a game under way (``g``)."""
    sa, sb = await open_store(store_url), await open_store(store_url)
    try:
        a, b = svc(sa), svc(sb)
        yield SimpleNamespace(sa=sa, sb=sb, a=a, b=b, g=await started(a))
    finally:
        await sa.close()
        await sb.close()


async def test_orders_after_the_first_start_from_memory_and_each_is_logged_once(one):
    store, s, g = one.store, one.s, one.g
    reads = count_reads(store)
    for i in range(5):
        out = await s.orders.order(ctx(g.holder), f"roll 2d6 for t{i}")
        assert out.ok and not out.replayed, out.reply.text
    assert len(reads) == 1  # the first order read its context; the four after it started from memory
    assert store.contexts.hits == 4
    logged = await texts(store, g.row.id)
    assert [t for t in logged if t.startswith("roll")] == [f"roll 2d6 for t{i}" for i in range(5)]
    assert (await store.live_game(7)).seq == len(logged)


async def test_an_order_not_remembered_reads_once_its_status_board_included(one):
    """The first order of a game (nothing remembered) reads its context in one statement, where its status
    board is included: no second read for the board (each was a trip to the database before an answer)."""
    store, s, g = one.store, one.s, one.g
    reads, settings = count_reads(store), []
    real = store.get_setting

    async def spy(key):
        settings.append(key)
        return await real(key)

    store.get_setting = spy
    s.table.forget(g.row.id)  # (as after a restart: nothing of the game in memory)
    out = await s.orders.order(ctx(g.holder), "roll 2d6 for cold")
    assert out.ok and out.board_edit is None
    assert len(reads) == 1 and settings == []
    await s.views.set_board(g.row.id, 7, 99)  # a status board posted: the next order edits it
    out = await s.orders.order(ctx(g.holder), "roll 2d6 for warm")
    assert out.ok and out.board_edit[:2] == (7, 99) and "board:%d" % g.row.id not in settings


async def test_a_board_placed_while_an_order_was_under_way_is_kept(one):
    """An order read its context (no board yet); the board was posted meanwhile: what the order read does not
    replace it, and the board is edited."""
    store, s, g = one.store, one.s, one.g
    _, before = await store.order_context(7, None)
    assert before.board == ""
    await s.views.set_board(g.row.id, 7, 42)
    await s.table.load(before)
    assert await s.table.board_at(g.row.id) == "7:42"


async def test_a_redelivered_interaction_is_answered_from_storage_whether_the_game_accepts_it_again_or_not(one):
    store, s, g = one.store, one.s, one.g
    a = await s.orders.order(ctx(g.holder, "roll-a"), "roll 2d6 for a")
    b = await s.orders.order(ctx(g.holder, "roll-b"), "roll 2d6 for b")
    assert a.ok and b.ok
    n = len(await texts(store, g.row.id))
    # the game would take a `roll` again: the write is refused (answered before), and the stored answer given
    again = await s.orders.order(ctx(g.holder, "roll-a"), "roll 2d6 for a")
    assert again.replayed and again.reply.text == a.reply.text
    assert len(await texts(store, g.row.id)) == n
    # the turn passes: the game would now refuse it; the stored answer is given, not the refusal
    assert (await s.orders.order(ctx(g.holder, "done-1"), "done")).ok
    n = len(await texts(store, g.row.id))
    again = await s.orders.order(ctx(g.holder, "roll-b"), "roll 2d6 for b")
    assert again.replayed and again.reply.text == b.reply.text
    assert len(await texts(store, g.row.id)) == n


async def test_a_seat_handed_over_between_two_orders_is_seen_by_the_next(one):
    store, s, g = one.store, one.s, one.g
    assert (await s.orders.order(ctx(g.holder), "roll 2d6 for before")).ok  # the context is remembered
    assert store.remembered_context(7) is not None
    assert (await s.lobby.sub(ctx(SAURON), g.first, OTHER)).ok  # the creator hands the seat over (a write)
    assert store.remembered_context(7) is None
    assert not (await s.orders.order(ctx(g.holder), "roll 2d6 for after")).ok
    assert (await s.orders.order(ctx(OTHER), "roll 2d6 for after")).ok
    assert [t for t in await texts(store, g.row.id) if t.startswith("roll")] == ["roll 2d6 for before",
                                                                                "roll 2d6 for after"]


async def test_another_writer_moving_the_game_on_is_caught_by_the_fence_and_the_order_run_again(two):
    g = two.g
    assert (await two.b.orders.order(ctx(g.holder), "roll 2d6 for b1")).ok  # B remembers the game at this count
    assert (await two.a.orders.order(ctx(g.holder), "roll 2d6 for a1")).ok  # A moves it on; B's memory is behind
    reads = count_reads(two.sb)
    out = await two.b.orders.order(ctx(g.holder), "roll 2d6 for b2")
    assert out.ok and not out.replayed, out.reply.text  # fenced, read afresh, applied: not "moved on"
    assert len(reads) == 1
    logged = await texts(two.sa, g.row.id)
    assert [t for t in logged if t.startswith("roll")] == ["roll 2d6 for b1", "roll 2d6 for a1", "roll 2d6 for b2"]
    assert (await two.sa.live_game(7)).seq == len(logged)


async def test_what_another_writer_changes_beside_the_counter_is_read_again_after_the_ttl(two):
    g, now = two.g, [0.0]
    two.sb.contexts = ContextCache(clock=lambda: now[0])
    assert (await two.b.orders.order(ctx(g.holder), "roll 2d6 for b1")).ok
    assert (await two.a.lobby.sub(ctx(SAURON), g.first, OTHER)).ok  # in A's store: B's memory cannot know
    now[0] += TTL + 0.1
    assert not (await two.b.orders.order(ctx(g.holder), "roll 2d6 for b2")).ok  # read again: no longer the holder's seat
    assert (await two.b.orders.order(ctx(OTHER), "roll 2d6 for b2")).ok


async def test_the_write_of_an_interaction_already_answered_is_refused_and_writes_nothing(store_url):
    store = await open_store(store_url)
    try:
        gid = await store.create_game(channel_id=5, guild_id=1, ruleset="gondor", options={}, seed="s",
                                      commitment="c", creator_id=1, now=1.0, initial_state={"x": 1})
        await store.set_status(gid, "active", 2.0)
        common = dict(game_id=gid, seat="sauron", user_id=1, text="roll", dice_before=0, dice_after=1, events=[],
                      now=3.0, snapshot=None, response={"text": "ok", "ephemeral": False})
        await store.append_action(seq=1, interaction_id="once", **common)
        with pytest.raises(StaleWriter):
            await store.append_action(seq=2, interaction_id="once", **common)
        assert (await store.game(gid)).seq == 1 and len(await store.actions(gid)) == 1
        await store.append_action(seq=2, interaction_id="twice", **common)  # the fence is the interaction's only
        assert (await store.game(gid)).seq == 2
    finally:
        await store.close()


async def test_the_stores_memory_follows_its_own_writes(store_url):
    store = await open_store(store_url)
    try:
        gid = await store.create_game(channel_id=5, guild_id=1, ruleset="gondor", options={}, seed="s",
                                      commitment="c", creator_id=1, now=1.0, initial_state={"x": 1})
        await store.take_seat(gid, "sauron", 11, 1.5)
        await store.set_status(gid, "active", 2.0)
        assert store.remembered_context(5) is None
        _, row = await store.order_context(5, None)
        assert store.remembered_context(5) == row and store.remembered_context(5).seats == {"sauron": 11}
        common = dict(game_id=gid, seat="sauron", user_id=11, text="roll", dice_before=0, dice_after=1, events=[],
                      now=3.0, snapshot=None, response={"text": "ok", "ephemeral": False})
        await store.append_action(seq=1, interaction_id="i1", **common)  # the game's own order: followed
        assert store.remembered_context(5).seq == 1
        await store.mark_delivered("i1", 4.0)  # the answers' bookkeeping: kept
        await store.save_response("other", gid, {"text": "t", "ephemeral": True}, 4.0)
        assert store.remembered_context(5).seq == 1
        await store.take_seat(gid, "westernesse", 12, 5.0)  # any other write: forgotten
        assert store.remembered_context(5) is None
        _, row = await store.order_context(5, None)
        assert row.seats == {"sauron": 11, "westernesse": 12} and store.remembered_context(5) == row
        await store.append_action(seq=2, interaction_id="i2", status="over", **common)  # ended: no live game
        assert store.remembered_context(5) is None
    finally:
        await store.close()


def _row(gid=1, seq=0, channel=5) -> GameRow:
    return GameRow(id=gid, guild_id=1, channel_id=channel, ruleset="gondor", options={}, seed="s", commitment="c",
                   creator_id=1, status="active", seq=seq, created_at=0.0, started_at=0.0, ended_at=None,
                   seats={"sauron": 11}, departed=frozenset())


def test_a_read_that_overlapped_a_write_is_not_kept():
    c = ContextCache(clock=lambda: 0.0)
    began = c.generation
    c.written()  # a seat taken while the read was on its way
    c.put(5, _row(), began)
    assert c.get(5) is None
    c.put(5, _row(), c.generation)
    assert c.get(5) is not None


def test_an_order_written_out_of_turn_forgets_and_one_in_turn_moves_the_count():
    c = ContextCache(clock=lambda: 0.0)
    c.put(5, _row(seq=3), c.generation)
    c.advanced(1, 4, None)
    assert c.get(5).seq == 4
    c.advanced(1, 9, None)  # not the next count: what is remembered is not what was written on
    assert c.get(5) is None
    c.put(5, _row(seq=4), c.generation)
    c.advanced(2, 5, None)  # another game's order: nothing of this channel's changes
    assert c.get(5).seq == 4


def test_a_row_without_its_seats_is_not_kept_and_the_entries_are_bounded():
    c = ContextCache(clock=lambda: 0.0, limit=3)
    bare = _row()
    bare.seats = None
    c.put(5, bare, c.generation)
    assert c.get(5) is None
    for ch in range(10, 14):
        c.put(ch, _row(gid=ch, channel=ch), c.generation)
    assert len(c._entries) <= 3 and c.get(13) is not None
