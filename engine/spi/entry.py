"""Reinforcements that attack the enemy units blocking their way onto the map
(Gondor 14.2, Field of Celebrant 14.2): "arriving reinforcements may attack
Enemy units blocking their passage onto the map if necessary".

Functions of a :class:`engine.spi.standard.StandardRules` ruleset (issue 43: no mixin class). In the
phasing side's Combat Phase, a reinforcement that may enter now but is still
off the map may ``melee <unit> at <hex>`` an enemy combat unit in one of its
entry hexes on the map edge. It attacks from a virtual hex just beyond the
edge (so a retreat moves away from it), and if the hex is emptied it may
``advance`` into it, which brings it onto the map (7.5). Rulesets list the
sides that may do so in ``entry_attack_seats``, and give ``_offer_advance =
entry._offer_advance`` and ``_offmap_hex`` (the virtual hex; Gondor's own).
"""
from __future__ import annotations

from dataclasses import replace

from typing import Iterator

from engine.core import Action, Event, IllegalOrder, State
from engine.dice import Dice
from engine.hexgrid import Hex
from engine.spi.c07_3_melee import MELEE
from engine.spi.c07_5_retreat import ADVANCE
from engine.spi.common import _phrase
from engine.spi import c07_3_melee
from engine.spi import c04_movement
from engine.spi import c07_1_fire
from engine.spi import c07_5_retreat
from engine.spi import c07_combat
from engine.spi import c08_4_formations
from engine.spi import hooks
from engine.spi import c02_units
from engine.spi import c03_sequence
from engine.spi import c05_stacking


# the section an entry attack cites (14.2, the same in every game that has it)
SECTION = "14.2"


def _offmap(rs, state: State, uid: str) -> bool:
    return state["units"][uid]["status"] == "reinforcement"


def _offmap_hex(rs, uid: str, hx: str) -> str | None:
    """The virtual hex beyond the map edge next to the entry hex ``hx``
    (the first neighbour off the map, n, ne, se, s, sw, nw), or None if
    ``hx`` is not on the edge."""
    h = Hex.parse(hx)
    for nb in h.neighbours():
        if nb not in rs.hexmap:
            return str(nb)
    return None


def _check_melee(rs, state: State, seat: str, args: tuple[str, ...]) -> None:
    uids, hx = list(args[:-2]), args[-1]
    off = [u for u in uids if hooks.side_of(rs, state, u) == seat and _offmap(rs, state, u)]
    if not off:
        c07_3_melee._check_melee(rs, state, seat, args)
        return
    on = [u for u in uids if u not in off]
    if on:
        c07_3_melee._check_melee(rs, state, seat, (*on, "at", hx))
    else:
        c07_combat._combat_phase_check(rs, state, seat, "melee", "7.3")
        if c03_sequence.phasing(rs, state) != seat:
            raise IllegalOrder("only the phasing side attacks", "7.3")
        if not c07_1_fire._target_units(rs, state, seat, hx):
            raise IllegalOrder(f"there is no enemy combat unit in {hx} to attack", "7.3")
    sec = SECTION
    for uid in off:
        u = rs.units[uid]
        if seat not in rs.hooks.entry_attack_seats:
            raise IllegalOrder(f"{uid} is not on the map (reinforcement)", u.section)
        entry = rs.hooks.reinforcement_entry(rs, state, uid)
        if entry is None:
            raise IllegalOrder(f"{uid} is a reinforcement that may not enter now", u.section)
        if hx not in entry or rs.hooks._offmap_hex(rs, uid, hx) is None:
            raise IllegalOrder(f"{uid} has not entered the map: it may attack only an enemy unit blocking one of "
                               f"its entry hexes on the map edge, and {hx} is not one", sec)
        if c08_4_formations._wedge_waits(rs, state, uid):
            raise IllegalOrder("a Wedge may not attack on the turn it forms", "8.4")
        if not rs.hooks._can_melee(rs, state, uid):
            raise IllegalOrder(f"{uid} has no melee rating and may not melee", "7.3")
        if uid in state["ph"]["meleed"]:
            raise IllegalOrder(f"{uid} has already attacked this phase (one attack a phase)", "7.31")


def _apply_melee(rs, state: State, seat: str, args: tuple[str, ...], dice: Dice | None) -> list[Event]:
    uids, hx = list(args[:-2]), args[-1]
    off = [u for u in uids if _offmap(rs, state, u)]
    for u in off:  # attacks and retreats count from beyond the edge (14.2, ruling)
        state["units"][u]["hex"] = rs.hooks._offmap_hex(rs, u, hx)
    try:
        return c07_3_melee._apply_melee(rs, state, seat, args, dice)
    finally:
        for u in off:
            if _offmap(rs, state, u):
                state["units"][u]["hex"] = None


def _offer_advance(rs, state: State, seat: str, units: list[str], hx: str) -> None:
    c07_5_retreat._offer_advance(rs, state, seat, units, hx)
    off = [u for u in units if _offmap(rs, state, u) and not state["units"][u].get("disrupted")
           and hx in (rs.hooks.reinforcement_entry(rs, state, u) or [])]
    if not off:
        return
    adv = state["ph"]["advance"] or {"seat": seat, "units": [], "hex": hx}
    have = list(adv["units"])
    adv["units"] = have + off
    state["ph"]["advance"] = adv
    real = [u for u in off if c03_sequence._ok(rs, state, seat, Action("advance", (u, hx)))]
    adv["units"] = have + real
    if not adv["units"]:
        state["ph"]["advance"] = None


def _check_advance(rs, state: State, seat: str, args: tuple[str, ...]) -> None:
    uid, hx = args
    if hooks.side_of(rs, state, uid) != seat or not _offmap(rs, state, uid):
        c07_5_retreat._check_advance(rs, state, seat, (uid, hx))
        return
    c07_5_retreat._check_advance_offer(rs, state, seat, uid, hx)
    if hx not in (rs.hooks.reinforcement_entry(rs, state, uid) or []):
        raise IllegalOrder(f"{uid} may enter only by its entry hexes", SECTION)


def _apply_advance(rs, state: State, seat: str, args: tuple[str, ...], dice: Dice | None) -> list[Event]:
    uid, hx = args
    if not _offmap(rs, state, uid):
        return c07_5_retreat._apply_advance(rs, state, seat, (uid, hx), dice)
    uids = c04_movement._stack_of(rs, state, (uid,))
    for v in uids:
        state["units"][v]["hex"] = hx
        state["units"][v]["status"] = "map"
        state["ph"]["moved"].append(v)
    adv = state["ph"]["advance"]
    adv["units"] = [u for u in adv["units"] if u not in uids]
    if not adv["units"] or c05_stacking.combat_units_in(rs, state, hx):
        state["ph"]["advance"] = None
    return [Event(public=f"{c02_units.title_of(rs, seat)}: {_phrase(uids)} advances into {hx} and so enters the map "
                         f"({SECTION}, 7.5).", section=SECTION),
            *hooks.on_enter(rs, state, seat, uids, [hx], "advance")]


def _entering(rs, state: State, seat: str) -> list[str]:
    return sorted(u for u, r in state["units"].items() if r["status"] == "reinforcement"
                  and hooks.side_of(rs, state, u) == seat and rs.hooks.reinforcement_entry(rs, state, u) is not None)


def _legal_entry_melees(rs, state: State, seat: str) -> Iterator[Action]:
    occ = c05_stacking.occupancy(rs, state)
    for uid in _entering(rs, state, seat):
        if not rs.units[uid].is_combat or uid in state["ph"]["meleed"]:
            continue
        for hx in rs.hooks.reinforcement_entry(rs, state, uid) or []:
            if c07_1_fire._target_units(rs, state, seat, hx, occ):
                act = Action("melee", (uid, "at", hx))
                if c03_sequence._ok(rs, state, seat, act):
                    yield act


def legal_entry_melees(rs, state: State, seat: str) -> Iterator[Action]:
    """14.2: the entering units' melees onto the map, in their side's Combat Phase (an entry of a game's
    ``LEGAL_EXTRA``)."""
    if state["turn"] == 0 or state["pending"] or seat not in rs.hooks.entry_attack_seats:
        return
    if c03_sequence.kind(rs, state) == "combat" and c03_sequence.phasing(rs, state) == seat:
        yield from _legal_entry_melees(rs, state, seat)


# melee and advance after combat with the attacks onto the map (14.2), for the games that have them
ENTRY_MELEE = replace(MELEE, check=_check_melee, apply=_apply_melee)
ENTRY_ADVANCE = replace(ADVANCE, check=_check_advance, apply=_apply_advance)
