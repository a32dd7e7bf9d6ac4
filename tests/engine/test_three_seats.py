"""Three seats in turn (issue 14): a ruleset that declares a fixed player-turn order (tests/pbp_helpers.py:
Trio). Whose turn it is, the pings, the reminders and the deadline policies work per seat; a seat that
has acted is not pinged again; tabletop play follows the declared order; the moderator's seat is a
fourth that never acts."""
import pytest

from bot.service import Ctx, GameService
from bot.storage import Store
from engine.core import Game
from engine.rulesets import get_ruleset
from tests import pbp_helpers  # noqa: F401
from tests.clock import Clock

N, E, S, MOD = 11, 22, 33, 44
H = 3600.0
T0 = 1_720_000_000.0
_ids = iter(range(1, 10**9))
USERS = {"north": N, "east": E, "south": S}


def ctx(user, mod=False):
    return Ctx(channel_id=9, user_id=user, guild_id=1, interaction_id=f"t{next(_ids)}", is_moderator=mod)


@pytest.fixture
async def svc(tmp_path):
    store = await Store.open(str(tmp_path / "t.db"))
    clock = Clock(T0)
    yield GameService(store, renderer=None, seed_source=lambda: "trio-seed", clock=clock), clock
    await store.close()


async def started(svc, options="deadline=24 remind=12"):
    assert (await svc.lobby.new_game(ctx(N), "trio-pbp", options)).ok
    for seat, uid in USERS.items():
        assert (await svc.lobby.join(ctx(uid), seat)).ok
    out = await svc.lobby.start(ctx(N))
    assert out.ok
    return out


async def outbox(svc):
    row = await svc.store.latest_game(9)
    return [o["payload"] for o in await svc.store.outbox(row.id)]


async def test_council_then_each_seat_in_the_declared_order_pinged_alone(svc):
    svc, clock = svc
    out = await started(svc)
    assert set(out.notice.mentions) == {N, E, S}  # the council: all three act at once
    out = await svc.orders.done(ctx(E))
    assert out.ok and out.notice is None  # the phase goes on: no new notice, nobody pinged again
    await svc.orders.done(ctx(S))
    out = await svc.orders.done(ctx(N))
    assert "south's turn" in out.notice.text and out.notice.mentions == [S]
    assert not (await svc.orders.done(ctx(N))).ok  # not north's turn: private, nothing changes
    out = await svc.orders.done(ctx(S))
    assert out.notice.mentions == [N]
    out = await svc.orders.done(ctx(N))
    assert out.notice.mentions == [E]
    out = await svc.orders.done(ctx(E))
    assert "Round 2" in out.notice.text and set(out.notice.mentions) == {N, E, S}


async def test_reminders_skip_a_seat_that_has_acted(svc):
    svc, clock = svc
    await started(svc)
    await svc.orders.done(ctx(N))
    clock.t = T0 + 12 * H
    assert await svc.clocks.fire_due() >= 1
    pinged = [u for p in await outbox(svc) for u in p["mentions"]]
    assert sorted(pinged) == sorted([E, S])  # each seat still to act, once; north has acted


async def test_pass_policy_passes_each_seat_still_to_act_in_turn(svc):
    svc, clock = svc
    await started(svc, "deadline=1 policy=pass remind=off")
    await svc.orders.done(ctx(E))
    clock.t = T0 + 1 * H
    assert await svc.clocks.fire_due() == 1
    row = await svc.store.live_game(9)
    acts = await svc.store.actions(row.id)
    assert [(a.seat, a.text) for a in acts] == [("east", "done"), ("south", "done"), ("north", "done")]
    game = await svc.table.load(row)
    assert game.active_seats() == ["south"]
    # south's own turn has its own deadline, an hour from now; only south is passed then
    clock.t = T0 + 2 * H + 1
    assert await svc.clocks.fire_due() == 1
    assert [a.seat for a in await svc.store.actions(row.id)][-1] == "south"
    assert (await svc.table.load(row)).active_seats() == ["north"]


def test_tabletop_follows_the_declared_turn_order_and_the_gm_never_acts():
    rs = get_ruleset("trio-pbp@tabletop")
    assert rs.seats == ("north", "east", "south", "gm") and rs.turn_order == ("south", "north", "east")
    g = Game.new(rs, {"mode": "tabletop"}, "s")
    order = []
    for _ in range(4):
        [seat] = g.active_seats()
        order.append(seat)
        g.play(seat, "done")
    assert order == ["south", "north", "east", "south"] and g.view(None)["turn"] == 2
    assert "gm" not in g.active_seats()


async def test_tabletop_deadline_passes_the_seat_to_act_in_the_declared_order(svc):
    svc, clock = svc
    assert (await svc.lobby.new_game(ctx(N), "trio-pbp", "mode=tabletop deadline=1 policy=pass remind=off")).ok
    for seat, uid in USERS.items():
        await svc.lobby.join(ctx(uid), seat)
    out = await svc.lobby.start(ctx(N))
    assert out.notice.mentions == [S]  # south first, by the declared turn order
    clock.t = T0 + 1 * H
    assert await svc.clocks.fire_due() == 1
    row = await svc.store.live_game(9)
    assert [(a.seat, a.text) for a in await svc.store.actions(row.id)] == [("south", "done")]
    assert (await svc.table.load(row)).active_seats() == ["north"]


async def test_private_rooms_for_every_pair_or_a_subset(svc):
    svc, clock = svc
    assert (await svc.lobby.new_game(ctx(N), "trio-pbp", "mode=assist")).ok
    for seat, uid in USERS.items():
        await svc.lobby.join(ctx(uid), seat)
    await svc.lobby.join(ctx(MOD, mod=True), "gm")
    opened = []

    async def open_room(name, users):
        opened.append((name, users))
        return 1000 + len(opened)

    assert not (await svc.lobby.table_rooms(ctx(E), open_room)).ok  # not the creator
    out = await svc.lobby.table_rooms(ctx(N), open_room)
    assert out.ok and "(3)" in out.reply.text
    assert [sorted(u) for _, u in opened] == [sorted([N, E, MOD]), sorted([N, S, MOD]), sorted([E, S, MOD])]
    assert set(out.elsewhere) == {1001, 1002, 1003}
    out = await svc.lobby.table_rooms(ctx(N), open_room, "south+north+east")
    assert out.ok and opened[-1] == ("North & East & South (private)", sorted([N, E, S, MOD]))
    assert not (await svc.lobby.table_rooms(ctx(N), open_room, "north+east")).ok  # that pair has its room
    assert not (await svc.lobby.table_rooms(ctx(N), open_room, "north+nobody")).ok
    assert len(opened) == 4
