"""What the bot does for a seat whose deadline passes under the `pass`
policy when the rules do not let it stop (`deadline_action`): an owed
choice gets the first legal answer; an owed attack is made. Checked at the
engine level for both rulesets; the service loop is in
tests/bot/test_deadlines_service.py."""
from engine.core import Game
from tests.risk_helpers import actions_phase, empty_game, put
from tests.spi_helpers import fixed_dice, position
from tests.rulesets.risk.test_risk_rules import RS, _play_until, _sixes


def test_spi_7_5_a_pending_retreat_goes_to_the_first_legal_hex():
    g = position({"GS1": "1516", "OI1": "1517"}, step="G", turn=7)
    fixed_dice(g, [1, 1, 3])  # D vs 2 hits on 2; Morale Y roll 3: r2
    g.play("westernesse", "melee GS1 at 1517")
    p = g.state["pending"][0]
    assert len(p["options"]) > 1
    a = g.ruleset.deadline_action(g.state, "sauron")
    assert g.ruleset.format(a) == f"retreat OI1 {p['options'][0]}"
    assert g.ruleset.deadline_action(g.state, "westernesse") is None  # not the attacker's to answer
    g.play("sauron", g.ruleset.format(a))
    assert not g.state["pending"]


def test_spi_7_31_an_owed_attack_is_made_before_done():
    g = position({"GS1": "1516", "OI1": "1517"}, step="G", turn=7)
    a = g.ruleset.deadline_action(g.state, "westernesse")
    assert g.ruleset.format(a) == "melee GS1 at 1517"
    g.play("westernesse", "melee GS1 at 1517")
    while g.state["pending"]:
        seat = g.state["pending"][0]["seat"]
        g.play(seat, g.ruleset.format(g.ruleset.deadline_action(g.state, seat)))
    assert g.ruleset.deadline_action(g.state, "westernesse") is None
    g.play("westernesse", "done")


def test_spi_nothing_owed_means_no_deadline_action():
    g = position({"GS1": "1516", "OI1": "2020"}, step="F", turn=7)
    assert g.ruleset.deadline_action(g.state, "westernesse") is None


def test_risk_retreat_first_offered_path_at_the_deadline():
    """Retreat: the owner chooses; at a passed deadline the first path (the one losing fewest) is taken."""
    g = empty_game()
    put(g, "fort-w", "good", infantry=6)
    put(g, "fort-e", "evil", infantry=6)
    actions_phase(g, "good", 4)
    w, ev = _play_until(g, "good", "attack 3 from fort-w at fort-e",
                        lambda w, ev: _sixes(ev, "attack") == 1 and w.state["areas"]["fort-e"]["u"])
    a = RS.deadline_action(w.state, "evil")
    assert RS.format(a) == "retreat anduin-n"
    assert RS.deadline_action(w.state, "good") is None
    Game(RS, w.state).play("evil", RS.format(a))
