"""16.2 Breaching: a catapult or Grond tries to breach a wall, gate or tower hexside in the Siege
Phase, on two dice by weapon, target and range. The order: ``breach <catapult|GRD> <hexside>``.
"""
from __future__ import annotations

from engine.core import Action, Event, IllegalOrder, InvalidOrder, State
from engine.dice import Dice
from engine.hexgrid import Hex, Hexside, distance
from engine.orders import Order
from engine.rulesets.gondor import c16_0_siege_phase
from engine.spi.charts import parse_totals

from .common import (INFANTRY_TYPES, _hexside)
from engine.rulesets.gondor import c15_city
from engine.rulesets.gondor import c16_1_catapults_grond
from engine.spi import c02_units
from engine.spi import c03_sequence
from engine.spi import c05_stacking


# ------------------------------------------------------------- orders
def _parse_breach(rs, state: State, seat: str, words: list[str]) -> tuple[str, ...]:
    if len(words) != 2:
        raise InvalidOrder("usage: `breach <catapult or GRD> <hexside>`, e.g. `breach SC1 1603/ne`")
    return (c02_units.resolve_unit(rs, words[0]), _hexside(words[1]))

# --- breach (16.2)
def _check_breach(rs, state: State, seat: str, args: tuple[str, ...]) -> None:
    uid, hs = args
    c16_0_siege_phase._siege_step(rs, state, seat, "breaching", "16.2")
    if seat != "sauron":
        raise IllegalOrder("only Sauron breaches the walls of Minas Tirith", "16.2")
    _breach_range(rs, state, seat, uid, hs)


def _breach_range(rs, state: State, seat: str, uid: str, hs: str) -> tuple[str, str, int]:
    """(weapon, target kind, range) of a legal breach attempt, else IllegalOrder."""
    side = Hexside.parse(hs)
    kind = rs.hexmap.hexsides.get(side)
    if kind is None:
        raise IllegalOrder(f"{hs} is not a wall, gate or tower hexside", "16.21")
    if c15_city._breached(rs, state, hs):
        raise IllegalOrder(f"{hs} is already breached", "16.27")
    u = rs.units[uid]
    if u.type == "grond":
        c02_units._own_on_map(rs, state, seat, uid)
        if not state.get("grond_active"):
            raise IllegalOrder("Grond must first be operated by the Lord of the Nazgul's spell", "16.28")
        if c16_1_catapults_grond._fired_this_turn(rs, state, uid):
            raise IllegalOrder("Grond has already struck this Game-Turn", "16.28")
        here = Hex.parse(state["units"][uid]["hex"])
        if here not in side.hexes():
            raise IllegalOrder(f"Grond must be next to {hs} (in one of its two hexes)", "16.28")
        occ = c05_stacking.occupancy(rs, state)
        if not any(rs.units[x].type == "troll" or "uruk" in rs.units[x].tags
                   for x in occ.get(str(here), ()) if rs.units[x].side == seat):
            raise IllegalOrder("a Troll or Uruk-Hai unit must be in Grond's hex", "16.28")
        if c16_0_siege_phase._outer_wall(rs, hs) and not c16_0_siege_phase._is_main_gate(rs, hs):
            raise IllegalOrder("the Outer Wall can never be breached, not even by Grond (15.23)", "15.23")
        return "grond", kind, 1
    here = c16_1_catapults_grond._own_catapult(rs, state, seat, uid, "16.21")
    if c16_0_siege_phase._is_main_gate(rs, hs):
        raise IllegalOrder("only Grond may breach the Main Gate (15.23)", "15.23")
    if c16_0_siege_phase._outer_wall(rs, hs):
        raise IllegalOrder("the Outer Wall can never be breached by siege equipment (15.23)", "15.23")
    a, b = side.hexes()
    near = min((a, b), key=lambda h: (distance(here, h), str(h)))
    rng = distance(here, near) + 1  # 16.23: adjacent to the hexside is range 1
    top = c16_0_siege_phase.siege_chart(rs, state)["breach_range"]
    if rng > top:
        raise IllegalOrder(f"{hs} is at range {rng} from {uid}; catapults reach walls at range {top} at most",
                           "16.23")
    m = c16_1_catapults_grond._clear_line(rs, here, near)
    if m is not None:
        raise IllegalOrder(f"catapults never fire through mountain hexes ({m})", "16.24")
    return "catapult", kind, rng


def breach_totals(rs, state: State, weapon: str, kind: str, rng: int) -> frozenset[int]:
    row = rs.charts_for(state)["breach"][weapon][kind]
    return parse_totals(row[min(rng, len(row)) - 1], 2, 12)


def _apply_breach(rs, state: State, seat: str, args: tuple[str, ...], dice: Dice | None) -> list[Event]:
    uid, hs = args
    weapon, kind, rng = _breach_range(rs, state, seat, uid, hs)
    state["siege"]["fired"][uid] = state["turn"]
    dice = Dice(state["dice"])
    a, b = dice.d6("breach"), dice.d6("breach")
    need = breach_totals(rs, state, weapon, kind, rng)
    need_txt = ", ".join(str(x) for x in sorted(need)) or "nothing"
    who = "Grond" if weapon == "grond" else uid
    head = (f"Sauron: {who} strikes the {kind} {hs} (range {rng}, needs {need_txt} on two dice): "
            f"{a}+{b}={a + b}")
    if a + b not in need:
        return [Event(public=head + ", no effect (16.22).", section="16.22", rolls=dice.rolls)]
    state["markers"].append({"type": "breached", "hexside": hs})
    text = head + ", BREACHED for the rest of the game (16.22, 16.27)."
    if weapon == "grond" and c16_0_siege_phase._is_main_gate(rs, hs):
        state["grond_breached_main"] = True
        text += " The Main Gate has fallen to Grond (19.11 B)."
    events = [Event(public=text, section="16.22", rolls=dice.rolls)]
    # 16.5: infantry stacked with the weapon, at range 1, may advance through at once
    if rng == 1:
        here = state["units"][uid]["hex"]
        side = Hexside.parse(hs)
        a_, b_ = side.hexes()
        there = str(b_ if str(a_) == here else a_)
        occ = c05_stacking.occupancy(rs, state)
        movers = [x for x in occ.get(here, ()) if rs.units[x].side == seat
                  and rs.units[x].type in INFANTRY_TYPES]
        if movers and not any(rs.units[x].side != seat and (rs.units[x].is_combat or rs.units[x].is_leader)
                              for x in occ.get(there, ())):
            state["ph"]["advance"] = {"seat": seat, "units": sorted(movers), "hex": there, "siege": True}
            ok = [m for m in sorted(movers) if c03_sequence._ok(rs, state, seat, Action("advance", (m, there)))]
            state["ph"]["advance"] = {"seat": seat, "units": ok, "hex": there, "siege": True} if ok else None
            if ok:
                events.append(Event(public=f"{' or '.join(ok)} may advance through the breach into {there} "
                                           f"(`advance <unit> {there}`, now or never, 16.5).", section="16.5"))
    return events


# the orders of this file (engine/orders.py), each naming its functions above
BREACH = Order("breach", "`breach <catapult or GRD> <hexside>`, e.g. `breach SC1 1603/ne`",
              parse=_parse_breach,
              check=_check_breach,
              apply=_apply_breach,
              listed_in=c16_0_siege_phase.legal_siege_orders,
              cases=("16.2",),
              dice=False)
