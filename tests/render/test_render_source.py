"""What the renderer's source may know (issue 26): ``render/hexmap.py`` split along its own concerns,
and no part of the renderer naming a game or a game's piece: what a game has is the ruleset's to declare
(its sides' titles and colours, its tracks and their names, its set-up zone, its result line, its notes;
and how its pieces look: the display vocabulary of engine/display.py, each game's ``data/display.json``:
the shapes of its unit types, its markers' styles, its legend's keys, and each unit's generic marks)."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RENDER = ROOT / "render"
GAME_WORDS = re.compile(
    r"\b(gondor|sauron|westernesse|celebrant|grond|cauldrons?|banner|mumak|mumakil|nazgul|minas|tirith|rohan|"
    r"fellowship|risk|wotr|narsil|isildur|ladders?|oil|siege|breach|trolls?|balchoth|eotheod|anduin|rammas|"
    r"one ring|the ring|ringbearer|eorl|dagorlad|osgiliath|catapults?|carrying|oil_real|mordor|orcs?|gandalf|"
    r"witch-king|denethor|theoden|theodred|pelennor|morannon|gorgol|aragorn|frodo|good|evil)\b", re.I)
AGNOSTIC = ("hex_common.py", "hex_crop.py", "hex_header.py", "hex_base.py", "disk_cache.py", "hex_terrain.py", "geometry.py",
            "hex_underlay.py", "hex_bands.py",
            "replay.py", "__init__.py", "hexmap.py", "hex_legend.py", "hex_pieces.py", "counters.py", "style.py",
            "areamap.py", "provinces.py", "png.py", "barchart.py", "hex_stacks.py", "record.py")
# lines naming a game or a piece, per file: a ceiling (none left: a new file goes in AGNOSTIC)
CEILING: dict[str, int] = {}


def _naming(path: Path) -> list[str]:
    return [f"{path.name}:{i}: {ln.strip()}" for i, ln in enumerate(path.read_text().splitlines(), 1)
            if GAME_WORDS.search(ln)]


def test_the_layout_modules_name_no_game_or_piece():
    hits = [h for name in AGNOSTIC for h in _naming(RENDER / name)]
    assert not hits, hits


def test_the_other_render_modules_name_games_no_more_than_today():
    files = {p.name for p in RENDER.glob("*.py")}
    assert files == set(AGNOSTIC) | set(CEILING), files ^ (set(AGNOSTIC) | set(CEILING))
    over = {name: len(_naming(RENDER / name)) for name, top in CEILING.items() if len(_naming(RENDER / name)) > top}
    assert not over, over


def test_hexmap_is_split_by_concern():
    """No part of the hex renderer over 400 lines (hexmap.py was 1,572), and each concern in its file."""
    sizes = {p.name: len(p.read_text().splitlines()) for p in RENDER.glob("hex*.py")}
    assert max(sizes.values()) <= 400, sizes
    where = {"frame_for": "hex_crop.py", "_focus_window": "hex_crop.py", "_beyond": "hex_crop.py",
             "_header": "hex_header.py", "_footer": "hex_bands.py", "_build_base": "hex_base.py",
             "legend_for": "hex_legend.py", "draw_terrain": "hex_terrain.py", "_counter": "hex_pieces.py",
             "compose_info": "hexmap.py"}
    for name, file in where.items():
        assert re.search(rf"^def {name}\(", (RENDER / file).read_text(), re.M), (name, file)
