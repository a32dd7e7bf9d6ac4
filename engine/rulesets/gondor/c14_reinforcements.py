"""14.0-14.2 Reinforcements: when and where each arrives (the schedule; the Riders of Rohan by a die
roll, 14.2), entering in a chain at cumulative cost (14.0), Westernesse units entering in formation and
attacking what blocks their entry (14.2).
"""
from __future__ import annotations

from functools import cached_property
from typing import Iterator

from engine.core import Action, Event, IllegalOrder, State
from engine.dice import Dice
from engine.hexgrid import Hex
from engine.spi.common import passes
from engine.spi.standard import StandardRules

from .common import FORM_TITLES
from engine.spi import c08_4_formations
from engine.spi import entry as spi_entry
from engine.spi import c02_units
from engine.spi import c03_sequence


@cached_property
def entry_hexes(rs) -> dict[str, list[str]]:
    """14.1/14.2 entry hexes: edge hexes of the map, passable."""
    e = rs.gondor_charts["entry"]
    m = rs.hexmap
    tec = rs.charts["tec"]

    def ok(h):
        return tec.get(m.hexes[h].terrain, {}).get("passable", True)

    centre = Hex.parse(e["sauron_hex"])
    # 14.1 read literally: they enter (appear) in any hex within two hexes of 2124
    sauron = sorted(h for h in m.hexes if ok(h) and h.distance(centre) <= e["sauron_reach"])
    return {
        "sauron": [str(h) for h in sauron],
        "rohan": [str(h) for h in sorted(m.edge_hexes("north")) if ok(h)],
        "south": [str(h) for h in sorted(m.edge_hexes("south")) if ok(h)],
    }


# ------------------------------------------------------- reinforcements
def reinforcement_entry(rs, state: State, uid: str) -> list[str] | None:
    u = rs.units[uid]
    if u.arrives is None:
        return None
    if u.arrives == "rohan":
        t = state["arrived"].get("rohan")
        if t is None or state["turn"] < t:
            return None
        return rs.entry_hexes["rohan"]
    if state["turn"] < int(u.arrives):
        return None
    return rs.entry_hexes["sauron" if u.side == "sauron" else "south"]


def on_step_start(rs, state: State) -> list[Event]:
    events: list[Event] = []
    e = rs.charts_for(state)["entry"]
    first = rs.sequence["step"][0]["id"]
    if state["step"] == first and state["turn"] >= e["rohan_from"] and "rohan" not in state["arrived"]:
        d = Dice(state["dice"])
        roll = d.d6("Rohan")
        if roll in e["rohan_rolls"]:
            state["arrived"]["rohan"] = state["turn"]
            text = (f"Game-Turn {state['turn']}: Westernesse rolls {roll} for the Riders of Rohan: they arrive "
                    "and may enter along the Northern edge this turn (14.2).")
        else:
            text = f"Game-Turn {state['turn']}: Westernesse rolls {roll} for the Riders of Rohan: not yet (14.2)."
        events.append(Event(public=text, section="14.2", rolls=d.rolls))
    return events


entry_attack_seats = ("westernesse",)  # 14.2: Westernesse reinforcements only


# ------------------------------------------------------------------ 14.2
def _check_form(rs, state: State, seat: str, args: tuple[str, ...]) -> None:
    kind, a, b, leader = args
    if not any(spi_entry._offmap(rs, state, x) for x in (a, b, leader)):
        c08_4_formations._check_form(rs, state, seat, (kind, a, b, leader))
        if Hex.parse(state["units"][a]["hex"]) in rs.hooks.extra_blocked(rs, state, seat, [b]):
            raise IllegalOrder(f"{b} may not step into {state['units'][a]['hex']}: cavalry never moves next to "
                               "a Mumak, nor a Mumak next to cavalry", "14.31")
        return
    c03_sequence._need_kind(rs, state, ("move",), "forming a special formation", "8.4")
    if not rs.hooks.may_form(rs, state, seat, kind):
        raise IllegalOrder(f"{c02_units.title_of(rs, seat)} units may not form a {kind}", "8.41")
    if len({a, b, leader}) != 3:
        raise IllegalOrder("a formation is two different units and a leader", "8.4")
    spec = rs.charts_for(state)["formations"][kind]
    entry = None
    for x in (a, b, leader):
        u = rs.units[x]
        if u.side != seat:
            raise IllegalOrder(f"{x} is not yours")
        if not spi_entry._offmap(rs, state, x):
            raise IllegalOrder(f"{x} is {'on the map' if c02_units.on_map(rs, state, x) else state['units'][x]['status']}: "
                               "a formation formed off the map is made of reinforcements that have not entered "
                               "yet", "14.2")
        e = rs.hooks.reinforcement_entry(rs, state, x)
        if e is None:
            raise IllegalOrder(f"{x} is a reinforcement that may not enter now", u.section)
        if entry is not None and e != entry:
            raise IllegalOrder(f"{a}, {b} and {leader} do not enter by the same edge", "14.2")
        entry = e
    for x in (a, b):
        _check_member(rs, state, kind, spec, x)
    _check_leader(rs, state, leader)


def _check_member(rs, state: State, kind: str, spec: dict, x: str) -> None:
    """8.4: what a formation asks of one of its two units alone."""
    u = rs.units[x]
    if u.type not in spec["types"]:
        raise IllegalOrder(f"{x} is {u.type}; a {kind} is made of {' or '.join(spec['types'])} units", "8.4")
    if c08_4_formations.formation_of(rs, state, x):
        raise IllegalOrder(f"{x} is already in a formation", "8.4")
    if x in state["ph"]["moved"]:
        raise IllegalOrder(f"{x} has already moved this phase", "8.4")


def _check_leader(rs, state: State, leader: str) -> None:
    """8.4, 17.12: what a formation asks of its leader alone."""
    if not rs.units[leader].is_leader:
        raise IllegalOrder(f"{leader} is not a leader", "8.4")
    if any(e.get("frozen") and leader in e["frozen"] for e in state["effects"]):
        raise IllegalOrder(f"{leader} is frozen by a spell", "17.12")


def _apply_form(rs, state: State, seat: str, args: tuple[str, ...], dice: Dice | None) -> list[Event]:
    kind, a, b, leader = args
    if not spi_entry._offmap(rs, state, a):
        return c08_4_formations._apply_form(rs, state, seat, (kind, a, b, leader), dice)
    n = 1
    while f"F{n}" in state["formations"]:
        n += 1
    # 14.2 (ruling): formed before arriving, as if on an earlier turn, so a
    # Wedge may enter and attack at once (8.4's wait does not apply)
    state["formations"][f"F{n}"] = {"kind": kind, "units": [a, b], "leader": leader,
                                     "turn": state["turn"] - 1, "entering": True}
    return [Event(public=f"{c02_units.title_of(rs, seat)}: {a} and {b} form a {FORM_TITLES[kind]} with {leader} before "
                         f"entering the map; it counts as formed on an earlier turn and may enter and fight "
                         f"this turn (14.2, 8.4).", section="14.2")]


def _offmap_hex(rs, uid: str, hx: str) -> str:
    """The virtual hex off the map, beyond the edge a reinforcement
        enters by, next to the entry hex ``hx`` (14.2, ruling): its attacks
        come from there and a retreat moves away from it."""
    u = rs.units[uid]
    edge = "north" if u.arrives == "rohan" else ("east" if u.side == "sauron" else "south")
    side = rs.hexmap.edges.get(edge, edge)
    h = Hex.parse(hx)
    c, r = {"top": (0, -1), "bottom": (0, 1), "left": (-1, 0), "right": (1, 0)}[side]
    return str(Hex(h.col + c, h.row + r))


def legal_entry_forms(rs, state: State, seat: str) -> Iterator[Action]:
    """14.2: formations of the units about to enter (an entry of Gondor's ``LEGAL_EXTRA``)."""
    if state["turn"] == 0 or state["pending"]:
        return
    if c03_sequence.kind(rs, state) == "move" and seat == "westernesse":
        yield from _legal_entry_forms(rs, state, seat)


def _legal_entry_forms(rs, state: State, seat: str) -> Iterator[Action]:
    """Each formation :func:`_check_form` allows of the units about to enter, in the order leader, first
    unit, second unit, kind. The check's own parts for one unit alone (:func:`_check_member`,
    :func:`_check_leader`) and the entry edge are asked once a unit, so that only the trios that may pass are
    checked in full: the same list, 13 times faster (a Westernesse Movement Phase's, 1.95 -> 0.15 ms: for
    autocomplete and every random or autopilot player)."""
    entering = spi_entry._entering(rs, state, seat)
    edge = {u: rs.hooks.reinforcement_entry(rs, state, u) for u in entering}
    units = [u for u in entering if rs.units[u].is_combat]
    leaders = [u for u in entering if passes(_check_leader, rs, state, u)]
    forms = rs.charts_for(state)["formations"]
    kinds = [k for k in ("shieldwall", "wedge") if rs.hooks.may_form(rs, state, seat, k)]
    may = {k: {u for u in units if passes(_check_member, rs, state, k, forms[k], u)} for k in kinds}
    for leader in leaders:
        for i, a in enumerate(units):
            for b in units[i + 1:]:
                if not edge[a] == edge[b] == edge[leader]:
                    continue
                for kind in kinds:
                    if a not in may[kind] or b not in may[kind]:
                        continue
                    act = Action("form", (kind, a, b, leader))
                    if c03_sequence._ok(rs, state, seat, act):
                        yield act
