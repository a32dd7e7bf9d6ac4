"""7.2 Leader (individual) combat: a leader attacks an enemy leader in or next to his hex, once a
phase (7.24), on the leader combat table (7.25). The order: ``duel <leader> <enemy leader>``.
"""
from __future__ import annotations

from typing import Iterator

from engine.core import Action, Event, IllegalOrder, InvalidOrder, State
from engine.dice import Dice
from engine.hexgrid import Hex, distance
from engine.orders import Order
from engine.spi import c07_combat
from engine.spi import c08_3_rally
from engine.spi import hooks
from engine.spi import c02_units
from engine.spi import c03_sequence


def _check_duel(rs, state: State, seat: str, args: tuple[str, ...]) -> None:
    a, b = args
    c07_combat._combat_phase_check(rs, state, seat, "duel", "7.2")
    if c03_sequence.phasing(rs, state) != seat:
        raise IllegalOrder("only the phasing side starts leader combat", "7.2")
    ua = c02_units._own_on_map(rs, state, seat, a)
    if not ua.is_leader:
        raise IllegalOrder(f"{a} is not a leader", "7.2")
    ub = rs.units[b]
    if not ub.is_leader or hooks.side_of(rs, state, b) == seat:
        raise IllegalOrder(f"{b} is not an enemy leader", "7.2")
    if not c02_units.on_map(rs, state, b):
        raise IllegalOrder(f"{b} is not on the map", "7.2")
    if a in state["ph"]["dueled"]:
        raise IllegalOrder(f"{a} has already fought a leader combat this phase", "7.24")
    ha, hb = Hex.parse(state["units"][a]["hex"]), Hex.parse(state["units"][b]["hex"])
    if ha != hb and (ha.distance(hb) != 1 or not rs.hooks.zoc_through(rs, state, hb, ha)):
        raise IllegalOrder(f"{b} must be in {a}'s hex or adjacent to it (not through a wall)", "7.2")


def _apply_duel(rs, state: State, seat: str, args: tuple[str, ...], dice: Dice | None) -> list[Event]:
    a, b = args
    state["ph"]["segment"] = "duel"
    state["ph"]["dueled"].append(a)
    ra = c08_3_rally.leader_rating(rs, state, a, for_rally=False) + rs.hooks.duel_modifier(rs, state, a, b)
    rb = c08_3_rally.leader_rating(rs, state, b, for_rally=False) + rs.hooks.duel_modifier(rs, state, b, a)
    diff = ra - rb
    roll = dice.d6("leader combat")
    la, lb = rs.charts_for(state).leader_combat_cell(diff, roll)
    parts = []
    for who, cell in ((a, la), (b, lb)):
        if cell == "-":
            continue
        r = c08_3_rally.leader_rating(rs, state, who, for_rally=False)
        parts.append(rs.hooks._leader_loss(rs, state, who, r if cell == "k" else int(cell)))
    res = "; ".join(parts) or "no effect"
    return [Event(public=f"{c02_units.title_of(rs, seat)}: leader combat, {a} ({ra}) against {b} ({rb}), differential "
                         f"{diff:+d}, die {roll}: {res} (7.25).", section="7.25")]


def _parse_duel(rs, state: State, seat: str, words: list[str]) -> tuple[str, ...]:
    if len(words) != 2:
        raise InvalidOrder(f"usage: {DUEL.usage}")
    return (c02_units.resolve_unit(rs, words[0]), c02_units.resolve_unit(rs, words[1]))


def _legal_duels(rs, state: State, seat: str) -> Iterator[Action]:
    if c03_sequence.kind(rs, state) != "combat" or c03_sequence.phasing(rs, state) != seat or state["ph"]["segment"] == "melee":
        return
    mine = sorted(x for x in state["units"] if hooks.side_of(rs, state, x) == seat and c02_units.on_map(rs, state, x))
    for uid in mine:
        if not rs.units[uid].is_leader or uid in state["ph"]["dueled"]:
            continue
        h = state["units"][uid]["hex"]
        for other in sorted(state["units"]):
            o = rs.units[other]
            if o.is_leader and hooks.side_of(rs, state, other) != seat and c02_units.on_map(rs, state, other) \
                    and distance(h, state["units"][other]["hex"]) <= 1:
                a = Action("duel", (uid, other))
                if c03_sequence._ok(rs, state, seat, a):
                    yield a


# the orders of this file (engine/orders.py), each naming its functions above
DUEL = Order("duel", "`duel <leader> <enemy leader>`, e.g. `duel IMR GOT`",
              parse=_parse_duel,
              check=_check_duel,
              apply=_apply_duel,
              legal=_legal_duels,
              cases=("7.2", "7.24", "7.25"))
