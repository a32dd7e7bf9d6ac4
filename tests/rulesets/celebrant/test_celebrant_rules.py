"""Field of Celebrant (seed 003, living version 1.33): one test per case of the
exclusive rules and per Standard Rules amendment it lists. Each test names its
case and would fail if the rule were wrong.

``pos(...)`` builds a position past the set-up (the other test files import it)."""
import pytest

from engine.core import Game, IllegalOrder, InvalidOrder, state_digest
from engine.hexgrid import Hex
from engine.rulesets.celebrant import CELEBRANT as RS
from tests.spi_checks import refused
from tests.spi_helpers import fixed_dice
from engine.rulesets import get_ruleset
from engine.rulesets.celebrant import c19_demoralization
from engine.spi import c04_movement
from engine.spi import c06_zoc
from engine.spi import c07_3_melee
from engine.spi import c07_5_retreat
from engine.spi import c07_combat
from engine.spi import c08_3_rally
from engine.spi import hooks
from engine.spi import c03_sequence


def pos(units: dict[str, str], step: str = "B", turn: int = 1, seed: str = "t", chits=("6 NW", "0"),
        options: dict | None = None, **cel) -> Game:
    """A Celebrant game past its set-up: the units named where given, every
    other counter off the map (reinforcements still to come), Gondor in good
    order unless ``disarray=True``; Eotheod chits drawn as ``chits``."""
    g = Game(RS, RS.new_game(dict(options or {}), seed))
    st = g.state
    for uid, rec in st["units"].items():
        if rec["status"] == "out":
            continue
        rec["hex"] = None
        rec["status"] = "reinforcement" if RS.units[uid].setup == "reinforcement" else "out"
    for uid, hx in units.items():
        st["units"][uid].update(hex=hx, status="map")
    st["turn"], st["step"], st["done"] = turn, step, []
    st["ph"] = c03_sequence._fresh_phase(RS)
    st["hidden"]["chits"] = {"westernesse": chits[0], "shadow": chits[1]}
    st["cel"]["disarray"] = False
    st["cel"].update(cel)
    if RS.steps[step].get("kind") == "combat":
        st["ph"]["must"] = c07_3_melee._obligations(RS, st, RS.steps[step]["side"])
    return g


def nb(hx: str, d: str) -> str:
    return str(Hex.parse(hx).neighbour(d))


def texts(events) -> str:
    return " ".join(e.public for e in events)


# ---------------------------------------------------------------- 3.0, 12.0
def test_3_0_sequence_of_play_reinforcement_west_move_combat_shadow_move_combat_rally_shadow_first():
    g = pos({"GS1": "2820", "OI1": "2520"}, step="A-shadow", turn=14)
    seen = []
    for _ in range(9):
        seat = g.active_seats()[0]
        seen.append((g.state["turn"], g.state["step"], seat))
        g.play(seat, "done")
    assert [(s, a) for _, s, a in seen[:8]] == [
        ("A-shadow", "shadow"), ("A-westernesse", "westernesse"), ("B", "westernesse"), ("C", "westernesse"),
        ("D", "shadow"), ("E", "shadow"), ("F-shadow", "shadow"), ("F-westernesse", "westernesse")]
    assert seen[8][:2] == (15, "A-shadow")


def test_12_0_eighteen_turns_fifteen_to_eighteen_at_night_then_a_graded_result():
    assert RS.sequence["turns"] == 18 and RS.sequence["night_turns"] == [15, 16, 17, 18]
    g = pos({"GS1": "2820", "OI1": "2520"}, step="F-westernesse", turn=18)
    g.state["dem"].update(orcs=10, gondor=4)
    g.play("westernesse", "done")
    r = g.result()
    assert r is not None and r.winner == "westernesse" and "Marginal Victory (20.3)" in r.summary
    assert "eighteen Game-Turns are over (12.0)" in r.summary


# ------------------------------------------------------------------- 2.41
def test_2_41_captain_numbers_have_no_effect_on_play():
    assert [RS.units[c].name for c in ("GC1", "GC2", "GC3")] == [
        "Gondorian Captain 1", "Gondorian Captain 2", "Gondorian Captain 3"]
    g = pos({"GC1": "2820", "GC2": "2920", "GC3": "2720"})
    assert {c08_3_rally.leader_rating(RS, g.state, c) for c in ("GC1", "GC2", "GC3")} == {5}
    assert {RS.units[c].ability for c in ("GC1", "GC2", "GC3")} == {"form-up"}


# ------------------------------------------------------------- 4.27 and 8.1
def test_4_27_combat_unit_enters_a_hex_of_lone_enemy_leaders_who_fly_to_their_own_army_8_1():
    # OC1 alone in 2820; the nearest Shadow unit is a Balchoth unit, but the orc leader joins the orcs
    g = pos({"GS1": "2920", "OC1": "2820", "BS1": "2620", "OI1": "2420"}, step="B")
    _, ev = g.play("westernesse", "move GS1 2820")
    assert g.state["units"]["GS1"]["hex"] == "2820"
    assert g.state["units"]["OC1"]["hex"] == "2420"
    assert "(8.1)" in texts(ev)


def test_4_27_leaders_alone_may_not_enter_a_hex_of_enemy_leaders():
    g = pos({"CIR": "2920", "OC1": "2820", "OI1": "2420"}, step="B")
    refused(g, "westernesse", "move CIR 2820", "4.27")


def test_8_1_leaders_need_not_stack_with_a_combat_unit():
    g = pos({"CIR": "2920", "GS1": "2820"}, step="B")
    g.play("westernesse", "move CIR 3020")
    assert g.state["units"]["CIR"]["hex"] == "3020"


# ------------------------------------------------------------------- 7.12
def test_7_12_foot_archers_reach_three_hexes_mounted_archers_two():
    g = pos({"GB1": "2820", "OI1": "2823", "EA1": "3020", "OI2": "3023", "OI3": "2824"}, step="C")
    refused(g, "westernesse", "fire GB1 at 2824", "7.12")      # four hexes
    g.play("westernesse", "fire GB1 at 2823")                  # three hexes
    refused(g, "westernesse", "fire EA1 at 3023", "7.12")      # mounted: three is too far
    assert RS.hooks.missile_range(RS, g.state, "EA1") == 2 and RS.hooks.missile_range(RS, g.state, "GB1") == 3


# ------------------------------------------------------------------- 7.31
def test_7_31_a_unit_adjacent_but_not_in_the_enemy_zoc_may_attack():
    # OI1 in the watchtower (16.11: no ZOC out of it): GS1 next to it is in no ZOC, yet may attack it
    g = pos({"GS1": "4108", "OI1": "4208"}, step="C")
    assert not c06_zoc.exerting(RS, g.state, Hex.parse("4108"), "westernesse")
    g.play("westernesse", "melee GS1 at 4208")
    assert "GS1" in g.state["ph"]["meleed"]


def test_7_31_a_unit_in_an_enemy_zoc_must_still_attack_a_unit_exerting_it():
    g = pos({"GS1": "4108", "OI1": "4208", "OI2": "4107"}, step="C")
    assert g.state["ph"]["must"] == ["GS1"]
    refused(g, "westernesse", "melee GS1 at 4208", "7.31")
    refused(g, "westernesse", "done", "7.31")
    g.play("westernesse", "melee GS1 at 4107")


# ------------------------------------------------------------------- 7.37
def test_7_37_fanatics_keep_the_cpt_with_attack_plus_one_and_defender_morale_minus_one_melee_only():
    g = pos({"OCH": "2520", "OI1": "2720", "GS1": "2820", "OA1": "2620"}, step="E")
    g.state["effects"].append({"ability": "blood-lust", "leader": "OCH", "units": ["OI1", "OA1"],
                               "title": "Blood Lust", "section": "17.71", "turn": 1})
    p = c07_combat.attack_profile(RS, g.state, "OI1", "GS1", "melee")
    assert (p["letter"], p["morale"], p["bypass_cpt"]) == ("D", "Y", False)  # E->D, X->Y, CPT kept
    f = c07_combat.attack_profile(RS, g.state, "OA1", "GS1", "fire")
    assert (f["letter"], f["morale"]) == ("e", "X")  # missile fire resolved normally


# ------------------------------------------------------------------- 8.24
def test_8_24_leader_retreats_with_its_unit():
    g = pos({"ER1": "2820", "OI1": "2720", "OC1": "2720", "OI9": "2420"}, step="C")
    fixed_dice(g, [1, 1, 5])  # CPT hit, CRT Z 5: r1
    g.play("westernesse", "melee ER1 at 2720")
    if g.state["pending"]:
        g.play("shadow", f"retreat OI1 {g.state['pending'][0]['options'][0]}")
    assert g.state["units"]["OC1"]["hex"] == g.state["units"]["OI1"]["hex"] != "2720"


def test_8_24_leader_survives_on_1_to_4_and_joins_the_nearest_unit_of_its_army():
    g = pos({"ER1": "2820", "OI1": "2720", "OC1": "2720", "BS1": "2620", "OI9": "2420"}, step="C")
    fixed_dice(g, [1, 1, 1, 3])  # CPT hit, CRT Z 1: E; the leader's die 3: unharmed
    _, ev = g.play("westernesse", "melee ER1 at 2720")
    assert g.state["units"]["OI1"]["status"] == "eliminated"
    assert g.state["units"]["OC1"]["hex"] == "2420" and g.state["units"]["OC1"]["rally_lost"] == 0
    assert "unharmed (die 3)" in texts(ev)


def test_8_24_leader_suffers_the_same_result_on_5_or_6():
    g = pos({"ER1": "2820", "OI1": "2720", "OC1": "2720", "OI9": "2420"}, step="C")
    fixed_dice(g, [1, 1, 1, 5])
    g.play("westernesse", "melee ER1 at 2720")
    assert g.state["units"]["OC1"]["status"] == "eliminated"
    assert g.state["dem"]["orcs"] == 1 + 4  # the counter's printed 1 (9.12) and 4 Rally Points (19.2)


# ------------------------------------------------------------------- 8.38
def test_8_38_rally_shadow_first_leaders_move_up_to_three_mp_before_rallying():
    g = pos({"OC1": "2520", "OI1": "2820", "CIR": "1520", "GS1": "1820"}, step="F-shadow")
    g.state["units"]["OI1"]["disrupted"] = True
    g.state["units"]["GS1"]["disrupted"] = True
    assert g.active_seats() == ["shadow"]
    refused(g, "westernesse", "rally CIR GS1", "8.38")
    refused(g, "shadow", "move OC1 2920", "4.0")  # four hexes: more than 3 MP
    g.play("shadow", "move OC1 2720")
    fixed_dice(g, [1, 2])
    g.play("shadow", "rally OC1 OI1")
    assert not g.state["units"]["OI1"]["disrupted"]
    with pytest.raises(IllegalOrder):
        g.play("shadow", "move OC1 2620")  # rallying done: no more movement
    g.play("shadow", "done")
    assert g.active_seats() == ["westernesse"]
    g.play("westernesse", "move CIR 1720")


# ------------------------------------------------------------------- 8.41
def test_8_41_balchoth_infantry_may_form_a_shield_wall_other_shadow_units_may_not():
    g = pos({"BCH": "2820", "BS1": "2820", "BS2": "2920", "OC1": "2520", "OI1": "2520", "OI2": "2620",
             "BL1": "3020"}, step="D")
    refused(g, "shadow", "form shieldwall OI1 OI2 OC1", "8.41")
    refused(g, "shadow", "form wedge BS1 BS2 BCH", "8.41")
    g.play("shadow", "form shieldwall BS1 BS2 BCH")
    assert g.state["formations"]["F1"]["units"] == ["BS1", "BS2"]


def test_8_41_a_clear_hex_is_one_without_a_movement_penalty():
    # a riverbank costs no more than clear: a Shield Wall may form there; a slope may not
    g = pos({"BCH": "4114", "BS1": "4114", "BS2": "4014", "BC1": "3009", "BS3": "3009", "BS4": "3109"},
            step="D")
    assert RS.terrain("4114") == "riverbank" and RS.terrain("3009") == "slope"
    g.play("shadow", "form shieldwall BS1 BS2 BCH")
    refused(g, "shadow", "form shieldwall BS3 BS4 BC1", "8.4")


# ------------------------------------------------------------------- 9.12
def test_9_12_the_printed_demoralization_value_replaces_the_formula():
    g = pos({"ER1": "2820", "OU1": "2720"}, step="C")
    formula = RS.charts.demoralization_value(RS.units["OU1"].ratings)
    assert RS.units["OU1"].dem == 2 != formula == 7
    fixed_dice(g, [1, 1, 1])  # B vs armor 2: hit; CRT Y 1: 1/2E r2
    g.play("westernesse", "melee ER1 at 2720")
    paid = g.state["dem"]["orcs"]
    assert paid == 1  # half of the printed 2, rounded up
    assert RS.hooks.unit_dem_value(RS, g.state, "GG1") == 3 and RS.hooks.unit_dem_value(RS, g.state, "OI1") == 1


# ------------------------------------------------------------------- 10.0
def test_10_0_night_orc_leaders_rally_plus_three_and_orcs_are_not_fanatical():
    day = pos({"OC1": "2520", "OCH": "2620", "GC1": "2820", "OI1": "2720", "GS1": "2820"}, step="E", turn=14)
    night = pos({"OC1": "2520", "OCH": "2620", "GC1": "2820", "OI1": "2720", "GS1": "2820"}, step="E", turn=15)
    assert c08_3_rally.leader_rating(RS, day.state, "OC1") == 4 and c08_3_rally.leader_rating(RS, night.state, "OC1") == 7
    assert c08_3_rally.leader_rating(RS, night.state, "OCH") == 8 and c08_3_rally.leader_rating(RS, night.state, "GC1") == 5
    p = c07_combat.attack_profile(RS, night.state, "OI1", "GS1", "melee")
    assert p["letter"] == "E" and not p["bypass_cpt"] and p["morale"] == "X"


# ------------------------------------------------------------------ 13.x
def test_13_0_shadow_sets_up_first_then_westernesse():
    g = Game.new(get_ruleset("celebrant"), seed="s")
    refused(g, "westernesse", "deploy GS1 2014", "13.0")
    refused(g, "shadow", "done", "13.1")


def test_13_1_orcs_set_up_on_the_hill_within_six_and_thirteen_hexes_of_the_nw_edges():
    g = Game.new(get_ruleset("celebrant"), seed="s")
    g.play("shadow", "deploy OI1 0613")
    refused(g, "shadow", "deploy OI2 0713", "13.1")
    refused(g, "shadow", "deploy OI2 0614", "13.1")
    refused(g, "shadow", "deploy BS1 0101", "14.5")


def test_13_2_gondor_sets_up_around_the_grove_or_in_the_rearguard():
    g = Game.new(get_ruleset("celebrant"), seed="s")
    orcs = [u for u, d in RS.units.items() if d.setup == "orcs" and g.state["units"][u]["status"] == "pool"]
    for u, h in zip(orcs, RS.zones["orcs"]):
        g.play("shadow", f"deploy {u} {h}")
    g.play("shadow", "done")
    g.play("westernesse", "deploy GS1 1711")      # four columns west, two rows north of the grove
    g.play("westernesse", "deploy GS2 2520")      # the Rearguard, five rows south
    refused(g, "westernesse", "deploy GS3 1611", "13.2")
    refused(g, "westernesse", "deploy GS3 2118", "13.2")
    refused(g, "westernesse", "deploy EORL 2014", "14.6")


def _disarray_game(values):
    g = pos({"CIR": "2220", "GS1": "2820", "GB1": "2620", "OI1": "2720", "OI2": "2920"}, step="F-westernesse",
            disarray=True, balchoth=1)
    fixed_dice(g, values)
    return g


def test_13_21_gondor_disordered_when_cirion_fails_his_rally_roll():
    g = _disarray_game([6, 6])  # 12: Rally Rating 7 rallies on 3-9 only
    _, ev = g.play("westernesse", "done")
    assert "fails to rally Gondor" in texts(ev) and g.state["cel"]["disordered"]
    g.state["step"], g.state["ph"] = "C", c03_sequence._fresh_phase(RS)
    refused(g, "westernesse", "fire GB1 at 2720", "13.21")
    refused(g, "westernesse", "melee GS1 at 2720", "13.21")
    assert c07_combat.attack_profile(RS, g.state, "OI1", "GS1", "melee")["morale"] == "Y"  # X, one grade worse
    g.state["step"] = "B"
    g.play("westernesse", "move GS1 2821")  # movement is unaffected


def test_13_21_once_cirion_succeeds_no_more_disarray_rolls():
    g = _disarray_game([2, 3])
    _, ev = g.play("westernesse", "done")
    assert "good order" in texts(ev) and not g.state["cel"]["disarray"] and not g.state["cel"]["disordered"]
    g.state["step"], g.state["done"] = "F-westernesse", []
    before = g.state["dice"]["counter"]
    g.play("westernesse", "done")
    assert g.state["dice"]["counter"] == before  # turn 3: no roll at all


# ------------------------------------------------------------------ 14.5
@pytest.mark.parametrize("turn,roll,arrive", [(2, 1, True), (2, 2, False), (3, 2, True), (3, 3, False),
                                               (4, 4, True), (4, 5, False)])
def test_14_5_balchoth_arrival_rolls_on_turns_2_to_4(turn, roll, arrive):
    g = pos({"GS1": "2820"}, step="F-westernesse", turn=turn - 1)
    fixed_dice(g, [roll])
    g.play("westernesse", "done")
    assert (g.state["cel"]["balchoth"] == turn) is arrive


def test_14_5_balchoth_arrive_automatically_on_turn_5_on_the_se_edge():
    g = pos({"GS1": "2820"}, step="F-westernesse", turn=4)
    before = g.state["dice"]["counter"]
    _, ev = g.play("westernesse", "done")
    assert g.state["cel"]["balchoth"] == 5 and g.state["dice"]["counter"] == before
    assert RS.hooks.reinforcement_entry(RS, g.state, "BS1") == RS.zones["balchoth"]
    g.state["step"] = "D"
    g.play("shadow", "move BS1 2928")
    refused(g, "shadow", "move BS2 2628 2627", "14.5")  # not an entry hex


def test_14_2_balchoth_may_not_enter_before_they_arrive():
    g = pos({"GS1": "2820"}, step="D", turn=2)
    refused(g, "shadow", "move BS1 2928", "14.5")


# ------------------------------------------------------------------ 14.x chits
def test_14_4_worked_example_7_nw_minus_1_with_plus_1_shift_roll_4_enter_turn_7_in_the_ne():
    g = pos({"GS1": "2820"}, step="F-westernesse", turn=6, chits=("7 NW (-1)", "+1 shift"), balchoth=2)
    g.state["dem"]["gondor"] = 14
    fixed_dice(g, [4])
    _, ev = g.play("westernesse", "done")
    e = g.state["cel"]["eotheod"]
    assert (e["turn"], e["area"], e["arrived"]) == (7, "NE", True)
    assert "counterclockwise, NW to NE (14.4)" in texts(ev)
    assert any(x.reveals for x in ev)
    assert RS.hooks.reinforcement_entry(RS, g.state, "EORL") == RS.zones["eotheod-NE"]
    assert g.state["dem"]["gondor"] == 4  # 19.11 A: Eorl's arrival


def test_14_31_modifier_reduces_the_shadow_delay_never_below_zero():
    from engine.rulesets.celebrant import resolve_chits
    ch = RS.charts.raw["chits"]
    assert resolve_chits("7 NE (-2)", "+1", ch)["turn"] == 7
    assert resolve_chits("6 NE (-1)", "+2", ch)["turn"] == 7
    assert resolve_chits("5 NW", "+2", ch)["turn"] == 7
    assert resolve_chits("5 SE", "0", ch) | {"lines": []} == {"turn": 5, "area": "SE", "chooser": None,
                                                             "arrive": True, "lines": []}


@pytest.mark.parametrize("roll,who", [(1, "shadow"), (2, "westernesse"), (5, "westernesse"), (6, None)])
def test_14_31_chance_chit_roll_decides_who_chooses_and_the_shadow_chit_is_ignored(roll, who):
    from engine.rulesets.celebrant import resolve_chits
    out = resolve_chits("Chance", "+2 shift", RS.charts.raw["chits"], roll=lambda label: roll)
    assert out["chooser"] == who and out["arrive"] is (who is not None)
    if who:
        assert out["turn"] == 7 and out["area"] is None


@pytest.mark.parametrize("roll,who", [(1, "westernesse"), (2, "shadow"), (5, "shadow"), (6, None)])
def test_14_33_eye_of_sauron_roll_decides_who_chooses(roll, who):
    from engine.rulesets.celebrant import resolve_chits
    out = resolve_chits("6 NW", "Eye of Sauron", RS.charts.raw["chits"], roll=lambda label: roll)
    assert out["chooser"] == who and out["arrive"] is (who is not None)
    if who:
        assert out["turn"] == 6


def test_14_32_golden_6_se_cancels_any_shadow_chit():
    from engine.rulesets.celebrant import resolve_chits
    ch = RS.charts.raw["chits"]
    for s in ("Eye of Sauron", "+2 shift", "+1"):
        out = resolve_chits("6 SE golden", s, ch, roll=lambda label: pytest.fail("no die"))
        assert (out["turn"], out["area"]) == (6, "SE")


def test_14_4_shift_one_to_three_clockwise():
    from engine.rulesets.celebrant import resolve_chits
    ch = RS.charts.raw["chits"]
    assert resolve_chits("6 NW", "0 shift", ch, roll=lambda label: 2)["area"] == "SE"
    assert resolve_chits("6 SE", "0 shift", ch, roll=lambda label: 3)["area"] == "NE"
    assert resolve_chits("6 NE", "0 shift", ch, roll=lambda label: 6)["area"] == "SE"


def test_14_31_chance_revealed_on_turn_7_shadow_chooses_on_a_1():
    g = pos({"GS1": "2820"}, step="F-westernesse", turn=6, chits=("Chance", "+2"), balchoth=2)
    fixed_dice(g, [1])
    _, ev = g.play("westernesse", "done")
    assert "Shadow decides where they enter" in texts(ev)
    assert g.state["step"] == "A-shadow" and g.active_seats() == ["shadow"]
    refused(g, "shadow", "done", "14.31", contains="first choose where the Eotheod enter")
    refused(g, "shadow", "ability OC1 whip", "14.31")  # 3.0 A.1 before A.2: the area first
    refused(g, "westernesse", "entry NW", "14.31", contains="waiting for Shadow to choose")
    assert RS.hooks.reinforcement_entry(RS, g.state, "EORL") is None
    g.play("shadow", "entry SE")
    assert RS.hooks.reinforcement_entry(RS, g.state, "EORL") == RS.zones["eotheod-SE"]
    refused(g, "shadow", "entry NW", "14.31")  # chosen once
    g.play("shadow", "done")


def test_14_33_the_side_that_chooses_answers_as_the_chits_resolve_even_in_the_other_sides_phase():
    """3.0 A.1 reveals (and resolves) the chits before the Shadow special abilities (A.2): when Westernesse
    decides where the Eotheod enter, it answers at once, in the Shadow half of the Reinforcement Phase,
    and Shadow waits for it (14.33: Eye of Sauron, 1)."""
    g = pos({"GS1": "2820"}, step="F-westernesse", turn=5, chits=("6 NE", "Eye of Sauron"), balchoth=2)
    fixed_dice(g, [1])
    g.play("westernesse", "done")
    assert g.state["step"] == "A-shadow" and g.active_seats() == ["westernesse"]
    assert [str(a) for a in g.legal_actions("westernesse")] == ["entry NW", "entry NE", "entry SE"]
    assert list(g.legal_actions("shadow")) == []
    refused(g, "shadow", "done", "14.31", contains="waiting for Westernesse to choose where the Eotheod enter")
    refused(g, "shadow", "entry NW", "14.31")
    refused(g, "westernesse", "done", "14.31", contains="first choose where the Eotheod enter")
    assert RS.format(RS.deadline_action(g.state, "westernesse")) == "entry NE"  # the printed area
    _, ev = g.play("westernesse", "entry SE")
    assert ev[-1].new_phase and not ev[0].new_phase  # back to Shadow's phase: posted and pinged
    assert g.active_seats() == ["shadow"] and not g.state["pending"]
    assert g.state["cel"]["eotheod"]["arrived"] and RS.hooks.reinforcement_entry(RS, g.state, "EORL") == RS.zones["eotheod-SE"]
    g.play("shadow", "done")


def test_14_31_a_game_stored_before_the_choice_was_queued_keeps_choosing_before_done():
    """A game begun at state version 1 (its log played when the side chose among its other orders, before
    it was done) replays as it was played: ``upgrade_state`` keeps its rule (engine/pending.py: an offer
    answered before `done`)."""
    g = pos({"GS1": "2820"}, step="F-westernesse", turn=5, chits=("6 NE", "Eye of Sauron"), balchoth=2)
    old = g.state
    old["version"] = 1
    g = Game(RS, old)  # as a game stored by the earlier release is loaded
    assert g.state["cel"]["entry_before_done"] is True and g.state["version"] == 2
    fixed_dice(g, [1])
    g.play("westernesse", "done")
    assert g.active_seats() == ["shadow"] and not g.state["pending"]
    g.play("shadow", "done")  # the old rule: Shadow plays on, Westernesse chooses in its own phase
    (p,) = RS.waiting_decisions(g.state)
    assert (p["kind"], p["seat"], p["section"]) == ("entry-before-done", "westernesse", "14.31")
    acts = [str(a) for a in g.legal_actions("westernesse")]
    assert {"entry NW", "entry NE", "entry SE"} <= set(acts) and "done" not in acts
    refused(g, "westernesse", "done", "14.31", contains="first choose where the Eotheod enter")
    assert RS.format(RS.deadline_action(g.state, "westernesse")) == "entry NE"
    g.play("westernesse", "entry SE")
    assert RS.waiting_decisions(g.state) == []
    g.play("westernesse", "done")


def test_14_3_chits_are_not_revealed_before_their_turn():
    g = pos({"GS1": "2820"}, step="F-westernesse", turn=5, chits=("7 NE (-2)", "+1"), balchoth=2)
    g.play("westernesse", "done")
    assert not g.state["cel"]["eotheod"]["revealed"]
    assert RS.view(g.state, None)["chits"] == {"shadow": "face down", "westernesse": "face down"}
    assert RS.view(g.state, "shadow")["my_chit"] == "+1"


def test_14_3_after_set_up_each_side_draws_one_chit_told_only_to_itself():
    from tests.rulesets.celebrant.test_celebrant_secrecy import setup_orders
    g = Game.new(get_ruleset("celebrant"), seed="draw", fixture={"chits": {"westernesse": "5 SE", "shadow": "+2"}})
    events = []
    for seat, o in setup_orders(g):
        events += g.play(seat, o)[1]
    draw = next(e for e in events if e.section == "14.3")
    assert draw.private["westernesse"].startswith("Your Eotheod chit is **5 SE**")
    assert draw.private["shadow"].startswith("Your Eotheod chit is **+2**")
    assert "5 SE" not in draw.public and not draw.rolls
    assert "5 SE" in RS.secret_text(g.state, "westernesse") and "5 SE" not in RS.secret_text(g.state, "shadow")


def test_14_3_a_group_supplies_its_own_chit_mix():
    own = '[chits]\nwesternesse = ["5 NE"]\nshadow = ["+1"]\n'
    g = Game.new(get_ruleset("celebrant"), options={"charts": own}, seed="x")
    assert RS.raw(g.state)["chits"]["westernesse"] == ["5 NE"]
    with pytest.raises(InvalidOrder):
        Game.new(get_ruleset("celebrant"), options={"charts": '[chits]\nwesternesse = ["9 XX"]\n'}, seed="x")


# ------------------------------------------------------------------ 14.6
def test_14_6_eotheod_enter_only_in_their_area_from_their_turn():
    g = pos({"GS1": "2820"}, step="B", turn=6)
    refused(g, "westernesse", "move ER1 3501", "14.6")
    g.state["cel"]["eotheod"].update(revealed=True, turn=6, area="NE", arrive=True, arrived=True)
    g.play("westernesse", "move ER1 3501")
    with pytest.raises(IllegalOrder):
        g.play("westernesse", "move ER2 0901")


# ------------------------------------------------------------------ 15.x
def test_15_1_rivers_are_impassable_and_a_retreat_into_them_eliminates():
    g = pos({"GS1": "4114"}, step="B")
    refused(g, "westernesse", "move GS1 4214", "4.0")
    assert RS.terrain("4214") == "river"


def _bank(extra=None):
    # GS1 on the Anduin's bank, attacked from the west; OI1 covers the only other way back
    units = {"GS1": "4114", "OU1": "4014", "OI1": "4012"}
    units.update(extra or {})
    g = pos(units, step="E")
    assert RS.terrain("4114") == "riverbank"
    assert c07_5_retreat.retreat_options(RS, g.state, ["GS1"], 1, "4014") == []
    return g


def test_15_21_riverbank_is_clear_for_movement_and_combat():
    row = RS.charts.raw["tec"]["riverbank"]
    assert row["cost"] == 1 and row["armor"] == 0


def test_15_22_infantry_on_a_riverbank_with_nowhere_to_go_ignores_r1():
    g = _bank()
    fixed_dice(g, [1, 1, 3])  # C vs armor 3: hit; CRT X 3: r1
    _, ev = g.play("shadow", "melee OU1 at 4114")
    r = g.state["units"]["GS1"]
    assert r["status"] == "map" and r["hex"] == "4114" and not r["disrupted"]
    assert "r1 ignored (15.22)" in texts(ev)


def test_15_22_r2_ignored_on_a_successful_rally_check_at_rating_2():
    g = _bank()
    fixed_dice(g, [1, 1, 2, 1, 2])  # CRT X 2: r2; rally 1+2=3 (rating 2: 3-4)
    g.play("shadow", "melee OU1 at 4114")
    assert g.state["units"]["GS1"]["hex"] == "4114" and not g.state["units"]["GS1"]["disrupted"]


def test_15_22_r2_eliminates_on_a_failed_check():
    g = _bank()
    fixed_dice(g, [1, 1, 2, 3, 3])
    g.play("shadow", "melee OU1 at 4114")
    assert g.state["units"]["GS1"]["status"] == "eliminated"


def test_15_22_a_disrupted_unit_or_cavalry_on_the_bank_resolves_normally():
    g = _bank()
    g.state["units"]["GS1"]["disrupted"] = True
    fixed_dice(g, [1, 1, 3])
    g.play("shadow", "melee OU1 at 4114")
    assert g.state["units"]["GS1"]["status"] == "eliminated"
    g = pos({"GL1": "4114", "OU1": "4014", "OI1": "4012"}, step="E")
    fixed_dice(g, [1, 1, 4])  # C vs armor 2: hit; CRT Y 4: r1
    g.play("shadow", "melee OU1 at 4114")
    assert g.state["units"]["GL1"]["status"] == "eliminated"


# ------------------------------------------------------------------ 16.x
def test_16_11_watchtower_costs_two_mp_and_no_zoc_reaches_into_or_out_of_it():
    g = pos({"GS1": "4109", "OI1": "4208"}, step="B")
    assert c04_movement._reach(RS, g.state, "westernesse", ["GS1"])[Hex.parse("4108")] == 1
    assert Hex.parse("4109") not in c06_zoc.zoc_map(RS, g.state, "westernesse")      # none out of it
    g2 = pos({"GS1": "4208", "OI1": "4108"}, step="B")
    assert Hex.parse("4208") not in c06_zoc.zoc_map(RS, g2.state, "westernesse")     # none into it
    g3 = pos({"GS1": "4109"}, step="B")
    assert c04_movement._reach(RS, g3.state, "westernesse", ["GS1"])[Hex.parse("4208")] == 2


def test_16_12_watchtower_armor_plus_one_r1_ignored_r2_becomes_r1():
    g = pos({"GS1": "4208", "OU1": "4108", "OA1": "4008"}, step="E")
    assert c07_combat.attack_profile(RS, g.state, "OU1", "GS1", "melee")["armor"] == 4
    assert c07_combat.attack_profile(RS, g.state, "OA1", "GS1", "fire")["armor"] == 4
    assert RS.hooks.adjust_result(RS, g.state, "GS1", ("1/2E", "r1"), {}) == ("1/2E",)
    assert RS.hooks.adjust_result(RS, g.state, "GS1", ("r2",), {}) == ("r1",)
    fixed_dice(g, [1, 1, 3])  # C vs armor 4 (2-5): hit; CRT X 3: r1, ignored
    g.play("shadow", "melee OU1 at 4208")
    assert g.state["units"]["GS1"]["hex"] == "4208" and not g.state["units"]["GS1"]["disrupted"]


def test_16_21_landing_costs_two_mp_and_is_impassable_to_cavalry():
    g = pos({"GS1": "4122", "GL1": "4123"}, step="B")
    assert c04_movement._reach(RS, g.state, "westernesse", ["GS1"])[Hex.parse("4222")] == 2
    e = refused(g, "westernesse", "move GL1 4222", "16.21")
    assert "impassable to cavalry" in e.message


def test_16_22_landing_armor_plus_one():
    g = pos({"GS1": "4222", "OU1": "4122", "OA1": "4022"}, step="E")
    assert c07_combat.attack_profile(RS, g.state, "OU1", "GS1", "melee")["armor"] == 4
    assert c07_combat.attack_profile(RS, g.state, "OA1", "GS1", "fire")["armor"] == 4


# ------------------------------------------------------------------ 17.x
def test_17_0_abilities_once_per_game_in_their_phase_announced_and_marked():
    g = pos({"OC1": "2520", "OI1": "2620"}, step="A-shadow")
    refused(g, "shadow", "ability OC1 blood-lust", "17.81")
    _, ev = g.play("shadow", "ability OC1 whip")
    assert "By the Whip" in texts(ev) and "(17.81)" in texts(ev)
    v = RS.view(g.state, None)
    assert {"type": "ability", "hex": "2520", "title": "By the Whip"} in v["markers"]
    assert any("By the Whip" in n for n in v["notes"])
    refused(g, "shadow", "ability OC1 whip", "17.0")
    g2 = pos({"OC1": "2520"}, step="D")
    refused(g2, "shadow", "ability OC1 whip", "3.0")


def test_17_0_an_effect_is_lost_when_its_leader_is_eliminated():
    g = pos({"OC1": "2520", "OI1": "2620"}, step="A-shadow")
    g.play("shadow", "ability OC1 whip")
    g.state["step"] = "D"
    assert hooks.movement_allowance(RS, g.state, "OI1") == 6
    g.state["units"]["OC1"].update(status="eliminated", hex=None)
    assert hooks.movement_allowance(RS, g.state, "OI1") == 4


def test_17_11_death_and_glory_eorl_forms_a_wedge_that_moves_fights_and_fights_again_after_advancing():
    g = pos({"EORL": "2820", "ER1": "2820", "ER2": "2920", "OI1": "2621", "OI2": "2522", "OI9": "1010"},
            step="A-westernesse", turn=8)
    g.play("westernesse", "ability EORL death-and-glory ER1 ER2")
    g.play("westernesse", "done")
    g.play("westernesse", "move ER1 ER2 2721")           # the Wedge moves the turn it forms
    g.play("westernesse", "move EORL 2721")
    g.play("westernesse", "done")
    fixed_dice(g, [1, 1, 1])  # B+1 (wedge) vs armor 1: hit; CRT Z 1: E
    g.play("westernesse", "melee ER1 at 2621")
    _, ev = g.play("westernesse", "advance ER1 2621")
    assert "second round" not in texts(ev) and "(17.11)" in texts(ev)
    assert g.state["units"]["EORL"]["hex"] == "2621"
    assert "ER1" not in g.state["ph"]["meleed"]
    fixed_dice(g, [1, 1, 1])
    g.play("westernesse", f"melee ER1 at {g.state['units']['OI2']['hex']}")


def test_17_11_an_ordinary_wedge_may_neither_move_nor_fight_the_turn_it_forms():
    g = pos({"EC1": "2820", "ER1": "2820", "ER2": "2920", "OI1": "2621"}, step="B", turn=8)
    g.play("westernesse", "form wedge ER1 ER2 EC1")
    with pytest.raises(IllegalOrder):
        g.play("westernesse", "move ER1 ER2 2721")


def test_17_21_arise_rallies_automatically_and_overrides_despair():
    g = pos({"EC1": "2820", "ER1": "2920", "ER2": "2720", "GC1": "1520", "GS1": "1620", "BCH": "3520"},
            step="F-westernesse", turn=8)
    for x in ("ER1", "ER2", "GS1"):
        g.state["units"][x]["disrupted"] = True
    g.state["effects"].append({"ability": "despair", "leader": "BCH", "title": "Despair", "section": "17.51",
                               "side": "shadow", "turn": 8})
    refused(g, "westernesse", "rally GC1 GS1", "17.51")
    g.play("westernesse", "move GC1 1720")  # 17.51: leaders still move
    g.play("westernesse", "ability EC1 arise")
    before = g.state["dice"]["counter"]
    g.play("westernesse", "rally EC1 ER1")
    g.play("westernesse", "rally EC1 ER2")
    assert not g.state["units"]["ER1"]["disrupted"] and not g.state["units"]["ER2"]["disrupted"]
    assert g.state["dice"]["counter"] == before


def test_17_31_tactics_swaps_a_disordered_or_reduced_unit_with_a_fresh_one():
    g = pos({"CIR": "2220", "GS1": "2420", "GS2": "2020", "GS3": "2120", "OI1": "2520", "OI2": "2220"},
            step="A-westernesse")
    g.state["units"]["GS1"]["reduced"] = True
    refused(g, "westernesse", "swap GS1 GS2", "17.31")  # Tactics not in use
    g.play("westernesse", "ability CIR tactics")
    refused(g, "westernesse", "swap GS1 GS3", "17.31")  # GS3 is in OI2's zone of control
    g.play("westernesse", "swap GS1 GS2")
    assert g.state["units"]["GS1"]["hex"] == "2020" and g.state["units"]["GS2"]["hex"] == "2420"


def test_17_41_form_up_shield_wall_within_three_hexes_without_the_captain_then_dress_one_hex():
    g = pos({"GC1": "2220", "GS1": "2420", "GS2": "2520", "GS3": "2820", "GS4": "2920"}, step="A-westernesse")
    refused(g, "westernesse", "form shieldwall GS1 GS2 GC1", "17.41")
    g.play("westernesse", "ability GC1 form-up")
    refused(g, "westernesse", "form shieldwall GS3 GS4 GC1", "17.41")  # six hexes away
    g.play("westernesse", "form shieldwall GS1 GS2 GC1")
    g.play("westernesse", "dress GS1 2421")
    assert g.state["units"]["GS1"]["hex"] == g.state["units"]["GS2"]["hex"] == "2421"
    refused(g, "westernesse", "dress GS1 2422", "17.41")


def test_17_51_despair_no_westernesse_rally_rolls_even_on_a_riverbank():
    g = _bank({"BCH": "3520"})
    g.state["effects"].append({"ability": "despair", "leader": "BCH", "title": "Despair", "section": "17.51",
                               "side": "shadow", "turn": 1})
    fixed_dice(g, [1, 1, 2, 1, 2])
    g.play("shadow", "melee OU1 at 4114")
    assert g.state["units"]["GS1"]["status"] == "eliminated"


def test_17_61_iron_fist_balchoth_within_three_hexes_ignore_disrupted_in_the_westernesse_combat_phase():
    g = pos({"BC1": "2520", "BS1": "2720", "ER1": "2820", "BS2": "3320", "ER2": "3420"}, step="A-shadow", turn=5)
    g.play("shadow", "ability BC1 iron-fist")
    g.state["step"], g.state["ph"] = "C", c03_sequence._fresh_phase(RS)
    fixed_dice(g, [1, 1, 4])  # B vs armor 2: hit; CRT X 4: D
    _, ev = g.play("westernesse", "melee ER1 at 2720")
    assert not g.state["units"]["BS1"]["disrupted"] and "Iron Fist" in texts(ev)
    fixed_dice(g, [1, 1, 4])
    g.play("westernesse", "melee ER2 at 3320")  # eight hexes from BC1
    assert g.state["units"]["BS2"]["disrupted"]


def test_17_71_blood_lust_orcs_within_six_at_the_end_of_shadow_movement_are_fanatical():
    g = pos({"OCH": "2520", "OI1": "2720", "OI2": "0520", "GS1": "2820", "GS2": "0620"}, step="A-shadow")
    g.play("shadow", "ability OCH blood-lust")
    g.play("shadow", "done")
    g.state["step"] = "D"
    g.play("shadow", "done")  # end of the Shadow Movement Phase
    assert RS.hooks.is_fanatic(RS, g.state, "OI1") and not RS.hooks.is_fanatic(RS, g.state, "OI2")
    assert c07_combat.attack_profile(RS, g.state, "OI1", "GS1", "melee")["letter"] == "D"


def test_17_71_example_no_blood_lust_if_the_chieftain_falls_first():
    g = pos({"OCH": "2520", "OI1": "2720", "GS1": "2820"}, step="A-shadow")
    g.play("shadow", "ability OCH blood-lust")
    g.state["units"]["OCH"].update(status="eliminated", hex=None)  # killed in the Westernesse Combat Phase
    g.state["step"] = "D"
    g.play("shadow", "done")
    assert not RS.hooks.is_fanatic(RS, g.state, "OI1")


def test_17_81_by_the_whip_one_and_a_half_times_movement():
    g = pos({"OC1": "2520", "OI1": "2620", "OW1": "2420", "OI2": "1020"}, step="A-shadow")
    g.play("shadow", "ability OC1 whip")
    g.state["step"] = "D"
    assert hooks.movement_allowance(RS, g.state, "OI1") == 6 and hooks.movement_allowance(RS, g.state, "OW1") == 9
    assert hooks.movement_allowance(RS, g.state, "OC1") == 9 and hooks.movement_allowance(RS, g.state, "OI2") == 4
    g.play("shadow", "move OI1 2020")  # six hexes


# ------------------------------------------------------------------ 18.x
def test_18_11_warg_riders_lower_enemy_cavalry_armor_by_one():
    g = pos({"OW1": "2720", "GL1": "2820", "GS1": "2620"}, step="E")
    assert c07_combat.attack_profile(RS, g.state, "OW1", "GL1", "melee")["armor"] == 1
    assert c07_combat.attack_profile(RS, g.state, "OW1", "GS1", "melee")["armor"] == 3
    assert c07_combat.attack_profile(RS, g.state, "OW1", "GL1", "fire")["armor"] == 1


def test_18_2_to_the_death_guards_with_a_leader_add_one_to_the_crt_roll_and_7_is_no_effect():
    g = pos({"GG1": "2820", "GC1": "2820", "GG2": "3020", "OU1": "2720", "OU2": "3120",
             "BR1": "2420", "BC1": "2420", "ER1": "2520"}, step="E")
    assert c07_combat.attack_profile(RS, g.state, "OU1", "GG1", "melee")["crt_mod"] == 1
    assert c07_combat.attack_profile(RS, g.state, "OU2", "GG2", "melee")["crt_mod"] == 0  # no leader with it
    g.state["step"] = "C"
    assert c07_combat.attack_profile(RS, g.state, "ER1", "BR1", "melee")["crt_mod"] == 1  # chariots are guards
    dist, _ = c07_combat.outcome_distribution(RS, g.state, "ER1", "BR1", "melee")
    assert ("1/2E",) not in dist  # W column, roll 1 read as 2


# ------------------------------------------------------------------ 19.x
def test_19_1_levels_and_demoralized_only_when_points_exceed_the_level():
    g = pos({"GS1": "2820"})
    assert {a: RS.hooks.dem_level(RS, g.state, a) for a in ("gondor", "eotheod", "orcs", "balchoth")} == {
        "gondor": 30, "eotheod": 32, "orcs": 35, "balchoth": 33}
    g.state["dem"]["orcs"] = 35
    assert not RS.hooks.demoralized(RS, g.state, "orcs")
    g.state["dem"]["orcs"] = 36
    assert RS.hooks.demoralized(RS, g.state, "orcs")


def test_19_11_gondor_relief_five_per_shadow_army_demoralized_never_below_zero_and_fluctuates():
    g = pos({"GS1": "2820", "ER1": "2620", "OI1": "2720"}, step="C")
    g.state["dem"].update(gondor=33, orcs=35)
    assert RS.hooks.demoralized(RS, g.state, "gondor")
    c19_demoralization._dem_watch(RS, g.state)
    fixed_dice(g, [1, 1, 1])  # the orcs lose one more point
    _, ev = g.play("westernesse", "melee ER1 at 2720")
    assert g.state["dem"]["gondor"] == 28 and not RS.hooks.demoralized(RS, g.state, "gondor")
    assert "19.11 B" in texts(ev) and "no longer demoralized" in texts(ev)
    g.state["dem"]["gondor"] = 3
    assert c19_demoralization._gondor_relief(RS, g.state, 10) == 3 and g.state["dem"]["gondor"] == 0


def test_19_2_leader_rally_points_lost_are_added_to_the_army():
    g = pos({"GC1": "2820", "OCH": "2720", "GS1": "2820"}, step="C")
    RS.hooks._leader_loss(RS, g.state, "OCH", 2)
    assert g.state["dem"]["orcs"] == 2


# ------------------------------------------------------------------ 20.x
@pytest.mark.parametrize("dem,winner,grade", [
    ({"orcs": 40, "balchoth": 40}, "westernesse", "Decisive Victory (20.1)"),
    ({"gondor": 31, "eotheod": 40}, "shadow", "Decisive Victory (20.1)"),
    ({"orcs": 40, "balchoth": 40, "gondor": 31}, "westernesse", "Tactical Victory (20.2)"),
    ({"gondor": 31, "eotheod": 40, "orcs": 36}, "shadow", "Tactical Victory (20.2)"),
    ({"gondor": 31, "orcs": 36, "balchoth": 5}, "westernesse", "Marginal Victory (20.3)"),
    ({"gondor": 20, "orcs": 5}, "shadow", "Marginal Victory (20.3)"),
    ({"gondor": 5, "orcs": 5}, None, "draw (20.4)"),
    ({"orcs": 40}, None, "draw (20.4)"),
])
def test_20_graded_victory(dem, winner, grade):
    g = pos({"GS1": "2820"})
    g.state["dem"].update(dem)
    v = c19_demoralization._grade(RS, g.state, "End.", "12.0")
    assert v["winner"] == winner and grade in v["summary"]


def test_20_0_the_battle_ends_at_the_end_of_a_turn_once_both_armies_of_a_side_are_demoralized():
    g = pos({"GS1": "2820"}, step="F-westernesse", turn=9)
    g.state["dem"].update(orcs=40, balchoth=40)
    g.play("westernesse", "done")
    assert g.result().winner == "westernesse" and "Decisive Victory (20.1)" in g.result().summary


# ------------------------------------------------------------------ 21.0
def test_21_0_swaps_and_balance_are_game_options():
    g = Game.new(get_ruleset("celebrant"), options={"swap.gondor": "yes", "swap.orcs": "2"}, seed="x")
    st = g.state["units"]
    assert st["GB4"]["status"] == "out" and st["GS9"]["status"] == "pool"
    assert st["OA8"]["status"] == st["OA7"]["status"] == "out" and st["OI20"]["status"] == "pool"
    assert st["OI21"]["status"] == "out" and st["ER10"]["status"] == "out"
    b = Game.new(get_ruleset("celebrant"), options={"balance": "shadow"}, seed="x").state["units"]
    assert all(b[f"OI{i}"]["status"] == "pool" for i in range(19, 23)) and b["BI6"]["status"] == "reinforcement"
    assert b["OA8"]["status"] == "pool" and b["GS9"]["status"] == "out"
    w = Game.new(get_ruleset("celebrant"), options={"balance": "westernesse"}, seed="x").state["units"]
    assert w["ER10"]["status"] == "reinforcement" and w["GS9"]["status"] == "pool" and w["EA3"]["status"] != "out"
    with pytest.raises(InvalidOrder):
        Game.new(get_ruleset("celebrant"), options={"balance": "westernesse", "swap.gondor": "yes"}, seed="x")
    with pytest.raises(InvalidOrder):
        Game.new(get_ruleset("celebrant"), options={"swap.orcs": "5"}, seed="x")
    with pytest.raises(InvalidOrder):
        Game.new(get_ruleset("celebrant"), options={"rally.CIR": "9"}, seed="x")


def test_refused_orders_change_nothing():
    g = pos({"GS1": "2820", "OI1": "2720"}, step="C")
    before = state_digest(g.state)
    for o in ("ability CIR tactics", "swap GS1 GS2", "dress GS1 2821", "entry NW", "deploy GS1 2014"):
        with pytest.raises((IllegalOrder, InvalidOrder)):
            g.play("westernesse", o)
    assert state_digest(g.state) == before


def test_14_31_at_a_deadline_the_bot_chooses_the_area_for_a_side_that_must():
    g = pos({"GS1": "2820"}, step="F-westernesse", turn=6, chits=("6 NE", "Eye of Sauron"), balchoth=2)
    g.state["turn"] = 5
    fixed_dice(g, [3])  # Eye of Sauron: 3, Shadow chooses
    g.play("westernesse", "done")
    assert g.state["cel"]["eotheod"]["chooser"] == "shadow"
    assert RS.format(RS.deadline_action(g.state, "shadow")) == "entry NE"


def test_14_1_reinforcements_entering_in_a_chain_pay_one_more_mp_each():
    g = pos({"GS1": "1010"}, step="D", turn=3, balchoth=3)
    g.play("shadow", "move BS1 2928 2927")
    assert c04_movement._reach(RS, g.state, "shadow", ["BS2"])[Hex.parse("2928")] == 2
    g.play("shadow", "move BS2 2928 2927 2926")  # 2 + 1 + 1 = 4 MP
    g.play("shadow", "move BS3 2928 3027")        # 3 + 1
    refused(g, "shadow", "move BS4 2928 3027", "4.0")  # 4 + 1: too much


def test_14_2_reinforcements_held_back_may_enter_on_a_later_turn():
    g = pos({"GS1": "1010"}, step="D", turn=4, balchoth=2)
    g.play("shadow", "move BS1 3028")
    assert g.state["units"]["BS1"]["hex"] == "3028"


# ------------------------------------------------------- 14.2 attacking blockers
def test_14_2_arriving_reinforcements_may_attack_units_blocking_their_entry_and_advance_onto_the_map():
    """14.2: "Arriving reinforcements may attack Enemy units blocking their
    passage onto the map if necessary": the Balchoth, arrived but still off
    the map, melee a Gondorian unit standing in their entry hex 3028 on the
    south-eastern edge; the hex emptied, the attacker advances into it."""
    g = pos({"GS1": "3028", "GS2": "3027"}, step="E", turn=5, balchoth=5)
    assert "melee BI1 at 3028" in g.legal_texts("shadow", "melee BI1")
    refused(g, "shadow", "melee BI1 at 3027", "14.2")  # not an entry hex of the Balchoth
    n = fixed_dice(g, [1, 1, 1])  # CPT hit, CRT 1 on Morale X: 1/2E r1
    _, ev = g.play("shadow", "melee BI1 at 3028")
    assert g.state["dice"]["counter"] - n >= 2
    assert g.state["units"]["BI1"]["status"] == "reinforcement"
    if g.state["pending"]:
        p = g.state["pending"][0]
        g.play(p["seat"], f"retreat {p['unit']} {p['options'][0]}")
    assert g.state["units"]["GS1"]["hex"] != "3028"
    g.play("shadow", "advance BI1 3028")
    assert g.state["units"]["BI1"] == {**g.state["units"]["BI1"], "status": "map", "hex": "3028"}


def test_14_2_not_before_they_may_enter():
    g = pos({"GS1": "3028"}, step="E", turn=2)
    refused(g, "shadow", "melee BI1 at 3028", "14.5")


def test_17_61_iron_fist_keeps_a_disruption_the_unit_already_had():
    """17.61: Iron Fist ignores the Disrupted effect of this phase's results,
    it does not rally a unit that was already Disrupted."""
    g = pos({"BC1": "3020", "BS1": "3021", "GS1": "3022"}, step="C", turn=6, balchoth=2)
    g.state["units"]["BS1"]["disrupted"] = True
    g.state["effects"].append({"title": "Iron Fist", "section": "17.61", "ability": "iron-fist", "leader": "BC1",
                               "side": "shadow", "turn": 6, "until": {"turn": 7, "step": "A-shadow"}})
    rs = g.ruleset
    from engine.dice import Dice
    lines = rs.hooks.apply_result(rs, g.state, Dice(g.state["dice"]), "BS1", ("D",), "3022", "melee")
    assert g.state["units"]["BS1"]["disrupted"] is True and not any("Iron Fist" in ln for ln in lines)


@pytest.mark.parametrize("bad", ['[chits]\nchance_turn = "seven"\n', '[chits]\nshift_clockwise = "123"\n',
                                 '[chits]\nwesternesse = ["99 NW"]\n', '[chits]\nchance_turn = 40\n'])
def test_14_3_a_broken_chit_table_is_refused_when_the_game_is_created(bad):
    from engine.core import InvalidOrder
    with pytest.raises(InvalidOrder):
        Game.new(get_ruleset("celebrant"), options={"charts": bad})


def test_14_31_a_log_recorded_by_the_release_before_replays_to_its_stored_state():
    """tests/fixtures/celebrant_v1_entry_before_done.json.gz was recorded by the release before the entry
    area was queued (commit b6025f5): Eye of Sauron, die 1, Westernesse decides; Shadow gave `done` in its
    Phase A before Westernesse chose in its own. Its initial state and log replay to its final state
    (both loaded as a stored game is, through ``upgrade_state``)."""
    import gzip
    import json
    from pathlib import Path
    rec = json.loads(gzip.decompress((Path(__file__).parents[2] / "fixtures" /
                                      "celebrant_v1_entry_before_done.json.gz").read_bytes()))
    assert rec["init"]["version"] == 1 and [t for _, t in rec["log"]][:3] == ["done", "done", "entry SE"]
    g = Game(RS, rec["init"])
    for seat, text in rec["log"]:
        g.redo(seat, text)
    assert state_digest(g.state) == state_digest(Game(RS, rec["final"]).state)
