"""Gondor's siege rules (16.x): the Siege Phase, breaching (16.2, 16.3),
scaling with siege towers and ladders (16.4), advance during siege (16.5),
fireballs (16.6), boiling oil (16.7), severed heads (16.8) and the
one-firing-a-turn limit of catapults (16.12, 16.25).

Map facts used (engine/rulesets/gondor/data/map.json, reconstructed): the Main
Gate is 1910/n (1910 outside, 1909 in level 1); 1909/n is the wall between
level 1 (1909) and level 2 (1908); 1909/se is Outer Wall (1909 / 2009);
1808 is level 1, reached from outside (1709, 1809) through tower hexsides.
Breach Probability Table (charts.toml, reconstructed around 16.22):
catapult/wall by range 8-9, 9, 10, 11; catapult/gate 7-8, 8, 9, 10;
grond/gate 5-10. Scatter Diagram: die 1..6 -> n, ne, se, s, sw, nw (4 = s is
printed, 16.63)."""
import pytest

from engine.core import Game
from engine.hexgrid import Hex, distance, line
from engine.rulesets.gondor import GONDOR
from tests.spi_checks import drawn, refused
from tests.spi_helpers import fixed_dice, position
from engine.rulesets import get_ruleset
from engine.rulesets.gondor import c16_2_breach
from engine.spi import c07_combat
from engine.spi import hooks
from engine.spi import c03_sequence

W, S = "westernesse", "sauron"


def unit(g, uid):
    return g.state["units"][uid]


def markers(g, kind):
    return [m for m in g.state["markers"] if m.get("type") == kind]


def siege(units, turn=7, **extra):
    """A position at the start of the Siege Phase (B): enters it from A-sauron
    so the phase's start (ready towers, fires burning out) happens."""
    g = position(units, step="A-sauron", turn=turn, **extra)
    g.play(S, "done")
    assert g.state["step"] == "B", g.state["step"]
    return g


# ------------------------------------------------------------ 16.2 breaching
@pytest.mark.parametrize("a,b,breached", [(4, 5, True), (3, 6, True), (4, 4, False), (5, 5, False), (6, 6, False)])
def test_16_22_catapult_at_range_2_breaches_a_wall_on_exactly_nine(a, b, breached):
    # SC1 in 1910 is next to 1909, one hex from the wall 1909/n: range 2 (16.23)
    g = siege({"SC1": "1910", "OI1": "1910"})
    n = fixed_dice(g, [a, b])
    _, ev = g.play(S, "breach SC1 1909/n")
    assert drawn(g, n) == 2
    assert "range 2, needs 9 on two dice" in ev[0].public and ev[0].section == "16.22"
    assert bool(markers(g, "breached")) is breached
    if breached:
        assert markers(g, "breached") == [{"type": "breached", "hexside": "1909/n"}]  # 16.27


def test_16_23_range_is_1_from_a_hex_of_the_hexside():
    g = siege({"SC1": "1909", "OI1": "1909"})
    g.state["gates"]["1910/n"] = "sauron"
    fixed_dice(g, [4, 4])  # 8: breaches at range 1 (8-9), not at range 2
    _, ev = g.play(S, "breach SC1 1909/n")
    assert "range 1" in ev[0].public and markers(g, "breached")


def test_16_21_range_beyond_4_refused():
    far = next(h for h in GONDOR.hexmap.hexes if distance(h, "1908") == 5 and distance(h, "1909") == 5
               and not GONDOR.hexmap.in_city(h) and GONDOR.hexmap.hexes[h].terrain != "mountain")
    g = siege({"SC1": str(far), "OI1": str(far)})
    refused(g, S, "breach SC1 1909/n", "16.23")


def test_15_23_outer_wall_never_breached_and_main_gate_only_by_grond():
    g = siege({"SC1": "2010", "OI1": "2010"})
    refused(g, S, "breach SC1 1909/se", "15.23", contains="Outer Wall")
    refused(g, S, "breach SC1 1910/n", "15.23", contains="only Grond")


def test_16_28_grond_breaches_the_main_gate_once_operated_with_a_troll():
    g = siege({"GRD": "1910", "TR1": "1910", "SC1": "2616", "OI1": "2616"})
    refused(g, S, "breach GRD 1910/n", "16.28", contains="operated")
    g.state["grond_active"] = True
    fixed_dice(g, [3, 3])  # 6: within grond/gate 5-10
    _, ev = g.play(S, "breach GRD 1910/n")
    assert markers(g, "breached") == [{"type": "breached", "hexside": "1910/n"}]
    assert g.state["grond_breached_main"] is True and "19.11 B" in ev[0].public


def test_16_28_grond_needs_a_troll_or_uruk_in_its_hex():
    # (a catapult of Sauron's far off: with Grond unable to strike, the phase would otherwise pass at once)
    g = siege({"GRD": "1910", "OI1": "1910", "SC1": "2820", "OI2": "2820"}, grond_active=True)
    refused(g, S, "breach GRD 1910/n", "16.28", contains="Troll or Uruk-Hai")
    g = siege({"GRD": "1910", "UH1": "1910"}, grond_active=True)
    fixed_dice(g, [6, 6])  # 12: not in 5-10
    g.play(S, "breach GRD 1910/n")
    assert not markers(g, "breached")


def test_16_24_catapults_never_fire_through_mountains():
    m = GONDOR.hexmap
    found = None
    for h in m.hexes:
        if m.hexes[h].terrain == "mountain" or m.in_city(h):
            continue
        for t in m.hexes:
            if 1 < distance(h, t) <= 4 and m.hexes[t].terrain != "mountain" and any(
                    m.hexes.get(x) and m.hexes[x].terrain == "mountain" for x in line(h, t)[1:-1]):
                found = (h, t)
                break
        if found:
            break
    h, t = found
    g = siege({"SC1": str(h), "OI1": str(h)})
    refused(g, S, f"fireball SC1 at {t}", "16.61", contains="mountain")


def test_16_27_breached_wall_is_crossed_without_equipment_and_passes_zoc():
    g = position({"OI1": "1909", "GS1": "1908"}, step="C", turn=7)
    assert not GONDOR.hooks.zoc_through(GONDOR, g.state, Hex.parse("1908"), Hex.parse("1909"))
    refused(g, S, "move OI1 1807", "4.0")  # 1807 is beyond the wall: no way up (15.12)
    g.state["markers"].append({"type": "breached", "hexside": "1909/n"})
    assert GONDOR.hooks.zoc_through(GONDOR, g.state, Hex.parse("1908"), Hex.parse("1909"))


# --------------------------------------------------- 16.12 one firing a turn
def test_16_12_a_catapult_fires_once_per_game_turn_across_siege_and_missile_fire():
    g = siege({"SC1": "1910", "OI1": "1910", "GS1": "1909"})
    fixed_dice(g, [1, 1])
    g.play(S, "breach SC1 1909/n")
    refused(g, S, "fireball SC1 at 1908", "16.12")
    g.play(S, "done")
    g.play(S, "done")  # C
    assert g.state["step"] == "D"
    refused(g, S, "fire SC1 at 1909", "16.12")


def test_16_25_catapult_fires_at_troops_at_range_2_with_missile_e():
    g = position({"SC1": "2010", "OI1": "2010", "GS1": "1909"}, step="D", turn=7)
    assert distance("2010", "1909") == 2
    prof = c07_combat.attack_profile(GONDOR, g.state, "SC1", "GS1", "fire")
    assert prof["letter"] == "e"
    _, ev = g.play(S, "fire SC1 at 1909")
    assert "CPT e vs Armor" in ev[0].public
    assert g.state["siege"]["fired"]["SC1"] == 7
    g2 = position({"SC1": "2011", "OI1": "2011", "GS1": "1909"}, step="D", turn=7)
    assert distance("2011", "1909") == 3
    refused(g2, S, "fire SC1 at 1909", "7.12")


# -------------------------------------------------------------- 16.6 fireballs
def test_16_63_example_2906_scatters_on_die_4_to_2907():
    g = siege({"SC1": "2903", "OI1": "2903"})
    assert distance("2903", "2906") == 3
    n = fixed_dice(g, [5, 4])  # 5: it scatters; Scatter Diagram 4: the next hex down the column
    _, ev = g.play(S, "fireball SC1 at 2906")
    assert drawn(g, n) == 2
    assert "lands in 2907" in ev[0].public
    assert markers(g, "fire") == [{"type": "fire", "hex": "2907"}]


@pytest.mark.parametrize("die", [1, 2, 3])
def test_16_63_three_hexes_on_1_to_3_hits_the_target(die):
    g = siege({"SC1": "2903", "OI1": "2903"})
    fixed_dice(g, [die])
    g.play(S, "fireball SC1 at 2906")
    assert markers(g, "fire") == [{"type": "fire", "hex": "2906"}]


def test_16_63_one_or_two_hexes_never_scatter_and_roll_nothing():
    g = siege({"SC1": "2903", "OI1": "2903"})
    n = g.state["dice"]["counter"]
    g.play(S, "fireball SC1 at 2905")
    assert drawn(g, n) == 0 and markers(g, "fire") == [{"type": "fire", "hex": "2905"}]


def test_16_64_scatter_may_land_five_hexes_away():
    g = siege({"SC1": "2908", "OI1": "2908"})
    fixed_dice(g, [6, 4])
    g.play(S, "fireball SC1 at 2912")
    assert markers(g, "fire")[0]["hex"] == "2913" and distance("2908", "2913") == 5


def test_16_61_range_is_four():
    g = siege({"SC1": "2908", "OI1": "2908"})
    refused(g, S, "fireball SC1 at 2913", "16.61")


def test_16_62_a_westernesse_catapult_hurls_a_fireball_at_any_hex_in_range():
    """Issue 42: with no Sauron siege equipment within 4 hexes, Westernesse was made done in the Siege Phase
    and its fireball refused. 16.6: "a Player may choose to hurl Fireballs"; 16.62: at the hex he designates,
    "providing that the hex is within Range" (any hex: its fire costs 3 MP to enter, 16.67)."""
    g = siege({"WC1": "1908", "GS1": "1908", "OI1": "2016"})
    assert not any(d.side == S and d.is_siege and unit(g, u)["status"] == "map" for u, d in GONDOR.units.items())
    assert g.active_seats() == [W]  # Sauron, with no catapult and no Grond, is done at once; Westernesse is not
    assert "fireball WC1 at 1910" in list(g.legal_texts(W))
    g.play(W, "fireball WC1 at 1910")  # two hexes: no scatter (16.63)
    assert {"type": "fire", "hex": "1910"} in markers(g, "fire")


def test_16_6_the_siege_phase_passes_by_itself_only_when_westernesse_has_no_siege_action():
    """Issue 42: the phase waits for Westernesse while a catapult of its own is unfired, and not once none is."""
    g = siege({"WC1": "1908", "GS1": "1908", "OI1": "2016"}, turn=8)
    assert g.active_seats() == [W]
    g2 = position({"GS1": "1908", "OI1": "2016"}, step="A-sauron", turn=8)
    g2.play(S, "done")  # no catapult on either side: nothing to do, the phase is over at once
    assert g2.state["step"] == "C"
    g3 = position({"WC1": "1908", "GS1": "1908", "OI1": "2016"}, step="A-sauron", turn=8)
    g3.state["siege"]["fired"]["WC1"] = 8  # fired this Game-Turn already (16.12)
    g3.play(S, "done")
    assert g3.state["step"] == "C"


def test_16_65_fireball_destroys_siege_kit_and_the_unit_with_a_tower_but_no_other_personnel():
    g = siege({"SC1": "2504", "OI1": "2504", "ST1": "2506", "OI2": "2506", "SC2": "2406", "LO1": "2405"})
    g.play(S, "fireball SC1 at 2506")
    assert unit(g, "ST1")["status"] == "eliminated" and unit(g, "OI2")["status"] == "eliminated"
    g.state["siege"]["fired"].pop("SC1")
    g.play(S, "fireball SC1 at 2405")  # a lone combat unit: no casualty
    assert unit(g, "LO1")["status"] == "map"


def test_16_65_fireball_destroys_a_cauldron():
    g = position({"K1": "1908", "SC1": "2010", "OI1": "2010"}, step="A-sauron", turn=7)
    g.play(S, "done")
    fixed_dice(g, [1])  # range 3: 1 hits the target
    g.play(S, "fireball SC1 at 1908")
    assert unit(g, "K1")["status"] == "eliminated"


def test_16_66_fires_outside_burn_until_the_next_siege_phase_inside_for_the_game():
    g = siege({"SC1": "2010", "OI1": "2010"})
    g.play(S, "fireball SC1 at 2012")
    g.state["markers"].append({"type": "fire", "hex": "1906"})
    assert GONDOR.hexmap.in_city(Hex.parse("1906")) and not GONDOR.hexmap.in_city(Hex.parse("2012"))
    for _ in range(20):  # around to next turn's Siege Phase
        if g.state["step"] == "B" and g.state["turn"] == 8:
            break
        g.play(g.active_seats()[0], "done")
    assert [m["hex"] for m in markers(g, "fire")] == ["1906"]


def test_16_67_fire_costs_three_more_movement_points():
    g = position({"OI1": "2016"}, step="C", turn=7)
    g.state["markers"].append({"type": "fire", "hex": "2015"})
    refused(g, S, "move OI1 2015 2014", "4.0")  # 1+3 then 1 = 5 > 4
    g.play(S, "move OI1 2015")


# ------------------------------------------------------------ 16.8 severed heads
def test_16_83_head_in_the_city_adds_a_garrison_point_and_16_84_lowers_morale():
    g = siege({"SC1": "2010", "OI1": "2010", "GS1": "1908"})
    before = GONDOR.hooks.dem_total(GONDOR, g.state, "garrison")
    m0 = c07_combat.attack_profile(GONDOR, g.state, "OI1", "GS1", "melee")["morale"]
    g.play(S, "head SC1 at 1908")
    assert markers(g, "head") == [{"type": "head", "hex": "1908"}]
    assert GONDOR.hooks.dem_total(GONDOR, g.state, "garrison") == before + 1
    assert g.state["siege"]["heads_left"] == 11
    m1 = c07_combat.attack_profile(GONDOR, g.state, "OI1", "GS1", "melee")["morale"]
    assert "WXYZ".index(m1) == "WXYZ".index(m0) + 1


def test_16_85_head_outside_the_city_is_removed_with_no_point():
    g = siege({"SC1": "2012", "OI1": "2012"})
    g.play(S, "head SC1 at 2011")
    assert not markers(g, "head") and g.state["dem"]["garrison"] == 0 and g.state["siege"]["heads_left"] == 11


def test_16_86_heads_in_fire_or_a_cauldron_are_lost_and_a_fireball_removes_heads_but_not_points():
    g = siege({"SC1": "2010", "OI1": "2010", "SC2": "1910", "OI2": "1910", "SC3": "2009", "OI3": "2009",
               "K1": "1808"})
    g.state["markers"].append({"type": "fire", "hex": "1908"})
    g.play(S, "head SC1 at 1908")
    g.play(S, "head SC2 at 1808")
    assert not markers(g, "head") and g.state["dem"]["garrison"] == 0
    g.state["markers"] = []
    g.state["siege"]["fired"].clear()
    g.play(S, "head SC1 at 1909")
    assert g.state["dem"]["garrison"] == 1
    g.play(S, "fireball SC3 at 1909")
    assert not markers(g, "head") and g.state["dem"]["garrison"] == 1


def test_16_81_twelve_heads_at_most():
    g = siege({"SC1": "2010", "OI1": "2010"})
    g.state["siege"]["heads_left"] = 0
    refused(g, S, "head SC1 at 1908", "16.81")


def test_16_8_westernesse_throws_no_heads_but_may_hurl_fireballs():
    g = siege({"SC1": "2010", "OI1": "2010", "WC1": "1908", "GS1": "1908"})
    assert g.active_seats() == [S, W]  # WC1 is within 4 hexes of Sauron's catapult
    refused(g, W, "head WC1 at 2010", "16.8")
    g.play(W, "fireball WC1 at 2010")
    assert unit(g, "SC1")["status"] == "eliminated"


def test_16_0_a_side_with_nothing_to_do_in_the_siege_phase_is_done_at_once():
    g = siege({"SC1": "2010", "OI1": "2010", "GS1": "1903"})  # Westernesse has no catapult on the map
    assert g.active_seats() == [S]
    g = position({"OI1": "2010", "GS1": "1903"}, step="A-sauron", turn=7)
    g.play(S, "done")
    assert g.state["step"] == "C"


# --------------------------------------------------------- 16.4 siege towers
def test_16_41_tower_must_begin_a_siege_phase_at_the_wall_then_costs_one_more_mp():
    # ST1 at 1809, against the tower hexside 1809/n into 1808 (level 1)
    g = position({"ST1": "1809", "OI1": "1809", "OI2": "1910"}, step="C", turn=7)
    refused(g, S, "move OI2 1809 1808", "4.0")  # the tower has not begun a Siege Phase there
    g = siege({"ST1": "1809", "OI1": "1809", "OI2": "1910", "SC1": "2211", "OI3": "2211"})
    assert "1809/n" in g.state["siege"]["ready"]["ST1"]["sides"]
    g.play(S, "done")
    g.play(S, "move OI1 1808")  # 1 (city) + 1 (16.41)
    assert unit(g, "OI1")["hex"] == "1808"


def test_16_48_cavalry_never_use_siege_towers():
    g = siege({"ST1": "1809", "OI1": "1809", "MC1": "1910", "SC1": "2211", "OI3": "2211"})
    g.play(S, "done")
    refused(g, S, "move MC1 1809 1808", "4.0")


def test_16_42_armor_in_a_siege_tower_minus_1_in_melee_plus_1_against_missiles():
    g = position({"ST1": "1809", "OI1": "1809", "GS1": "1808"}, step="G", turn=7)
    without = position({"OI1": "1809", "GS1": "1808"}, step="G", turn=7)
    for kind, delta in (("melee", -1), ("fire", +1)):
        base = c07_combat.attack_profile(GONDOR, without.state, "GS1", "OI1", kind)["armor"]
        assert c07_combat.attack_profile(GONDOR, g.state, "GS1", "OI1", kind)["armor"] == base + delta


def test_16_44_zoc_through_the_wall_from_a_tower_so_melee_is_possible():
    g = position({"ST1": "1809", "OI1": "1809", "GS1": "1808"}, step="G", turn=7)
    assert GONDOR.hooks.zoc_through(GONDOR, g.state, Hex.parse("1809"), Hex.parse("1808"))
    g2 = position({"OI1": "1809", "GS1": "1808"}, step="G", turn=7)
    assert not GONDOR.hooks.zoc_through(GONDOR, g2.state, Hex.parse("1809"), Hex.parse("1808"))
    refused(g2, W, "melee GS1 at 1809", "7.31")
    fixed_dice(g, [6, 6])  # CPT 12 misses: no result
    g.play(W, "melee GS1 at 1809")


def test_16_44_as_written_only_the_tower_exerts_its_zone_through_the_wall():
    """Issue 42: the engine let zones of control through a scaled wall both ways, so a unit in a tower's hex
    began Sauron's Combat Phase in the defender's zone and had to attack the wall's defender (7.31). 16.44
    gives the exception to "units in Siege Towers and on Ladders" only: the defender's zone stops at the
    wall. The unit on the tower may still melee out of it (16.42), and need not."""
    g = position({"ST1": "1809", "OI1": "1809", "GS1": "1808"}, step="C", turn=7)
    assert GONDOR.hooks.zoc_through(GONDOR, g.state, Hex.parse("1809"), Hex.parse("1808"))
    assert not GONDOR.hooks.zoc_through(GONDOR, g.state, Hex.parse("1808"), Hex.parse("1809"))
    g.play(S, "done")  # into Sauron's Combat Phase (D)
    assert g.state["step"] == "D" and "OI1" not in g.state["ph"]["must"]
    g.state["ph"]["segment"] = "melee"
    assert "melee OI1 at 1808" in list(g.legal_texts(S))  # 16.42: out of the tower, over the wall
    g.play(S, "done")  # not obliged: done without attacking
    # a ladder the same way: only from the ladder's hex
    g2 = position({"OI1": "1809", "GS1": "1808"}, step="C", turn=7,
                  markers=[{"type": "ladder", "hex": "1809", "hexside": "1809/n", "side": S, "turn": 6}])
    assert GONDOR.hooks.zoc_through(GONDOR, g2.state, Hex.parse("1809"), Hex.parse("1808"))
    assert not GONDOR.hooks.zoc_through(GONDOR, g2.state, Hex.parse("1808"), Hex.parse("1809"))


def test_16_44_both_ways_as_a_chart_option():
    """Issue 42: the reading before the fix (zones both ways through a scaled wall) stays for a table that wants
    it: `options: charts=` with `[siege] zoc_through_walls = "both-ways"`; a value it does not know is refused."""
    from engine.spi.charts import ChartError
    g = position({"ST1": "1809", "OI1": "1809", "GS1": "1808"}, step="C", turn=7)
    g.state["options"] = dict(g.state.get("options", {}), charts='[siege]\nzoc_through_walls = "both-ways"\n')
    assert GONDOR.hooks.zoc_through(GONDOR, g.state, Hex.parse("1808"), Hex.parse("1809"))
    g.play(S, "done")
    assert "OI1" in g.state["ph"]["must"]  # in the defender's zone: obliged (7.31)
    with pytest.raises(ChartError, match="zoc_through_walls"):
        GONDOR.check_charts('[siege]\nzoc_through_walls = "maybe"\n')


def test_16_47_an_adverse_melee_result_destroys_the_tower_not_missile_fire():
    g = position({"ST1": "1809", "OI1": "1809", "GS1": "1808", "GB1": "1807"}, step="G", turn=7)
    fixed_dice(g, [1, 1, 6])  # CPT hit, CRT 6 on Morale Y: D
    g.play(W, "fire GB1 at 1809")
    assert unit(g, "ST1")["status"] == "map"
    g.state["ph"]["segment"] = "melee"
    fixed_dice(g, [1, 1, 5])
    _, ev = g.play(W, "melee GS1 at 1809")
    assert unit(g, "ST1")["status"] == "eliminated" and "16.47" in ev[0].public


# ---------------------------------------------------------------- ladders
def test_16_43_ladder_set_one_turn_climbed_the_next_for_three_more_mp():
    g = position({"OI1": "2009", "OI2": "2010"}, step="C", turn=7)
    _, ev = g.play(S, "ladder OI1 1909/se")
    assert markers(g, "ladder") == [{"type": "ladder", "hex": "2009", "hexside": "1909/se", "side": S, "turn": 7}]
    assert g.state["siege"]["ladders_left"] == 5
    refused(g, S, "move OI2 2009 1909", "4.0")  # not this turn
    g.state["turn"] = 8
    g.state["ph"] = c03_sequence._fresh_phase(GONDOR)
    refused(g, S, "move OI2 2009 1909 1908", "4.0")  # 1 + (1 + 3) = 5 > 4... then no more
    g.play(S, "move OI1 1909")  # 1 (city) + 3 = 4
    assert unit(g, "OI1")["hex"] == "1909"


def test_16_45_units_with_a_ladder_lose_one_armor_against_melee_and_missiles():
    g = position({"OI1": "2009", "GS1": "1909"}, step="G", turn=7)
    base = {k: c07_combat.attack_profile(GONDOR, g.state, "GS1", "OI1", k)["armor"] for k in ("melee", "fire")}
    g.state["markers"].append({"type": "ladder", "hex": "2009", "hexside": "1909/se", "side": S, "turn": 6})
    assert c07_combat.attack_profile(GONDOR, g.state, "GS1", "OI1", "melee")["armor"] == base["melee"] - 1
    assert c07_combat.attack_profile(GONDOR, g.state, "GS1", "OI1", "fire")["armor"] == base["fire"] - 1


def test_16_47_ladders_are_limited_by_the_counter_mix():
    g = position({"OI1": "2009"}, step="C", turn=7)
    g.state["siege"]["ladders_left"] = 0
    refused(g, S, "ladder OI1 1909/se", "16.47")


def test_7_55_errata_no_retreat_up_a_ladder():
    g = position({"OI1": "2009"}, step="C", turn=7)
    g.state["markers"].append({"type": "ladder", "hex": "2009", "hexside": "1909/se", "side": S, "turn": 6})
    u = ["OI1"]
    assert GONDOR.hooks.hexside_rule(GONDOR, g.state, u, Hex.parse("2009"), Hex.parse("1909")) == 3
    assert GONDOR.hooks.hexside_rule(GONDOR, g.state, u, Hex.parse("2009"), Hex.parse("1909"), retreat=True) is None


def test_16_46_leader_fighting_through_a_wall_from_a_ladder_loses_one():
    g = position({"OI1": "2009", "GOT": "2009", "GS1": "1909", "IMR": "1909"}, step="D", turn=7)
    g.state["markers"].append({"type": "ladder", "hex": "2009", "hexside": "1909/se", "side": S, "turn": 6})
    assert GONDOR.hooks.duel_modifier(GONDOR, g.state, "GOT", "IMR") == -1
    assert GONDOR.hooks.duel_modifier(GONDOR, g.state, "IMR", "GOT") == 0


# --------------------------------------------------------- 16.5 advance in siege
def test_16_51_infantry_with_the_catapult_advance_through_a_range_1_breach():
    g = siege({"SC1": "1909", "OI1": "1909"})
    fixed_dice(g, [4, 5])
    _, ev = g.play(S, "breach SC1 1909/n")
    assert "may advance through the breach into 1908" in ev[-1].public
    g.play(S, "advance OI1 1908")
    assert unit(g, "OI1")["hex"] == "1908" and unit(g, "SC1")["hex"] == "1909"


def test_16_51_no_advance_at_range_2_nor_into_an_enemy_zoc():
    g = siege({"SC1": "1910", "OI1": "1910"})
    fixed_dice(g, [4, 5])
    g.play(S, "breach SC1 1909/n")
    assert g.state["ph"]["advance"] is None
    g = siege({"SC1": "1909", "OI1": "1909", "GS1": "1807"})
    fixed_dice(g, [4, 5])
    g.play(S, "breach SC1 1909/n")
    assert g.state["ph"]["advance"] is None  # 1908 is in GS1's zone of control


def test_16_52_the_advance_lapses_with_the_next_order():
    g = siege({"SC1": "1909", "OI1": "1909", "SC2": "2011", "OI2": "2011"})
    fixed_dice(g, [4, 5])
    g.play(S, "breach SC1 1909/n")
    g.play(S, "fireball SC2 at 2013")
    refused(g, S, "advance OI1 1908", "7.5")


# ------------------------------------------------------------- 16.7 boiling oil
def oil_game(real: bool, mode: str = "any"):
    g = position({"GS1": "1909", "K1": "1909", "OI1": "2011"}, step="F", turn=7)
    g.state["hidden"]["real_cauldrons"] = ["K1"] if real else ["K2"]
    g.play(W, "pickup GS1 K1")
    if mode != "hold":  # a carrier holds its oil until told (16.74)
        g.play(W, f"pour GS1 {mode}")
    for _ in range(12):
        if g.state["step"] == "C":
            break
        g.play(g.active_seats()[0], "done")
    return g


def test_16_71_a_cauldron_never_moves_after_deployment():
    """Issue 42: `move K1 2007 2107` and a move with its stack were accepted, and autocomplete offered them.
    16.71: cauldrons "may not be moved at any time after deployment"."""
    g = position({"K1": "2007", "GS1": "2007"}, step="F", turn=7)
    refused(g, W, "move K1 2007 2107", "16.71", contains="may not move after deployment")
    refused(g, W, "move K1 2107", "16.71")
    refused(g, W, "move GS1 K1 2007 2107", "16.71")
    offered = list(g.legal_texts(W))
    assert not [a for a in offered if a.startswith("move") and "K1" in a.split()], offered
    assert "pickup GS1 K1" in offered and any(a.startswith("move GS1 ") for a in offered)
    g.play(W, "move GS1 2107")  # the unit beside it still moves; the cauldron stays
    assert unit(g, "K1")["hex"] == "2007" and unit(g, "GS1")["hex"] == "2107"


def test_16_72_pickup_is_free_and_16_75_costs_one_ma_and_one_armor():
    g = position({"GS1": "1909", "K1": "1909", "OI1": "2012"}, step="F", turn=7)
    ma = hooks.movement_allowance(GONDOR, g.state, "GS1")
    g.play(W, "pickup GS1 K1")
    assert unit(g, "K1")["oil"] == 2 and unit(g, "GS1")["oil_from"] == "K1"
    assert hooks.movement_allowance(GONDOR, g.state, "GS1") == ma - 1
    base = GONDOR.hooks.ratings(GONDOR, g.state, "GS1").armor
    assert c07_combat.attack_profile(GONDOR, g.state, "OI1", "GS1", "melee")["armor"] == base - 1
    refused(g, W, "pickup GS1 K1", "16.75")


def test_16_74_real_oil_poured_on_a_unit_moving_below_during_sauron_movement():
    g = oil_game(real=True)
    _, ev = g.play(S, "move OI1 2009")  # adjacent to 1909 and lower (outside the city)
    assert unit(g, "OI1")["status"] == "eliminated"
    assert any(e.section == "16.74" and "boiling oil" in e.public and e.reveals for e in ev)
    assert unit(g, "GS1")["oil_from"] is None


def test_16_74_dummy_oil_does_nothing_and_says_nothing():
    g = oil_game(real=False)
    _, ev = g.play(S, "move OI1 2009")
    assert unit(g, "OI1")["status"] == "map"
    assert not any("oil" in e.public for e in ev) and not any(e.private for e in ev)
    assert unit(g, "GS1")["oil_from"] == "K1"


def test_16_74_hold_and_towers_standing_orders():
    g = oil_game(real=True, mode="hold")
    g.play(S, "move OI1 2009")
    assert unit(g, "OI1")["status"] == "map"
    g = oil_game(real=True, mode="towers")
    g.play(S, "move OI1 2009")
    assert unit(g, "OI1")["status"] == "map"


def test_16_74_oil_on_a_siege_tower_and_its_pusher():
    g = position({"GS1": "1808", "K1": "1808", "ST1": "1910", "OI1": "1910"}, step="F", turn=7)
    g.state["hidden"]["real_cauldrons"] = ["K1"]
    g.play(W, "pickup GS1 K1")
    g.play(W, "pour GS1 towers")
    g.state["step"], g.state["done"] = "C", []
    g.state["ph"] = c03_sequence._fresh_phase(GONDOR)
    g.play(S, "move OI1 ST1 1809")
    assert unit(g, "ST1")["status"] == "eliminated" and unit(g, "OI1")["status"] == "eliminated"


def test_16_74_only_in_sauron_movement_not_in_combat():
    g = oil_game(real=True)
    g.play(S, "move OI1 2012")
    g.play(S, "done")
    assert g.state["step"] == "D"
    unit(g, "OI1")["hex"] = "2009"
    g.play(S, "done")
    assert unit(g, "OI1")["status"] == "map"


def test_16_73_an_enemy_unit_in_a_cauldron_hex_destroys_it_and_it_is_turned_over():
    g = position({"K1": "2010", "OI1": "2011"}, step="C", turn=7)
    g.state["hidden"]["real_cauldrons"] = ["K2"]
    _, ev = g.play(S, "move OI1 2010")
    assert unit(g, "K1")["status"] == "eliminated"
    assert any("a dummy" in e.public and e.reveals for e in ev)


def test_16_73_sauron_never_uses_cauldrons():
    g = position({"K1": "2010", "OI1": "2010"}, step="C", turn=7)
    refused(g, S, "pickup OI1 K1", "16.73")


def test_16_74_standing_orders_are_secret_and_masked_in_public():
    g = position({"GS1": "1909", "K1": "1909"}, step="F", turn=6)
    g.play(W, "pickup GS1 K1")
    assert g.state["siege"]["pour"]["GS1"] == "hold"  # holds until told
    _, ev = g.play(W, "pour GS1 any")
    assert "GS1" not in ev[0].public and "any" not in ev[0].public
    assert "GS1 will pour" in ev[0].private[W]
    assert GONDOR.public_order_text("pour GS1 any") == GONDOR.public_order_text("pour GS3 towers")
    assert "pour" not in GONDOR.view(g.state, S)["siege"]
    assert "(any)" not in " ".join(GONDOR.view(g.state, S)["notes"])
    assert GONDOR.view(g.state, W)["siege"]["pour"] == {"GS1": "any"}


def test_16_74_a_held_real_oil_and_an_armed_dummy_look_alike():
    """Sauron moving below a carrier learns nothing when nothing is poured:
    real oil held and dummy oil with an `any` order behave the same."""
    outs = []
    for real, mode in ((True, "hold"), (False, "any")):
        g = oil_game(real=real, mode=mode)
        _, ev = g.play(S, "move OI1 2009")
        outs.append(([(e.public, e.section, e.reveals, sorted(e.private)) for e in ev], g.state["dice"]["counter"],
                     GONDOR.view(g.state, S)))
        assert unit(g, "OI1")["status"] == "map"
    assert outs[0] == outs[1]


def test_16_74_the_public_view_never_says_which_carrier_is_real():
    for real in (True, False):
        g = oil_game(real=real)
        pub = g.ruleset.view(g.state, S)
        carrier = next(u for u in pub["units"] if u["id"] == "GS1")
        assert carrier["carrying"] == "oil" and "oil_real" not in carrier
        mine = next(u for u in g.ruleset.view(g.state, W)["units"] if u["id"] == "GS1")
        assert mine["oil_real"] is real
        assert ("REAL" in GONDOR.secret_text(g.state, W)) is real


def test_full_game_start_has_the_siege_state():
    g = Game.new(get_ruleset("gondor"))
    assert g.state["siege"]["heads_left"] == 12 and g.state["siege"]["ladders_left"] == 6


# ------------------------------------------------------ charts a group may load
def test_16_3_a_group_loads_its_own_breach_table():
    table = '[breach]\ncatapult.wall = ["2-12", "9", "10", "11"]\n'
    g = Game.new(get_ruleset("gondor"), options={"charts": table})
    assert c16_2_breach.breach_totals(GONDOR, g.state, "catapult", "wall", 1) == frozenset(range(2, 13))
    assert c16_2_breach.breach_totals(GONDOR, g.state, "catapult", "wall", 2) == frozenset({9})


@pytest.mark.parametrize("bad,why", [
    ('[breach]\ncatapult.wall = ["8-9", "9"]\n', "one per range"),
    ('[breach]\ncatapult.gate = ["7-8", "8", "9", "13"]\n', "within 2-12"),
    ('[scatter]\ndirections = ["n", "n", "se", "s", "sw", "nw"]\n', "six hexside directions"),
    ('[siege]\nladders = "many"\n', "must be a number"),
    ('[siege]\nladders = -2\n', "whole number"),
])
def test_16_3_a_malformed_siege_chart_is_refused(bad, why):
    from engine.core import InvalidOrder
    with pytest.raises(InvalidOrder) as e:
        Game.new(get_ruleset("gondor"), options={"charts": bad})
    assert why in str(e.value)


def test_a_group_chart_file_is_honoured_or_refused_never_ignored():
    g = Game.new(get_ruleset("gondor"), options={"charts": "[siege]\nladders = 2\nheads = 5\n[demoralization]\ngarrison = 10\n"
                                              "[leaders]\nrally = { GAN = 9 }\n"})
    assert g.state["siege"]["ladders_left"] == 2 and g.state["siege"]["heads_left"] == 5
    assert GONDOR.hooks.dem_level(GONDOR, g.state, "garrison") == 10 and GONDOR.hooks.printed_rally(GONDOR, g.state, "GAN") == 9
    from engine.core import InvalidOrder
    with pytest.raises(InvalidOrder) as e:
        Game.new(get_ruleset("gondor"), options={"charts": "[spells.fear]\ncost = 2\n"})
    assert "[spells]" in str(e.value) and "cannot be replaced" in str(e.value)


def test_16_73_a_cauldron_is_taken_by_a_unit_passing_through_and_15_15_gates_by_advance():
    g = position({"K1": "2010", "OI1": "2011"}, step="C", turn=7)
    g.play(S, "move OI1 2011 2010 2009")
    assert unit(g, "K1")["status"] == "eliminated" and unit(g, "OI1")["hex"] == "2009"
    # Grond breaches the Main Gate; the Troll advancing through it takes the gate (15.15)
    g = siege({"GRD": "1910", "TR1": "1910"}, grond_active=True)
    fixed_dice(g, [3, 3])
    g.play(S, "breach GRD 1910/n")
    g.play(S, "advance TR1 1909")
    assert g.state["gates"]["1910/n"] == S


def test_16_72_a_unit_enters_a_cauldron_hex_picks_up_oil_and_moves_off():
    """16.72: "enters the same hex as a Cauldron, picks up an Oil counter and
    moves off", free: the rest of its allowance (5 in the city, 15.21, less 1
    while carrying oil, 16.75)."""
    g = position({"GS1": "1401", "K1": "1402"}, step="F", turn=7)  # both in level 3
    g.play(W, "move GS1 1402")               # 1 MP
    g.play(W, "pickup GS1 K1")
    assert hooks.movement_allowance(GONDOR, g.state, "GS1") == 5 - 1 - 1
    g.play(W, "move GS1 1401")
    assert unit(g, "GS1")["hex"] == "1401"
    refused(g, W, "move GS1 1402", "4.0")    # and then it is done


def test_16_x_each_siege_order_lists_its_actions_from_the_siege_phase_pass():
    """Issue 29: every siege order has a legal-action generator: its record names the Siege Phase's pass
    (breaches, fireballs and heads of each catapult together, 16.2, 16.6, 16.8), and lists what that pass
    offers of its verb, in the same order as the seat's whole list (nothing listed twice)."""
    from engine.orders import legal_of

    g = siege({"SC1": "2903", "OI1": "2903"})
    every = [str(a) for a in g.legal_actions(S)]
    assert len(every) == len(set(every))
    for verb in ("breach", "fireball", "head"):
        mine = [str(a) for a in legal_of(GONDOR.orders[verb], GONDOR, g.state, S)]
        assert mine == [t for t in every if t.split()[0] == verb], verb
    assert "fireball SC1 at 2906" in every
