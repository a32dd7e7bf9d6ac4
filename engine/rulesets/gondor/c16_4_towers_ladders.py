"""16.4 Siege towers and ladders: a tower ready against a wall, a ladder set against it (16.43),
what scaling costs, losing them in melee (16.47); the siege advance (16.5: infantry-type units, one hex,
never into an enemy zone of control, 16.51). The order: ``ladder <unit> <hexside>``.
"""
from __future__ import annotations

from functools import cached_property
from typing import Iterator

from engine.core import Action, Event, IllegalOrder, InvalidOrder, State
from engine.dice import Dice
from engine.hexgrid import Hex, Hexside
from engine.orders import Order
from engine.rulesets.gondor import c16_0_siege_phase
from engine.spi.standard import StandardRules

from .common import _hexside
from engine.spi import c06_zoc
from engine.spi import c07_combat
from engine.spi import hooks
from engine.rulesets.gondor import c15_city
from engine.rulesets.gondor import c16_7_oil
from engine.spi import entry as spi_entry
from engine.spi import c02_units
from engine.spi import c03_sequence
from engine.spi import c05_stacking


def _ladders(rs, state: State) -> list[dict]:
    return [m for m in state["markers"] if m.get("type") == "ladder"]


def _towers_in(rs, state: State, hx: str) -> list[str]:
    units = state["units"]  # the few towers, not the whole occupancy (asked at every step of a path)
    return [u for u in rs._tower_ids if units[u]["hex"] == hx and units[u]["status"] == "map"]


def _ready_sides(rs, state: State, tower: str) -> list[str]:
    r = state["siege"]["ready"].get(tower)
    if not r or not c02_units.on_map(rs, state, tower) or state["units"][tower]["hex"] != r["hex"]:
        return []
    return list(r["sides"])


@cached_property
def _tower_ids(rs) -> tuple[str, ...]:
    return tuple(sorted(u for u, d in rs.units.items() if d.type == "siege_tower"))


def scaling_cost(rs, state: State, seat: str, a: Hex, hs: str) -> float | None:
    """16.41/16.43: the extra MP to climb the hexside ``hs`` from ``a`` with a
        siege tower ready in ``a`` (+1) or a ladder set there on an earlier
        Game-Turn (+3); None if neither."""
    ch = c16_0_siege_phase.siege_chart(rs, state)
    best = None
    for t in _towers_in(rs, state, str(a)):
        if rs.units[t].side == seat and hs in _ready_sides(rs, state, t):
            best = ch["tower_cost"]
    for m in _ladders(rs, state):
        if m["hex"] == str(a) and m["hexside"] == hs and m["side"] == seat and m["turn"] < state["turn"]:
            best = ch["ladder_cost"] if best is None else min(best, ch["ladder_cost"])
    return best


def _scaling_from(rs, state: State) -> set[tuple[str, str]]:
    """16.44: (hex, hexside) for each wall hexside a unit in that hex exerts its ZOC through: a siege tower's
    hex and its wall hexsides, a ladder's hex and the hexside it is set against."""
    out = {(m["hex"], m["hexside"]) for m in state["markers"] if m.get("type") == "ladder"}
    for u in rs._tower_ids:
        r = state["units"][u]
        if r["status"] == "map":
            out.update((r["hex"], hs) for hs in rs._sides_of_hex.get(Hex.parse(r["hex"]), ()))
    return out


def _zoc_walls_both_ways(rs, state: State) -> bool:
    """16.44 read both ways (the chart's ``[siege] zoc_through_walls = "both-ways"``), not the seed's way."""
    return c16_0_siege_phase.siege_chart(rs, state).get("zoc_through_walls", "towers") == "both-ways"


def _zoc_open_walls(rs, state: State) -> tuple[set[str], set[tuple[str, str]]]:
    """The wall hexsides a zone of control crosses (16.44), worked out once: those open both ways (breached;
    scaled, when the game reads 16.44 both ways), and (hex, hexside) open only from that hex (scaled)."""
    both = {m["hexside"] for m in state["markers"] if m.get("type") == "breached"}
    from_hex = _scaling_from(rs, state)
    if _zoc_walls_both_ways(rs, state):
        both |= {hs for _, hs in from_hex}
        from_hex = set()
    return both, from_hex


def _melee_targets(rs, state: State, uid: str, occ=None) -> list[str]:
    """7.31's contact, and 16.42: a unit in a siege tower's or on a ladder's hex may melee over the wall."""
    occ = occ if occ is not None else c05_stacking.occupancy(rs, state)
    out = StandardRules.hooks._melee_targets(rs, state, uid, occ)
    return out + [x for x in melee_targets_over_walls(rs, state, uid, occ) if x not in out]


def melee_targets_over_walls(rs, state: State, uid: str, occ) -> list[str]:
    """16.42 "Units may ... melee out of a Siege Tower normally" (and off a ladder): a unit in a tower's or
    ladder's hex may melee an enemy combat unit across that scaled hexside, whose own zone does not reach
    it there (16.44, the seed's reading)."""
    hx = state["units"][uid]["hex"]
    seat = hooks.side_of(rs, state, uid)
    out = []
    for at, hs in sorted(_scaling_from(rs, state)):
        if at != hx:
            continue
        a, b = Hexside.parse(hs).hexes()
        other = str(b if str(a) == hx else a)
        out += [x for x in occ.get(other, ()) if rs.units[x].is_combat and hooks.side_of(rs, state, x) != seat]
    return out


def apply_result(rs, state: State, dice: Dice, target: str, res: tuple, attacker_hex: str | None,
                 kind: str) -> list[str]:
    hx = state["units"][target]["hex"]
    lines = StandardRules.hooks.apply_result(rs, state, dice, target, res, attacker_hex, kind)
    if kind == "melee" and res and hx:
        lines.extend(_lose_scaling(rs, state, hx, "16.47"))
    return lines


def _lose_scaling(rs, state: State, hx: str, section: str) -> list[str]:
    out = []
    for t in _towers_in(rs, state, hx):
        c07_combat.eliminate(rs, state, t)
        out.append(f"siege tower {t} destroyed ({section})")
    gone = [m for m in _ladders(rs, state) if m["hex"] == hx]
    if gone:
        state["markers"] = [m for m in state["markers"] if m not in gone]
        out.append(f"ladder{'s' if len(gone) > 1 else ''} at {hx} destroyed ({section})")
    return out


def _parse_ladder(rs, state: State, seat: str, words: list[str]) -> tuple[str, ...]:
    if len(words) != 2:
        raise InvalidOrder("usage: `ladder <unit> <hexside>`, e.g. `ladder OI1 1603/ne`")
    return (c02_units.resolve_unit(rs, words[0]), _hexside(words[1]))

# --- ladders (16.43)
def _check_ladder(rs, state: State, seat: str, args: tuple[str, ...]) -> None:
    uid, hs = args
    rs.seat_check(state, seat)
    if c03_sequence.kind(rs, state) != "move" or c03_sequence.phasing(rs, state) != seat:
        raise IllegalOrder("ladders are set up in your Movement Phase", "16.43")
    u = c02_units._own_on_map(rs, state, seat, uid)
    if not u.is_combat:
        raise IllegalOrder(f"{uid} is not a combat unit", "16.43")
    if u.is_mounted:
        raise IllegalOrder("cavalry and Mumakil never use ladders (16.48)", "16.48")
    side = Hexside.parse(hs)
    here = Hex.parse(state["units"][uid]["hex"])
    if rs.hexmap.hexsides.get(side) is None or here not in side.hexes():
        raise IllegalOrder(f"{hs} is not a wall, gate or tower hexside of {uid}'s hex {here}", "16.43")
    other = next(h for h in side.hexes() if h != here)
    if rs.hexmap.level(other) <= rs.hexmap.level(here):
        raise IllegalOrder(f"a ladder climbs to a higher level; {other} is not above {here}", "16.43")
    if c15_city._breached(rs, state, hs):
        raise IllegalOrder(f"{hs} is breached: no ladder is needed (16.4)", "16.4")
    if any(m["hexside"] == hs and m["hex"] == str(here) for m in _ladders(rs, state)):
        raise IllegalOrder(f"a ladder already stands against {hs}", "16.43")
    if state["siege"]["ladders_left"] <= 0:
        raise IllegalOrder("no Ladder counters are left (counter-mix limit, 16.47)", "16.47")


def _apply_ladder(rs, state: State, seat: str, args: tuple[str, ...], dice: Dice | None) -> list[Event]:
    uid, hs = args
    hx = state["units"][uid]["hex"]
    state["siege"]["ladders_left"] -= 1
    state["markers"].append({"type": "ladder", "hex": hx, "hexside": hs, "side": seat, "turn": state["turn"]})
    return [Event(public=f"{c02_units.title_of(rs, seat)}: {uid} sets a ladder against {hs} in {hx}; it may be climbed "
                         f"from next Game-Turn (+{c16_0_siege_phase.siege_chart(rs, state)['ladder_cost']} MP; "
                         f"{state['siege']['ladders_left']} ladders left) (16.43).", section="16.43")]


def _legal_ladders(rs, state: State, seat: str) -> Iterator[Action]:
    if state["siege"]["ladders_left"] <= 0:
        return
    for u, d in sorted(rs.units.items()):
        if d.side != seat or not d.is_combat or not c02_units.on_map(rs, state, u) or d.is_mounted:
            continue
        for hs in c16_0_siege_phase._wall_sides_of(rs, Hex.parse(state["units"][u]["hex"])):
            a = Action("ladder", (u, hs))
            if c03_sequence._ok(rs, state, seat, a):
                yield a


def _check_advance(rs, state: State, seat: str, args: tuple[str, ...]) -> None:
    uid, hx = args
    spi_entry._check_advance(rs, state, seat, (uid, hx))
    adv = state["ph"]["advance"]
    if adv.get("siege"):
        if Hex.parse(hx) in c06_zoc.zoc_map(rs, state, seat):
            raise IllegalOrder(f"an advance during siege may not enter an enemy zone of control ({hx})", "16.51")


# the orders of this file (engine/orders.py), each naming its functions above
LADDER = Order("ladder", "`ladder <unit> <hexside>`, e.g. `ladder OI1 1603/ne`",
              parse=_parse_ladder,
              check=_check_ladder,
              apply=_apply_ladder,
              listed_in=c16_0_siege_phase.legal_siege_orders,
              cases=("16.4",),
              dice=False)
