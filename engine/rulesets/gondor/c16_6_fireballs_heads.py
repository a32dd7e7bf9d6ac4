"""16.6 Fireballs and 16.8 severed heads, hurled by catapults in the Siege Phase: range up to 4
(16.61), the landing and its scatter, fire counters; heads lower the defenders' morale (16.84).
The orders: ``fireball <catapult> at <hex>``, ``head <catapult> at <hex>``.
"""
from __future__ import annotations

from engine.core import Event, IllegalOrder, InvalidOrder, State
from engine.dice import Dice
from engine.hexgrid import Hex, distance
from engine.orders import Order
from engine.rulesets.gondor import c16_0_siege_phase
from engine.spi import c07_combat
from engine.rulesets.gondor import c16_1_catapults_grond
from engine.spi import c02_units
from engine.spi import c05_stacking
from engine.spi import common


def _parse_missile(rs, verb: str, words: list[str]) -> tuple[str, ...]:
    if len(words) != 3 or words[1].lower() != "at":
        raise InvalidOrder(f"usage: `{verb} <catapult> at <hex>`, e.g. `{verb} SC1 at 1806`")
    return (c02_units.resolve_unit(rs, words[0]), "at", common._hex_token(words[2]))


def _parse_fireball(rs, state: State, seat: str, words: list[str]) -> tuple[str, ...]:
    return _parse_missile(rs, "fireball", words)


def _parse_head(rs, state: State, seat: str, words: list[str]) -> tuple[str, ...]:
    return _parse_missile(rs, "head", words)

# --- fireballs and heads (16.6, 16.8)
def _check_fireball(rs, state: State, seat: str, args: tuple[str, ...]) -> None:
    c16_0_siege_phase._siege_step(rs, state, seat, "fireballs", "16.6")
    _missile_range(rs, state, seat, args[0], args[2], "16.61")


def _check_head(rs, state: State, seat: str, args: tuple[str, ...]) -> None:
    c16_0_siege_phase._siege_step(rs, state, seat, "severed heads", "16.8")
    if seat != "sauron":
        raise IllegalOrder("only Sauron hurls severed heads", "16.8")
    if state["siege"]["heads_left"] <= 0:
        raise IllegalOrder("all twelve severed heads have been thrown", "16.81")
    _missile_range(rs, state, seat, args[0], args[2], "16.82")


def _missile_range(rs, state: State, seat: str, uid: str, hx: str, section: str) -> int:
    here = c16_1_catapults_grond._own_catapult(rs, state, seat, uid, section)
    h = Hex.parse(hx)
    if h not in rs.hexmap:
        raise IllegalOrder(f"hex {hx} is off the map")
    d = distance(here, h)
    top = c16_0_siege_phase.siege_chart(rs, state)["fireball_range"]
    if d == 0 or d > top:
        raise IllegalOrder(f"{hx} is {d} hexes from {uid}; catapults hurl 1 to {top} hexes (counting the "
                           "target hex, not the catapult's)", "16.61")
    m = c16_1_catapults_grond._clear_line(rs, here, h)
    if m is not None:
        raise IllegalOrder(f"catapults never fire through mountain hexes ({m})", "16.61")
    return d


def _landing(rs, state: State, dice: Dice, uid: str, hx: str) -> tuple[Hex | None, str]:
    """16.63: where a missile thrown at ``hx`` lands, and how it got there."""
    ch = c16_0_siege_phase.siege_chart(rs, state)
    d = distance(state["units"][uid]["hex"], hx)
    target = Hex.parse(hx)
    if d not in ch["scatter_ranges"]:
        return target, f"range {d}, on target"
    roll = dice.d6("scatter?")
    if roll not in ch["scatter_rolls"]:
        return target, f"range {d}, die {roll}: on target"
    dirs = rs.charts_for(state)["scatter"]["directions"]
    sroll = dice.d6("scatter")
    land = target.neighbour(dirs[sroll - 1])
    where = str(land) if land in rs.hexmap else "off the map"
    return (land if land in rs.hexmap else None), (
        f"range {d}, die {roll}: it scatters; Scatter Diagram die {sroll} ({dirs[sroll - 1]}): {where}")


def _apply_fireball(rs, state: State, seat: str, args: tuple[str, ...], dice: Dice | None) -> list[Event]:
    uid, _, hx = args
    state["siege"]["fired"][uid] = state["turn"]
    dice = Dice(state["dice"])
    land, how = _landing(rs, state, dice, uid, hx)
    text = f"{c02_units.title_of(rs, seat)}: {uid} hurls a fireball at {hx} ({how})"
    if land is None:
        return [Event(public=text + "; it falls harmlessly off the map (16.63).", section="16.63",
                      rolls=dice.rolls)]
    lines = fireball_lands(rs, state, str(land))
    return [Event(public=text + f"; it lands in {land}: " + "; ".join(lines) + ".", section="16.6",
                  rolls=dice.rolls)]


def fireball_lands(rs, state: State, hx: str) -> list[str]:
    """16.65-16.67, 16.86: what a fireball landing in ``hx`` does."""
    lines = []
    occ = c05_stacking.occupancy(rs, state)
    ids = list(occ.get(hx, ()))
    heads = [m for m in state["markers"] if m.get("type") == "head" and m.get("hex") == hx]
    if heads:
        state["markers"] = [m for m in state["markers"] if m not in heads]
        lines.append(f"{len(heads)} severed head{'s' if len(heads) > 1 else ''} burned away "
                     "(the Demoralization Points stay, 16.86)")
    towers = [x for x in ids if rs.units[x].type == "siege_tower"]
    for x in sorted(ids):
        d = rs.units[x]
        if d.type in ("catapult", "cauldron", "siege_tower"):
            c07_combat.eliminate(rs, state, x)
            lines.append(f"{d.name} {x} destroyed")
        elif d.is_combat and towers:
            c07_combat.eliminate(rs, state, x)
            lines.append(f"{d.label()}, stacked with the siege tower, eliminated")
    for ldr in [x for x in ids if rs.units[x].is_leader and c02_units.on_map(rs, state, x)]:
        if not c05_stacking.combat_units_in(rs, state, hx):
            lines.extend(rs.hooks._displace_leader(rs, state, ldr))
    if not any(m.get("type") == "fire" and m.get("hex") == hx for m in state["markers"]):
        state["markers"].append({"type": "fire", "hex": hx})
    inside = rs.hexmap.in_city(Hex.parse(hx))
    lines.append("fire burns there " + ("for the rest of the game (16.66)" if inside else
                                         "until the next Siege Phase (16.66)"))
    if not any("destroyed" in ln or "eliminated" in ln for ln in lines):
        lines.insert(0, "no casualties (16.65)")
    return lines


def _apply_head(rs, state: State, seat: str, args: tuple[str, ...], dice: Dice | None) -> list[Event]:
    uid, _, hx = args
    state["siege"]["fired"][uid] = state["turn"]
    state["siege"]["heads_left"] -= 1
    dice = Dice(state["dice"])
    land, how = _landing(rs, state, dice, uid, hx)
    left = state["siege"]["heads_left"]
    text = f"Sauron: {uid} hurls a severed head at {hx} ({how})"
    sec = "16.8"
    if land is None or not rs.hexmap.in_city(land):
        end = "; it lands outside the city and is removed from play (16.85)"
        sec = "16.85"
    elif any(m.get("type") == "fire" and m.get("hex") == str(land) for m in state["markers"]):
        end = f"; it lands in {land}, on fire, and is consumed: no Demoralization Point (16.86)"
        sec = "16.86"
    elif any(rs.units[x].type == "cauldron" for x in c05_stacking.occupancy(rs, state).get(str(land), ())):
        end = f"; it lands in {land}, in a cauldron, and is lost: no Demoralization Point (16.86)"
        sec = "16.86"
    else:
        state["markers"].append({"type": "head", "hex": str(land)})
        state["dem"]["garrison"] = state["dem"].get("garrison", 0) + 1
        end = (f"; it lands in {land}: +1 garrison Demoralization Point (16.83); Westernesse units there "
               "defend one Morale grade worse (16.84)")
    return [Event(public=text + end + f". {left} head{'s' if left != 1 else ''} left (16.81).", section=sec,
                  rolls=dice.rolls)]


# the orders of this file (engine/orders.py), each naming its functions above
FIREBALL = Order("fireball", "`fireball <catapult> at <hex>`, e.g. `fireball SC1 at 1806`",
              parse=_parse_fireball,
              check=_check_fireball,
              apply=_apply_fireball,
              listed_in=c16_0_siege_phase.legal_siege_orders,
              cases=("16.6",),
              dice=False)
HEAD = Order("head", "`head <catapult> at <hex>`, e.g. `head SC1 at 1806`",
              parse=_parse_head,
              check=_check_head,
              apply=_apply_head,
              listed_in=c16_0_siege_phase.legal_siege_orders,
              cases=("16.8",),
              dice=False)
