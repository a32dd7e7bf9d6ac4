"""A renderer that knows no game (issue 26): a ruleset declares how its pieces look (engine/display.py's
vocabulary, ``data/display.json``) and its view sends that declaration and each unit's generic marks;
a new piece kind is drawn from a copy of a declaration, with no change in ``render/``."""
from __future__ import annotations

import copy

import pytest

from engine import display as D
from engine.core import Game
from engine.rulesets import get_ruleset
from render.hexmap import compose, legend_for
from tests.render_sample import sample_view

HEX_GAMES = ("gondor", "sauron", "celebrant")


def _counter_box(lay, h: str):
    from engine.hexgrid import Hex
    cx, cy = lay.center(Hex.parse(h))
    r = lay.s * 0.55
    return (round(cx - r), round(cy - r + lay.s * 0.2), round(cx + r), round(cy + r))


def _one_unit_view(decl: dict, unit: dict) -> dict:
    v = sample_view(None, siege=False)
    v["display"] = decl
    v["units"] = [dict(unit, hex="1809", side="sauron")]
    v["markers"] = []
    return v


@pytest.mark.parametrize("name", HEX_GAMES)
def test_each_hex_game_declares_a_shape_for_every_unit_type(name):
    """Every unit type of a game's order of battle is drawn with a symbol of the renderer's library:
    one of the same name, or the one its declaration names (a new type without either would be a
    lettered box)."""
    rs = get_ruleset(name)
    decl = D.check(rs.display)
    shapes = decl.get("shapes", {})
    for t in sorted({u.type for u in rs.units.values()}):
        assert t in D.SHAPES or shapes.get(t) in D.SHAPES, (name, t)
    assert Game.new(rs, seed="look").view(None)["display"] is rs.display


def test_the_vocabulary_refuses_what_the_renderer_cannot_draw():
    with pytest.raises(ValueError):
        D.check({"shapes": {"wagon": "wagon"}})
    with pytest.raises(ValueError):
        D.check({"markers": {"smoke": {"style": "smoke"}}})
    with pytest.raises(ValueError):
        D.check({"legend": [{"label": "Smoke", "draw": "cloud"}]})
    with pytest.raises(ValueError):
        D.check({"colours": {}})
    from render import counters as C
    assert set(D.SHAPES) == set(C.SHAPES)
    assert set(D.MARKER_STYLES) == set(C.MARKER_STYLES) | {"crack"}


def test_a_new_piece_kind_is_drawn_from_a_copy_of_a_declaration():
    """A fixture ruleset: Gondor's declaration plus a piece kind it does not have (a war wagon, drawn
    as a ram that may glow) and a marker (smoke, drawn as a flame) with their legend lines."""
    rs = get_ruleset("gondor")
    hexmap = rs.hexmap
    decl = copy.deepcopy(rs.display)
    decl["shapes"]["war_wagon"] = "ram"
    decl["markers"]["smoke"] = {"style": "flame", "label": "Smoke"}
    decl["legend"].append({"label": "Wagon rolling", "draw": "counter", "shape": "ram", "glow": True,
                           "when": ["ram"]})
    D.check(decl)
    wagon = {"id": "WW1", "type": "war_wagon", "ratings": "4"}
    drawn, lay, _ = compose(_one_unit_view(decl, wagon), hexmap, around="1809")
    # without the declaration: the renderer knows no war wagon, a lettered box
    bare, _, _ = compose(_one_unit_view(rs.display, wagon), hexmap, around="1809")
    # a unit of a type whose shape is the same ram, with the same texts: the same picture
    ram, _, _ = compose(_one_unit_view(decl, dict(wagon, type="grond")), hexmap, around="1809")
    box = _counter_box(lay, "1809")
    assert drawn.crop(box).tobytes() == ram.crop(box).tobytes()
    assert drawn.crop(box).tobytes() != bare.crop(box).tobytes()
    # its generic marks are drawn too
    lit, _, _ = compose(_one_unit_view(decl, dict(wagon, look={"glow": True})), hexmap, around="1809")
    assert lit.crop(box).tobytes() != drawn.crop(box).tobytes()
    # the new legend lines
    names = legend_for(hexmap, {"display": decl}).names()
    assert {"Smoke", "Wagon rolling"} <= set(names)
    assert not {"Smoke", "Wagon rolling"} & set(legend_for(hexmap, {"display": rs.display}).names())
    # the smoke marker is a flame chit, as the declaration says
    v = _one_unit_view(decl, wagon)
    v["markers"] = [{"type": "smoke", "hex": "2010"}]
    fire = copy.deepcopy(v)
    fire["markers"] = [{"type": "fire", "hex": "2010"}]
    a, lay2, _ = compose(v, hexmap, around="2010")
    b, _, _ = compose(fire, hexmap, around="2010")
    assert a.tobytes() == b.tobytes()
    undeclared = copy.deepcopy(v)
    undeclared["display"] = rs.display
    assert compose(undeclared, hexmap, around="2010")[0].tobytes() != a.tobytes()


def test_the_public_view_sends_no_mark_that_tells_a_dummy():
    """16.71 / 16.74: the marks a public or Sauron's view sends are the same whichever cauldron is real;
    a hollow drop or a faded pot only in Westernesse's own view."""
    from tests.gondor_helpers import full_setup
    g = Game.new(get_ruleset("gondor"), seed="marks")
    full_setup(g)
    real = g.state["hidden"]["real_cauldrons"]
    pots = [uid for uid, u in g.ruleset.units.items() if u.type == "cauldron"]
    assert pots and set(real) <= set(pots)
    for seat in (None, "sauron"):
        for u in g.view(seat)["units"]:
            look = u.get("look") or {}
            assert look.get("drop") in (None, "full") and "fade" not in look, (seat, u)
    own = {u["id"]: u for u in g.view("westernesse")["units"]}
    assert all(bool(own[p].get("look", {}).get("fade")) == (p not in real) for p in pots)


def test_a_finished_games_full_view_keeps_the_owners_marks_whatever_the_seats_order():
    """The replay of a finished game shows everything (engine/board.py: merged_view): a dummy's faded pot
    is its owner's knowledge, and wins over the plain pot another seat's view sends, in any order."""
    from engine.board import merged_view
    from tests.gondor_helpers import full_setup
    g = Game.new(get_ruleset("gondor"), seed="marks")
    full_setup(g)
    real = set(g.state["hidden"]["real_cauldrons"])
    views = [g.view(s) for s in g.ruleset.seats]
    for order in (views, views[::-1]):
        full = merged_view(order, g.view(None))
        pots = {u["id"]: u for u in full["units"] if u["type"] == "cauldron"}
        assert pots and all(bool(u["look"].get("fade")) == (uid not in real) for uid, u in pots.items())
        assert [u["id"] for u in full["units"]] == [u["id"] for u in g.view(None)["units"]]


def test_each_game_legend_explains_its_own_pieces_only():
    """Sauron's map (walled: it has gates) explains the Ring on its bearer's counter (16.6) and none of
    Gondor's siege keys, which it used to show when the renderer held one game's legend for all."""
    gondor, sauron = get_ruleset("gondor"), get_ruleset("sauron")
    names = legend_for(sauron.hexmap, Game.new(sauron, seed="leg").view(None)).names()
    assert {"The Ring, worn (16.6)", "The Ring, carried"} <= set(names)
    own = {p["label"] for p in gondor.display["legend"]} | {m["label"] for m in gondor.display["markers"].values()}
    assert not own & set(names)
    assert own <= set(legend_for(gondor.hexmap, Game.new(gondor, seed="leg").view(None)).names())
