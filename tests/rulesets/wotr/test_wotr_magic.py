"""Historical Locations of Magic Cards (seed:001) 1 and 2."""
import pytest

from engine.core import IllegalOrder
from tests.wotr_helpers import RS, new, put, ring_to, to_phase
from engine.rulesets.wotr import magic_cards


def test_1_historical_locations_and_2_the_owners_start():
    g = new(5, magic="historical")
    it = g.state["items"]
    assert it["sting"] == it["mithril"] == "frodo" and it["glamdring"] == "gandalf" and it["anduril"] == "aragorn"
    assert it["elven-sword"] == "@rivendell"
    assert {k for k, v in it.items() if v == "@lothlorien"} == {"lembas", "elven-cloak", "elven-rope", "galadriels-light"}
    assert it["shadowfax"] == "@edoras" and it["athelas"] == "@minas-tirith"
    r = new(5).state["items"]
    assert r["lembas"] is None and r["sting"] == "frodo"  # dealt at random by the table; (2) still holds


def test_2_sting_and_the_mithril_stay_with_frodo_while_he_lives():
    g = new(5)
    with pytest.raises(IllegalOrder, match="stay with Frodo"):
        g.play("fellowship", "item sting sam")
    with pytest.raises(IllegalOrder, match="Frodo's"):
        g.state["items"]["mithril"] = "sam"
        g.play("fellowship", "use mithril sam")
    g.state["chars"]["frodo"]["alive"] = False
    g.play("fellowship", "use mithril sam")  # any hobbit after his death
    g.state["items"]["mithril"] = "gandalf"
    with pytest.raises(IllegalOrder):
        g.play("fellowship", "use mithril gandalf")


def test_2_glamdring_is_gandalfs_then_an_elf_dwarf_or_mans():
    g = new(5)
    with pytest.raises(IllegalOrder, match="Gandalf"):
        g.play("fellowship", "item glamdring legolas")
    g.state["chars"]["gandalf"]["alive"] = False
    g.state["items"]["glamdring"] = "legolas"
    g.play("fellowship", "use glamdring legolas")
    g.state["items"]["glamdring"] = "pippin"
    with pytest.raises(IllegalOrder):
        g.play("fellowship", "use glamdring pippin")


def test_2_galadriels_light_picked_up_by_the_ringbearer_only():
    g = new(5, magic="historical")
    put(g, "frodo", "W2818")
    put(g, "sam", "W2818")
    with pytest.raises(IllegalOrder, match="Ringbearer"):
        g.play("fellowship", "item galadriels-light sam")
    _, ev = g.play("fellowship", "item galadriels-light frodo")
    assert "W2818" not in ev[0].public and "Frodo" not in ev[0].public  # no hidden whereabouts in public
    g.play("fellowship", "use galadriels-light sam")  # used by any Fellowship character with it


def test_2_athelas_only_aragorn_and_shadowfax_only_gandalf_or_the_ruler_of_rohan():
    g = new(5, magic="historical")
    g.state["items"]["athelas"] = "boromir"
    with pytest.raises(IllegalOrder, match="Aragorn"):
        g.play("fellowship", "use athelas boromir")
    put(g, "eomer", "W2728")
    with pytest.raises(IllegalOrder, match="Shadowfax"):
        g.play("rohan", "item shadowfax eomer")
    g.play("rohan", "item shadowfax theoden")


def test_2_anduril_line_of_succession_and_hobbits_carry_one_big_sword():
    g = new(5)
    assert magic_cards._anduril_user(RS, g.state) == ["aragorn"]
    for c, nxt in (("aragorn", ["elrond"]), ("elrond", ["gandalf"]), ("gandalf", ["boromir"]),
                   ("boromir", ["legolas", "gimli"])):
        g.state["chars"][c]["alive"] = False
        assert magic_cards._anduril_user(RS, g.state) == nxt
    g = new(5)
    g.state["items"]["glamdring"] = "pippin"
    g.state["chars"]["aragorn"]["alive"] = False
    g.state["items"]["anduril"] = "@" + "W2010"
    with pytest.raises(IllegalOrder, match="not both"):
        g.play("fellowship", "item anduril pippin")
