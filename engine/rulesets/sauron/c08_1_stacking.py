"""8.1, 8.11, 8.25 Leaders and stacking (variant, seed 004): 8.1's opening is deleted, so a leader may
stand alone in a hex with no effect (8.11); a leader stacks only with combat units of his own
nationality (Men, Dwarves, Elves; Sauron's leaders with any of Sauron's units); once every combat unit
of his nationality is dead he may stack with any allied unit, Elves never with Dwarves, but may then
neither form special formations nor rally (8.25).
"""
from __future__ import annotations

from engine.core import IllegalOrder, State
from engine.spi.common import _phrase
from engine.spi.hooks import leaders_end_stacked
from engine.spi.standard import StandardRules
from engine.spi import hooks
from engine.rulesets.sauron import c07_22_leader_combat
from engine.spi import c08_4_formations

NAT_TITLES = {"men": "Men", "dwarves": "Dwarves", "elves": "Elves", "mordor": "Sauron's"}


def nationality(rs, uid: str, state: State | None = None) -> str:
    """Men, Dwarves, Elves, or Sauron's; with ``state``, a unit or leader turned evil (16.69) is
        Sauron's (ruling: he and his units stack as Sauron's, with any Sauron unit)."""
    u = rs.units[uid]
    if u.side == "sauron" or (state is not None and state.get("turned", {}).get(uid) == "sauron"):
        return "mordor"
    for n in ("men", "dwarves", "elves"):
        if n in u.tags:
            return n
    return "men"


def orphaned(rs, state: State, leader: str) -> bool:
    """8.25: every combat unit of the leader's nationality is dead (reinforcements still to come
        count as alive)."""
    nat = nationality(rs, leader, state)
    side = hooks.side_of(rs, state, leader)
    return not any(rs.units[x].is_combat and hooks.side_of(rs, state, x) == side and nationality(rs, x, state) == nat
                   and state["units"][x]["status"] in ("map", "reinforcement", "pool")
                   for x in state["units"])


def stack_fault(rs, state: State, leader: str, others: list[str]) -> str | None:
    nat = nationality(rs, leader, state)
    combat = [x for x in others if rs.units[x].is_combat and hooks.side_of(rs, state, x) == hooks.side_of(rs, state, leader)]
    if not combat:
        return None
    if not orphaned(rs, state, leader):
        bad = [x for x in combat if nationality(rs, x, state) != nat]
        if bad:
            return (f"{leader} may stack only with {NAT_TITLES[nat]} units; {_phrase(bad)} "
                    f"{'is' if len(bad) == 1 else 'are'} not (8.11)")
        return None
    if {nat} | {nationality(rs, x, state) for x in combat} >= {"elves", "dwarves"}:
        return "an Elf leader never stacks with Dwarves, nor a Dwarf leader with Elves (8.25)"
    return None


def check_move_end(rs, state: State, seat: str, uids: list[str], dest: str, occ) -> None:
    if not c07_22_leader_combat.variant(rs, state):
        return leaders_end_stacked(rs, state, seat, uids, dest, occ)  # the Standard Rules' 8.1
    stack = sorted(set(occ.get(dest, [])) | set(uids))
    for x in stack:
        if rs.units[x].is_leader and hooks.side_of(rs, state, x) == seat:
            why = stack_fault(rs, state, x, [y for y in stack if y != x])
            if why:
                raise IllegalOrder(why, "8.25" if "8.25" in why else "8.11")


def _check_form(rs, state: State, seat: str, args: tuple[str, ...]) -> None:
    kind, a, b, leader = args
    c08_4_formations._check_form(rs, state, seat, (kind, a, b, leader))
    if c07_22_leader_combat.variant(rs, state) and rs.units.get(leader) and orphaned(rs, state, leader):
        raise IllegalOrder(f"{leader} has lost every unit of his nationality: he may not form special "
                           "formations", "8.25")
