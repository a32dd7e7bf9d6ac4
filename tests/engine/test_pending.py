"""Issue 29: a pending decision is a state that lists its own legal actions, the same way in every game
(engine/pending.py): a record ``{kind, seat, section, ...}`` whose kind a game declares as a ``Decision`` of
functions; while it waits, its seat's legal actions are its answers and every other order is refused with
its section; an offer (Risk's free advance) lapses with the seat's next other order."""
from __future__ import annotations

import copy

import pytest

from engine import pending
from engine.core import Game, IllegalOrder
from engine.rulesets import BUILTIN, get_ruleset
from tests.risk_helpers import RS, actions_phase, cards_phase, put
from tests.spi_checks import refused
from tests.spi_helpers import fixed_dice, position

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
    g = Game.new(get_ruleset("risk-minas-tirith"), options={"mt_cards": "sortie,courage,forced-march,gandalf"},
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
