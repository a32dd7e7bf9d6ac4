"""Sauron's expanded game (seed 004, "Expanded Game"), the ruleset `sauron-expanded`: the map as the seed
numbers it, 18.11, the eight points of the carry-over, the set-up, 16.632 and the ruled siege rules and
victory conditions; random play to a result."""
import json

import pytest

from engine.core import Game, OrderError, state_digest
from engine.hexgrid import Hex
from engine.rulesets import get_ruleset
from tests.fuzz.test_fuzz_sauron import check_invariants, play_random
from engine.spi import c07_combat
from engine.rulesets.sauron import c07_22_leader_combat

RS = get_ruleset("sauron-expanded")


def game(**options) -> Game:
    g = Game.new(RS, options=options, seed="ex")
    g.play("sauron", "done")
    g.play("westernesse", "done")
    return g


def test_the_map_as_the_seed_numbers_it():
    m = RS.hexmap
    t = lambda s: m.hexes[Hex.parse(s)].terrain  # noqa: E731
    for s in ("0801", "0901", "1001", "0823", "0924", "1023", "1021", "2921", "1022", "2922", "2923"):
        assert t(s) in ("mountain", "fort"), s
    for s in ("0722", "0821", "0921", "1020", "1120"):
        assert t(s) == "clear" and m.hexes[Hex.parse(s)].road, s  # the gate path
    assert t("1608") == "fortress" and all(m.hexes[n].terrain == "fortress" for n in Hex.parse("1608").neighbours())
    assert t("2218") == "orodruin"
    for s in ("1609", "1610", "1611", "2214", "2217"):
        assert m.hexes[Hex.parse(s)].road, s
    assert m.edges["north"] == "top"  # rotated: the arrow (West) now points North


def test_no_move_from_the_path_onto_the_wall_but_by_the_stairways():
    m = RS.hexmap
    walls = [hs for hs, k in m.hexsides.items() if k == "wall"]
    assert walls
    for hs in walls:
        a, b = hs.hexes()
        assert {str(a), str(b)} & {"0821", "0921", "1020"}
        assert not {str(a), str(b)} & {"0920", "1019", "1122", "0923"}


def test_18_11_the_gates_stay_open():
    g = game()
    g.state["units"]["SAU"]["hex"] = "1120"
    g.state["step"], g.state["done"] = "A", []
    with pytest.raises(OrderError) as e:
        g.play("sauron", "gates close")
    assert "18.11" in str(e.value)


def test_carry_over_points_4_5_8():
    g = Game.new(RS, options={"lost": "OI1+OI2+OI3+OI4+NC1+NC2", "dead": "GOR+BAL"}, seed="carry")
    st = g.state
    notes = st["sau"]["carry"]
    back = [n.split(":")[0] for n in notes if "returns" in n]
    out = [n.split(":")[0] for n in notes if "not part" in n]
    assert len(back) + len(out) == 6
    for n in notes:
        if "die" in n:
            d = int(n.split("die ")[1][0])
            assert ("returns" in n) == (d >= 3)
    assert all(st["units"][u]["status"] == "out" for u in out)
    assert c07_22_leader_combat.combat_rating(RS, st, "GOR") == 2 and c07_22_leader_combat.morale_rating(RS, st, "BAL") == 3 - 1
    g2 = Game.new(RS, options={"dead": "SAU"}, seed="carry")
    assert c07_22_leader_combat.combat_rating(RS, g2.state, "SAU") == 2 and c07_22_leader_combat.endurance(RS, g2.state, "SAU") == 3
    assert g2.state["units"]["SAU"].get("magic", 0) == 0
    with pytest.raises(OrderError):
        Game.new(RS, options={"dead": "OI1"}, seed="x")


def test_set_up_sauron_behind_the_gates_westernesse_outside():
    g = Game.new(RS, options={}, seed="s")
    st = g.state
    z = RS.setup_zones
    for u, r in st["units"].items():
        if r["status"] == "map":
            assert r["hex"] in z["front" if RS.units[u].side == "sauron" else "alliance"], u


def test_16_632_the_ring_destroyed_at_orodruin():
    g = game(ring="ELE")
    st = g.state
    assert st["sau"]["ring"] == {"holder": "ELE", "worn": False, "magic_lost": 10}
    st["units"]["ELE"]["hex"] = "2218"
    st["step"], st["done"] = "G", []
    g.play("westernesse", "done")
    assert g.result() and g.result().winner == "westernesse" and "16.632" in g.result().summary


def test_siege_rule_fortifications_and_barad_dur_add_armor_as_an_option():
    for siege, bonus in (("on", 3), ("off", 0)):
        g = game(siege=siege)
        st = g.state
        st["units"]["OI1"]["hex"] = "1608"
        st["units"]["NC1"]["hex"] = "1607"
        p = c07_combat.attack_profile(RS, st, "NC1", "OI1", "melee")
        assert p["armor"] == 2 + bonus


def test_victory_sauron_dead_and_barad_dur_taken():
    g = game()
    st = g.state
    st["units"]["SAU"].update(status="eliminated", hex=None)
    st["units"]["OI1"].update(status="eliminated", hex=None)
    st["units"]["NC1"]["hex"] = "1608"
    assert RS.hooks.final_result(RS, st)["decisive"] and RS.hooks.final_result(RS, st)["winner"] == "westernesse"
    g2 = game(victory="points")
    g2.state["units"]["SAU"].update(status="eliminated", hex=None)
    assert "Victory points" in RS.hooks.final_result(RS, g2.state)["summary"]


@pytest.mark.parametrize("seed", range(2))
def test_random_play_to_a_result(seed):
    g, log = play_random(seed, {} if seed else {"lost": "OI1+NC1", "dead": "GOR"}, ruleset="sauron-expanded")
    json.dumps(g.state)
    assert g.result()
