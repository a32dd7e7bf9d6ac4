"""The Standard Rules' leaders as Field of Celebrant amends them: a combat unit may enter a hex holding
only enemy leaders (4.27), leaders need not stack with a combat unit (8.1) and go to the nearest unit of
their army when theirs falls (8.24), rally (8.3x, with Arise, Arise! 17.21), formations (8.4, 8.41).
"""
from __future__ import annotations

from engine.core import Event, IllegalOrder, State
from engine.dice import Dice
from engine.hexgrid import distance
from engine.spi.standard import StandardRules

from .common import SIDE_TITLES
from engine.spi import c08_3_rally
from engine.spi import c08_4_formations
from engine.spi import hooks
from engine.rulesets.celebrant import c17_abilities
from engine.spi import c02_units
from engine.spi import c03_sequence


# ------------------------------------------------------- 4.27 and 8.1
def may_enter_enemy_leaders(rs, state: State, uids: list[str]) -> bool:
    """4.27 (Amendment): combat units may enter a hex holding only enemy leaders."""
    return any(rs.units[u].is_combat for u in uids)


def after_move(rs, state: State, seat: str, uids: list[str], trail: list[str]) -> list[Event]:
    """8.1 (Amendment): enemy leaders alone in a hex a combat unit enters fly
        to the nearest friendly combat unit of their own army."""
    events: list[Event] = []
    if not any(rs.units[u].is_combat for u in uids):
        return events
    for hx in hooks.entered(rs, state, trail):
        lone = [x for x in sorted(state["units"]) if c02_units.on_map(rs, state, x) and state["units"][x]["hex"] == hx
                and rs.units[x].is_leader and rs.units[x].side != seat]
        for ldr in lone:
            lines = rs.hooks._displace_leader(rs, state, ldr)
            events.append(Event(public=f"{ldr} was alone in {hx}: " + "; ".join(lines) + ".", section="8.1"))
    return events


def _displace_leader(rs, state: State, ldr: str) -> list[str]:
    """8.1/8.24: to the nearest friendly combat unit of the same army (the
        same-coloured counter); failing that any friendly combat unit (ties:
        the lowest hex number); with none at all the leader is lost."""
    side, army = rs.units[ldr].side, c02_units.army_of(rs, ldr)
    here = state["units"][ldr]["hex"]
    best = None
    for same in (True, False):
        for uid in sorted(state["units"]):
            u = rs.units[uid]
            if u.side == side and u.is_combat and c02_units.on_map(rs, state, uid) and (not same or c02_units.army_of(rs, uid) == army):
                key = (distance(here, state["units"][uid]["hex"]), state["units"][uid]["hex"])
                if best is None or key < best:
                    best = key
        if best is not None:
            break
    if best is None:
        r = c08_3_rally.leader_rating(rs, state, ldr, for_rally=False)
        return [rs.hooks._leader_loss(rs, state, ldr, r) + " (no friendly unit to join, 8.1)"]
    state["units"][ldr]["hex"] = best[1]
    return [f"{ldr} flies to the nearest friendly unit of its army, in {best[1]} (8.1)"]


# ---------------------------------------------------------- formations
def may_form(rs, state: State, seat: str, kind: str) -> bool:
    """8.41: of the Shadow units, only Balchoth infantry may form, and only a Shield Wall."""
    return seat == "westernesse" or kind == "shieldwall"


def _formed_this_turn(rs, state: State, fid: str) -> bool:
    """17.11: Eorl's Wedge may move and fight the turn it forms."""
    f = state["formations"][fid]
    if f.get("glory") and c02_units.on_map(rs, state, f["leader"]):  # 17.0: lost with Eorl
        return False
    return StandardRules.hooks._formed_this_turn(rs, state, fid)


def _check_form(rs, state: State, seat: str, args: tuple[str, ...]) -> None:
    kind, a, b, leader = args
    if c03_sequence.kind(rs, state) == "reinforce":
        c17_abilities._check_form_up(rs, state, seat, kind, a, b, leader)
        return
    c08_4_formations._check_form(rs, state, seat, (kind, a, b, leader))
    if seat == "shadow":
        for x in (a, b):
            if c02_units.army_of(rs, x) != "balchoth" or rs.units[x].type != "infantry":
                raise IllegalOrder(f"{x} is not Balchoth infantry: of the Shadow units only Balchoth infantry "
                                   "may form a Shield Wall", "8.41")


def _apply_form(rs, state: State, seat: str, args: tuple[str, ...], dice: Dice | None) -> list[Event]:
    kind, a, b, leader = args
    up = c03_sequence.kind(rs, state) == "reinforce"
    events = c08_4_formations._apply_form(rs, state, seat, (kind, a, b, leader), dice)
    if up:
        fid = c08_4_formations.formation_of(rs, state, a)
        state["formations"][fid]["dress"] = state["turn"]  # this turn's Special Ability Phase only
        events[0].public = events[0].public.replace("(8.4).", f"under Form up! (17.41); it may dress one hex "
                                                              f"(`dress {a} <hex>`).")
        events[0].section = "17.41"
    elif seat == "shadow":
        events[0].public = events[0].public.replace("(8.4).", "(8.4, 8.41).")
    return events


# ------------------------------------------------------------- rally
def check_rally_extra(rs, state: State, seat: str, leader: str, uid: str) -> None:
    """17.51 Despair: no Westernesse rally this turn, unless Arise, Arise! (17.21)."""
    if seat == "westernesse" and c17_abilities._effects(rs, state, "despair") and not _arise(rs, state, leader):
        raise IllegalOrder("Despair: no Westernesse unit may take a rally roll this turn (its leaders may "
                           "still move)", "17.51")


def _arise(rs, state: State, leader: str) -> bool:
    return any(e["leader"] == leader for e in c17_abilities._effects(rs, state, "arise"))


def _apply_rally(rs, state: State, seat: str, args: tuple[str, ...], dice: Dice | None) -> list[Event]:
    leader, uid = args
    if not _arise(rs, state, leader):
        return c08_3_rally._apply_rally(rs, state, seat, (leader, uid), dice)
    tries = state["ph"]["rally_tries"]
    tries[leader] = tries.get(leader, 0) + 1
    state["ph"]["rallied"].append(uid)
    state["units"][uid]["disrupted"] = False
    return [Event(public=f"{SIDE_TITLES[seat]}: {leader} rallies {uid}: automatic under Arise, Arise! (17.21).",
                  section="17.21")]
