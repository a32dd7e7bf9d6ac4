"""The expanded game of seed 004 (the rematch), as its own ruleset `sauron-expanded` (a game's map is
its ruleset's): "If neither player achieves a decisive victory, you can play an expansion game."

- The map (data/expanded_map.json, reconstructed from the hex numbers the seed gives): rotated so that
  the arrow points North; the mountains; the Gate on the path 0722-1120, always open (18.11); the
  fortifications beside the path, reached from it only by the stairways (walls elsewhere); Barad-dur
  (1608 and its six), Orodruin (2218 and its six), the road 1609-1611-2214-2217.
- Units carried over (the eight points), by options: ``lost=<ids>`` the units destroyed in the first
  part (each returns on a die of 3-6, rolled when the game is made: point 8), ``dead=<leader ids>`` the
  leaders who died (Sauron's replaced by leaders exactly like Gorgol, point 4; Baldrim by a dwarf leader
  with 1 less Morale, point 5; the Numenoreans by their sons, with their fathers' ratings (ruling),
  point 6), ``narsil=whole|shards|gone`` and ``ring=<leader>`` (items keep their status, point 2);
  everyone else returns at full strength, wounds healed (points 1, 3, 7).
- Set-up: Sauron first, anywhere behind the Gates (and in the fortifications); then Westernesse outside
  them. Every counter starts placed (reconstructed: the armies apart, ``[expanded] setup_gap``); the three
  catapults in the fortifications nearest the Gate's inner end ("in the mountains surrounding the path
  just inside the gates"), re-placed only there; each side re-places with `deploy`.
- 16.632: a Westernesse leader in an Orodruin hex, carrying the Ring and not wearing it, destroys it in
  the Joint Rally Phase: Westernesse wins at once.
- Still needed in the seed, ruled here (docs/sauron.md): siege rules (``siege=on``, the default:
  defenders in the fortifications +2 Armor Protection, in Barad-dur +3) and victory conditions
  (``victory=decisive``, the default: besides 16.632, Westernesse wins decisively at the end with
  Sauron dead and a Westernesse combat unit in 1608; otherwise the victory points of the first part;
  ``victory=points``: the victory points only).
"""
from __future__ import annotations

import json
from functools import cached_property

from dataclasses import replace

from engine.core import Event, State
from engine.dice import Dice
from engine.hexgrid import distance

from . import Sauron
from .common import DATA, NUMENOREANS
from .options import EXPANDED_OPTIONS
from engine.spi import c07_combat
from engine.spi import hooks
from engine.rulesets.sauron import c08_1_stacking
from engine.rulesets.sauron import c16_6_ring
from engine.spi import c02_units
from engine.spi import c03_sequence
from engine.spi import c05_stacking

# the expanded game's own options (options.py) when not given: nothing lost, nobody dead, Narsil whole, the
# Ring with Sauron, the siege rule on, the decisive victory
CARRIED_DEFAULTS = {"lost": [], "dead": [], "narsil": "whole", "ring": "SAU", "siege": True, "victory": "decisive"}

SAURON_LEADERS = ("SAU", "RW", "GOR")


def siege_armor(rs, state: State, attacker: str, target: str, kind: str, prof: dict) -> None:
    """The siege rule of the expanded game: the defender's armor in Barad-dur and the fortifications."""
    if not state["options"].get("siege", True):
        return
    t = rs.hexmap.hexes[rs._hex(state, target)].terrain
    bonus = rs.raw(state)["expanded"]["siege_armor"].get(t, 0)
    if bonus:
        prof["armor"] += bonus
        prof.setdefault("notes", []).append(f"defender in {'Barad-dur' if t == 'fortress' else 'the fortifications'}: "
                                            f"Armor Protection +{bonus} (siege rule, expanded game)")


def ring_into_the_fire(rs, state: State) -> list[Event]:
    """16.632: the Ring cast into Orodruin at the start of a Rally Phase ends the game."""
    events: list[Event] = []
    if c03_sequence.kind(rs, state) == "rally" and not state["over"]:
        h = c16_6_ring.ring_holder(rs, state)
        oro = set(rs.map_data["zones"]["orodruin"])
        if h and hooks.side_of(rs, state, h) == "westernesse" and h not in state["sau"]["evil"] \
                and not state["sau"]["ring"]["worn"] and c02_units.on_map(rs, state, h) and state["units"][h]["hex"] in oro:
            state["sau"]["ring"]["holder"] = None
            state["sau"]["ring_destroyed"] = True
            v = {"winner": "westernesse", "section": "16.632", "decisive": True,
                 "summary": f"{h} casts the One Ring into the fire of Orodruin: it is destroyed, and with it "
                            "Sauron's power. Decisive Victory for Westernesse (16.632)."}
            state["over"] = v
            events.append(Event(public=v["summary"], section="16.632", new_phase=True))
    return events


def overrun_catapults(rs, state: State, seat: str, uids: list[str], trail: list[str]) -> list[Event]:
    """Ruling (the seed gives the catapults no rules): a combat unit that ends its move in a hex holding
        only enemy siege equipment overruns it (eliminated, its demoralization value to its side), as
        siege equipment has no zone of control nor combat strength of its own in melee."""
    if not trail or not any(rs.units[u].is_combat for u in uids):
        return []
    here = trail[-1]
    occ = c05_stacking.occupancy(rs, state)
    foes = [x for x in occ.get(here, ()) if hooks.side_of(rs, state, x) != seat]
    if not foes or not all(rs.units[x].is_siege for x in foes):
        return []
    for x in foes:
        c07_combat.eliminate(rs, state, x)
    return [Event(public=f"{c02_units.title_of(rs, seat)} overruns {', '.join(sorted(foes))} in {here} (expanded game, "
                         "ruling: siege equipment alone does not hold a hex).", section="Expanded Game")]


def overrun_after_order(rs, state: State, seat: str, action) -> list[Event]:
    """Any order that leaves combat units in a hex with only enemy siege equipment (an advance after
    combat, a retreat, an entry) overruns it too (ruling, ``overrun_catapults``)."""
    events: list[Event] = []
    occ = c05_stacking.occupancy(rs, state)
    for hx, ids in sorted(occ.items()):
        sides = {hooks.side_of(rs, state, x) for x in ids}
        if len(sides) < 2:
            continue
        for side in sorted(sides):
            mine = [x for x in ids if hooks.side_of(rs, state, x) == side and rs.units[x].is_combat]
            if mine:
                events += overrun_catapults(rs, state, side, mine, [hx])
    return events


def reinforcement_entry(rs, state: State, uid: str) -> list[str] | None:
    """Set-up's queue (the seed: "set up units in a queue behind those on the map"): they enter from
    Game-Turn 1, Sauron's at 1120's side of Mordor, Westernesse's at the western edge."""
    if state["units"][uid]["status"] != "reinforcement" or state["turn"] < 1:
        return None
    if hooks.side_of(rs, state, uid) == "sauron":
        return ["1608", "1609", "1709"]
    return [str(h) for h in sorted(rs.hexmap.edge_hexes("west")) if str(h) in rs.setup_zones["alliance"]]


# ------------------------------------------------------------ the rules
def hexside_rule(rs, state: State, uids: list[str], a, b, retreat: bool = False):
    """No move from the path straight onto the wall (the stairways only)."""
    if rs.hexmap.hexside(a, b) == "wall":
        return None
    return Sauron.hooks.hexside_rule(rs, state, uids, a, b, retreat)


def why_hexside(rs, state, uids, a, b) -> str:
    if rs.hexmap.hexside(a, b) == "wall":
        return "units never move directly from the path to the wall: use the stairways (expanded game)"
    return Sauron.hooks.why_hexside(rs, state, uids, a, b)


def zoc_through(rs, state: State, a, b) -> bool:
    if rs.hexmap.hexside(a, b) == "wall":
        return False
    return Sauron.hooks.zoc_through(rs, state, a, b)


def zoc_through_fn(rs, state: State):
    return lambda a, b: rs.hooks.zoc_through(rs, state, a, b)


def final_result(rs, state: State) -> dict:
    r = dict(Sauron.hooks.final_result(rs, state))
    r["summary"] = r["summary"].replace("; neither side wins decisively: the expanded game may follow", "")
    r["summary"] = r["summary"].replace(": the expanded game may follow", "")
    if state["options"].get("victory", "decisive") != "decisive":
        return r
    occ = c05_stacking.occupancy(rs, state)
    held = any(hooks.side_of(rs, state, x) == "westernesse" and rs.units[x].is_combat for x in occ.get("1608", ()))
    if state["units"]["SAU"]["status"] == "eliminated" and held:
        return {"winner": "westernesse", "section": "victory", "decisive": True, "points": r.get("points"),
                "summary": "The eighteen Game-Turns are over: Sauron is dead and Barad-dur taken. Decisive "
                           "Victory for Westernesse (expanded game, ruling)."}
    return r


def help_general(rs) -> str:
    return ("**Sauron: the Rematch** (the expanded game of Heli's variant): the map rotated, the Morannon's gate path "
                "0722-1120 always open (18.11), the fortifications reached by the stairways, Barad-dur at 1608 "
                "and Orodruin at 2218. Options carry the first part over: `lost=<ids>` (each returns on 3-6), "
                "`dead=<leaders>`, `narsil=whole|shards|gone`, `ring=<leader>`; `siege=on|off`, "
                "`victory=decisive|points`. A Westernesse leader carrying the Ring (not wearing it) into "
                "Orodruin destroys it in the Joint Rally Phase and wins (16.632). Sauron's three catapults "
            "(`CT1`-`CT3`) start in the fortifications just inside the Gate and fire at troops (e, range 2); "
            "the armies start apart (a reconstruction). The first part's headline "
            "rules go on: **the One Ring** (16.6-16.69: taken in leader combat, carried back to Sauron, "
            "16.641) and **Mortal Combat** (22.0-22.4: challenge, accept or decline, close, fight to the "
            "death). docs/sauron.md has the rulings.")


class SauronExpanded(Sauron):
    name = "sauron-expanded"
    golden_script = None  # its scripted rematch: tests/rulesets/sauron/test_sauron_expanded_game.py
    options = EXPANDED_OPTIONS  # options.py (issue 39): Sauron's and the first part's carried over
    title = "Sauron: the Rematch (the expanded game)"
    hooks = replace(Sauron.hooks,  # the extension points (engine/spi/hooks.py: Hooks)
        deploy_example="OI1 1120",
        ON_STEP_START=(*Sauron.hooks.ON_STEP_START, ring_into_the_fire),
        AFTER_MOVE=(*Sauron.hooks.AFTER_MOVE, overrun_catapults),  # a lone catapult is overrun (ruling)
        AFTER_ORDER=(*Sauron.hooks.AFTER_ORDER, overrun_after_order),  # and after any other order that stacks on one
        MODIFY_ATTACK=(*Sauron.hooks.MODIFY_ATTACK, siege_armor),
        setup_help=(
            "Sauron sets up first, anywhere behind the Gate and in the fortifications, then Westernesse outside it "
            "(the Rematch's set-up). Every counter starts placed (a reconstruction: the armies apart, so nobody "
            "owes an attack on the first turn, 7.31); Sauron's three catapults (`CT1`-`CT3`) in the fortifications "
            "nearest the Gate's inner end, re-placed only there. Re-place with `deploy <unit> [<unit>...] <hex>`, "
            "then `/done`; counters that find no room enter from Game-Turn 1."),
        reinforcement_entry=reinforcement_entry,
        hexside_rule=hexside_rule,
        why_hexside=why_hexside,
        zoc_through=zoc_through,
        zoc_through_fn=zoc_through_fn,
        final_result=final_result,
        help_general=help_general,
    )



    @cached_property
    def map_data(self) -> dict:
        return json.loads((DATA / "expanded_map.json").read_text())

    @cached_property
    def setup_zones(self) -> dict[str, frozenset[str]]:
        z = self.map_data["zones"]
        return {"front": frozenset(z["mordor"]) | frozenset(z["forts"]), "alliance": frozenset(z["outside"]),
                "forts": frozenset(z["forts"])}

    # ---------------------------------------------------------------- set-up
    def new_game(self, options: dict[str, str], seed: str, fixture: dict | None = None) -> State:
        state = super().new_game(options, seed, None)  # (its options read with this game's list: options.py)
        opts = state["options"]
        for k, v in CARRIED_DEFAULTS.items():
            opts.setdefault(k, v)
        sau = state["sau"]
        sau["expanded"] = True
        sau["gates"] = "open"                      # 18.11
        sau["adj"] = {}
        sau["carry"] = []
        d = Dice(state["dice"])
        for uid in opts["lost"]:                   # point 8
            roll = d.d6(f"{uid} returns?")
            back = roll in self.raw(state)["expanded"]["return_rolls"]
            sau["carry"].append(f"{uid}: die {roll}, {'returns' if back else 'is not part of the match'}")
            if not back:
                state["units"][uid].update(hex=None, status="out")
        for uid in opts["dead"]:                   # points 4-6
            if uid in SAURON_LEADERS:
                sau["adj"][uid] = {"as": "GOR"}
                state["units"][uid]["magic"] = 0  # exactly like Gorgol: no magic
                sau["carry"].append(f"{uid}: a new Sauron leader exactly like Gorgol")
            elif uid == "BAL":
                sau["adj"][uid] = {"morale": -1}
                sau["carry"].append("BAL: a new dwarf leader with 1 less Morale")
            elif uid in NUMENOREANS:
                sau["carry"].append(f"{uid}: his son takes his place")
            else:
                sau["carry"].append(f"{uid}: a new leader of his people (ruling)")
        if opts["narsil"] == "shards":
            sau["items"]["narsil"], sau["items"]["shards"] = None, next(
                (x for x in NUMENOREANS), None)
        elif opts["narsil"] == "gone":
            sau["items"]["narsil"] = None
        if opts["ring"] != "SAU":  # a Sauron leader wears it (16.641); a Westernesse one carries it (ruling)
            c16_6_ring._set_ring(self, state, opts["ring"], opts["ring"] in SAURON_LEADERS)
        self._place_all(state)
        return state

    def _place_all(self, state: State) -> None:
        """Every counter starts placed (re-placed with `deploy` before `done`): the three catapults in the
        fortifications nearest 1120 (the seed: "in the mountains surrounding the path just inside the
        gates"); Sauron's combat units nearest 1120 behind the Gate, Westernesse's nearest 0722 outside it
        but ``[expanded] setup_gap`` hexes or more from every Sauron counter (reconstructed: the seed places
        no counter, and armies starting in contact would owe an attack at once, 7.31); one combat unit a
        hex, leaders with the first unit of their nationality."""
        for uid, rec in state["units"].items():
            if self.units[uid].setup == "forts":
                rec.update(c02_units.unit_record(self, self.units[uid]))  # the catapults: the expanded game's own
            if rec["status"] != "out":
                rec.update(hex=None, status="pool")
        forts = sorted(self.setup_zones["forts"], key=lambda h: (distance(h, "1120"), h))
        for uid, hx in zip(sorted(u for u in self.units if self.units[u].setup == "forts"), forts):
            state["units"][uid].update(hex=hx, status="map")
        gap = self.raw(state)["expanded"].get("setup_gap", 0)
        for side, zone, centre in (("sauron", "front", "1120"), ("westernesse", "alliance", "0722")):
            hexes = sorted(self.setup_zones[zone], key=lambda h: (distance(h, centre), h))
            if side == "westernesse" and gap:
                theirs = [r["hex"] for u, r in state["units"].items() if r["status"] == "map"
                          and hooks.side_of(self, state, u) == "sauron"]
                hexes = [h for h in hexes if all(distance(h, t) >= gap for t in theirs)]
            combat = [u for u in sorted(self.units) if hooks.side_of(self, state, u) == side and self.units[u].is_combat
                      and state["units"][u]["status"] == "pool"]
            for uid, hx in zip(combat, hexes):
                state["units"][uid].update(hex=hx, status="map")
            for ldr in sorted(u for u in self.units if hooks.side_of(self, state, u) == side and self.units[u].is_leader):
                if state["units"][ldr]["status"] != "pool":
                    continue
                mate = next((u for u in combat if state["units"][u]["status"] == "map"
                             and c08_1_stacking.nationality(self, u) == c08_1_stacking.nationality(self, ldr)), None)
                hx = state["units"][mate]["hex"] if mate else hexes[0]
                state["units"][ldr].update(hex=hx, status="map")
            for uid in combat:
                if state["units"][uid]["status"] == "pool":  # no room: 'a queue behind those on the map'
                    state["units"][uid].update(hex=None, status="reinforcement")


    # --------------------------------------------------------------- ratings
    def _lr(self, state: State, table: str, uid: str) -> int:
        adj = state["sau"].get("adj", {}).get(uid, {})
        base = super()._lr(state, table, adj.get("as", uid))
        return base + adj.get(table, 0)





    @staticmethod
    def _hex(state: State, uid: str):
        from engine.hexgrid import Hex
        return Hex.parse(state["units"][uid]["hex"])


    def view(self, state: State, seat: str | None) -> dict:
        v = super().view(state, seat)
        v["title"] = "Sauron: the Rematch"
        v["notes"] = [f"Carried over: {c}" for c in state["sau"].get("carry", [])] + v["notes"]
        return v

    def rules_in_force(self, state: State) -> list[str]:
        """Issue 42: Sauron's, then the Rematch's own: the siege rule, the victory, what was carried over."""
        o = state.get("options") or {}
        out = Sauron.rules_in_force(self, state)
        out.append("the siege rule" if o.get("siege", True) else "no siege rule")
        out.append("victory by points" if o.get("victory") == "points" else "a decisive victory")
        if o.get("narsil", "whole") != "whole":
            out.append(f"Narsil {'in shards' if o['narsil'] == 'shards' else 'gone'}")
        if o.get("ring", "SAU") != "SAU":
            out.append(f"the One Ring with {o['ring']}")
        return out



SAURON_EXPANDED = SauronExpanded()
