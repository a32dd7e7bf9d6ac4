"""Issue 28 in the service, under a controllable clock: a player's record (on time, missed, finished,
taken over), the seat options at `/game new` refused when bad, autopilot after n missed deadlines in a
row, taking a seat over (open and by vote) with its refusals, `/me games`, `/game open`, `/me autoplay`."""
import pytest

from bot.service import Ctx, GameService
from bot.storage import Store
from tests import pbp_helpers  # noqa: F401

RED, BLUE, CAROL, DAVE, EVE = 11, 22, 33, 44, 55
H = 3600.0
T0 = 1_720_000_000.0
_ids = iter(range(1, 10**9))


def ctx(user, channel=9, guild=1, mod=False):
    return Ctx(channel_id=channel, user_id=user, guild_id=guild, interaction_id=f"s{next(_ids)}", is_moderator=mod)


@pytest.fixture
async def svc(tmp_path):
    store = await Store.open(str(tmp_path / "seats.db"))
    s = GameService(store, renderer=None, seed_source=lambda: "seat-seed", clock=Clock(T0))
    yield s
    await store.close()


async def started(svc, options="deadline=24 autopilot=1", channel=9, guild=1):
    assert (await svc.lobby.new_game(ctx(RED, channel, guild), "tiny-pbp", options)).ok
    assert (await svc.lobby.join(ctx(RED, channel, guild), "red")).ok
    assert (await svc.lobby.join(ctx(BLUE, channel, guild), "blue")).ok
    assert (await svc.lobby.start(ctx(RED, channel, guild))).ok
    return await svc.store.live_game(channel)


async def texts(svc, gid):
    return [o["payload"].get("text", "") for o in await svc.store.outbox(gid)]


@pytest.mark.parametrize("options, why", [("checkin=abc", "`checkin` takes a number of hours"),
                                          ("min_ontime=150", "percent from 0 to 100"),
                                          ("autopilot=-1", "`autopilot` takes a whole number"),
                                          ("takeover=maybe", "open|vote")])
async def test_bad_seat_options_are_refused_privately_and_change_nothing(svc, options, why):
    out = await svc.lobby.new_game(ctx(RED), "tiny-pbp", options)
    assert not out.ok and out.ephemeral and why in out.reply.text and len(out.reply.text) < 200
    assert await svc.store.live_game(9) is None


async def test_good_seat_options_are_kept_and_not_passed_to_the_ruleset(svc):
    # tiny-pbp refuses any option of its own: these are the service's
    assert (await svc.lobby.new_game(ctx(RED), "tiny-pbp", "checkin=12 min_ontime=80 autopilot=2 takeover=vote")).ok


async def test_on_time_and_missed_phases_count_and_autopilot_plays_the_seat_and_the_game_goes_on(svc):
    """A seat with autopilot=1 misses a deadline: the record counts it, the seat goes on autopilot, the
    table is told, the seat is passed and the game goes on; the seat is listed as open for takeover."""
    clock = svc.table.clock
    row = await started(svc)
    assert (await svc.orders.done(ctx(RED))).ok  # red on time
    assert (await svc.store.record(RED)).phases_on_time == 1
    clock.t = T0 + 25 * H  # blue's deadline passes
    assert await svc.clocks.fire_due() >= 1
    rec = await svc.store.record(BLUE)
    assert rec.phases_missed == 1 and rec.phases_on_time == 0
    st = (await svc.store.seat_states(row.id))["blue"]
    assert st.autopilot and st.missed_in_row == 1
    said = "\n".join(await texts(svc, row.id))
    assert "now on autopilot" in said and "/game takeover" in said
    game = svc.table.games[row.id]
    assert game.active_seats() == ["red"]  # the game went on
    # the next time blue is to act, the bot plays it at once (no deadline waited for)
    assert (await svc.orders.done(ctx(RED))).ok
    assert await svc.clocks.fire_due() >= 1
    assert svc.table.games[row.id].active_seats() == ["red"]
    assert (await svc.store.record(BLUE)).phases_missed == 1  # an autopilot seat is not its holder's miss
    status = (await svc.views.status(ctx(CAROL))).reply.text
    assert "On autopilot" in status and "Blue" in status and "on time 100% of 2 phases" in status
    opened = await svc.seats.open_games(ctx(CAROL))
    assert "up for takeover: `blue`" in opened.reply.text and opened.ephemeral
    assert any(cid == f"stake:{row.id}:blue" for cid, _ in opened.reply.buttons)


async def test_a_third_player_takes_over_gets_the_secret_and_a_full_phase_and_the_export_lists_both(svc):
    clock = svc.table.clock
    row = await started(svc, "deadline=24 autopilot=1")
    assert (await svc.orders.done(ctx(RED))).ok
    clock.t = T0 + 25 * H
    await svc.clocks.fire_due()
    assert (await svc.orders.done(ctx(RED))).ok  # blue to act again (on autopilot: played at once)
    clock.t = T0 + 26 * H
    # refusals: a seat held and active, a seat of another channel's game, someone already seated
    out = await svc.seats.takeover(ctx(CAROL), "red")
    assert not out.ok and "not up for takeover" in out.reply.text
    assert not (await svc.seats.takeover(ctx(CAROL, channel=10), "blue")).ok  # no game in that channel
    out = await svc.seats.takeover(ctx(RED), "blue")
    assert not out.ok and "already" in out.reply.text
    assert (await svc.store.seats(row.id))["blue"] == BLUE
    # blue is to act now (red played, autopilot not yet fired): Carol takes over
    row = await svc.store.live_game(9)
    game = await svc.table.load(row)
    if "blue" not in game.active_seats():
        assert (await svc.orders.done(ctx(RED))).ok
    out = await svc.seats.takeover(ctx(CAROL), "blue")
    assert out.ok, out.reply.text
    assert not out.ephemeral and "takes over" in out.reply.text
    assert any("Your card is" in p.text for p in out.dms[CAROL])  # the seat's secret, by the private path
    assert (await svc.store.seats(row.id))["blue"] == CAROL
    clock_row = await svc.store.clock(row.id)
    assert clock_row.deadline_at == pytest.approx(clock.t + 24 * H)  # a full phase
    assert (await svc.store.record(CAROL)).seats_taken_over == 1 and (await svc.store.record(BLUE)).seats_lost == 1
    assert not (await svc.store.seat_states(row.id))["blue"].autopilot
    hist = await svc.store.seat_history(row.id)
    assert [(h["seat"], h["user_id"], h["how"]) for h in hist if h["seat"] == "blue"] == [
        ("blue", BLUE, "join"), ("blue", CAROL, "takeover")]
    status = (await svc.views.status(ctx(DAVE))).reply.text
    assert "Seat history" in status and f"<@{BLUE}>" in status and f"<@{CAROL}>" in status
    data = await svc.archive.export_data(await svc.store.live_game(9))
    holders = [(h["seat"], h["user_id"]) for h in data["seat_history"]]
    assert ("blue", BLUE) in holders and ("blue", CAROL) in holders


async def test_takeover_by_vote_waits_for_the_creator_or_a_majority(svc):
    clock = svc.table.clock
    row = await started(svc, "deadline=24 autopilot=1 takeover=vote")
    assert (await svc.orders.done(ctx(RED))).ok
    clock.t = T0 + 25 * H
    await svc.clocks.fire_due()
    out = await svc.seats.takeover(ctx(CAROL), "blue")
    assert out.ok and "asks to take over" in out.reply.text and out.reply.mentions == [RED]
    assert (await svc.store.seats(row.id))["blue"] == BLUE  # nothing yet
    assert not (await svc.seats.takeover_vote(ctx(DAVE), row.id, "blue", True)).ok  # not a voter
    out = await svc.seats.takeover_vote(ctx(RED), row.id, "blue", True)  # the creator approves
    assert out.ok and (await svc.store.seats(row.id))["blue"] == CAROL


async def test_min_ontime_refuses_a_poor_record_and_admits_a_new_player(svc):
    await svc.store.add_record(CAROL, phases_on_time=1, phases_missed=3)
    assert (await svc.lobby.new_game(ctx(RED), "tiny-pbp", "min_ontime=50")).ok
    out = await svc.lobby.join(ctx(CAROL), "blue")
    assert not out.ok and "at least 50%" in out.reply.text and "25%" in out.reply.text
    out = await svc.lobby.join(ctx(DAVE), "blue")  # new: passes
    assert out.ok and "new player" in out.reply.text


async def test_my_games_lists_every_server_with_what_waits_for_me(svc):
    await started(svc, "deadline=24", channel=9, guild=1)
    assert (await svc.lobby.new_game(ctx(CAROL, 50, 2), "tiny-pbp", "deadline=12")).ok
    assert (await svc.lobby.join(ctx(CAROL, 50, 2), "red")).ok
    assert (await svc.lobby.join(ctx(RED, 50, 2), "blue")).ok
    assert (await svc.lobby.start(ctx(CAROL, 50, 2))).ok
    out = await svc.seats.my_games(Ctx(channel_id=777, user_id=RED, guild_id=None), {1: "One", 2: "Two"})
    lines = out.reply.text.splitlines()
    assert out.ephemeral and len(lines) == 3 and "2 games" not in lines[0] and "(2; 1 wait for you)" in lines[0]
    first = next(l for l in lines if "One" in l)
    second = next(l for l in lines if "Two" in l)
    assert "https://discord.com/channels/1/9" in first and "waits for you" in first and "Red" in first
    assert "https://discord.com/channels/2/50" in second and "waits for others" in second and "Blue" in second
    assert f"<t:{int(T0 + 12 * H)}:R>" in second and f"<t:{int(T0 + 24 * H)}:R>" in first
    assert "no seat" in (await svc.seats.my_games(ctx(DAVE))).reply.text


async def test_autoplay_plays_only_a_forced_action_and_says_so(svc):
    from engine.core import Action

    row = await started(svc, "deadline=24")
    assert not (await svc.seats.autoplay(ctx(BLUE), "maybe")).ok
    assert (await svc.seats.autoplay(ctx(BLUE), "on")).ok
    assert (await svc.store.prefs(BLUE)).autoplay
    rs = pbp_helpers.TINY
    # tiny-pbp offers blue three actions: nothing is forced, so nothing is played
    assert (await svc.orders.done(ctx(RED))).ok
    await svc.clocks.fire_due()
    assert svc.table.games[row.id].active_seats() == ["blue"]
    # with a single legal action, the bot plays it for blue and says so
    orig = type(rs).legal_actions
    type(rs).legal_actions = lambda self, st, seat: iter([Action("done")]) if seat in self.active_seats(st) else iter(())
    try:
        assert (await svc.orders.done(ctx(BLUE))).ok  # (blue's own, then red's turn)
        assert (await svc.orders.done(ctx(RED))).ok
        assert await svc.clocks.fire_due() >= 1
        assert svc.table.games[row.id].active_seats() == ["red"]
        assert any("autoplay" in t for t in await texts(svc, row.id))
    finally:
        type(rs).legal_actions = orig


async def test_the_end_of_a_game_counts_finished_and_pings_every_holder(svc):
    await started(svc, "deadline=24")
    out = await svc.orders.order(ctx(RED), "win")
    assert out.ok and sorted(out.reply.mentions) == [RED, BLUE]
    assert (await svc.store.record(RED)).games_finished == 1 and (await svc.store.record(BLUE)).games_finished == 1


async def _assist(svc):
    assert (await svc.lobby.new_game(ctx(RED), "risk-minas-tirith", "mode=assist")).ok
    await svc.lobby.join(ctx(RED), "good")
    await svc.lobby.join(ctx(BLUE), "evil")
    await svc.lobby.join(ctx(CAROL, mod=True), "gm")
    assert (await svc.lobby.start(ctx(RED))).ok


async def test_a_vote_and_a_proposal_ping_exactly_who_must_answer_once_not_in_quiet_hours_or_away(svc):
    """Issue 28: a vote pings the seats that vote (not its caller); a declared action pings the other
    seats and the moderator; a player in their quiet hours or away is named but not pinged."""
    await _assist(svc)
    out = await svc.orders.order(ctx(BLUE), "vote end")
    assert out.ok and out.reply.mentions == [RED] and out.reply.text.count(f"<@{RED}>") == 1
    await svc.clocks.set_quiet(ctx(BLUE), "00:00", "23:59", "UTC")  # always quiet
    out = await svc.orders.order(ctx(RED), "!take 9")
    assert out.ok and out.reply.mentions == [CAROL]  # blue is in quiet hours: not pinged
    await svc.clocks.set_quiet(ctx(BLUE), "00:00", "00:00", "UTC")  # cleared
    p = await svc.store.prefs(CAROL)
    p.away_until = T0 + 10 * H
    await svc.store.set_prefs(p)
    out = await svc.orders.order(ctx(RED), "!take 8")
    assert out.ok and out.reply.mentions == [BLUE]  # the moderator is away


async def test_an_undo_request_pings_the_others_but_not_in_their_quiet_hours(svc):
    await started(svc, "deadline=24")
    assert (await svc.orders.order(ctx(RED), "roll")).ok  # dice drawn: the undo needs consent
    await svc.clocks.set_quiet(ctx(BLUE), "00:00", "23:59", "UTC")
    out = await svc.undo.undo(ctx(RED))
    assert out.ok and out.reply.buttons and out.reply.mentions == []
    await svc.clocks.set_quiet(ctx(BLUE), "00:00", "00:00", "UTC")


def test_who_must_answer_a_trade_a_pact_and_a_challenge():
    """Issue 28: the seats an order leaves waiting for an answer (bot/orders.py ``answerers``): a trade's
    receiver, a pact's parties who have not agreed, a challenge's answering seat; never the actor, and
    nothing already open before the order."""
    from types import SimpleNamespace

    from bot.orders import answerers

    rs = SimpleNamespace(seats=("a", "b", "c", "gm"), optional_seats=("gm",))
    before = {"trades": [{"id": "t1", "from": "a", "to": "c", "status": "open"}]}
    after = {"trades": before["trades"] + [{"id": "t2", "from": "a", "to": "b", "status": "open"}],
             "pacts": [{"id": "k1", "parties": ["a", "c"], "agreed": ["a"], "status": "proposed"}]}
    assert answerers(rs, before, after, "a", []) == ["b", "c"]
    assert answerers(rs, after, after, "a", ["b"]) == ["b"]  # nothing new: only the challenge
    assert answerers(rs, {}, {"votes": [{"id": "v1", "seat": None, "accepted_by": ["a"], "status": "open"}]},
                     "a", []) == ["b", "c"]


async def test_checkin_reopens_a_seat_whose_holder_did_not_check_in_and_starts_when_all_have(svc):
    """Issue 28, `checkin=<hours>`: when the last seat is taken every holder is pinged with a Check in
    button; `/game start` waits for it; at the time, a seat not checked in reopens and its holder is
    told; once every holder has checked in, the game starts by itself."""
    clock = svc.table.clock
    assert (await svc.lobby.new_game(ctx(RED), "tiny-pbp", "checkin=2 deadline=24")).ok
    assert (await svc.lobby.join(ctx(RED), "red")).ok
    out = await svc.lobby.join(ctx(BLUE), "blue")
    row = await svc.store.live_game(9)
    assert out.reply.buttons == [(f"checkin:{row.id}", "Check in")] and sorted(out.reply.mentions) == [RED, BLUE]
    assert not (await svc.lobby.start(ctx(RED))).ok  # it waits for the check-in
    status = (await svc.views.status(ctx(CAROL))).reply.text
    assert f"Check-in by <t:{int(T0 + 2 * H)}:F>" in status and "still to check in: Red, Blue" in status
    assert (await svc.lobby.checkin(ctx(RED), row.id)).ok
    assert not (await svc.lobby.checkin(ctx(RED), row.id)).ok  # once
    assert not (await svc.lobby.checkin(ctx(CAROL), row.id)).ok  # not a holder
    clock.t = T0 + 2 * H + 1
    assert await svc.clocks.fire_due() == 1
    assert await svc.store.seats(row.id) == {"red": RED}  # blue reopened
    said = "\n".join(await texts(svc, row.id))
    assert f"<@{BLUE}> did not check in" in said and "Blue" in said
    assert (await svc.store.live_game(9)).status == "open"
    # carol takes it: a new check-in; red stays checked in; carol's check-in starts the game
    out = await svc.lobby.join(ctx(CAROL), "blue")
    assert out.reply.buttons
    out = await svc.lobby.checkin(ctx(CAROL), row.id)
    assert out.ok and "everyone has" in out.reply.text and "begins" in out.reply.text
    assert (await svc.store.live_game(9)).status == "active"
    assert await svc.clocks.fire_due() == 0  # the old check-in timer is gone


async def test_leaving_a_running_game_puts_the_seat_on_autopilot_open_for_takeover_and_counts_abandoned(svc):
    row = await started(svc, "deadline=24")
    out = await svc.lobby.leave(ctx(RED))  # red is to act: the bot plays it at once
    assert out.ok and not out.ephemeral and "autopilot" in out.reply.text
    assert (await svc.store.record(RED)).games_abandoned == 1
    assert not (await svc.lobby.leave(ctx(RED))).ok  # once
    assert (await svc.store.seat_states(row.id))["red"].autopilot
    assert await svc.clocks.fire_due() >= 1
    assert svc.table.games[row.id].active_seats() == ["blue"]  # the bot played red's part
    assert "up for takeover: `red`" in (await svc.seats.open_games(ctx(DAVE))).reply.text
    assert "no seat" in (await svc.seats.my_games(ctx(RED))).reply.text  # red left: the seat is not theirs any more
    assert (await svc.seats.takeover(ctx(DAVE), "red")).ok
    assert (await svc.store.seats(row.id))["red"] == DAVE


async def test_a_takeover_by_vote_needs_a_majority_of_the_other_seats(svc):
    from bot.storage import SeatState

    assert (await svc.lobby.new_game(ctx(RED), "trio-pbp", "deadline=24 takeover=vote")).ok
    for user, seat in ((RED, "north"), (BLUE, "east"), (CAROL, "south")):
        assert (await svc.lobby.join(ctx(user), seat)).ok
    assert (await svc.lobby.start(ctx(RED))).ok
    row = await svc.store.live_game(9)
    assert await svc.seats.autocomplete_takeover_seat(ctx(DAVE), "") == []  # every seat held and played
    await svc.store.set_seat_state(SeatState(row.id, "north", autopilot=True))  # (as after missed deadlines)
    assert await svc.seats.autocomplete_takeover_seat(ctx(DAVE), "") == ["north"]  # only the seat up for takeover
    assert await svc.seats.autocomplete_takeover_seat(ctx(DAVE), "so") == []
    # DAVE asks; the other seats (east, south) vote, and the creator may decide alone
    out = await svc.seats.takeover(ctx(DAVE), "north")
    assert out.ok and sorted(out.reply.mentions) == [RED, BLUE, CAROL]  # the creator, and the other seats
    assert all(f"<@{u}>" in out.reply.text for u in (RED, BLUE, CAROL))
    out = await svc.seats.takeover_vote(ctx(BLUE), row.id, "north", True)
    assert out.ok and out.ephemeral and "waits for a majority" in out.reply.text
    assert (await svc.store.seats(row.id))["north"] == RED
    out = await svc.seats.takeover_vote(ctx(CAROL), row.id, "north", True)
    assert out.ok and (await svc.store.seats(row.id))["north"] == DAVE
    status = (await svc.views.status(ctx(CAROL))).reply.text
    assert "Seat history" in status and "(takeover)" in status


async def test_a_game_ended_by_its_creator_pings_every_other_holder_once(svc):
    await started(svc, "deadline=24")
    out = await svc.lobby.end(ctx(RED))
    assert out.ok and out.reply.mentions == [BLUE] and out.reply.text.count(f"<@{BLUE}>") == 1
    assert "without a result" in out.reply.text


class _Asking(pbp_helpers.Tiny):
    """Tiny, plus `ask`: Red's question makes Blue active within Red's phase (the same phase key), with
    one legal action, `answer`."""
    name = "tiny-ask"
    title = "Tiny Ask"

    def active_seats(self, st):
        return super().active_seats(st) + (["blue"] if st.get("asked") and st["phase"] != "blue" else [])

    def legal_actions(self, st, seat):
        if st.get("asked") and seat == "blue":
            yield pbp_helpers.Action("answer")
            return
        yield from super().legal_actions(st, seat)

    def parse(self, st, seat, text):
        if text.split()[:1] in (["ask"], ["answer"]):
            return pbp_helpers.Action(text.split()[0])
        return super().parse(st, seat, text)

    def check(self, st, seat, a):
        if a.verb == "answer" and not (st.get("asked") and seat == "blue"):
            raise pbp_helpers.IllegalOrder("nothing to answer", "1.0")
        if a.verb != "answer":
            super().check(st, seat, a)

    def apply(self, st, seat, a):
        if a.verb == "ask":
            st["asked"] = True
            return [pbp_helpers.Event(public=f"{seat} asks")]
        if a.verb == "answer":
            st["asked"] = False
            return [pbp_helpers.Event(public="blue answers")]
        return super().apply(st, seat, a)


pbp_helpers.register(_Asking())


async def test_autoplay_plays_a_forced_answer_that_comes_within_a_phase(svc):
    """Issue 28 (`/me autoplay`): a seat that becomes active within a phase with one legal action (a
    question to answer, a single retreat) is played at once for a holder with autoplay on."""
    assert (await svc.lobby.new_game(ctx(RED), "tiny-ask", "deadline=24")).ok
    await svc.lobby.join(ctx(RED), "red")
    await svc.lobby.join(ctx(BLUE), "blue")
    assert (await svc.lobby.start(ctx(RED))).ok
    assert (await svc.seats.autoplay(ctx(BLUE), "on")).ok
    row = await svc.store.live_game(9)
    assert (await svc.orders.order(ctx(RED), "ask")).ok
    assert svc.table.games[row.id].active_seats() == ["red", "blue"]
    assert await svc.clocks.fire_due() == 1
    assert svc.table.games[row.id].active_seats() == ["red"] and not svc.table.games[row.id].state.get("asked")
    assert any("autoplay: the only legal action" in t and "answer" in t for t in await texts(svc, row.id))


async def test_a_seat_taken_again_must_check_in_again(svc):
    """Issue 28: a check-in belongs to the holder, not the seat: a player who checked in and left does not
    leave the seat checked in for the next."""
    assert (await svc.lobby.new_game(ctx(RED), "tiny-pbp", "checkin=2")).ok
    await svc.lobby.join(ctx(RED), "red")
    await svc.lobby.join(ctx(BLUE), "blue")
    row = await svc.store.live_game(9)
    assert (await svc.lobby.checkin(ctx(BLUE), row.id)).ok
    assert (await svc.lobby.leave(ctx(BLUE))).ok
    assert (await svc.lobby.join(ctx(CAROL), "blue")).ok  # full again: a new check-in
    out = await svc.lobby.checkin(ctx(RED), row.id)
    assert out.ok and "Still to check in: Blue" in out.reply.text
    assert (await svc.store.live_game(9)).status == "open"


async def test_a_substitute_counts_in_both_records_and_takes_the_seat_off_autopilot(svc):
    from bot.storage import SeatState

    row = await started(svc, "deadline=24")
    await svc.store.set_seat_state(SeatState(row.id, "blue", missed_in_row=3, autopilot=True))
    assert (await svc.lobby.sub(ctx(RED), "blue", CAROL)).ok
    assert (await svc.store.record(CAROL)).seats_taken_over == 1 and (await svc.store.record(BLUE)).seats_lost == 1
    assert (await svc.store.seat_states(row.id))["blue"] == SeatState(row.id, "blue")
    assert [(h["user_id"], h["how"]) for h in await svc.store.seat_history(row.id) if h["seat"] == "blue"] == [
        (BLUE, "join"), (CAROL, "sub")]


class Shuffle(pbp_helpers.Tiny):
    """tiny-pbp where red's `shuffle` draws blue's card again: blue's hidden information changes and blue is
    told privately (an event's private line)."""
    name = "tiny-shuffle"

    def parse(self, st, seat, text):
        if text.strip() == "shuffle":
            from engine.core import Action
            a = Action("shuffle")
            self.check(st, seat, a)
            return a
        return super().parse(st, seat, text)

    def apply(self, st, seat, a):
        if a.verb == "shuffle":
            from engine.core import Event
            st["hidden"]["card"] = st["hidden"]["card"] % 9 + 1
            return [Event(public=f"{seat} shuffles", private={"blue": f"your new card is {st['hidden']['card']}"})]
        return super().apply(st, seat, a)


from engine.rulesets import register  # noqa: E402
from tests.clock import Clock

register(Shuffle())


async def test_a_holder_who_left_gets_none_of_the_seats_changed_secrets_and_plays_it_only_after_a_takeover(svc):
    """Issue 28, hidden information only to those entitled: blue leaves the running game; red's shuffle
    changes blue's secret and tells blue privately, and neither reaches the leaver (before the leave,
    both did); their `/secret`, order and `/me games` know the seat no more; they take it back with
    `/game takeover` like anyone else (takeover=open: at once) and get the seat's secret again."""
    assert (await svc.lobby.new_game(ctx(RED), "tiny-shuffle", "deadline=24")).ok
    assert (await svc.lobby.join(ctx(RED), "red")).ok
    assert (await svc.lobby.join(ctx(BLUE), "blue")).ok
    assert (await svc.lobby.start(ctx(RED))).ok
    row = await svc.store.live_game(9)
    out = await svc.orders.order(ctx(RED), "shuffle")
    # the event's private line (issue 39: not again as "your hidden information has changed")
    told = [p.text for p in out.dms.get(BLUE, [])]
    assert out.ok and len(told) == 1 and told[0].startswith("**Blue** (private): your new card is"), told
    await svc.table.delivery.hold(BLUE, row.id, "blue", "Your card is 5 (held: DMs closed).")
    assert (await svc.lobby.leave(ctx(BLUE))).ok
    assert await svc.table.delivery.waiting(BLUE) == ([], [])  # what was held for the seat is dropped
    out = await svc.orders.order(ctx(RED), "shuffle")
    assert out.ok and out.dms == {}
    out = await svc.orders.order(ctx(RED), "done")  # a new phase: blue (the bot's now) is to act; nobody pinged for it
    assert out.ok and BLUE not in (out.notice.mentions if out.notice else []) and not out.dms
    # nothing of the seat's own view: its map, its odds, its order choices
    refused = await svc.views.map(ctx(BLUE), None, True, False, None)
    assert not refused.ok and "no seat" in refused.reply.text, refused.reply.text
    assert not (await svc.orders.odds(ctx(BLUE), "roll")).ok
    assert await svc.orders.autocomplete_order(ctx(BLUE), "") == []
    assert not (await svc.views.secret(ctx(BLUE))).ok
    refused = await svc.orders.order(ctx(BLUE), "done")
    assert not refused.ok and "/game takeover seat:blue" in refused.reply.text
    assert "no seat" in (await svc.seats.my_games(ctx(BLUE))).reply.text
    assert f"Blue: nobody (<@{BLUE}> left; on autopilot)" in (await svc.views.status(ctx(RED))).reply.text
    hist = await svc.store.seat_history(row.id)
    assert [(h["seat"], h["user_id"], h["to_at"] is None) for h in hist if h["seat"] == "blue"] == [("blue", BLUE, False)]
    back = await svc.seats.takeover(ctx(BLUE), "blue")
    assert back.ok and "had left it" in back.reply.text
    assert any("Your card is" in p.text for p in back.dms[BLUE])
    assert (await svc.views.secret(ctx(BLUE))).ok
    rec = await svc.store.record(BLUE)
    assert (rec.seats_taken_over, rec.seats_lost) == (0, 0)
    assert await svc.orders.autocomplete_order(ctx(BLUE), "")  # theirs to play again
    assert (await svc.orders.order(ctx(BLUE), "done")).ok
    out = await svc.orders.order(ctx(RED), "shuffle")
    assert out.ok and len(out.dms.get(BLUE, [])) == 1  # and its secrets theirs again (told once: issue 39)


async def test_the_creator_may_hand_a_left_seat_back_by_sub_and_nobody_takes_an_opponents_seat_mid_game(svc):
    """A seat whose holder left: the creator's `/game sub` may hand it back to them (a sub, no seat taken
    over or lost); a takeover by a player who holds another seat is refused in every game (issue 39: once
    play has begun, a side goes only to a player holding no other seat: bot/seats.py ``other_seat``)."""
    row = await started(svc, "deadline=24")
    assert (await svc.lobby.leave(ctx(BLUE))).ok
    refused = await svc.seats.takeover(ctx(RED), "blue")
    assert not refused.ok and refused.ephemeral and "already" in refused.reply.text
    assert (await svc.store.seats(row.id))["blue"] == BLUE and (await svc.store.seat_states(row.id))["blue"].autopilot
    out = await svc.lobby.sub(ctx(RED), "blue", BLUE)
    assert out.ok, out.reply.text
    assert not (await svc.store.seat_states(row.id))["blue"].autopilot
    assert (await svc.views.secret(ctx(BLUE))).ok  # theirs again, secrets included
    rec = await svc.store.record(BLUE)
    assert (rec.seats_taken_over, rec.seats_lost) == (0, 0)
    assert not (await svc.lobby.sub(ctx(RED), "blue", BLUE)).ok  # held now: "already holds"


async def test_a_game_without_deadlines_counts_no_phase_on_time(svc):
    """A record measures reliability against deadlines: a phase finished in a game without deadlines counts
    neither on time nor missed (the same orders under `deadline=24` count)."""
    await started(svc, "", channel=9)
    assert (await svc.orders.done(ctx(RED))).ok and (await svc.orders.done(ctx(BLUE))).ok
    assert (await svc.store.record(RED)).phases == 0 and (await svc.store.record(BLUE)).phases == 0
    await started(svc, "deadline=24", channel=10)
    assert (await svc.orders.done(ctx(RED, 10))).ok
    assert (await svc.store.record(RED)).phases_on_time == 1


# ---------------------------------------------------------------- issue 39: one seat each, deadlines kept
@pytest.fixture
async def any_svc(store_url):
    """The service on SQLite and on PostgreSQL (the requests and the phase's extension are kept in the store)."""
    from bot.storage import open_store

    store = await open_store(store_url)
    s = GameService(store, renderer=None, seed_source=lambda: "seat-seed", clock=Clock(T0))
    yield s
    await store.close()


async def _left_by_both(svc, options="deadline=24 takeover=vote"):
    """DAVE's game (he holds no seat): RED and BLUE took the seats and left them once it began."""
    assert (await svc.lobby.new_game(ctx(DAVE), "tiny-pbp", options)).ok
    assert (await svc.lobby.join(ctx(RED), "red")).ok and (await svc.lobby.join(ctx(BLUE), "blue")).ok
    assert (await svc.lobby.start(ctx(DAVE))).ok
    assert (await svc.lobby.leave(ctx(RED))).ok and (await svc.lobby.leave(ctx(BLUE))).ok
    return await svc.store.live_game(9)


async def test_issue39_a_vote_never_seats_one_player_on_both_sides(any_svc):
    """Issue 39: with `takeover=vote` both holders leave; one user asks for both seats and the creator
    approves. The second request is refused privately (one waiting request each), and the seat changes
    hands only if, at the approval itself, the taker holds no other seat: here Carol was handed Blue
    meanwhile, so the approval of Red is refused privately, Red stays unheld by her, its secret is not
    sent to her, and her request is withdrawn (the seat is free to be asked for again)."""
    svc = any_svc
    row = await _left_by_both(svc)
    asked = await svc.seats.takeover(ctx(CAROL), "red")
    assert asked.ok and "asks to take over" in asked.reply.text
    out = await svc.seats.takeover(ctx(CAROL), "blue")
    assert not out.ok and out.ephemeral and "Red" in out.reply.text and "already" in out.reply.text
    assert (await svc.store.seat_states(row.id))["blue"].takeover is None
    assert (await svc.lobby.sub(ctx(DAVE), "blue", CAROL)).ok  # meanwhile the creator hands her Blue
    out = await svc.seats.takeover_vote(ctx(DAVE), row.id, "red", True)  # and approves her request for Red
    assert not out.ok and out.ephemeral and f"<@{CAROL}> holds **Blue**" in out.reply.text, out.reply.text
    assert not out.dms and len(out.reply.text) < 200
    seats = await svc.store.seats(row.id)
    assert seats == {"red": RED, "blue": CAROL}
    st = (await svc.store.seat_states(row.id))["red"]
    assert st.autopilot and st.takeover is None
    assert [h["user_id"] for h in await svc.store.seat_history(row.id) if h["seat"] == "red"] == [RED]
    again = await svc.seats.takeover(ctx(EVE), "red")  # another player may ask for it now
    assert again.ok and "asks to take over" in again.reply.text


async def test_issue39_sub_hands_no_second_seat_once_play_has_begun(any_svc):
    """Issue 39: `/game sub` gives a player a second seat only before the start (hot-seat play, as
    CONVENTIONS allow); once the game runs it is refused privately, naming the seat held, and nothing
    changes. The moderator's `gm` counts as a seat there (it sees every side's secrets), but a player
    with a side may still take `gm`, as before."""
    svc = any_svc
    assert (await svc.lobby.new_game(ctx(RED), "tiny-pbp", "deadline=24")).ok
    assert (await svc.lobby.join(ctx(RED), "red")).ok and (await svc.lobby.join(ctx(BLUE), "blue")).ok
    assert (await svc.lobby.sub(ctx(RED), "blue", RED)).ok  # before the start: hot-seat
    assert (await svc.lobby.sub(ctx(RED), "blue", BLUE)).ok
    assert (await svc.lobby.start(ctx(RED))).ok
    row = await svc.store.live_game(9)
    out = await svc.lobby.sub(ctx(RED), "blue", RED)
    assert not out.ok and out.ephemeral and f"<@{RED}> holds **Red**" in out.reply.text
    assert (await svc.store.seats(row.id)) == {"red": RED, "blue": BLUE}
    assert (await svc.lobby.join(ctx(RED), "gm")).ok  # the creator, holding Red, moderates too (as before)
    assert (await svc.lobby.leave(ctx(RED))).ok  # leaves Red, keeps the moderator's seat
    out = await svc.lobby.sub(ctx(BLUE, mod=True), "red", RED)
    assert not out.ok and "holds **Moderator**" in out.reply.text, out.reply.text
    assert not (await svc.seats.takeover(ctx(RED), "red")).ok
    assert [h["user_id"] for h in await svc.store.seat_history(row.id) if h["seat"] == "red"] == [RED]


async def _deadline(svc, row):
    return (await svc.store.clock(row.id)).deadline_at


async def test_issue39_taking_back_ones_own_seat_moves_no_deadline(any_svc):
    """Issue 39: leaving and taking back one's own seat (`takeover=open`) leaves the phase's deadline
    where it was, in the opponent's phase and in one's own: no stalling the table that way."""
    svc = any_svc
    row = await started(svc, "deadline=24")  # Red's phase: the deadline is T0 + 24 h
    assert await _deadline(svc, row) == pytest.approx(T0 + 24 * H)
    svc.table.clock.t = T0 + 1 * H
    assert (await svc.lobby.leave(ctx(BLUE))).ok  # in the opponent's phase
    svc.table.clock.t = T0 + 2 * H
    back = await svc.seats.takeover(ctx(BLUE), "blue")
    assert back.ok and "had left it" in back.reply.text and "(unchanged)" in back.reply.text
    assert await _deadline(svc, row) == pytest.approx(T0 + 24 * H)
    svc.table.clock.t = T0 + 4 * H
    assert (await svc.lobby.leave(ctx(RED))).ok  # in one's own phase (taken back before the autopilot plays it)
    svc.table.clock.t = T0 + 5 * H
    assert (await svc.seats.takeover(ctx(RED), "red")).ok
    assert await _deadline(svc, row) == pytest.approx(T0 + 24 * H)
    assert svc.table.games[row.id].active_seats() == ["red"]


async def test_issue39_a_new_holder_gets_a_full_phase_only_for_a_seat_to_act_and_once_a_phase(any_svc):
    """Issue 39: a new holder of a seat that does not act in this phase moves no deadline; a new holder of
    the seat to act gets a full phase from the takeover, once a phase (a second takeover of it in the
    same phase moves nothing); the next phase may give it again."""
    svc = any_svc
    row = await started(svc, "deadline=24")
    svc.table.clock.t = T0 + 1 * H
    assert (await svc.lobby.leave(ctx(BLUE))).ok
    svc.table.clock.t = T0 + 2 * H
    assert (await svc.seats.takeover(ctx(CAROL), "blue")).ok  # Blue is not to act in Red's phase
    assert await _deadline(svc, row) == pytest.approx(T0 + 24 * H)
    svc.table.clock.t = T0 + 3 * H
    assert (await svc.lobby.leave(ctx(RED))).ok
    svc.table.clock.t = T0 + 4 * H
    out = await svc.seats.takeover(ctx(DAVE), "red")  # Red is to act: a full phase for its new holder
    assert out.ok and "(unchanged)" not in out.reply.text and f"<t:{int(T0 + 28 * H)}:F>" in out.reply.text
    assert await _deadline(svc, row) == pytest.approx(T0 + 28 * H)
    svc.table.clock.t = T0 + 5 * H
    assert (await svc.lobby.leave(ctx(DAVE))).ok
    svc.table.clock.t = T0 + 6 * H
    assert (await svc.seats.takeover(ctx(EVE), "red")).ok  # once a phase
    assert await _deadline(svc, row) == pytest.approx(T0 + 28 * H)
    svc.table.clock.t = T0 + 7 * H
    assert (await svc.orders.done(ctx(EVE))).ok  # Blue's phase: T0 + 7 h + 24 h
    assert await _deadline(svc, row) == pytest.approx(T0 + 31 * H)
    svc.table.clock.t = T0 + 8 * H
    assert (await svc.lobby.leave(ctx(CAROL))).ok
    svc.table.clock.t = T0 + 9 * H
    assert (await svc.seats.takeover(ctx(66), "blue")).ok  # a new phase: a new holder's full phase again
    assert await _deadline(svc, row) == pytest.approx(T0 + 33 * H)


async def test_issue39_a_takeover_never_shortens_the_deadline(any_svc):
    """Issue 39: a new holder's full phase does not take back the creator's extension."""
    svc = any_svc
    row = await started(svc, "deadline=24")
    assert (await svc.clocks.extend(ctx(RED), 48)).ok
    assert await _deadline(svc, row) == pytest.approx(T0 + 72 * H)
    svc.table.clock.t = T0 + 1 * H
    assert (await svc.lobby.leave(ctx(RED))).ok
    svc.table.clock.t = T0 + 2 * H
    assert (await svc.seats.takeover(ctx(CAROL), "red")).ok
    assert await _deadline(svc, row) == pytest.approx(T0 + 72 * H)


async def test_issue39_one_players_takeover_requests_are_limited(any_svc):
    """Issue 39: one waiting request per player per game (asking again re-pings nobody), an hour between
    two requests, and three in a game; each refusal is private, short, and changes nothing."""
    svc = any_svc
    row = await _left_by_both(svc)
    assert (await svc.seats.takeover(ctx(CAROL), "red")).ok
    again = await svc.seats.takeover(ctx(CAROL), "red")
    assert not again.ok and again.ephemeral and "wait for that vote" in again.reply.text
    for n in (2, 3):
        assert (await svc.seats.takeover_vote(ctx(DAVE), row.id, "red", False)).ok  # the creator refuses
        soon = await svc.seats.takeover(ctx(CAROL), "red")
        assert not soon.ok and soon.ephemeral and "ask again" in soon.reply.text
        assert f"<t:{int(svc.table.clock.t + H) + 1}:R>" in soon.reply.text
        svc.table.clock.t += H
        assert (await svc.seats.takeover(ctx(CAROL), "red")).ok, n
    assert (await svc.seats.takeover_vote(ctx(DAVE), row.id, "red", False)).ok
    svc.table.clock.t += 10 * H
    out = await svc.seats.takeover(ctx(CAROL), "blue")
    assert not out.ok and out.ephemeral and "3 times" in out.reply.text and len(out.reply.text) < 200
    states = await svc.store.seat_states(row.id)
    assert states["red"].takeover is None and states["blue"].takeover is None
    assert await svc.store.seats(row.id) == {"red": RED, "blue": BLUE}
