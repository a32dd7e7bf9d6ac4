"""War of the Ring for four and five players (seed:001): the skeleton and the variant's rules, each test
citing its section."""
import pytest

from engine.core import IllegalOrder, OrderError
from engine.rulesets import get_ruleset
from tests.wotr_helpers import RS, new, play, put, texts, to_phase


# ---------------------------------------------------------------- seats, order, who controls what
def test_seats_and_default_level_of_play_is_assist():
    assert RS.seats == ("fellowship", "dark-power", "saruman", "gondor", "rohan")
    assert RS.default_mode == "assist" and RS.optional_seats == ("rohan",)
    assert get_ruleset("wotr@assist").optional_seats == ("rohan", "gm")
    # no other ruleset has a default level of play
    for name in ("gondor", "sauron", "celebrant", "risk-minas-tirith"):
        assert get_ruleset(name).default_mode is None


def test_sequence_of_play_1_four_player_order_of_draw_and_turns():
    g = new(4)
    assert g.active_seats() == ["saruman", "fellowship", "gondor", "dark-power"]  # Ring Phase, all
    to_phase(g, "events")
    drawn = []
    while g.state["phase"] == "events":
        [s] = g.active_seats()
        drawn.append(s)
        g.play(s, "draw none")
    assert drawn == ["saruman", "fellowship", "gondor", "dark-power"]
    to_phase(g, "turn")
    turns = []
    while g.state["phase"] == "turn":
        [s] = g.active_seats()
        turns.append(s)
        g.play(s, "done")
    assert turns == ["saruman", "fellowship", "gondor", "dark-power"] and g.state["turn"] == 2


def test_sequence_of_play_2_five_player_order():
    g = to_phase(new(5), "turn")
    turns = []
    while g.state["phase"] == "turn":
        [s] = g.active_seats()
        turns.append(s)
        g.play(s, "done")
    assert turns == ["saruman", "fellowship", "rohan", "gondor", "dark-power"]


def test_four_player_gondor_controls_the_rohan_characters_and_units():
    g = new(4)
    for c in ("denethor", "boromir", "faramir", "imrahil"):
        assert c in g.state["chars"]
    for c in ("theoden", "theodred", "eomer", "eowyn"):
        assert g.state["chars"][c]["seat"] == "gondor"
    assert RS._unit_seat(g.state, "roh-ed") == "gondor"
    with pytest.raises(IllegalOrder, match="no Rohan player"):
        g.play("rohan", "done")


def test_five_player_rohan_controls_its_four_characters():
    g = new(5)
    assert {c for c, d in g.state["chars"].items() if d["seat"] == "rohan"} == {"theoden", "theodred", "eomer", "eowyn"}
    assert RS._unit_seat(g.state, "roh-ed") == "rohan" and RS._unit_seat(g.state, "gon-mt") == "gondor"


def test_map_has_the_seeds_hexes_provinces_and_places():
    b = RS.board
    assert b.province_of["E0630"] == "south-ithilien" and b.province_of["W3022"] == "east-emnet"
    for p in ("gorgoroth", "nurn"):
        assert p in b.areas
    for place in ("minas-tirith", "dol-amroth", "helms-deep", "dunharrow", "edoras", "rivendell", "lothlorien"):
        assert place in b.places
    assert set(b.terrain.values()) == {"clear", "desert", "rough", "marsh", "forest/rough", "mountain", "forest",
                                       "citadel", "town", "tunnels"}
    import tomllib
    from engine.rulesets.wotr.common import DATA
    for f in ("map.toml", "forces.toml"):
        d = tomllib.loads((DATA / f).read_text())
        assert d["reconstructed"] is True and d["reason"]


def test_options_are_checked():
    with pytest.raises(OrderError):
        new(6)
    with pytest.raises(OrderError):
        RS.new_game({"scenario": "peace"}, "s")


def test_a_random_game_ends():
    import random
    g = new(5, turns=3)
    rnd = random.Random(3)
    for _ in range(3000):
        if g.result() is not None:
            break
        s = rnd.choice(g.active_seats())
        acts = list(g.legal_actions(s))
        g.play(s, RS.format(rnd.choice(acts)))
    assert g.result() is not None
