"""The Standard Rules charts as data (engine/spi/charts.py): loading,
queries, a group's override through `options:charts=<TOML>`, and malformed
charts refused with the line and the reason."""
import pytest

from engine.core import Game, InvalidOrder
from engine.spi.charts import ChartError, Charts, parse_result, parse_totals
from tests.spi_helpers import fixed_dice, position
from engine.rulesets import get_ruleset

W = "westernesse"


def test_standard_charts_load_and_read():
    ch = Charts.load()
    assert ch.cpt_hits("D", 2) == frozenset(range(2, 7))
    assert ch.cpt_hits("A", 1) == frozenset(range(2, 10))
    assert ch.cpt_hits("e", 2) == frozenset(range(2, 6))  # missile letters read the same rows
    assert ch.crt_result("Y", 1) == ("1/2E", "r2") and ch.crt_result("W", 6) == ()
    assert ch["movement"]["infantry"] == 4 and ch["movement"]["cavalry"] == 6 and ch["movement"]["leader"] == 6


def test_7_42_modified_rolls_above_6_are_no_effect_below_1_read_as_1():
    ch = Charts.load()
    assert ch.crt_result("Z", 7) == () and ch.crt_result("Z", 9) == ()
    assert ch.crt_result("Z", 0) == ch.crt_result("Z", 1) == ("E",)


def test_8_37_rally_table_rows():
    ch = Charts.load()
    assert ch.rally_totals(9) == frozenset(range(3, 12))
    assert ch.rally_totals(10) == frozenset(range(3, 13))
    assert ch.rally_totals(13) == "auto" and ch.rally_totals(15) == "auto"
    assert ch.rally_totals(0) == frozenset()


def test_8_5_magic_capabilities_chart():
    ch = Charts.load()
    assert [ch.magic_success_max(s) for s in range(0, 7)] == [6, 5, 4, 3, 2, 1, 1]


def test_7_25_leader_combat_columns_clamp():
    ch = Charts.load()
    assert ch.leader_combat_cell(-5, 6) == ch.leader_combat_cell(-2, 6) == ("-", "-")
    assert ch.leader_combat_cell(9, 6) == ch.leader_combat_cell(3, 6) == ("-", "k")
    # +1: the attacker never loses anything
    assert all(ch.leader_combat_cell(1, r)[0] == "-" for r in range(1, 7))


def test_override_replaces_a_table_and_changes_outcomes():
    text = '[cpt]\nD = ["2-12", "2-12", "2-12", "2-12"]\n'
    opts = Game.new(get_ruleset("gondor"), options={"charts": text}).state["options"]
    for override, hit in ((None, False), (opts, True)):
        g = position({"GS1": "1516", "OI1": "1517"}, step="G", turn=7)
        if override:
            g.state["options"] = override
        fixed_dice(g, [6, 6, 5])
        _, ev = g.play(W, "melee GS1 at 1517")
        assert ("6+6=12, casualty" in ev[0].public) is hit
        assert g.state["units"]["OI1"]["disrupted"] is hit
    # other tables are untouched by the override
    g = position({}, step="G", turn=7)
    g.state["options"] = opts
    assert g.ruleset.charts_for(g.state).cpt_hits("C", 1) == frozenset(range(2, 9))


@pytest.mark.parametrize("text,line,reason", [
    ("[cpt\nA = 1\n", 1, "not valid TOML"),
    ('# my chart\n[cpt]\nA = ["2-9", "2-9", "2-8"]\n', 3, "four cells"),
    ('[crt]\nW = ["1/2E", "r1", "D", "-", "-", "Q"]\n', 2, "unknown result `Q`"),
    ('[cpt]\nB = ["2-13", "2-8", "2-7", "2-6"]\n', 2, "within 2-12"),
    ('[cpt]\nB = ["1-8", "2-8", "2-7", "2-6"]\n', 2, "within 2-12"),
    ('\n[fanatic]\nmode = "berserk"\n', 3, "bypass_cpt"),
    ('[crt]\nX = ["-", "-", "-", "-", "-"]\n', 2, "six results"),
])
def test_malformed_charts_are_refused_with_the_line(text, line, reason):
    with pytest.raises(ChartError) as e:
        Charts.load(text)
    assert e.value.line == line and reason in e.value.reason
    with pytest.raises(InvalidOrder) as e2:
        Game.new(get_ruleset("gondor"), options={"charts": text})
    assert f"line {line}" in str(e2.value) and reason in str(e2.value)


def test_parsers():
    assert parse_totals("2,3,12", 2, 12) == frozenset({2, 3, 12})
    assert parse_totals("-", 2, 12) == frozenset()
    assert parse_result("1/2E r1") == ("1/2E", "r1") and parse_result("-") == ()
    with pytest.raises(ValueError):
        parse_result("E 1/2E")  # one loss at most
    with pytest.raises(ValueError):
        parse_totals("9-3", 2, 12)
