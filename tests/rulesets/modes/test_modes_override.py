"""Assist play: a declared order the engine refused only on a rule, accepted by a ruling, is carried
out by the engine with that rule set aside where the ruleset can (``RulesetBase.apply_overriding``;
the SPI games' moves), logged with the ruling and replayed exactly; where it cannot, nothing of the
game changes and the moderator carries it out by hand."""
from __future__ import annotations

import tests.pbp_helpers  # noqa: F401  (registers tiny-pbp)
from bot.history import walk
from engine.core import Game, state_digest
from engine.rulesets import get_ruleset
from tests.gondor_helpers import full_setup
from tests.rulesets.modes.test_modes import play, refused


def to_sauron_movement(log):
    g = Game.new(get_ruleset("gondor@assist"), {"mode": "assist"}, "s1")
    full_setup(g)
    first = g.state
    while "Movement" not in g.view(None)["phase_title"]:
        play(g, g.active_seats()[0], "done", log)
    return g, first


def test_an_accepted_move_beyond_the_rules_is_carried_out_and_replays():
    log: list = []
    g, first = to_sauron_movement(log)
    assert "cannot reach 0510" in refused(g, "sauron", "move OA1 0510")  # beyond its Movement Points (4.0)
    _, ev = play(g, "sauron", "!move OA1 0510", log)
    assert "illegal" in ev[0].public and g.state["units"]["OA1"]["hex"] == "0523"
    _, ev = play(g, "gm", "accept d1 because the orcs ran all night", log)
    texts = [e.public for e in ev]
    assert "**accepted** by the moderator" in texts[0] and "carries out d1" in texts[1]
    assert g.state["units"]["OA1"]["hex"] == "0510" and "OA1" in g.state["ph"]["moved"]
    p = g.view(None)["table"]["proposals"][0]
    assert p["applied"] and p["ruling"] == {"by": "gm", "reason": "the orcs ran all night"}
    # a second declared move of the same unit (4.0: once a phase), refused by the moderator: nothing moves
    play(g, "sauron", "!move OA1 0515", log)
    play(g, "gm", "refuse d2 because once is enough", log)
    assert g.state["units"]["OA1"]["hex"] == "0510"
    # replay from the log: the same state, digest for digest
    final = None
    for _, final, _ in walk("gondor@assist", first, log):
        pass
    g2, _ = to_sauron_movement([])
    for e in log[-4:]:
        g2.play(e["seat"], e["text"])
    assert state_digest(g2.state) == state_digest(g.state) == state_digest(final.state)


def test_what_the_engine_cannot_carry_out_is_left_to_the_moderator():
    log: list = []
    g, _ = to_sauron_movement(log)
    play(g, "sauron", "!move OA1 9999", log)  # off the map: no override can put it there
    before = dict(g.state["units"]["OA1"])
    _, ev = play(g, "gm", "accept d1 because a house rule", log)
    assert "moderator does" in ev[0].public and len(ev) == 1 and g.state["units"]["OA1"] == before
    play(g, "sauron", "!move WC1 0510", log)  # not Sauron's own unit
    _, ev = play(g, "gm", "accept d2 because a house rule", log)
    assert "moderator does" in ev[0].public and g.state["units"]["WC1"]["hex"] == "1907"
    play(g, "sauron", "Gothmog harangues his troops", log)  # not an order at all: nothing to say of it
    _, ev = play(g, "gm", "accept d3 because leaders do that", log)
    assert len(ev) == 1 and "moderator does" not in ev[0].public


def test_every_other_seat_accepting_carries_it_out_too():
    g, _ = to_sauron_movement([])
    play(g, "sauron", "!move OA1 0510")
    _, ev = play(g, "westernesse", "accept d1")
    assert "**accepted**" in ev[0].public and g.state["units"]["OA1"]["hex"] == "0510"


def test_the_moderator_adjusts_risk_armies_with_a_reason_and_it_replays():
    log: list = []
    g = Game.new(get_ruleset("risk-minas-tirith@assist"), {"mode": "assist"}, "s1")
    first = g.state
    good_points = g.view(None)["points"]["good"]
    assert "reason" in refused(g, "gm", "move city:inf rammas-n")
    _, ev = play(g, "gm", "move city:inf rammas-n because the sortie was agreed by both", log)
    areas = g.state["areas"]
    assert "infantry" not in areas["city"]["u"] and areas["rammas-n"]["u"]["infantry"] == 3
    assert "Good's 2 infantry moved Minas Tirith → Rammas North" in ev[0].public
    assert "sortie was agreed" in ev[0].public
    assert "held by Evil" in refused(g, "gm", "move rammas-n:inf osgiliath-w because x")
    assert "no piece" in refused(g, "gm", "move city:tro fort-w because x")  # none there
    _, ev = play(g, "gm", "move gothmog fields-e because he rode ahead", log)
    assert "gothmog" in areas_of(g, "fields-e")
    _, ev = play(g, "gm", "remove fields-e:tro because the troll fell in the river", log)
    assert "lost" in ev[0].public and g.state["lost"]["evil"]["troll"] == 1
    assert g.view(None)["points"]["good"] > good_points  # a loss, as in battle
    assert "reason" in refused(g, "gm", "remove fields-e:inf")
    assert "moderator" in refused(g, "good", "remove fields-e:inf because mine now")  # not a player's, in assist
    final = None
    for _, final, _ in walk("risk-minas-tirith@assist", first, log):
        pass
    assert state_digest(final.state) == state_digest(g.state)


def areas_of(g, aid):
    return g.state["areas"][aid]["leaders"]
