"""A made-up Gondor view for previews, tests and benchmarks.

``python -m tests.render_sample [DIR]`` writes sample PNGs (public view, Westernesse's
view, a crop; and two of the Field of Celebrant, from a new game) to DIR
(default /tmp/render_samples).
"""
from __future__ import annotations

import sys
from pathlib import Path
from engine.rulesets import get_ruleset

SIDES = {"sauron": {"title": "Sauron", "color": "#8b1a1a"},
         "westernesse": {"title": "Westernesse", "color": "#1f4e9c"}}

_CITY = ["1904", "1905", "1906", "1807", "1708", "2007", "2106", "2205", "1604", "1503", "2304", "2403",
         "1909", "2009", "1809", "1605", "2105", "1703", "1803", "2003", "1506", "2306", "1607", "2207"]
_FIELD = ["1912", "2012", "2112", "2213", "1813", "1713", "2313", "1614", "2414", "1615", "2015", "2115",
          "1915", "2216", "1816", "1916", "2017", "1514", "2514", "1717", "2217", "1417", "2417", "1818",
          "2018", "2118", "1619", "2219", "1320", "2620", "1421", "2521", "1722", "2322", "1823", "2223"]


def sample_units(n: int = 40, *, with_real: bool = False) -> list[dict]:
    """``n`` units (at least the dozen special ones), in and around the city.
    ``with_real`` adds the cauldrons' hidden ``real`` flag (owner's view)."""
    w, s = "westernesse", "sauron"
    units: list[dict] = [
        {"id": "GAN", "side": w, "type": "leader", "name": "Gandalf", "rally": 6, "magic": 10, "hex": "1903",
         "look": {"bottom": "R6 M10"}},
        {"id": "DEN", "side": w, "type": "leader", "name": "Denethor", "rally": 4, "hex": "1904",
         "look": {"bottom": "R4"}},
        {"id": "K1", "side": w, "type": "cauldron", "name": "Cauldron", "oil": 3, "hex": "1804",
         "look": {"beside": "3", "bottom": "oil"}},
        {"id": "K2", "side": w, "type": "cauldron", "name": "Cauldron", "oil": 2, "hex": "2004",
         "look": {"beside": "2", "bottom": "oil"}},
        {"id": "SC1", "side": s, "type": "catapult", "name": "Catapult", "hex": "2011"},
        {"id": "ST1", "side": s, "type": "siege_tower", "name": "Siege Tower", "hex": "2111"},
        {"id": "GR", "side": s, "type": "grond", "name": "Grond", "ratings": "8", "hex": "1911"},
        {"id": "WK", "side": s, "type": "leader", "name": "Witch-king", "rally": 6, "magic": 12, "hex": "1911",
         "look": {"bottom": "R6 M12"}},
        {"id": "O98", "side": s, "type": "infantry", "ratings": "D-2-X", "hex": "1911"},
        {"id": "O99", "side": s, "type": "infantry", "ratings": "D-2-X", "hex": "1911"},
        {"id": "GS90", "side": w, "type": "infantry", "ratings": "D-3-X", "hex": "1905"},
        {"id": "GS91", "side": w, "type": "archer", "ratings": "e-2-X", "hex": "1905"},
    ]
    if with_real:
        units[2]["real"] = True
        units[3]["real"] = False
        units[3]["look"]["fade"] = True   # as the engine draws a dummy in its owner's view
    kinds_w = (("infantry", "D-3-X"), ("archer", "e-2-X"), ("cavalry", "De-4-6"))
    kinds_s = (("infantry", "D-2-X"), ("troll", "D-6-4"), ("cavalry", "D-3-8"), ("mumak", "De-8-4"), ("archer", "e-1-X"))
    i = 0
    while len(units) < n:
        if i % 2 == 0:
            k = i // 2
            kind, rat = kinds_w[k % 3]
            hx = _CITY[k % len(_CITY)]
            units.append({"id": f"GS{k + 1}", "side": w, "type": kind, "name": "Gondor", "ratings": rat,
                          "reduced": k % 5 == 2, "disrupted": k % 7 == 3, "hex": hx})
        else:
            k = i // 2
            kind, rat = kinds_s[k % 5]
            hx = _FIELD[k % len(_FIELD)]
            units.append({"id": f"O{k + 1}", "side": s, "type": kind, "name": "Orcs", "ratings": rat,
                          "reduced": k % 6 == 4, "disrupted": k % 4 == 1, "hex": hx})
        i += 1
    return units


def add_siege(view: dict) -> dict:
    """Adds the siege rules' view keys (20.0, 16.7) to a sample view, in place:
    ladders against walls, breaches, fires, heads, oil carriers (with the
    hidden ``oil_real`` only in Westernesse's own view), an operated Grond, a
    ready siege tower, the Banner of the King, two city levels held by Sauron
    and the road-control hexes; with the generic marks the engine's view puts on them
    (``look``, engine/display.py)."""
    own = view.get("seat") == "westernesse"
    s = "sauron"
    view["markers"] = [
        {"type": "fire", "hex": "2010"}, {"type": "fire", "hex": "1807"}, {"type": "fire", "hex": "2207"},
        {"type": "breached", "hexside": "2101/se"}, {"type": "breached", "hexside": "2108/se"},
        {"type": "breached", "hexside": "2506/se"},
        {"type": "ladder", "hex": "2109", "hexside": "2109/n", "side": s, "turn": 5},
        {"type": "ladder", "hex": "1608", "hexside": "1608/ne", "side": s, "turn": 5},
        {"type": "ladder", "hex": "1608", "hexside": "1607/s", "side": s, "turn": 6},
        {"type": "ladder", "hex": "2009", "hexside": "1909/se", "side": s, "turn": 6},
        {"type": "ladder", "hex": "2407", "hexside": "2407/n", "side": s, "turn": 6},
        {"type": "head", "hex": "1905"}, {"type": "head", "hex": "2004"},
    ]
    units = view["units"]
    by_id = {u.get("id"): u for u in units}
    cauldron_real = {"K1": True, "K2": False}
    for uid, src in (("GS90", "K1"), ("GS7", "K2"), ("GS5", "K1")):
        u = by_id.get(uid)
        if u is None:
            continue
        u["carrying"] = "oil"
        u["oil_from"] = src
        u["look"] = {"drop": "full"}
        if own:
            u["oil_real"] = cauldron_real[src]
            u["look"]["drop"] = "full" if cauldron_real[src] else "hollow"
    if "GR" in by_id:
        by_id["GR"]["active"] = True
        by_id["GR"]["look"] = {"glow": True}
    if "ST1" in by_id:
        by_id["ST1"].update(hex="2308", ready=["2308/n"], look={"arrows": ["2308/n"]})
    units.append({"id": "ST2", "side": s, "type": "siege_tower", "name": "Siege Tower", "hex": "2208"})
    units.append({"id": "BAN", "side": "westernesse", "type": "banner", "name": "Banner of the King", "hex": "1805"})
    view["levels"] = [1, 2]
    view["road"] = {"1918": "sauron", "2124": "westernesse"}
    view["notes"] = ["Sauron holds city levels 1 and 2 (20.2)", "Grond operated by the Lord of the Nazgul",
                     "Ladders: 5 against the walls (16.5)"]
    return view


def sample_view(seat: str | None = None, n: int = 40, *, turn: int = 3, siege: bool = True) -> dict:
    """A Gondor view; ``siege`` (with ``turn`` > 0) adds the siege keys (:func:`add_siege`)."""
    units = sample_units(n, with_real=(seat == "westernesse"))
    view = {
        "ruleset": "gondor", "title": "Gondor", "seat": seat,
        "turn": turn, "turns": 16, "night": turn % 2 == 1,
        "phase": "sauron-move", "phase_title": "Sauron movement (7.2)" if turn else "Sauron set-up (13.1)",
        "active": ["sauron"],
        "sides": SIDES,
        "display": get_ruleset("gondor").display,
        "units": units,
        "markers": [{"type": "fire", "hex": "2010"}, {"type": "breached", "hexside": "2101/se"},
                    {"type": "ladder", "hex": "2011"}, {"type": "head", "hex": "1905"}],
        "gates": {"1910/n": "westernesse"},
        "tracks": [{"name": "Garrison demoralization", "side": "westernesse", "points": 12, "level": 36},
                   {"name": "Reinforcements demoralization", "side": "westernesse", "points": 0, "level": 76},
                   {"name": "Sauron demoralization", "side": "sauron", "points": 40, "level": 93}],
        "pool": {"sauron": 12, "westernesse": 3},
    }
    if siege and turn:
        add_siege(view)
    if seat == "westernesse":
        view["zone"] = ["1907", "1908", "2007", "2008", "1807", "1808"]
    if seat == "sauron" and turn == 0:
        # set-up: Sauron deploys on the east edge rows
        view["zone"] = [f"{c:02d}{r:02d}" for c in range(14, 30) for r in (24, 25, 26)]
        view["markers"] = []
        view["gates"] = {}
        view["active"] = ["sauron"]
        view["night"] = False
        view["units"] = [dict(u, hex=None) if u["side"] == "sauron" and i % 3 else u
                         for i, u in enumerate(view["units"])]
        view["pool"] = {"sauron": sum(1 for u in view["units"] if u["side"] == "sauron" and u["hex"] is None),
                        "westernesse": 0}
    return view


def gondor_map():
    from engine.maps import HexMap
    return HexMap.load(Path(__file__).resolve().parent.parent / "engine" / "rulesets" / "gondor" / "data" / "map.json")


def main(argv: list[str]) -> None:
    from render import render_view

    out = Path(argv[0] if argv else "/tmp/render_samples")
    out.mkdir(parents=True, exist_ok=True)
    m = gondor_map()
    files = {
        "public.png": render_view(sample_view(None), m),
        "westernesse.png": render_view(sample_view("westernesse"), m),
        "westernesse_around_1907.png": render_view(sample_view("westernesse"), m, around="1907"),
        "public_around_2109.png": render_view(sample_view(None), m, around="2109"),
        "public_80.png": render_view(sample_view(None, 80), m),
        "sauron_setup.png": render_view(sample_view("sauron", 60, turn=0), m),
    }
    # the Field of Celebrant: an open battlefield, its own legend
    from engine.core import Game

    cel = Game.new(get_ruleset("celebrant"), seed="sample")
    files["celebrant_public.png"] = render_view(cel.view(None), cel.ruleset.hexmap)
    files["celebrant_around_4215.png"] = render_view(cel.view("shadow"), cel.ruleset.hexmap, around="4215")
    for name, data in files.items():
        (out / name).write_bytes(data)
        print(out / name, len(data), "bytes")


if __name__ == "__main__":
    main(sys.argv[1:])
