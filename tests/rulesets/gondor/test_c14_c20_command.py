"""Gondor's command rules (engine/rulesets/gondor/c14_*, c16_1, c17-c20): Mumakil
(14.31, 14.32), reinforcements in formation and attacking onto the map
(14.2), Grond (16.13, 17.13), Stalemate Nazgul (17.22), Revealing Aragorn
and the Banner of the King (17.23, 18.x), demoralization (19.1, 19.2), city
levels (20.2), victory (20.1) and tunnels (15.24).

Charts used (engine/spi/data/standard.toml and the Gondor charts.toml):
CPT D vs Armor 4 = 2-4, C vs 2 = 2-7, C vs 3 = 2-6, C vs 4 = 2-5, B vs 1 = 2-9;
CRT Y = 1/2E r2, 1/2E r1, r2, r1, D, -; X = 1/2E r1, r2, r1, D, -, -;
Z = E, ...; Scatter Diagram 1..6 = n ne se s sw nw; Mumakil move 4.
Map: West at the top (row 1), East at the bottom (row 26); North is column
38 (Rohan), South column 01 (Aragorn)."""
import pytest

from engine.core import Game, InvalidOrder
from engine.hexgrid import Hex, distance
from engine.rulesets.gondor import GONDOR
from tests.spi_checks import drawn, refused
from tests.spi_helpers import fixed_dice, position
from engine.rulesets import get_ruleset
from engine.rulesets.gondor import c14_3_mumakil
from engine.rulesets.gondor import c20_victory
from engine.spi import c07_5_retreat
from engine.spi import c07_combat
from engine.spi import hooks
from engine.spi import c02_units
from engine.spi import c03_sequence

W, S = "westernesse", "sauron"


def unit(g, uid):
    return g.state["units"][uid]


def text(events):
    return " ".join(e.public for e in events)


def with_charts(g, toml):
    g.state["options"] = Game.new(get_ruleset("gondor"), options={"charts": toml}).state["options"]
    return g


# =================================================================== 14.31
def test_14_31_cavalry_may_not_move_next_to_an_enemy_mumak():
    g = position({"GK1": "2512", "MU1": "2516"}, step="F", turn=7)
    refused(g, W, "move GK1 2515", "14.31", contains="Mumak")
    refused(g, W, "move GK1 2513 2514 2515", "14.31")
    g.play(W, "move GK1 2514")  # two hexes away is fine
    assert unit(g, "GK1")["hex"] == "2514"


def test_14_31_cavalry_may_not_move_next_to_a_friendly_mumak():
    g = position({"MC1": "2512", "MU1": "2516"}, step="C", turn=7)
    refused(g, S, "move MC1 2515", "14.31")


def test_14_31_and_vice_versa_a_mumak_may_not_move_next_to_cavalry():
    g = position({"MU1": "2516", "MC1": "2512", "GK1": "2520"}, step="C", turn=7)
    refused(g, S, "move MU1 2513", "14.31", contains="cavalry")  # friendly cavalry in 2512
    refused(g, S, "move MU1 2519", "14.31")  # enemy cavalry in 2520
    g.play(S, "move MU1 2615")


def test_14_31_infantry_may_move_next_to_a_mumak():
    g = position({"GS1": "2512", "MU1": "2516"}, step="F", turn=7)
    g.play(W, "move GS1 2515")
    assert unit(g, "GS1")["hex"] == "2515"


def test_14_31_no_legal_move_offered_next_to_a_mumak():
    g = position({"GK1": "2512", "MU1": "2516"}, step="F", turn=7)
    dests = {a.args[-1] for a in g.legal_actions(W) if a.verb == "move" and a.args[0] == "GK1"}
    assert dests and not dests & {"2515", "2415", "2615", "2416", "2616", "2517"}


def test_14_31_a_retreating_cavalry_unit_never_ends_next_to_a_mumak():
    plain = c07_5_retreat.retreat_options(GONDOR, position({"GK1": "2514"}).state, ["GK1"], 1, "2515")
    assert plain == ["2413", "2513", "2613"]
    g = position({"GK1": "2514", "MU1": "2713"}, step="D", turn=7)  # 2713 touches 2613 only
    assert c07_5_retreat.retreat_options(GONDOR, g.state, ["GK1"], 1, "2515") == ["2413", "2513"]


def test_14_31_a_cavalry_reinforcement_may_not_enter_next_to_a_mumak():
    g = position({"MU1": "3711"}, step="F", turn=7, arrived={"rohan": 5})
    refused(g, W, "move RH1 3811", "14.31")
    g.play(W, "move RH1 3808")


# =================================================================== 14.32
def mumak_hit(units, stampede, after=(), step="G", turn=7, **extra):
    """GS1 in 2515 attacks the Mumak MU1 in 2516: CPT 1+1 hits (D vs 4 = 2-4),
    CRT 4 on Morale Y = r1; then the stampede die and any later dice."""
    base = {"GS1": "2515", "MU1": "2516"}
    base.update(units)
    g = position(base, step=step, turn=turn, **extra)
    n = fixed_dice(g, [1, 1, 4, stampede, *after])
    return g, n


def test_14_32_a_mumak_with_a_retreat_result_stampedes_its_full_allowance():
    g, n = mumak_hit({}, 4)  # 4 = s: down the column
    _, ev = g.play(W, "melee GS1 at 2516")
    t = text(ev)
    assert drawn(g, n) == 4
    assert "stampedes instead of retreating (14.32)" in t and "rolls 4 on the Scatter Diagram, direction s" in t
    assert "runs 2517 2518 2519 2520" in t
    assert unit(g, "MU1")["hex"] == "2520" and unit(g, "MU1")["disrupted"]
    assert not g.state["pending"]  # Sauron chooses nothing: the die does


def test_14_32_other_scatter_directions():
    g, _ = mumak_hit({}, 3)  # se from 2516 (column 25 odd): 2616, then 2717, 2817, 2918
    g.play(W, "melee GS1 at 2516")
    assert unit(g, "MU1")["hex"] == "2918"


def test_14_32_off_the_map_it_is_eliminated_and_counts_for_demoralization():
    g, _ = mumak_hit({"GS1": "2523", "MU1": "2524"}, 4)
    _, ev = g.play(W, "melee GS1 at 2524")
    assert "runs 2525 2526; it runs off the map and is eliminated (14.32)" in text(ev)
    assert unit(g, "MU1")["status"] == "eliminated"
    assert g.state["dem"]["sauron"] == GONDOR.charts.demoralization_value(GONDOR.units["MU1"].ratings) == 9


def test_14_32_running_into_a_wall_or_tower_eliminates_it():
    # 2009/n is a tower hexside of the Outer Wall
    g = position({"GS1": "2010", "MU1": "2009"}, step="G", turn=7)
    fixed_dice(g, [1, 1, 4, 1])  # 1 = n
    _, ev = g.play(W, "melee GS1 at 2009")
    assert "runs into the tower 2009/n and is eliminated (14.32)" in text(ev)
    assert unit(g, "MU1")["status"] == "eliminated"


def test_14_32_a_gate_its_side_does_not_control_is_a_wall():
    g = position({"GS1": "1911", "MU1": "1910"}, step="G", turn=7)
    fixed_dice(g, [1, 1, 4, 1])
    _, ev = g.play(W, "melee GS1 at 1910")
    assert "runs into the gate 1910/n and is eliminated" in text(ev)


def test_14_32_through_a_gate_its_side_controls_then_into_the_wall():
    g = position({"GS1": "1911", "MU1": "1910"}, step="G", turn=7)
    g.state["gates"]["1910/n"] = "sauron"
    fixed_dice(g, [1, 1, 4, 1])
    _, ev = g.play(W, "melee GS1 at 1910")
    assert "runs 1909; it runs into the wall 1909/n and is eliminated" in text(ev)


def test_14_32_it_attacks_any_combat_unit_it_moves_next_to_even_a_friend():
    # s to 2517, which touches OI1 in 2617: C vs Armor 2 = 2-7, 1+1 hits, CRT Y 5 = D
    g, n = mumak_hit({"OI1": "2617"}, 4, after=[1, 1, 5])
    _, ev = g.play(W, "melee GS1 at 2516")
    t = text(ev)
    assert drawn(g, n) == 7
    assert "runs 2517; it attacks OI1" in t and "CRT Morale Y: 5, D" in t
    assert unit(g, "OI1")["disrupted"] and unit(g, "OI1")["hex"] == "2617"
    assert unit(g, "MU1")["hex"] == "2517" and unit(g, "MU1")["disrupted"]
    assert "Disrupted until rallied (14.32)" in t


def test_14_32_cavalry_may_be_the_unit_it_charges():
    g, _ = mumak_hit({"GK1": "2617"}, 4, after=[1, 1, 1])  # C vs 3 = 2-6; CRT X 1 = 1/2E r1
    _, ev = g.play(W, "melee GS1 at 2516")
    assert "attacks GK1" in text(ev)
    assert unit(g, "GK1")["reduced"] and unit(g, "MU1")["hex"] == "2517"


def test_14_32_a_unit_straight_in_its_path_is_charged_without_moving():
    # die 1 = n: 2515 holds the attacker GS1 itself; C vs 3 = 2-6: 6+6 misses
    g, _ = mumak_hit({}, 1, after=[6, 6])
    _, ev = g.play(W, "melee GS1 at 2516")
    t = text(ev)
    assert "it cannot move; it attacks GS1" in t
    assert unit(g, "MU1")["hex"] == "2516" and unit(g, "MU1")["disrupted"]


def test_14_32_ruling_no_charge_across_a_wall():
    # 2109/n is the Outer Wall: GS2 in 2108 is next to 2109 but out of reach
    g = position({"MU1": "2109", "GS2": "2108"}, step="G", turn=7)
    assert c14_3_mumakil._stampede_contact(GONDOR, g.state, "MU1", Hex.parse("2109"), "s") is None
    g = position({"MU1": "2109", "GS2": "2110"}, step="G", turn=7)
    assert c14_3_mumakil._stampede_contact(GONDOR, g.state, "MU1", Hex.parse("2109"), "s") == "GS2"


def test_14_32_ruling_the_unit_ahead_is_charged_first_then_the_lowest_hex():
    g = position({"MU1": "2517", "OI1": "2416", "OI2": "2617", "OI3": "2616"}, step="G", turn=7)
    assert c14_3_mumakil._stampede_contact(GONDOR, g.state, "MU1", Hex.parse("2517"), "se") == "OI2"  # 2617 is ahead
    assert c14_3_mumakil._stampede_contact(GONDOR, g.state, "MU1", Hex.parse("2517"), "s") == "OI1"  # 2416 < 2616


def test_14_32_ruling_impassable_terrain_stops_it():
    g = position({"GS1": "3306", "MU1": "3305"}, step="G", turn=7)
    fixed_dice(g, [1, 1, 4, 3])  # se of 3305 is 3405, a mountain
    _, ev = g.play(W, "melee GS1 at 3305")
    assert "stops before 3405 (mountain, ruling), Disrupted (14.32)" in text(ev)
    assert unit(g, "MU1")["hex"] == "3305" and unit(g, "MU1")["disrupted"]


def test_14_32_ruling_a_hex_holding_only_a_leader_stops_it():
    g, _ = mumak_hit({"GOT": "2518"}, 4)
    _, ev = g.play(W, "melee GS1 at 2516")
    assert "runs 2517; it stops before 2518 (occupied, ruling)" in text(ev)
    assert unit(g, "MU1")["hex"] == "2517"


def test_14_32_ruling_a_chain_of_stampedes_is_capped():
    # MU1 runs to 2517 and charges MU2 in 2617 (C vs 4 = 2-5; CRT Y 4 = r1): MU2 would stampede
    g, _ = mumak_hit({"MU2": "2617"}, 4, after=[1, 1, 4])
    with_charts(g, "[stampede]\nchain = 1\n")
    _, ev = g.play(W, "melee GS1 at 2516")
    assert "MU2 would stampede, but a chain of stampedes stops after 1 (14.32, ruling)" in text(ev)
    assert unit(g, "MU2")["hex"] == "2617" and unit(g, "MU2")["disrupted"]
    assert "stampede_depth" not in g.state["ph"]


def test_14_32_the_default_chain_lets_the_second_mumak_stampede():
    g, _ = mumak_hit({"MU2": "2617"}, 4, after=[1, 1, 4, 4])  # MU2 goes s too: 2618 .. 2621
    _, ev = g.play(W, "melee GS1 at 2516")
    assert text(ev).count("stampedes instead of retreating") == 2
    assert unit(g, "MU2")["hex"] == "2621"


def test_14_32_the_attacker_may_advance_into_the_hex_the_mumak_left():
    g, _ = mumak_hit({}, 4)
    g.play(W, "melee GS1 at 2516")
    g.play(W, "advance GS1 2516")
    assert unit(g, "GS1")["hex"] == "2516"


def test_14_32_missile_fire_retreats_stampede_too():
    g = position({"GB1": "2514", "MU1": "2516"}, step="G", turn=7)
    fixed_dice(g, [1, 1, 4, 4])  # e vs 4 = 2-3 (E row)
    _, ev = g.play(W, "fire GB1 at 2516")
    assert "stampedes" in text(ev) and unit(g, "MU1")["hex"] == "2520"


# ==================================================================== 14.2
def rohan(step="F", turn=7, **units):
    return position(units, step=step, turn=turn, arrived={"rohan": 5})


def test_14_2_rohan_may_form_a_wedge_before_entering_and_enter_formed():
    g = rohan()
    _, ev = g.play(W, "form wedge RH1 RH2 THE")
    assert ev[0].section == "14.2"
    f = g.state["formations"]["F1"]
    assert f["units"] == ["RH1", "RH2"] and f["turn"] == 6  # counts as formed on an earlier turn
    g.play(W, "move RH1 RH2 3810")
    assert unit(g, "RH1")["hex"] == unit(g, "RH2")["hex"] == "3810"
    g.play(W, "move THE 3810")
    assert unit(g, "THE")["hex"] == "3810"


def test_14_2_a_wedge_formed_off_the_map_may_enter_and_attack_the_same_turn():
    g = rohan(OI1="3612")
    g.play(W, "form wedge RH1 RH2 THE")
    g.play(W, "move RH1 RH2 3712")
    g.play(W, "move THE 3712")
    g.play(W, "done")
    assert g.state["step"] == "G"
    fixed_dice(g, [1, 1, 6])
    _, ev = g.play(W, "melee RH1 at 3612")
    assert "in a wedge: attack +1 (8.4)" in text(ev)


def test_14_2_off_map_formation_refusals():
    g = position({}, step="F", turn=7)  # Rohan has not arrived
    refused(g, W, "form wedge RH1 RH2 THE", "14.2", contains="may not enter now")
    g = rohan()
    refused(g, W, "form wedge RH1 AH1 THE", "14.2")  # Aragorn's host arrives on turn 10
    refused(g, W, "form shieldwall RH1 RH2 THE", "8.4")  # a Shield Wall is infantry
    refused(g, W, "form wedge RH1 RH2 RH3", "8.4")  # RH3 is no leader
    g2 = rohan(IMR="2515", GS1="2515")
    refused(g2, W, "form wedge RH1 RH2 IMR", "14.2", contains="IMR is on the map")
    g3 = rohan(step="G")
    refused(g3, W, "form wedge RH1 RH2 THE", "8.4")  # only in the Movement Phase


def test_14_2_sauron_reinforcements_may_not_form():
    g = position({}, step="C", turn=2)
    refused(g, S, "form wedge MC1 MC2 KOH", "8.41")


def test_14_2_aragorn_host_may_enter_in_shield_wall_on_turn_10():
    g = position({}, step="F", turn=10)
    g.play(W, "form shieldwall AS1 AS2 ARA")
    g.play(W, "move AS1 AS2 0113")
    assert unit(g, "AS1")["hex"] == "0113" and unit(g, "AS2")["hex"] == "0113"


def test_14_2_entry_formations_are_offered_and_accepted():
    g = rohan()
    forms = [a for a in g.legal_actions(W) if a.verb == "form"]
    assert any(str(a) == "form wedge RH1 RH2 THE" for a in forms)
    assert all(a.args[0] == "wedge" for a in forms)
    g.play(W, str(forms[0]))


def test_14_2_a_reinforcement_attacks_an_enemy_in_its_entry_hex_from_off_the_map():
    g = rohan(step="G", LO1="3813")
    n = fixed_dice(g, [1, 1, 1])  # B vs Armor 1 = 2-9; CRT Z 1 = E
    _, ev = g.play(W, "melee RH1 at 3813")
    assert drawn(g, n) == 3 and "LO1 eliminated" in text(ev)
    assert unit(g, "RH1")["status"] == "reinforcement" and unit(g, "RH1")["hex"] is None
    assert g.state["ph"]["advance"] == {"seat": W, "units": ["RH1"], "hex": "3813"}
    _, ev = g.play(W, "advance RH1 3813")
    assert ev[0].section == "14.2" and "enters the map" in ev[0].public
    assert unit(g, "RH1")["status"] == "map" and unit(g, "RH1")["hex"] == "3813"


def test_14_2_retreats_count_from_a_virtual_hex_beyond_the_edge():
    g = rohan(step="G", OI1="3813")
    fixed_dice(g, [1, 1, 4])  # B vs 2 = 2-8; CRT Y 4 = r1
    g.play(W, "melee RH1 at 3813")
    # away from 3913 (off the map, beyond the Northern edge): never 3812 or 3814's... 3812 touches 3913
    assert g.state["pending"][0]["options"] == ["3713", "3714", "3814"]
    g.play(S, "retreat OI1 3713")
    assert g.state["ph"]["advance"]["units"] == ["RH1"]
    g.play(W, "advance RH1 3813")
    assert unit(g, "RH1")["hex"] == "3813"


def test_14_2_off_map_attack_refusals():
    g = rohan(step="G", OI1="3713")
    refused(g, W, "melee RH1 at 3713", "14.2", contains="entry hexes")
    g = position({"OI1": "3813"}, step="G", turn=7)  # Rohan not arrived
    refused(g, W, "melee RH1 at 3813", "14.2", contains="may not enter now")
    g = rohan(step="F", OI1="3813")
    refused(g, W, "melee RH1 at 3813", "7.3")  # only in the Combat Phase


def test_14_2_off_map_attacks_are_offered():
    g = rohan(step="G", OI1="3813")
    melees = {str(a) for a in g.legal_actions(W) if a.verb == "melee"}
    assert "melee RH1 at 3813" in melees and "melee THE at 3813" not in melees
    assert len([m for m in melees if m.endswith("3813")]) == 10  # RH1-3, RA1-7


def test_14_2_each_reinforcement_attacks_once():
    g = rohan(step="G", OI1="3813")
    fixed_dice(g, [6, 6])  # a miss
    g.play(W, "melee RH1 at 3813")
    refused(g, W, "melee RH1 at 3813", "7.31")


# =================================================================== 16.13
def test_16_13_grond_moves_only_with_a_troll_or_uruk_hai():
    g = position({"GRD": "2520", "OI1": "2520", "TR1": "2420", "UH1": "2620"}, step="C", turn=7)
    refused(g, S, "move OI1 GRD 2519", "16.13", contains="Troll or Uruk-Hai")
    refused(g, S, "move GRD 2519", "16.11")
    g = position({"GRD": "2520", "TR1": "2520"}, step="C", turn=7)
    g.play(S, "move TR1 GRD 2519")
    assert unit(g, "GRD")["hex"] == unit(g, "TR1")["hex"] == "2519"
    g = position({"GRD": "2520", "UH1": "2520"}, step="C", turn=7)
    g.play(S, "move UH1 GRD 2519")
    assert unit(g, "GRD")["hex"] == "2519"


def test_16_13_grond_enters_with_its_troll():
    g = position({}, step="C", turn=2)
    g.play(S, "move TR1 GRD 2124")
    assert unit(g, "GRD")["hex"] == "2124" and unit(g, "GRD")["status"] == "map"


# =================================================================== 17.13
def grond_position(**extra):
    units = {"NAZ": "2517", "GRD": "2520", "TR1": "2520"}
    units.update(extra)
    return position(units, step="A-sauron", turn=7)


def test_17_13_operate_grond_activates_it_for_the_rest_of_the_game():
    g = grond_position()
    n = g.state["dice"]["counter"]
    _, ev = g.play(S, "cast NAZ operate-grond")
    assert drawn(g, n) == 0 and ev[0].section == "17.13"
    assert g.state["grond_active"] is True and unit(g, "NAZ")["magic"] == 7
    assert "Grond is operated (17.13)" in g.view(S)["notes"]
    grd = next(u for u in g.view(S)["units"] if u["id"] == "GRD")
    assert grd["active"] is True


def test_17_13_refusals():
    assert GONDOR.hooks.spell_cost(GONDOR, grond_position().state, "operate-grond") == 1
    refused(grond_position(NAZ="2516"), S, "cast NAZ operate-grond", "17.13", contains="within three")
    g = position({"NAZ": "2517", "GRD": "2520", "OI1": "2520"}, step="A-sauron", turn=7)
    refused(g, S, "cast NAZ operate-grond", "17.13", contains="Troll or Uruk-Hai")
    g = grond_position()
    g.state["grond_active"] = True
    refused(g, S, "cast NAZ operate-grond", "17.13", contains="already")
    refused(position({"NAZ": "2517"}, step="A-sauron", turn=7), S, "cast NAZ operate-grond", "17.13",
            contains="not on the map")


def test_17_13_only_the_nazgul_lord_casts_it():
    g = position({"GAN": "2517", "GRD": "2520", "TR1": "2520"}, step="A-westernesse", turn=7)
    refused(g, W, "cast GAN operate-grond", "17.13")


# =================================================================== 17.22
def stalemate(turn=7, **extra):
    units = {"GAN": "2015", "NAZ": "2016"}
    units.update(extra)
    return position(units, step="A-westernesse", turn=turn)


def test_17_22_by_day_it_costs_3_and_throws_the_nazgul_six_hexes_east():
    g = stalemate()
    _, ev = g.play(W, "cast GAN stalemate-nazgul")
    assert ev[0].section == "17.22" and "3 points, automatic" in ev[0].public
    assert unit(g, "GAN")["magic"] == 7
    assert unit(g, "NAZ")["hex"] == "2021"  # straight down the column: East
    assert "thrown from 2016 to 2021" in ev[0].public


def test_17_22_reconstructed_night_cost_is_5():
    g = stalemate(turn=3)
    assert GONDOR.hooks.spell_cost(GONDOR, g.state, "stalemate-nazgul") == 5
    g.play(W, "cast GAN stalemate-nazgul")
    assert unit(g, "GAN")["magic"] == 5
    assert GONDOR.spells["stalemate-nazgul"]["reconstructed"] is True


def test_17_22_it_may_be_attempted_for_less():
    g = stalemate()
    fixed_dice(g, [5])  # shortfall 1: 5 or less
    _, ev = g.play(W, "cast GAN stalemate-nazgul 2")
    assert "die 5" in ev[0].public and unit(g, "NAZ")["hex"] == "2021"


def test_17_22_gandalf_must_be_adjacent():
    refused(stalemate(NAZ="2017"), W, "cast GAN stalemate-nazgul", "17.22", contains="adjacent")


def test_17_22_ruling_an_occupied_hex_gives_the_nearest_hex_six_away_in_a_higher_row():
    g = stalemate(GS1="2021")
    g.play(W, "cast GAN stalemate-nazgul")
    h = unit(g, "NAZ")["hex"]
    assert h == "1921" and distance("2015", h) == 6 and int(h[2:]) > 15


def test_17_22_ruling_off_the_map_east_gives_the_nearest_hex_on_the_map():
    g = stalemate(GAN="2021", NAZ="2022")
    g.play(W, "cast GAN stalemate-nazgul")
    assert unit(g, "NAZ")["hex"] == "1826" and distance("2021", "1826") == 6


def test_17_22_ruling_no_hex_at_all_refuses_the_spell():
    refused(stalemate(GAN="2026", NAZ="2025"), W, "cast GAN stalemate-nazgul", "17.22", contains="no hex")


def test_17_22_ruling_the_nazgul_is_frozen_for_one_game_turn():
    g = stalemate()
    g.play(W, "cast GAN stalemate-nazgul")
    g.play(W, "done")
    assert g.state["step"] == "A-sauron"
    refused(g, S, "move NAZ 2022", "17.22", contains="stalemated")
    refused(g, S, "cast NAZ fear", "17.22")
    # a Game-Turn later, at the same step, it is free again
    g.state["turn"], g.state["step"], g.state["done"] = 7, "H", []
    g.play(S, "done")
    g.play(W, "done")
    assert (g.state["turn"], g.state["step"]) == (8, "A-westernesse")
    assert not g.state["effects"]
    g.play(W, "done")
    g.play(S, "move NAZ 2022")


def test_17_22_unlimited():
    g = stalemate(turn=8)
    g.state["spell_count"]["stalemate-nazgul"] = 5
    g.play(W, "cast GAN stalemate-nazgul")
    assert unit(g, "NAZ")["hex"] == "2021"


# ======================================================= 17.23, 18.x Banner
def revealed(step="A-westernesse", turn=10, **extra):
    units = {"GAN": "0513", "ARA": "0213", "AS1": "0213", "AS2": "0512"}
    units.update(extra)
    g = position(units, step="A-westernesse", turn=turn)
    g.play(W, "cast GAN reveal-aragorn")
    g.state["step"] = step
    g.state["ph"] = c03_sequence._fresh_phase(GONDOR)
    return g


def test_17_23_reveal_aragorn_places_the_banner_with_aragorn():
    g = position({"GAN": "0513", "ARA": "0213", "AS1": "0213"}, step="A-westernesse", turn=10)
    assert unit(g, "BAN")["status"] == "reinforcement"
    _, ev = g.play(W, "cast GAN reveal-aragorn")
    assert ev[0].section == "17.23" and "4 points, automatic" in ev[0].public
    assert unit(g, "BAN")["status"] == "map" and unit(g, "BAN")["hex"] == "0213"
    assert unit(g, "GAN")["magic"] == 6
    e = next(e for e in g.state["effects"] if e.get("banner"))
    assert e["until"] == {"turn": 13, "step": "A-westernesse"}
    assert any(n.startswith("Banner of the King in 0213") for n in g.view(W)["notes"])


def test_17_23_and_18_11_only_once_aragorn_is_on_the_map():
    g = position({"GAN": "0513"}, step="A-westernesse", turn=10)
    refused(g, W, "cast GAN reveal-aragorn", "18.11")


def test_17_23_only_once_a_game():
    g = revealed(step="A-westernesse", turn=10)
    g.state["turn"] = 11
    refused(g, W, "cast GAN reveal-aragorn", "17.23")


def test_18_1_the_banner_is_no_combat_unit_and_has_no_zoc():
    b = GONDOR.units["BAN"]
    assert not b.is_combat and not b.is_leader and not b.has_zoc and not b.is_siege
    g = revealed(step="F")
    assert hooks.movement_allowance(GONDOR, g.state, "BAN") == 6


def test_18_13_the_banner_moves_and_ends_with_a_westernesse_leader():
    g = revealed(step="F")
    refused(g, W, "move BAN 0313", "18.13")
    g.play(W, "move BAN 0513")  # Gandalf is there
    assert unit(g, "BAN")["hex"] == "0513"


def test_18_13_the_banner_moves_with_its_leader_in_one_order():
    g = revealed(step="F")
    g.play(W, "move ARA BAN 0512")  # AS2 is there
    assert unit(g, "BAN")["hex"] == unit(g, "ARA")["hex"] == "0512"


def test_18_13_ruling_the_banner_goes_with_the_last_leader_to_leave_its_hex():
    g = revealed(step="F")
    _, ev = g.play(W, "move ARA 0512")
    assert unit(g, "BAN")["hex"] == "0512" and "Banner of the King goes with ARA" in text(ev)


def test_18_14_the_banner_falls_with_its_leader():
    g = revealed(step="D", NAZ="0313")
    g.state["options"]["rally"].update(NAZ=13, ARA=1)
    fixed_dice(g, [6])  # differential +3 (capped): 6 = -/k
    _, ev = g.play(S, "duel NAZ ARA")
    assert unit(g, "ARA")["status"] == "eliminated"
    assert unit(g, "BAN")["status"] == "eliminated" and unit(g, "BAN")["hex"] is None
    assert "the Banner of the King falls with its leader (18.14)" in text(ev)
    assert not any(e.get("banner") for e in g.state["effects"])


def test_18_21_no_sauron_rally_within_six_hexes_of_the_banner():
    g = revealed(step="H", GOT="0813", OI1="0813", OI2="0913")
    unit(g, "OI1")["disrupted"] = unit(g, "OI2")["disrupted"] = True
    g.state["options"]["rally"]["GOT"] = 13
    refused(g, S, "rally GOT OI1", "18.21", contains="6 hexes")  # 0213 to 0813
    g.play(S, "rally GOT OI2")  # seven hexes away
    assert not unit(g, "OI2")["disrupted"]


def test_18_22_two_units_near_the_banner_are_rallied_at_the_rally_phase():
    g = revealed(step="G", AS3="0313", AS4="0413", AS5="0213")
    g.state["units"]["AS5"]["hex"] = "0113"
    for u in ("AS1", "AS3", "AS4", "AS5"):
        unit(g, u)["disrupted"] = True
    _, ev = g.play(W, "done")
    assert g.state["step"] == "H"
    # distances from 0213: AS1 0, AS5 1, AS3 1, AS4 2: the two nearest, ties by id
    assert "AS1 and AS3 are rallied automatically (18.22)" in text(ev)
    assert not unit(g, "AS1")["disrupted"] and not unit(g, "AS3")["disrupted"]
    assert unit(g, "AS4")["disrupted"] and unit(g, "AS5")["disrupted"]


def test_18_22_ruling_fear_prevents_the_banner_rally():
    g = revealed(step="G", AS3="0313")
    unit(g, "AS3")["disrupted"] = True
    g.state["effects"].append({"title": "Fear", "section": "17.11", "side": W, "no_rally": True,
                               "until": {"turn": 11, "step": "A-sauron"}})
    _, ev = g.play(W, "done")
    assert "rallies no one" in text(ev) and unit(g, "AS3")["disrupted"]


def test_18_23_the_nazgul_may_not_attempt_spells_while_the_banner_is_unfurled():
    g = revealed(step="A-sauron", NAZ="2517")
    refused(g, S, "cast NAZ fear 5", "18.23")
    refused(g, S, "cast NAZ freeze-leader 2", "18.23")


def test_17_23_three_game_turns_then_the_banner_is_furled():
    g = revealed(step="H", turn=10, AS3="0313")
    g.state["turn"] = 12
    unit(g, "AS3")["disrupted"] = True
    g.play(S, "done")
    assert unit(g, "BAN")["status"] == "map"
    _, ev = g.play(W, "done")
    assert (g.state["turn"], g.state["step"]) == (13, "A-westernesse")
    assert "The Banner of the King is furled" in text(ev)
    assert unit(g, "BAN")["status"] == "reinforcement" and unit(g, "BAN")["hex"] is None
    g.state["step"] = "A-sauron"
    g.state["units"]["NAZ"].update(hex="2517", status="map")
    g.play(S, "cast NAZ freeze-leader 3")  # 18.23 no longer applies


def test_18_22_the_third_turn_still_rallies():
    g = revealed(step="G", turn=10, AS3="0313")
    g.state["turn"] = 12
    unit(g, "AS3")["disrupted"] = True
    _, ev = g.play(W, "done")
    assert "AS3 is rallied automatically" in text(ev)


# ================================================================== 19.1
def test_19_11_garrison_total_adds_and_subtracts_as_things_occur():
    g = position({}, step="C", turn=4)
    st = g.state
    st["dem"]["garrison"] = 7
    assert GONDOR.hooks.dem_total(GONDOR, st, "garrison") == 7
    st["gates"]["1910/n"] = "sauron"
    assert c20_victory.levels_controlled(GONDOR, st) == [1]
    assert GONDOR.hooks.dem_total(GONDOR, st, "garrison") == 17  # A: +10 a level
    st["grond_breached_main"] = True
    assert GONDOR.hooks.dem_total(GONDOR, st, "garrison") == 22  # B: +5
    st["arrived"]["rohan"] = 5
    assert GONDOR.hooks.dem_total(GONDOR, st, "garrison") == 22  # not yet: turn 4
    st["turn"] = 5
    assert GONDOR.hooks.dem_total(GONDOR, st, "garrison") == 12  # C: -10
    st["turn"] = 10
    assert GONDOR.hooks.dem_total(GONDOR, st, "garrison") == 2  # D: -10 from Game-Turn 10


def test_19_12_reinforcements_are_a_separate_army():
    g = rohan(step="G", LO1="3813", GS1="3711")
    g.state["units"]["RH1"].update(hex="3812", status="map")
    assert c02_units.army_of(GONDOR, "RH1") == "reinforcements" and c02_units.army_of(GONDOR, "GS1") == "garrison"
    c07_combat.eliminate(GONDOR, g.state, "RH1")
    assert g.state["dem"]["reinforcements"] == GONDOR.charts.demoralization_value(GONDOR.units["RH1"].ratings)
    assert g.state["dem"]["garrison"] == 0
    assert GONDOR.hooks.dem_level(GONDOR, g.state, "reinforcements") == 76


def test_19_2_gandalf_and_imrahil_count_with_the_garrison():
    assert c02_units.army_of(GONDOR, "GAN") == c02_units.army_of(GONDOR, "IMR") == "garrison"
    assert c02_units.army_of(GONDOR, "ARA") == c02_units.army_of(GONDOR, "THE") == "reinforcements"
    g = position({"IMR": "2515", "GS1": "2515", "GOT": "2516", "OI1": "2516"}, step="D", turn=7)
    g.state["options"]["rally"].update(GOT=13)
    fixed_dice(g, [6])  # +3 (capped): -/k
    g.play(S, "duel GOT IMR")
    assert g.state["dem"]["garrison"] == 5  # Imrahil's Rally Rating


def test_19_13_sauron_loses_20_for_good_once_the_garrison_is_demoralized():
    g = position({"OI1": "2520"}, step="C", turn=7)
    g.state["dem"]["sauron"] = 50
    assert GONDOR.hooks.dem_total(GONDOR, g.state, "sauron") == 50
    g.state["dem"]["garrison"] = 36
    g.play(S, "move OI1 2519")  # checked after every order
    assert g.state["garrison_broken"] == 7
    assert GONDOR.hooks.dem_total(GONDOR, g.state, "sauron") == 30
    g.state["dem"]["garrison"] = 0  # the garrison recovers (19.14): the 20 stay off
    g.play(S, "done")
    assert GONDOR.hooks.dem_total(GONDOR, g.state, "sauron") == 30


def test_19_13_the_flag_is_announced_at_the_next_step():
    g = position({}, step="C", turn=7)
    g.state["dem"]["garrison"] = 40
    _, ev = g.play(S, "done")
    assert "garrison has been demoralized" in text(ev) and g.state["garrison_broken"] == 7


def test_19_13_five_points_off_per_level_and_back_on_if_lost():
    g = position({}, step="C", turn=7)
    st = g.state
    st["dem"]["sauron"] = 40
    st["gates"]["1910/n"] = st["gates"]["1205/ne"] = "sauron"
    assert c20_victory.levels_controlled(GONDOR, st) == [1, 2]
    assert GONDOR.hooks.dem_total(GONDOR, st, "sauron") == 30
    st["gates"]["1205/ne"] = "westernesse"
    assert GONDOR.hooks.dem_total(GONDOR, st, "sauron") == 35


def test_19_14_the_view_tracks_use_the_adjusted_totals():
    g = position({}, step="C", turn=7)
    g.state["gates"]["1910/n"] = "sauron"
    g.state["dem"]["garrison"] = 30
    tracks = {t["name"]: t for t in g.view(None)["tracks"]}
    t = tracks["Minas Tirith garrison demoralization"]
    assert t["points"] == 40 and t["demoralized"] is True


# ==================================================================== 20.2
def test_20_2_a_level_needs_its_gate_and_no_undisrupted_defender():
    g = position({"GS1": "1808"}, step="C", turn=7)  # 1808 is level 1
    st = g.state
    assert GONDOR.hexmap.level(Hex.parse("1808")) == 1
    st["gates"]["1910/n"] = "sauron"
    assert c20_victory.levels_controlled(GONDOR, st) == []
    unit(g, "GS1")["disrupted"] = True
    assert c20_victory.levels_controlled(GONDOR, st) == [1]


def test_20_2_the_gates_of_each_level_come_from_the_map():
    assert GONDOR._level_gates == {1: ["1910/n"], 2: ["1205/ne"], 3: ["2404/se"], 4: ["1404/ne"],
                                   5: ["2203/se"], 6: ["1603/ne"], 7: ["2002/se"]}


def test_20_2_ruling_levels_are_independent():
    g = position({}, step="C", turn=7)
    g.state["gates"]["2404/se"] = "sauron"  # the gate into level 3 only
    assert c20_victory.levels_controlled(GONDOR, g.state) == [3]


def test_20_2_levels_in_the_view():
    g = position({}, step="C", turn=7)
    g.state["gates"]["1910/n"] = "sauron"
    v = g.view(W)
    assert v["levels"] == [1] and "City levels Sauron controls (20.2): 1" in v["notes"]


# ==================================================================== 20.1
def test_20_1_the_road_is_tracked_through_moves():
    g = position({"OI1": "1916"}, step="C", turn=7)
    assert g.state["road"] == {"1918": None, "2124": None}
    g.play(S, "move OI1 1917 1918 1919")  # passes through 1918
    assert g.state["road"]["1918"] == S
    g = position({"GS1": "1916"}, step="F", turn=7)
    g.state["road"]["1918"] = S
    g.play(W, "move GS1 1918")
    assert g.state["road"]["1918"] == W


def test_20_1_the_road_sees_deployments_and_any_placement():
    g = Game.new(get_ruleset("gondor"), seed="road")
    from tests.gondor_helpers import full_setup
    full_setup(g)
    assert g.state["road"] == {"1918": None, "2124": S}  # OI9 deployed in 2124
    v = g.view(None)
    assert v["road"] == {"1918": None, "2124": S} and "Road (20.1), last held: 1918 nobody, 2124 Sauron" in v["notes"]


def test_20_1_leaders_alone_do_not_take_the_road():
    g = position({"NAZ": "1916"}, step="A-sauron", turn=7)
    g.play(S, "move NAZ 1918")
    assert g.state["road"]["1918"] is None


def end_game(road, garrison, sauron):
    g = position({}, step="H", turn=16, arrived={"rohan": 6})
    g.state["road"] = dict(road)
    g.state["dem"]["garrison"] = garrison
    g.state["dem"]["sauron"] = sauron
    g.play(S, "done")
    g.play(W, "done")
    return g.result()


BOTH = {"1918": S, "2124": S}


def test_20_1_sauron_wins_only_with_all_three():
    r = end_game(BOTH, 60, 10)  # garrison 60 - 20 (Rohan, Aragorn) = 40 >= 36
    assert r.winner == S and r.section == "20.1"
    assert "A, the Minas Tirith garrison demoralized: yes (40 points, level 36)" in r.summary
    assert "Sauron achieves all three and wins (20.1)" in r.summary


@pytest.mark.parametrize("road,garrison,sauron,missed", [
    (BOTH, 50, 10, "A"),                                  # garrison 30 < 36
    (BOTH, 60, 120, "B"),                                 # Sauron 120 - 20 = 100 >= 93
    ({"1918": W, "2124": S}, 60, 10, "C"),
    ({"1918": S, "2124": None}, 60, 10, "C"),
])
def test_20_1_westernesse_wins_by_preventing_any_one(road, garrison, sauron, missed):
    r = end_game(road, garrison, sauron)
    assert r.winner == W
    assert f"Westernesse prevents {missed} and wins (20.1)." in r.summary


def test_20_1_summary_states_each_condition():
    r = end_game({"1918": W, "2124": S}, 0, 0)
    assert "sixteen Game-Turns are over (12.0)" in r.summary
    assert "B, Sauron not demoralized: yes (0 points, level 93)" in r.summary
    assert "(last: 1918 Westernesse, 2124 Sauron)" in r.summary
    assert "Westernesse prevents A and C and wins (20.1)" in r.summary


# =================================================================== 15.24
def tunnel_profile(option=None):
    g = position({"GS1": "2103", "OI1": "2003"}, step="D", turn=7)  # 2103 is a tunnel hex
    if option:
        with_charts(g, f'[tunnel]\nrule = "{option}"\n')
    return c07_combat.attack_profile(GONDOR, g.state, "OI1", "GS1", "melee")


@pytest.mark.parametrize("option,armor,morale", [
    (None, 3, "W"),            # default: morale-w
    ("morale-w", 3, "W"),
    ("armor-4", 4, "X"),
    ("armor-1", 1, "X"),
    ("none", 3, "X"),
])
def test_15_24_tunnel_options(option, armor, morale):
    p = tunnel_profile(option)
    assert (p["armor"], p["morale"]) == (armor, morale)
    assert any("15.24" in n for n in p["notes"]) == (option != "none")


@pytest.mark.parametrize("option,armor,morale", [("morale-w", 3, "X"), ("armor-4", 4, "Y"), ("armor-1", 1, "Y")])
def test_15_24_ruling_modifiers_still_apply_to_the_tunnel_rating(option, armor, morale):
    g = position({"GS1": "2103", "OI1": "2003"}, step="D", turn=7)
    with_charts(g, f'[tunnel]\nrule = "{option}"\n')
    unit(g, "GS1")["disrupted"] = True  # Morale one grade worse (7.57)
    p = c07_combat.attack_profile(GONDOR, g.state, "OI1", "GS1", "melee")
    assert (p["armor"], p["morale"]) == (armor, morale)


def test_15_24_outside_a_tunnel_nothing_changes():
    g = position({"GS1": "2102", "OI1": "2003"}, step="D", turn=7)
    p = c07_combat.attack_profile(GONDOR, g.state, "OI1", "GS1", "melee")
    assert (p["armor"], p["morale"]) == (3, "X") and not p["notes"]


def test_15_24_applies_to_missile_fire_too_and_shows_in_the_log():
    g = position({"GS1": "2103", "OA1": "2003"}, step="D", turn=7)
    fixed_dice(g, [6, 6])
    _, ev = g.play(S, "fire OA1 at 2103")
    assert "defender in a tunnel: Morale W whatever its rating (15.24, read as Morale)" in ev[0].public


def test_15_24_a_bad_option_is_refused():
    with pytest.raises(InvalidOrder):
        Game.new(get_ruleset("gondor"), options={"charts": '[tunnel]\nrule = "armor-W"\n'})


def test_14_2_the_entry_formations_listed_are_every_trio_the_check_allows_and_no_other():
    """14.2 with 8.4 and 17.12: the listing (which asks each unit alone once, then checks the trios that may
    pass) offers, in order, exactly the trios of entering units the order's check accepts: Rohan's and
    Aragorn's host both entering (different edges), one rider already moved, one already in a formation, a
    leader frozen by a spell."""
    from engine.core import Action
    from engine.rulesets.gondor import c14_reinforcements
    from engine.spi import entry as spi_entry

    g = position({}, step="F", turn=10, arrived={"rohan": 5})
    entering = spi_entry._entering(GONDOR, g.state, W)
    riders = [u for u in entering if u.startswith("R") and GONDOR.units[u].is_combat]
    leaders = [u for u in entering if GONDOR.units[u].is_leader]
    assert len(riders) >= 4 and any(u.startswith("A") for u in entering) and len(leaders) >= 3
    g.state["ph"]["moved"] = [riders[0]]
    g.state["formations"]["F1"] = {"kind": "wedge", "units": [riders[1], riders[2]], "leader": leaders[0],
                                   "turn": 9, "entering": True}
    g.state["effects"].append({"frozen": [leaders[1]], "title": "a spell", "section": "17.12"})
    every = [Action("form", (kind, a, b, leader)) for leader in entering for i, a in enumerate(entering)
             for b in entering[i + 1:] for kind in ("shieldwall", "wedge")]
    allowed = [a for a in every if c03_sequence._ok(GONDOR, g.state, W, a)]
    listed = list(c14_reinforcements.legal_entry_forms(GONDOR, g.state, W))
    assert listed == allowed
    assert {a.args[0] for a in listed} == {"shieldwall", "wedge"}  # both hosts form something
    assert not any(riders[0] in a.args or riders[1] in a.args or leaders[1] in a.args for a in listed)
