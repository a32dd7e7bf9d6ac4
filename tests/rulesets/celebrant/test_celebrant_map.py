"""11.1 The Field of Celebrant map, reconstructed as data (map.json): every
place the exclusive rules name is where they say."""
import json
from collections import deque
from pathlib import Path

from engine.hexgrid import Hex
from engine.rulesets.celebrant import CELEBRANT as RS
from engine.rulesets.celebrant.data import reconstruct_map

M = RS.hexmap


def terr(h) -> str:
    return RS.terrain(h)


def region(start: Hex) -> set[Hex]:
    """Hexes reachable from ``start`` over passable terrain."""
    tec = RS.charts["tec"]
    seen, todo = {start}, deque([start])
    while todo:
        h = todo.popleft()
        for nb in h.neighbours():
            if nb in M and nb not in seen and tec[terr(nb)].get("passable", True):
                seen.add(nb)
                todo.append(nb)
    return seen


def test_11_1_map_is_data_marked_reconstructed_and_matches_its_generator():
    data = json.loads((Path(__file__).resolve().parents[3] / "engine/rulesets/celebrant/data/map.json").read_text())
    assert data["reconstructed"] is True and "not available" in data["reason"]
    built = reconstruct_map.build()
    assert built["hexes"] == data["hexes"] and built["zones"] == data["zones"]
    # 22" x 34": landscape, 44 columns by 28 rows; North at the top
    assert (M.columns, M.rows) == ((1, 44), (1, 28)) and len(M.hexes) == 44 * 28
    assert M.edges["north"] == "top"
    # every terrain on the map has a TEC row
    assert {i.terrain for i in M.hexes.values()} <= set(RS.charts["tec"])


def test_15_1_anduin_runs_down_the_east_side_and_limlight_comes_in_from_the_west():
    for row in range(1, 29):
        assert terr(Hex(44, row)) == "river"  # the Anduin along the east edge
    assert any(terr(Hex(1, r)) == "river" for r in range(15, 29))  # the Limlight from the western edge
    assert any(terr(Hex(c, 28)) == "river" for c in range(2, 20))  # ... and off the southern edge
    assert not RS.charts["tec"]["river"]["passable"]


def test_15_2_riverbanks_are_exactly_the_hexes_beside_a_river():
    for h, i in M.hexes.items():
        beside = any(terr(nb) == "river" for nb in h.neighbours() if nb in M)
        if i.terrain == "riverbank":
            assert beside
        elif i.terrain not in ("river", "watchtower", "landing"):
            assert not beside, h


def test_16_0_two_ruins_on_the_anduin_the_watchtower_north_of_the_landing():
    tower = [h for h, i in M.hexes.items() if i.terrain == "watchtower"]
    landing = [h for h, i in M.hexes.items() if i.terrain == "landing"]
    assert len(tower) == 1 and len(landing) == 1
    for h in tower + landing:
        assert any(terr(nb) == "river" for nb in h.neighbours())
    assert tower[0].row < landing[0].row
    tec = RS.charts["tec"]
    assert tec["watchtower"]["cost"] == 2 and tec["watchtower"]["zoc"] is False
    assert tec["landing"]["cost"] == 2 and tec["landing"]["cavalry_passable"] is False


def test_13_1_orc_hill_in_the_north_west_with_slopes():
    z = [Hex.parse(h) for h in RS.zones["orcs"]]
    assert z and all(h.col <= 6 and h.row <= 13 for h in z)
    assert len(z) == 6 * 13  # every hex within six of the west edge and thirteen of the north
    orcs = [u for u, d in RS.units.items() if d.setup == "orcs" and "extra" not in d.tags and d.is_combat]
    assert len(z) >= len(orcs) + 4  # room for every orc counter (and the four extras)
    assert any(terr(h) == "slope" for h in z) and terr(Hex(7, 5)) == "slope"


def test_13_2_gondor_lines_around_the_central_grove_and_the_rearguard():
    grove = [Hex.parse(h) for h in RS.map_data["zones"]["central-grove"]]
    assert all(terr(h) == "grove" for h in grove)
    cols, rows = [h.col for h in grove], [h.row for h in grove]
    assert abs((min(cols) + max(cols)) / 2 - 22.5) <= 1.5 and abs((min(rows) + max(rows)) / 2 - 14.5) <= 1.5  # centre
    z = {Hex.parse(h) for h in RS.zones["gondor"]}
    want = {h for h in M.hexes if min(cols) - 4 <= h.col <= max(cols) + 4 and min(rows) - 2 <= h.row <= max(rows) + 2}
    assert z == want
    rear = [Hex.parse(h) for h in RS.zones["rearguard"]]
    assert len(rear) == 7 and {h.row for h in rear} == {max(rows) + 5}
    assert sorted(h.col for h in rear) == list(range(min(cols) - 2, max(cols) + 3))  # centred under the grove


def test_14_5_balchoth_enter_on_the_south_east_edge_between_two_groves():
    entry = [Hex.parse(h) for h in RS.zones["balchoth"]]
    assert entry and all(h.row == 28 and h.col > 22 for h in entry)
    groves = [[Hex.parse(h) for h in g] for g in RS.map_data["zones"]["se-groves"]]
    assert len(groves) == 2 and all(terr(h) == "grove" for g in groves for h in g)
    west, east = sorted(groves, key=lambda g: min(h.col for h in g))
    assert max(h.col for h in west) < min(h.col for h in entry)
    assert max(h.col for h in entry) < min(h.col for h in east)
    assert all(any(h.row == 28 for h in g) for g in groves)  # both groves reach the edge


def test_14_6_three_eotheod_entry_areas_nw_ne_se_on_the_map_edges():
    nw, ne, se = ([Hex.parse(h) for h in RS.zones[f"eotheod-{a}"]] for a in ("NW", "NE", "SE"))
    assert all(h.row == 1 for h in nw + ne) and all(h.row == 28 for h in se)
    assert max(h.col for h in nw) < 22 < min(h.col for h in ne)
    assert min(h.col for h in se) > max(int(h[:2]) for h in RS.zones["balchoth"])
    orc_cols = {Hex.parse(h).col for h in RS.zones["orcs"]}
    assert not orc_cols & {h.col for h in nw}  # NW is beside the Orc hill, not on it


def test_every_zone_is_on_passable_ground_and_all_are_connected():
    main = region(Hex.parse(RS.zones["gondor"][0]))
    for name, hexes in RS.zones.items():
        for hx in hexes:
            h = Hex.parse(hx)
            assert RS.charts["tec"][terr(h)].get("passable", True), (name, hx)
            assert h in main, (name, hx)
