"""The header band kept as drawn (render/hex_bands.py, issue 26: the map post's warm render pastes it): a
map drawn with it is the same, byte for byte, as one whose header is stamped line by line, for every kind
of map, a header whose lines change, and a counter in the window's top row (which may reach the band:
the header is then drawn, not pasted). The footer's band is checked by the golden maps (tests/e2e)."""
from __future__ import annotations

import pytest

from render import hex_bands, hex_stacks, hexmap
from render.hexmap import clear_cache, compose, render_view
from tests.render_sample import gondor_map, sample_view


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PALANTIR_RENDER_CACHE", str(tmp_path))
    clear_cache()
    yield tmp_path
    clear_cache()


def _views():
    top_row = sample_view("westernesse", 40)
    top_row["units"][0]["hex"] = "1901"  # the whole map's top row
    top_row["units"][1]["hex"] = "1902"
    later = sample_view("sauron", 80, turn=5)
    return [sample_view("westernesse", 80), later, top_row, sample_view(None, 12)]


def _picture(view, **kinds) -> tuple:
    """The picture ``render_view`` encodes (``compose``: where the band is pasted or drawn), as its size and pixels
    (not its PNG: the encoding of the same picture is the same, and each of these 64 maps was encoded for
    nothing)."""
    img = compose(view, gondor_map(), **kinds)[0]
    return img.size, img.tobytes()


def test_a_pasted_header_band_is_the_header_drawn(cache, monkeypatch):
    kinds = ({}, {"around": "1907"}, {"around": "1902", "radius": 3}, {"focus": True})
    pasted = [_picture(v, **k) for v in _views() for k in kinds]
    pasted_again = [_picture(v, **k) for v in _views() for k in kinds]  # from the kept bands
    used = []
    real = hexmap.header_band
    monkeypatch.setattr(hexmap, "header_band", lambda *a: used.append(1) or real(*a))
    render_view(_views()[0], gondor_map(), focus=True)
    assert used  # the band is pasted for a header clear of the counters
    monkeypatch.setattr(hexmap, "header_band", lambda img, below, width, view, lines, px, top, *under:
                        hexmap._header(img, width, view, lines, px))
    clear_cache()
    drawn = [_picture(v, **k) for v in _views() for k in kinds]
    assert pasted == drawn and pasted_again == drawn
    monkeypatch.setattr(hexmap, "header_band", real)
    clear_cache()  # as a new process: the bands drawn again (not kept in the maps' packs, render/hex_bands.py)
    again, real_header = [], hex_bands._header
    monkeypatch.setattr(hex_bands, "_header", lambda *a: again.append(1) or real_header(*a))
    assert [_picture(v, **k) for v in _views() for k in kinds] == drawn
    assert again


def test_a_header_band_reached_by_a_counter_is_drawn_not_pasted(cache, monkeypatch):
    """A counter reaching up into the band (here every counter's ink shifted 400 px up): the header is
    stamped over it, not pasted over it."""
    real_ink = hex_stacks.counter_ink  # (the pieces' chunks take a counter's ink from there: render/hex_stacks.py)
    monkeypatch.setattr(hex_stacks, "counter_ink", lambda args: (lambda g: (g[0], g[1], g[2] - 400))(real_ink(args)))
    real = hexmap.header_band
    used = []
    monkeypatch.setattr(hexmap, "header_band", lambda *a: used.append(1) or real(*a))
    view = sample_view("westernesse", 80)
    got = render_view(view, gondor_map(), focus=True)
    assert not used
    monkeypatch.setattr(hexmap, "header_band", lambda img, below, width, view, lines, px, top, *under:
                        hexmap._header(img, width, view, lines, px))
    assert render_view(view, gondor_map(), focus=True) == got
