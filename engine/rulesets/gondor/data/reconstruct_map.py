"""How map.json was first reconstructed (the printed Gondor map is not
available; see docs/reconstructed.md). map.json is the data the game uses: a
group owning the printed map corrects map.json hex by hex, not this script.

Run: python -m engine.rulesets.gondor.data.reconstruct_map > map.json

Layout, from the facts the rules give (../shared/rules/facts.md, section 2):
- the map is printed with West at the top: the city is set against Mount
  Mindolluin on the top edge, the road runs down to the East edge (row 26);
  North (Rohan's entry, 14.2) is the right edge, South (Aragorn's) the left;
- seven concentric levels around hex 1902, the Citadel (level 7) holding 1903
  (13.2); 2101 lies in level 6 and 2201 in level 5, so 2101/2201 is a wall
  (errata to the printed map);
- one gate in each ring of walls, alternating sides as in Tolkien's city; the
  Main Gate (1909/s) faces east onto the road, flanked by two towers;
- the tunnel hexes (15.24) are the two hexes of the last gate into the Citadel;
- the road runs from the Main Gate through 1918 and 2124 to the East edge
  (20.1);
- mountains on the top edge outside the walls (16.24: catapults never fire
  through them), slopes at the foot of the walls, a few groves and rough
  ground on the Pelennor.
"""
import json
import sys

from engine.hexgrid import Hex, Hexside, line

COLS, ROWS = (1, 38), (1, 26)
CENTER = Hex(19, 2)
RADIUS = 7


def level_of(h: Hex) -> int:
    d = h.distance(CENTER)
    if d <= 1:
        return 7
    if d <= RADIUS:
        return 8 - d
    return 0


def build() -> dict:
    hexes = {}
    allh = [Hex(c, r) for c in range(COLS[0], COLS[1] + 1) for r in range(ROWS[0], ROWS[1] + 1)]
    road = set()
    for a, b in (("1910", "1918"), ("1918", "2124"), ("2124", "2126")):
        road.update(line(a, b))
    groves = {"0714", "0715", "0814", "0621", "0622", "0721", "3116", "3117", "3216",
              "3521", "3522", "3421", "1224", "1225", "2820", "2821"}
    rough = {"0508", "0608", "0609", "3209", "3309", "3310", "1012", "1013", "2712", "2713"}
    for h in allh:
        d = h.distance(CENTER)
        lv = level_of(h)
        if lv:
            terrain = "city"
        elif (h.row <= 3 and d >= 8) or (h.row <= 6 and (h.col <= 5 or h.col >= 34)) \
                or (h.row <= 4 and (h.col <= 9 or h.col >= 30)):
            terrain = "mountain"
        elif d <= 9 and h.row <= 11:
            terrain = "slope"
        elif str(h) in groves:
            terrain = "forest"
        elif str(h) in rough:
            terrain = "rough"
        else:
            terrain = "clear"
        parts = [terrain]
        if lv:
            parts.append(f"L{lv}")
        if h in road:
            parts.append("road")
        hexes[h] = parts

    sides = {}
    onmap = set(allh)
    for h in allh:
        for nb in h.neighbours():
            if nb not in onmap:
                continue
            la, lb = level_of(h), level_of(nb)
            if la != lb:
                sides[Hexside.between(h, nb)] = "wall"
    # gates: the Main Gate, then one per inner ring, alternating sides
    main_gate = Hexside.between(Hex(19, 9), Hex(19, 10))
    sides[main_gate] = "gate"
    for k, direction in zip(range(1, 7), ("sw", "se", "sw", "se", "sw", "se")):
        inner = CENTER
        for _ in range(7 - k):
            inner = inner.neighbour(direction)
        outer = inner.neighbour(direction)
        assert level_of(inner) == k + 1 and level_of(outer) == k, (k, inner, outer)
        sides[Hexside.between(inner, outer)] = "gate"
        if k == 6:  # the tunnel through the rock pier into the Citadel (15.24)
            hexes[inner].append("tunnel")
            hexes[outer].append("tunnel")
    # towers flanking the Main Gate
    gate_hex = Hex(19, 9)
    for flank in gate_hex.neighbours():
        if level_of(flank) != 1:
            continue
        for nb in flank.neighbours():
            if nb in onmap and level_of(nb) == 0:
                sides[Hexside.between(flank, nb)] = "tower"

    return {
        "id": "gondor",
        "title": "Minas Tirith and the Pelennor",
        "reconstructed": True,
        "reason": "The printed SPI Gondor map is not available; rebuilt to agree with every hex the rules name "
                  "(13.2, 14.1, 16.63, 20.1, errata 2101/2201). Correct it hex by hex if you own the map.",
        "columns": list(COLS),
        "rows": list(ROWS),
        "edges": {"west": "top", "east": "bottom", "north": "right", "south": "left"},
        "main_gate": str(main_gate),
        "labels": [
            {"hex": "1905", "text": "MINAS TIRITH"},
            {"hex": "0302", "text": "Mindolluin"},
            {"hex": "2017", "text": "Pelennor Fields"},
            {"hex": "2126", "text": "to Osgiliath"},
            {"hex": "3813", "text": "Rohan (N)"},
            {"hex": "0113", "text": "Harlond (S)"},
        ],
        "hexsides": {str(k): v for k, v in sorted(sides.items())},
        "hexes": {str(h): " ".join(p) for h, p in sorted(hexes.items())},
    }


if __name__ == "__main__":
    data = build()
    # one hex per line so a group can correct it by hand
    out = ["{"]
    keys = [k for k in data if k not in ("hexsides", "hexes")]
    for k in keys:
        out.append(f"  {json.dumps(k)}: {json.dumps(data[k], ensure_ascii=False)},")
    for big in ("hexsides", "hexes"):
        out.append(f"  {json.dumps(big)}: {{")
        items = list(data[big].items())
        for i, (k, v) in enumerate(items):
            out.append(f"    {json.dumps(k)}: {json.dumps(v)}{',' if i < len(items) - 1 else ''}")
        out.append("  }," if big == "hexsides" else "  }")
    out.append("}")
    sys.stdout.write("\n".join(out) + "\n")
