"""Standard Rules movement (4.0), stacking (5.0), zones of control (6.0),
leaders (4.27, 8.1, 8.52) and reinforcement entry (14.0-14.2), as Gondor
uses them. Positions come from ``spi_helpers.position``; hex geometry is
checked by the tests themselves (terrain and adjacency asserted first)."""
import pytest

from engine.core import Game
from engine.hexgrid import Hex
from engine.rulesets.gondor import GONDOR
from tests.spi_checks import refused
from tests.spi_helpers import fixed_dice, position
from engine.rulesets import get_ruleset
from engine.spi import c06_zoc

W, S = "westernesse", "sauron"


def terrain(hx: str) -> str:
    return GONDOR.hexmap.hexes[Hex.parse(hx)].terrain


def hex_of(g, uid):
    return g.state["units"][uid]["hex"]


# ----------------------------------------------------------------- 4.0 allowances
def test_4_0_infantry_moves_four_clear_hexes_not_five():
    g = position({"GS1": "2516"}, step="F", turn=7)
    assert all(terrain(f"25{r}") == "clear" for r in range(11, 17))
    refused(g, W, "move GS1 2511", "4.0")  # 5 hexes
    _, ev = g.play(W, "move GS1 2512")  # 4 hexes, 4 MP
    assert hex_of(g, "GS1") == "2512"
    # the cheapest path is shown in the event (4.0)
    assert "via 2515 2514 2513" in ev[0].public and ev[0].section == "4.0"


def test_4_0_cavalry_moves_six_and_leaders_six():
    g = position({"GK1": "2516", "GS2": "2410"}, step="F", turn=7)
    refused(g, W, "move GK1 2509", "4.0")  # 7 hexes
    g.play(W, "move GK1 2510")  # 6 hexes
    assert hex_of(g, "GK1") == "2510"
    # a leader has 6 MP: it reaches a friendly unit 6 hexes away, not 7
    g2 = position({"IMR": "2416", "GS2": "2410", "GS3": "2409"}, step="F", turn=7)
    refused(g2, W, "move IMR 2409", "4.0")
    g2.play(W, "move IMR 2410")
    assert hex_of(g2, "IMR") == "2410"


def test_4_0_allowance_comes_from_the_chart():
    g = Game.new(get_ruleset("gondor"), options={"charts": "[movement]\ninfantry = 5\n"})
    pos = position({"GS1": "2516"}, step="F", turn=7)
    pos.state["options"] = g.state["options"]
    pos.play(W, "move GS1 2511")  # 5 hexes with the group's chart
    assert hex_of(pos, "GS1") == "2511"


# ----------------------------------------------------------------- 4.3 terrain
def test_4_3_rough_costs_two_and_three_for_cavalry():
    assert terrain("2712") == terrain("2713") == "rough" and terrain("2714") == "clear"
    g = position({"GS1": "2711", "GK1": "2611"}, step="F", turn=7)
    e = refused(g, W, "move GS1 2712 2713 2714", "4.0")
    assert "costs 5" in e.message  # 2 + 2 + 1 > 4
    g.play(W, "move GS1 2712 2713")  # 2 + 2 = 4
    assert hex_of(g, "GS1") == "2713"
    # cavalry: rough 3 each; 2611 -> 2712 (3) -> 2812 (1) -> ... 6 MP
    e = refused(g, W, "move GK1 2712 2812 2912 3012 3112", "4.0")
    assert "costs 7" in e.message


def test_4_3_forest_costs_two():
    assert terrain("3116") == terrain("3216") == "forest"
    g = position({"GS1": "3016"}, step="F", turn=7)
    assert Hex.parse("3016").distance(Hex.parse("3116")) == 1
    e = refused(g, W, "move GS1 3116 3216 3316", "4.0")
    assert "costs 5" in e.message
    g.play(W, "move GS1 3116 3216")
    assert hex_of(g, "GS1") == "3216"


def test_4_3_mountain_is_impassable():
    assert terrain("3405") == "mountain" and terrain("3305") == "clear"
    g = position({"GS1": "3305"}, step="F", turn=7)
    e = refused(g, W, "move GS1 3405", "4.0")
    assert "impassable" in e.message


def test_4_3_road_costs_half_along_the_road():
    road = ["1912", "1913", "1914", "1915", "1916", "1917", "1918", "1919", "2019", "2020"]
    assert all(GONDOR.hexmap.hexes[Hex.parse(h)].road for h in road)
    g = position({"GS1": "1912"}, step="F", turn=7)
    # 9 road steps = 4.5 MP: too far; 8 road steps = 4 MP: exactly the allowance
    refused(g, W, "move GS1 2020", "4.0")
    _, ev = g.play(W, "move GS1 2019")
    assert hex_of(g, "GS1") == "2019"
    assert "via 1913 1914 1915 1916 1917 1918 1919" in ev[0].public


def test_16_67_fire_marker_costs_three_more():
    g = position({"GS1": "1516"}, step="F", turn=7, markers=[{"type": "fire", "hex": "1517"}])
    e = refused(g, W, "move GS1 1517 1518", "4.0")
    assert "costs 5" in e.message  # 1 + 3 then 1
    # given only the destination, the cheapest path goes around the fire
    _, ev = g.play(W, "move GS1 1518")
    assert hex_of(g, "GS1") == "1518"
    assert "1517" not in ev[0].public.split("via")[1]


def test_4_0_explicit_path_checked_step_by_step():
    g = position({"GS1": "2516"}, step="F", turn=7)
    e = refused(g, W, "move GS1 2515 2513", "4.0")
    assert "not next to" in e.message
    g.play(W, "move GS1 2515 2415 2414")
    assert hex_of(g, "GS1") == "2414"


def test_4_0_moving_twice_refused():
    g = position({"GS1": "2516"}, step="F", turn=7)
    g.play(W, "move GS1 2515")
    refused(g, W, "move GS1 2514", "4.0", contains="already moved")


def test_4_0_moving_in_the_wrong_phase_refused():
    g = position({"GS1": "2516", "OI1": "3020"}, step="G", turn=7)
    refused(g, W, "move GS1 2515", "4.0", contains="Movement Phase")
    g = position({"GS1": "2516", "OI1": "3020"}, step="F", turn=7)
    refused(g, S, "move OI1 3019", "4.0")  # Sauron does not act in F


# ----------------------------------------------------------------- 5.0 stacking
def test_5_0_one_combat_unit_a_hex_leaders_free():
    g = position({"GS1": "2516", "GS2": "2514", "IMR": "2513", "GS3": "2513"}, step="F", turn=7)
    refused(g, W, "move GS1 2514", "5.0")
    g.play(W, "move IMR 2514")  # a leader stacks freely
    assert hex_of(g, "IMR") == "2514"


# ----------------------------------------------------------------- 4.27 / 8.1 / 8.52 leaders
def test_4_27_no_entering_a_hex_holding_only_enemy_leaders():
    g = position({"OI1": "1518", "IMR": "1517", "GS1": "1316"}, step="C", turn=7)
    refused(g, S, "move OI1 1517", "4.27")
    refused(g, S, "move OI1 1618 1617 1517", "4.27")


def test_8_1_a_leader_ends_its_move_with_a_friendly_combat_unit():
    g = position({"IMR": "2516", "GS1": "2514"}, step="F", turn=7)
    refused(g, W, "move IMR 2515", "8.1")
    g.play(W, "move IMR 2514")
    assert hex_of(g, "IMR") == "2514"


def test_8_52_magic_leaders_move_only_in_magic_phases():
    g = position({"GAN": "2516", "GS1": "2514"}, step="F", turn=7)
    refused(g, W, "move GAN 2514", "8.52")
    g = position({"GAN": "2516", "IMR": "2416", "GS1": "2514"}, step="A-westernesse", turn=7)
    refused(g, W, "move IMR 2514", "4.0")  # an ordinary leader waits for the movement phase
    g.play(W, "move GAN 2513")  # a magic leader may stand alone
    assert hex_of(g, "GAN") == "2513"


# ----------------------------------------------------------------- 6.0 zones of control
def test_6_0_entering_an_enemy_zoc_ends_the_move():
    g = position({"GS1": "1516", "OI1": "1518"}, step="F", turn=7)
    assert Hex.parse("1517") in c06_zoc.zoc_map(GONDOR, g.state, W)
    refused(g, W, "move GS1 1517 1417", "6.0", contains="must stop")
    g.play(W, "move GS1 1517")
    assert hex_of(g, "GS1") == "1517"


def test_6_0_leave_a_zoc_at_the_start_but_never_zoc_to_zoc():
    g = position({"GS1": "1517", "OI1": "1518"}, step="F", turn=7)
    zoc = c06_zoc.zoc_map(GONDOR, g.state, W)
    assert Hex.parse("1417") in zoc and Hex.parse("1416") not in zoc
    refused(g, W, "move GS1 1417 1416", "6.0", contains="straight into another")
    # the destination alone: the engine goes out of the ZOC and back in (1416)
    _, ev = g.play(W, "move GS1 1417")
    assert hex_of(g, "GS1") == "1417" and "via 1416" in ev[0].public


def test_6_0_disrupted_units_may_not_enter_an_enemy_zoc():
    g = position({"GS1": "1516", "OI1": "1518"}, step="F", turn=7)
    g.state["units"]["GS1"]["disrupted"] = True
    refused(g, W, "move GS1 1616 1617", "6.0", contains="Disrupted")
    refused(g, W, "move GS1 1517", "4.0")
    g.play(W, "move GS1 1616")  # outside the ZOC: fine
    assert hex_of(g, "GS1") == "1616"


def test_16_44_no_zoc_through_the_city_walls():
    # GS1 on level 1 behind the Outer Wall; 1709 is outside, across a wall hexside
    assert GONDOR.hexmap.side_index[(Hex.parse("1708"), Hex.parse("1709"))][0] == "wall"
    assert GONDOR.hexmap.level(Hex.parse("1708")) == 1 and terrain("1709") == terrain("1609") == "slope"
    g = position({"GS1": "1708", "OI1": "1710"}, step="C", turn=7)
    zoc = c06_zoc.zoc_map(GONDOR, g.state, S)
    assert Hex.parse("1709") not in zoc and Hex.parse("1608") not in zoc
    assert Hex.parse("1607") in zoc and Hex.parse("1808") in zoc  # level 1 too, no wall between
    g.play(S, "move OI1 1709 1609")  # passes beside GS1 without stopping
    assert hex_of(g, "OI1") == "1609"


# ----------------------------------------------------------------- 14.0 reinforcements
def test_14_0_entry_in_a_chain_costs_one_more_per_unit():
    g = position({}, step="C", turn=2)
    assert "2124" in GONDOR.entry_hexes["sauron"]
    # 1st through 2124 pays 1, 2nd 2, 3rd 3, 4th 4 (infantry MA 4)
    g.play(S, "move UH1 2124 2024 1924 1824")      # 1 + 3
    refused(g, S, "move UH2 2124 2024 1924 1824", "4.0", contains="costs 5")  # 2 + 3
    g.play(S, "move UH2 2124 2024 1924")           # 2 + 2
    refused(g, S, "move UH3 2124 2024 1924", "4.0")  # 3 + 2
    g.play(S, "move UH3 2124 2024")                # 3 + 1
    assert g.state["ph"]["entered"] == {"2124": 3}
    assert [hex_of(g, u) for u in ("UH1", "UH2", "UH3")] == ["1824", "1924", "2024"]


def test_14_0_entry_event_cites_the_case():
    g = position({}, step="C", turn=2)
    _, ev = g.play(S, "move UH1 2124")
    assert ev[0].section == "14.0" and "enters at 2124" in ev[0].public
    assert g.state["units"]["UH1"]["status"] == "map"


def test_14_1_sauron_reinforcements_not_before_turn_2():
    g = position({}, step="C", turn=1)
    refused(g, S, "move UH1 2124", "14.1")
    g = position({}, step="C", turn=2)
    refused(g, S, "move UH1 1923 1922 1921 1920 1919", "4.0")
    e = refused(g, S, "move UH1 1820 1819", "14.1")  # not an entry hex
    assert "entry hexes" in e.message


def test_14_2_aragorn_on_turn_10_along_the_south_edge():
    assert "0115" in GONDOR.entry_hexes["south"]
    g = position({"GS1": "2516"}, step="F", turn=9)
    refused(g, W, "move AS1 0115", "14.2")
    g = position({"GS1": "2516"}, step="F", turn=10)
    g.play(W, "move AS1 0115 0215")
    assert hex_of(g, "AS1") == "0215"


@pytest.mark.parametrize("roll,arrives", [(5, True), (6, True), (4, False), (1, False)])
def test_14_2_rohan_roll_at_the_start_of_turn_5(roll, arrives):
    g = position({"GS1": "2516", "OI1": "3020"}, step="H", turn=4)
    fixed_dice(g, [roll])
    g.play(S, "done")
    _, ev = g.play(W, "done")
    assert g.state["turn"] == 5 and g.state["step"] == "A-westernesse"
    roh = [e for e in ev if e.section == "14.2"]
    assert len(roh) == 1 and f"rolls {roll}" in roh[0].public
    assert [r["value"] for r in roh[0].rolls] == [roll]
    assert ("rohan" in g.state["arrived"]) is arrives


def test_14_2_no_rohan_roll_before_turn_5():
    g = position({"GS1": "2516", "OI1": "3020"}, step="H", turn=3)
    g.play(S, "done")
    _, ev = g.play(W, "done")
    assert g.state["turn"] == 4 and not [e for e in ev if e.section == "14.2"]


def test_14_2_rohan_enters_along_the_north_edge_once_arrived():
    assert "3812" in GONDOR.entry_hexes["rohan"]
    g = position({"GS1": "2516"}, step="F", turn=6)
    refused(g, W, "move RH1 3812", "14.2")
    g.state["arrived"]["rohan"] = 6
    g.play(W, "move RH1 3812 3712")
    assert hex_of(g, "RH1") == "3712"


def test_15_15_a_one_step_move_through_a_gate_takes_control_of_it():
    """The last side to pass through both hexes of a gate controls it; the
    start hex counts (a move of a single hex through the gate)."""
    from tests.spi_helpers import position
    g = position({"GS1": "1909"}, step="F", turn=3)
    g.state["gates"]["1910/n"] = "sauron"
    _, ev = g.play("westernesse", "move GS1 1910")
    assert g.state["gates"]["1910/n"] == "westernesse"
    assert any(e.section == "15.15" and "1910/n" in e.public for e in ev)


def test_14_0_a_reinforcement_with_no_affordable_entry_hex_is_refused_not_crashed():
    """14.0 chain: when every entry hex already costs more than the allowance,
    a destination-only move is refused with the reason and changes nothing."""
    from tests.spi_checks import refused
    g = position({"GS1": "0101"}, step="C", turn=2)
    g.state["units"]["UH1"]["status"] = "reinforcement"
    g.state["ph"]["entered"] = {hx: 9 for hx in GONDOR.entry_hexes["sauron"]}
    refused(g, "sauron", "move UH1 2124", "4.0", contains="cannot enter")
    assert not [a for a in GONDOR.legal_actions_for(g.state, "sauron", "UH1") if a.verb == "move"]


# ------------------------------------------- one search per order (issue 12): the checked path
def test_4_0_a_checked_move_carries_its_path_and_apply_uses_it_only_on_that_position():
    from engine.core import Action, clone

    g = position({"GS1": "2516", "GS2": "2410"}, step="F", turn=7)
    a = GONDOR.parse(g.state, W, "move GS1 2512")
    key, path, spent = a.memo["move"]
    assert path == ["2515", "2514", "2513", "2512"] and spent == 4  # 4.0: four clear hexes, 1 MP each
    # the log keeps the whole path (a replay validates it, no search); the channel's echo is as typed
    assert str(a) == "move GS1 2515 2514 2513 2512" and GONDOR.brief_order_text(str(a)) == "move GS1 2512"
    fresh = Action(a.verb, a.args)  # the same order with nothing remembered: apply validates the path
    assert fresh == a and str(fresh) == str(a)  # the memo is never part of the order
    s1, s2 = clone(g.state), clone(g.state)
    e1, e2 = GONDOR.apply(s1, W, a), GONDOR.apply(s2, W, fresh)
    assert s1 == s2 and [e.public for e in e1] == [e.public for e in e2]
    # a memo from another position is not trusted: GS2 moved meanwhile, so apply works the path out again
    GONDOR.apply(g.state, W, GONDOR.parse(g.state, W, "move GS2 2409"))
    a.memo["move"] = (key, ["2615", "2614", "2613", "2512"], 1)  # a wrong path under the old key
    s3 = clone(g.state)
    GONDOR.apply(s3, W, a)
    assert s3["units"]["GS1"]["hex"] == "2512" and s3["ph"]["spent"]["GS1"] == 4


def test_4_0_the_logged_path_replays_to_the_same_position_and_a_changed_one_is_checked():
    """The canonical move names its path; replaying it gives what the search gave, and a path the
    position no longer allows (a unit now in the way) is refused like any typed path (4.0, 6.0)."""
    from engine.core import clone

    g = position({"GS1": "2516"}, step="F", turn=7)
    searched = Game(GONDOR, clone(g.state))
    _, ev = searched.play(W, "move GS1 2512")
    canon = str(GONDOR.parse(g.state, W, "move GS1 2512"))
    _, ev2 = g.play(W, canon)
    assert g.state == searched.state and [e.public for e in ev] == [e.public for e in ev2]
    h = position({"GS1": "2516", "OA1": "2514"}, step="F", turn=7)
    refused(h, W, canon, "6.0", contains="zone of control")  # the logged path runs on past an enemy now
