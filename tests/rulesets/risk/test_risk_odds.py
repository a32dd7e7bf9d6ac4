"""`/odds` for LOTR Risk: Minas Tirith: exact enumeration of the dice, checked
against the classic Risk figures and against a Monte Carlo of the real
resolution (the ruleset's own apply, with seeded Dice)."""
from collections import Counter
from fractions import Fraction

import pytest

from engine.core import Game, InvalidOrder, OrderError, clone
from tests.risk_helpers import RS, actions_phase, empty_game, put
from engine.rulesets.risk_minas_tirith import view


def test_no_modifiers_three_against_two_is_classic_risk_exactly():
    g = empty_game()
    put(g, "causeway", "good", infantry=5)
    put(g, "farms-n", "evil", infantry=5)
    t = view.odds_table(RS, g.state, "good", "attack 3 from causeway at farms-n")
    assert t["modifiers"] == []
    d = t["dice_losses"]
    assert d[(2, 0)] == Fraction(2275, 7776)
    assert d[(0, 2)] == Fraction(2890, 7776)
    assert d[(1, 1)] == Fraction(2611, 7776)
    assert sum(t["final"].values()) == 1
    text = RS.odds(g.state, "good", "attack 3 from causeway at farms-n")
    assert "you lose 2, they lose 0: 2275/7776" in text and "you lose 0, they lose 2: 2890/7776" in text
    assert len(text) < 1800 and "Modifiers: none" in text


def test_one_against_one_classic_and_ties_to_the_defender():
    g = empty_game()
    put(g, "causeway", "good", infantry=1)
    put(g, "farms-n", "evil", infantry=1)
    d = view.odds_table(RS, g.state, "good", "attack 1 from causeway at farms-n")["dice_losses"]
    assert d[(0, 1)] == Fraction(15, 36) and d[(1, 0)] == Fraction(21, 36)


def test_odds_lists_every_modifier():
    g = empty_game()
    put(g, "fields-e", "evil", ["gothmog", "nazgul"], infantry=5)
    put(g, "fort-w", "good", ["faramir"], infantry=3)
    text = RS.odds(g.state, "evil", "attack 3 from fields-e at fort-w")
    for word in ("attacking leader +1", "defending leader +1", "Banner of Gondor +1", "retreat"):
        assert word in text


def test_odds_refuses_bad_input_and_changes_nothing():
    g = empty_game()
    put(g, "causeway", "good", infantry=2)
    put(g, "farms-n", "evil", infantry=2)
    before = clone(g.state)
    for bad in ("attack 3 from causeway at farms-n", "attack 1 from causeway at city", "move 1inf from a to b"):
        with pytest.raises(OrderError):
            RS.odds(g.state, "good", bad)
    with pytest.raises(InvalidOrder):
        RS.odds(g.state, "good", "blah")
    assert g.state == before


def test_ranged_odds_binomial_on_sixes():
    g = empty_game()
    put(g, "grond", "good", archer=3)
    put(g, "causeway", "evil", infantry=5)
    d = view.odds_table(RS, g.state, "good", "fire 3 from grond at causeway")["dice_losses"]
    assert d[(0, 0)] == Fraction(125, 216) and d[(0, 3)] == Fraction(1, 216)


def _monte_carlo(g, seat, text, trials, seed, pick=None):
    """The real resolution (apply); a retreat the owner must choose is answered by
    ``pick(options, i)`` -- by default the first option, which is what /odds assumes."""
    counts = Counter()
    for i in range(trials):
        w = Game(RS, clone(g.state))
        w.state["dice"] = {"seed": f"{seed}-{i}", "counter": 0}
        before = {s: sum(v for k, v in w.state["lost"][s].items() if k != "leaders") for s in ("good", "evil")}
        w.play(seat, text)
        while w.state["pending"] and "retreat" in w.state["pending"]:
            head = w.state["pending"]["retreat"]["queue"][0]
            path = (pick or (lambda o, i: o[0]))(head["options"], i)
            w.play(head["side"], "retreat " + " ".join(path))
        after = {s: sum(v for k, v in w.state["lost"][s].items() if k != "leaders") for s in ("good", "evil")}
        other = "evil" if seat == "good" else "good"
        counts[(after[seat] - before[seat], after[other] - before[other])] += 1
    return counts


@pytest.mark.parametrize("case", ["plain", "modified", "choice", "free-choice"])
def test_odds_match_a_monte_carlo_of_the_real_resolution(case):
    """How to do Battle and Retreat: the enumeration against the real apply, retreats answered
    by their owner (the first option where the choice changes the losses, as the odds text says;
    any option where it does not)."""
    g = empty_game()
    pick = None
    if case == "choice":  # Evil's 2-step retreat from East Fort: via Anduin North, or blocked after W. Osgiliath
        put(g, "fort-w", "good", ["faramir"], infantry=6)
        put(g, "fort-e", "evil", infantry=3)
        put(g, "osgiliath-e", "good", infantry=1)
        seat, text = "good", "attack 3 from fort-w at fort-e"
    elif case == "free-choice":  # two one-step retreats that cost the same: any answer, the same odds
        put(g, "fort-w", "good", infantry=6)
        put(g, "fort-e", "evil", infantry=3)
        seat, text = "good", "attack 2 from fort-w at fort-e"
        pick = lambda opts, i: opts[i % len(opts)]  # noqa: E731
    elif case == "plain":
        put(g, "causeway", "good", infantry=5)
        put(g, "farms-n", "evil", infantry=4)
        seat, text = "good", "attack 3 from causeway at farms-n"
    else:  # leaders, banner, the Nazgul's sixes, blocked retreats
        put(g, "fields-e", "evil", ["gothmog", "nazgul"], infantry=4)
        put(g, "fort-w", "good", ["faramir"], infantry=3)
        put(g, "rammas-e", "good", infantry=1)
        put(g, "rammas-se", "evil", infantry=1)
        seat, text = "evil", "attack 3 from fields-e at fort-w"
    actions_phase(g, seat, 6)
    t = view.odds_table(RS, g.state, seat, text)
    exact = Counter()
    for (al, dl, _), p in t["final"].items():
        exact[(al, dl)] += p
    assert t["assumed_retreat"] == (case == "choice")
    assert ("Assumed: where a retreating force's owner may choose" in RS.odds(g.state, seat, text)) == \
        (case == "choice")
    n = 2500
    mc = _monte_carlo(g, seat, text, n, case, pick)
    for k in set(exact) | set(mc):
        p = float(exact.get(k, 0))
        sd = (p * (1 - p) / n) ** 0.5
        assert abs(mc.get(k, 0) / n - p) <= 4.5 * sd + 0.004, (k, mc.get(k, 0) / n, p)


def test_odds_assume_the_retreat_losing_fewest_and_other_answers_really_differ():
    """Retreat: where the owner's path choice changes the losses, /odds states its assumption;
    answering the other way gives other results (so the assumption is not idle)."""
    g = empty_game()
    put(g, "fort-w", "good", ["faramir"], infantry=6)
    put(g, "fort-e", "evil", infantry=3)
    put(g, "osgiliath-e", "good", infantry=1)
    actions_phase(g, "good", 6)
    text = "attack 3 from fort-w at fort-e"
    first = _monte_carlo(g, "good", text, 600, "cmp")
    last = _monte_carlo(g, "good", text, 600, "cmp", pick=lambda o, i: o[-1])
    assert sum(k[1] * v for k, v in last.items()) > sum(k[1] * v for k, v in first.items())
    assert RS.odds(g.state, "good", text).count("Assumed:") == 1
