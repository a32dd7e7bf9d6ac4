"""A group loads its own map (issue 15: "a group loads its own map file"): `options: charts=<file>` with
the schema of engine/rulesets/wotr/data/map.toml, checked for what the variant needs."""
import pytest

from engine.core import OrderError
from engine.rulesets.wotr.common import DATA
from render import render_view
from tests.wotr_helpers import RS, new
from engine.rulesets.wotr import lookup

BASE = (DATA / "map.toml").read_text()


def test_a_groups_map_is_used_for_terrain_and_search():
    text = BASE.replace('W1814 = "clear"', 'W1814 = "forest"')
    g = new(5, charts=text)
    assert lookup._bd(RS, g.state).terrain["W1814"] == "forest" and RS.board.terrain["W1814"] == "clear"
    v = RS.view(g.state, None)
    assert v["layout"] and render_view(v, RS.game_board().drawable)[:4] == b"\x89PNG"
    assert new(5).state["map"] is None and RS.view(new(5).state, None)["layout"] is None


def test_a_groups_map_may_move_the_starts():
    text = BASE.replace('W2010 = "citadel"', 'W2010 = "citadel", W2011 = "clear"') + '\n[start]\nfrodo = "W2011"\n'
    g = new(5, charts=text)
    assert g.state["chars"]["frodo"]["hex"] == "W2011"


@pytest.mark.parametrize("change,why", [
    (lambda t: t.replace('E0630 = "clear", ', ''), "E0630"),
    (lambda t: t.replace('minas-tirith = "E0228"\n', ''), "places"),
    (lambda t: t.replace("[provinces.nurn]", "[provinces.nurnen]"), "nurn"),
    (lambda t: t.replace('W2010 = "citadel", ', ''), "W2010"),
    (lambda t: "not toml [", "TOML"),
])
def test_a_bad_map_is_refused_with_its_reason(change, why):
    with pytest.raises(OrderError, match=why):
        new(5, charts=change(BASE))
