"""Sauron 16.641 (seed 004), issue 27: "If the Ringwraith or Gorgol recover it, he returns it to Sauron as
quickly as possible by moving both counters into the same hex." Before, the Ring went back only if its
carrier happened to walk into Sauron's hex."""
import pytest

from engine.core import Game, OrderError
from engine.hexgrid import distance
from engine.rulesets import get_ruleset
from engine.spi import c04_movement
from engine.rulesets.sauron import c16_6_ring
from engine.rulesets.sauron import c22_mortal_combat
from engine.spi import c03_sequence

RS = get_ruleset("sauron")


def carrier_game(rw: str = "0812") -> Game:
    g = Game.new(RS, options={}, seed="ring-home")
    g.play("sauron", "done")
    g.play("westernesse", "done")
    st = g.state
    for uid, hx in {"SAU": "1523", "RW": rw}.items():
        st["units"][uid].update(hex=hx, status="map")
    c16_6_ring._set_ring(RS, st, "RW", False)  # the Ringwraith has recovered it (7.251), carried
    st["step"], st["done"], st["ph"] = "C", [], c03_sequence._fresh_phase(RS)
    return g


def refused(g: Game, seat: str, text: str, section: str) -> None:
    with pytest.raises(OrderError) as e:
        g.play(seat, text)
    assert section in str(e.value), str(e.value)


def test_16_641_the_carrier_moves_by_the_shortest_way_to_sauron():
    g = carrier_game()
    st = g.state
    now, best = c22_mortal_combat.approach_reach(RS, st, "sauron", "RW", "SAU")
    assert (now, best) == (14, 8)  # off the road: six hexes nearer at most
    refused(g, "sauron", "done", "16.641")  # he may not stay where he is
    moves = [RS.format(a) for a in g.legal_actions("sauron") if a.verb == "move" and "RW" in a.args]
    assert moves and all(distance(m.split()[-1], "1523") == best for m in moves)
    away = next(str(h) for h in c04_movement._reach(RS, st, "sauron", ["RW"]) if distance(str(h), "1523") > best and str(h) != "0812")
    refused(g, "sauron", f"move RW {away}", "16.641")
    assert RS.format(RS.deadline_action(st, "sauron")) in moves  # at a deadline the bot takes him home
    g.play("sauron", moves[0])
    g.play("sauron", "done")  # he went as far as he could this phase
    assert g.state["sau"]["ring"]["holder"] == "RW"


def test_16_641_entering_saurons_hex_gives_it_back_worn():
    g = carrier_game(rw="1519")
    _, best = c22_mortal_combat.approach_reach(RS, g.state, "sauron", "RW", "SAU")
    assert best == 0
    refused(g, "sauron", "move RW 1520", "16.641")  # he could reach Sauron: nothing short of it
    g.play("sauron", "move RW 1523")
    assert g.state["sau"]["ring"] == {"holder": "SAU", "worn": True} or (
        g.state["sau"]["ring"]["holder"] == "SAU" and g.state["sau"]["ring"]["worn"])
    g.play("sauron", "done")


def test_16_641_other_units_move_freely_and_the_westernesse_side_is_not_bound():
    g = carrier_game()
    other = next(a for a in g.legal_actions("sauron") if a.verb == "move" and "RW" not in a.args)
    g.play("sauron", RS.format(other))  # nothing binds the rest of his army
    refused(g, "sauron", "done", "16.641")
    st = g.state
    c16_6_ring._set_ring(RS, st, "ISI", False)  # a Westernesse carrier is not bound by 16.641
    st["units"]["ISI"].update(hex="1505", status="map")
    g.play("sauron", "done")
