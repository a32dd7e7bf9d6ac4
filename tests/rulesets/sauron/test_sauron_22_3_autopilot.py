"""Issue 42: a Sauron seat nobody plays answers a challenge to Mortal Combat (22.3) by what costs its side
less, by the engine's own odds (22.2 fought to the end), so that an opponent gains nothing by challenging
it again and again (``c22_mortal_combat.challenge_answer``, ``pending.Decision.autopilot``)."""
from __future__ import annotations

from tests.sauron_helpers import RS, at, game, place, refused
from engine.rulesets.sauron import c22_mortal_combat


def challenged(g, turn: int, challenger: str = "ISI", leader: str = "GOR") -> None:
    """Westernesse challenges in its Combat Phase of ``turn``; Sauron is to answer in its next phase."""
    at(g, "G", turn=turn)
    g.play("westernesse", f"challenge {challenger} {leader}")
    at(g, "A", turn=turn + 1)


def paid(g) -> int:
    return g.state["sau"]["dem_extra"].get("sauron", 0)


def test_issue42_challenging_an_absent_sauron_again_and_again_takes_no_more_than_one_fight_would_cost():
    """Issue 42 (22.3): Isildur challenges Gorgol every turn, Sauron on autopilot. Declining costs 4 each
    time (Gorgol's Rally Points) and the fight an expected 4 (Gorgol dies); the autopilot declines only
    while what its side has paid for declines stays within the fight's expected cost, then accepts, and
    the bound leader can be challenged no more. Ten challenges cost the absent side 4 + one fight, not the
    40 that declining every time (the autopilot before issue 42) cost."""
    g = game()
    place(g, GOR="2707", ISI="2703")
    answers, total = [], 0.0
    for n in range(10):
        challenged(g, 1 + n)
        costs = c22_mortal_combat.challenge_costs(RS, g.state, "GOR", "ISI")
        a = RS.autopilot_action(g.state, "sauron")
        assert a.verb in ("accept", "decline") and a.args == ("GOR",), a
        answers.append(a.verb)
        g.play("sauron", RS.format(a))
        if a.verb == "accept":
            total = paid(g) + float(costs["accept"])
            break
        assert paid(g) <= costs["accept"], (n, paid(g), costs)  # never more than one fight's expected cost
    assert answers == ["decline", "accept"], answers
    assert total <= 2 * 4 < 10 * 4
    at(g, "G", turn=12)
    refused(g, "westernesse", "challenge ISI GOR", "22.0")  # bound to the accepted fight: no more challenges


def test_issue42_the_answer_flips_with_the_odds_and_says_why_without_a_secret():
    """Issue 42 (22.2, 22.3): the same challenge is declined while Gorgol surely dies and accepted once
    Isildur carries two wounds (the fight then costs Sauron's side less than 22.3's 4 points: Isildur
    dies more often than Gorgol). The reason names both costs and the odds, from what every map shows."""
    g = game()
    place(g, GOR="2707", ISI="2703")
    challenged(g, 1)
    no = RS.autopilot_action(g.state, "sauron")
    assert (no.verb, c22_mortal_combat.challenge_costs(RS, g.state, "GOR", "ISI")["dies"]) == ("decline", 1)
    assert "declining: +4 (22.3)" in no.memo["why"] and "GOR dies 100.0%" in no.memo["why"]

    g2 = game()
    place(g2, GOR="2707", ISI="2703")
    g2.state["units"]["ISI"]["wounds"] = 2
    challenged(g2, 1)
    c = c22_mortal_combat.challenge_costs(RS, g2.state, "GOR", "ISI")
    assert c["kills"] > c["dies"] and c["accept"] < c["decline"]
    yes = RS.autopilot_action(g2.state, "sauron")
    assert yes.verb == "accept" and "GOR accepts" in yes.memo["why"] and "expected net -3.5" in yes.memo["why"]
    _, ev = g2.play("sauron", RS.format(yes))
    assert "GOR accepts ISI's challenge" in ev[0].public


def test_issue42_the_fights_cost_counts_the_ring():
    """Issue 42 (16.61 through 7.251): Sauron's own death in Mortal Combat gives the Ring to his killer,
    20 more points of demoralization; the expected cost of the fight counts them (it is played on a copy
    by the engine's own 7.222), so Sauron declines an even challenge the bare Rally Points (20.2) would
    have him accept."""
    g = game()
    place(g, SAU="2707", ELE="2703")
    g.state["units"]["SAU"]["wounds"] = 1  # an even fight: each dies 55%
    assert c22_mortal_combat.may_challenge(RS, g.state, "ELE", "SAU")
    c = c22_mortal_combat.challenge_costs(RS, g.state, "SAU", "ELE")
    bare = 10 * c["dies"] - 9 * c["kills"]  # Rally Points alone: Sauron's 5 + 5, Elendil's 4 + 5
    assert bare < c["decline"] <= c["accept"], (bare, c)
    challenged(g, 1, "ELE", "SAU")
    assert RS.autopilot_action(g.state, "sauron").verb == "decline"


def test_issue42_a_passed_deadline_answers_a_challenge_as_the_autopilot_does():
    """Issue 42 (22.3): a seat that lets its deadlines pass (not on autopilot) is absent too: its challenge is
    answered at the deadline by the same weighing, not declined every time (ten challenges would cost 40)."""
    g = game()
    place(g, GOR="2707", ISI="2703")
    answers = []
    for n in range(10):
        challenged(g, 1 + n)
        a = RS.deadline_action(g.state, "sauron")
        auto = RS.autopilot_action(g.state, "sauron")
        assert (a.verb, a.args) == (auto.verb, auto.args)
        answers.append(a.verb)
        g.play("sauron", RS.format(a))
        if a.verb == "accept":
            break
    assert answers == ["decline", "accept"] and paid(g) == 4, (answers, paid(g))
    g2 = game()
    place(g2, GOR="2707", ISI="2703")
    g2.state["units"]["ISI"]["wounds"] = 2  # the odds favour Gorgol: accepted at the first deadline
    challenged(g2, 1)
    assert RS.format(RS.deadline_action(g2.state, "sauron")) == "accept GOR"
