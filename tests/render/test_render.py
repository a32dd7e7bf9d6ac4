"""The PNG renderer of a seat's view (render/)."""
from __future__ import annotations

import copy
import hashlib
import io
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from engine.maps import HexMap
from render import clear_cache, render_view
from tests.render_sample import sample_view

pytestmark = pytest.mark.heavy  # a long unit (5 s or more on one worker): handed out first under xdist (tests/conftest.py)

ROOT = Path(__file__).resolve().parents[2]
MAP_PATH = ROOT / "engine" / "rulesets" / "gondor" / "data" / "map.json"


@pytest.fixture(scope="module")
def hexmap() -> HexMap:
    return HexMap.load(MAP_PATH)


def decode(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    img.load()
    return img


def public_view_of(state_units: list[dict], base: dict) -> dict:
    """What the engine does for the public view: drop the hidden keys."""
    view = copy.deepcopy(base)
    view["seat"] = None
    view.pop("zone", None)
    view["units"] = [{k: v for k, v in u.items() if k not in ("real", "oil_real")} for u in state_units]
    for u in view["units"]:  # ... and draw every drop the same, no dummy faded (engine/display.py)
        look = dict(u.get("look") or {})
        look.pop("fade", None)
        if look.get("drop"):
            look["drop"] = "full"
        if "look" in u:
            u["look"] = look
    return view


# --------------------------------------------------------------------------
def test_png_decodes_with_expected_size(hexmap):
    png = render_view(sample_view(None), hexmap)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    img = decode(png)
    assert img.format == "PNG"
    assert 1400 <= img.width <= 1900
    assert 900 <= img.height <= 1400  # the map and, above it, the header band
    assert img.width > img.height


def test_same_view_same_bytes(hexmap):
    view = sample_view("westernesse")
    a = render_view(view, hexmap)
    b = render_view(copy.deepcopy(view), hexmap)
    clear_cache()
    c = render_view(view, hexmap)
    assert a == b == c


def test_same_bytes_in_another_process(hexmap):
    png = render_view(sample_view("sauron"), hexmap)
    code = (
        "import hashlib, sys; sys.path.insert(0, %r)\n"
        "from engine.maps import HexMap\n"
        "from render import render_view\n"
        "from tests.render_sample import sample_view\n"
        "m = HexMap.load(%r)\n"
        "print(hashlib.sha256(render_view(sample_view('sauron'), m)).hexdigest())\n"
    ) % (str(ROOT), str(MAP_PATH))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={"PYTHONHASHSEED": "12345"}, cwd=ROOT)
    assert out.stdout.strip() == hashlib.sha256(png).hexdigest()


def test_no_metadata_chunks(hexmap):
    png = render_view(sample_view(None), hexmap)
    assert b"tIME" not in png and b"tEXt" not in png and b"iTXt" not in png


def test_different_units_different_bytes(hexmap):
    view = sample_view(None)
    other = copy.deepcopy(view)
    other["units"][0]["hex"] = "2017"
    assert render_view(view, hexmap) != render_view(other, hexmap)
    third = copy.deepcopy(view)
    third["units"][-1]["disrupted"] = not third["units"][-1].get("disrupted")
    assert render_view(view, hexmap) != render_view(third, hexmap)


def test_own_view_shows_real_flag(hexmap):
    view = sample_view("westernesse")
    k2 = next(u for u in view["units"] if u["id"] == "K2")
    without = copy.deepcopy(view)
    for u in without["units"]:
        u.pop("real", None)
    k2["real"] = True
    real = render_view(view, hexmap)
    k2["real"] = False
    dummy = render_view(view, hexmap)
    plain = render_view(without, hexmap)
    assert len({real, dummy, plain}) == 3


def test_public_views_ignore_hidden_facts(hexmap):
    """Two states differing only in which cauldron is real give byte-identical
    public (and Sauron) pictures."""
    base = sample_view("westernesse")
    units_a = copy.deepcopy(base["units"])
    units_b = copy.deepcopy(base["units"])
    for u in units_a:
        if u["type"] == "cauldron":
            u["real"] = u["id"] == "K1"
    for u in units_b:
        if u["type"] == "cauldron":
            u["real"] = u["id"] == "K2"
    pa, pb = public_view_of(units_a, base), public_view_of(units_b, base)
    assert pa == pb
    a = render_view(pa, hexmap)
    clear_cache()
    b = render_view(pb, hexmap)
    assert a == b
    sa, sb = dict(pa, seat="sauron"), dict(pb, seat="sauron")
    assert render_view(sa, hexmap) == render_view(sb, hexmap)
    # and a private view is labelled as such: it differs from the public one
    assert render_view(sa, hexmap) != a


def test_around_crop_is_smaller(hexmap):
    view = sample_view("westernesse")
    full = decode(render_view(view, hexmap))
    crop = decode(render_view(view, hexmap, around="1907"))
    assert crop.width * crop.height < full.width * full.height
    assert crop.height < full.height or crop.width < full.width
    # near a map corner the window still fits the map
    corner = decode(render_view(view, hexmap, around="0101"))
    assert corner.size == crop.size


@pytest.mark.parametrize("bad", ["9999", "abcd", "0000", "19077", "", "3827"])
def test_around_invalid_hex(hexmap, bad):
    with pytest.raises(ValueError) as err:
        render_view(sample_view(None), hexmap, around=bad)
    assert len(str(err.value)) < 80


def test_many_counters_under_size_limit(hexmap):
    view = sample_view(None, 80)
    assert sum(1 for u in view["units"] if u.get("hex")) >= 80
    png = render_view(view, hexmap)
    assert len(png) < 1_500_000
    png = render_view(view, hexmap, around="1910")
    assert len(png) < 1_500_000


def test_minimal_and_messy_views_do_not_crash(hexmap):
    decode(render_view({}, hexmap))
    decode(render_view({"ruleset": "gondor", "units": []}, hexmap))
    messy = {
        "ruleset": "gondor", "title": None, "seat": "nobody", "turn": "x", "turns": None,
        "active": ["sauron", 3, None], "sides": {"sauron": {"color": "not-a-colour"}, "x": 5},
        "units": [
            {"id": "A", "side": "sauron", "type": "infantry", "hex": None},
            {"id": "B", "side": "ghost", "type": "dragon", "hex": "1905"},
            {"id": "C", "type": "leader", "hex": "zz"},
            {"id": "D", "side": "sauron", "type": "cauldron", "hex": "9999", "real": True},
            {"hex": "2017"},
            "not a unit",
        ],
        "markers": [{"type": "fire"}, {"type": "breached", "hexside": "nonsense"}, {"type": "mystery", "hex": "2017"},
                    {"type": "breached", "hexside": "2017/2018"}, 7],
        "gates": {"bad": "sauron", "1910/n": None},
        "tracks": [{"name": "T", "side": "sauron", "points": 50, "level": 40}, {"points": None}, "x"],
        "zone": ["1907", "bad", None],
        "pool": {"sauron": 3},
        "unknown_key": {"whatever": 1},
    }
    decode(render_view(messy, hexmap))
    decode(render_view(messy, hexmap, around="2017"))
    # and on a map without walls, where the view's siege keys pick the legend
    cel = HexMap.load(ROOT / "engine" / "rulesets" / "celebrant" / "data" / "map.json")
    messy["units"].append({"id": "E", "type": ["list"], "hex": "2017", "ready": "x"})
    decode(render_view(messy, cel))


def test_setup_and_turn_panels_differ(hexmap):
    setup = sample_view("sauron", turn=0)
    turn1 = sample_view("sauron", turn=1)
    assert render_view(setup, hexmap) != render_view(turn1, hexmap)


def test_zone_and_gates_change_the_picture(hexmap):
    view = sample_view("westernesse")
    no_zone = dict(view, zone=[])
    assert render_view(view, hexmap) != render_view(no_zone, hexmap)
    other_gate = dict(view, gates={"1910/n": "sauron"})
    assert render_view(view, hexmap) != render_view(other_gate, hexmap)


# --------------------------------------------------------------------------
# Siege keys (20.0, 16.5, 16.7): ladders, oil carriers, Grond, towers, the
# Banner, Sauron-held levels, road control
# --------------------------------------------------------------------------
from engine.hexgrid import Hex, Hexside  # noqa: E402
from render import counters as RC  # noqa: E402
from render.hexmap import compose  # noqa: E402
from tests.render_sample import add_siege  # noqa: E402


def bare_view(seat=None, **extra) -> dict:
    """A sample view without the siege keys (and no notes), plus ``extra``."""
    v = sample_view(seat, siege=False)
    v.update(extra)
    return v


def hex_box(lay, h: str, r: float = 0.95):
    cx, cy = lay.center(Hex.parse(h))
    return (round(cx - r * lay.s), round(cy - r * lay.s), round(cx + r * lay.s), round(cy + r * lay.s))


def side_box(lay, side: str, r: float = 0.3):
    sd = Hexside.parse(side)
    (ax, ay), (bx, by) = lay.side_points(sd.hex, sd.direction)
    mx, my = (ax + bx) / 2, (ay + by) / 2
    return (round(mx - r * lay.s), round(my - r * lay.s), round(mx + r * lay.s), round(my + r * lay.s))


def pixels(img, box) -> bytes:
    return img.crop(box).tobytes()


def count_near(img, box, rgb, tol=30) -> int:
    b = img.crop(box).convert("RGB").tobytes()
    r, g, bl = rgb
    return sum(1 for i in range(0, len(b), 3)
               if abs(b[i] - r) <= tol and abs(b[i + 1] - g) <= tol and abs(b[i + 2] - bl) <= tol)


BREACH_RED = (200, 36, 24)


@pytest.mark.parametrize("around", [None, "2208"])
def test_ladder_is_not_a_breach(hexmap, around):
    ladder = bare_view(markers=[{"type": "ladder", "hex": "2109", "hexside": "2109/n", "side": "sauron", "turn": 5}])
    breach = bare_view(markers=[{"type": "breached", "hexside": "2109/n"}])
    plain = bare_view(markers=[])
    li, lay, _ = compose(ladder, hexmap, around=around)
    bi, _, _ = compose(breach, hexmap, around=around)
    pi, _, _ = compose(plain, hexmap, around=around)
    box = side_box(lay, "2109/n")
    assert count_near(bi, box, BREACH_RED) > 3               # a breach shows its red crack
    assert count_near(li, box, BREACH_RED) == 0              # a ladder does not
    assert count_near(li, box, RC.RUNGS_WOOD, 24) > 3       # but a wooden ladder across the wall
    assert count_near(pi, box, RC.RUNGS_WOOD, 24) == 0
    # and its chit in the hex
    assert pixels(li, hex_box(lay, "2109", 0.5)) != pixels(pi, hex_box(lay, "2109", 0.5))


def test_ladder_shows_which_hexside(hexmap):
    def img(side):
        m = {"type": "ladder", "hex": "1608", "side": "sauron", "turn": 5}
        if side:
            m["hexside"] = side
        return compose(bare_view(markers=[m]), hexmap)
    n, lay, _ = img("1608/n")
    ne, _, _ = img("1608/ne")
    none, _, _ = img(None)
    same, _, _ = img("1607/s")         # the same hexside named from the other hex
    assert n.tobytes() == same.tobytes()
    assert count_near(n, side_box(lay, "1608/n"), RC.RUNGS_WOOD, 24) > 3
    assert count_near(n, side_box(lay, "1608/ne"), RC.RUNGS_WOOD, 24) == 0
    assert count_near(ne, side_box(lay, "1608/ne"), RC.RUNGS_WOOD, 24) > 3
    assert count_near(ne, side_box(lay, "1608/n"), RC.RUNGS_WOOD, 24) == 0
    # no hexside (or one not of its hex): only the chit
    assert count_near(none, side_box(lay, "1608/n"), RC.RUNGS_WOOD, 24) == 0
    far, _, _ = img("2109/n")
    assert far.tobytes() == none.tobytes()


def test_unknown_hexside_marker_is_not_a_breach(hexmap):
    odd, lay, _ = compose(bare_view(markers=[{"type": "mystery", "hexside": "2109/n"}]), hexmap)
    plain, _, _ = compose(bare_view(markers=[]), hexmap)
    box = side_box(lay, "2109/n")
    assert count_near(odd, box, BREACH_RED) == 0
    assert pixels(odd, box) != pixels(plain, box)


def _unit(view, uid):
    return next(u for u in view["units"] if u["id"] == uid)


def _set(uid, **kv):
    def f(v):
        _unit(v, uid).update(kv)
    return f


def _add_unit(**u):
    def f(v):
        v["units"].append(u)
    return f


SIEGE_CASES = {
    # name: (change to a bare view, hex whose picture must change)
    "oil carrier": (_set("GS7", carrying="oil", oil_from="K2", look={"drop": "full"}), "2106"),
    "grond active": (_set("GR", active=True, look={"glow": True}), "1911"),
    "tower ready": (_set("ST1", hex="2308", ready=["2308/n"], look={"arrows": ["2308/n"]}), "2308"),
    "banner": (_add_unit(id="BAN", side="westernesse", type="banner", name="Banner of the King", hex="1805"), "1805"),
    "levels": (lambda v: v.update(levels=[1]), "1708"),
    "levels 2": (lambda v: v.update(levels=[2]), "2107"),
    "road sauron": (lambda v: v.update(road={"1918": "sauron", "2124": None}), "1918"),
    "road westernesse": (lambda v: v.update(road={"2124": "westernesse"}), "2124"),
    "fire": (lambda v: v.update(markers=[{"type": "fire", "hex": "2207"}]), "2207"),
    "head": (lambda v: v.update(markers=[{"type": "head", "hex": "2207"}]), "2207"),
}


@pytest.mark.parametrize("around", [None, "around"])
@pytest.mark.parametrize("name", sorted(SIEGE_CASES))
def test_each_siege_key_is_drawn(hexmap, name, around):
    change, h = SIEGE_CASES[name]
    base = bare_view(markers=[])
    if name == "tower ready":       # compare against the same tower, not ready
        _unit(base, "ST1")["hex"] = "2308"
    after = copy.deepcopy(base)
    change(after)
    where = h if around else None
    a, lay, _ = compose(base, hexmap, around=where)
    b, lay2, _ = compose(after, hexmap, around=where)
    assert lay == lay2
    assert pixels(a, hex_box(lay, h)) != pixels(b, hex_box(lay, h)), name


def test_banner_is_its_own_counter(hexmap):
    ban = bare_view(markers=[])
    ban["units"].append({"id": "BAN", "side": "westernesse", "type": "banner", "hex": "1805"})
    inf = copy.deepcopy(ban)
    inf["units"][-1]["type"] = "infantry"
    unk = copy.deepcopy(ban)
    unk["units"][-1]["type"] = "flagpole"
    a, lay, _ = compose(ban, hexmap)
    box = hex_box(lay, "1805")
    assert len({pixels(a, box), pixels(compose(inf, hexmap)[0], box), pixels(compose(unk, hexmap)[0], box)}) == 3


def test_tower_arrow_points_at_its_hexside(hexmap):
    base = bare_view(markers=[])
    _unit(base, "ST1")["hex"] = "2308"
    north = copy.deepcopy(base)
    _unit(north, "ST1")["look"] = {"arrows": ["2308/n"]}
    nw = copy.deepcopy(base)
    _unit(nw, "ST1")["look"] = {"arrows": ["2207/se"]}      # 2308's north-west side
    a, lay, _ = compose(base, hexmap, around="2308")
    n, _, _ = compose(north, hexmap, around="2308")
    w, _, _ = compose(nw, hexmap, around="2308")
    nbox, wbox = side_box(lay, "2308/n", 0.2), side_box(lay, "2207/se", 0.2)
    green = lambda img, box: count_near(img, box, RC.READY, 20)  # noqa: E731
    # (a ready tower's green rim may reach a corner of a box: compare the two)
    assert green(a, nbox) == green(a, wbox) == 0
    assert green(n, nbox) > green(w, nbox) + 8
    assert green(w, wbox) > green(n, wbox) + 8


def test_oil_real_only_in_the_owners_view(hexmap):
    own = sample_view("westernesse")
    carriers = [u for u in own["units"] if u.get("carrying") == "oil"]
    assert any(u["oil_real"] for u in carriers) and not all(u["oil_real"] for u in carriers)
    gs7 = _unit(own, "GS7")
    gs7.update(oil_real=True, look={"drop": "full"})
    real = render_view(own, hexmap)
    gs7.update(oil_real=False, look={"drop": "hollow"})
    dummy = render_view(own, hexmap)
    assert real != dummy
    # two states whose carriers' hidden truth differs give identical public
    # pictures: nothing is drawn but from the view
    units_a = copy.deepcopy(own["units"])
    units_b = copy.deepcopy(own["units"])
    for u in units_a:
        if "oil_real" in u:
            u.update(oil_real=True, look={"drop": "full"})
    for u in units_b:
        if "oil_real" in u:
            u["oil_real"] = not u["oil_real"]
            u["look"] = {"drop": "full" if u["oil_real"] else "hollow"}
    pa = public_view_of(units_a, own)
    pb = public_view_of(units_b, own)
    for v in (pa, pb):
        v["units"] = [{k: x for k, x in u.items() if k != "oil_real"} for u in v["units"]]
    assert pa == pb
    a = render_view(pa, hexmap)
    clear_cache()
    assert render_view(pb, hexmap) == a
    assert render_view(dict(pa, seat="sauron"), hexmap) == render_view(dict(pb, seat="sauron"), hexmap)
    # but the carrier's badge itself is drawn in the public view
    plain = copy.deepcopy(pa)
    for u in plain["units"]:
        u.pop("carrying", None)
        u.pop("oil_from", None)
        if "drop" in (u.get("look") or {}):
            u.pop("look")
    assert render_view(plain, hexmap) != a


def test_owner_sees_dummy_cauldron_marked(hexmap):
    own = sample_view("westernesse")
    a, lay, _ = compose(own, hexmap, around="2004")
    k2 = _unit(own, "K2")
    assert k2["real"] is False
    k2["real"] = True
    k2["look"].pop("fade")
    b, _, _ = compose(own, hexmap, around="2004")
    assert pixels(a, hex_box(lay, "2004", 0.6)) != pixels(b, hex_box(lay, "2004", 0.6))


def test_full_siege_sample_renders_everywhere(hexmap):
    for seat in (None, "sauron", "westernesse"):
        view = sample_view(seat)
        assert view["levels"] and view["road"] and any(m["type"] == "ladder" for m in view["markers"])
        for around in (None, "1907", "2109", "1918"):
            decode(render_view(view, hexmap, around=around))


def test_messy_siege_keys_do_not_crash(hexmap):
    v = bare_view()
    v["levels"] = ["x", None, 99, True, -1, 2]
    v["road"] = {"bad": "sauron", "1918": 5, "9999": "sauron", "2124": "ghost"}
    v["markers"] = [{"type": "ladder"}, {"type": "ladder", "hex": "2109", "hexside": "junk"},
                    {"type": "ladder", "hex": "junk", "hexside": "2109/n"},
                    {"type": "ladder", "hex": "2109", "hexside": 7}, {"type": "breached", "hex": "2109"},
                    {"type": "breached"}, {"type": None, "hexside": "2109/n"}]
    v["units"] += [{"id": "X", "side": "sauron", "type": "siege_tower", "hex": "2109", "ready": "2109/n"},
                   {"id": "Y", "side": "sauron", "type": "siege_tower", "hex": "2110", "ready": [None, 3, "bad", "0101/n"]},
                   {"id": "Z", "side": "westernesse", "type": "infantry", "hex": "2110", "carrying": "oil",
                    "oil_real": "maybe", "look": {"drop": "maybe", "band": 3, "arrows": "2110/n", "beside": None}},
                   {"id": "G", "side": "sauron", "type": "grond", "hex": "2111", "active": "yes", "look": "glow"},
                   {"id": "H", "side": "sauron", "type": "grond", "hex": "2112", "look": {"glow": "yes", "fade": 1}}]
    v["display"] = {"shapes": {"grond": "no-such-shape", "infantry": 7}, "markers": {"ladder": "x", "fire": {"style": 3}},
                    "legend": [None, {"label": "L", "draw": "counter", "shape": "nope", "when": "x"}, {"draw": "drop"}]}
    decode(render_view(v, hexmap))
    decode(render_view(v, hexmap, around="2109"))
    decode(render_view(dict(v, levels=None, road=[1, 2]), hexmap))


def test_real_gondor_game_view_renders(hexmap):
    from engine.core import Game
    from tests.gondor_helpers import full_setup

    g = Game.new(get_ruleset("gondor"), {}, seed="render")
    full_setup(g)
    for seat in (None, "sauron", "westernesse"):
        v = g.view(seat)
        decode(render_view(v, hexmap))
        # with the siege keys on top of the real view
        decode(render_view(add_siege(copy.deepcopy(v)), hexmap, around="1909"))


# --------------------------------------------------------------------------
# The legend describes the map (and game) drawn; the demoralization flag
# --------------------------------------------------------------------------
from render.hexmap import _demoralized, legend_for  # noqa: E402
from engine.rulesets import get_ruleset

CELEBRANT_MAP = ROOT / "engine" / "rulesets" / "celebrant" / "data" / "map.json"
GONDOR_LEGEND = ["Clear", "Slope", "Rough", "Forest", "Mountain", "City levels 1-7 (7 = Citadel)",
                 "Wall", "Gate", "Tower", "Breach", "Road", "Tunnel", "Fire", "Ladder", "Head",
                 "Oil (hollow: dummy)", "Grond operated", "Tower ready", "King's Banner",
                 "Level held by Sauron", "Road control"]
SIEGE_NAMES = set(GONDOR_LEGEND[6:])


@pytest.fixture(scope="module")
def celebrant_map() -> HexMap:
    return HexMap.load(CELEBRANT_MAP)


@pytest.fixture(scope="module")
def celebrant_view() -> dict:
    from engine.core import Game
    return Game.new(get_ruleset("celebrant"), seed="legend").view(None)


def test_gondor_legend_entries_unchanged(hexmap):
    gondor = {"display": get_ruleset("gondor").display}
    assert legend_for(hexmap, gondor).names() == GONDOR_LEGEND
    # whatever the view: a walled map always explains every key its ruleset declares
    assert legend_for(hexmap, bare_view(markers=[])).names() == GONDOR_LEGEND
    # without a ruleset's declaration, only the map's own facts (the renderer knows no game's pieces)
    assert legend_for(hexmap, {}).names() == legend_for(hexmap).names() == \
        [n if n != GONDOR_LEGEND[5] else "City levels 1-7" for n in GONDOR_LEGEND[:12] if n != "Breach"]


def test_celebrant_legend_is_its_own(celebrant_map, celebrant_view):
    names = legend_for(celebrant_map, celebrant_view).names()
    assert names[:7] == ["Clear", "Slope", "Grove", "Riverbank", "River", "Watchtower", "Landing"]
    assert not any(n.startswith("City level") for n in names)
    assert not SIEGE_NAMES & set(names)
    assert not {"Rough", "Forest", "Mountain"} & set(names)
    # exactly the terrains on the map
    terrains = {i.terrain for i in celebrant_map.hexes.values()}
    assert {t for t, _ in legend_for(celebrant_map).terrain} == terrains


def test_celebrant_legend_adds_only_the_siege_keys_a_view_uses(celebrant_map, celebrant_view):
    v = copy.deepcopy(celebrant_view)
    v["markers"] = list(v.get("markers") or []) + [{"type": "fire", "hex": "2010"},
                                                    {"type": "breached", "hexside": "2010/n"}]
    v["units"] = list(v["units"]) + [{"id": "G", "side": "shadow", "type": "grond", "hex": "2011"}]
    v["road"] = {"2012": None}
    v["display"] = get_ruleset("gondor").display  # a declaration with those keys (Celebrant's has none of them)
    names = legend_for(celebrant_map, v).names()
    assert {"Fire", "Breach", "Grond operated", "Road control"} <= set(names)
    assert not {"Wall", "Ladder", "Head", "King's Banner", "Level held by Sauron"} & set(names)
    # both legends render, and the extra entries change the picture
    plain = decode(render_view(celebrant_view, celebrant_map))
    extra = decode(render_view(v, celebrant_map))
    assert plain.size == extra.size
    assert plain.tobytes() != extra.tobytes()


def test_legend_is_cached_per_map(celebrant_map, celebrant_view, hexmap, monkeypatch):
    assert legend_for(celebrant_map, celebrant_view) is legend_for(celebrant_map, copy.deepcopy(celebrant_view))
    assert legend_for(hexmap, sample_view(None)) is legend_for(hexmap, bare_view(markers=[]))
    from render.hexmap import _base_cache
    # no disk cache: a view's zone, levels... drawn on the base may be loaded from disk without the base
    monkeypatch.setenv("PALANTIR_RENDER_CACHE", "off")
    clear_cache()
    render_view(celebrant_view, celebrant_map)
    render_view(celebrant_view, celebrant_map)
    render_view(sample_view(None), hexmap)
    render_view(bare_view(markers=[]), hexmap)
    assert len(_base_cache) == 2


def test_celebrant_legend_shows_its_terrain_not_walls(celebrant_map, celebrant_view):
    img, lay, _ = compose(celebrant_view, celebrant_map)
    panel = img.crop((lay.map_w, 0, lay.width, lay.height))
    # a river swatch is in the legend; no breach's red crack, no Sauron-held
    # level's hatching (as in Gondor's legend)
    from render import style as RS
    box = (0, 0, panel.width, panel.height)
    assert count_near(panel, box, RS.TERRAIN["river"], 6) > 50
    assert count_near(panel, box, BREACH_RED, 20) == 0
    assert count_near(panel, box, RS.HELD_LEVEL, 20) == 0
    gimg, glay, _ = compose(bare_view(markers=[], active=[], levels=[]), HexMap.load(MAP_PATH))
    gbox = (glay.map_w, 0, glay.width, glay.height)
    assert count_near(gimg, gbox, BREACH_RED, 20) > 0 and count_near(gimg, gbox, RS.HELD_LEVEL, 20) > 0


def _track_view(**track) -> dict:
    t = {"name": "Gondor demoralization", "side": "westernesse", "points": 30, "level": 30}
    t.update(track)
    return {"title": "Field of Celebrant", "sides": {"westernesse": {"title": "Westernesse", "color": "#1f4e9c"}},
            "active": [], "tracks": [t]}


def _panel_red(view, hexmap) -> int:
    img, lay, _ = compose(view, hexmap)
    return count_near(img, (lay.map_w, 0, lay.width, lay.height), (180, 24, 24), 20)


def test_demoralized_flag_wins_over_arithmetic(celebrant_map):
    # Celebrant: demoralized only when the points exceed the level
    assert _demoralized({"points": 30, "level": 30, "demoralized": False}) is False
    assert _demoralized({"points": 30, "level": 30}) is True
    assert _demoralized({"points": 12, "level": 30, "demoralized": True}) is True
    assert _demoralized({"points": 29, "level": 30}) is False
    assert _demoralized({"points": None, "level": 30}) is False
    assert _panel_red(_track_view(demoralized=False), celebrant_map) == 0
    assert _panel_red(_track_view(), celebrant_map) > 10
    assert _panel_red(_track_view(points=31, demoralized=True), celebrant_map) > 10
    a = compose(_track_view(demoralized=False), celebrant_map)[0]
    b = compose(_track_view(demoralized=True), celebrant_map)[0]
    assert a.tobytes() != b.tobytes()


def test_celebrant_ability_and_disarray_markers_are_drawn_and_explained():
    """FoC 17.0 ("the appropriate counter is placed on the Character") and 13.21
    (the Disarray marker on Cirion): both have their own chits and legend lines,
    only where a view has them."""
    from engine.core import Game
    from render.counters import marker_sprite
    from render.hexmap import legend_for
    g = Game.new(get_ruleset("celebrant"), seed="leg")
    hm = g.ruleset.hexmap
    v = g.view(None)
    marks = {"Ability used", "Disarray"}
    assert not marks & {n for _, n in legend_for(hm, v).markers}
    v2 = dict(v, markers=[{"type": "ability", "hex": "2112", "title": "Tactics"}, {"type": "disarray", "hex": "2112"}])
    assert marks <= {n for _, n in legend_for(hm, v2).markers}
    # drawn in the styles Celebrant declares (engine/rulesets/celebrant/data/display.json)
    styles = {k: m["style"] for k, m in g.ruleset.display["markers"].items()}
    a, d, other = (marker_sprite(24, k).tobytes() for k in (styles["ability"], styles["disarray"], "flame"))
    assert len({a, d, other}) == 3
    gondor = Game.new(get_ruleset("gondor"), seed="leg")
    assert not marks & {n for _, n in legend_for(gondor.ruleset.hexmap, gondor.view(None)).markers}


def test_the_kept_underlay_follows_what_is_drawn_under_the_counters():
    """The base with the zone, held levels, ringed hexes, gates and cracks drawn on is kept between
    maps of the same window (issue 26, render/hex_underlay.py): each of those changed gives the picture
    a fresh process draws, never the kept one; unchanged, the same picture again."""
    import copy

    from render import hex_underlay
    from render.hexmap import clear_cache, compose
    from tests.render_sample import gondor_map, sample_view

    m = gondor_map()
    view = sample_view("westernesse", 40)
    view["zone"] = ["1907", "2007"]
    view["gates"] = {"1910/n": "westernesse"}
    view["road"] = {"1918": "sauron", "1908": "westernesse"}
    assert view["levels"] and any(mk.get("type") == "breached" for mk in view["markers"])
    changes = {
        "zone": lambda v: v.__setitem__("zone", ["1907", "2008"]),
        "levels": lambda v: v.__setitem__("levels", [1]),
        "road": lambda v: v.__setitem__("road", {"1918": None, "1907": "sauron"}),
        "gates": lambda v: v.__setitem__("gates", {"1910/n": "sauron"}),
        "cracks": lambda v: v.__setitem__("markers", [mk for mk in v["markers"] if mk.get("type") != "breached"]),
        "a side's colour": lambda v: v["sides"]["sauron"].__setitem__("color", "#00aa00"),
    }
    for opts in ({}, {"around": "1907"}):
        clear_cache()
        before = compose(view, m, **opts)[0].tobytes()
        assert compose(view, m, **opts)[0].tobytes() == before  # kept: the same picture
        assert hex_underlay._cache
        for what, change in changes.items():
            other = copy.deepcopy(view)
            change(other)
            kept_one = compose(other, m, **opts)[0].tobytes()
            clear_cache()
            fresh = compose(other, m, **opts)[0].tobytes()
            assert kept_one == fresh, what
            assert fresh != before, what  # a change the picture shows
            compose(view, m, **opts)  # the first view's underlay kept again


def test_a_header_line_too_long_is_cut_to_its_longest_prefix_that_fits():
    """_clip_px finds where to cut by halving (issue 26: one text measured per character cut was most
    of a new header's cost); it still cuts at the longest prefix that fits with its ellipsis."""
    import random

    from render import style as S
    from render.hex_header import _clip_px

    rnd = random.Random(26)
    alpha = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,:;()/-'AVWTYLfijlrt"
    for _ in range(400):
        text = "".join(rnd.choice(alpha) for _ in range(rnd.randint(1, 60)))
        px = rnd.choice([10, 12, 14, 17, 22])
        width = rnd.uniform(0, S.text_length(text, px) * 1.1)
        if S.text_length(text, px) <= width:
            assert _clip_px(text, px, width) == text
            continue
        fitting = [n for n in range(1, len(text) + 1) if S.text_length(text[:n] + "…", px) <= width]
        n = max(fitting) if fitting else 1
        assert _clip_px(text, px, width) == text[:n].rstrip() + "…", (text, px, width)
