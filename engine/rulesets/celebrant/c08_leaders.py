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


# ------------------------------------------------------- 4.27 and 8.1
def may_enter_enemy_leaders(self, state: State, uids: list[str]) -> bool:
    """4.27 (Amendment): combat units may enter a hex holding only enemy leaders."""
    return any(self.units[u].is_combat for u in uids)


def after_move(self, state: State, seat: str, uids: list[str], trail: list[str]) -> list[Event]:
    """8.1 (Amendment): enemy leaders alone in a hex a combat unit enters fly
        to the nearest friendly combat unit of their own army."""
    events: list[Event] = []
    if not any(self.units[u].is_combat for u in uids):
        return events
    for hx in hooks.entered(self, state, trail):
        lone = [x for x in sorted(state["units"]) if self.on_map(state, x) and state["units"][x]["hex"] == hx
                and self.units[x].is_leader and self.units[x].side != seat]
        for ldr in lone:
            lines = self._displace_leader(state, ldr)
            events.append(Event(public=f"{ldr} was alone in {hx}: " + "; ".join(lines) + ".", section="8.1"))
    return events


def _displace_leader(self, state: State, ldr: str) -> list[str]:
    """8.1/8.24: to the nearest friendly combat unit of the same army (the
        same-coloured counter); failing that any friendly combat unit (ties:
        the lowest hex number); with none at all the leader is lost."""
    side, army = self.units[ldr].side, self.army_of(ldr)
    here = state["units"][ldr]["hex"]
    best = None
    for same in (True, False):
        for uid in sorted(state["units"]):
            u = self.units[uid]
            if u.side == side and u.is_combat and self.on_map(state, uid) and (not same or self.army_of(uid) == army):
                key = (distance(here, state["units"][uid]["hex"]), state["units"][uid]["hex"])
                if best is None or key < best:
                    best = key
        if best is not None:
            break
    if best is None:
        r = c08_3_rally.leader_rating(self, state, ldr, for_rally=False)
        return [self._leader_loss(state, ldr, r) + " (no friendly unit to join, 8.1)"]
    state["units"][ldr]["hex"] = best[1]
    return [f"{ldr} flies to the nearest friendly unit of its army, in {best[1]} (8.1)"]


# ---------------------------------------------------------- formations
def may_form(self, state: State, seat: str, kind: str) -> bool:
    """8.41: of the Shadow units, only Balchoth infantry may form, and only a Shield Wall."""
    return seat == "westernesse" or kind == "shieldwall"


def _formed_this_turn(self, state: State, fid: str) -> bool:
    """17.11: Eorl's Wedge may move and fight the turn it forms."""
    f = state["formations"][fid]
    if f.get("glory") and self.on_map(state, f["leader"]):  # 17.0: lost with Eorl
        return False
    return StandardRules._formed_this_turn(self, state, fid)


def _check_form(self, state: State, seat: str, args: tuple[str, ...]) -> None:
    kind, a, b, leader = args
    if self.kind(state) == "reinforce":
        self._check_form_up(state, seat, kind, a, b, leader)
        return
    StandardRules._check_form(self, state, seat, (kind, a, b, leader))
    if seat == "shadow":
        for x in (a, b):
            if self.army_of(x) != "balchoth" or self.units[x].type != "infantry":
                raise IllegalOrder(f"{x} is not Balchoth infantry: of the Shadow units only Balchoth infantry "
                                   "may form a Shield Wall", "8.41")


def _apply_form(self, state: State, seat: str, args: tuple[str, ...], dice: Dice | None) -> list[Event]:
    kind, a, b, leader = args
    up = self.kind(state) == "reinforce"
    events = StandardRules._apply_form(self, state, seat, (kind, a, b, leader), dice)
    if up:
        fid = c08_4_formations.formation_of(self, state, a)
        state["formations"][fid]["dress"] = state["turn"]  # this turn's Special Ability Phase only
        events[0].public = events[0].public.replace("(8.4).", f"under Form up! (17.41); it may dress one hex "
                                                              f"(`dress {a} <hex>`).")
        events[0].section = "17.41"
    elif seat == "shadow":
        events[0].public = events[0].public.replace("(8.4).", "(8.4, 8.41).")
    return events


# ------------------------------------------------------------- rally
def check_rally_extra(self, state: State, seat: str, leader: str, uid: str) -> None:
    """17.51 Despair: no Westernesse rally this turn, unless Arise, Arise! (17.21)."""
    if seat == "westernesse" and self._effects(state, "despair") and not self._arise(state, leader):
        raise IllegalOrder("Despair: no Westernesse unit may take a rally roll this turn (its leaders may "
                           "still move)", "17.51")


def _arise(self, state: State, leader: str) -> bool:
    return any(e["leader"] == leader for e in self._effects(state, "arise"))


def _apply_rally(self, state: State, seat: str, args: tuple[str, ...], dice: Dice | None) -> list[Event]:
    leader, uid = args
    if not self._arise(state, leader):
        return StandardRules._apply_rally(self, state, seat, (leader, uid), dice)
    tries = state["ph"]["rally_tries"]
    tries[leader] = tries.get(leader, 0) + 1
    state["ph"]["rallied"].append(uid)
    state["units"][uid]["disrupted"] = False
    return [Event(public=f"{SIDE_TITLES[seat]}: {leader} rallies {uid}: automatic under Arise, Arise! (17.21).",
                  section="17.21")]
