"""Issue 29: a pending decision is a state that lists its own legal actions, the same way in every game
(engine/pending.py): a record ``{kind, seat, section, ...}`` whose kind a game declares as a ``Decision`` of
functions; while it waits, its seat's legal actions are its answers and every other order is refused with
its section; an offer (Risk's free advance) lapses with the seat's next other order."""
from __future__ import annotations

import copy

import pytest

from engine import pending
from engine.core import Action, Game, IllegalOrder, OrderError
from engine.rulesets import BUILTIN, get_ruleset
from tests.risk_helpers import RS, actions_phase, cards_phase, put
from tests.spi_checks import refused
from tests.spi_helpers import fixed_dice, position
from engine.spi import c03_sequence

W, S = "westernesse", "sauron"


def _retreat_7_5():
    """Gondor: GS1 melees OI1; CRT Y roll 4 is r1: Sauron chooses among three hexes (7.5)."""
    g = position({"GS1": "1516", "OI1": "1517"}, step="G", turn=7)
    fixed_dice(g, [1, 1, 4])
    g.play(W, "melee GS1 at 1517")
    return g


def test_7_5_a_retreat_to_choose_is_a_decision_record_listing_exactly_its_answers():
    g = _retreat_7_5()
    (p,) = g.state["pending"]
    assert (p["kind"], p["seat"], p["section"]) == ("retreat", S, "7.5")
    assert [str(a) for a in g.legal_actions(S)] == ["retreat OI1 1417", "retreat OI1 1518", "retreat OI1 1617"]
    assert list(g.legal_actions(W)) == []  # the other seat waits
    refused(g, W, "done", "7.5", contains="waiting for")
    refused(g, S, "done", "7.5", contains="first choose where OI1 retreats")
    refused(g, S, "move OI1 1518", "7.5")
    assert g.ruleset.deadline_action(g.state, S) == next(g.legal_actions(S))  # the deadline takes the first answer
    g.play(S, "retreat OI1 1518")
    assert not g.state["pending"] and g.active_seats() == [W]


def test_7_5_a_retreat_stored_before_decisions_had_a_kind_loads_as_one():
    g = _retreat_7_5()
    old = copy.deepcopy(g.state)
    for p in old["pending"]:
        del p["kind"], p["section"]
    again = Game(g.ruleset, old)  # upgrade_state, as for a game stored by an earlier release
    assert again.state == g.state
    assert [str(a) for a in again.legal_actions(S)] == [str(a) for a in g.legal_actions(S)]


def _keep_pending():
    g = Game.new(get_ruleset("risk-minas-tirith"), options={"mt_cards": "sortie+courage+forced-march+gandalf"},
                 seed="ex")
    gd = [c for c, d in RS.reinforcement_cards.items() if d["type"] == "creature" and d["shield"] == "good"][:3]
    cards_phase(g, "good", reinf=gd)
    g.state["hidden"]["mt_deck"] = ["sortie", "courage", "forced-march"]
    g.play("good", f"exchange {' '.join(gd)} special draw")
    return g


def test_risk_special_exchange_card_to_keep_is_a_decision_listing_its_answers():
    """Special Exchange (seed): of the two cards drawn, one is kept; nothing else is played first but
    the standing order `losses`, which either seat may give at any time."""
    g = _keep_pending()
    p = g.state["pending"]
    assert (p["kind"], p["seat"], p["keep"]) == ("keep", "good", ["sortie", "courage"])
    answers = [str(a) for a in g.legal_actions("good") if a.verb != "losses"]
    assert answers == ["keep sortie", "keep courage"]
    assert not [a for a in g.legal_actions("evil") if a.verb != "losses"]
    with pytest.raises(IllegalOrder) as e:
        g.play("good", "done")
    assert e.value.section == p["section"] and "first choose which of the two drawn cards" in e.value.message
    with pytest.raises(IllegalOrder) as e:
        g.play("evil", "done")
    assert "waiting for" in e.value.message and e.value.section == p["section"]
    g.play("good", "losses default")  # a standing order is not held up
    g.play("good", "keep courage")
    assert g.state["pending"] is None


def test_risk_free_advance_is_an_offer_that_lapses_with_another_order():
    """How to do Battle: the attacking cavalry may advance at once into the cleared Territory; any other
    order lets the offer lapse (it holds up nothing)."""
    g = Game.new(get_ruleset("risk-minas-tirith"), seed="adv")
    put(g, "causeway", "good", cavalry=5)
    actions_phase(g, "good", 3)
    g.state["pending"] = pending.new(RS.decisions["advance"], "good",
                                     advance={"from": "causeway", "to": "farms-n", "max": 2})
    acts = [str(a) for a in g.legal_actions("good")]
    assert "advance 2cav from causeway to farms-n" in acts and "done" in acts  # offered with the rest
    assert g.active_seats() == ["good"]
    g.play("good", "done")
    assert g.state["pending"] is None  # lapsed


def test_risk_decisions_stored_before_they_had_a_kind_load():
    g = _keep_pending()
    old = copy.deepcopy(g.state)
    for k in ("kind", "seat", "section"):
        del old["pending"][k]
    assert Game(g.ruleset, old).state == g.state


@pytest.mark.parametrize("name", sorted(BUILTIN))
def test_every_decision_is_a_record_of_functions_found_by_its_kind(name):
    """Each game that has pending decisions declares them as ``Decision`` records (functions, not names);
    the kind in the state is only the key of that table."""
    rs = get_ruleset(name)
    table = getattr(rs, "decisions", None)
    if table is None:
        pytest.skip(f"{name} has no pending decision that holds up play (see engine/pending.py)")
    for kind, d in table.items():
        assert isinstance(d, pending.Decision) and d.kind == kind and d.section
        assert callable(d.legal) and callable(d.awaited) and callable(d.first)


# --- every game's waiting decisions, checked the same way (issue 29) -----------------------------------
def _sauron_challenge_22_3():
    """Sauron: Isildur challenges Gorgol in the Westernesse Combat Phase (22.0); in Sauron's next phase
    the challenge waits for its answer (22.3), an offer among Sauron's other orders."""
    g = Game.new(get_ruleset("sauron"), seed="rules")
    g.play(S, "done")
    g.play(W, "done")
    rs, st = g.ruleset, g.state
    for uid, hx in {"GOR": "2707", "ISI": "2703"}.items():
        st["units"][uid].update(hex=hx, status="map")
    st["step"], st["done"], st["ph"] = "G", [], c03_sequence._fresh_phase(rs)
    g.play(W, "challenge ISI GOR")
    assert g.ruleset.waiting_decisions(g.state) == []  # the answer waits for Sauron's next phase (22.3)
    st = g.state  # a play commits a new state
    st["step"], st["done"], st["turn"], st["ph"] = "A", [], 2, c03_sequence._fresh_phase(rs)
    return g


def _wotr_seizure_aa_2():
    """War of the Ring: Gondor plays Event 075 (Boromir with the Ringbearer); the Fellowship answers the
    seizure at any time (AA.2) while the other seats go on playing."""
    from tests.wotr_helpers import new
    g = new(4)
    g.state["hands"]["gondor"].append("075")
    g.play("gondor", "event 075")
    return g


def _risk_advance():
    g = Game.new(get_ruleset("risk-minas-tirith"), seed="adv")
    put(g, "causeway", "good", cavalry=5)
    actions_phase(g, "good", 3)
    g.state["pending"] = pending.new(RS.decisions["advance"], "good",
                                     advance={"from": "causeway", "to": "farms-n", "max": 2})
    return g


def _celebrant_entry_14_31(version: int = 2):
    """Field of Celebrant: Eye of Sauron, die 1 (14.33): Westernesse decides where the Eotheod enter, as
    the chits resolve at the start of Game-Turn 6 (3.0 A.1), in the Shadow half of Phase A."""
    from tests.rulesets.celebrant.test_celebrant_rules import pos
    g = pos({"GS1": "2820"}, step="F-westernesse", turn=5, chits=("6 NE", "Eye of Sauron"), balchoth=2)
    g.state["version"] = version
    g = Game(g.ruleset, g.state)  # (version 1: as a game stored by an earlier release is loaded)
    fixed_dice(g, [1])
    g.play("westernesse", "done")
    return g


def _celebrant_entry_before_done():
    """The same in a game stored before the choice was queued: Westernesse chooses among its other orders
    in its own phase, before it is done (14.31 as it was played then; ``upgrade_state``)."""
    g = _celebrant_entry_14_31(version=1)
    g.play("shadow", "done")
    return g


# each case: how it arises, and wrong answers (seat, order) that the decision refuses with its section
WAITING = {"7.5 retreat (Standard Rules)": (_retreat_7_5, [(W, "retreat OI1 1518"), (S, "move OI1 1518")]),
           "22.3 challenge (Sauron)": (_sauron_challenge_22_3, [(S, "accept ISI"), (S, "decline GA1")]),
           "AA.2 seizure (War of the Ring)": (_wotr_seizure_aa_2, [("gondor", "seizure held"),
                                                                  ("dark-power", "seizure lost")]),
           "keep (Risk)": (_keep_pending, [("evil", "keep sortie"), ("good", "keep gandalf")]),
           "free advance (Risk)": (_risk_advance, [("good", "advance 3cav from causeway to farms-n")]),
           "14.31 entry area (Field of Celebrant)": (_celebrant_entry_14_31, [
               ("shadow", "entry NW"), ("shadow", "done"), ("westernesse", "done"),
               ("westernesse", "move GS1 2821")]),
           "14.31 entry area, a game begun before (Field of Celebrant)": (_celebrant_entry_before_done, [])}


@pytest.mark.parametrize("case", sorted(WAITING))
def test_every_waiting_decision_lists_exactly_its_answers_and_refuses_a_wrong_one_with_its_section(case):
    """Whatever the game: the records waiting now (``waiting_decisions``) each name a declared kind with
    its section; the legal actions of their seat include exactly the decision's answers (a decision that
    holds up play: nothing else but a standing order, and no other seat acts); no other seat is offered
    them; a wrong answer is refused with the decision's section and changes nothing; an offer that holds
    up `done` (22.3) refuses it with its section; an answer clears the record."""
    build, wrong = WAITING[case]
    g = build()
    rs, st = g.ruleset, g.state
    (p,) = rs.waiting_decisions(st)
    d = rs.decisions[p["kind"]]
    assert p["section"] == d.section and p["seat"] in rs.seats
    answers = [str(a) for a in d.legal(rs, st, p)]
    assert answers, "the decision offers its seat an answer"
    mine = [str(a) for a in g.legal_actions(p["seat"])]
    assert sorted(a for a in mine if a.split()[0] in d.answers) == sorted(answers)
    if not d.offer:  # it holds up play: the seat has nothing else to do (but a standing order, Risk)
        assert [a for a in mine if a.split()[0] != "losses"] == answers
        assert g.active_seats() == [p["seat"]]
    for other in rs.seats:
        if other != p["seat"]:
            assert not [a for a in g.legal_actions(other) if str(a) in answers]
    for seat, text in wrong:
        refused(g, seat, text, d.section)
    if d.before_done:
        refused(g, p["seat"], "done", d.section)
    g.play(p["seat"], answers[0])  # an answer given clears the record
    assert rs.waiting_decisions(g.state) == []


def test_22_3_a_challenge_is_an_offer_the_challenged_seat_answers_among_its_other_orders():
    """22.3: in Sauron's phase the challenge to Gorgol is answered `accept GOR` or `decline GOR` beside its
    other orders (it holds up nothing else), a leader without a challenge is refused with 22.3, and `done`
    waits for the answer."""
    g = _sauron_challenge_22_3()
    g.state["step"], g.state["ph"] = "C", c03_sequence._fresh_phase(g.ruleset)  # Sauron's Movement Phase: moves to give
    (p,) = g.ruleset.waiting_decisions(g.state)
    assert (p["kind"], p["seat"], p["section"], p["leader"], p["challenger"]) == ("challenge", S, "22.3", "GOR", "ISI")
    acts = [str(a) for a in g.legal_actions(S)]
    assert {"accept GOR", "decline GOR"} <= set(acts)
    assert any(a.startswith("move ") for a in acts) and "done" not in acts  # with the rest; `done` waits
    assert g.active_seats() == [S]
    refused(g, S, "accept OLG" if "OLG" in g.ruleset.units else "accept GA1", "22.3")
    refused(g, S, "done", "22.3", contains="answer the challenge to GOR first")
    assert g.ruleset.deadline_action(g.state, S) == Action("decline", ("GOR",))  # 22.3 at a deadline
    g.play(S, "accept GOR")
    assert g.ruleset.waiting_decisions(g.state) == [] and g.state["sau"]["mortal"][0]["status"] == "accepted"


def test_aa2_a_seizure_is_an_offer_that_holds_up_no_seat():
    """AA.2: the seizure waits for the Fellowship's answer, but the seats whose turn it is play on; the
    bot's active seats are not changed by it (nothing stalls on an answer given at any time)."""
    g = _wotr_seizure_aa_2()
    before = g.active_seats()
    (p,) = g.ruleset.waiting_decisions(g.state)
    assert (p["kind"], p["seat"], p["section"], p["by"]) == ("seizure", "fellowship", "AA.2", "boromir")
    assert g.active_seats() == before  # the seats acting now are the same as before the attempt
    assert all(any(str(a) == "done" for a in g.legal_actions(s)) for s in before)  # and play on
    g.play("fellowship", "seizure held")
    assert g.ruleset.waiting_decisions(g.state) == [] and g.state["ring"]["seizure"] is None


def test_only_an_offer_not_owed_before_done_lapses_with_another_order():
    """``offer`` means other orders are allowed while it waits; ``before_done`` that it is still owed: an
    offer owed before `done` (22.3; 14.31 in a Field of Celebrant game stored before it was queued) does
    not lapse with the seat's next other order, as Risk's free advance does."""
    cel = get_ruleset("celebrant")
    owed = pending.new(cel.decisions["entry-before-done"], "westernesse")
    move = Action("move", ("GS1", "2821"))
    assert not pending.lapses(cel.decisions, [owed], move)
    free = pending.new(RS.decisions["advance"], "good", advance={"from": "causeway", "to": "farms-n", "max": 2})
    assert pending.lapses(RS.decisions, free, Action("done", ()))
    assert not pending.lapses(RS.decisions, free, Action("advance", ("2cav", "from", "causeway", "to", "farms-n")))
