"""Issue 42: a Ringbearer's seat nobody plays has a seizure of the Ring (AA.2's Event 075, AA.1's `seize` by
M.3) rolled with the game's dice (`seizure roll`: one die, 1-3 held, 4-6 seized; a ruling, as M.3's
procedure and the characters' ratings are not available): a contest the rules resolve by a die roll is
never granted to one side, so Gondor's one attempt is not spent for nothing against an absent Fellowship."""
from __future__ import annotations

import pytest

from engine.core import IllegalOrder
from tests.spi_helpers import fixed_dice
from tests.wotr_helpers import RS, new, texts


def attempted(players: int = 4):
    """Gondor plays Event 075 with Boromir in the Ringbearer's hex (the set-up puts the Fellowship together)."""
    g = new(players)
    g.state["hands"]["gondor"].append("075")
    g.play("gondor", "event 075")
    return g


@pytest.mark.parametrize("die,held", [(1, True), (3, True), (4, False), (6, False)])
def test_issue42_a_seizure_against_an_absent_fellowship_is_rolled_both_outcomes_reachable(die, held):
    """Issue 42 (AA.2): the autopilot answers `seizure roll`, never `seizure held` every time; the game's
    die decides: 1-3 Frodo keeps the Ring, 4-6 Boromir seizes it. The roll is logged with the order and
    the reason goes with the action."""
    g = attempted()
    a = RS.autopilot_action(g.state, "fellowship")
    assert RS.format(a) == "seizure roll"
    assert "rolled with the game's dice" in a.memo["why"]
    fixed_dice(g, [die])
    _, ev = g.play("fellowship", RS.format(a))
    assert [r["value"] for e in ev for r in e.rolls] == [die]
    assert f"The seizure is rolled: {die}" in texts(ev)
    assert (g.state["ring"]["bearer"], g.state["chars"]["boromir"]["seat"]) == \
        (("frodo", "fellowship") if held else ("boromir", "gondor"))
    assert g.state["ring"]["seizure"] is None and g.state["boromir_attempted"]
    with pytest.raises(IllegalOrder):
        g.play("gondor", "event 075")  # (c.) Boromir has attempted: never again, whatever the roll


def test_issue42_denethors_seizure_is_rolled_too_and_a_present_seat_may_roll():
    """Issue 42 (AA.1, M.3): Denethor's `seize` waits for the same answer; the autopilot rolls it, and a
    player at the table may type `seizure roll` (it is offered with `held` and `lost`)."""
    g = new(4)
    g.state["chars"]["denethor"]["hex"] = g.state["chars"]["frodo"]["hex"]
    g.play("fellowship", "reveal frodo")  # Gondor must see the Ringbearer to try (M.3)
    while "gondor" not in g.active_seats() or g.state["phase"] != "turn":
        s = g.active_seats()[0]
        g.play(s, "draw none" if g.state["phase"] == "events" else "done")
    g.play("gondor", "seize denethor")
    assert RS.format(RS.autopilot_action(g.state, "fellowship")) == "seizure roll"
    assert "seizure roll" in [str(a) for a in g.legal_actions("fellowship")]
    fixed_dice(g, [5])
    _, ev = g.play("fellowship", "seizure roll")
    assert g.state["ring"]["bearer"] == "denethor" and "seizes the Ring from Frodo" in texts(ev)
