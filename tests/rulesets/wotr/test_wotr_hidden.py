"""Hidden Movement and the Nazgul searches (seed:001, "Hidden Movement"), and the secrecy of the hidden
Fellowship and of Gondor's demand (AA.2)."""
import json

import pytest

from engine.core import IllegalOrder
from render import render_view
from tests.wotr_helpers import RS, fix_dice, nazgul_at, new, put, texts, to_phase
from engine.rulesets.wotr import nazgul

S_ITH = "south-ithilien"


def at_search(g, turn=1):
    g.state["turn"] = turn
    return to_phase(g, "search")


@pytest.mark.parametrize("terrain_hex,nazgul,dice,located", [
    ("E0630", 2, (1, 1), True),    # clear: roll 2 <= 2 Nazgul
    ("E0630", 2, (1, 2), False),   # clear: 3 > 2
    ("E0720", 3, (2, 1), True),    # desert: 3 <= 3  (Dagorlad)
    ("E0731", 5, (1, 1), True),    # rough: 5 - 2 = 3
    ("E0731", 4, (1, 1), False),   # rough: 4 - 2 = 2
    ("E1231", 5, (1, 1), True),    # marsh: by three
    ("E0826", 8, (1, 1), True),    # mountain: 8 - 2 = 6
    ("E0826", 7, (1, 1), False),   # mountain: 5
    ("W1526", 8, (1, 1), True),    # forest/rough: by six
    ("E0529", 9, (1, 1), False),   # forest: never
    ("E1026", 9, (1, 1), False),   # citadel: never
    ("W1010", 9, (1, 1), False),   # town: never
    ("W2115", 9, (1, 1), False),   # tunnels: never
])
def test_hidden_movement_search_locates_by_terrain(monkeypatch, terrain_hex, nazgul, dice, located):
    g = at_search(new(5), turn=5)
    put(g, "frodo", terrain_hex)
    prov = RS.board.province_of[terrain_hex]
    nazgul_at(g, prov, nazgul, avoid=(terrain_hex,))  # the Nazgul searching are in the province
    fix_dice(monkeypatch, list(dice))
    _, ev = g.play("dark-power", f"search {prov}:{nazgul}")
    assert ("dark-power" in g.state["chars"]["frodo"]["located"]) == located
    assert (f"located face down at {terrain_hex}" in ev[0].private["dark-power"]) == located
    # the channel reads the roll, never the result
    assert "located" not in ev[0].public and "Frodo" not in ev[0].public and terrain_hex not in ev[0].public


def test_hidden_movement_nazgul_two_on_turn_one_and_two_more_each_turn_up_to_nine():
    g = new(5)
    assert [nazgul._search_strength(RS, {**g.state, "turn": t}, "dark-power") for t in (1, 2, 3, 4, 5, 6)] == [2, 4, 6, 8, 9, 9]
    g = at_search(new(5))
    with pytest.raises(IllegalOrder, match="with 2 Nazgul"):
        g.play("dark-power", "search gorgoroth:3")  # five Nazgul are there, two search on turn 1
    with pytest.raises(IllegalOrder, match="has 0 Nazgul in South Ithilien"):
        g.play("dark-power", "search south-ithilien:1")  # none there: a search names provinces with Nazgul
    g.play("dark-power", "search gorgoroth:1 nurn:1")


def test_hidden_movement_saruman_and_gondor_search_with_the_nazgul_they_control(monkeypatch):
    g = new(5)
    nazgul_at(g, "south-ithilien", 2, seat="saruman", avoid=("E0630",))
    nazgul_at(g, "anorien", 1, seat="gondor")
    g.state["turn"] = 5
    to_phase(g, "search")
    assert g.active_seats() == ["saruman", "gondor", "dark-power"]
    assert nazgul._search_strength(RS, g.state, "dark-power") == 6  # nine added, three of them controlled by others
    put(g, "frodo", "E0630")
    fix_dice(monkeypatch, [1, 1])
    with pytest.raises(IllegalOrder, match="has 2 Nazgul in South Ithilien"):
        g.play("saruman", "search south-ithilien:3")
    _, ev = g.play("saruman", "search south-ithilien:2")
    assert set(ev[0].private) == {"saruman", "fellowship"}  # the result to the searcher (and the Fellowship)
    assert "saruman" in g.state["chars"]["frodo"]["located"]
    assert "dark-power" not in g.state["chars"]["frodo"]["located"]


def test_hidden_movement_located_is_face_down_and_spotted_with_a_dark_power_unit(monkeypatch):
    g = at_search(new(5), turn=5)
    put(g, "frodo", "E0630")
    put(g, "sam", "E0632")
    g.state["units"]["mor-2"]["hex"] = "E0632"  # orcs share Sam's hex
    nazgul_at(g, "south-ithilien", 9, avoid=("E0630", "E0632"))
    fix_dice(monkeypatch, [1, 1])
    _, ev = g.play("dark-power", "search south-ithilien:9")
    v = RS.view(g.state, "dark-power")
    ids = {(p["id"], p["hex"], p["face"]) for p in v["pieces"] if p["kind"] == "character" and p["hex"].startswith("E06")}
    assert ("?1", "E0630", "down") in ids and ("sam", "E0632", "up") in ids
    assert "frodo" not in {p["id"] for p in v["pieces"]}
    # the public and the other seats see none of it
    for seat in (None, "saruman", "gondor", "rohan"):
        assert not any(p["face"] == "down" or p["id"] in ("frodo", "sam") for p in RS.view(g.state, seat)["pieces"])


def test_hidden_movement_passing_through_reported_how_many_and_where(monkeypatch):
    g = to_phase(new(5), "turn", "fellowship")
    put(g, "frodo", "E0127")
    put(g, "sam", "E0127")
    g.play("fellowship", "move frodo E0229 E0228")  # through clear E0229 to Minas Tirith (citadel)
    g.play("fellowship", "move sam E0229 E0228")
    while g.state["turn"] == 1:
        s = g.active_seats()[0]
        g.play(s, "done")
    to_phase(g, "search")
    nazgul_at(g, "E0326", 4)
    fix_dice(monkeypatch, [1, 1])
    _, ev = g.play("dark-power", "search anorien:4")
    msg = ev[0].private["dark-power"]
    assert "nobody located" in msg and "2 character(s) would have been located where they passed: E0229" in msg
    assert "Frodo" not in msg and "Sam" not in msg


def test_spotted_when_a_dark_power_unit_enters_the_hex_privately():
    g = new(5)
    g.state["mobilized"]["mordor"] = 1
    put(g, "gimli", "E0927")
    g.state["units"]["mor-2"]["hex"] = "E1125"
    to_phase(g, "turn", "dark-power")
    _, ev = g.play("dark-power", "move mor-2 E0927")
    assert any("Gimli at E0927" in e.private.get("dark-power", "") for e in ev)
    assert "Gimli" not in texts(ev)


def test_aa2_the_demand_is_known_only_to_gondor_the_fellowship_and_the_moderator():
    g = new(5)
    _, ev = g.play("gondor", "demand on")
    assert ev[0].public == "" and set(ev[0].private) == {"gondor", "fellowship"}
    assert RS.public_order_text("demand on") == RS.public_order_text("demand off") == "(a secret order)"
    for seat in (None, "dark-power", "saruman", "rohan"):
        assert "demand" not in RS.view(g.state, seat)
        assert "demand" not in (RS.secret_text(g.state, seat) or "")
    assert RS.view(g.state, "gondor")["demand"] and RS.view(g.state, "fellowship")["demand"]
    assert RS.view(g.state, "gm")["demand"]
    # AA.2: the Fellowship moves Boromir while it is in force; Gondor otherwise
    to_phase(g, "turn", "fellowship")
    g.play("fellowship", "move boromir W1911")
    g.play("fellowship", "done")
    g.play("rohan", "done")
    with pytest.raises(IllegalOrder, match="AA.2"):
        g.play("gondor", "move boromir W2010")
    g.play("gondor", "demand off")
    g.play("gondor", "move boromir W2010")


def _run(fellowship_path, searches=True):
    """A short game; only the Fellowship's hidden moves differ by ``fellowship_path``."""
    g = new(5, seed="same")
    out = {"public": [], "dark-power": [], "saruman": [], "rohan": [], "views": [], "log": []}

    def record(seat, text):
        _, ev = g.play(seat, text)
        out["log"].append(f"{seat}: {RS.public_order_text(text)}")
        for e in ev:
            out["public"].append(e.public)
            for s in ("dark-power", "saruman", "rohan"):
                out[s].append(e.private.get(s, ""))
        out["views"].append(json.dumps([RS.view(g.state, s) for s in (None, "dark-power", "saruman", "rohan")],
                                       sort_keys=True))
        for s in ("dark-power", "saruman", "rohan"):
            out[s].append(RS.secret_text(g.state, s) or "")

    for turn in range(2):
        while g.state["phase"] != "turn" or g.active_seats() != ["fellowship"]:
            s = g.active_seats()[0]
            if g.state["phase"] == "search" and s == "dark-power" and searches:
                record(s, "search rohan:1 dagorlad:1 gorgoroth:2" if turn else "search gorgoroth:2")
            elif g.state["phase"] == "turn" and s == "dark-power" and g.state["turn"] == 1:
                record(s, "move naz1 E0720")  # the Nazgul fly out, the same in both games (public)
                record(s, "move naz2 E0927 W2829")
                record(s, "done")
            else:
                record(s, "draw none" if g.state["phase"] == "events" else "done")
        for cid, hx in fellowship_path[turn]:
            record("fellowship", f"move {cid} {hx}")
        record("fellowship", "done")
    out["image"] = render_view(RS.view(g.state, None), RS.game_board().drawable)
    return out


def test_secrecy_two_games_differing_only_in_the_fellowships_walk_read_the_same():
    a = _run([[("frodo", "W1911"), ("sam", "W1911")], [("frodo", "W1814"), ("sam", "W1915")]])
    b = _run([[("frodo", "W2109"), ("sam", "W1812")], [("frodo", "W2216"), ("sam", "W2016")]])
    for k in ("log", "public", "dark-power", "saruman", "rohan", "views", "image"):
        assert a[k] == b[k], k
    assert [RS.public_order_text(f"move frodo {h}") for h in ("W1911", "W2109")] == ["move (a hidden character)"] * 2


@pytest.mark.parametrize("with_frodo", [True, False])
def test_no_order_probes_for_a_hidden_character(with_frodo):
    """A seat cannot learn where a hidden character is from a refusal: the same text either way."""
    g = to_phase(new(4), "turn", "gondor")
    put(g, "frodo", "E0228" if with_frodo else "W2010")
    put(g, "gandalf", "E0228" if with_frodo else "W2010")
    errors = []
    for text in ("command E0228 gandalf", "palantir frodo", "seize denethor"):
        with pytest.raises(IllegalOrder) as e:
            g.play("gondor", text)
        errors.append(str(e.value))
    g.state["ring"]["bearer"] = "denethor"
    with pytest.raises(IllegalOrder) as e:
        g.play("gondor", "ring to frodo")
    errors.append(str(e.value))
    assert errors == PROBES.setdefault("errors", errors)


PROBES: dict = {}


def test_the_moderator_reads_the_demand_once_and_what_each_searcher_found(monkeypatch):
    """Issue 39: the moderator's secrets (engine/modes/common.py: every_seats_secrets, worded by
    ``moderator_secret_text``) say Gondor's demand once, not once as Gondor's and once as the Fellowship's,
    and still tell what each searcher found, face down and face up."""
    from engine.modes.common import every_seats_secrets
    from engine.modes.gm import with_gm_seat

    g = at_search(new(5), turn=5)
    g.play("gondor", "demand on")
    put(g, "frodo", "E0630")
    put(g, "sam", "E0632")
    g.state["units"]["mor-2"]["hex"] = "E0632"  # orcs share Sam's hex: spotted
    nazgul_at(g, "south-ithilien", 9, avoid=("E0630", "E0632"))
    fix_dice(monkeypatch, [1, 1])
    g.play("dark-power", "search south-ithilien:9")
    # the lobby's moderator (a plain game), and the table's (the assist game: engine/modes/table.py)
    for text in (with_gm_seat(RS).secret_text(g.state, "gm"), "\n".join(every_seats_secrets(RS, g.state))):
        lines = text.split("\n")
        assert sum("Gondor's demand (AA.2) is in force" in ln for ln in lines) == 1, text
        assert "Dark Power: Spotted: Sam at E0632." in lines and "Dark Power: Located face down: E0630." in lines, text
