"""The Standard Rules' combat as Field of Celebrant amends it: missile fire (7.1, 7.12), melee against
any adjacent enemy combat unit (7.3, 7.31), fanatics (7.37), Guards fighting to the death (18.2), what
terrain and disarray do to an attack (13.21, 16.12, 16.22, 18.11).
"""
from __future__ import annotations

from engine.core import Event, IllegalOrder, State
from engine.dice import Dice
from engine.hexgrid import Hex, distance
from engine.spi.charts import morale_note
from engine.spi.common import _phrase
from engine.spi.standard import StandardRules
from engine.spi import c06_zoc
from engine.spi import c08_4_formations
from engine.rulesets.celebrant import c13_setup
from engine.rulesets.celebrant import c15_16_terrain
from engine.rulesets.celebrant import c17_abilities
from engine.spi import entry as spi_entry
from engine.spi import c07_1_fire
from engine.spi import c02_units
from engine.spi import c05_stacking


# ---------------------------------------------------------- combat rules
def _melee_targets(rs, state: State, uid: str, occ=None) -> list[str]:
    """7.31 (Amendment): any adjacent enemy combat unit, in its zone of control or not."""
    occ = occ if occ is not None else c05_stacking.occupancy(rs, state)
    h = Hex.parse(state["units"][uid]["hex"])
    side = rs.units[uid].side
    out = []
    for nb in h.neighbours():
        out.extend(x for x in occ.get(str(nb), ()) if rs.units[x].is_combat and rs.units[x].side != side)
    return out


def _can_fire(rs, state: State, uid: str) -> bool:
    if c13_setup.is_disordered(rs, state, uid) and not rs.raw(state)["disarray"].get("may_attack", False):
        return False
    return StandardRules.hooks._can_fire(rs, state, uid)


def _can_melee(rs, state: State, uid: str) -> bool:
    if c13_setup.is_disordered(rs, state, uid) and not rs.raw(state)["disarray"].get("may_attack", False):
        return False
    return StandardRules.hooks._can_melee(rs, state, uid)


def _check_fire(rs, state: State, seat: str, args: tuple[str, ...]) -> None:
    c13_setup._disorder_check(rs, state, seat, list(args[:-2]), "fire", "7.1")
    c07_1_fire._check_fire(rs, state, seat, args)


def _check_melee(rs, state: State, seat: str, args: tuple[str, ...]) -> None:
    uids, hx = list(args[:-2]), args[-1]
    c13_setup._disorder_check(rs, state, seat, uids, "melee", "7.3")
    spi_entry._check_melee(rs, state, seat, args)
    occ = c05_stacking.occupancy(rs, state)
    for uid in uids:
        if uid in state["ph"]["must"]:
            ex = c06_zoc.exerting(rs, state, Hex.parse(state["units"][uid]["hex"]), seat, occ)
            if ex and hx not in {state["units"][x]["hex"] for x in ex}:
                raise IllegalOrder(f"{uid} began the phase in the zone of control of {_phrase(sorted(ex))} and "
                                   "must attack one of them", "7.31")


def modify_attack(rs, state: State, attacker: str, target: str, kind: str, prof: dict) -> None:
    ua, ud = rs.units[attacker], rs.units[target]
    hd = state["units"][target]["hex"]
    t = c15_16_terrain.tec_row(rs, state, hd)
    if kind == "fire" and t.get("missile_armor"):
        prof["armor"] += t["missile_armor"]
        sec = "16.12" if rs.terrain(hd) == "watchtower" else "16.22"
        prof["notes"].append(f"defender in the {rs.terrain(hd)}: Armor Protection +{t['missile_armor']} ({sec})")
    if "warg" in ua.tags and ud.is_cavalry:
        prof["armor"] -= 1
        prof["notes"].append("Warg Riders against cavalry: Armor Protection -1 (18.11)")
    if "guard" in ud.tags and any(rs.units[x].is_leader and rs.units[x].side == ud.side
                                  for x in c05_stacking.occupancy(rs, state).get(hd, ())):
        prof["crt_mod"] += 1
        prof["notes"].append("To the Death: Guard stacked with a leader, CRT roll +1, 7 no effect (18.2)")
    if c13_setup.is_disordered(rs, state, target) and not state["units"][target].get("disrupted"):
        pen = rs.raw(state)["disarray"].get("morale_penalty", 0)
        if pen:
            morale_note(prof, -pen, f"defender Disordered: Morale -{pen} (13.21)")


def apply_result(rs, state: State, dice: Dice, target: str, res: tuple, attacker_hex: str | None,
                 kind: str) -> list[str]:
    res, pre = c15_16_terrain._riverbank_stand(rs, state, dice, target, res, attacker_hex)
    iron = c17_abilities._iron_fist_covers(rs, state, target)
    f = c08_4_formations.formation_of(rs, state, target)
    victims = list(state["formations"][f]["units"]) if f else [target]
    was = {v: state["units"][v].get("disrupted") for v in victims}
    lines = pre + StandardRules.hooks.apply_result(rs, state, dice, target, res, attacker_hex, kind)
    if iron and res:  # 17.61: ignore the Disrupted this result gives, not one the unit already had
        kept = [v for v in victims if c02_units.on_map(rs, state, v) and state["units"][v].get("disrupted")
                and not was[v]]
        for v in kept:
            state["units"][v]["disrupted"] = False
        if kept:
            lines.append(f"Iron Fist: {_phrase(kept)} not Disrupted (17.61)")
    return lines


def is_fanatic(rs, state: State, uid: str) -> bool:
    """17.71 Blood Lust: orcs within six hexes of the Chieftain at the end
        of the Shadow Movement Phase are fanatical in the Shadow Combat Phase."""
    if state["step"] != "E":
        return False
    return any(uid in e.get("units", []) for e in c17_abilities._effects(rs, state, "blood-lust"))


def _blood_lust_check(rs, state: State) -> list[Event]:
    """17.71: at the end of the Shadow Movement Phase, orcs within six hexes of the Chieftain."""
    events = []
    reach = rs.raw(state)["abilities"].get("blood_lust_reach", 6)
    for e in c17_abilities._effects(rs, state, "blood-lust"):
        if e.get("turn") != state["turn"]:
            continue
        here = state["units"][e["leader"]]["hex"]
        e["units"] = sorted(x for x in state["units"] if c02_units.army_of(rs, x) == "orcs" and rs.units[x].is_combat
                            and c02_units.on_map(rs, state, x) and distance(here, state["units"][x]["hex"]) <= reach)
        events.append(Event(public=f"Blood Lust: {len(e['units'])} orc units within {reach} hexes of "
                                   f"{e['leader']} are Fanatical in this Shadow Combat Phase (17.71, 7.37).",
                            section="17.71"))
    return events
