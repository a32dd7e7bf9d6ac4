"""16.7 Boiling oil: cauldrons and oil counters (16.71-16.73), carried and taken, poured by a
carrier's secret standing order during Sauron's movement (16.74), a carrier's armor (16.75).
The orders: ``pickup <unit> <cauldron>``, ``pour <unit> any|towers|hold``.

Boiling oil in play by post (16.74). Oil is poured *during Sauron's movement
phase*, when the Westernesse player is not at the table. Each carrier holds a
*secret* standing order: ``hold`` (the default: never), ``any`` (pour on the
first enemy unit or siege tower that ends a move adjacent to and below it, or
stands there when the phase begins) or ``towers`` (only on a hex holding a
siege tower). The bot carries it out at once. The order is secret (the
public reads only that Westernesse gave one; ``POUR.redact`` masks it in
the channel, the log and an export until the game is over), so a carrier
that does not pour may be holding real oil or carrying a dummy: a dummy's
order never fires, silently. Nothing Sauron sees (text, timing, dice, undo
rights) differs until real oil is poured, and then only the pour is seen.
"""
from __future__ import annotations

from functools import cached_property

from engine.core import Event, IllegalOrder, InvalidOrder, State
from engine.hexgrid import Hex
from engine.orders import Order, secret
from engine.rulesets.gondor import c16_0_siege_phase

from .common import POUR_MODES
from engine.spi import c06_zoc
from engine.spi import c07_combat
from engine.spi import hooks
from engine.spi import c02_units
from engine.spi import c03_sequence
from engine.spi import c05_stacking


# ------------------------------------------------------- oil carriers
def on_eliminate(rs, state: State, uid: str, here: str | None) -> None:
    """16.72: the oil goes with its carrier (an entry of Gondor's ``ON_ELIMINATE``, after the Banner's)."""
    if state["units"][uid].get("oil_from"):
        state["units"][uid]["oil_from"] = None  # the oil goes with its carrier
        state["siege"]["pour"].pop(uid, None)


def _carriers(rs, state: State) -> list[str]:
    return sorted(u for u, r in state["units"].items() if r.get("oil_from") and r["status"] == "map")


def _pour_targets(rs, state: State, carrier: str, mode: str, only: str | None = None) -> list[str]:
    here = Hex.parse(state["units"][carrier]["hex"])
    lv = rs.hexmap.level(here)
    occ = c05_stacking.occupancy(rs, state)
    out = []
    for nb in here.neighbours():
        hx = str(nb)
        if only is not None and hx != only:
            continue
        if nb not in rs.hexmap or rs.hexmap.level(nb) >= lv:
            continue
        ids = occ.get(hx, ())
        tower = any(rs.units[x].type == "siege_tower" and rs.units[x].side == "sauron" for x in ids)
        unit = any(rs.units[x].is_combat and rs.units[x].side == "sauron" for x in ids)
        if (mode == "towers" and tower) or (mode == "any" and (tower or unit)):
            out.append((not tower, hx))
    return [h for _, h in sorted(out)]


def pour_oil(rs, state: State, only: str | None = None) -> list[Event]:
    """16.74: carriers of real oil act on their standing orders. Dummy
        carriers are skipped without a trace (no text, no dice, no reveal)."""
    if c03_sequence.kind(rs, state) != "move" or c03_sequence.phasing(rs, state) != "sauron":
        return []
    real = set(state["hidden"].get("real_cauldrons", ()))
    events = []
    for c in _carriers(rs, state):
        rec = state["units"][c]
        mode = state["siege"]["pour"].get(c, "hold")
        if mode == "hold" or rec["oil_from"] not in real:
            continue
        targets = _pour_targets(rs, state, c, mode, only)
        if not targets:
            continue
        hx = targets[0]
        ids = c05_stacking.occupancy(rs, state).get(hx, [])
        hit = [x for x in ids if rs.units[x].side == "sauron"
               and (rs.units[x].is_combat or rs.units[x].type == "siege_tower")]
        src = rec["oil_from"]
        rec["oil_from"] = None
        state["siege"]["pour"].pop(c, None)
        for x in hit:
            c07_combat.eliminate(rs, state, x)
        lines = []
        for ldr in [x for x in ids if rs.units[x].is_leader and c02_units.on_map(rs, state, x)]:
            if not c05_stacking.combat_units_in(rs, state, hx):
                lines.extend(rs.hooks._displace_leader(rs, state, ldr))
        text = (f"Westernesse: {c} pours boiling oil from {src} down on {hx}: "
                f"{', '.join(rs.units[x].label() for x in hit)} eliminated (16.74)")
        if lines:
            text += "; " + "; ".join(lines)
        events.append(Event(public=text + ".", section="16.74", reveals=True))
    return events


@cached_property
def _takeable_ids(rs) -> tuple[str, ...]:
    return tuple(sorted(u for u, d in rs.units.items() if d.type == "cauldron" or d.is_siege))


def _take_cauldrons(rs, state: State, seat: str, hx: str, movers: list[str] | None = None) -> list[Event]:
    """16.73: an enemy combat unit in a cauldron's hex (ending there or
        passing through: ``movers``) destroys it and its oil; the counter is
        turned over as it is taken. Siege equipment left alone in a hex an
        enemy combat unit enters is destroyed too (ruling)."""
    if movers is None and (not c05_stacking.combat_units_in(rs, state, hx) or c05_stacking.side_in(rs, state, hx) != seat):
        return []
    events = []
    units = state["units"]  # only cauldrons and siege equipment can be taken: those few, not every unit
    for x in rs._takeable_ids:
        if units[x]["hex"] != hx or units[x]["status"] != "map":
            continue
        d = rs.units[x]
        if d.side == seat:
            continue
        if d.type == "cauldron":
            real = x in state["hidden"].get("real_cauldrons", ())
            c07_combat.eliminate(rs, state, x)
            events.append(Event(public=f"{c02_units.title_of(rs, seat)} takes cauldron {x} in {hx}: it was "
                                       f"{'real' if real else 'a dummy'}; it and its oil are destroyed (16.73).",
                                section="16.73", reveals=True))
        elif d.is_siege:
            c07_combat.eliminate(rs, state, x)
            events.append(Event(public=f"{c02_units.title_of(rs, seat)} destroys the undefended {d.name} {x} in {hx} "
                                       "(16.1, ruling).", section="16.1"))
    return events


# ------------------------------------------------------------- hooks
def on_enter(rs, state: State, seat: str, uids: list[str], trail: list[str], how: str) -> list[Event]:
    """16.73: the cauldrons an enemy combat unit reaches (in a move, passing through too; by a retreat or an
    advance, the hex entered); 16.74: Sauron's move ends below a carrier's oil (an entry of Gondor's
    ``ON_ENTER``, before the gates)."""
    if how != "move":
        return _take_cauldrons(rs, state, seat, trail[-1])
    events = []
    if trail and any(rs.units[u].is_combat for u in uids):
        for hx in hooks.entered(rs, state, trail):
            events.extend(_take_cauldrons(rs, state, seat, hx, uids))  # 16.73: passing through too
        if seat == "sauron":
            events.extend(pour_oil(rs, state, only=trail[-1]))
    return events


def _parse_pickup(rs, state: State, seat: str, words: list[str]) -> tuple[str, ...]:
    if len(words) != 2:
        raise InvalidOrder("usage: `pickup <unit> <cauldron>`, e.g. `pickup GS1 K2`")
    return (c02_units.resolve_unit(rs, words[0]), c02_units.resolve_unit(rs, words[1]))


def _parse_pour(rs, state: State, seat: str, words: list[str]) -> tuple[str, ...]:
    if len(words) != 2 or words[1].lower() not in POUR_MODES:
        raise InvalidOrder("usage: `pour <unit> any|towers|hold` (the carrier's standing order, 16.74)")
    return (c02_units.resolve_unit(rs, words[0]), words[1].lower())

# --- oil (16.72-16.75)
def _check_pickup(rs, state: State, seat: str, args: tuple[str, ...]) -> None:
    uid, k = args
    rs.seat_check(state, seat)
    if seat != "westernesse":
        raise IllegalOrder("Sauron units may never use cauldrons", "16.73")
    if c03_sequence.kind(rs, state) != "move" or c03_sequence.phasing(rs, state) != seat:
        raise IllegalOrder("oil is picked up in your Movement Phase", "16.72")
    u = c02_units._own_on_map(rs, state, seat, uid)
    if not u.is_combat:
        raise IllegalOrder(f"{uid} is not a combat unit", "16.72")
    c = rs.units.get(k)
    if c is None or c.type != "cauldron" or not c02_units.on_map(rs, state, k):
        raise IllegalOrder(f"{k} is not a cauldron on the map", "16.72")
    if state["units"][k]["hex"] != state["units"][uid]["hex"]:
        raise IllegalOrder(f"{uid} must be in {k}'s hex ({state['units'][k]['hex']})", "16.72")
    if state["units"][k].get("oil", 0) <= 0:
        raise IllegalOrder(f"{k} has no oil counters left", "16.72")
    if state["units"][uid].get("oil_from"):
        raise IllegalOrder(f"{uid} already carries an oil counter (one each, 16.75)", "16.75")


def _apply_pickup(rs, state: State, seat: str, args: tuple[str, ...], dice: Dice | None) -> list[Event]:
    uid, k = args
    state["units"][k]["oil"] -= 1
    state["units"][uid]["oil_from"] = k
    state["siege"]["pour"][uid] = "hold"
    ph = state["ph"]
    here = Hex.parse(state["units"][uid]["hex"])
    if uid in ph["moved"] and here not in c06_zoc.zoc_map(rs, state, seat):
        # 16.72 "enters ... picks up ... and moves off": the rest of its allowance
        ph["moved"] = [x for x in ph["moved"] if x != uid]
        ph.setdefault("resume", []).append(uid)
    return [Event(public=f"Westernesse: {uid} picks up an oil counter from {k} ({state['units'][k]['oil']} left "
                         "there); it moves and defends one point worse while it carries it (16.72, 16.75).",
                  section="16.72")]


def _check_pour(rs, state: State, seat: str, args: tuple[str, ...]) -> None:
    uid, mode = args
    rs.seat_check(state, seat)
    if seat != "westernesse":
        raise IllegalOrder("only Westernesse pours oil", "16.74")
    c02_units._own_on_map(rs, state, seat, uid)
    if not state["units"][uid].get("oil_from"):
        raise IllegalOrder(f"{uid} carries no oil", "16.74")
    if state["siege"]["pour"].get(uid, "hold") == mode:
        raise IllegalOrder(f"{uid}'s standing order is already `{mode}`", "16.74")


def _apply_pour(rs, state: State, seat: str, args: tuple[str, ...], dice: Dice | None) -> list[Event]:
    uid, mode = args
    state["siege"]["pour"][uid] = mode
    what = {"any": "on any enemy unit or siege tower below it", "towers": "only on a hex holding a siege tower",
            "hold": "on nothing until told otherwise"}[mode]
    # the order is secret: which carrier and what it says would tell Sauron, when
    # nothing is poured, that the oil is a dummy
    return [Event(public="Westernesse gives a secret standing order for its oil (16.74).",
                  private={"westernesse": f"{uid} will pour its oil {what}, during Sauron's Movement Phase "
                                          "(16.74)."},
                  section="16.74")]


# the orders of this file (engine/orders.py), each naming its functions above
PICKUP = Order("pickup", "`pickup <unit> <cauldron>`, e.g. `pickup GS1 K2`",
              parse=_parse_pickup,
              check=_check_pickup,
              apply=_apply_pickup,
              listed_in=c16_0_siege_phase.legal_siege_orders,
              cases=("16.7",),
              dice=False)
POUR = Order("pour", "`pour <unit> any|towers|hold`",
              parse=_parse_pour,
              check=_check_pour,
              apply=_apply_pour,
              listed_in=c16_0_siege_phase.legal_siege_orders,
              cases=("16.74",),
              dice=False,
              redact=secret("pour (a secret standing order, 16.74)"))
