"""Sauron's expanded game (seed 004, Expanded Game), issue 27: "The Sauron player can place 3 catapults and
as many men as stacking restrictions allow in the mountains surrounding the path just inside the gates";
and a default set-up that does not start in contact (reconstructed: `[expanded] setup_gap`), so that a
newcomer's first `/done` is not refused for an attack owed (7.31)."""
import pytest

from engine.core import Game, OrderError
from engine.hexgrid import distance
from engine.rulesets import get_ruleset
from engine.spi import hooks
from engine.spi import c03_sequence

RS = get_ruleset("sauron-expanded")
BASE = get_ruleset("sauron")
CATAPULTS = ("CT1", "CT2", "CT3")


def fresh(seed: str = "local-3") -> Game:
    return Game.new(RS, {}, seed=seed)


def test_expanded_three_catapults_start_in_the_fortifications_just_inside_the_gate():
    st = fresh().state
    forts = RS.setup_zones["forts"]
    for uid in CATAPULTS:
        u = RS.units[uid]
        assert u.type == "catapult" and u.side == "sauron" and u.is_siege
        assert st["units"][uid]["status"] == "map" and st["units"][uid]["hex"] in forts
    # "just inside the gates": the three fortification hexes nearest the inner end of the path (1120)
    nearest = sorted(forts, key=lambda h: (distance(h, "1120"), h))[:3]
    assert sorted(st["units"][u]["hex"] for u in CATAPULTS) == sorted(nearest)


def test_expanded_catapults_are_not_in_the_first_part():
    g = Game.new(BASE, {}, seed="x")
    assert all(g.state["units"][u]["status"] == "out" for u in CATAPULTS)
    with pytest.raises(OrderError):
        g.play("sauron", "deploy CT1 1414")


def test_expanded_catapults_are_re_placed_only_in_the_fortifications():
    g = fresh()
    st = g.state
    free = sorted(h for h in RS.setup_zones["forts"] if h not in {st["units"][u]["hex"] for u in CATAPULTS})
    with pytest.raises(OrderError) as e:
        g.play("sauron", "deploy CT1 1608")  # Barad-dur: behind the Gate, but not in the mountains
    assert "fortifications" in str(e.value)
    g.play("sauron", f"deploy CT1 {free[0]}")
    assert g.state["units"]["CT1"]["hex"] == free[0]
    with pytest.raises(OrderError):  # one piece of siege equipment a hex (5.0)
        g.play("sauron", f"deploy CT2 {free[0]}")


def test_expanded_a_catapult_fires_at_troops_with_missile_e_at_range_2():
    g = fresh()
    g.play("sauron", "done")
    g.play("westernesse", "done")
    st = g.state
    hx = st["units"]["CT1"]["hex"]
    tec = RS.raw(st)["tec"]
    target = next(str(h) for h, i in sorted(RS.hexmap.hexes.items())
                  if distance(str(h), hx) == 2 and tec.get(i.terrain, {}).get("passable", True)
                  and not any(r["hex"] == str(h) for r in st["units"].values()))
    st["units"]["MI1"]["hex"] = target
    st["step"], st["done"], st["ph"] = "D", [], c03_sequence._fresh_phase(RS)
    r = RS.hooks.ratings(RS, st, "CT1")
    assert r.missile == "e" and RS.hooks.missile_range(RS, st, "CT1") == 2
    _, ev = g.play("sauron", f"fire CT1 at {target}")
    assert "CT1" in ev[0].public


def test_expanded_default_set_up_is_not_in_contact_and_the_first_turn_can_be_passed():
    g = fresh()
    st = g.state
    assert RS.raw(st)["expanded"]["setup_gap"] == 2 and RS.raw(st)["expanded"]["reconstructed"] is True
    sau = [r["hex"] for u, r in st["units"].items() if r["status"] == "map" and hooks.side_of(RS, st, u) == "sauron"]
    west = [r["hex"] for u, r in st["units"].items() if r["status"] == "map" and hooks.side_of(RS, st, u) == "westernesse"]
    assert west and min(distance(a, b) for a in sau for b in west) >= 2
    # the audit's case: a newcomer ends every phase of the first Game-Turn with `/done`
    for seat in ("sauron", "westernesse"):
        g.play(seat, "done")
    for _ in range(8):
        g.play(g.active_seats()[0], "done")
    assert g.state["turn"] == 2


def test_expanded_ruling_a_lone_catapult_is_overrun_by_an_enemy_combat_unit():
    """Ruling (the seed gives the catapults no rules of their own): siege equipment alone does not hold a
    hex; an enemy combat unit ending its move (or advance, retreat) there eliminates it."""
    g = fresh()
    g.play("sauron", "done")
    g.play("westernesse", "done")
    st = g.state
    hx = st["units"]["CT1"]["hex"]
    for uid, r in st["units"].items():  # clear the catapult's hex and its neighbours of Sauron's others
        if uid != "CT1" and r["status"] == "map" and hooks.side_of(RS, st, uid) == "sauron" and distance(r["hex"], hx) <= 1:
            r.update(hex=None, status="eliminated")
    tec = RS.raw(st)["tec"]
    start = next(str(h) for h in sorted(RS.hexmap.hexes) if distance(str(h), hx) == 1
                 and tec.get(RS.hexmap.hexes[h].terrain, {}).get("passable", True)
                 and not any(r["hex"] == str(h) for r in st["units"].values())
                 and RS.hexmap.hexside(h, __import__("engine.hexgrid", fromlist=["Hex"]).Hex.parse(hx)) != "wall")
    st["units"]["DW1"].update(hex=start, status="map")
    st["step"], st["done"], st["ph"] = "F", [], c03_sequence._fresh_phase(RS)
    _, ev = g.play("westernesse", f"move DW1 {hx}")
    assert any("overruns CT1" in (e.public or "") for e in ev)
    assert g.state["units"]["CT1"]["status"] == "eliminated" and g.state["units"]["DW1"]["hex"] == hx
