"""8.5 Magic: magic leaders (8.52: they move only in the magic phases), spells and their costs, a
cast paid in full or attempted with fewer points (a die), spell effects until they expire. The
order: ``cast <leader> <spell> [<points>] [<target>]``.
"""
from __future__ import annotations

from typing import Iterator

from engine.core import Action, Event, IllegalOrder, InvalidOrder, State
from engine.dice import Dice
from engine.spi.common import _HEX, _phrase
from engine.orders import Order
from engine.spi import hooks
from engine.spi import c02_units
from engine.spi import c03_sequence
from engine.spi import common


def is_magic_leader(rs, uid: str) -> bool:
    u = rs.units[uid]
    return u.is_leader and bool(u.magic)

# --- magic (8.5)
def spell_cost(rs, state: State, spell: str) -> int:
    sp = rs.spells[spell]
    n = state["spell_count"].get(spell, 0)
    costs = sp.get("costs") or [sp["cost"]]
    return costs[min(n, len(costs) - 1)]


def _check_cast(rs, state: State, seat: str, args: tuple[str, ...]) -> None:
    leader, spell, points, target = (*args, None)[:4]
    c03_sequence._need_kind(rs, state, ("magic",), "spells", "8.5")
    u = c02_units._own_on_map(rs, state, seat, leader)
    if not u.magic:
        raise IllegalOrder(f"{leader} is not a magic leader", "8.5")
    sp = rs.spells.get(spell)
    if sp is None:
        raise IllegalOrder(f"unknown spell `{spell}`", "8.5")
    if leader not in sp["casters"]:
        raise IllegalOrder(f"{spell} is cast only by {_phrase(sp['casters'])}", sp["section"])
    p = int(points)
    have = state["units"][leader].get("magic", 0)
    ch = rs.charts_for(state)["magic"]
    if p < ch.get("min_points", 1):
        raise IllegalOrder(f"spend at least {ch.get('min_points', 1)} point(s)", "8.5")
    if p > have:
        raise IllegalOrder(f"{leader} has {have} Magic Capability Points; {p} asked", "8.5")
    cost = rs.hooks.spell_cost(rs, state, spell)
    if p > cost:
        raise IllegalOrder(f"{spell} costs {cost} for an automatic cast; spend at most that", sp["section"])
    if leader in state["ph"]["cast"]:
        raise IllegalOrder(f"{leader} has already cast or tried a spell this phase", "8.5")
    if leader in state["ph"]["moved"]:
        raise IllegalOrder(f"{leader} moved this phase and may not cast", "8.52")
    if state["cast_turn"].get(leader) == state["turn"]:
        raise IllegalOrder(f"{leader} cast or tried a spell in the first Magic Leader phase and may not in the "
                           "second", "8.52")
    if sp.get("max") is not None and state["spell_count"].get(spell, 0) >= sp["max"]:
        raise IllegalOrder(f"{spell} may be cast successfully only {sp['max']} times a game", sp["section"])
    if sp.get("day_only") and c03_sequence.is_night(rs, state):
        raise IllegalOrder(f"{spell} is cast only in a day turn", sp["section"])
    for e in state["effects"]:
        if e.get("frozen") and leader in e["frozen"]:
            raise IllegalOrder(f"{leader} is frozen by a spell and may not cast", e.get("section"))
    rs.hooks.check_spell(rs, state, seat, leader, spell, target)


def _legal_casts(rs, state: State, seat: str) -> Iterator[Action]:
    for name in sorted(rs.spells):
        sp = rs.spells[name]
        for leader in sp["casters"]:
            if rs.units.get(leader) is None or hooks.side_of(rs, state, leader) != seat:
                continue
            cost = rs.hooks.spell_cost(rs, state, name)
            have = state["units"][leader].get("magic", 0)
            pts = sorted({min(cost, have), cost}, reverse=True)
            targets = list(rs.hooks.spell_targets(rs, state, seat, name)) if sp.get("target") else [None]
            for p in pts:
                for t in targets:
                    a = Action("cast", (leader, name, str(p)) + ((t,) if t else ()))
                    if c03_sequence._ok(rs, state, seat, a):
                        yield a


def _apply_cast(rs, state: State, seat: str, args: tuple[str, ...], dice: Dice | None) -> list[Event]:
    leader, spell, points, target = (*args, None)[:4]
    sp = rs.spells[spell]
    p = int(points)
    cost = rs.hooks.spell_cost(rs, state, spell)
    state["ph"]["cast"].append(leader)
    if c03_sequence.step(rs, state).get("magic_round", 1) == 1:
        state["cast_turn"][leader] = state["turn"]
    if p >= cost:
        ok, how = True, f"{p} points, automatic"
    else:
        need = rs.charts_for(state).magic_success_max(cost - p)
        roll = dice.d6("magic")
        ok = roll <= need
        how = f"{p} of {cost} points, die {roll} (needs {need} or less)"
    if not ok:
        return [Event(public=f"{c02_units.title_of(rs, seat)}: {leader} tries {sp['title']} ({how}) and fails; no points "
                             f"are spent, but {leader}'s phase is gone (8.5).", section="8.5")]
    state["units"][leader]["magic"] -= p
    state["spell_count"][spell] = state["spell_count"].get(spell, 0) + 1
    lines = rs.hooks.spell_effect(rs, state, seat, leader, spell, target)
    return [Event(public=f"{c02_units.title_of(rs, seat)}: {leader} casts {sp['title']} ({how}; "
                         f"{state['units'][leader]['magic']} points left): {lines} ({sp['section']}).",
                  section=sp["section"])]


def _expire_effects(rs, state: State) -> None:
    keep = []
    for e in state["effects"]:
        u = e.get("until")
        if u and u["turn"] == state["turn"] and u["step"] == state["step"]:
            continue
        if u and u["turn"] < state["turn"]:
            continue
        keep.append(e)
    state["effects"] = keep


def _parse_cast(rs, state: State, seat: str, words: list[str]) -> tuple[str, ...]:
    usage = CAST.usage
    if len(words) < 2 or len(words) > 4:
        raise InvalidOrder(f"usage: {usage}")
    leader = c02_units.resolve_unit(rs, words[0])
    spell = words[1].lower()
    if spell not in rs.spells:
        known = ", ".join(sorted(rs.spells)) or "none"
        raise InvalidOrder(f"unknown spell `{spell[:20]}` (spells here: {known})")
    sp = rs.spells[spell]
    more = words[2:]
    points = None
    if more and more[0].isdigit():
        points = int(more[0])
        more = more[1:]
    if points is None:
        points = rs.hooks.spell_cost(rs, state, spell)
    target = None
    if more:
        target = c02_units.resolve_unit(rs, more[0]) if not _HEX.match(more[0]) else common._hex_token(more[0])
        more = more[1:]
    if more or (target is not None and not sp.get("target")):
        raise InvalidOrder(f"usage: {usage}" + ("" if sp.get("target") else f"; {spell} takes no target"))
    if sp.get("target") and target is None:
        raise InvalidOrder(f"{spell} needs a target: `cast {leader} {spell} <points> <{sp['target']}>`")
    args = (leader, spell, str(points)) + ((target,) if target else ())
    return args


def _legal_cast_orders(rs, state: State, seat: str) -> Iterator[Action]:
    if c03_sequence.kind(rs, state) == "magic":
        yield from _legal_casts(rs, state, seat)


# the orders of this file (engine/orders.py), each naming its functions above
CAST = Order("cast", "`cast <leader> <spell> [<points>] [<target>]`, e.g. `cast NAZ fear 5`",
              parse=_parse_cast,
              check=_check_cast,
              apply=_apply_cast,
              legal=_legal_cast_orders,
              cases=("8.5", "8.52"))
