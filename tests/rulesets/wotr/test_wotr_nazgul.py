"""The nine Nazgul as pieces on the map (seed:001, Hidden Movement; AA.1; ETPR W.2 as the seed cites it):
each has a hex and a controlling seat, starts in Gorgoroth and Nurn, is moved by its controller, stands on
the public map, searches the province it is in, and spots a hidden character in its hex."""
import pytest

from engine.core import IllegalOrder, OrderError
from engine.rulesets.wotr.common import DATA
from tests.wotr_helpers import RS, fix_dice, nazgul_at, nazgul_count, new, put, to_phase
from engine.rulesets.wotr import nazgul

MORDOR = ("gorgoroth", "nurn")


def test_hidden_movement_nine_nazgul_start_in_gorgoroth_and_nurn_on_the_public_map():
    g = new(5)
    naz = [p for p in RS.view(g.state, None)["pieces"] if p["kind"] == "nazgul"]
    assert [p["id"] for p in naz] == [f"naz{i}" for i in range(1, 10)]
    assert all(p["seat"] == "dark-power" and p["province"] in MORDOR for p in naz)
    assert {p["province"] for p in naz} == set(MORDOR)
    assert RS.view(g.state, None)["nazgul"] == {"dark-power": 9, "saruman": 0, "gondor": 0}


def test_hidden_movement_two_nazgul_leave_mordor_on_turn_one_two_more_each_turn():
    g = to_phase(new(5), "turn", "dark-power")
    g.play("dark-power", "move naz1 E0720")
    g.play("dark-power", "move naz6 E0630")
    with pytest.raises(IllegalOrder, match="2 Nazgul in play on turn 1"):
        g.play("dark-power", "move naz2 E0720")  # the unused remain within Mordor
    g.play("dark-power", "move naz2 E1231")  # within Gorgoroth and Nurn: free
    g.play("dark-power", "move naz1 E0821")  # one already out moves on
    g.play("dark-power", "done")
    to_phase(g, "turn", "dark-power")  # turn 2: four
    g.play("dark-power", "move naz2 E0720")
    g.play("dark-power", "move naz3 E0720")
    with pytest.raises(IllegalOrder, match="4 Nazgul in play on turn 2"):
        g.play("dark-power", "move naz4 E0720")
    g.play("dark-power", "move naz3 E1026")  # back to Mordor: one more may leave
    g.play("dark-power", "move naz4 E0720")


def test_aa1_and_w2_a_controlled_nazgul_is_moved_by_its_new_seat_and_counts_against_the_dark_power(monkeypatch):
    g = new(4)
    g.play("saruman", "nazgul gain naz5")
    assert g.state["nazgul"]["naz5"]["seat"] == "saruman" and nazgul_count(g, "dark-power") == 8
    with pytest.raises(IllegalOrder, match="not Dark Power's"):
        g.play("saruman", "nazgul gain naz5")
    with pytest.raises(IllegalOrder, match="no Nazgul `naz10`"):
        g.play("saruman", "nazgul gain naz10")
    assert nazgul._search_strength(RS, g.state, "dark-power") == 1  # two this turn, less Saruman's one
    to_phase(g, "turn", "saruman")
    g.play("saruman", "move naz5 W2024")  # Saruman's now, out of Mordor freely
    g.play("saruman", "done")
    with pytest.raises(IllegalOrder, match="Saruman's to move"):
        to_phase(g, "turn", "dark-power").play("dark-power", "move naz5 W1627")
    g.play("dark-power", "move naz1 E0720")
    with pytest.raises(IllegalOrder, match="1 Nazgul in play on turn 1"):
        g.play("dark-power", "move naz2 E0720")


def test_hidden_movement_a_search_is_made_by_the_nazgul_in_the_province(monkeypatch):
    g = new(5)
    g.state["turn"] = 3
    nazgul_at(g, "E0731", 2, seat="gondor")  # Gondor's two, in South Ithilien
    put(g, "frodo", "E0630")
    to_phase(g, "search")
    assert "gondor" in g.active_seats()
    with pytest.raises(IllegalOrder, match="Gondor has 0 Nazgul in Dagorlad"):
        g.play("gondor", "search dagorlad:1")
    fix_dice(monkeypatch, [1, 1])
    _, ev = g.play("gondor", "search south-ithilien:2")
    assert "located face down at E0630" in ev[0].private["gondor"]


def test_hidden_movement_a_located_character_with_a_nazgul_in_its_hex_is_spotted(monkeypatch):
    g = new(5)
    g.state["turn"] = 3
    put(g, "frodo", "E0630")
    nazgul_at(g, "E0630", 1)
    nazgul_at(g, "E0632", 1)
    to_phase(g, "search")
    fix_dice(monkeypatch, [1, 1])
    _, ev = g.play("dark-power", "search south-ithilien:2")
    assert "Frodo at E0630 (spotted)" in ev[0].private["dark-power"]
    assert "dark-power" in g.state["chars"]["frodo"]["spotted"]


@pytest.mark.parametrize("frodo_there", [True, False])
def test_hidden_movement_a_nazgul_entering_a_hidden_characters_hex_spots_it_privately(frodo_there):
    g = to_phase(new(5), "turn", "dark-power")
    put(g, "frodo", "E0720" if frodo_there else "W2010")
    _, ev = g.play("dark-power", "move naz1 E0720")
    assert [e.public for e in ev if e.public] == ["Dark Power moves Nazgul 1 to E0720."]  # the same either way
    private = {k: v for e in ev for k, v in e.private.items()}
    if frodo_there:
        assert private == {"dark-power": "Spotted (a Dark Power unit or Nazgul shares the hex): Frodo at E0720.",
                           "fellowship": "The Dark Power spots Frodo at E0720."}
        assert any(p["id"] == "frodo" for p in RS.view(g.state, "dark-power")["pieces"])
    else:
        assert private == {}
    assert not any(p["id"] == "frodo" for p in RS.view(g.state, None)["pieces"])


def test_w2_a_nazgul_saruman_controls_spots_for_saruman():
    g = new(5)
    g.play("saruman", "nazgul gain")  # the first of the Dark Power's: naz1
    to_phase(g, "turn", "saruman")
    put(g, "gimli", "W2024")
    _, ev = g.play("saruman", "move naz1 W2024")
    assert {k for e in ev for k in e.private} == {"saruman", "fellowship"}
    assert g.state["chars"]["gimli"]["spotted"] == ["saruman"]


def test_restrictions_on_alliances_a_nazgul_commands_orcs_where_it_stands():
    g = new(5)
    to_phase(g, "turn", "dark-power")
    g.play("dark-power", "command E0927 nazgul")  # Orcs of Gorgoroth with five Nazgul there
    with pytest.raises(IllegalOrder, match="no Nazgul there"):
        g.play("dark-power", "command E1026 nazgul")


def test_a_groups_start_keeps_the_nazgul_in_gorgoroth_and_nurn():
    base = (DATA / "map.toml").read_text()
    g = new(5, charts=base + '\n[start]\nnaz3 = "E1231"\n')
    assert g.state["nazgul"]["naz3"]["hex"] == "E1231"
    with pytest.raises(OrderError, match="the Nazgul start in Gorgoroth and Nurn"):
        new(5, charts=base + '\n[start]\nnaz3 = "E0720"\n')
