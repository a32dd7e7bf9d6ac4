"""A group's own file beyond the map (issue 15: "a group that owns the game load its own map, cards and
charts"): `[characters]`, `[forces]` and `[cards]` replace data/forces.toml's reconstructed entries, checked
strictly against what the variant's rules name (seed:001: Four- and Five-Player War of the Ring, AA.1, AA.2,
BB.1, BB.4, Modifications to Mobilization, Historical Locations of Magic Cards)."""
import json

import pytest

from engine.core import Game, IllegalOrder, OrderError
from engine.rulesets.wotr.common import load_toml
from tests.wotr_helpers import RS, new, put, to_phase
from engine.rulesets.wotr import magic_cards

FORCES = load_toml("forces.toml")


def _val(v) -> str:
    return json.dumps(v) if isinstance(v, str) else str(v).lower() if isinstance(v, bool) else str(v)


def toml(tables: dict) -> str:
    """A small TOML writer for a test's group file: ``{"characters.frodo": {...}, "start": {...}}``."""
    out = []
    for name, body in tables.items():
        out.append(f"[{name}]")
        out += [f"{json.dumps(k)} = {_val(v)}" for k, v in body.items()]
        out.append("")
    return "\n".join(out)


def characters(**change) -> dict:
    """The reconstruction's characters as a group file's `[characters]` (``seat`` for ``side``), changed."""
    out = {}
    for cid, c in FORCES["characters"].items():
        d = {"name": c["name"], "seat": c["side"], "race": c["race"], "hex": c["hex"]}
        if "ring_rating" in c:
            d["ring_rating"] = c["ring_rating"]
        out[f"characters.{cid}"] = d
    for cid, d in change.items():
        key = f"characters.{cid.replace('_', '-')}"
        if d is None:
            out.pop(key)
        else:
            out[key] = {**out.get(key, {}), **d}
    return out


def forces(**change) -> dict:
    out = {f"forces.{uid}": {k: u[k] for k in ("name", "nation", "race", "kind", "sp", "hex")}
           for uid, u in FORCES["units"].items()}
    for uid, d in change.items():
        key = f"forces.{uid.replace('_', '-')}"
        if d is None:
            out.pop(key)
        else:
            out[key] = {**out.get(key, {}), **d}
    return out


EVENTS = {"075": "Boromir Attempts to Seize the Ring. Boromir makes an attempt (M.3).",
          "092": "Aragorn Uses Palantir; Sauron Challenged!", "093": "The Eye of Sauron turns on Gondor.",
          "096": "Mind Battle: Elrond and Galadriel Distract Sauron", "041": "Wormtongue whispers to Theoden."}


def test_the_groups_characters_forces_and_cards_replace_the_reconstruction():
    text = toml({**characters(denethor={"combat": 4, "morale": 6, "endurance": 5},
                              beregond={"name": "Beregond", "seat": "gondor", "race": "man-gondor", "hex": "E0228"}),
                 **forces(gon_mt={"sp": 12}, gon_pel={"name": "Pelargir levy", "nation": "gondor", "race": "man-gondor",
                                                       "kind": "infantry", "sp": 4, "hex": "E0228"}),
                 "cards.events": EVENTS})
    g = new(5, charts=text)
    st = g.state
    assert st["chars"]["beregond"]["seat"] == "gondor" and st["units"]["gon-mt"]["sp"] == 12
    assert st["units"]["gon-pel"]["sp"] == 4 and st["chars"]["denethor"]["ratings"] == \
        {"combat": 4, "morale": 6, "endurance": 5, "ring_rating": 3}  # AA.1: three, given or not
    assert st["map"] is False and RS.view(st, None)["layout"] is None  # no map in the file: the reconstruction's
    den = next(p for p in RS.view(st, None)["pieces"] if p["id"] == "denethor")
    assert den["ratings"]["morale"] == 6
    # the five-player Rohan seat keeps its four (Five-Player War of the Ring), the group's Beregond moves
    to_phase(g, "turn", "gondor")
    g.play("gondor", "move beregond E0127")
    assert g.state["chars"]["beregond"]["hex"] == "E0127"


def test_aa2_a_groups_card_text_shows_when_played_and_075_keeps_its_rule():
    g = new(5, charts=toml({"cards.events": EVENTS}))
    g.state["hands"]["gondor"].append("075")
    put(g, "boromir", "W1911")
    with pytest.raises(IllegalOrder, match="same hex as the Ringbearer"):  # AA.2 still enforced
        g.play("gondor", "event 075")
    put(g, "boromir", "W2010")
    _, ev = g.play("gondor", "event 075")
    assert 'The card reads: "Boromir Attempts to Seize the Ring. Boromir makes an attempt (M.3)."' in ev[0].public
    assert g.state["ring"]["seizure"] == {"from": "frodo", "by": "boromir"}


def test_bb1_the_groups_deck_is_drawn_from_and_its_named_cards_keep_their_rules():
    g = new(5, charts=toml({"cards.events": EVENTS}))
    to_phase(g, "events")
    with pytest.raises(IllegalOrder, match="not in the group's deck"):
        g.play("saruman", "draw 123")
    _, ev = g.play("saruman", "draw 041")
    assert ev[0].private["saruman"] == "You hold Event Card 041: Wormtongue whispers to Theoden."
    g.state["hands"]["gondor"].append("096")
    to_phase(g, "turn", "gondor")
    with pytest.raises(IllegalOrder, match=r"rule BB\.1"):
        g.play("gondor", "event 096")


def test_the_game_carries_the_groups_file_and_replays_from_it():
    text = toml({**characters(imrahil={"hex": "W2836", "combat": 3}), "cards.events": EVENTS})
    opts = {"players": "4", "charts": text}
    g = Game.new(RS, opts, "gf")
    assert g.state["group"] == text and json.loads(json.dumps(g.state)) == g.state
    to_phase(g, "turn", "fellowship")
    g.play("fellowship", "move frodo W1911")
    r = Game.new(RS, json.loads(json.dumps(opts)), "gf")
    to_phase(r, "turn", "fellowship")
    r.play("fellowship", "move frodo W1911")
    assert r.state == g.state


def test_magic_cards_keep_the_seeds_places_and_take_the_groups_names():
    magic = {f"cards.magic.{i}": {"name": it["name"].upper()} for i, it in FORCES["items"].items()}
    g = new(5, magic="historical", charts=toml(magic))
    assert g.state["items"]["sting"] == "frodo" and g.state["items"]["lembas"] == "@lothlorien"
    assert magic_cards._item_name(RS, g.state, "sting") == "STING"
    bad = {**magic, "cards.magic.sting": {"name": "Sting", "start": "sam"}}
    with pytest.raises(OrderError, match="the seed starts it at frodo"):
        new(5, charts=toml(bad))


@pytest.mark.parametrize("tables,why", [
    (characters(gollum={"name": "Gollum", "seat": "gollum", "race": "other", "hex": "W2010"}), "unknown seat `gollum`"),
    (characters(saruman={"hex": "W9999"}), r"\[characters.saruman\]: no hex `W9999` on the map"),
    (characters(denethor=None), "lacks denethor: the variant's rules name them"),
    (characters(eowyn=None), "lacks eowyn"),
    (characters(gimli=None), "lacks gimli"),
    (characters(boromir={"seat": "gondor"}), "gives boromir to the fellowship seat"),
    (characters(theoden={"seat": "gondor"}), "gives theoden to the rohan seat"),
    (characters(faramir={"hex": "E0228"}), "the seed puts faramir at E0630"),
    (characters(denethor={"ring_rating": 4}), "Ring Rating of three"),
    (characters(gandalf={"combat": -1}), "combat: a whole number from 0 to 20"),
    (characters(wormtongue={"name": "Saruman"}), "the name `Saruman` is saruman's too"),
    ({**characters(), **forces(gothmog={"name": "Gothmog's orcs", "nation": "mordor", "race": "orc", "kind": "infantry",
                                        "sp": 5, "hex": "E0927"})}, "duplicate id `gothmog`"),
    (forces(mor_1={"sp": 0}), r"\[forces.mor-1\] sp: a whole number from 1 to 99"),
    (forces(mor_1={"sp": "20"}), "sp: a whole number"),
    (forces(mor_1={"nation": "harad"}), "unknown nation `harad`"),
    (forces(gon_ith=None), "lacks gon-ith"),
    (forces(roh_em={"sp": 8}), "five SP of Rohan cavalry at W3022"),
    (forces(elf_mw={"hex": "E9999"}), "no hex `E9999`"),
    ({"cards.events": {k: v for k, v in EVENTS.items() if k != "093"}}, "lacks 093"),
    ({"cards.events": {**EVENTS, "75": "x"}}, "not a card number of three digits"),
    ({"start": {"naz10": "E0927"}}, "no such piece"),
    ({"armies.x": {"sp": 1}}, r"unknown part `\[armies\]`"),
])
def test_a_bad_group_file_is_refused_with_a_short_reason(tables, why):
    with pytest.raises(OrderError, match=why):
        new(5, charts=toml(tables))


def test_a_duplicate_id_in_one_table_is_refused():
    text = toml(forces()) + '\n[forces.mor-1]\nname = "again"\n'
    with pytest.raises(OrderError, match="not TOML"):
        new(5, charts=text)
