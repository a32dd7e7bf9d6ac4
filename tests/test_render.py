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
from render.sample import sample_view

ROOT = Path(__file__).resolve().parent.parent
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
    view["units"] = [{k: v for k, v in u.items() if k != "real"} for u in state_units]
    return view


# --------------------------------------------------------------------------
def test_png_decodes_with_expected_size(hexmap):
    png = render_view(sample_view(None), hexmap)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    img = decode(png)
    assert img.format == "PNG"
    assert 1400 <= img.width <= 1900
    assert 900 <= img.height <= 1300
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
        "from render.sample import sample_view\n"
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
