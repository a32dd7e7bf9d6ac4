"""Issue 40: a step's header in the record (render/record.py: header_texts) says the turn once."""
from engine.core import Game
from engine.rulesets import get_ruleset
from render.record import header_texts


def test_a_phase_title_that_names_its_turn_is_not_preceded_by_the_turn_again():
    """Issue 40: War of the Ring's phase titles name their turn ("Turn 1: Ring Phase"): its record's header
    read "Turn 1 · Turn 1: Ring Phase"; it says the turn once. A phase title that does not name the turn
    (Gondor's) still follows it."""
    wotr = Game.new(get_ruleset("wotr"), {"turns": "4"}, "x")
    assert header_texts(wotr.view(None))[0] == "Turn 1: Ring Phase"
    gondor = Game.new(get_ruleset("gondor"), {}, "x").view(None)
    assert header_texts({**gondor, "turn": 2})[0] == f"Turn 2 of 16 · {gondor['phase_title']}"
    assert header_texts({**gondor, "turn": 12, "phase_title": "Turn 12 of 16: …"})[0] == "Turn 12 of 16: …"
    assert header_texts({**gondor, "turn": 1, "phase_title": "Turn 12 of 16: …"})[0] == "Turn 1 of 16 · Turn 12 of 16: …"
