"""The reconstructed Gondor map must agree with every hex the rules name."""
from collections import Counter, deque

import pytest

from engine.rulesets import get_ruleset
from engine.hexgrid import Hex, Hexside
from engine.maps import HexInfo, HexMap, MapError


@pytest.fixture(scope="module")
def m() -> HexMap:
    return get_ruleset("gondor").hexmap


def test_map_is_marked_reconstructed(m):
    assert m.meta["reconstructed"] is True
    assert "not available" in m.meta["reason"]


def test_1903_is_in_the_citadel_the_highest_of_seven_levels(m):
    # 13.2 (Citadel Guard in 1903), 15.11 (seven levels, the Citadel highest)
    levels = Counter(i.level for i in m.hexes.values() if i.level)
    assert sorted(levels) == [1, 2, 3, 4, 5, 6, 7]
    assert m.level(Hex.parse("1903")) == 7


def test_errata_2101_2201_is_a_wall(m):
    assert m.hexsides.get(Hexside.parse("2101/2201")) == "wall"
    assert m.level(Hex.parse("2101")) != m.level(Hex.parse("2201"))


def test_road_from_city_to_east_edge_through_1918_and_2124(m):
    # 20.1 C; 14.1 (Sauron enters within two hexes of 2124, close to the East edge)
    road = {h for h, i in m.hexes.items() if i.road}
    assert Hex.parse("1918") in road and Hex.parse("2124") in road
    assert m.distance_from_edge(Hex.parse("2124"), "east") <= 3
    # the road is connected from the Main Gate to the East edge
    start = m.main_gate.hexes()[0] if m.level(m.main_gate.hexes()[0]) == 0 else m.main_gate.hexes()[1]
    seen, todo = {start}, deque([start])
    while todo:
        h = todo.popleft()
        for n in h.neighbours():
            if n in road and n not in seen:
                seen.add(n)
                todo.append(n)
    assert Hex.parse("1918") in seen and Hex.parse("2124") in seen
    assert any(m.distance_from_edge(h, "east") == 1 for h in seen)


def test_scatter_example_hexes_exist(m):
    # 16.63: 2906 -> 2907 both on the map
    assert Hex.parse("2906") in m and Hex.parse("2907") in m


def test_north_and_south_edges_for_rohan_and_aragorn(m):
    # 14.2: Rohan along the Northern edge, Aragorn along the Southern
    north, south = m.edge_hexes("north"), m.edge_hexes("south")
    assert len(north) >= 20 and len(south) >= 20
    assert not set(north) & set(south)
    assert all(not m.in_city(h) for h in north + south)


def test_every_level_boundary_is_a_wall_gate_or_tower(m):
    # 15.1: each ring of walls delineates a level
    for h in m.hexes:
        for n in h.neighbours():
            if n in m and m.level(h) != m.level(n):
                assert m.hexside(h, n) in ("wall", "gate", "tower"), (h, n)


def test_one_gate_per_ring_and_the_main_gate_in_the_outer_wall(m):
    gates = [s for s, t in m.hexsides.items() if t == "gate"]
    rings = Counter(tuple(sorted(m.level(h) for h in g.hexes())) for g in gates)
    assert rings == Counter({(k, k + 1): 1 for k in range(0, 7)})
    a, b = m.main_gate.hexes()
    assert {m.level(a), m.level(b)} == {0, 1}  # 15.23: the Main Gate is in the Outer Wall
    assert m.hexsides[m.main_gate] == "gate"
    assert "tower" in m.hexsides.values()


def test_levels_are_reachable_only_through_gates(m):
    # moving only through gates (and within a level) reaches the Citadel from outside
    def open_step(a, b):
        side = m.hexside(a, b)
        return side is None or side == "gate"

    start = Hex.parse("2020")
    seen, todo = {start}, deque([start])
    while todo:
        h = todo.popleft()
        for n in h.neighbours():
            if n in m and n not in seen and open_step(h, n):
                seen.add(n)
                todo.append(n)
    assert Hex.parse("1903") in seen
    # and with gates shut (uncontrolled gates are walls, 15.15) the city is closed
    seen2, todo = {start}, deque([start])
    while todo:
        h = todo.popleft()
        for n in h.neighbours():
            if n in m and n not in seen2 and m.hexside(h, n) is None:
                seen2.add(n)
                todo.append(n)
    assert not any(m.in_city(h) for h in seen2)


def test_tunnel_hexes_and_mountains(m):
    tunnels = [h for h, i in m.hexes.items() if i.tunnel]
    assert tunnels and all(m.in_city(h) for h in tunnels)  # 15.24
    mountains = [h for h, i in m.hexes.items() if i.terrain == "mountain"]
    assert len(mountains) > 20  # 16.24: catapults never fire through them
    assert all(not m.in_city(h) for h in mountains)


def test_map_round_trips_through_its_data_format(m):
    again = HexMap.from_json(m.to_json())
    assert again.hexes == m.hexes and again.hexsides == m.hexsides and again.main_gate == m.main_gate


def test_bad_map_data_is_refused():
    with pytest.raises(MapError):
        HexInfo.parse("clear L2 moat", "0101")
    with pytest.raises(MapError):
        HexMap.from_json({"id": "x", "columns": [1, 1], "rows": [1, 1], "hexes": {"0101": "clear"},
                          "hexsides": {"0101/n": "moat"}})
