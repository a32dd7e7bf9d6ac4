"""The storage contract (issue 19), run against every backend in ``bot.storage.BACKENDS``:
SQLite, and PostgreSQL started on loopback by the tests (issue 16). Each test names
the promise the service relies on."""
import asyncio

import pytest

from bot.storage import (Clock, FireTimer, OutboxPost, PauseClock, PlayerRecord, Prefs, SeatState, StaleWriter,
                         open_store)


@pytest.fixture
async def store(store_url):
    """Each backend in turn (tests/conftest.py: ``store_url``): SQLite, and a real PostgreSQL."""
    s = await open_store(store_url)
    yield s
    await s.close()


async def new_game(store, channel=5, initial=None):
    return await store.create_game(channel_id=channel, guild_id=1, ruleset="tiny-pbp", options={"a": "1"},
                                   seed="s", commitment="c", creator_id=9, now=1.0,
                                   initial_state=initial or {"n": 0}, deadline_rules={"hours": 1})


def action(gid, seq, **kw):
    base = dict(game_id=gid, seq=seq, seat="red", user_id=9, text=f"o{seq}", interaction_id=f"i{gid}-{seq}",
                dice_before=seq - 1, dice_after=seq, events=[{"public": f"e{seq}"}], now=float(seq),
                snapshot=None, response={"text": f"ok {seq}", "ephemeral": False})
    base.update(kw)
    return base


async def test_a_game_is_created_with_its_first_snapshot_and_one_live_game_per_channel(store):
    gid = await new_game(store)
    row = await store.live_game(5)
    assert row.id == gid and row.options == {"a": "1"} and row.status == "open" and row.seq == 0
    assert await store.first_snapshot(gid) == {"n": 0} and await store.last_snapshot(gid) == (0, {"n": 0})
    with pytest.raises(Exception):
        await new_game(store)  # a second live game in the same channel
    await store.set_status(gid, "ended", 2.0)
    assert await store.live_game(5) is None and (await store.latest_game(5)).status == "ended"
    assert await store.live_game_ids() == []


async def test_seats_are_taken_once_and_released_together(store):
    gid = await new_game(store)
    assert await store.take_seat(gid, "red", 1, 1.0)
    assert not await store.take_seat(gid, "red", 2, 1.0)
    assert await store.take_seat(gid, "blue", 1, 1.0)
    assert await store.seats(gid) == {"red": 1, "blue": 1}
    assert sorted(await store.release_seats(gid, 1)) == ["blue", "red"] and await store.seats(gid) == {}


async def test_a_commands_context_is_one_read_the_stored_answer_the_live_game_and_its_seats(store):
    assert await store.order_context(5, "nothing") == (None, None)  # no game, no answer
    gid = await new_game(store)
    stored, row = await store.order_context(5, None)
    assert stored is None and row == await store.live_game(5) and row.seats == {}
    await store.take_seat(gid, "red", 2**62, 1.0)  # Discord ids are 64-bit
    await store.take_seat(gid, "blue", 3, 1.0)
    await store.append_action(**action(gid, 1))
    stored, row = await store.order_context(5, f"i{gid}-1")  # a redelivered interaction
    assert stored == {"text": "ok 1", "ephemeral": False}
    assert row.id == gid and row.seq == 1 and row.options == {"a": "1"} and row.seats == {"red": 2**62, "blue": 3}
    assert await store.order_context(6, f"i{gid}-1") == ({"text": "ok 1", "ephemeral": False}, None)  # no game there
    await store.set_status(gid, "ended", 2.0)
    assert await store.order_context(5, "new") == (None, None)  # an ended game is not the channel's live game


async def test_the_log_is_appended_in_order_and_a_stale_writer_is_fenced(store):
    gid = await new_game(store)
    await store.append_action(**action(gid, 1))
    await store.append_action(**action(gid, 2, snapshot={"n": 2}, also=[OutboxPost(gid, {"text": "p"}, 2.0,
                                                                                    channel_id=5)]))
    with pytest.raises(StaleWriter):  # seq 2 again: the game moved on, fenced before anything is written
        await store.append_action(**action(gid, 2, interaction_id="other", text="late"))
    with pytest.raises(StaleWriter):  # seq 4 skips 3: fenced too
        await store.append_action(**action(gid, 4, interaction_id="skip"))
    rows = await store.actions(gid)
    assert [(a.seq, a.text) for a in rows] == [(1, "o1"), (2, "o2")]
    assert rows[1].events == [{"public": "e2"}] and (await store.game(gid)).seq == 2
    assert await store.last_snapshot(gid) == (2, {"n": 2})
    assert await store.snapshot_before(gid, 2) == (0, {"n": 0})
    assert [a.seq for a in await store.actions(gid, after_seq=1)] == [2]
    assert [o["payload"] for o in await store.outbox(gid)] == [{"text": "p"}]
    assert await store.response_for("late") is None and await store.response_for(f"i{gid}-2") == {
        "text": "ok 2", "ephemeral": False}


async def test_the_order_that_ends_a_game_ends_it_in_the_same_transaction(store):
    gid = await new_game(store)
    await store.set_status(gid, "active", 1.5)
    await store.append_action(**action(gid, 1, snapshot={"n": 1}, status="over", now=7.0))
    row = await store.game(gid)
    assert (row.seq, row.status, row.ended_at, row.started_at) == (1, "over", 7.0, 1.5)
    assert await store.live_game(5) is None and await store.last_snapshot(gid) == (1, {"n": 1})
    with pytest.raises(StaleWriter):  # fenced: the ended game's row is not touched again
        await store.append_action(**action(gid, 1, interaction_id="again", status="ended", now=8.0))
    assert (await store.game(gid)).status == "over" and await store.response_for("again") is None


async def test_an_answer_is_kept_once_and_undelivered_answers_are_settled(store):
    gid = await new_game(store)
    await store.append_action(**action(gid, 1))
    await store.save_response("x", gid, {"text": "first"}, 1.0)
    await store.save_response("x", gid, {"text": "second"}, 1.0)  # a redelivery keeps the first
    assert await store.response_for("x") == {"text": "first"}
    await store.mark_delivered("x", 2.0)
    pending = await store.undelivered()
    assert [p["interaction_id"] for p in pending] == [f"i{gid}-1"]
    assert pending[0]["text"] == "o1" and pending[0]["channel_id"] == 5 and pending[0]["ruleset"] == "tiny-pbp"
    await store.settle_undelivered([f"i{gid}-1"], [OutboxPost(gid, {"text": "late"}, 3.0, user_id=9)], 3.0)
    assert await store.undelivered() == []
    out = await store.pending_outbox()
    assert [(o["user_id"], o["payload"]) for o in out] == [(9, {"text": "late"})]
    await store.mark_sent(out[0]["id"], 4.0)
    assert await store.pending_outbox() == []


async def test_a_timer_fires_once_with_its_effects(store):
    gid = await new_game(store)
    await store.set_clock(Clock(gid, "p1", 1.0, deadline_at=10.0), [("remind", "red", 5.0), ("deadline", "", 10.0)])
    assert [t.kind for t in await store.due_timers(6.0)] == ["remind"]
    t = (await store.due_timers(6.0))[0]
    post = OutboxPost(gid, {"text": "reminder"}, 6.0, channel_id=5)
    assert await store.apply_effects([FireTimer(t.id, 6.0), post])
    assert not await store.apply_effects([FireTimer(t.id, 6.5), post])  # fired already: nothing at all
    assert len(await store.outbox(gid)) == 1 and (await store.timer(t.id)).fired_at == 6.0
    d = (await store.due_timers(11.0))[0]
    assert await store.apply_effects([FireTimer(d.id, 11.0), PauseClock(gid, 11.0)])
    assert (await store.clock(gid)).paused_at == 11.0
    # a new phase replaces the unfired timers only
    await store.set_clock(Clock(gid, "p2", 12.0), [("remind", "blue", 20.0)])
    assert sorted((t.kind, t.fired_at is not None) for t in await store.timers(gid)) == [
        ("deadline", True), ("remind", False), ("remind", True)]
    assert [t.seat for t in await store.timers(gid, pending_only=True)] == ["blue"]


async def test_settings_prefs_and_undo_requests_round_trip(store):
    assert await store.get_setting("k") is None
    await store.set_setting("k", "v1")
    await store.set_setting("k", "v2")
    assert await store.get_setting("k") == "v2"
    assert await store.prefs(7) == Prefs(7)
    await store.set_prefs(Prefs(7, "22:00", "07:00", "Europe/London", 99.0))
    assert await store.prefs(7) == Prefs(7, "22:00", "07:00", "Europe/London", 99.0)
    gid = await new_game(store)
    rid = await store.create_undo_request(game_id=gid, seat="red", user_id=9, target_seq=1, at_seq=1,
                                          needed=[3, 2], now=1.0)
    await store.update_undo_request(rid, votes={2: True}, status="open")
    req = await store.undo_request(rid)
    assert req["needed"] == [2, 3] and req["votes"] == {2: True} and req["status"] == "open"


async def test_concurrent_games_never_share_a_transaction(store):
    """The one-writer contract: many games appending at once, with failing transactions among
    them, leave exactly the committed rows (tests/storage/test_store_concurrency.py goes further)."""
    gids = [await new_game(store, channel=100 + i) for i in range(6)]

    async def play(gid):
        seq = 0
        for step in range(15):
            await asyncio.sleep(0)
            bad = step % 4 == 3
            try:
                await store.append_action(**action(gid, seq + (2 if bad else 1), interaction_id=f"{gid}:{step}"))
                seq += 1
            except RuntimeError:
                assert bad
            await store.save_response(f"r{gid}:{step}", gid, {"text": "x"}, 1.0)
        return seq

    done = await asyncio.gather(*(play(g) for g in gids))
    for gid, n in zip(gids, done):
        assert [a.seq for a in await store.actions(gid)] == list(range(1, n + 1))
        assert (await store.game(gid)).seq == n


async def test_private_messages_a_dm_could_not_carry_are_recorded_and_held(store):
    """Issue 25: where a seat's private messages went when a DM was refused (counted per seat and
    way, for `/game status`), and the messages held for a player's next command, shown once."""
    gid = await new_game(store)
    await store.record_delivery(gid, "red", 9, "thread", 1.0)
    await store.record_delivery(gid, "red", 9, "thread", 2.0)
    await store.record_delivery(gid, "blue", 8, "held", 3.0)
    assert await store.delivery_counts(gid) == [("blue", 8, "held", 1), ("red", 9, "thread", 2)]
    assert await store.delivery_counts(gid + 1) == []
    assert await store.users_with_held_posts() == []
    await store.hold_post(8, gid, "blue", "the real cauldrons: K2", 3.0)
    await store.hold_post(8, gid, "blue", "and K5", 4.0)
    held = await store.held_posts(8)
    assert [h["text"] for h in held] == ["the real cauldrons: K2", "and K5"] and held[0]["seat"] == "blue"
    assert await store.users_with_held_posts() == [8] and await store.held_posts(9) == []
    await store.mark_held_shown([held[0]["id"]], 5.0)
    assert [h["text"] for h in await store.held_posts(8)] == ["and K5"]
    await store.mark_held_shown([h["id"] for h in await store.held_posts(8)], 6.0)
    assert await store.held_posts(8) == [] and await store.users_with_held_posts() == []


async def test_a_players_record_seat_states_history_and_games_everywhere(store):
    """Issue 28: a player's record is one row per user across servers, counts add up (never
    overwrite), a seat's standing and its takeover votes round-trip, the seat's history closes one
    holding as the next begins, and a user's live games are found in every server."""
    assert await store.record(7) == PlayerRecord(7) and (await store.record(7)).ontime_percent is None
    await store.add_record(7, phases_on_time=3)
    await store.add_record(7, phases_on_time=1, phases_missed=1, games_finished=1)
    await store.add_record(2**62, seats_taken_over=1)
    r = await store.record(7)
    assert (r.phases_on_time, r.phases_missed, r.games_finished, r.seats_taken_over) == (4, 1, 1, 0)
    assert r.ontime_percent == 80.0 and (await store.record(2**62)).seats_taken_over == 1
    with pytest.raises(ValueError):
        await store.add_record(7, nickname=1)  # nothing but the record is kept
    gid = await new_game(store)
    assert await store.seat_states(gid) == {}
    await store.set_seat_state(SeatState(gid, "red", missed_in_row=2, autopilot=True,
                                         takeover={"user": 2**62, "votes": {3: True}}))
    await store.set_seat_state(SeatState(gid, "blue", checked_in=True))
    st = await store.seat_states(gid)
    assert st["red"] == SeatState(gid, "red", 2, True, False, {"user": 2**62, "votes": {3: True}})
    assert st["blue"].checked_in and not st["blue"].autopilot and st["blue"].takeover is None
    await store.set_seat_state(SeatState(gid, "red"))
    assert (await store.seat_states(gid))["red"] == SeatState(gid, "red")
    await store.seat_changed(gid, "red", 7, 1.0)
    await store.seat_changed(gid, "red", 2**62, 5.0, "takeover")
    await store.seat_changed(gid, "blue", 8, 2.0)
    await store.seat_changed(gid, "blue", None, 3.0)
    assert await store.seat_history(gid) == [
        {"seat": "red", "user_id": 7, "from_at": 1.0, "to_at": 5.0, "how": "join"},
        {"seat": "red", "user_id": 2**62, "from_at": 5.0, "to_at": None, "how": "takeover"},
        {"seat": "blue", "user_id": 8, "from_at": 2.0, "to_at": 3.0, "how": "join"}]
    # the order's one read carries the seats whose holder left (blue: a closed tenure, none open; red: held)
    _, row = await store.order_context(5, None)
    assert row.id == gid and row.departed == {"blue"} and await store.departed(gid) == {"blue"}
    await store.seat_changed(gid, "blue", 9, 4.0, "takeover")
    assert (await store.order_context(5, None))[1].departed == frozenset() and await store.departed(gid) == set()
    other = await store.create_game(channel_id=6, guild_id=2, ruleset="tiny-pbp", options={}, seed="s",
                                    commitment="c", creator_id=9, now=1.0, initial_state={"n": 0})
    await store.take_seat(gid, "red", 7, 1.0)
    await store.take_seat(other, "blue", 7, 1.0)
    await store.take_seat(other, "red", 8, 1.0)
    mine = await store.games_of(7)
    assert [(g.id, g.guild_id, g.seats) for g in mine] == [(gid, 1, {"red": 7}), (other, 2, {"blue": 7, "red": 8})]
    assert [g.id for g in await store.open_games(2)] == [other] and await store.games_of(99) == []
    await store.set_status(other, "over", 3.0)
    assert [g.id for g in await store.games_of(7)] == [gid] and await store.open_games(2) == []
    await store.set_prefs(Prefs(7, autoplay=True))
    assert (await store.prefs(7)).autoplay is True


async def test_a_part_finished_counts_on_time_only_before_the_deadline_and_gives_the_seat_back(store):
    """Issue 28: one transaction: on time if the phase had a deadline that had not passed (a phase without a
    deadline counts neither way); the seat off autopilot, its missed deadlines in a row forgotten and a
    takeover request dropped."""
    gid = await new_game(store)
    await store.part_finished(gid, "red", 7, 5.0)  # no clock yet: no deadline, not counted
    await store.set_clock(Clock(gid, "p0", 1.0, deadline_at=None), [])
    await store.part_finished(gid, "red", 7, 6.0)  # a game without deadlines: not counted
    assert (await store.record(7)).phases_on_time == 0
    await store.set_clock(Clock(gid, "p1", 1.0, deadline_at=10.0), [])
    await store.set_seat_state(SeatState(gid, "red", missed_in_row=2, autopilot=True, takeover={"user": 8, "votes": {}}))
    await store.part_finished(gid, "red", 7, 9.0)  # before the deadline
    await store.part_finished(gid, "red", 7, 10.0)  # at the deadline: still on time
    await store.part_finished(gid, "red", 7, 11.0)  # after it: not on time
    assert (await store.record(7)).phases_on_time == 2
    assert (await store.seat_states(gid))["red"] == SeatState(gid, "red")


async def test_a_missed_deadline_counts_once_and_puts_the_seat_on_autopilot_at_the_nth(store):
    """Issue 28: the seat's misses in a row and its holder's record move together, once per deadline."""
    gid = await new_game(store)
    assert await store.count_missed(gid, "red", 7, 100, 2)
    assert not await store.count_missed(gid, "red", 7, 100, 2)  # the same deadline again (after a crash)
    st = (await store.seat_states(gid))["red"]
    assert (st.missed_in_row, st.autopilot) == (1, False) and (await store.record(7)).phases_missed == 1
    assert await store.count_missed(gid, "red", 7, 101, 2)
    st = (await store.seat_states(gid))["red"]
    assert (st.missed_in_row, st.autopilot) == (2, True) and (await store.record(7)).phases_missed == 2
    assert await store.count_missed(gid, "blue", 8, 101, 1)  # autopilot=1: at the first miss
    assert (await store.seat_states(gid))["blue"].autopilot
    assert await store.count_missed(gid, "green", 9, 101, 0)  # no autopilot option: never
    assert not (await store.seat_states(gid))["green"].autopilot
