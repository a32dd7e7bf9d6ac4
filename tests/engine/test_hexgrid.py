import pytest
from hypothesis import given, strategies as st

from engine.hexgrid import (DIRECTIONS, OPPOSITE, Hex, HexError, Hexside, cheapest_path, distance, line,
                            reachable, ring, within)

hexes = st.builds(Hex, st.integers(1, 60), st.integers(1, 60))


def test_parse_and_format_round_trip():
    assert str(Hex.parse("0903")) == "0903"
    assert Hex.parse("1903") == Hex(19, 3)
    for bad in ("903", "19033", "ab03", "", "19-3"):
        with pytest.raises(HexError):
            Hex.parse(bad)


def test_neighbours_of_odd_and_even_columns():
    # even columns sit half a hex lower: 0201 touches 0101 and 0102
    assert Hex(1, 1).neighbour("se") == Hex(2, 1)
    assert Hex(2, 1).neighbour("nw") == Hex(1, 1)
    assert Hex(2, 1).neighbour("sw") == Hex(1, 2)
    assert Hex(3, 5).neighbour("ne") == Hex(4, 4)
    assert Hex(4, 5).neighbour("ne") == Hex(5, 5)
    assert Hex(4, 5).neighbour("se") == Hex(5, 6)


def test_scatter_example_16_63_die_4_is_next_hex_down_the_column():
    # 16.63: target 2906, scatter die 4 -> 2907
    assert Hex.parse("2906").neighbour("s") == Hex.parse("2907")


@given(hexes)
def test_neighbours_are_distance_one_and_symmetric(h):
    assert len(set(h.neighbours())) == 6
    for d in DIRECTIONS:
        n = h.neighbour(d)
        assert h.distance(n) == 1
        assert n.neighbour(OPPOSITE[d]) == h
        assert h.direction_to(n) == d


@given(hexes, hexes)
def test_distance_is_a_metric_and_matches_a_line(a, b):
    assert distance(a, b) == distance(b, a)
    path = line(a, b)
    assert path[0] == a and path[-1] == b
    assert len(path) == distance(a, b) + 1
    assert all(path[i].distance(path[i + 1]) == 1 for i in range(len(path) - 1))


@given(hexes, st.sampled_from(DIRECTIONS))
def test_hexside_canonical_form(h, d):
    side = Hexside.of(h, d)
    assert side.direction in ("n", "ne", "se")
    assert Hexside.of(h.neighbour(d), OPPOSITE[d]) == side
    assert Hexside.parse(str(side)) == side
    assert set(side.hexes()) == {h, h.neighbour(d)}


def test_hexside_spellings():
    # errata: the hexside 2101/2201 is a wall; both spellings name one hexside
    assert Hexside.parse("2101/2201") == Hexside.parse("2201/nw") == Hexside.parse("2101/se")
    assert Hexside.parse("1906/n") == Hexside.parse("1905/s")
    assert str(Hexside.parse("1905/s")) == "1906/n"
    with pytest.raises(HexError):
        Hexside.parse("2101/2301")
    with pytest.raises(HexError):
        Hexside.parse("2101/up")


def test_rings_and_areas():
    c = Hex(10, 10)
    for r in range(1, 5):
        assert len(ring(c, r)) == 6 * r
        assert all(c.distance(h) == r for h in ring(c, r))
    assert len(within(c, 3)) == 37


def test_cheapest_path_avoids_expensive_and_forbidden_hexes():
    wall = {Hex(5, r) for r in range(1, 9)}

    def cost(a, b):
        if b in wall:
            return None
        return 1

    res = cheapest_path(Hex(4, 4), Hex(6, 4), cost)
    assert res is not None
    c, path = res
    assert all(h not in wall for h in path)
    assert c == len(path) - 1 > 2
    assert cheapest_path(Hex(4, 4), Hex(6, 4), cost, budget=3) is None
    reach = reachable(Hex(4, 4), cost, 2)
    assert Hex(4, 4) in reach and all(v <= 2 for v in reach.values())
