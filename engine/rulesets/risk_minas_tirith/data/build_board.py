"""Builds ``board.json`` for LOTR Risk: Minas Tirith (run: python build_board.py).

The printed board is not available (facts.md section 5: territory names,
adjacency and placements "not found"), so the board is RECONSTRUCTED from the
seed's description: 32 territories, 3 wall sections and the City; the Rammas
Echor ring; two forts on the road to Osgiliath; the Grond territory under the
Gate; the Anduin with three crossings. Shapes are the Voronoi cells of the
sites below on a 1400 x 900 canvas (west = Mount Mindolluin on the left, east =
the Anduin and Ithilien on the right); two areas border each other when their
cells share an edge, minus the barriers listed below (the river, the city
walls), plus the Gate passage (City <-> Grond). Deterministic: same input,
same JSON.
"""
from __future__ import annotations

import json
import math
from pathlib import Path

W, H = 1400, 900
REASON = "printed board not available; placed from the seed's description (docs/risk-minas-tirith.md)"

# id, name, x, y, kind, bank ('w' west of the Anduin, 'e' east)
SITES = [
    ("city", "Minas Tirith", 70, 450, "city", "w"),
    ("wall-n", "North Wall", 150, 300, "wall", "w"),
    ("wall-gate", "Gate Wall", 205, 450, "wall", "w"),
    ("wall-s", "South Wall", 150, 600, "wall", "w"),
    # inner Pelennor (inside the Rammas Echor)
    ("mindolluin-n", "Mindolluin North", 80, 110, "land", "w"),
    ("mindolluin-s", "Mindolluin South", 80, 790, "land", "w"),
    ("pelennor-n", "North Pelennor", 300, 190, "land", "w"),
    ("grond", "Grond's Field", 340, 450, "land", "w"),
    ("pelennor-s", "South Pelennor", 300, 710, "land", "w"),
    ("farms-n", "North Farms", 480, 300, "land", "w"),
    ("causeway", "The Causeway", 500, 450, "land", "w"),
    ("farms-s", "South Farms", 480, 610, "land", "w"),
    ("harlond", "Harlond", 560, 780, "land", "w"),
    # the Rammas Echor ring
    ("rammas-n", "Rammas North", 450, 90, "rammas", "w"),
    ("rammas-ne", "Rammas North-East", 640, 250, "rammas", "w"),
    ("rammas-e", "Rammas Causeway Gate", 670, 450, "rammas", "w"),
    ("rammas-se", "Rammas South-East", 660, 620, "rammas", "w"),
    ("rammas-s", "Rammas South", 380, 860, "rammas", "w"),
    # outside, west bank
    ("druadan", "Druadan Edge", 180, 30, "land", "w"),
    ("north-road", "North Road", 640, 50, "land", "w"),
    ("fields-ne", "North-East Fields", 800, 220, "land", "w"),
    ("fort-w", "West Causeway Fort", 820, 450, "fort", "w"),
    ("fields-se", "South-East Fields", 820, 650, "land", "w"),
    ("fort-e", "East Causeway Fort", 950, 430, "fort", "w"),
    ("fields-e", "Eastern Fields", 930, 560, "land", "w"),
    ("osgiliath-w", "West Osgiliath", 1080, 450, "land", "w"),
    ("anduin-n", "North Bank", 980, 160, "land", "w"),
    ("anduin-s", "South Bank", 860, 800, "land", "w"),
    ("lossarnach", "Lossarnach Road", 150, 880, "land", "w"),
    ("pelargir-road", "Pelargir Road", 620, 880, "land", "w"),
    # east of the Anduin
    ("cair-andros", "Cair Andros Road", 1230, 90, "land", "e"),
    ("ithilien-n", "North Ithilien", 1320, 270, "land", "e"),
    ("osgiliath-e", "East Osgiliath", 1250, 460, "land", "e"),
    ("morgul-road", "Morgul Road", 1340, 600, "land", "e"),
    ("ithilien-s", "South Ithilien", 1250, 760, "land", "e"),
    ("emyn-arnen", "Emyn Arnen", 1080, 860, "land", "e"),
]
# the Anduin: crossings (both banks) allowed despite the river
CROSSINGS = {("osgiliath-w", "osgiliath-e"), ("anduin-n", "cair-andros"), ("anduin-s", "emyn-arnen")}
RIVER_MIN = 20.0  # the river is drawn along the shared edges between the banks
# the City is walled: it borders only its three wall sections, and Grond's Field under the Gate
CITY_ALLOWED = {"wall-n", "wall-gate", "wall-s", "grond"}
EXTRA = [("city", "grond")]
# the Rammas Echor rings the Pelennor: an inner area borders an outer one only through the ring
INNER = {"mindolluin-n", "mindolluin-s", "pelennor-n", "pelennor-s", "grond", "farms-n", "farms-s",
         "causeway", "harlond"}  # the City "extends out from under the Gate section" (seed, Walls)
BANNERS = ["wall-n", "wall-gate", "wall-s", "fort-w", "fort-e", "rammas-e"]
CATAPULTS = ["wall-n", "wall-gate", "wall-s", "fields-ne", "fields-se"]
ENDS = {"good": ["city", "mindolluin-n", "mindolluin-s", "lossarnach", "druadan"],
        "evil": ["cair-andros", "ithilien-n", "osgiliath-e", "morgul-road", "ithilien-s", "emyn-arnen"]}
ENTRIES = {"theoden": ["druadan", "north-road"], "aragorn": ["harlond"],
           "mordor": ENDS["evil"]}
START = {
    "good": {
        "city": {"infantry": 2}, "wall-n": {"archer": 2}, "wall-gate": {"archer": 2}, "wall-s": {"archer": 2},
        "fort-w": {"infantry": 1, "archer": 1}, "fort-e": {"infantry": 1, "archer": 1},
        "rammas-e": {"infantry": 1}, "rammas-n": {"infantry": 1}, "rammas-s": {"infantry": 1},
        "grond": {"cavalry": 2, "leaders": ["imrahil"]}, "causeway": {"cavalry": 3, "leaders": ["faramir"]},
    },
    "evil": {
        "osgiliath-w": {"infantry": 4, "archer": 2, "leaders": ["gothmog"]},
        "osgiliath-e": {"infantry": 3, "archer": 2, "troll": 1},
        "fields-e": {"infantry": 2, "archer": 2, "troll": 1},
        "anduin-n": {"infantry": 2, "archer": 1, "cavalry": 3},
        "anduin-s": {"infantry": 1, "archer": 1, "mumak": 1, "leaders": ["harad"]},
    },
}


def clip(poly, a, b, c):
    """Keep the part of convex ``poly`` with a*x + b*y <= c."""
    out = []
    n = len(poly)
    for i in range(n):
        p, q = poly[i], poly[(i + 1) % n]
        fp, fq = a * p[0] + b * p[1] - c, a * q[0] + b * q[1] - c
        if fp <= 0:
            out.append(p)
        if (fp < 0 < fq) or (fq < 0 < fp):
            t = fp / (fp - fq)
            out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    return out


def cells():
    res = {}
    for sid, _n, x, y, _k, _b in SITES:
        poly = [(0.0, 0.0), (W, 0.0), (W, H), (0.0, H)]
        for oid, _n2, ox, oy, _k2, _b2 in SITES:
            if oid == sid:
                continue
            a, b = ox - x, oy - y
            c = (ox * ox + oy * oy - x * x - y * y) / 2
            poly = clip(poly, a, b, c)
        res[sid] = [(round(px, 1), round(py, 1)) for px, py in poly]
    return res


def shared_edge(p1, p2):
    """Length of the boundary two convex cells share (0 if none)."""
    best = 0.0
    for i in range(len(p1)):
        a, b = p1[i], p1[(i + 1) % len(p1)]
        for j in range(len(p2)):
            c, d = p2[j], p2[(j + 1) % len(p2)]
            if (math.dist(a, d) < 0.6 and math.dist(b, c) < 0.6) or (math.dist(a, c) < 0.6 and math.dist(b, d) < 0.6):
                best = max(best, math.dist(a, b))
    return best


def build():
    polys = cells()
    info = {s[0]: s for s in SITES}
    adj = {s[0]: set() for s in SITES}
    river = []
    walls = []
    rammas = []
    ids = [s[0] for s in SITES]
    for i, a in enumerate(ids):
        for b in ids[i + 1:]:
            L = shared_edge(polys[a], polys[b])
            if L < 8:
                continue
            pair = (a, b) if (a, b) in CROSSINGS else (b, a)
            if info[a][5] != info[b][5]:
                river.append([a, b])
                if pair not in CROSSINGS:
                    continue
            ka, kb = info[a][4], info[b][4]
            if ("rammas" not in (ka, kb) and (a in INNER) != (b in INNER)
                    and ka not in ("city", "wall") and kb not in ("city", "wall")):
                rammas.append([a, b])
                continue
            if "city" in (a, b):
                other = b if a == "city" else a
                if other not in CITY_ALLOWED:
                    walls.append([a, b])
                    continue
            adj[a].add(b)
            adj[b].add(a)
    for a, b in EXTRA:
        adj[a].add(b)
        adj[b].add(a)
    areas = []
    for sid, name, x, y, kind, bank in SITES:
        areas.append({
            "id": sid, "name": name, "kind": kind, "bank": bank, "label": [x, y],
            "poly": polys[sid], "zone": ("city" if kind in ("city", "wall") else "inner" if sid in INNER
                                         else "rammas" if kind == "rammas" else "outer"), "adj": sorted(adj[sid]),
            "banner": sid in BANNERS, "catapult": sid in CATAPULTS,
            "reconstructed": True, "reason": REASON,
        })
    return {
        "id": "risk-minas-tirith-board", "width": W, "height": H,
        "reconstructed": True, "reason": REASON,
        "areas": areas, "river_between": river, "city_walls_between": walls, "rammas_between": rammas,
        "gate": {"between": ["city", "grond"], "wall": "wall-gate"},
        "ends": ENDS, "entries": ENTRIES, "start": START,
        "counts": {"territories": sum(1 for s in SITES if s[4] not in ("city", "wall")),
                   "walls": sum(1 for s in SITES if s[4] == "wall"), "city": 1},
    }


if __name__ == "__main__":
    out = Path(__file__).with_name("board.json")
    out.write_text(json.dumps(build(), indent=1, sort_keys=False) + "\n")
    b = json.loads(out.read_text())
    print(b["counts"], "areas", len(b["areas"]))
    for a in b["areas"]:
        print(a["id"], a["adj"])
