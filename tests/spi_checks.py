"""Assertions shared by the Standard Rules tests."""
import pytest

from engine.core import IllegalOrder, OrderError, state_digest
from engine.spi import c08_4_formations


def refused(g, seat, order, section, *, contains=None):
    """``order`` is refused with the case ``section`` and changes nothing
    (dice included). Returns the error for further checks."""
    before = state_digest(g.state)
    with pytest.raises(IllegalOrder) as e:
        g.play(seat, order)
    assert e.value.section == section, (order, e.value.message, e.value.section)
    if contains:
        assert contains in e.value.message, e.value.message
    assert state_digest(g.state) == before
    return e.value


def round_trips(g, seat: str, text: str) -> str:
    """The notation round-trips (python-chess style): an offered order parses to the canonical text
    the log keeps (a move with the whole path its check found, so that a replay validates the path
    instead of searching), which parses to itself on the same position and echoes in the channel as
    offered. Returns the canonical text."""
    rs = g.ruleset
    canon = rs.format(g.parse(seat, text))
    assert rs.format(g.parse(seat, canon)) == canon, (text, canon)
    assert rs.brief_order_text(canon) == text, (text, canon)
    return canon


def drawn(g, before: int) -> int:
    """Dice drawn since the counter was ``before``."""
    return g.state["dice"]["counter"] - before


def check_board(g) -> None:
    """Invariants of any Standard Rules game (fuzzers): units on the map are
    on map hexes, passable ones; no hex holds both sides' combat units or
    leaders; one combat unit a hex (two in a formation); Rally Points lost and
    magic points in range; no negative demoralization; formations of two."""
    from engine.hexgrid import Hex
    rs, st = g.ruleset, g.state
    tec = rs.charts_for(st)["tec"]
    occ: dict[str, list[str]] = {}
    for uid, r in st["units"].items():
        if r["status"] == "map":
            h = Hex.parse(r["hex"])
            assert h in rs.hexmap, f"{uid} off the map"
            assert tec.get(rs.hexmap.hexes[h].terrain, {}).get("passable", True), f"{uid} on impassable terrain"
            occ.setdefault(r["hex"], []).append(uid)
        elif r["status"] != "pool":
            assert r["hex"] is None, f"{uid} ({r['status']}) has a hex"
        if rs.units[uid].is_leader and r["status"] not in ("out",):
            assert 0 <= r.get("rally_lost", 0) <= rs.hooks.printed_rally(rs, st, uid) + 3
            assert r.get("magic", 0) >= 0
    for hx, ids in occ.items():
        combat = [x for x in ids if rs.units[x].is_combat]
        sides = {rs.units[x].side for x in ids if rs.units[x].is_combat or rs.units[x].is_leader}
        assert len(sides) <= 1, f"both sides in {hx}: {ids}"
        forms = {c08_4_formations.formation_of(rs, st, x) for x in combat}
        limit = 2 if len(forms) == 1 and None not in forms else 1
        assert len(combat) <= limit, f"over-stacked {hx}: {combat}"
    assert all(v >= 0 for v in st["dem"].values())
    assert all(len(f["units"]) == 2 for f in st["formations"].values())


def play_to_result(g, rnd, *, pick, check, junk: list[str], junk_rate: float, max_steps: int,
                   log: list | None = None) -> list:
    """Random play to the game's result (the fuzz tests): now and then a line of ``junk`` from a random
    seat, which must be refused and change nothing (or, if some junk happens to be an order, is logged);
    else ``pick(g, seat, rnd, count)`` from an active seat, which must round-trip through the notation
    and is played; ``check(g)`` after every order. ``count``: the orders given in the phase so far.
    Returns the log (seat, text), to replay."""
    log = [] if log is None else log
    steps, count = 0, 0
    phase = (g.state["turn"], g.state["step"])
    while not g.result():
        assert g.active_seats(), "dead end: nobody can act and the game is not over"
        if junk_rate and rnd.random() < junk_rate:
            text, who = rnd.choice(junk), rnd.choice(list(g.ruleset.seats))
            before = state_digest(g.state)
            try:
                g.play(who, text)
            except OrderError:
                assert state_digest(g.state) == before
            else:
                log.append((who, text))
            if g.result():
                break
        seat = rnd.choice(g.active_seats())
        text = pick(g, seat, rnd, count)
        round_trips(g, seat, text)
        g.play(seat, text)
        log.append((seat, text))
        now = (g.state["turn"], g.state["step"])
        count = 0 if now != phase else count + 1
        phase = now
        steps += 1
        assert steps < max_steps
        check(g)
    return log
