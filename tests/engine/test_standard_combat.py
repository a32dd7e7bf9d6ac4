"""Standard Rules combat (7.0-7.5), leader combat (7.2), leaders caught in
their unit's losses (8.24-style), demoralization (9.1) and night (10.0).

Charts used (engine/spi/data/standard.toml), read from the rule, not the code:
CPT D vs Armor 2 hits on 2-6, D vs 1 on 2-7, E vs 3 on 2-4, e vs 2 on 2-5;
CRT Y = 1/2E r2, 1/2E r1, r2, r1, D, -; X = 1/2E r1, r2, r1, D, -, -;
Z = E, 1/2E r2, 1/2E r1, r2, r1, D; W = 1/2E, r1, D, -, -, -.
Demoralization values (9.12, reconstructed): letter (A5..E1) + Armor +
Morale (W4..Z1): OI E-2-Y = 5, LO E-1-Z = 3, GS D-3-X = 8."""
import pytest

from engine.core import Game
from engine.hexgrid import distance
from engine.rulesets.gondor import GONDOR
from tests.spi_checks import drawn, refused
from tests.spi_helpers import fixed_dice, position
from engine.rulesets import get_ruleset
from engine.spi import c07_combat
from engine.spi import c08_3_rally

W, S = "westernesse", "sauron"


def unit(g, uid):
    return g.state["units"][uid]


# ----------------------------------------------------------------- 7.33 CPT
@pytest.mark.parametrize("a,b,hit", [(1, 1, True), (3, 3, True), (2, 4, True), (3, 4, False), (6, 6, False)])
def test_7_33_cpt_two_dice_d_against_armor_2_hits_on_2_to_6(a, b, hit):
    g = position({"GS1": "1516", "OI1": "1517"}, step="G", turn=7)
    n = fixed_dice(g, [a, b, 5])  # a CRT roll of 5 on Y is D
    _, ev = g.play(W, "melee GS1 at 1517")
    assert f"{a}+{b}={a + b}, {'casualty' if hit else 'no casualty'} (7.33)" in ev[0].public
    assert drawn(g, n) == (3 if hit else 2)
    assert unit(g, "OI1")["disrupted"] is hit


def test_7_33_a_roll_of_10_never_causes_a_casualty():
    # the best letter against the weakest armor: B vs 1 hits on 2-9, not on 10
    g = position({"GX1": "1516", "LO1": "1517"}, step="G", turn=7)
    fixed_dice(g, [4, 6, 1])
    _, ev = g.play(W, "melee GX1 at 1517")
    assert "4+6=10, no casualty" in ev[0].public
    assert unit(g, "LO1")["status"] == "map" and not unit(g, "LO1")["disrupted"]
    ch = GONDOR.charts
    assert all(not ({10, 11, 12} & ch.cpt_hits(x, arm)) for x in "ABCDE" for arm in range(1, 5))


# ----------------------------------------------------------------- 7.42 CRT, each result
def test_7_42_d_disrupts_in_place():
    g = position({"GS1": "1516", "OI1": "1517"}, step="G", turn=7)
    fixed_dice(g, [1, 1, 5])
    g.play(W, "melee GS1 at 1517")
    assert unit(g, "OI1")["hex"] == "1517" and unit(g, "OI1")["disrupted"] and not g.state["pending"]
    assert g.state["dem"]["sauron"] == 0


def test_7_42_roll_6_on_y_is_no_effect():
    g = position({"GS1": "1516", "OI1": "1517"}, step="G", turn=7)
    fixed_dice(g, [1, 1, 6])
    _, ev = g.play(W, "melee GS1 at 1517")
    assert "CRT Morale Y: 6, no effect" in ev[0].public
    assert unit(g, "OI1") == {"hex": "1517", "status": "map", "reduced": False, "disrupted": False, "dem_paid": 0}


def test_7_42_r1_retreat_chosen_by_the_owner():
    g = position({"GS1": "1516", "OI1": "1517"}, step="G", turn=7)
    fixed_dice(g, [1, 1, 4])
    g.play(W, "melee GS1 at 1517")
    # one hex, each farther from the attacker in 1516: 1417, 1518, 1617
    p = g.state["pending"]
    assert p and p[0]["seat"] == S and p[0]["options"] == ["1417", "1518", "1617"]
    assert unit(g, "OI1")["disrupted"]  # a retreat result disrupts (7.57)
    assert g.active_seats() == [S]
    refused(g, W, "done", "7.5", contains="waiting for Sauron")
    refused(g, S, "move OI1 1518", "7.5", contains="first choose")
    refused(g, S, "retreat OI1 1516", "7.5")
    refused(g, S, "retreat OI1 1619", "7.5")  # two hexes away
    _, ev = g.play(S, "retreat OI1 1518")
    assert unit(g, "OI1")["hex"] == "1518" and ev[0].section == "7.5"
    assert not g.state["pending"]
    # 7.5: the attacker may now advance into the vacated hex
    assert g.state["ph"]["advance"] == {"seat": W, "units": ["GS1"], "hex": "1517"}
    g.play(W, "advance GS1 1517")
    assert unit(g, "GS1")["hex"] == "1517"


def test_7_42_r2_retreats_two_hexes():
    g = position({"GS1": "1516", "OI1": "1517"}, step="G", turn=7)
    fixed_dice(g, [1, 1, 3])
    g.play(W, "melee GS1 at 1517")
    opts = g.state["pending"][0]["options"]
    assert opts and all(distance(o, "1516") == 3 and distance(o, "1517") == 2 for o in opts)
    g.play(S, "retreat OI1 " + opts[0])
    assert unit(g, "OI1")["hex"] == opts[0]


@pytest.mark.parametrize("roll,hexes", [(1, 2), (2, 1)])
def test_7_42_half_eliminated_and_retreat(roll, hexes):
    g = position({"GS1": "1516", "OI1": "1517"}, step="G", turn=7)
    fixed_dice(g, [1, 1, roll])
    g.play(W, "melee GS1 at 1517")
    rec = unit(g, "OI1")
    assert rec["reduced"] and rec["disrupted"] and rec["status"] == "map"
    assert g.state["dem"]["sauron"] == 3  # half of 5, rounded up (9.1)
    assert g.state["pending"][0]["hexes"] == hexes
    # the reduced side: one grade worse (E stays E, Y becomes Z)
    assert str(GONDOR.hooks.ratings(GONDOR, g.state, "OI1")) == "E-2-Z"


def test_7_42_e_eliminates():
    g = position({"GS1": "1516", "LO1": "1517"}, step="G", turn=7)
    fixed_dice(g, [1, 1, 1])  # D vs 1: 2-7; Z roll 1: E
    g.play(W, "melee GS1 at 1517")
    assert unit(g, "LO1")["status"] == "eliminated" and unit(g, "LO1")["hex"] is None
    assert g.state["dem"]["sauron"] == 3


def test_7_42_a_reduced_unit_hit_by_half_elimination_is_eliminated():
    g = position({"GS1": "1516", "OI1": "1517"}, step="G", turn=7)
    unit(g, "OI1").update(reduced=True, dem_paid=3)
    g.state["dem"]["sauron"] = 3
    fixed_dice(g, [1, 1, 2])  # reduced OI1 is E-2-Z; Z roll 2: 1/2E r2
    g.play(W, "melee GS1 at 1517")
    assert unit(g, "OI1")["status"] == "eliminated"
    assert g.state["dem"]["sauron"] == 5  # the rest of its value (9.1)
    assert not g.state["pending"]


def test_7_57_half_elimination_without_retreat_does_not_disrupt():
    g = position({"CG1": "1516", "OI1": "1517"}, step="D", turn=7)
    fixed_dice(g, [1, 1, 1])  # E vs 3: 2-4; W roll 1: 1/2E alone
    g.play(S, "melee OI1 at 1516")
    rec = unit(g, "CG1")
    assert rec["reduced"] and not rec["disrupted"] and rec["hex"] == "1516"
    assert g.state["dem"]["garrison"] == 5  # CG1 D-3-W = 2+3+4 = 9, half rounded up


def test_7_55_no_legal_retreat_eliminates():
    # GS2 and GS3 cover 1417, 1518 and 1617 with their zones of control
    g = position({"GS1": "1516", "OI1": "1517", "GS2": "1418", "GS3": "1618"}, step="G", turn=7)
    fixed_dice(g, [1, 1, 4])
    _, ev = g.play(W, "melee GS1 at 1517")
    assert "cannot retreat 1 hex and is eliminated (7.55)" in ev[0].public
    assert unit(g, "OI1")["status"] == "eliminated" and g.state["dem"]["sauron"] == 5
    assert not g.state["pending"]


def test_7_5_only_option_retreats_automatically():
    g = position({"GS1": "1516", "OI1": "1517", "OI2": "1417", "OI3": "1617"}, step="G", turn=7)
    fixed_dice(g, [1, 1, 4])
    _, ev = g.play(W, "melee GS1 at 1517")
    assert unit(g, "OI1")["hex"] == "1518" and not g.state["pending"]
    assert "retreats to 1518 (7.5)" in ev[0].public
    assert g.state["ph"]["advance"]["units"] == ["GS1"]


def test_7_5_advance_only_by_attackers_and_lapses_with_the_next_order():
    g = position({"GS1": "1516", "GS2": "1616", "OI1": "1517", "OI2": "1716"}, step="G", turn=7)
    fixed_dice(g, [1, 1, 4])
    g.play(W, "melee GS1 at 1517")
    assert g.state["pending"][0]["options"] == ["1417", "1518"]  # 1617 is in GS2's zone
    g.play(S, "retreat OI1 1518")
    refused(g, W, "advance GS2 1517", "7.5", contains="only GS1")
    refused(g, W, "advance GS1 1516", "7.5")
    fixed_dice(g, [6, 6])
    g.play(W, "melee GS2 at 1716")  # another order: the chance to advance lapses
    refused(g, W, "advance GS1 1517", "7.5")


# ----------------------------------------------------------------- 7.1 missile fire
def test_7_12_range_two_counting_the_target_hex():
    g = position({"GB1": "1514", "OI1": "1516", "OI2": "1517"}, step="G", turn=7)
    assert distance("1514", "1516") == 2 and distance("1514", "1517") == 3
    refused(g, W, "fire GB1 at 1517", "7.12")
    fixed_dice(g, [1, 1, 5])  # e vs 2: 2-5
    _, ev = g.play(W, "fire GB1 at 1516")
    assert ev[0].section == "7.1" and unit(g, "OI1")["disrupted"]
    refused(g, W, "fire GB1 at 1516", "7.1", contains="already fired")


def test_7_1_no_missile_rating_no_fire():
    g = position({"GS1": "1516", "OI1": "1517"}, step="G", turn=7)
    refused(g, W, "fire GS1 at 1517", "7.1", contains="no missile rating")


def test_7_1_disrupted_units_may_not_fire_or_melee():
    g = position({"GA1": "1516", "OI1": "1517"}, step="G", turn=7)
    unit(g, "GA1")["disrupted"] = True
    refused(g, W, "fire GA1 at 1517", "7.1", contains="Disrupted")
    refused(g, W, "melee GA1 at 1517", "7.3", contains="Disrupted")


def test_7_0_fire_then_duel_then_melee():
    g = position({"GA1": "1516", "IMR": "1516", "OI1": "1517", "GOT": "1517", "GB1": "1514"},
                 step="G", turn=7)
    fixed_dice(g, [6, 6, 6, 6])
    g.play(W, "fire GA1 at 1517")  # a unit with both ratings fires, then may melee
    g.play(W, "melee GA1 at 1517")
    refused(g, W, "fire GB1 at 1517", "7.0")
    refused(g, W, "duel IMR GOT", "7.0")
    g2 = position({"IMR": "1516", "GS1": "1516", "GOT": "1517", "OI1": "1517", "GB1": "1514"},
                  step="G", turn=7)
    fixed_dice(g2, [1])
    g2.play(W, "duel IMR GOT")
    refused(g2, W, "fire GB1 at 1517", "7.0")


def test_7_1_fire_only_in_the_combat_phase_and_by_the_phasing_side():
    g = position({"GB1": "1514", "OI1": "1516"}, step="F", turn=7)
    refused(g, W, "fire GB1 at 1516", "7.1")
    g = position({"GB1": "1514", "OA1": "1516"}, step="G", turn=7)
    refused(g, S, "fire OA1 at 1514", "7.0")  # the Westernesse Combat Phase


# ----------------------------------------------------------------- 7.3 melee
def test_7_31_melee_needs_contact():
    g = position({"GS1": "1516", "OI1": "1518"}, step="G", turn=7)
    refused(g, W, "melee GS1 at 1518", "7.31", contains="not in contact")


def test_7_31_no_melee_through_a_wall():
    g = position({"GS1": "1708", "OI1": "1709"}, step="D", turn=7)
    refused(g, S, "melee OI1 at 1708", "7.31")
    assert g.state["ph"]["must"] == []  # no contact, no obligation
    g.play(S, "done")


def test_7_31_one_attack_per_unit_per_phase():
    g = position({"GS1": "1516", "OI1": "1517"}, step="G", turn=7)
    fixed_dice(g, [6, 6])
    g.play(W, "melee GS1 at 1517")
    refused(g, W, "melee GS1 at 1517", "7.31", contains="already attacked")


def test_7_31_a_unit_that_began_in_an_enemy_zoc_must_attack():
    g = position({"GS1": "1516", "OI1": "1517", "GS2": "2516"}, step="G", turn=7)
    assert g.state["ph"]["must"] == ["GS1"]
    refused(g, W, "done", "7.31", contains="GS1")
    fixed_dice(g, [6, 6])
    g.play(W, "melee GS1 at 1517")
    g.play(W, "done")
    assert g.state["step"] == "H"


# ----------------------------------------------------------------- 7.2 leader combat
@pytest.mark.parametrize("roll,lost", [(1, 0), (2, 0), (3, 1), (4, 1), (5, 2), (6, 2)])
def test_7_25_differential_plus_one_harms_the_defender_at_no_risk(roll, lost):
    g = position({"IMR": "1516", "GS1": "1516", "GOT": "1517", "OI1": "1517"}, step="G", turn=7)
    assert c08_3_rally.leader_rating(GONDOR, g.state, "IMR") - c08_3_rally.leader_rating(GONDOR, g.state, "GOT") == 1
    fixed_dice(g, [roll])
    _, ev = g.play(W, "duel IMR GOT")
    assert ev[0].section == "7.25" and f"differential +1, die {roll}" in ev[0].public
    assert unit(g, "IMR")["rally_lost"] == 0
    assert unit(g, "GOT")["rally_lost"] == lost
    assert g.state["dem"]["sauron"] == lost  # 19.2
    assert g.state["dem"]["garrison"] == 0


@pytest.mark.parametrize("roll", range(1, 7))
def test_7_25_differential_minus_two_does_nothing(roll):
    g = position({"GAN": "1516", "GS1": "1516", "GOT": "1517", "OI1": "1517"}, step="D", turn=7)
    fixed_dice(g, [roll])
    _, ev = g.play(S, "duel GOT GAN")
    assert "differential -2" in ev[0].public and "no effect" in ev[0].public
    assert unit(g, "GOT")["rally_lost"] == 0 and unit(g, "GAN")["rally_lost"] == 0


def test_7_25_a_leader_reduced_to_zero_is_killed():
    g = position({"IMR": "1516", "GS1": "1516", "GOT": "1517", "OI1": "1517"}, step="G", turn=7)
    unit(g, "GOT")["rally_lost"] = 2  # GOT now rates 2: differential +3
    g.state["dem"]["sauron"] = 2
    fixed_dice(g, [3])  # +3, die 3: -/2
    _, ev = g.play(W, "duel IMR GOT")
    assert unit(g, "GOT")["status"] == "eliminated" and unit(g, "GOT")["hex"] is None
    assert "killed" in ev[0].public
    assert g.state["dem"]["sauron"] == 4


def test_7_24_one_leader_combat_per_leader_per_phase():
    g = position({"IMR": "1516", "GS1": "1516", "GOT": "1517", "OI1": "1517"}, step="G", turn=7)
    fixed_dice(g, [1])
    g.play(W, "duel IMR GOT")
    refused(g, W, "duel IMR GOT", "7.24")


def test_7_2_leader_combat_needs_adjacency():
    g = position({"IMR": "1516", "GS1": "1516", "GOT": "1518", "OI1": "1518"}, step="G", turn=7)
    refused(g, W, "duel IMR GOT", "7.2")
    refused(g, W, "duel GS1 GOT", "7.2", contains="not a leader")


# ----------------------------------------------------------------- leaders caught (8.24-style)
def test_leader_caught_in_half_elimination_loses_half_and_retreats_with_the_unit():
    g = position({"GS1": "1516", "OI1": "1517", "GOT": "1517"}, step="G", turn=7)
    fixed_dice(g, [1, 1, 2, 6])  # 1/2E r1; caught on 6
    _, ev = g.play(W, "melee GS1 at 1517")
    assert "GOT caught in the result (die 6)" in ev[0].public
    assert unit(g, "GOT")["rally_lost"] == 2  # half of 4
    assert g.state["dem"]["sauron"] == 3 + 2
    opt = g.state["pending"][0]["options"][0]
    g.play(S, f"retreat OI1 {opt}")
    assert unit(g, "GOT")["hex"] == opt == unit(g, "OI1")["hex"]


def test_leader_not_caught_on_1_to_4():
    g = position({"GS1": "1516", "OI1": "1517", "GOT": "1517"}, step="G", turn=7)
    fixed_dice(g, [1, 1, 2, 4])
    _, ev = g.play(W, "melee GS1 at 1517")
    assert "GOT unharmed (die 4)" in ev[0].public and unit(g, "GOT")["rally_lost"] == 0


def test_leader_caught_in_elimination_is_killed():
    g = position({"GS1": "1516", "LO1": "1517", "GOT": "1517", "OI2": "1520"}, step="G", turn=7)
    fixed_dice(g, [1, 1, 1, 5])  # E; caught on 5: the whole rating
    g.play(W, "melee GS1 at 1517")
    assert unit(g, "GOT")["status"] == "eliminated"
    assert g.state["dem"]["sauron"] == 3 + 4


def test_8_1_a_leader_left_alone_goes_to_the_nearest_friendly_unit():
    g = position({"GS1": "1516", "LO1": "1517", "GOT": "1517", "OI2": "1520", "OI3": "1513"},
                 step="G", turn=7)
    assert distance("1517", "1520") == 3 and distance("1517", "1513") == 4
    fixed_dice(g, [1, 1, 1, 1])  # E; the leader escapes (die 1)
    _, ev = g.play(W, "melee GS1 at 1517")
    assert unit(g, "GOT")["hex"] == "1520"
    assert "(8.1)" in ev[0].public


# ----------------------------------------------------------------- 9.1 demoralization
@pytest.mark.parametrize("uid,value", [("GS1", 8), ("OA1", 7), ("GB1", 6), ("GL1", 11), ("TR1", 8),
                                       ("MU1", 9), ("LO1", 3), ("CG1", 9), ("RA1", 10)])
def test_9_12_demoralization_values(uid, value):
    # letter (better of melee and missile: A5..E1) + Armor + Morale (W4..Z1)
    assert GONDOR.charts.demoralization_value(GONDOR.units[uid].ratings) == value


def test_9_1_losses_count_against_their_own_army():
    g = position({"OI1": "1516", "RH1": "1517"}, step="D", turn=7)
    fixed_dice(g, [1, 1, 1])  # E vs 3: 2-4; X roll 1: 1/2E r1
    g.play(S, "melee OI1 at 1517")
    assert g.state["dem"] == {"garrison": 0, "reinforcements": 5, "sauron": 0}  # RH1 B-3-X = 10


@pytest.mark.parametrize("army,level", [("garrison", 36), ("reinforcements", 76), ("sauron", 93)])
def test_19_1_demoralization_levels(army, level):
    g = position({}, step="G", turn=7)
    g.state["dem"][army] = level - 1
    assert not GONDOR.hooks.demoralized(GONDOR, g.state, army)
    g.state["dem"][army] = level
    assert GONDOR.hooks.demoralized(GONDOR, g.state, army)


def test_9_1_a_demoralized_army_defends_one_morale_worse():
    g = position({"GS1": "1516", "OI1": "1517"}, step="G", turn=7)
    assert c07_combat.attack_profile(GONDOR, g.state, "GS1", "OI1", "melee")["morale"] == "Y"
    g.state["dem"]["sauron"] = 93
    prof = c07_combat.attack_profile(GONDOR, g.state, "GS1", "OI1", "melee")
    assert prof["morale"] == "Z" and any("(9.1)" in n for n in prof["notes"])


def test_7_57_a_disrupted_defender_defends_one_morale_worse():
    g = position({"GS1": "1516", "OI1": "1517"}, step="G", turn=7)
    unit(g, "OI1")["disrupted"] = True
    assert c07_combat.attack_profile(GONDOR, g.state, "GS1", "OI1", "melee")["morale"] == "Z"


# ----------------------------------------------------------------- 10.0 night
def test_10_0_orcs_are_fanatical_at_night_and_skip_the_cpt():
    g = position({"OI1": "1516", "GS1": "1517"}, step="D", turn=3)
    n = fixed_dice(g, [4])  # no CPT: the only die is the CRT, X roll 4: D
    _, ev = g.play(S, "melee OI1 at 1517")
    assert drawn(g, n) == 1
    assert "fanatical" in ev[0].public and "CPT" not in ev[0].public.split("fanatical")[1]
    assert unit(g, "GS1")["disrupted"]


def test_10_0_not_at_day_and_not_for_men():
    g = position({"OI1": "1516", "GS1": "1517"}, step="D", turn=7)
    n = fixed_dice(g, [6, 6])
    g.play(S, "melee OI1 at 1517")
    assert drawn(g, n) == 2  # the CPT is rolled by day
    g = position({"HA1": "1516", "GS1": "1517"}, step="D", turn=3)
    assert not c07_combat.attack_profile(GONDOR, g.state, "HA1", "GS1", "melee")["bypass_cpt"]


def test_7_37_fanatic_modifiers_mode():
    opts = Game.new(get_ruleset("gondor"), options={"charts": '[fanatic]\nmode = "modifiers"\n'}).state["options"]
    g = position({"OI1": "1516", "GS1": "1517", "OA1": "1515"}, step="D", turn=3)
    g.state["options"] = opts
    prof = c07_combat.attack_profile(GONDOR, g.state, "OI1", "GS1", "melee")
    assert (prof["letter"], prof["morale"], prof["bypass_cpt"]) == ("D", "Y", False)
    fire = c07_combat.attack_profile(GONDOR, g.state, "OA1", "GS1", "fire")  # melee only
    assert (fire["letter"], fire["morale"], fire["bypass_cpt"]) == ("e", "X", False)
