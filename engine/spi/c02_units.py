"""2.0 The units and the sides: whether a unit is on the map, the army it counts for, a seat's enemy and
title, a unit of the seat's own on the map. Functions of the ruleset, called by module
(``c02_units.on_map(rs, state, uid)``; issue 43)."""
from __future__ import annotations

from engine.core import AmbiguousOrder, IllegalOrder, State
from engine.units import Ratings, UnitDef
from engine.spi import hooks


def ratings(rs, state: State, uid: str) -> Ratings | None:
    """A unit's ratings now (2.0): its counter's, or its reduced side's once it is reduced. The standard
    ``Hooks.ratings``; a game amends it (Gondor 16.12: a catapult's; Sauron 17.11: the Beast's)."""
    u = rs.units[uid]
    if state["units"][uid].get("reduced"):
        return u.reduced_ratings()
    return u.ratings


def enemy(rs, seat: str) -> str:
    return next(s for s in rs.seats if s != seat)


def title_of(rs, seat: str) -> str:
    return rs.side_titles.get(seat, seat)


def on_map(rs, state: State, uid: str) -> bool:
    return state["units"][uid]["status"] == "map"


def army_of(rs, uid: str) -> str:
    u = rs.units[uid]
    return u.army or u.side


def army_now(rs, state: State, uid: str) -> str:
    """The army a unit counts for now: its own, or, once control passed to another seat
    (``side_of``; Sauron 16.69), that seat's, whose demoralization it then shares."""
    turned = state.get("turned")
    if turned and uid in turned:
        return turned[uid]
    return army_of(rs, uid)


def _own_on_map(rs, state: State, seat: str, uid: str) -> UnitDef:
    u = rs.units[uid]
    if hooks.side_of(rs, state, uid) != seat:
        raise IllegalOrder(f"{uid} is not yours")
    if not on_map(rs, state, uid):
        st = state["units"][uid]["status"]
        raise IllegalOrder(f"{uid} is not on the map ({st})")
    return u


def unit_record(rs, u: UnitDef) -> dict:
    rec: dict = {"hex": None, "status": "reinforcement" if u.setup == "reinforcement" else "pool"}
    if u.ratings:
        rec.update(reduced=False, disrupted=False, dem_paid=0)
    if u.is_leader:
        rec["rally_lost"] = 0
        if u.magic:
            rec["magic"] = u.magic
    return rec


def resolve_unit(rs, token: str) -> str:
    t = token.upper()
    if t in rs.units:
        return t
    matches = sorted(u for u in rs.units if u.startswith(t)) if t else []
    if len(matches) > 1:
        raise AmbiguousOrder(f"`{token[:12]}` could be {', '.join(matches[:8])}{'…' if len(matches) > 8 else ''}",
                             candidates=matches)
    if len(matches) == 1:
        return matches[0]
    raise IllegalOrder(f"there is no unit `{token[:12]}` in this game")

