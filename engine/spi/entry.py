"""Reinforcements that attack the enemy units blocking their way onto the map
(Gondor 14.2, Field of Celebrant 14.2): "arriving reinforcements may attack
Enemy units blocking their passage onto the map if necessary".

A mixin for a :class:`engine.spi.standard.StandardRules` ruleset. In the
phasing side's Combat Phase, a reinforcement that may enter now but is still
off the map may ``melee <unit> at <hex>`` an enemy combat unit in one of its
entry hexes on the map edge. It attacks from a virtual hex just beyond the
edge (so a retreat moves away from it), and if the hex is emptied it may
``advance`` into it, which brings it onto the map (7.5). Rulesets list the
sides that may do so in ``entry_attack_seats``.
"""
from __future__ import annotations

from dataclasses import replace

from typing import Iterator

from engine.core import Action, Event, IllegalOrder, State
from engine.dice import Dice
from engine.hexgrid import Hex
from engine.spi.c07_3_melee import MELEE
from engine.spi.c07_5_retreat import ADVANCE
from engine.spi.standard import StandardRules, _phrase
from engine.spi import c04_movement
from engine.spi import c07_1_fire
from engine.spi import c07_5_retreat
from engine.spi import c07_combat
from engine.spi import c08_4_formations
from engine.spi import hooks


class EntryAttacks:
    entry_attack_seats: tuple[str, ...] = ()
    entry_attack_section = "14.2"

    def _offmap(self, state: State, uid: str) -> bool:
        return state["units"][uid]["status"] == "reinforcement"

    def _offmap_hex(self, uid: str, hx: str) -> str | None:
        """The virtual hex beyond the map edge next to the entry hex ``hx``
        (the first neighbour off the map, n, ne, se, s, sw, nw), or None if
        ``hx`` is not on the edge."""
        h = Hex.parse(hx)
        for nb in h.neighbours():
            if nb not in self.hexmap:
                return str(nb)
        return None

    def _check_melee(self, state: State, seat: str, args: tuple[str, ...]) -> None:
        uids, hx = list(args[:-2]), args[-1]
        off = [u for u in uids if hooks.side_of(self, state, u) == seat and self._offmap(state, u)]
        if not off:
            StandardRules._check_melee(self, state, seat, args)
            return
        on = [u for u in uids if u not in off]
        if on:
            StandardRules._check_melee(self, state, seat, (*on, "at", hx))
        else:
            c07_combat._combat_phase_check(self, state, seat, "melee", "7.3")
            if self.phasing(state) != seat:
                raise IllegalOrder("only the phasing side attacks", "7.3")
            if not c07_1_fire._target_units(self, state, seat, hx):
                raise IllegalOrder(f"there is no enemy combat unit in {hx} to attack", "7.3")
        sec = self.entry_attack_section
        for uid in off:
            u = self.units[uid]
            if seat not in self.entry_attack_seats:
                raise IllegalOrder(f"{uid} is not on the map (reinforcement)", u.section)
            entry = self.reinforcement_entry(state, uid)
            if entry is None:
                raise IllegalOrder(f"{uid} is a reinforcement that may not enter now", u.section)
            if hx not in entry or self._offmap_hex(uid, hx) is None:
                raise IllegalOrder(f"{uid} has not entered the map: it may attack only an enemy unit blocking one of "
                                   f"its entry hexes on the map edge, and {hx} is not one", sec)
            if c08_4_formations._wedge_waits(self, state, uid):
                raise IllegalOrder("a Wedge may not attack on the turn it forms", "8.4")
            if not self._can_melee(state, uid):
                raise IllegalOrder(f"{uid} has no melee rating and may not melee", "7.3")
            if uid in state["ph"]["meleed"]:
                raise IllegalOrder(f"{uid} has already attacked this phase (one attack a phase)", "7.31")

    def _apply_melee(self, state: State, seat: str, args: tuple[str, ...], dice: Dice | None) -> list[Event]:
        uids, hx = list(args[:-2]), args[-1]
        off = [u for u in uids if self._offmap(state, u)]
        for u in off:  # attacks and retreats count from beyond the edge (14.2, ruling)
            state["units"][u]["hex"] = self._offmap_hex(u, hx)
        try:
            return StandardRules._apply_melee(self, state, seat, args, dice)
        finally:
            for u in off:
                if self._offmap(state, u):
                    state["units"][u]["hex"] = None

    def _offer_advance(self, state: State, seat: str, units: list[str], hx: str) -> None:
        StandardRules._offer_advance(self, state, seat, units, hx)
        off = [u for u in units if self._offmap(state, u) and not state["units"][u].get("disrupted")
               and hx in (self.reinforcement_entry(state, u) or [])]
        if not off:
            return
        adv = state["ph"]["advance"] or {"seat": seat, "units": [], "hex": hx}
        have = list(adv["units"])
        adv["units"] = have + off
        state["ph"]["advance"] = adv
        real = [u for u in off if self._ok(state, seat, Action("advance", (u, hx)))]
        adv["units"] = have + real
        if not adv["units"]:
            state["ph"]["advance"] = None

    def _check_advance(self, state: State, seat: str, args: tuple[str, ...]) -> None:
        uid, hx = args
        if hooks.side_of(self, state, uid) != seat or not self._offmap(state, uid):
            StandardRules._check_advance(self, state, seat, (uid, hx))
            return
        c07_5_retreat._check_advance_offer(self, state, seat, uid, hx)
        if hx not in (self.reinforcement_entry(state, uid) or []):
            raise IllegalOrder(f"{uid} may enter only by its entry hexes", self.entry_attack_section)

    def _apply_advance(self, state: State, seat: str, args: tuple[str, ...], dice: Dice | None) -> list[Event]:
        uid, hx = args
        if not self._offmap(state, uid):
            return StandardRules._apply_advance(self, state, seat, (uid, hx), dice)
        uids = c04_movement._stack_of(self, state, (uid,))
        for v in uids:
            state["units"][v]["hex"] = hx
            state["units"][v]["status"] = "map"
            state["ph"]["moved"].append(v)
        adv = state["ph"]["advance"]
        adv["units"] = [u for u in adv["units"] if u not in uids]
        if not adv["units"] or self.combat_units_in(state, hx):
            state["ph"]["advance"] = None
        return [Event(public=f"{self.title_of(seat)}: {_phrase(uids)} advances into {hx} and so enters the map "
                             f"({self.entry_attack_section}, 7.5).", section=self.entry_attack_section)]

    def _entering(self, state: State, seat: str) -> list[str]:
        return sorted(u for u, r in state["units"].items() if r["status"] == "reinforcement"
                      and hooks.side_of(self, state, u) == seat and self.reinforcement_entry(state, u) is not None)

    def _legal_entry_melees(self, state: State, seat: str) -> Iterator[Action]:
        occ = self.occupancy(state)
        for uid in self._entering(state, seat):
            if not self.units[uid].is_combat or uid in state["ph"]["meleed"]:
                continue
            for hx in self.reinforcement_entry(state, uid) or []:
                if c07_1_fire._target_units(self, state, seat, hx, occ):
                    act = Action("melee", (uid, "at", hx))
                    if self._ok(state, seat, act):
                        yield act


def legal_entry_melees(self, state: State, seat: str) -> Iterator[Action]:
    """14.2: the entering units' melees onto the map, in their side's Combat Phase (an entry of a game's
    ``LEGAL_EXTRA``)."""
    if state["turn"] == 0 or state["pending"] or seat not in self.entry_attack_seats:
        return
    if self.kind(state) == "combat" and self.phasing(state) == seat:
        yield from self._legal_entry_melees(state, seat)


# melee and advance after combat with the attacks onto the map (14.2), for the games that have them
ENTRY_MELEE = replace(MELEE, check=EntryAttacks._check_melee, apply=EntryAttacks._apply_melee)
ENTRY_ADVANCE = replace(ADVANCE, check=EntryAttacks._check_advance, apply=EntryAttacks._apply_advance)
