"""The base game's charts the table adjudicates (issue 15: "where the base game's numbers are unknown,
reconstructed charts a group can replace"): data/charts.toml's reconstructed army combat, individual combat
and Search Table, a group's own in its file, and `resolve <chart> <column> [<die modifier>]`, rolled from
the game's seeded stream (facts.md 6 and 9.1: the CRT and Search Table values are not found)."""
import copy
import json

import pytest

from engine.core import Game, IllegalOrder, InvalidOrder, OrderError
from engine.rulesets.wotr.charts import shipped
from engine.rulesets.wotr.common import load_toml
from tests.wotr_helpers import RS, new, to_phase

GROUP_CRT = """
[charts.combat]
name = "Combat Results Table"
dice = "1d6"
columns = ["1-2", "1-1", "2-1", "3-1"]
legend = { D1 = "defender loses a step" }
[charts.combat.rows]
1 = ["D1", "D1", "D1", "D1"]
2 = ["D1", "D1", "D1", "D1"]
3 = ["D1", "D1", "D1", "D1"]
4 = ["D1", "D1", "D1", "D1"]
5 = ["D1", "D1", "D1", "D1"]
6 = ["D1", "D1", "D1", "D1"]
"""


def test_the_shipped_charts_are_marked_reconstructed_with_their_reason():
    raw = load_toml("charts.toml")
    assert raw["reconstructed"] is True and raw["reason"]
    for cid in ("combat", "individual", "search"):
        assert raw[cid]["reconstructed"] is True and len(raw[cid]["reason"]) > 20, cid
    assert shipped()["search"]["dice"] == "2d6" and set(shipped()["search"]["rows"]) == set(range(2, 13))


def test_resolve_rolls_the_seeded_dice_and_prints_the_result_and_the_charts_name():
    a, b = new(5, seed="crt"), new(5, seed="crt")
    _, ev = a.play("gondor", "resolve combat 3-1")
    _, ev2 = b.play("gondor", "resolve combat 3-1")
    assert ev[0].public == ev2[0].public and ev[0].rolls == ev2[0].rolls  # the seeded stream: the same
    roll = ev[0].rolls[0]["value"]
    want = shipped()["combat"]["rows"][roll][4]
    assert ev[0].rolls[0]["n"] == 0 and ev[0].section == "Army Combat Results Table"
    assert f"Army Combat Results Table (reconstructed), column 3-1: {roll} -> **{want}**" in ev[0].public
    r = Game.new(RS, {"players": "5"}, "crt")
    r.play("gondor", "resolve combat 3-1")
    assert r.state == a.state  # a replay of the log reads the same die


def test_a_groups_chart_replaces_the_reconstructed_one_for_the_same_dice():
    base, group = new(5, seed="crt"), new(5, seed="crt", charts=GROUP_CRT)
    _, e1 = base.play("gondor", "resolve combat 3-1")
    _, e2 = group.play("gondor", "resolve combat 3-1")
    assert [(r["n"], r["value"]) for r in e1[0].rolls] == [(r["n"], r["value"]) for r in e2[0].rolls]  # the same die...
    assert "**D1** (defender loses a step)" in e2[0].public and "Combat Results Table (the group's)" in e2[0].public
    assert "**D1**" not in e1[0].public  # ...and another result
    with pytest.raises(IllegalOrder, match="no column `6-1`"):
        group.play("gondor", "resolve combat 6-1")  # the group's columns
    group.play("gondor", "resolve individual 0")  # the charts it leaves out stay the reconstruction's


def test_a_die_modifier_is_added_and_a_total_beyond_the_rows_reads_the_last_row():
    g = new(5, seed="crt")
    _, ev = g.play("saruman", "resolve individual -3 +12")
    roll = ev[0].rolls[0]["value"]
    assert f"{roll} +12 = {roll + 12} -> **A3**" in ev[0].public  # row 6, column -3
    _, ev = g.play("saruman", "resolve search 4 -12")
    assert "**S**" in ev[0].public  # below the first row: row 2


@pytest.mark.parametrize("text,why", [
    ("resolve", "usage"), ("resolve crt 3-1", "no chart `crt`"), ("resolve combat 9-1", "no column `9-1`"),
    ("resolve combat 3-1 x", "a die modifier"), ("resolve combat 3-1 +13", "a die modifier"),
])
def test_a_bad_resolve_is_refused_and_changes_nothing(text, why):
    g = new(5)
    before = copy.deepcopy(g.state)
    with pytest.raises((IllegalOrder, InvalidOrder), match=why):
        g.play("gondor", text)
    assert g.state == before


def test_the_canonical_form_round_trips():
    g = new(5)
    assert RS.format(RS.parse(g.state, "gondor", "resolve COMBAT 3:1 +0")) == "resolve combat 3-1"
    assert RS.format(RS.parse(g.state, "gondor", "resolve individual 2 1")) == "resolve individual +2 +1"


@pytest.mark.parametrize("change,why", [
    (lambda t: t.replace('6 = ["D1", "D1", "D1", "D1"]\n', ""), "every total of 1d6"),
    (lambda t: t.replace('3 = ["D1", "D1", "D1", "D1"]\n', ""), "without a gap"),
    (lambda t: t.replace('2 = ["D1", "D1", "D1", "D1"]', '2 = ["D1", "D1"]'), r"rows.2: 4 results"),
    (lambda t: t.replace('dice = "1d6"', 'dice = "1d7"'), "dice: 1d6"),
    (lambda t: t.replace('"2-1", "3-1"]', '"2-1", "2-1"]'), "given twice"),
    (lambda t: t.replace('name = "Combat Results Table"', 'odds = 3'), "unknown key `odds`"),
])
def test_a_bad_group_chart_is_refused(change, why):
    with pytest.raises(OrderError, match=why):
        new(5, charts=change(GROUP_CRT))


def test_the_group_file_and_its_charts_travel_in_the_state():
    g = new(5, charts=GROUP_CRT)
    st = json.loads(json.dumps(g.state))
    assert st["group"] == GROUP_CRT and st["map"] is False
    to_phase(g, "turn", "saruman")
    assert "resolve combat 2-1" in [RS.format(a) for a in RS.legal_actions(g.state, "saruman")]
