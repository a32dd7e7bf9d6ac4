"""Sauron (issue 13): Sauron's magic (8.5; facts.md 1.13: 45 points, the pedestal, four spells) and the
Beast (17.1x; seed 004 17.11: melee C and Combat 9 without Horn Attack or Death Breath)."""
import pytest

from engine.core import Game, OrderError
from engine.rulesets import get_ruleset
from engine.spi import c08_3_rally
from engine.spi import hooks
from engine.rulesets.sauron import c07_22_leader_combat
from engine.spi import c03_sequence

RS = get_ruleset("sauron")


def game() -> Game:
    g = Game.new(RS, options={}, seed="magic")
    g.play("sauron", "done")
    g.play("westernesse", "done")
    return g


def at(g, step, turn=None):
    g.state["step"], g.state["done"] = step, []
    if turn:
        g.state["turn"] = turn
    g.state["ph"] = c03_sequence._fresh_phase(RS)


def test_sauron_has_45_points_and_casts_only_at_his_pedestal():
    g = game()
    assert RS.units["SAU"].magic == 45
    g.state["units"]["SAU"].update(hex="1522", status="map", magic=45)
    at(g, "A")
    with pytest.raises(OrderError) as e:
        g.play("sauron", "cast SAU summon-beast 5")
    assert "pedestal" in str(e.value)
    g.state["units"]["SAU"]["hex"] = "1523"
    g.play("sauron", "cast SAU summon-beast 5")
    st = g.state
    assert st["units"]["BEA"]["status"] == "map" and st["units"]["SAU"]["magic"] == 40


def test_the_beast_and_all_its_abilities_cost_48():
    total = sum(RS.spells[s]["cost"] for s in ("summon-beast", "beast-flight", "beast-horn", "beast-armor",
                                               "beast-breath"))
    assert total == 48 and RS.spells["summon-beast"]["cost"] == 5 and RS.spells["beast-armor"]["cost"] == 9


def summoned() -> Game:
    g = game()
    g.state["units"]["SAU"].update(hex="1523", status="map", magic=45)
    at(g, "A")
    g.play("sauron", "cast SAU summon-beast 5")
    return g


def test_17_11_without_horn_or_breath_melee_c_and_combat_9():
    g = summoned()
    st = g.state
    assert str(RS.hooks.ratings(RS, st, "BEA")) == "C-4-X"
    assert c07_22_leader_combat.leader_total(RS, st, "BEA") == 9
    st["sau"]["beast"]["horn"] = True
    assert str(RS.hooks.ratings(RS, st, "BEA")) == "A-4-X" and c07_22_leader_combat.leader_total(RS, st, "BEA") == 11
    st["sau"]["beast"]["horn"] = False
    st["sau"]["beast"]["breath"] = True
    assert c07_22_leader_combat.leader_total(RS, st, "BEA") == 11
    assert RS.hooks.unit_dem_value(RS, st, "BEA") == 15  # "He is, after all, worth 15 DP's"


def test_magic_armor_only_magic_weapons_harm_the_beast():
    g = summoned()
    st = g.state
    st["sau"]["beast"]["armor"] = True
    assert RS.hooks.adjust_result(RS, st, "BEA", ("E",), {}) == ()
    st["units"]["BEA"]["hex"] = "1306"
    st["units"]["ISI"]["hex"] = "1307"
    at(g, "G")
    with pytest.raises(OrderError) as e:
        g.play("westernesse", "duel ISI BEA")
    assert "Magic Armor" in str(e.value)
    g.play("westernesse", "duel ELE BEA")  # Elendil bears Narsil


def test_flight_gives_twelve():
    g = summoned()
    g.state["sau"]["beast"]["flight"] = True
    assert hooks.movement_allowance(RS, g.state, "BEA") == 12


def test_death_breath_kills_an_adjacent_hex_once_a_turn_and_breaks_narsil():
    g = summoned()
    st = g.state
    st["sau"]["beast"]["breath"] = True
    st["units"]["BEA"]["hex"] = "1304"
    at(g, "D")
    _, ev = g.play("sauron", "breathe BEA at 1305")  # Elendil and MI6
    st = g.state
    assert st["units"]["MI6"]["status"] == "eliminated"
    assert st["sau"]["items"]["narsil"] is None and st["units"]["ELE"]["wounds"] == 2
    with pytest.raises(OrderError):
        g.play("sauron", "breathe BEA at 1205")


def test_sinister_visions_disrupts_the_men_near_the_target():
    g = game()
    g.state["units"]["SAU"].update(hex="1523", status="map", magic=45)
    at(g, "A")
    g.play("sauron", "cast SAU sinister-visions 6 1305")
    st = g.state
    assert st["units"]["MI6"]["disrupted"] and not st["units"]["DW2"]["disrupted"]  # Dwarves in 1307: not Men
    assert not st["units"]["NC6"]["disrupted"]  # far away


def test_wrath_of_the_ringwraith_and_total_eclipse_last_a_game_turn():
    g = game()
    st = g.state
    st["units"]["SAU"].update(hex="1523", status="map", magic=45)
    st["units"]["RW"].update(hex="1522", status="map")
    at(g, "A")
    base = c07_22_leader_combat.leader_total(RS, st, "RW")
    g.play("sauron", "cast SAU wrath-of-the-ringwraith 5")
    assert c07_22_leader_combat.leader_total(RS, g.state, "RW") == base + 3
    g2 = game()
    st2 = g2.state
    st2["units"]["SAU"].update(hex="1523", status="map", magic=45)
    at(g2, "A")
    assert not RS.hooks.is_fanatic(RS, st2, "OI1") and c08_3_rally.leader_rating(RS, st2, "SAU") == 10
    g2.play("sauron", "cast SAU total-eclipse 8")
    assert RS.hooks.is_fanatic(RS, g2.state, "OI1") and c08_3_rally.leader_rating(RS, g2.state, "SAU") == 13
    assert not RS.hooks.is_fanatic(RS, g2.state, "TR1")  # trolls are not orcs
