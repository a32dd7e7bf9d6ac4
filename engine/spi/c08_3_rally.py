"""8.3 Rally: a leader rallies a Disrupted unit within range in the Rally Phase, on the Leader
Rally Table (8.37) by his rally rating. The order: ``rally <leader> <unit>``.
"""
from __future__ import annotations

from typing import Iterator

from engine.core import Action, Event, IllegalOrder, InvalidOrder, State
from engine.dice import Dice
from engine.hexgrid import distance
from engine.orders import Order
from engine.spi import hooks
from engine.spi import c02_units
from engine.spi import c03_sequence


def leader_rating(rs, state: State, uid: str, for_rally: bool = True) -> int:
    """A leader's current Rally Rating: printed (or the option), the night
        rating at night where it has one, less Rally Points lost (19.2)."""
    u = rs.units[uid]
    base = rs.hooks.printed_rally(rs, state, uid)
    if c03_sequence.is_night(rs, state) and u.night_rally:
        base = u.night_rally
    ch = rs.charts_for(state)
    if c03_sequence.is_night(rs, state) and (u.tags & set(ch["night"].get("leader_bonus_tags", []))):
        base += ch["night"].get("leader_bonus", 0)
    r = base - state["units"][uid].get("rally_lost", 0)
    if for_rally and rs.hooks.demoralized(rs, state, c02_units.army_now(rs, state, uid)):
        r -= ch["demoralization"].get("rally_penalty", 0)
    return max(r, 0)


def _check_rally(rs, state: State, seat: str, args: tuple[str, ...]) -> None:
    leader, uid = args
    c03_sequence._need_kind(rs, state, ("rally",), "rallying", "8.3")
    ul = c02_units._own_on_map(rs, state, seat, leader)
    if not ul.is_leader:
        raise IllegalOrder(f"{leader} is not a leader", "8.3")
    u = c02_units._own_on_map(rs, state, seat, uid)
    if not u.is_combat:
        raise IllegalOrder(f"{uid} is not a combat unit", "8.3")
    if not state["units"][uid].get("disrupted"):
        raise IllegalOrder(f"{uid} is not Disrupted", "8.3")
    if uid in state["ph"]["rallied"]:
        raise IllegalOrder(f"{uid} has already been tried this Rally Phase", "8.3")
    ch = rs.charts_for(state)["rally"]
    if state["ph"]["rally_tries"].get(leader, 0) >= ch["per_leader"]:
        raise IllegalOrder(f"{leader} has tried {ch['per_leader']} rallies this phase already", "8.3")
    d = distance(state["units"][leader]["hex"], state["units"][uid]["hex"])
    if d > ch["range"]:
        raise IllegalOrder(f"{uid} is {d} hexes from {leader}; a leader rallies units within {ch['range']}", "8.3")
    for e in state["effects"]:
        if e.get("no_rally") and e.get("side") == seat:
            raise IllegalOrder(f"no {c02_units.title_of(rs, seat)} unit may be rallied while {e['title']} lasts",
                               e.get("section"))
        if e.get("frozen") and leader in e["frozen"]:
            raise IllegalOrder(f"{leader} is frozen by a spell and may not rally", e.get("section"))
    rs.hooks.check_rally_extra(rs, state, seat, leader, uid)


def _legal_rallies(rs, state: State, seat: str) -> Iterator[Action]:
    rng = rs.charts_for(state)["rally"]["range"]
    disrupted = sorted(x for x in state["units"] if hooks.side_of(rs, state, x) == seat and c02_units.on_map(rs, state, x)
                       and state["units"][x].get("disrupted") and x not in state["ph"]["rallied"])
    for leader in sorted(state["units"]):
        if hooks.side_of(rs, state, leader) != seat or not rs.units[leader].is_leader or not c02_units.on_map(rs, state, leader):
            continue
        for uid in disrupted:
            if distance(state["units"][leader]["hex"], state["units"][uid]["hex"]) <= rng:
                a = Action("rally", (leader, uid))
                if c03_sequence._ok(rs, state, seat, a):
                    yield a


def _apply_rally(rs, state: State, seat: str, args: tuple[str, ...], dice: Dice | None) -> list[Event]:
    leader, uid = args
    tries = state["ph"]["rally_tries"]
    tries[leader] = tries.get(leader, 0) + 1
    state["ph"]["rallied"].append(uid)
    rating = leader_rating(rs, state, leader)
    totals = rs.charts_for(state).rally_totals(rating)
    if totals == "auto":
        ok, how = True, "automatic"
    else:
        a, b = dice.d6("rally"), dice.d6("rally")
        ok = a + b in totals
        how = f"{a}+{b}={a + b}"
    if ok:
        state["units"][uid]["disrupted"] = False
    res = "rallied" if ok else "still Disrupted"
    return [Event(public=f"{c02_units.title_of(rs, seat)}: {leader} (Rally Rating {rating}) rallies {uid}: {how}, {res} (8.37).",
                  section="8.37")]


def _parse_rally(rs, state: State, seat: str, words: list[str]) -> tuple[str, ...]:
    if len(words) != 2:
        raise InvalidOrder(f"usage: {RALLY.usage}")
    return (c02_units.resolve_unit(rs, words[0]), c02_units.resolve_unit(rs, words[1]))


# the orders of this file (engine/orders.py), each naming its functions above
RALLY = Order("rally", "`rally <leader> <unit>`, e.g. `rally IMR GS1`",
              parse=_parse_rally,
              check=_check_rally,
              apply=_apply_rally,
              legal=_legal_rallies,
              cases=("8.3", "8.37"))
