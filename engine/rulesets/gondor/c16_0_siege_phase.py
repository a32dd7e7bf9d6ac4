"""16.0 The Siege Phase: its state and charts, the wall hexsides, who has anything to do (an empty
Siege Phase ends at once), the siege orders offered, the combat effects of towers, ladders, oil and
heads on an attack (16.42, 16.45, 16.46, 16.75, 16.84), what the map shows of the siege.
"""
from __future__ import annotations

from functools import cached_property
from typing import Iterator

from engine.display import look
from engine.core import Action, Event, IllegalOrder, State
from engine.hexgrid import Hex, Hexside, within
from engine.spi.charts import morale_note, parse_totals
from engine.spi.standard import StandardRules

from .common import POUR_MODES, ZOC_THROUGH_WALLS
from engine.rulesets.gondor import c15_city
from engine.rulesets.gondor import c16_1_catapults_grond
from engine.rulesets.gondor import c16_4_towers_ladders


# ------------------------------------------------------------- state
def init_extra(rs, state: State) -> None:
    ch = rs.charts_for(state)["siege"]
    state["siege"] = {
        "fired": {},          # catapult -> the Game-Turn it last fired (16.12)
        "heads_left": ch["heads"],
        "ladders_left": ch["ladders"],
        "ready": {},          # siege tower -> {"hex", "sides"} recorded at the Siege Phase (16.41)
        "pour": {},           # carrier -> standing order (16.74)
    }


@staticmethod
def check_siege_charts(raw: dict) -> None:
    """A group's chart override for the siege tables must still make sense
        (16.3 Breach Probability Table, 16.63 Scatter Diagram, [siege])."""
    from engine.spi.charts import ChartError
    br = raw.get("breach", {})
    for weapon, ranges in (("catapult", 4), ("grond", 1)):
        for kind in ("wall", "gate", "tower"):
            row = br.get(weapon, {}).get(kind)
            if not isinstance(row, list) or len(row) < ranges:
                raise ChartError(f"[breach] {weapon}.{kind} must list {ranges} cell(s), one per range")
            for cell in row:
                try:
                    parse_totals(cell, 2, 12)
                except ValueError as e:
                    raise ChartError(f"[breach] {weapon}.{kind}: {e}") from None
    dirs = raw.get("scatter", {}).get("directions")
    if (not isinstance(dirs, list) or not all(isinstance(x, str) for x in dirs)
            or sorted(dirs) != sorted(["n", "ne", "se", "s", "sw", "nw"])):
        raise ChartError("[scatter] directions must list the six hexside directions n ne se s sw nw, "
                         "one per die roll 1-6")
    sg = raw.get("siege", {})
    for key in ("ladders", "heads", "breach_range", "fireball_range", "catapult_range", "tower_cost",
                "ladder_cost"):
        if not isinstance(sg.get(key), int) or sg[key] < 0:
            raise ChartError(f"[siege] {key} must be a whole number")
    if sg.get("zoc_through_walls", "towers") not in ZOC_THROUGH_WALLS:
        raise ChartError(f"[siege] zoc_through_walls must be one of {', '.join(ZOC_THROUGH_WALLS)} (16.44)")


def siege_chart(rs, state: State) -> dict:
    return rs.charts_for(state)["siege"]


# ------------------------------------------------------------ queries
def _outer_wall(rs, hs: str) -> bool:
    a, b = Hexside.parse(hs).hexes()
    return {rs.hexmap.level(a), rs.hexmap.level(b)} == {0, 1}


def _is_main_gate(rs, hs: str) -> bool:
    return rs.hexmap.main_gate is not None and str(rs.hexmap.main_gate) == hs


@cached_property
def _sides_of_hex(rs) -> dict[Hex, tuple[str, ...]]:
    """Hex -> its wall, gate and tower hexsides (the map is fixed)."""
    out: dict[Hex, list[str]] = {}
    for (a, _b), (_kind, label) in rs.hexmap.side_index.items():
        out.setdefault(a, []).append(label)
    return {h: tuple(sorted(v)) for h, v in out.items()}


def _wall_sides_of(rs, h: Hex) -> list[str]:
    return list(rs._sides_of_hex.get(h, ()))


def on_step_start(rs, state: State) -> list[Event]:
    events = []
    step = c03_sequence.step(rs, state)
    if step.get("kind") == "siege":
        events.extend(_siege_phase_start(rs, state))
    elif step.get("kind") == "move" and step.get("side") == "sauron":
        events.extend(c16_7_oil.pour_oil(rs, state))
    return events


def _siege_phase_start(rs, state: State) -> list[Event]:
    events = []
    # 16.66: fires outside the city burn only until the next Siege Phase
    out = [m for m in state["markers"] if m.get("type") == "fire" and not rs.hexmap.in_city(Hex.parse(m["hex"]))]
    if out:
        state["markers"] = [m for m in state["markers"] if m not in out]
        events.append(Event(public=f"The fires outside the city burn out ({', '.join(m['hex'] for m in out)}) "
                                   "(16.66).", section="16.66"))
    # 16.41: siege towers that begin the Siege Phase next to a wall may be used
    ready = {}
    for u, d in sorted(rs.units.items()):
        if d.type == "siege_tower" and c02_units.on_map(rs, state, u):
            h = state["units"][u]["hex"]
            sides = _wall_sides_of(rs, Hex.parse(h))
            if sides:
                ready[u] = {"hex": h, "sides": sides}
    state["siege"]["ready"] = ready
    if ready:
        events.append(Event(public="Siege towers against the walls, usable from now on: " + "; ".join(
            f"{u} in {r['hex']} ({', '.join(r['sides'])})" for u, r in ready.items()) + " (16.41).",
            section="16.41"))
    for seat in c03_sequence.step(rs, state)["seats"]:
        if not _siege_useful(rs, state, seat):
            state["done"].append(seat)
    return events


def _siege_useful(rs, state: State, seat: str) -> bool:
    """Whether ``seat`` has any legal siege action at all (a side with none is done at once, so play by post
        does not wait on it): an unfired catapult with a hex in range for a fireball (16.6, 16.62: any hex, not
        only one with siege equipment in it), a wall in a catapult's or an operated Grond's reach."""
    return next(iter(_legal_siege(rs, state, seat)), None) is not None


def next_step(rs, state: State) -> list[Event]:
    """3.0 as Gondor plays it (Hooks.next_step): the standard step's end, then a Siege Phase (16.0) nobody has
    anything to do in ends at once."""
    events = StandardRules.hooks.next_step(rs, state)
    # a Siege Phase nobody has anything to do in ends at once
    while not state["over"] and c03_sequence.kind(rs, state) == "siege" and not rs.active_seats(state):
        events.extend(StandardRules.hooks.next_step(rs, state))
    return events


def _siege_step(rs, state: State, seat: str, what: str, section: str) -> None:
    rs.seat_check(state, seat)
    if c03_sequence.kind(rs, state) != "siege":
        raise IllegalOrder(f"{what} only in the Siege Phase; now: {c03_sequence.step(rs, state)['title']}", section)


# ------------------------------------------------------ combat effects
def modify_attack(rs, state: State, attacker: str, target: str, kind: str, prof: dict) -> None:
    hx = state["units"][target]["hex"]
    if c16_4_towers_ladders._towers_in(rs, state, hx):
        if kind == "melee":
            prof["armor"] -= 1
            prof["notes"].append("defender with a siege tower: Armor Protection -1 in melee (16.42)")
        else:
            prof["armor"] += 1
            prof["notes"].append("defender in a siege tower: Armor Protection +1 against missiles (16.42)")
    if any(m["hex"] == hx for m in c16_4_towers_ladders._ladders(rs, state)):
        prof["armor"] -= 1
        prof["notes"].append("defender on a ladder: Armor Protection -1 (16.45)")
    if state["units"][target].get("oil_from"):
        prof["armor"] -= 1
        prof["notes"].append("defender carries oil: Armor Protection -1 (16.75)")
    if rs.units[target].side == "westernesse" and any(
            m.get("type") == "head" and m.get("hex") == hx for m in state["markers"]):
        morale_note(prof, -1, "a severed head lies in the defender's hex: Morale -1 (16.84)")


def duel_modifier(rs, state: State, leader: str, other: str) -> int:
    m = StandardRules.hooks.duel_modifier(rs, state, leader, other)
    ha, hb = Hex.parse(state["units"][leader]["hex"]), Hex.parse(state["units"][other]["hex"])
    f = rs.hexmap.side_index.get((ha, hb))
    if f and (c16_4_towers_ladders._towers_in(rs, state, str(ha)) or any(x["hex"] == str(ha) for x in c16_4_towers_ladders._ladders(rs, state))):
        m -= 1  # 16.46: fighting through a wall from a siege tower or ladder
    return m


# ------------------------------------------------------ legal actions
def legal_siege_orders(rs, state: State, seat: str) -> Iterator[Action]:
    """The siege orders' legal actions in one pass (each catapult's breaches, then its fireballs and heads
    hex by hex; ladders and oil pickups in the Movement Phase; the carriers' standing orders): the pass
    their records name (``Order.listed_in``), an entry of Gondor's ``LEGAL_EXTRA``."""
    if state["turn"] == 0 or state["pending"]:
        return
    k = c03_sequence.kind(rs, state)
    if k == "siege":
        yield from _legal_siege(rs, state, seat)
    if k == "move" and c03_sequence.phasing(rs, state) == seat:
        yield from c16_4_towers_ladders._legal_ladders(rs, state, seat)
        if seat == "westernesse":
            occ = c05_stacking.occupancy(rs, state)
            for c in sorted(u for u, d in rs.units.items() if d.type == "cauldron" and c02_units.on_map(rs, state, u)):
                for x in occ.get(state["units"][c]["hex"], ()):
                    a = Action("pickup", (x, c))
                    if rs.units[x].is_combat and c03_sequence._ok(rs, state, seat, a):
                        yield a
    if seat == "westernesse":
        for c in c16_7_oil._carriers(rs, state):
            for mode in POUR_MODES:
                a = Action("pour", (c, mode))
                if c03_sequence._ok(rs, state, seat, a):
                    yield a


def _legal_siege(rs, state: State, seat: str) -> Iterator[Action]:
    try:
        rs.seat_check(state, seat)
    except IllegalOrder:
        return
    cats = [c for c in c16_1_catapults_grond._catapults(rs, state, seat) if not c16_1_catapults_grond._fired_this_turn(rs, state, c)]
    rng = siege_chart(rs, state)["fireball_range"]
    if seat == "sauron":
        # the walls not breached, each with its two hexes (parsed once a listing, not once a catapult)
        walls = [(label, *s.hexes()) for s in rs.hexmap.hexsides
                 if not c15_city._breached(rs, state, label := str(s))]
        reach = siege_chart(rs, state)["breach_range"]
        for c in cats + (["GRD"] if state.get("grond_active") and c02_units.on_map(rs, state, "GRD") else []):
            here = Hex.parse(state["units"][c]["hex"])
            for hs, a, b in walls:
                if here.distance(a) >= reach and here.distance(b) >= reach:  # (the nearer hex out of range)
                    continue
                act = Action("breach", (c, hs))
                if c03_sequence._ok(rs, state, seat, act):
                    yield act
    hexes = rs.hexmap.hexes
    for c in cats:
        here = Hex.parse(state["units"][c]["hex"])
        for h in sorted(h for h in within(here, rng) if h in hexes):  # (the map's hexes in range, in order)
            if h == here or c16_1_catapults_grond._clear_line(rs, here, h) is not None:
                continue
            yield Action("fireball", (c, "at", str(h)))
            if seat == "sauron" and state["siege"]["heads_left"] > 0 and rs.hexmap.in_city(h):
                yield Action("head", (c, "at", str(h)))


# ---------------------------------------------------------------- view
def view_extra(rs, state: State, own: str | None, view: dict) -> None:
    real = set(state["hidden"].get("real_cauldrons", ()))
    for d in view["units"]:
        rec = state["units"][d["id"]]
        if rec.get("oil_from"):
            d["carrying"] = "oil"
            d["oil_from"] = rec["oil_from"]
            # drawn: a drop on the carrier, hollow only in the owner's view of a dummy (16.71)
            look(d)["drop"] = "full"
            if own == "westernesse":
                d["oil_real"] = rec["oil_from"] in real
                if not d["oil_real"]:
                    look(d)["drop"] = "hollow"
        if d["type"] == "grond" and state.get("grond_active"):
            d["active"] = True
            look(d)["glow"] = True  # drawn: Grond operated (17.13)
        if d["type"] == "siege_tower":
            sides = c16_4_towers_ladders._ready_sides(rs, state, d["id"])
            if sides:
                d["ready"] = sides
                look(d)["arrows"] = list(sides)  # drawn: a ready tower's arrows toward its walls
    s = state["siege"]
    view["siege"] = {"heads_left": s["heads_left"], "ladders_left": s["ladders_left"],
                     "fired": sorted(c for c in s["fired"] if s["fired"][c] == state["turn"])}
    notes = view.setdefault("notes", [])
    carriers = c16_7_oil._carriers(rs, state)
    if own == "westernesse":  # the standing orders are Westernesse's secret (16.74)
        view["siege"]["pour"] = {c: s["pour"].get(c, "hold") for c in carriers}
    if carriers:
        notes.append("Oil carried: " + ", ".join(
            f"{c} ({s['pour'].get(c, 'hold')})" if own == "westernesse" else c for c in carriers) + " (16.74)")
    notes.append(f"Heads left {s['heads_left']}, ladders left {s['ladders_left']} (16.81, 16.47)")


# (imported last: the oil's order records name legal_siege_orders above)
from engine.rulesets.gondor import c16_7_oil  # noqa: E402
from engine.spi import c02_units
from engine.spi import c03_sequence
from engine.spi import c05_stacking
