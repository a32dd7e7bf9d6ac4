"""15.0 Minas Tirith: walls, gates and levels as hexside features (15.1x), what crossing them costs
and where zones of control reach through them, the gates marked when passed (15.15), Westernesse
movement inside the city (15.21-15.22); tunnels (15.24).
"""
from __future__ import annotations

from engine.core import Event, InvalidOrder, State
from engine.hexgrid import Hex
from engine.spi.charts import MORALES, shift_morale

from .common import TUNNEL_RULES
from engine.spi import c08_4_formations
from engine.rulesets.gondor import c16_4_towers_ladders
from engine.rulesets.gondor import c20_victory
from engine.spi import c02_units


# ------------------------------------------------------------ the city
def _side_feature(rs, state: State, a: Hex, b: Hex) -> tuple[str | None, str]:
    return rs.hexmap.side_index.get((a, b), (None, ""))


def _breached(rs, state: State, hs: str) -> bool:
    return any(m.get("type") == "breached" and m.get("hexside") == hs for m in state["markers"])


def hexside_rule(rs, state: State, uids: list[str], a: Hex, b: Hex,
                 retreat: bool = False) -> float | str | None:
    kind, hs = _side_feature(rs, state, a, b)
    if kind is None:
        return 0
    seat = rs.units[uids[0]].side
    mounted = any(rs.units[u].is_mounted for u in uids)
    siege = any(rs.units[u].is_siege for u in uids)
    if kind == "gate" and (state["gates"].get(hs) == seat or _breached(rs, state, hs)):
        return 0  # 15.15: free passage through a gate your side controls
    if mounted or siege:
        return None  # 15.22, 16.48: only through gates
    if _breached(rs, state, hs):
        return 0  # 16.4: a breach may always be crossed
    la, lb = rs.hexmap.level(a), rs.hexmap.level(b)
    if lb < la:
        return "all"  # 15.13: down through a wall costs the whole allowance
    if not retreat:  # 16.41, 16.43 (never in a retreat: errata 7.55)
        climb = c16_4_towers_ladders.scaling_cost(rs, state, seat, a, hs)
        if climb is not None:
            return climb
    return None  # 15.12: never up through an unbreached wall, tower or uncontrolled gate


def why_hexside(rs, state: State, uids: list[str], a: Hex, b: Hex) -> str:
    kind, hs = _side_feature(rs, state, a, b)
    mounted = any(rs.units[u].is_mounted for u in uids)
    if kind == "gate" and not mounted:
        return f"the gate {hs} is not controlled by your side: it is a wall to you (15.15)"
    if mounted:
        return f"cavalry and Mumakil never cross a wall or tower hexside ({hs}); only controlled gates (15.22)"
    if any(rs.units[u].is_siege for u in uids):
        return f"siege equipment crosses walls only through breached or controlled gates ({hs}) (16.48)"
    return (f"units never move up through an unbreached {kind} hexside ({hs}) without siege towers "
            "or ladders (15.12)")


def zoc_through(rs, state: State, a: Hex, b: Hex) -> bool:
    return rs.hooks.zoc_through_fn(rs, state)(a, b)


def zoc_through_fn(rs, state: State):
    """Whether a zone of control extends from ``a`` into adjacent ``b``: not through a wall, tower or gate
    hexside (15.1), unless it is breached, or (16.44) ``a`` holds a siege tower or a ladder against it (from
    either side too, when the game reads 16.44 both ways); the open hexsides worked out once."""
    both, from_hex = c16_4_towers_ladders._zoc_open_walls(rs, state)
    idx = rs.hexmap.side_index

    def through(a: Hex, b: Hex) -> bool:
        f = idx.get((a, b))
        return f is None or f[1] in both or (str(a), f[1]) in from_hex
    return through


def movement_allowance(rs, state: State, uid: str, ma: float) -> float:
    """15.21 a defender's allowance in the city; 16.75 an oil carrier's; 16.72 one that picked up oil on its
    way (an entry of Gondor's ``MOVEMENT_ALLOWANCE``, after the Banner's)."""
    u = rs.units[uid]
    h = state["units"][uid]["hex"]
    if u.side == "westernesse" and u.is_combat and h and rs.hexmap.in_city(Hex.parse(h)):
        city = rs.charts_for(state)["city"]["westernesse_allowance"]  # 15.21
        ma = min(ma, city) if c08_4_formations.formation_of(rs, state, uid) else city
    if state["units"][uid].get("oil_from"):
        ma -= 1  # 16.75: carrying oil, real or dummy
    if uid in state["ph"].get("resume", ()):  # 16.72: it picked up oil on its way and moves off
        ma = max(0, ma - state["ph"]["spent"].get(uid, 0))
    return ma


def on_enter(rs, state: State, seat: str, uids: list[str], trail: list[str], how: str) -> list[Event]:
    """15.15: the last side to occupy or pass through both hexes of a gate controls it, by a move of its
    combat units, a retreat or an advance (an entry of Gondor's ``ON_ENTER``)."""
    if how == "move" and not any(rs.units[u].is_combat for u in uids):
        return []
    return [Event(public=t, section="15.15") for t in mark_gates(rs, state, seat, trail)]


def mark_gates(rs, state: State, seat: str, trail: list[str]) -> list[str]:
    """15.15 for any passage (a move, an advance, a retreat): the side whose
        combat unit went through both hexes of a gate now controls it."""
    out = []
    for i in range(len(trail) - 1):
        kind, hs = _side_feature(rs, state, Hex.parse(trail[i]), Hex.parse(trail[i + 1]))
        if kind == "gate" and state["gates"].get(hs) != seat:
            state["gates"][hs] = seat
            out.append(f"{c02_units.title_of(rs, seat)} now controls the gate {hs} (15.15).")
    return out


# ----------------------------------------------------------- 15.24 tunnels
def _tunnel_rule(rs, state: State) -> str:
    return c20_victory._cmd(rs, state, "tunnel").get("rule", "morale-w")


def _check_tunnel_rule(rs, state: State) -> None:
    rule = _tunnel_rule(rs, state)
    if rule not in TUNNEL_RULES:
        raise InvalidOrder(f"[tunnel] rule must be one of {', '.join(TUNNEL_RULES)}; not `{rule}`")


def modify_attack(rs, state: State, attacker: str, target: str, kind: str, prof: dict) -> None:
    hx = state["units"][target]["hex"]
    info = rs.hexmap.hexes.get(Hex.parse(hx)) if hx else None
    if info is None or not info.tunnel:
        return
    rule = _tunnel_rule(rs, state)
    if rule == "none":
        return
    # 15.24 (ruling): the tunnel replaces the defender's printed rating;
    # every modifier (disruption, formation, siege...) still applies to it
    base = rs.hooks.ratings(rs, state, target)
    if rule == "morale-w":
        better = MORALES.index(base.morale) - MORALES.index(prof["morale"])
        prof["morale"] = shift_morale("W", better)
        prof["notes"].append("defender in a tunnel: Morale W whatever its rating (15.24, read as Morale)")
    else:
        n = int(rule[-1])
        prof["armor"] = n + (prof["armor"] - base.armor)
        prof["notes"].append(f"defender in a tunnel: Armor Protection {n} whatever its rating (15.24)")
