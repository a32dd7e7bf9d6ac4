"""Deadlines in the service under a controllable clock: the clock, the timers
in SQLite, reminders only to the seats that still must act, the nag / pass /
pause policies, extend / pause / resume permissions, quiet hours and absence,
and firing that is idempotent and survives a restart."""
import json

import pytest

from bot import deadlines as dl
from bot.service import Ctx, GameService
from bot.storage import Store
from tests import pbp_helpers  # noqa: F401
from tests.clock import Clock

RED, BLUE, MOD, CAROL = 11, 22, 33, 44
H = 3600.0
T0 = 1_720_000_000.0  # 2024-07-03 09:46 UTC
_ids = iter(range(1, 10**9))


def ctx(user, mod=False):
    return Ctx(channel_id=9, user_id=user, guild_id=1, interaction_id=f"d{next(_ids)}", is_moderator=mod)


_stores = []


@pytest.fixture(autouse=True)
async def _close_stores():
    yield
    while _stores:
        await _stores.pop().close()


async def make(tmp_path, options="deadline=24 remind=12+2", clock=None, name="d.db"):
    store = await Store.open(str(tmp_path / name))
    _stores.append(store)
    clock = clock or Clock(T0)
    svc = GameService(store, renderer=None, seed_source=lambda: "dl-seed", clock=clock)
    return svc, clock


async def started(svc, options="deadline=24 remind=12+2"):
    assert (await svc.lobby.new_game(ctx(RED), "tiny-pbp", options)).ok
    await svc.lobby.join(ctx(RED), "red")
    await svc.lobby.join(ctx(BLUE), "blue")
    out = await svc.lobby.start(ctx(RED))
    assert out.ok
    return out


async def outbox(svc):
    row = await svc.store.latest_game(9)
    return [o["payload"] for o in await svc.store.outbox(row.id)]


async def test_start_sets_the_deadline_and_reminders_go_only_to_the_seat_that_must_act(tmp_path):
    svc, clock = await make(tmp_path)
    out = await started(svc)
    # the phase's notice (posted with the map) carries the deadline
    assert f"<t:{int(T0 + 24 * H)}:F>" in out.notice.text and f"<t:{int(T0 + 24 * H)}:R>" in out.notice.text
    row = await svc.store.live_game(9)
    pending = await svc.store.timers(row.id, pending_only=True)
    assert sorted((t.kind, t.seat, t.due_at - T0) for t in pending) == [
        ("deadline", "", 24 * H), ("remind", "red", 12 * H), ("remind", "red", 22 * H)]
    clock.t = T0 + 12 * H
    assert await svc.clocks.fire_due() == 1
    assert await svc.clocks.fire_due() == 0  # fired once
    [p] = await outbox(svc)
    assert p["mentions"] == [RED] and "Red" in p["text"] and "Blue" not in p["text"]
    st = (await svc.views.status(ctx(BLUE))).reply.text
    assert f"<t:{int(T0 + 24 * H)}:F>" in st
    # Red finishes early: the phase ends, Blue's clock starts now, Red's remaining reminder is gone
    clock.t = T0 + 13 * H
    out = await svc.orders.order(ctx(RED), "done")
    assert f"<t:{int(T0 + 37 * H)}:F>" in out.notice.text and out.notice.mentions == [BLUE]
    clock.t = T0 + 22 * H
    assert await svc.clocks.fire_due() == 0  # nothing for Red any more
    clock.t = T0 + 25 * H
    assert await svc.clocks.fire_due() == 1
    assert [p["mentions"] for p in await outbox(svc)] == [[RED], [BLUE]]


async def test_nag_pings_the_laggard_and_the_creator_once(tmp_path):
    svc, clock = await make(tmp_path)
    await started(svc, "deadline=1 remind=off")
    clock.t = T0 + 2 * H
    assert await svc.clocks.fire_due() == 1
    [p] = await outbox(svc)
    assert sorted(p["mentions"]) == [RED] and "has passed" in p["text"] and "/game extend" in p["text"]
    assert await svc.clocks.fire_due() == 0
    row = await svc.store.live_game(9)
    assert (await svc.table.load(row)).state["phase"] == "red"  # nag changes nothing in the game


async def test_pass_ends_the_seats_part_once_even_when_fired_again_after_a_crash(tmp_path):
    svc, clock = await make(tmp_path)
    await started(svc, "deadline=1 policy=pass remind=off")
    clock.t = T0 + 1 * H
    assert await svc.clocks.fire_due() == 1
    row = await svc.store.live_game(9)
    acts = await svc.store.actions(row.id)
    assert [(a.seat, a.text, a.user_id) for a in acts] == [("red", "done", None)]
    assert acts[0].interaction_id.startswith("deadline-")
    game = await svc.table.load(row)
    assert game.state["phase"] == "blue"
    [p] = await outbox(svc)
    assert "passed at the deadline" in p["text"] and p["map"] == row.id and p["mentions"] == [BLUE]
    # a restart: a new service on the same file resumes the timers; Blue's deadline is one hour on
    svc2 = GameService(svc.store, renderer=None, clock=clock)
    await svc2.table.warm()
    assert await svc2.clocks.fire_due() == 0
    clock.t = T0 + 2 * H + 1
    assert await svc2.clocks.fire_due() == 1
    assert [a.seat for a in await svc2.store.actions(row.id)] == ["red", "blue"]


async def test_pass_applies_the_rulesets_deadline_action_where_done_is_refused(tmp_path):
    """`pass` ends the seat's part; where the rules refuse `done` (a retreat to
    choose, an attack the rules require) the ruleset's deadline action is
    applied first, logged as its own order, then `done`; the timer fires once."""
    svc, clock = await make(tmp_path)
    await started(svc, "deadline=1 policy=pass remind=off")
    assert (await svc.orders.order(ctx(RED), "owe")).ok
    clock.t = T0 + 1 * H
    assert await svc.clocks.fire_due() == 1
    row = await svc.store.live_game(9)
    acts = await svc.store.actions(row.id)
    assert [(a.seat, a.text) for a in acts] == [("red", "owe"), ("red", "pay"), ("red", "done")]
    assert len({a.interaction_id for a in acts[1:]}) == 2 and all(a.interaction_id.startswith("deadline-")
                                                                 for a in acts[1:])
    assert (await svc.table.load(row)).state["phase"] == "blue"
    texts = [p["text"] for p in await outbox(svc)]
    assert any("chosen by the bot at the deadline" in t and "pay" in t for t in texts)
    assert await svc.clocks.fire_due() == 0  # once
    # Blue's own deadline is intact (the fired flag did not land on the new phase's timer)
    clock.t = T0 + 2 * H + 1
    assert await svc.clocks.fire_due() == 1
    assert [a.seat for a in await svc.store.actions(row.id)][-1] == "blue"


async def test_pause_policy_and_admin_clock_controls(tmp_path):
    svc, clock = await make(tmp_path)
    await started(svc, "deadline=10 policy=pause remind=off")
    for bad in (svc.clocks.extend(ctx(CAROL), 5), svc.clocks.pause(ctx(BLUE)), svc.clocks.resume(ctx(CAROL))):
        out = await bad
        assert not out.ok and out.ephemeral and "Manage Server" in out.reply.text
    assert not (await svc.clocks.extend(ctx(RED), 0)).ok and not (await svc.clocks.extend(ctx(RED), "x")).ok
    out = await svc.clocks.extend(ctx(MOD, mod=True), 5)
    assert out.ok and not out.ephemeral and f"<t:{int(T0 + 15 * H)}:F>" in out.reply.text
    assert not (await svc.clocks.resume(ctx(RED))).ok  # not paused
    assert (await svc.clocks.pause(ctx(RED))).ok
    assert not (await svc.clocks.pause(ctx(RED))).ok
    row = await svc.store.live_game(9)
    assert await svc.store.timers(row.id, pending_only=True) == []  # nothing runs while paused
    assert "paused" in (await svc.views.status(ctx(RED))).reply.text
    clock.t = T0 + 4 * H
    out = await svc.clocks.resume(ctx(RED))
    assert f"<t:{int(T0 + 19 * H)}:F>" in out.reply.text  # the 4 paused hours are given back
    clock.t = T0 + 19 * H
    assert await svc.clocks.fire_due() == 1
    [p] = await outbox(svc)
    assert "paused" in p["text"]
    assert (await svc.store.clock(row.id)).paused_at == T0 + 19 * H
    assert not (await svc.clocks.pause(ctx(RED))).ok  # the policy paused it


async def test_quiet_hours_move_the_deadline_and_silence_pings(tmp_path):
    clock = Clock(1_705_000_000.0)  # 2024-01-11 19:06 UTC
    svc, _ = await make(tmp_path, clock=clock)
    assert not (await svc.clocks.set_quiet(ctx(RED), "22:00", "07:00", "Mars/Base")).ok
    assert not (await svc.clocks.set_quiet(ctx(RED), "24:00", "07:00", "Europe/London")).ok
    out = await svc.clocks.set_quiet(ctx(RED), "22:00", "07:00", "Europe/London")
    assert out.ok and out.ephemeral
    await started(svc, "deadline=4 remind=off")  # nominal 23:06 GMT: Red is asleep
    row = await svc.store.live_game(9)
    d = (await svc.store.clock(row.id)).deadline_at
    assert d == dl.quiet_end(clock.t + 4 * H, dl.Quiet(dl.parse_hhmm("22:00"), dl.parse_hhmm("07:00"), "Europe/London"))
    assert "07:00" in __import__("datetime").datetime.fromtimestamp(d, dl.ZoneInfo("Europe/London")).strftime("%H:%M")
    # a turn notice inside Red's quiet hours names Red but does not ping
    clock.t = 1_705_000_000.0 + 4 * H
    await svc.orders.order(ctx(RED), "done")
    out = await svc.orders.order(ctx(BLUE), "done")
    assert f"<@{RED}>" in out.notice.text and RED not in out.notice.mentions


async def test_away_makes_the_deadline_wait_and_bad_dates_are_refused(tmp_path):
    svc, clock = await make(tmp_path)
    await started(svc, "deadline=24 remind=off")
    for bad in ("tomorrow", "2020-01-01", "2999-01-01"):
        out = await svc.clocks.set_away(ctx(RED), bad)
        assert not out.ok and out.ephemeral
    out = await svc.clocks.set_away(ctx(RED), "2024-07-10")
    assert out.ok
    row = await svc.store.live_game(9)
    back = dl.parse_date("2024-07-10")
    assert (await svc.store.clock(row.id)).deadline_at == back + 24 * H
    assert (await svc.clocks.set_away(ctx(RED), "off")).ok
    assert (await svc.store.clock(row.id)).deadline_at == T0 + 24 * H


async def test_no_deadlines_by_default_and_a_finished_game_keeps_no_timer(tmp_path):
    svc, clock = await make(tmp_path)
    await started(svc, None)
    row = await svc.store.live_game(9)
    assert await svc.store.timers(row.id) == []
    assert "none set" in (await svc.views.status(ctx(RED))).reply.text
    assert not (await svc.clocks.extend(ctx(RED), 3)).ok
    svc2, _ = await make(tmp_path, name="e.db")
    await started(svc2, "deadline=5")
    assert (await svc2.orders.order(ctx(RED), "win")).ok
    row = await svc2.store.latest_game(9)
    assert row.status == "over" and await svc2.store.timers(row.id, pending_only=True) == []
    assert json.loads(row.deadline_rules)["hours"] == 5
