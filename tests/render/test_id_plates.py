"""Nothing drawn over a counter's id (issue 26): the id an order names is drawn on a plate of its
counter's bare face, over every badge, stripe and ring of the counter; no stack count, marker chit
or hex number is drawn over that plate on the map."""
from __future__ import annotations

import math

from render import counters as C
from render.hexmap import compose_info


def _region(img, box):
    x0, y0, x1, y1 = box
    return img.crop((math.floor(x0), math.floor(y0), math.ceil(x1), math.ceil(y1))).convert("RGB")


def test_a_counters_decorations_never_run_under_its_id():
    """A reduced, disrupted counter wearing the Ring (a stripe on the top right corner, a badge on the
    top left, a band on the top right) shows its id's plate exactly as a plain reduced counter does."""
    size, fill, pad = 40, (139, 26, 26), C.sprite_pad(40)
    plain = C.counter_sprite(size, fill, "infantry", "OA12", "4-3", reduced=True)
    busy = C.counter_sprite(size, fill, "infantry", "OA12", "4-3", reduced=True, disrupted=True, band="lit")
    x0, y0, x1, y1 = C.id_plate(size, "OA12")
    box = (pad + x0, pad + y0, pad + x1, pad + y1)
    assert plain.crop(box).tobytes() == busy.crop(box).tobytes()
    # and the decorations are drawn (beside the plate): the sprites differ
    assert plain.tobytes() != busy.tobytes()


def _busy_view():
    """A Gondor-like view: stacks of two to five counters, some reduced or disrupted, a marker chit
    in some stacks' hexes, the hex numbers of occupied hexes drawn again over the counters."""
    from engine.rulesets import get_ruleset

    board = get_ruleset("gondor").game_board().drawable
    hexes = ("1903", "1904", "1905", "2004", "2005", "1804", "1805", "2006", "1906", "1806")
    units = []
    for i, h in enumerate(hexes):
        for j in range(1 + i % 5):
            units.append({"id": f"OI{i}{j}", "side": "sauron" if i % 2 else "westernesse", "type": "infantry",
                          "hex": h, "strength": 4, "reduced": bool(j % 2), "disrupted": bool(i % 3 == 0)})
    markers = [{"type": "fire", "hex": h} for h in hexes[::3]]
    view = {"title": "Gondor", "turn": 3, "turns": 16, "phase": "movement", "active": ["sauron"],
            "sides": {"sauron": {"title": "Sauron", "color": "#8b1a1a"},
                      "westernesse": {"title": "Westernesse", "color": "#1f4e9c"}},
            "units": units, "markers": markers}
    return view, board


def test_no_badge_chit_or_hex_number_is_drawn_over_an_id_on_the_map():
    """Every top counter's plate on the map is its sprite's plate, pixel for pixel: what was drawn
    after the counters (stack counts, marker chits, hex numbers) left it alone; and no hex number's
    box meets a plate."""
    view, board = _busy_view()
    img, lay, _, info = compose_info(view, board, focus=True)
    plates = [g for g in info.glyphs if g[0] == "plate"]
    assert len(plates) == 10
    hexes = [g[2] for g in info.glyphs if g[0] == "hex"]
    s = lay.s
    size = round(s * 1.34)
    for _, text, box in plates:
        px0, py0, px1, py1 = C.id_plate(size, text)
        ox, oy = round(box[0]) - px0, round(box[1]) - py0
        # the same counter drawn alone, face and text only, at the same place
        u = next(u for u in view["units"] if u["id"] == text)
        from render.hexmap import _counter

        spr = _counter(u, view["sides"], size)
        pad = C.sprite_pad(size)
        alone = spr.crop((pad + px0, pad + py0, pad + px1, pad + py1)).convert("RGB")
        drawn = img.crop((ox + px0, oy + py0, ox + px1, oy + py1)).convert("RGB")
        assert alone.tobytes() == drawn.tobytes(), text
        for hb in hexes:
            assert not (hb[0] < box[2] and box[0] < hb[2] and hb[1] < box[3] and box[1] < hb[3]), (text, hb)


def test_an_ids_I_is_serifed_so_it_never_reads_as_a_1():
    """Issue 26: the bundled font's I is a bare stem, read as a 1 once a map is shown 550 px wide; an
    id's I is drawn with bars across its top and bottom (at least three stems wide), its 1 is the
    font's own (no bar across its foot), and the plate holds the whole of the wider id."""
    for px in (12, 14, 16, 20):
        cap, stem = C._metrics(px)
        i_mask, _, _ = C.id_mask("I", px)
        one, _, _ = C.id_mask("1", px)
        l, t, r, b = i_mask.getbbox()
        assert b - t == cap

        def ink(mask, y):
            return sum(1 for x in range(mask.width) if mask.getpixel((x, y)) >= 128)

        assert ink(i_mask, t) >= 3 * stem and ink(i_mask, b - 1) >= 3 * stem, px   # bars top and bottom
        assert ink(i_mask, (t + b) // 2) == stem                                      # one stem between
        ol, ot, orr, ob = one.getbbox()
        assert ink(one, ob - 1) < 3 * stem, px                                        # the 1: no foot
    size = 40
    x0, y0, x1, y1 = C.id_plate(size, "OI12")
    il, it, ir, ib = C.id_ink(size, "OI12")
    assert x0 <= il and ir <= x1 and y0 <= it and ib < y1
