"""15.0 Rivers and riverbanks and 16.0 ruins: the Anduin and the Limlight (15.1), a stand on the
riverbank (15.22), the watchtower that projects no zone of control (16.11) and its defence (16.12),
the landing closed to cavalry (16.21, 16.22).
"""
from __future__ import annotations

from functools import cached_property

from engine.core import State
from engine.dice import Dice
from engine.hexgrid import Hex, distance
from engine.spi.standard import StandardRules
from engine.spi import c07_5_retreat
from engine.spi import c08_3_rally
from engine.spi import c08_4_formations
from engine.rulesets.celebrant import c17_abilities
from engine.spi import c02_units


def terrain(rs, hx: str | Hex | None) -> str | None:
    if hx is None:
        return None
    h = hx if isinstance(hx, Hex) else Hex.parse(hx)
    info = rs.hexmap.hexes.get(h)
    return info.terrain if info else None


def tec_row(rs, state: State, hx: str | Hex | None) -> dict:
    t = rs.terrain(hx)
    return rs.raw(state)["tec"].get(t, {}) if t else {}


# ---------------------------------------------------------- terrain rules
@cached_property
def _landing_cache(rs) -> dict:
    return {}


def _cavalry_closed(rs, state: State) -> frozenset[Hex]:
    tec = rs.raw(state)["tec"]
    key = id(tec)
    c = rs._landing_cache
    if key not in c:
        c[key] = frozenset(h for h, i in rs.hexmap.hexes.items()
                           if tec.get(i.terrain, {}).get("cavalry_passable", True) is False)
    return c[key]


def extra_blocked(rs, state: State, seat: str, uids: list[str]) -> set[Hex]:
    """16.21: the landing is impassable to cavalry."""
    if any(rs.units[u].is_cavalry for u in uids):
        return set(_cavalry_closed(rs, state))
    return set()


def _why_unreachable(rs, state: State, seat: str, uids: list[str], dest: str) -> str:
    h = Hex.parse(dest)
    if h in _cavalry_closed(rs, state) and any(rs.units[u].is_cavalry for u in uids):
        return f"{dest} is the landing: impassable to cavalry (16.21)"
    return StandardRules.hooks._why_unreachable(rs, state, seat, uids, dest)


def _why_section(rs, state: State, seat: str, hx: str, why: str) -> str:
    if "(16.21)" in why:
        return "16.21"
    return StandardRules.hooks._why_section(rs, state, seat, hx, why)


@cached_property
def _no_zoc_cache(rs) -> dict:
    return {}


def _no_zoc(rs, state: State) -> frozenset[Hex]:
    key = state["options"].get("charts", "")
    c = rs._no_zoc_cache
    if key not in c:
        tec = rs.raw(state)["tec"]
        c[key] = frozenset(h for h, i in rs.hexmap.hexes.items()
                           if tec.get(i.terrain, {}).get("zoc", True) is False)
    return c[key]


def zoc_through(rs, state: State, a: Hex, b: Hex) -> bool:
    """16.11: no zone of control extends into or from the watchtower hex."""
    s = _no_zoc(rs, state)
    return a not in s and b not in s


def _riverbank_stand(rs, state: State, dice: Dice, target: str, res: tuple,
                     attacker_hex: str | None) -> tuple[tuple, list[str]]:
    """15.22: undisrupted infantry on a riverbank with nowhere to retreat
        but the river ignores r1, and r2 on a successful rally check."""
    u = rs.units[target]
    r = state["units"][target]
    n = 2 if "r2" in res else (1 if "r1" in res else 0)
    if not n or not u.is_infantry or r.get("disrupted") or rs.terrain(r["hex"]) != "riverbank":
        return res, []
    f = c08_4_formations.formation_of(rs, state, target)
    victims = list(state["formations"][f]["units"]) if f else [target]
    if c07_5_retreat.retreat_options(rs, state, victims, n, attacker_hex):
        return res, []
    if n == 1:
        return tuple(x for x in res if x != "r1"), [f"{target} stands on the riverbank: r1 ignored (15.22)"]
    if c17_abilities._effects(rs, state, "despair") and u.side == "westernesse":
        return res, [f"{target} may take no rally check on the riverbank under Despair (17.51)"]
    here = r["hex"]
    ratings = [c08_3_rally.leader_rating(rs, state, x) for x in sorted(state["units"])
               if rs.units[x].is_leader and rs.units[x].side == u.side and c02_units.on_map(rs, state, x)
               and distance(state["units"][x]["hex"], here) <= 1]
    rating = max(ratings) if ratings else rs.raw(state)["riverbank"].get("rally", 2)
    totals = rs.charts_for(state).rally_totals(rating)
    if totals == "auto":
        ok, how = True, "automatic"
    else:
        a, b = dice.d6("riverbank rally"), dice.d6("riverbank rally")
        ok, how = a + b in totals, f"{a}+{b}={a + b}"
    if ok:
        return (tuple(x for x in res if x != "r2"),
                [f"{target} stands on the riverbank: rally check (rating {rating}) {how}, r2 ignored (15.22)"])
    return res, [f"{target} on the riverbank: rally check (rating {rating}) {how} fails (15.22)"]


def adjust_result(rs, state: State, target: str, res: tuple, prof: dict) -> tuple:
    """16.12: in the watchtower r1 is ignored (a 1/2E with it still applies)
        and r2 is read as r1; a unit that does not retreat is not disrupted."""
    t = tec_row(rs, state, state["units"][target]["hex"])
    if t.get("ignore_r1") and "r1" in res:
        res = tuple(x for x in res if x != "r1")
    if t.get("r2_to_r1") and "r2" in res:
        res = tuple("r1" if x == "r2" else x for x in res)
    return res
