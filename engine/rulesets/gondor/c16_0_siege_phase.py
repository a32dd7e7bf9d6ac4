"""16.0 The Siege Phase: its state and charts, the wall hexsides, who has anything to do (an empty
Siege Phase ends at once), the siege orders offered, the combat effects of towers, ladders, oil and
heads on an attack (16.42, 16.45, 16.46, 16.75, 16.84), what the map shows of the siege.
"""
from __future__ import annotations

from functools import cached_property
from typing import Iterator

from engine.display import look
from engine.core import Action, Event, IllegalOrder, State
from engine.hexgrid import Hex, Hexside, distance
from engine.spi.charts import morale_note, parse_totals
from engine.spi.standard import StandardRules

from .common import POUR_MODES, ZOC_THROUGH_WALLS


# ------------------------------------------------------------- state
def init_extra(self, state: State) -> None:
    ch = self.charts_for(state)["siege"]
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


def siege_chart(self, state: State) -> dict:
    return self.charts_for(state)["siege"]


# ------------------------------------------------------------ queries
def _outer_wall(self, hs: str) -> bool:
    a, b = Hexside.parse(hs).hexes()
    return {self.hexmap.level(a), self.hexmap.level(b)} == {0, 1}


def _is_main_gate(self, hs: str) -> bool:
    return self.hexmap.main_gate is not None and str(self.hexmap.main_gate) == hs


@cached_property
def _sides_of_hex(self) -> dict[Hex, tuple[str, ...]]:
    """Hex -> its wall, gate and tower hexsides (the map is fixed)."""
    out: dict[Hex, list[str]] = {}
    for (a, _b), (_kind, label) in self.hexmap.side_index.items():
        out.setdefault(a, []).append(label)
    return {h: tuple(sorted(v)) for h, v in out.items()}


def _wall_sides_of(self, h: Hex) -> list[str]:
    return list(self._sides_of_hex.get(h, ()))


def on_step_start(self, state: State) -> list[Event]:
    events = []
    step = self.step(state)
    if step.get("kind") == "siege":
        events.extend(self._siege_phase_start(state))
    elif step.get("kind") == "move" and step.get("side") == "sauron":
        events.extend(self.pour_oil(state))
    return events


def _siege_phase_start(self, state: State) -> list[Event]:
    events = []
    # 16.66: fires outside the city burn only until the next Siege Phase
    out = [m for m in state["markers"] if m.get("type") == "fire" and not self.hexmap.in_city(Hex.parse(m["hex"]))]
    if out:
        state["markers"] = [m for m in state["markers"] if m not in out]
        events.append(Event(public=f"The fires outside the city burn out ({', '.join(m['hex'] for m in out)}) "
                                   "(16.66).", section="16.66"))
    # 16.41: siege towers that begin the Siege Phase next to a wall may be used
    ready = {}
    for u, d in sorted(self.units.items()):
        if d.type == "siege_tower" and self.on_map(state, u):
            h = state["units"][u]["hex"]
            sides = self._wall_sides_of(Hex.parse(h))
            if sides:
                ready[u] = {"hex": h, "sides": sides}
    state["siege"]["ready"] = ready
    if ready:
        events.append(Event(public="Siege towers against the walls, usable from now on: " + "; ".join(
            f"{u} in {r['hex']} ({', '.join(r['sides'])})" for u, r in ready.items()) + " (16.41).",
            section="16.41"))
    for seat in self.step(state)["seats"]:
        if not self._siege_useful(state, seat):
            state["done"].append(seat)
    return events


def _siege_useful(self, state: State, seat: str) -> bool:
    """Whether ``seat`` has any legal siege action at all (a side with none is done at once, so play by post
        does not wait on it): an unfired catapult with a hex in range for a fireball (16.6, 16.62: any hex, not
        only one with siege equipment in it), a wall in a catapult's or an operated Grond's reach."""
    return next(iter(self._legal_siege(state, seat)), None) is not None


def _advance(self, state: State) -> list[Event]:
    events = StandardRules._advance(self, state)
    # a Siege Phase nobody has anything to do in ends at once
    while not state["over"] and self.kind(state) == "siege" and not self.active_seats(state):
        events.extend(StandardRules._advance(self, state))
    return events


def _siege_step(self, state: State, seat: str, what: str, section: str) -> None:
    self.seat_check(state, seat)
    if self.kind(state) != "siege":
        raise IllegalOrder(f"{what} only in the Siege Phase; now: {self.step(state)['title']}", section)


# ------------------------------------------------------ combat effects
def modify_attack(self, state: State, attacker: str, target: str, kind: str, prof: dict) -> None:
    hx = state["units"][target]["hex"]
    if self._towers_in(state, hx):
        if kind == "melee":
            prof["armor"] -= 1
            prof["notes"].append("defender with a siege tower: Armor Protection -1 in melee (16.42)")
        else:
            prof["armor"] += 1
            prof["notes"].append("defender in a siege tower: Armor Protection +1 against missiles (16.42)")
    if any(m["hex"] == hx for m in self._ladders(state)):
        prof["armor"] -= 1
        prof["notes"].append("defender on a ladder: Armor Protection -1 (16.45)")
    if state["units"][target].get("oil_from"):
        prof["armor"] -= 1
        prof["notes"].append("defender carries oil: Armor Protection -1 (16.75)")
    if self.units[target].side == "westernesse" and any(
            m.get("type") == "head" and m.get("hex") == hx for m in state["markers"]):
        morale_note(prof, -1, "a severed head lies in the defender's hex: Morale -1 (16.84)")


def duel_modifier(self, state: State, leader: str, other: str) -> int:
    m = StandardRules.duel_modifier(self, state, leader, other)
    ha, hb = Hex.parse(state["units"][leader]["hex"]), Hex.parse(state["units"][other]["hex"])
    f = self.hexmap.side_index.get((ha, hb))
    if f and (self._towers_in(state, str(ha)) or any(x["hex"] == str(ha) for x in self._ladders(state))):
        m -= 1  # 16.46: fighting through a wall from a siege tower or ladder
    return m


# ------------------------------------------------------ legal actions
def legal_siege_orders(self, state: State, seat: str) -> Iterator[Action]:
    """The siege orders' legal actions in one pass (each catapult's breaches, then its fireballs and heads
    hex by hex; ladders and oil pickups in the Movement Phase; the carriers' standing orders): the pass
    their records name (``Order.listed_in``), an entry of Gondor's ``LEGAL_EXTRA``."""
    if state["turn"] == 0 or state["pending"]:
        return
    k = self.kind(state)
    if k == "siege":
        yield from self._legal_siege(state, seat)
    if k == "move" and self.phasing(state) == seat:
        yield from self._legal_ladders(state, seat)
        if seat == "westernesse":
            occ = self.occupancy(state)
            for c in sorted(u for u, d in self.units.items() if d.type == "cauldron" and self.on_map(state, u)):
                for x in occ.get(state["units"][c]["hex"], ()):
                    a = Action("pickup", (x, c))
                    if self.units[x].is_combat and self._ok(state, seat, a):
                        yield a
    if seat == "westernesse":
        for c in self._carriers(state):
            for mode in POUR_MODES:
                a = Action("pour", (c, mode))
                if self._ok(state, seat, a):
                    yield a


def _legal_siege(self, state: State, seat: str) -> Iterator[Action]:
    try:
        self.seat_check(state, seat)
    except IllegalOrder:
        return
    cats = [c for c in self._catapults(state, seat) if not self._fired_this_turn(state, c)]
    rng = self.siege_chart(state)["fireball_range"]
    if seat == "sauron":
        walls = [str(s) for s in self.hexmap.hexsides if not self._breached(state, str(s))]
        for c in cats + (["GRD"] if state.get("grond_active") and self.on_map(state, "GRD") else []):
            here = Hex.parse(state["units"][c]["hex"])
            for hs in walls:
                a, b = Hexside.parse(hs).hexes()
                if min(distance(here, a), distance(here, b)) >= self.siege_chart(state)["breach_range"]:
                    continue
                act = Action("breach", (c, hs))
                if self._ok(state, seat, act):
                    yield act
    for c in cats:
        here = Hex.parse(state["units"][c]["hex"])
        for h in sorted(self.hexmap.hexes):
            d = distance(here, h)
            if not 0 < d <= rng or self._clear_line(here, h) is not None:
                continue
            yield Action("fireball", (c, "at", str(h)))
            if seat == "sauron" and state["siege"]["heads_left"] > 0 and self.hexmap.in_city(h):
                yield Action("head", (c, "at", str(h)))


# ---------------------------------------------------------------- view
def view_extra(self, state: State, own: str | None, view: dict) -> None:
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
            sides = self._ready_sides(state, d["id"])
            if sides:
                d["ready"] = sides
                look(d)["arrows"] = list(sides)  # drawn: a ready tower's arrows toward its walls
    s = state["siege"]
    view["siege"] = {"heads_left": s["heads_left"], "ladders_left": s["ladders_left"],
                     "fired": sorted(c for c in s["fired"] if s["fired"][c] == state["turn"])}
    notes = view.setdefault("notes", [])
    carriers = self._carriers(state)
    if own == "westernesse":  # the standing orders are Westernesse's secret (16.74)
        view["siege"]["pour"] = {c: s["pour"].get(c, "hold") for c in carriers}
    if carriers:
        notes.append("Oil carried: " + ", ".join(
            f"{c} ({s['pour'].get(c, 'hold')})" if own == "westernesse" else c for c in carriers) + " (16.74)")
    notes.append(f"Heads left {s['heads_left']}, ladders left {s['ladders_left']} (16.81, 16.47)")
