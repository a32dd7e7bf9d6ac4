"""How map.json was first reconstructed (the printed Field of Celebrant map is
not available; see docs/celebrant.md). map.json is the data the game uses: a
group owning the printed map corrects map.json hex by hex (and its `zones`),
not this script.

Run: python -m engine.rulesets.celebrant.data.reconstruct_map > engine/rulesets/celebrant/data/map.json

Layout, from every fact the exclusive rules give (seed 003):
- 11.1: a 22" x 34" map, printed here landscape with North at the top: 44
  columns by 28 rows (hexes of about 0.8");
- 15.1: the Anduin runs down the eastern side (two to three columns of river
  hexes on the east edge); the Limlight flows in from the western edge in the
  south and bends south off the map; both are impassable;
- 15.2: every hex next to a river hex is a riverbank;
- 16.0: two ruins on the Anduin's bank: the watchtower (16.1) that guarded the
  river and the landing (16.2) further south;
- 13.1: the Orc hill extends from the north-western side: the set-up area is
  every hex within six hexes of the western edge and thirteen of the northern
  edge; its flanks are slopes;
- 13.2: the Gondorian lines around the central grove: the grove's hexes plus
  two rows north and south and four columns east and west; the Rearguard is
  the seven hexes of the row five rows south of the grove, centred under it;
- 14.5: the Balchoth enter on the south-eastern edge between two groves;
- 14.6: the three Eotheod entry areas (NW, NE and SE, green on the printed
  set-up map) are stretches of the northern edge east of the Orc hill, of the
  northern edge near the Anduin, and of the southern edge east of the
  Balchoth's groves.
"""
import json
import sys

from engine.hexgrid import Hex, line

COLS, ROWS = (1, 44), (1, 28)


def anduin_west(row: int) -> int:
    """The first river column of the Anduin on each row (it meanders)."""
    if row <= 9:
        return 43
    if row <= 19:
        return 42
    return 43


def limlight() -> set[Hex]:
    out: set[Hex] = set()
    for a, b in (("0120", "0523"), ("0523", "0925"), ("0925", "1128")):
        out.update(line(a, b))
    return out


def H(text: str) -> Hex:
    return Hex.parse(text)


CENTRAL_GROVE = [H(x) for x in ("2113", "2114", "2213", "2214", "2215", "2313", "2314")]
SE_GROVES = [[H(x) for x in ("2726", "2727", "2826", "2827", "2828", "2728")],
             [H(x) for x in ("3526", "3527", "3626", "3627", "3628", "3528")]]
OTHER_GROVES = [H(x) for x in ("1208", "1209", "1308", "3006", "3106", "3007", "1622", "1623", "1722",
                               "3419", "3519", "3420", "0918", "1018")]
OTHER_SLOPES = [H(x) for x in ("1416", "1417", "1516", "2908", "2909", "3009", "3210", "0717", "0817")]
WATCHTOWER = H("4208")
LANDING = H("4222")


def build() -> dict:
    allh = [Hex(c, r) for c in range(COLS[0], COLS[1] + 1) for r in range(ROWS[0], ROWS[1] + 1)]
    onmap = set(allh)
    river = {h for h in allh if h.col >= anduin_west(h.row)} | (limlight() & onmap)
    terrain: dict[Hex, str] = {}
    for h in allh:
        if h in river:
            terrain[h] = "river"
        elif any(nb in river for nb in h.neighbours()):
            terrain[h] = "riverbank"
        else:
            terrain[h] = "clear"
    # the Orc hill (13.1): its flanks are slopes
    for h in allh:
        if terrain[h] == "clear" and ((h.col in (6, 7) and h.row <= 14) or (h.row in (13, 14) and h.col <= 7)):
            terrain[h] = "slope"
    for h in OTHER_SLOPES:
        terrain[h] = "slope"
    for h in CENTRAL_GROVE + SE_GROVES[0] + SE_GROVES[1] + OTHER_GROVES:
        terrain[h] = "grove"
    assert any(terrain.get(nb) == "river" for nb in WATCHTOWER.neighbours())
    assert any(terrain.get(nb) == "river" for nb in LANDING.neighbours())
    terrain[WATCHTOWER] = "watchtower"
    terrain[LANDING] = "landing"

    def ok(h: Hex) -> bool:
        return terrain[h] != "river"

    orcs = sorted(h for h in allh if h.col <= 6 and h.row <= 13 and ok(h))
    gcols = [h.col for h in CENTRAL_GROVE]
    grows = [h.row for h in CENTRAL_GROVE]
    gondor = sorted(h for h in allh if min(gcols) - 4 <= h.col <= max(gcols) + 4
                    and min(grows) - 2 <= h.row <= max(grows) + 2 and ok(h))
    mid = sum(gcols) // len(gcols)
    rear_row = max(grows) + 5
    rearguard = sorted(Hex(c, rear_row) for c in range(mid - 3, mid + 4))
    se_lo = max(h.col for h in SE_GROVES[0]) + 1
    se_hi = min(h.col for h in SE_GROVES[1]) - 1
    balchoth = sorted(Hex(c, ROWS[1]) for c in range(se_lo, se_hi + 1))
    eotheod = {
        "NW": sorted(Hex(c, ROWS[0]) for c in range(9, 15)),
        "NE": sorted(Hex(c, ROWS[0]) for c in range(35, 41)),
        "SE": sorted(Hex(c, ROWS[1]) for c in range(max(h.col for h in SE_GROVES[1]) + 1, anduin_west(ROWS[1]))),
    }
    for area in eotheod.values():
        assert all(ok(h) for h in area)
    s = lambda hs: [str(h) for h in hs]  # noqa: E731
    return {
        "id": "celebrant",
        "title": "The Field of Celebrant",
        "reconstructed": True,
        "reason": "The printed Field of Celebrant map is not available; rebuilt to agree with every place the "
                  "exclusive rules name (11.1, 13.1, 13.2, 14.5, 14.6, 15.x, 16.x). Correct it hex by hex, and its "
                  "zones, if you own the map.",
        "columns": list(COLS),
        "rows": list(ROWS),
        "edges": {"north": "top", "south": "bottom", "west": "left", "east": "right"},
        "main_gate": None,
        "labels": [
            {"hex": "4314", "text": "ANDUIN"},
            {"hex": "0421", "text": "LIMLIGHT"},
            {"hex": "0307", "text": "Orc hill"},
            {"hex": "2211", "text": "Celebrant grove"},
            {"hex": str(WATCHTOWER), "text": "Watchtower"},
            {"hex": str(LANDING), "text": "Landing"},
            {"hex": "1102", "text": "Eotheod NW"},
            {"hex": "3702", "text": "Eotheod NE"},
            {"hex": "3927", "text": "Eotheod SE"},
            {"hex": "3127", "text": "Balchoth"},
        ],
        "zones": {
            "orcs": s(orcs),
            "gondor": s(gondor),
            "rearguard": s(rearguard),
            "balchoth": s(balchoth),
            "eotheod-NW": s(eotheod["NW"]),
            "eotheod-NE": s(eotheod["NE"]),
            "eotheod-SE": s(eotheod["SE"]),
            "central-grove": s(sorted(CENTRAL_GROVE)),
            "se-groves": [s(sorted(g)) for g in SE_GROVES],
        },
        "hexsides": {},
        "hexes": {str(h): terrain[h] for h in sorted(allh)},
    }


if __name__ == "__main__":
    data = build()
    # one hex per line so a group can correct it by hand
    out = ["{"]
    keys = [k for k in data if k not in ("hexsides", "hexes")]
    for k in keys:
        out.append(f"  {json.dumps(k)}: {json.dumps(data[k], ensure_ascii=False)},")
    out.append('  "hexsides": {},')
    out.append('  "hexes": {')
    items = list(data["hexes"].items())
    for i, (k, v) in enumerate(items):
        out.append(f"    {json.dumps(k)}: {json.dumps(v)}{',' if i < len(items) - 1 else ''}")
    out.append("  }")
    out.append("}")
    sys.stdout.write("\n".join(out) + "\n")
