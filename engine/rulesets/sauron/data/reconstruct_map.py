"""How map.json was first reconstructed (the printed SPI *Sauron* map is not
available; facts.md section 3; docs/sauron.md). map.json is the data the game
uses: a group owning the printed map corrects map.json hex by hex, not this script.

Run: python -m engine.rulesets.sauron.data.reconstruct_map > engine/rulesets/sauron/data/map.json
and  python -m engine.rulesets.sauron.data.reconstruct_map --expanded > .../data/expanded_map.json

Layout, from what is known (facts.md 3, 9.2; seed 004):
- the compass arrow points West: West is the top edge, East (Mordor) the bottom;
- the plain of Dagorlad, mostly clear, with slopes, some hills and the *rough*
  hexes of 4.3 (variant addition: +2 MP, +2 to the defender's Armor Protection);
- the mountains of the Ered Lithui and the Ephel Duath across the bottom rows,
  impassable, broken only by the Morannon: a three-hex-wide passage (columns
  14-16, rows 21-24) that is Mordor, closed by the Gates of Morannon on every
  hexside between the passage and the plain (18.1);
- one main road from the Gates across the plain (column 15) to the West edge;
- Sauron's reinforcements come up the passage from the bottom edge (1424-1624);
  the Alliance's (the Elves, the spares) enter along the West (top) edge.
"""
import json

from engine.hexgrid import Hex, Hexside

COLS, ROWS = (1, 30), (1, 24)
MORDOR_COLS = (14, 16)
MORDOR_ROW = 21
ROUGH = {"0608", "0609", "0709", "2207", "2208", "2308", "1013", "1014", "1114", "1912", "2012", "2013",
         "0416", "0516", "2516", "2616", "1205", "1806", "0303", "2803"}
HILLS = {"0911", "0912", "0812", "2310", "2311", "2411", "1707", "1708"}


def is_mordor(h: Hex) -> bool:
    return MORDOR_COLS[0] <= h.col <= MORDOR_COLS[1] and h.row >= MORDOR_ROW


def is_mountain(h: Hex) -> bool:
    if is_mordor(h):
        return False
    if h.row >= MORDOR_ROW:
        return True
    return h.row >= 19 and (h.col <= 3 or h.col >= 28)


def build() -> dict:
    allh = [Hex(c, r) for c in range(COLS[0], COLS[1] + 1) for r in range(ROWS[0], ROWS[1] + 1)]
    inside = set(allh)
    hexes = {}
    for h in allh:
        s = str(h)
        if is_mordor(h):
            t = "clear"
        elif is_mountain(h):
            t = "mountain"
        elif s in ROUGH:
            t = "rough"
        elif s in HILLS or any(n in inside and is_mountain(n) for n in h.neighbours()):
            t = "slope"
        else:
            t = "clear"
        if h.col == 15 and t != "mountain":
            t += " road"
        hexes[s] = t
    sides = {}
    for h in allh:
        if not is_mordor(h):
            continue
        for n in h.neighbours():
            if n in inside and not is_mordor(n) and not is_mountain(n):
                sides[str(Hexside.between(h, n))] = "gate"
    return {
        "id": "sauron",
        "title": "Dagorlad before the Morannon",
        "reconstructed": True,
        "reason": "The printed SPI Sauron map is not available; rebuilt to fit every known fact (facts.md 3): "
                  "Dagorlad mostly clear with slopes and rough hexes, the mountains and the Gates of Morannon, one "
                  "road to the Gates, the compass arrow pointing West. Correct it hex by hex if you own the map.",
        "columns": list(COLS),
        "rows": list(ROWS),
        "edges": {"west": "top", "east": "bottom", "north": "right", "south": "left"},
        "main_gate": sorted(sides)[len(sides) // 2],
        "labels": [{"hex": "1523", "text": "MORDOR"}, {"hex": "1520", "text": "Morannon"},
                   {"hex": "1510", "text": "Dagorlad"}, {"hex": "1501", "text": "to the Anduin (W)"},
                   {"hex": "0622", "text": "Ephel Duath"}, {"hex": "2422", "text": "Ered Lithui"}],
        "zones": {
            "mordor": sorted(str(h) for h in allh if is_mordor(h)),
        },
        "hexsides": dict(sorted(sides.items())),
        "hexes": hexes,
    }




# ---------------------------------------------------------------------------------- the expanded game
# Seed 004, "Expanded Game": the map rotated so that the arrow (West) points North; the mountains from
# 0801/0901/1001 to 0823/0924/1023 and from 1021/1022/1023 to 2921/2922/2923; the Gate on the path
# 0722-1120; the six hexes in the mountains on each side of the path are fortifications; no move from
# the path straight onto the wall but by the stairways 0920-1019 and 1122-0923; Barad-dur 1608 and the
# six hexes round it, Orodruin 2218 and its six, the road 1609-1611-2214-2217.
EX_COLS, EX_ROWS = (1, 29), (1, 24)
PATH = ["0722", "0821", "0921", "1020", "1120"]
STAIRS = {"0920", "1019", "1122", "0923"}


def ex_mountain(h: Hex) -> bool:
    s = str(h)
    if s in PATH:
        return False
    v = (h.col == 8 and h.row <= 23) or (h.col == 9 and h.row <= 24) or (h.col == 10 and h.row <= 23)
    horiz = 10 <= h.col <= 29 and 21 <= h.row <= 23
    return v or horiz


def ex_inside(h: Hex) -> bool:
    return h.col >= 11 and h.row <= 20


def build_expanded() -> dict:
    from engine.hexgrid import line
    allh = [Hex(c, r) for c in range(EX_COLS[0], EX_COLS[1] + 1) for r in range(EX_ROWS[0], EX_ROWS[1] + 1)]
    inside = set(allh)
    path = [Hex.parse(p) for p in PATH]
    forts = {n for p in path[1:-1] for n in p.neighbours() if n in inside and ex_mountain(n)}
    forts |= {Hex.parse(s) for s in STAIRS}
    barad = {Hex.parse("1608")} | set(Hex.parse("1608").neighbours())
    orodruin = {Hex.parse("2218")} | set(Hex.parse("2218").neighbours())
    road = set()
    for a, b in (("1609", "1611"), ("1611", "2214"), ("2214", "2217")):
        road |= set(line(a, b))
    hexes = {}
    for h in allh:
        if h in forts:
            t = "fort"
        elif h in barad:
            t = "fortress"
        elif h in orodruin:
            t = "orodruin"
        elif ex_mountain(h):
            t = "mountain"
        else:
            t = "clear"
        if h in road or str(h) in PATH:
            t += " road"
        hexes[str(h)] = t
    sides = {}
    for p in path[1:-1]:
        for n in p.neighbours():
            if n in forts and str(n) not in STAIRS:
                sides[str(Hexside.between(p, n))] = "wall"
    sides[str(Hexside.between(Hex.parse("0722"), Hex.parse("0821")))] = "gate"
    return {
        "id": "sauron-expanded",
        "title": "The rematch: the Morannon, Barad-dur and Orodruin",
        "reconstructed": True,
        "reason": "Seed 004's expanded game gives the mountains, the gate path, the fortifications, the stairways, "
                  "Barad-dur, Orodruin and the road by hex number; everything else is clear, and the road beyond "
                  "2217 is still to be added (the seed says so).",
        "columns": list(EX_COLS),
        "rows": list(EX_ROWS),
        "edges": {"north": "top", "south": "bottom", "west": "left", "east": "right"},
        "main_gate": str(Hexside.between(Hex.parse("0722"), Hex.parse("0821"))),
        "labels": [{"hex": "1608", "text": "BARAD-DUR"}, {"hex": "2218", "text": "Orodruin"},
                   {"hex": "0722", "text": "Morannon"}, {"hex": "1510", "text": "Gorgoroth"},
                   {"hex": "0312", "text": "Dagorlad"}],
        "zones": {
            "mordor": sorted(str(h) for h in allh if ex_inside(h) and not ex_mountain(h)),
            "outside": sorted(str(h) for h in allh if not ex_inside(h) and not ex_mountain(h) and h not in forts
                              and str(h) not in PATH[1:]),
            "forts": sorted(str(h) for h in forts),
            "orodruin": sorted(str(h) for h in orodruin),
            "barad-dur": sorted(str(h) for h in barad),
        },
        "hexsides": dict(sorted(sides.items())),
        "hexes": hexes,
    }


if __name__ == "__main__":
    import sys
    print(json.dumps(build_expanded() if "--expanded" in sys.argv else build(), indent=1))
