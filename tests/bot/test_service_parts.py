"""Each part of the service stands alone (issue 29): built on a fake table that holds only what the part
uses, it can be read, tested and replaced without the others (bot/service.py wires the real ones)."""
from __future__ import annotations

import random
from types import SimpleNamespace

from bot.clocks import Clocks
from bot.orders import Orders
from bot.outcome import Ctx
from bot.recovery import Recovery
from bot.storage import Prefs
from bot.views import Views


class FakeStore:
    """Only the reads and writes the parts below make."""

    def __init__(self):
        self.prefs_by_user: dict[int, Prefs] = {}
        self.delivered: list[str] = []
        self.settled: list = []

    async def live_game(self, channel_id):
        return None

    def remembered_context(self, channel_id):
        return None  # nothing remembered: every command reads its context

    async def prefs(self, user_id):
        return self.prefs_by_user.get(user_id, Prefs(user_id))

    async def set_prefs(self, p):
        self.prefs_by_user[p.user_id] = p

    async def active_games_of(self, user_id):
        return []

    async def mark_delivered(self, interaction_id, now):
        self.delivered.append(interaction_id)

    async def undelivered(self, limit=500):
        return [{"interaction_id": "i1", "game_id": 5, "channel_id": 50, "created_at": 90.0, "user_id": 7,
                 "seq": 3, "text": "roll 2d6", "ruleset": "gondor", "events": [],
                 "response": {"text": "**Sauron** `roll 2d6`", "ephemeral": False}}]

    async def settle_undelivered(self, ids, posts, now):
        self.settled.append((ids, posts, now))


def fake_table(**kw):
    return SimpleNamespace(store=FakeStore(), clock=lambda: 100.0, on_timers_changed=None, prefs_changed=_nothing, **kw)


def ctx(user=7, iid="x", expires_at=None):
    return Ctx(channel_id=50, user_id=user, guild_id=1, interaction_id=iid, expires_at=expires_at)


async def test_recovery_alone_announces_an_unanswered_order_and_asks_about_its_repeat_once():
    table = fake_table()
    rec = Recovery(table)
    assert await rec.announce_unanswered() == 1
    (ids, posts, now), = table.store.settled
    assert ids == ["i1"] and posts[0].channel_id == 50 and "recorded before a restart" in posts[0].payload["text"]
    row = SimpleNamespace(id=5)
    asked = rec.repeat_asked(row, ctx(), "roll 2d6")
    assert asked is not None and "already applied (log #3)" in asked.reply.text
    assert rec.repeat_asked(row, ctx(), "roll 2d6") is None  # asked once; sent again, applied


async def test_recovery_alone_watches_an_unacknowledged_order_until_its_answer_is_delivered():
    rec = Recovery(fake_table())
    row = SimpleNamespace(id=5)
    rec.watch(row, ctx(iid="a", expires_at=103.0), "move GS1 1905", 9)
    assert rec.repeat_asked(row, ctx(iid="b"), "move GS1 1906") is None  # another order: not watched
    rec.watch(row, ctx(iid="c", expires_at=103.0), "move GS1 1905", 10)
    await rec.delivered("c")  # answered in time: the player saw it
    assert rec.repeat_asked(row, ctx(iid="d"), "move GS1 1905").reply.text.count("log #9") == 1
    rec.watch(row, ctx(iid="e"), "done", 11)  # no Discord clock (the console): nothing to watch
    assert rec.repeat_asked(row, ctx(iid="f"), "done") is None


async def test_orders_alone_rolls_dice_with_the_tables_generator():
    table = fake_table(roll_rng=random.Random(1), not_mine=lambda ctx: None)
    orders = Orders(table, Recovery(table))
    out = await orders.roll(ctx(), "3d6", "morale")
    again = await Orders(fake_table(roll_rng=random.Random(1), not_mine=lambda ctx: None), None).roll(ctx(), "3d6", "morale")
    assert out.ok and not out.ephemeral and "morale" in out.reply.text and out.reply.text == again.reply.text
    bad = await orders.roll(ctx(), "3d", None)
    assert not bad.ok and bad.ephemeral


async def test_views_alone_answers_help_with_no_game_here():
    views = Views(fake_table(), lobby=None)
    out = await views.help(ctx())
    assert out.ephemeral and "/game new" in out.reply.text
    out = await views.help(ctx(), "orders")
    assert not out.ok and "belongs to this channel's game, and there is none" in out.reply.text


async def test_clocks_alone_keep_a_players_quiet_hours():
    table = fake_table()
    clocks = Clocks(table)
    out = await clocks.set_quiet(ctx(), "22:00", "07:00", "Europe/Paris")
    assert out.ephemeral and "Quiet hours set" in out.reply.text
    assert (await table.store.prefs(7)).quiet_from == "22:00"
    bad = await clocks.set_quiet(ctx(), "25:00", "07:00", "Europe/Paris")
    assert not bad.ok and (await table.store.prefs(7)).quiet_from == "22:00"  # a refusal changes nothing


async def test_recovery_alone_asks_again_until_its_question_is_known_to_have_reached_the_player():
    """Issue 25: an "already applied" answer that expired on its way (nobody saw it) does not use the
    question up: the next sending is asked again; once a question is seen in time, a resend applies."""
    rec = Recovery(fake_table())
    row = SimpleNamespace(id=5)
    rec.watch(row, ctx(iid="a", expires_at=103.0), "roll 2d6", 9)
    await rec.delivered("a", late=True)  # answered in the channel: the player may not have seen it
    assert rec.repeat_asked(row, ctx(iid="b", expires_at=110.0), "roll 2d6") is not None  # its answer expired
    assert rec.repeat_asked(row, ctx(iid="c", expires_at=112.0), "roll 2d6") is not None  # so: asked again
    rec.refusal_seen("b")  # (an old question's late news changes nothing)
    assert rec.repeat_asked(row, ctx(iid="d", expires_at=114.0), "roll 2d6") is not None
    rec.refusal_seen("d")  # this one reached the player
    assert rec.repeat_asked(row, ctx(iid="e", expires_at=116.0), "roll 2d6") is None


class FakeGameStore(FakeStore):
    """A channel with one open game of Gondor whose Sauron seat is taken."""

    def __init__(self, status="open"):
        super().__init__()
        from bot.storage import GameRow
        self.row = GameRow(id=3, channel_id=50, guild_id=1, ruleset="gondor", options="{}", seed="s", commitment="c",
                           status=status, creator_id=7, created_at=1.0, started_at=None, ended_at=None, seq=0,
                           deadline_rules=None)

    async def live_game(self, channel_id):
        return self.row if channel_id == 50 else None

    async def seats(self, game_id):
        return {"sauron": 7}

    async def order_context(self, channel_id, interaction_id):
        return (({"text": "stored answer", "ephemeral": True}) if interaction_id == "again" else None), self.row


def locking_table(store):
    """What ``locked`` needs of a table: the shard check, the channel's lock, the stored answers."""
    import asyncio
    from collections import defaultdict

    from bot.table import Table

    return SimpleNamespace(store=store, clock=lambda: 100.0, not_mine=lambda ctx: None,
                           locks=defaultdict(asyncio.Lock), waiting=defaultdict(int), replay_of=Table.replay_of,
                           remember=_nothing, stamp=lambda out, gid: out, forget=lambda gid: None,
                           can_admin=lambda ctx, row: ctx.user_id == row.creator_id)


async def _nothing(*a, **k):
    return None


async def test_lobby_alone_offers_the_free_seats_and_the_taken_ones():
    from bot.lobby import Lobby

    lobby = Lobby(SimpleNamespace(store=FakeGameStore(), can_admin=lambda ctx, row: False))
    assert await lobby.autocomplete_seat(ctx(user=8), "") == ["westernesse"]  # not the moderator's: not an admin
    assert await lobby.autocomplete_taken_seat(ctx(user=8), "sa") == ["sauron"]
    assert await lobby.autocomplete_seat(Ctx(channel_id=51, user_id=8), "") == []  # no game in that channel


async def test_undo_alone_goes_through_the_channels_lock_and_answers_a_redelivered_interaction_from_storage():
    from bot.undo import Undo

    undo = Undo(locking_table(FakeGameStore(status="open")))
    out = await undo.undo(ctx(iid="first"))
    assert not out.ok and "not running" in out.reply.text  # a game not started: nothing to take back
    again = await undo.undo(ctx(iid="again"))
    assert again.replayed and again.reply.text == "stored answer"  # the same interaction: not run twice


async def test_archive_alone_passes_on_the_tables_answer_when_there_is_no_game():
    from bot.archive import Archive
    from bot.outcome import Outcome

    async def current(c):
        return Outcome.error("There is no game in this channel.")

    archive = Archive(SimpleNamespace(current=current), lobby=None)
    out = await archive.export(ctx())
    assert not out.ok and "no game" in out.reply.text and out.reply.attachment is None


async def test_seats_alone_keep_autoplay_and_refuse_a_takeover_of_a_seat_not_on_autopilot():
    """Issue 28: the seats part on a fake table: `/me autoplay` is the player's preference, and a seat
    held by a player who plays is not up for takeover (nothing is changed)."""
    from bot.seats import Seats

    class SeatStore(FakeGameStore):
        async def seat_states(self, game_id):
            return {}

        async def set_seat_holder(self, *a):
            raise AssertionError("nothing may change")

    store = SeatStore(status="active")
    seats = Seats(locking_table(store), lobby=None)
    assert not (await seats.autoplay(ctx(), "sometimes")).ok and not store.prefs_by_user
    assert (await seats.autoplay(ctx(), "on")).ok and store.prefs_by_user[7].autoplay
    out = await seats.takeover(ctx(user=8, iid="t1"), "sauron")
    assert not out.ok and "not up for takeover" in out.reply.text
    out = await seats.open_games(Ctx(channel_id=50, user_id=8, guild_id=None))
    assert "per server" in out.reply.text and out.ephemeral
