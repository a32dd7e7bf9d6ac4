"""Standard Rules: rally (8.3), special formations (8.4), magic (8.5 and
Gondor 17.x), /odds, refusals and rule citations, as Gondor uses them.

Charts (engine/spi/data/standard.toml): Leader Rally Table 5 = 3-7,
8 = 3-10, 9 = 3-11, 13 = automatic; Magic Capabilities Chart by shortfall
1..5 = die 5, 4, 3, 2, 1 or less; Gondor ratings IMR 5, GAN 6, NAZ 5, GOT 4."""
import re
from fractions import Fraction

import pytest

from engine.core import Action, IllegalOrder, InvalidOrder, state_digest
from engine.rulesets.gondor import GONDOR
from tests.spi_checks import drawn, refused
from tests.spi_helpers import fixed_dice, position
from engine.rulesets import get_ruleset
from engine.spi import c07_3_melee
from engine.spi import c07_combat
from engine.spi import c08_3_rally
from engine.spi import c03_sequence

W, S = "westernesse", "sauron"


def unit(g, uid):
    return g.state["units"][uid]


def rally_position(rating=None, **units):
    base = {"IMR": "2516", "GS1": "2516"}
    base.update(units)
    g = position(base, step="H", turn=7)
    if rating is not None:
        g.state["options"]["rally"]["IMR"] = rating
    for uid in base:
        if GONDOR.units[uid].is_combat:
            unit(g, uid)["disrupted"] = True
    return g


# ----------------------------------------------------------------- 8.3 rally
@pytest.mark.parametrize("a,b,ok", [(1, 1, False), (1, 2, True), (5, 6, True), (6, 5, True), (6, 6, False)])
def test_8_37_rating_9_rallies_on_3_to_11(a, b, ok):
    g = rally_position(9)
    n = fixed_dice(g, [a, b])
    _, ev = g.play(W, "rally IMR GS1")
    assert drawn(g, n) == 2 and ev[0].section == "8.37"
    assert f"{a}+{b}={a + b}" in ev[0].public
    assert unit(g, "GS1")["disrupted"] is (not ok)


def test_8_37_rating_option_from_game_new():
    from engine.core import Game
    assert Game.new(get_ruleset("gondor"), options={"rally.IMR": "9"}).state["options"]["rally"] == {"IMR": 9}


@pytest.mark.parametrize("a,b,ok", [(3, 4, True), (4, 4, False)])
def test_8_37_printed_rating_5_rallies_on_3_to_7(a, b, ok):
    g = rally_position()
    fixed_dice(g, [a, b])
    g.play(W, "rally IMR GS1")
    assert unit(g, "GS1")["disrupted"] is (not ok)


def test_8_37_rating_13_rallies_automatically_without_dice():
    g = rally_position(13)
    n = g.state["dice"]["counter"]
    _, ev = g.play(W, "rally IMR GS1")
    assert drawn(g, n) == 0 and "automatic" in ev[0].public and not unit(g, "GS1")["disrupted"]


def test_9_1_a_demoralized_army_rallies_with_one_less():
    g = rally_position(9)
    g.state["dem"]["garrison"] = 36
    assert c08_3_rally.leader_rating(GONDOR, g.state, "IMR") == 8
    fixed_dice(g, [5, 6])  # 11: rating 8 rallies on 3-10 only
    g.play(W, "rally IMR GS1")
    assert unit(g, "GS1")["disrupted"]


def test_8_3_rally_only_in_the_rally_phase():
    g = position({"IMR": "2516", "GS1": "2516"}, step="F", turn=7)
    unit(g, "GS1")["disrupted"] = True
    refused(g, W, "rally IMR GS1", "8.3")


def test_8_3_only_disrupted_units():
    g = rally_position()
    unit(g, "GS1")["disrupted"] = False
    refused(g, W, "rally IMR GS1", "8.3", contains="not Disrupted")


def test_8_3_within_one_hex():
    g = rally_position(GS2="2515", GS3="2514")
    refused(g, W, "rally IMR GS3", "8.3", contains="2 hexes")
    fixed_dice(g, [1, 1])
    g.play(W, "rally IMR GS2")  # adjacent


def test_8_3_three_tries_per_leader_each_unit_once():
    g = rally_position(GS2="2515", GS3="2517", GS4="2615", GAN="2615")
    fixed_dice(g, [1, 1, 1, 1, 1, 1])  # every try fails
    for u in ("GS1", "GS2", "GS3"):
        g.play(W, f"rally IMR {u}")
    refused(g, W, "rally IMR GS4", "8.3", contains="3 rallies")
    refused(g, W, "rally GAN GS2", "8.3", contains="already been tried")
    g.play(W, "rally GAN GS4")


def test_8_3_both_sides_rally_in_the_joint_phase():
    g = rally_position(GOT="3020", OI1="3020")
    unit(g, "OI1")["disrupted"] = True
    fixed_dice(g, [1, 2])
    g.play(S, "rally GOT OI1")
    assert not unit(g, "OI1")["disrupted"]


# ----------------------------------------------------------------- 8.4 formations
def form_position(**extra):
    units = {"IMR": "2516", "GS1": "2516", "GS2": "2515"}
    units.update(extra)
    return position(units, step="F", turn=7)


def test_8_4_form_a_shield_wall():
    g = form_position()
    _, ev = g.play(W, "form shieldwall GS1 GS2 IMR")
    assert ev[0].section == "8.4"
    assert unit(g, "GS2")["hex"] == "2516"
    assert list(g.state["formations"].values()) == [
        {"kind": "shieldwall", "units": ["GS1", "GS2"], "leader": "IMR", "turn": 7}]
    # two combat units in one hex: a formation may (5.0)


def test_8_4_form_conditions():
    g = form_position(GS3="2513", GK1="2616", IMR="2516")
    refused(g, W, "form shieldwall GS1 GS3 IMR", "8.4", contains="next to")
    refused(g, W, "form shieldwall GS2 GS1 IMR", "8.4", contains="stacked")
    refused(g, W, "form shieldwall GS1 GK1 IMR", "8.4", contains="cavalry")
    refused(g, W, "form wedge GS1 GS2 IMR", "8.4", contains="infantry")
    g = position({"IMR": "2712", "GS1": "2712", "GS2": "2711"}, step="F", turn=7)  # rough
    refused(g, W, "form shieldwall GS1 GS2 IMR", "8.4", contains="clear")
    g = position({"IMR": "2516", "GS1": "2516", "GS2": "2515", "OI1": "3020"}, step="G", turn=7)
    refused(g, W, "form shieldwall GS1 GS2 IMR", "8.4")


def test_8_41_dark_power_units_may_not_form():
    g = position({"GOT": "2516", "OI1": "2516", "OI2": "2515"}, step="C", turn=7)
    refused(g, S, "form shieldwall OI1 OI2 GOT", "8.41")


def formed(kind="shieldwall", turn=7, step="F", **extra):
    a, b = ("GS1", "GS2") if kind == "shieldwall" else ("GK1", "GL1")
    units = {"IMR": "2516", a: "2516", b: "2516"}
    units.update(extra)
    g = position(units, step=step, turn=turn)
    g.state["formations"]["F1"] = {"kind": kind, "units": [a, b], "leader": "IMR", "turn": 7}
    g.state["ph"]["must"] = c07_3_melee._obligations(GONDOR, g.state, GONDOR.steps[step].get("side") or W)
    return g


def test_8_4_shield_wall_armor_and_morale_plus_one():
    g = formed(OI1="2517", step="D", turn=8)
    prof = c07_combat.attack_profile(GONDOR, g.state, "OI1", "GS1", "melee")
    assert (prof["armor"], prof["morale"]) == (4, "W")  # GS1 is D-3-X


def test_8_4_wedge_attacks_one_better_but_not_the_turn_it_forms():
    g = formed("wedge", step="G", turn=7, OI1="2517")
    refused(g, W, "melee GK1 at 2517", "8.4", contains="Wedge")
    g = formed("wedge", step="G", turn=8, OI1="2517")
    assert c07_combat.attack_profile(GONDOR, g.state, "GK1", "OI1", "melee")["letter"] == "A"  # GK1 is B
    fixed_dice(g, [6, 6])
    g.play(W, "melee GK1 at 2517")


def test_8_4_formation_members_move_together_at_its_allowance():
    g = formed(turn=8)
    with pytest.raises(IllegalOrder) as e:
        GONDOR.check(g.state, W, Action("move", ("GS1", "2514")))
    assert e.value.section == "8.4"
    refused(g, W, "move GS1 2513", "4.0")  # a shield wall moves 2
    g.play(W, "move GS1 2514")
    assert unit(g, "GS1")["hex"] == unit(g, "GS2")["hex"] == "2514"


def test_8_4_disband():
    g = formed(turn=8, GS3="2615")
    refused(g, W, "disband GS2 2514", "8.4", contains="not next to")
    refused(g, W, "disband GS2 2615", "5.0")
    _, ev = g.play(W, "disband GS2 2515")
    assert ev[0].section == "8.4" and unit(g, "GS2")["hex"] == "2515" and g.state["formations"] == {}


def test_8_4_leaving_a_formation_is_offered_step_by_step():
    """8.4: in its Movement Phase each member not yet moved may leave its formation by one step into a hex
    next to it that holds no combat unit: the `disband` record lists those steps (issue 29: autocomplete
    offers it), and once the formation has moved none is offered."""
    from engine.orders import legal_of

    g = formed(turn=8, GS3="2615")
    offered = [str(a) for a in g.legal_actions(W) if a.verb == "disband"]
    assert "disband GS2 2515" in offered and "disband GS1 2515" in offered
    assert "disband GS2 2615" not in offered and "disband GS2 2514" not in offered  # GS3's hex; two away
    assert offered == [str(a) for a in legal_of(GONDOR.orders["disband"], GONDOR, g.state, W)]
    g.play(W, "move GS1 2514")
    assert not [a for a in g.legal_actions(W) if a.verb == "disband"]


def test_8_4_a_half_loss_reduces_only_the_front_unit_and_the_formation_holds():
    g = formed(OI1="2517", step="D", turn=8)
    fixed_dice(g, [1, 1, 1])  # E vs 4: 2-3; W roll 1: 1/2E
    g.play(S, "melee OI1 at 2516")
    assert unit(g, "GS1")["reduced"] and not unit(g, "GS2")["reduced"]
    assert "F1" in g.state["formations"]


def test_8_4_a_formation_retreats_as_one_and_stays_formed():
    """Ruling (docs/reconstructed.md): a retreat result moves the formation as
    one, both units Disrupted, still formed; it is not eliminated for want of
    a hex that takes two units (7.55 applies only when no hex is legal)."""
    g = formed(OI1="2517", step="D", turn=8)
    fid = next(iter(g.state["formations"]))
    fixed_dice(g, [1, 1, 2])  # W roll 2: r1
    g.play(S, "melee OI1 at 2516")
    while g.state["pending"]:
        p = g.state["pending"][0]
        g.play(p["seat"], f"retreat {p['unit']} {p['options'][0]}")
    assert set(g.state["formations"][fid]["units"]) == {"GS1", "GS2"}
    assert unit(g, "GS1")["status"] == unit(g, "GS2")["status"] == "map"
    assert unit(g, "GS1")["hex"] == unit(g, "GS2")["hex"] != "2516"
    assert unit(g, "GS1")["disrupted"] and unit(g, "GS2")["disrupted"]


def test_8_4_a_loss_falls_on_the_front_unit_and_ends_the_formation_when_it_dies():
    g = formed(OI1="2517", step="D", turn=8)
    front, back = next(iter(g.state["formations"].values()))["units"]
    g.state["units"][front]["reduced"] = True
    fixed_dice(g, [1, 1, 1, 6])  # W roll 1: 1/2E on a reduced front unit: eliminated; leader die 6
    g.play(S, "melee OI1 at 2516")
    assert unit(g, front)["status"] == "eliminated"
    assert unit(g, back)["status"] == "map" and not unit(g, back)["reduced"]
    assert g.state["formations"] == {}


# ----------------------------------------------------------------- 8.5 magic
def magic(step="A-westernesse", turn=7, **units):
    base = {"GAN": "2516", "NAZ": "3020", "GS1": "2516", "OI1": "3020"}
    base.update(units)
    return position(base, step=step, turn=turn)


def test_8_5_full_cost_casts_automatically():
    g = magic()
    n = g.state["dice"]["counter"]
    _, ev = g.play(W, "cast GAN break-darkness")
    assert drawn(g, n) == 0 and unit(g, "GAN")["magic"] == 4 and ev[0].section == "17.21"
    assert g.state["spell_count"] == {"break-darkness": 1}


@pytest.mark.parametrize("points,roll,ok", [(2, 2, True), (2, 3, False), (5, 5, True), (5, 6, False)])
def test_8_5_less_than_full_cost_needs_the_chart_roll(points, roll, ok):
    g = magic()
    fixed_dice(g, [roll])
    _, ev = g.play(W, f"cast GAN break-darkness {points}")
    assert unit(g, "GAN")["magic"] == (10 - points if ok else 10)  # 17.3: a failure costs nothing
    assert bool(g.state["effects"]) is ok
    assert ("fails" in ev[0].public) is (not ok)


def test_17_3_a_failed_attempt_spends_the_phase():
    g = magic()
    fixed_dice(g, [6])
    g.play(W, "cast GAN break-darkness 2")
    refused(g, W, "move GAN 2515", "8.52")
    refused(g, W, "cast GAN break-darkness", "8.5", contains="already")
    g.state["step"] = "E-westernesse"
    g.state["ph"] = c03_sequence._fresh_phase(GONDOR)
    refused(g, W, "cast GAN break-darkness", "8.52", contains="first Magic Leader phase")


def test_8_52_a_leader_that_moved_may_not_cast():
    g = magic()
    g.play(W, "move GAN 2515")
    refused(g, W, "cast GAN break-darkness", "8.52", contains="moved")


def test_8_5_points_limits():
    g = magic()
    unit(g, "GAN")["magic"] = 3
    refused(g, W, "cast GAN break-darkness 5", "8.5", contains="has 3")
    refused(g, W, "cast GAN break-darkness 0", "8.5")
    unit(g, "GAN")["magic"] = 10
    refused(g, W, "cast GAN break-darkness 7", "17.21")
    refused(g, W, "cast GAN fear", "17.11", contains="only by NAZ")


def test_8_5_casting_only_in_magic_phases():
    g = magic(step="F")
    refused(g, W, "cast GAN break-darkness", "8.5")


def test_17_11_fear_twice_a_game():
    g = magic(step="A-sauron")
    g.state["spell_count"]["fear"] = 2
    refused(g, S, "cast NAZ fear", "17.11", contains="2 times")


def test_17_12_freeze_leader_costs_3_then_4():
    g = magic(step="A-sauron")
    g.play(S, "cast NAZ freeze-leader")
    assert unit(g, "NAZ")["magic"] == 5
    g.state["turn"] = 8
    g.state["ph"] = c03_sequence._fresh_phase(GONDOR)
    assert GONDOR.hooks.spell_cost(GONDOR, g.state, "freeze-leader") == 4
    g.play(S, "cast NAZ freeze-leader")
    assert unit(g, "NAZ")["magic"] == 1


def test_17_21_break_darkness_day_only():
    g = magic(turn=3)
    refused(g, W, "cast GAN break-darkness", "17.21", contains="day")


def test_17_11_fear_effects():
    g = magic(step="A-sauron", OI1="2517", GS1="2516")
    g.play(S, "cast NAZ fear")
    att = c07_combat.attack_profile(GONDOR, g.state, "GS1", "OI1", "melee")
    assert att["letter"] == "E"  # D one grade worse
    dfn = c07_combat.attack_profile(GONDOR, g.state, "OI1", "GS1", "melee")
    assert dfn["morale"] == "Y"  # X one grade worse
    g.state["step"], g.state["ph"] = "H", c03_sequence._fresh_phase(GONDOR)
    g.state["units"]["IMR"].update(hex="2516", status="map")
    unit(g, "GS1")["disrupted"] = True
    refused(g, W, "rally IMR GS1", "17.11")


def test_17_21_break_darkness_effects():
    g = magic(TR1="2517", HK1="2518", GS2="2618")
    g.play(W, "cast GAN break-darkness")
    assert c07_combat.attack_profile(GONDOR, g.state, "TR1", "GS1", "melee")["letter"] == "C"  # Mordor: B -> C
    assert c07_combat.attack_profile(GONDOR, g.state, "HK1", "GS2", "melee")["letter"] == "D"  # Harad: unchanged
    g.state["step"], g.state["ph"] = "H", c03_sequence._fresh_phase(GONDOR)
    g.state["units"]["GOT"].update(hex="2517", status="map")
    unit(g, "TR1")["disrupted"] = True
    refused(g, S, "rally GOT TR1", "17.21")


def test_17_21_break_darkness_worsens_an_e_orc_by_the_ruling_below_e():
    """Issue 42: every orc is rated E and the Casualty Probability Table has no grade below E, so Break Darkness
    changed nothing for 32 of Mordor's 39 units while the combat line said "attack -1". Ruling
    (docs/reconstructed.md): each grade below E is +1 on the CPT roll, so the spell lowers an E orc's odds too."""
    g = magic(OI2="2517", GS2="2518")
    before_dist, before = c07_combat.outcome_distribution(GONDOR, g.state, "OI2", "GS2", "melee")
    g.play(W, "cast GAN break-darkness")
    after_dist, after = c07_combat.outcome_distribution(GONDOR, g.state, "OI2", "GS2", "melee")
    assert before["letter"] == after["letter"] == "E" and (before["cpt_mod"], after["cpt_mod"]) == (0, 1)
    assert after_dist.get((), 0) > before_dist.get((), 0)  # more often no casualty
    assert any("below E" in n and "+1 on the Casualty Probability roll" in n for n in after["notes"])
    # the roll itself carries it: 2d6 + 1 against the E column (a total of 4 is the last hit at E against
    # GS2's Armor 3, 2-4 on the reconstructed table; +1 makes it 5: a miss)
    assert max(GONDOR.charts_for(g.state).cpt_hits("E", after["armor"])) == 4
    fixed_dice(g, [3, 1])
    g.state["step"], g.state["ph"] = "D", c03_sequence._fresh_phase(GONDOR)
    g.state["ph"]["segment"] = "melee"
    _, ev = g.play(S, "melee OI2 at 2518")
    assert "3+1+1=5" in ev[0].public and "no casualty" in ev[0].public, ev[0].public


def test_17_11_fear_worsens_an_e_bowman_and_says_so():
    """Issue 42: Fear on an e-rated Westernesse bowman (GB1 e-2-X) printed "attack -1" and changed nothing.
    Ruling: e less one grade is e with +1 on the CPT roll."""
    g = magic(step="A-sauron", GB1="2516", OI2="2416")
    g.play(S, "cast NAZ fear")
    prof = c07_combat.attack_profile(GONDOR, g.state, "GB1", "OI2", "fire")
    assert prof["letter"] == "e" and prof["cpt_mod"] == 1
    # a D unit under the same spell is simply E, with no roll modifier and no ruling note
    prof = c07_combat.attack_profile(GONDOR, g.state, "GS1", "OI1", "melee")
    assert prof["letter"] == "E" and prof["cpt_mod"] == 0 and not any("below" in n for n in prof["notes"])


def test_a_morale_modifier_that_changes_nothing_is_not_printed():
    """Issue 42: "never print a modifier that changed nothing": a Disrupted defender already at Morale Z (the
    worst) is not said to be at Morale -1; one at Y is."""
    g = magic(OI2="2517", GS2="2518", TR1="2519")
    unit(g, "TR1")["disrupted"] = True  # Trolls B-3-Z
    unit(g, "OI2")["disrupted"] = True  # Orc Infantry E-2-Y
    z = c07_combat.attack_profile(GONDOR, g.state, "GS2", "TR1", "melee")
    y = c07_combat.attack_profile(GONDOR, g.state, "GS2", "OI2", "melee")
    assert z["morale"] == "Z" and not any("Disrupted" in n for n in z["notes"])
    assert y["morale"] == "Z" and any("Disrupted: Morale -1" in n for n in y["notes"])


def test_17_12_freeze_leader_within_three_hexes():
    g = position({"NAZ": "2516", "IMR": "2519", "GAN": "2520", "GS1": "2519", "GS2": "2520"},
                 step="A-sauron", turn=7)
    g.play(S, "cast NAZ freeze-leader")
    assert g.state["effects"][0]["frozen"] == ["IMR"]  # 3 hexes; GAN is 4 away
    g.state["step"], g.state["ph"] = "F", c03_sequence._fresh_phase(GONDOR)
    refused(g, W, "move IMR 2520", "17.12")
    g.state["units"]["GS3"].update(hex="2518", status="map")
    refused(g, W, "form shieldwall GS1 GS3 IMR", "17.12")
    g.state["step"], g.state["ph"] = "H", c03_sequence._fresh_phase(GONDOR)
    unit(g, "GS1")["disrupted"] = True
    refused(g, W, "rally IMR GS1", "17.12")


def test_17_12_a_frozen_magic_leader_may_not_cast():
    g = position({"NAZ": "2516", "GAN": "2519", "GS1": "2519"}, step="A-sauron", turn=7)
    g.play(S, "cast NAZ freeze-leader")
    g.state["step"], g.state["ph"] = "E-westernesse", c03_sequence._fresh_phase(GONDOR)
    refused(g, W, "cast GAN break-darkness", "17.12")


def test_17_0_spell_effects_last_one_full_game_turn():
    g = position({"GS1": "2516", "OI1": "3020", "NAZ": "3020"}, step="A-sauron", turn=7)
    g.play(S, "cast NAZ fear")
    # turn 8: still in force in the first magic phase, gone when A-sauron comes again
    g.state.update(turn=8, step="A-westernesse", ph=c03_sequence._fresh_phase(GONDOR))
    assert g.state["effects"]
    g.play(W, "done")
    assert g.state["step"] == "A-sauron" and g.state["effects"] == []


# ----------------------------------------------------------------- /odds
def fractions_in(text):
    return [Fraction(int(a), int(b)) for a, b in re.findall(r"\((\d+)/(\d+)\)", text)]


def test_odds_lists_every_outcome_with_exact_fractions():
    g = position({"GS1": "1516", "OI1": "1517"}, step="G", turn=7)
    before = state_digest(g.state)
    text = GONDOR.odds(g.state, W, "melee GS1 at 1517")
    assert state_digest(g.state) == before
    # D vs 2 hits on 2-6: 15/36; each CRT roll 1/6 of that = 5/72; roll 6 (no effect) joins the misses
    assert "no effect: 65.3% (47/72)" in text
    for res in ("1/2E r2", "1/2E r1", "r2", "r1", "D"):
        assert f"{res}: 6.9% (5/72)" in text
    assert sum(fractions_in(text)) == 1


def test_odds_shows_the_modifiers():
    g = position({"OI1": "1516", "GS1": "2712", "OI2": "2711"}, step="D", turn=3)
    unit(g, "GS1")["disrupted"] = True
    text = GONDOR.odds(g.state, S, "melee OI2 at 2712")
    assert "no CPT (fanatic)" in text and "fanatical at night (10.0)" in text
    assert "defender in rough: Armor Protection +1 (4.3)" in text
    assert "defender Disrupted: Morale -1 (7.57)" in text
    assert sum(fractions_in(text)) == 1
    # bypassing the CPT: X -> Y (disrupted); every roll has its sixth
    assert "1/2E r2: 16.7% (1/6)" in text


def test_odds_refuses_other_orders():
    g = position({"GS1": "1516", "OI1": "1517"}, step="G", turn=7)
    with pytest.raises(InvalidOrder):
        GONDOR.odds(g.state, W, "move GS1 1515")
    with pytest.raises(InvalidOrder):
        GONDOR.odds(g.state, W, "duel IMR GOT")


# ----------------------------------------------------------------- refusals and citations
@pytest.mark.parametrize("order", ["melee GS1 1517", "fire at", "cast GAN", "form square GS1 GS2 IMR",
                                   "rally IMR", "move", "retreat GS1", "frobnicate"])
def test_malformed_orders_are_invalid_and_change_nothing(order):
    g = position({"GS1": "1516", "OI1": "1517", "IMR": "1516"}, step="G", turn=7)
    before = state_digest(g.state)
    with pytest.raises(InvalidOrder):
        g.play(W, order)
    assert state_digest(g.state) == before


def test_every_adjudication_event_cites_its_case():
    g = position({"GS1": "1516", "GB1": "1515", "IMR": "1516", "OI1": "1517", "GOT": "1517",
                  "OI2": "2020", "GAN": "1416"}, step="G", turn=7)
    fixed_dice(g, [6, 6, 1, 1, 1, 4, 1, 1])
    events = []
    for seat, order in [(W, "fire GB1 at 1517"), (W, "duel IMR GOT"), (W, "melee GS1 at 1517")]:
        events += g.play(seat, order)[1]
    p = g.state["pending"]
    assert p, "the melee was set up to end in a retreat"
    events += g.play(S, f"retreat OI1 {p[0]['options'][0]}")[1]
    events += g.play(W, "advance GS1 1517")[1]
    g.play(W, "done")
    unit(g, "OI1")["disrupted"] = True
    events += g.play(S, "rally GOT OI1")[1] if unit(g, "GOT")["status"] == "map" else []
    g.state.update(turn=8, step="A-westernesse", ph=c03_sequence._fresh_phase(GONDOR), done=[])
    events += g.play(W, "move GAN 1415")[1]
    g.state["ph"] = c03_sequence._fresh_phase(GONDOR)
    events += g.play(W, "cast GAN break-darkness")[1]
    adjudications = [e for e in events if re.search(r"^(Westernesse|Sauron): ", e.public)]
    assert len(adjudications) >= 7
    assert all(e.section for e in adjudications), [e.public for e in adjudications if not e.section]
