"""5.0 Stacking: one combat unit per hex, a formation two, one piece of siege equipment; 4.27 no
entering a hex that holds enemy units.
"""
from __future__ import annotations

from engine.core import IllegalOrder, State
from engine.spi.common import _phrase
from engine.spi import c08_4_formations
from engine.spi import hooks


def _check_stacking(rs, state: State, seat: str, uids: list[str], hx: str, occ) -> None:
    ch = rs.charts_for(state)["stacking"]
    present = [x for x in occ.get(hx, ()) if x not in uids]
    leaders_block = not rs.hooks.may_enter_enemy_leaders(rs, state, uids)
    if any(hooks.side_of(rs, state, x) != seat and (rs.units[x].is_combat or (leaders_block and rs.units[x].is_leader))
           for x in present):
        raise IllegalOrder(f"hex {hx} holds enemy units", "4.27")
    combat = [x for x in present + uids if rs.units[x].is_combat]
    forms = {c08_4_formations.formation_of(rs, state, x) for x in combat}
    limit = ch["formation_units"] if len(forms) == 1 and None not in forms else ch["combat_units"]
    if len(combat) > limit:
        raise IllegalOrder(f"hex {hx} would hold {len(combat)} combat units ({_phrase(sorted(combat))}); "
                           f"one combat unit per hex, a formation two", "5.0")
    siege = [x for x in present + uids if rs.units[x].is_siege]
    if len(siege) > ch.get("siege_equipment", 1):
        raise IllegalOrder(f"hex {hx} would hold more than one piece of siege equipment", "5.0")


def occupancy(rs, state: State) -> dict[str, list[str]]:
    occ: dict[str, list[str]] = {}
    get = occ.get
    for uid, r in state["units"].items():
        hx = r["hex"]
        if hx is not None and r["status"] == "map":
            here = get(hx)
            if here is None:
                occ[hx] = [uid]
            else:
                here.append(uid)
    return occ


def combat_units_in(rs, state: State, hx: str, occ=None) -> list[str]:
    occ = occ if occ is not None else occupancy(rs, state)
    return [x for x in occ.get(hx, ()) if rs.units[x].is_combat]


def side_in(rs, state: State, hx: str, occ=None) -> str | None:
    occ = occ if occ is not None else occupancy(rs, state)
    for x in occ.get(hx, ()):
        if rs.units[x].is_combat or rs.units[x].is_leader:
            return hooks.side_of(rs, state, x)
    return None
