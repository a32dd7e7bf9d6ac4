"""Gondor's siege rules (16.x): the Siege Phase, breaching, siege towers and
ladders, fireballs, severed heads, catapult fire and boiling oil.

A mixin for :class:`engine.rulesets.gondor.Gondor`; every hook calls
``super()`` so the other mixins see it too.

Orders (CONVENTIONS.md notation; hexsides are ``XXYY/d``):
  breach <catapult|GRD> <hexside>   Siege Phase: try to breach a wall, gate or tower hexside (16.2)
  fireball <catapult> at <hex>      Siege Phase: hurl a fireball (16.6)
  head <catapult> at <hex>          Siege Phase, Sauron: hurl a severed head (16.8)
  ladder <unit> <hexside>           Movement Phase: set a ladder against a wall next to the unit (16.43)
  pickup <unit> <cauldron>          Westernesse Movement Phase: take an oil counter (16.72)
  pour <unit> any|towers|hold       Westernesse: the carrier's standing pour order (16.74)

Boiling oil in play by post (16.74). Oil is poured *during Sauron's movement
phase*, when the Westernesse player is not at the table. Each carrier holds a
*secret* standing order: ``hold`` (the default: never), ``any`` (pour on the
first enemy unit or siege tower that ends a move adjacent to and below it, or
stands there when the phase begins) or ``towers`` (only on a hex holding a
siege tower). The bot carries it out at once. The order is secret (the
public reads only that Westernesse gave one; ``public_order_text`` masks it in
the channel, the log and an export until the game is over), so a carrier
that does not pour may be holding real oil or carrying a dummy: a dummy's
order never fires, silently. Nothing Sauron sees (text, timing, dice, undo
rights) differs until real oil is poured, and then only the pour is seen.
"""
from __future__ import annotations

from functools import cached_property
from typing import Iterator

from engine.core import Action, Dice, Event, IllegalOrder, InvalidOrder, State
from engine.hexgrid import Hex, HexError, Hexside, distance, line
from engine.orders import Order
from engine.spi.charts import parse_totals
from engine.units import Ratings

POUR_MODES = ("any", "towers", "hold")
INFANTRY_TYPES = ("infantry", "archer", "troll")  # 16.51 "infantry-type": foot units


def _hexside(token: str) -> str:
    try:
        return str(Hexside.parse(token))
    except (HexError, ValueError) as e:
        raise InvalidOrder(str(e)) from None


# the siege orders (16.0), each a record (engine/orders.py); their legal actions are the siege
# phase's and the movement phase's lists in ``legal_extra`` below
BREACH = Order("breach", ("16.2",), "`breach <catapult or GRD> <hexside>`, e.g. `breach SC1 1603/ne`",
               parse="_parse_breach", check="_check_breach", apply="_apply_breach", dice=False)
FIREBALL = Order("fireball", ("16.6",), "`fireball <catapult> at <hex>`, e.g. `fireball SC1 at 1806`",
                 parse="_parse_fireball", check="_check_fireball", apply="_apply_fireball", dice=False)
HEAD = Order("head", ("16.8",), "`head <catapult> at <hex>`, e.g. `head SC1 at 1806`",
             parse="_parse_head", check="_check_head", apply="_apply_head", dice=False)
LADDER = Order("ladder", ("16.4",), "`ladder <unit> <hexside>`, e.g. `ladder OI1 1603/ne`",
               parse="_parse_ladder", check="_check_ladder", apply="_apply_ladder", dice=False)
PICKUP = Order("pickup", ("16.7",), "`pickup <unit> <cauldron>`, e.g. `pickup GS1 K2`",
               parse="_parse_pickup", check="_check_pickup", apply="_apply_pickup", dice=False)
POUR = Order("pour", ("16.74",), "`pour <unit> any|towers|hold`", parse="_parse_pour", check="_check_pour",
             apply="_apply_pour", dice=False, redact="pour (a secret standing order, 16.74)")
SIEGE_ORDERS = (BREACH, FIREBALL, HEAD, LADDER, PICKUP, POUR)


class SiegeRules:
    # ------------------------------------------------------------- state
    def init_extra(self, state: State) -> None:
        super().init_extra(state)
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

    def siege_chart(self, state: State) -> dict:
        return self.charts_for(state)["siege"]

    # ------------------------------------------------------------ queries
    def _outer_wall(self, hs: str) -> bool:
        a, b = Hexside.parse(hs).hexes()
        return {self.hexmap.level(a), self.hexmap.level(b)} == {0, 1}

    def _is_main_gate(self, hs: str) -> bool:
        return self.hexmap.main_gate is not None and str(self.hexmap.main_gate) == hs

    def _fired_this_turn(self, state: State, cat: str) -> bool:
        return state["siege"]["fired"].get(cat) == state["turn"]

    def _catapults(self, state: State, seat: str) -> list[str]:
        return sorted(u for u, d in self.units.items() if d.type == "catapult" and d.side == seat
                      and self.on_map(state, u))

    def _ladders(self, state: State) -> list[dict]:
        return [m for m in state["markers"] if m.get("type") == "ladder"]

    def _towers_in(self, state: State, hx: str) -> list[str]:
        return [u for u in self.occupancy(state).get(hx, ()) if self.units[u].type == "siege_tower"]

    def _ready_sides(self, state: State, tower: str) -> list[str]:
        r = state["siege"]["ready"].get(tower)
        if not r or not self.on_map(state, tower) or state["units"][tower]["hex"] != r["hex"]:
            return []
        return list(r["sides"])

    @cached_property
    def _sides_of_hex(self) -> dict[Hex, tuple[str, ...]]:
        """Hex -> its wall, gate and tower hexsides (the map is fixed)."""
        out: dict[Hex, list[str]] = {}
        for (a, _b), (_kind, label) in self.hexmap.side_index.items():
            out.setdefault(a, []).append(label)
        return {h: tuple(sorted(v)) for h, v in out.items()}

    def _wall_sides_of(self, h: Hex) -> list[str]:
        return list(self._sides_of_hex.get(h, ()))

    @cached_property
    def _tower_ids(self) -> tuple[str, ...]:
        return tuple(sorted(u for u, d in self.units.items() if d.type == "siege_tower"))

    def scaling_cost(self, state: State, seat: str, a: Hex, hs: str) -> float | None:
        """16.41/16.43: the extra MP to climb the hexside ``hs`` from ``a`` with a
        siege tower ready in ``a`` (+1) or a ladder set there on an earlier
        Game-Turn (+3); None if neither."""
        ch = self.siege_chart(state)
        best = None
        for t in self._towers_in(state, str(a)):
            if self.units[t].side == seat and hs in self._ready_sides(state, t):
                best = ch["tower_cost"]
        for m in self._ladders(state):
            if m["hex"] == str(a) and m["hexside"] == hs and m["side"] == seat and m["turn"] < state["turn"]:
                best = ch["ladder_cost"] if best is None else min(best, ch["ladder_cost"])
        return best

    def _scaled_sides(self, state: State) -> set[str]:
        """16.44: hexsides a unit in a siege tower or on a ladder exerts its ZOC through."""
        out = {m["hexside"] for m in state["markers"] if m.get("type") == "ladder"}
        for u in self._tower_ids:
            r = state["units"][u]
            if r["status"] == "map":
                out.update(self._sides_of_hex.get(Hex.parse(r["hex"]), ()))
        return out

    def scaled(self, state: State, hs: str) -> bool:
        return hs in self._scaled_sides(state)

    # ------------------------------------------------------- catapult fire
    def ratings(self, state: State, uid: str):
        if self.units[uid].type == "catapult":
            return Ratings(None, self.siege_chart(state)["catapult_missile"], 1, "Z")
        return super().ratings(state, uid)

    def missile_range(self, state: State, uid: str) -> int:
        if self.units[uid].type == "catapult":
            return self.siege_chart(state)["catapult_range"]
        return super().missile_range(state, uid)

    def _check_fire(self, state: State, seat: str, *args: str) -> None:
        super()._check_fire(state, seat, *args)
        for uid in args[:-2]:
            if self.units[uid].type == "catapult" and self._fired_this_turn(state, uid):
                raise IllegalOrder(f"{uid} has already fired this Game-Turn (one firing a turn, 16.12)", "16.12")

    def _apply_fire(self, state: State, seat: str, dice: Dice, *args: str) -> list[Event]:
        for uid in args[:-2]:
            if self.units[uid].type == "catapult":
                state["siege"]["fired"][uid] = state["turn"]
        return super()._apply_fire(state, seat, dice, *args)

    # ------------------------------------------------------ combat effects
    def modify_attack(self, state: State, attacker: str, target: str, kind: str, prof: dict) -> None:
        super().modify_attack(state, attacker, target, kind, prof)
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
            from engine.spi.charts import shift_morale
            prof["morale"] = shift_morale(prof["morale"], -1)
            prof["notes"].append("a severed head lies in the defender's hex: Morale -1 (16.84)")

    def apply_result(self, state: State, dice: Dice, target: str, res: tuple, attacker_hex: str | None,
                     kind: str) -> list[str]:
        hx = state["units"][target]["hex"]
        lines = super().apply_result(state, dice, target, res, attacker_hex, kind)
        if kind == "melee" and res and hx:
            lines.extend(self._lose_scaling(state, hx, "16.47"))
        return lines

    def _lose_scaling(self, state: State, hx: str, section: str) -> list[str]:
        out = []
        for t in self._towers_in(state, hx):
            self.eliminate(state, t)
            out.append(f"siege tower {t} destroyed ({section})")
        gone = [m for m in self._ladders(state) if m["hex"] == hx]
        if gone:
            state["markers"] = [m for m in state["markers"] if m not in gone]
            out.append(f"ladder{'s' if len(gone) > 1 else ''} at {hx} destroyed ({section})")
        return out

    def duel_modifier(self, state: State, leader: str, other: str) -> int:
        m = super().duel_modifier(state, leader, other)
        ha, hb = Hex.parse(state["units"][leader]["hex"]), Hex.parse(state["units"][other]["hex"])
        f = self.hexmap.side_index.get((ha, hb))
        if f and (self._towers_in(state, str(ha)) or any(x["hex"] == str(ha) for x in self._ladders(state))):
            m -= 1  # 16.46: fighting through a wall from a siege tower or ladder
        return m

    # ------------------------------------------------------- oil carriers
    def eliminate(self, state: State, uid: str) -> None:
        super().eliminate(state, uid)
        if state["units"][uid].get("oil_from"):
            state["units"][uid]["oil_from"] = None  # the oil goes with its carrier
            state["siege"]["pour"].pop(uid, None)

    def _carriers(self, state: State) -> list[str]:
        return sorted(u for u, r in state["units"].items() if r.get("oil_from") and r["status"] == "map")

    def _pour_targets(self, state: State, carrier: str, mode: str, only: str | None = None) -> list[str]:
        here = Hex.parse(state["units"][carrier]["hex"])
        lv = self.hexmap.level(here)
        occ = self.occupancy(state)
        out = []
        for nb in here.neighbours():
            hx = str(nb)
            if only is not None and hx != only:
                continue
            if nb not in self.hexmap or self.hexmap.level(nb) >= lv:
                continue
            ids = occ.get(hx, ())
            tower = any(self.units[x].type == "siege_tower" and self.units[x].side == "sauron" for x in ids)
            unit = any(self.units[x].is_combat and self.units[x].side == "sauron" for x in ids)
            if (mode == "towers" and tower) or (mode == "any" and (tower or unit)):
                out.append((not tower, hx))
        return [h for _, h in sorted(out)]

    def pour_oil(self, state: State, only: str | None = None) -> list[Event]:
        """16.74: carriers of real oil act on their standing orders. Dummy
        carriers are skipped without a trace (no text, no dice, no reveal)."""
        if self.kind(state) != "move" or self.phasing(state) != "sauron":
            return []
        real = set(state["hidden"].get("real_cauldrons", ()))
        events = []
        for c in self._carriers(state):
            rec = state["units"][c]
            mode = state["siege"]["pour"].get(c, "hold")
            if mode == "hold" or rec["oil_from"] not in real:
                continue
            targets = self._pour_targets(state, c, mode, only)
            if not targets:
                continue
            hx = targets[0]
            ids = self.occupancy(state).get(hx, [])
            hit = [x for x in ids if self.units[x].side == "sauron"
                   and (self.units[x].is_combat or self.units[x].type == "siege_tower")]
            src = rec["oil_from"]
            rec["oil_from"] = None
            state["siege"]["pour"].pop(c, None)
            for x in hit:
                self.eliminate(state, x)
            lines = []
            for ldr in [x for x in ids if self.units[x].is_leader and self.on_map(state, x)]:
                if not self.combat_units_in(state, hx):
                    lines.extend(self._displace_leader(state, ldr))
            text = (f"Westernesse: {c} pours boiling oil from {src} down on {hx}: "
                    f"{', '.join(self.units[x].label() for x in hit)} eliminated (16.74)")
            if lines:
                text += "; " + "; ".join(lines)
            events.append(Event(public=text + ".", section="16.74", reveals=True))
        return events

    def _take_cauldrons(self, state: State, seat: str, hx: str, movers: list[str] | None = None) -> list[Event]:
        """16.73: an enemy combat unit in a cauldron's hex (ending there or
        passing through: ``movers``) destroys it and its oil; the counter is
        turned over as it is taken. Siege equipment left alone in a hex an
        enemy combat unit enters is destroyed too (ruling)."""
        if movers is None and (not self.combat_units_in(state, hx) or self.side_in(state, hx) != seat):
            return []
        events = []
        for x in sorted(self.occupancy(state).get(hx, ())):
            d = self.units[x]
            if d.side == seat:
                continue
            if d.type == "cauldron":
                real = x in state["hidden"].get("real_cauldrons", ())
                self.eliminate(state, x)
                events.append(Event(public=f"{self.title_of(seat)} takes cauldron {x} in {hx}: it was "
                                           f"{'real' if real else 'a dummy'}; it and its oil are destroyed (16.73).",
                                    section="16.73", reveals=True))
            elif d.is_siege:
                self.eliminate(state, x)
                events.append(Event(public=f"{self.title_of(seat)} destroys the undefended {d.name} {x} in {hx} "
                                           "(16.1, ruling).", section="16.1"))
        return events

    # ------------------------------------------------------------- hooks
    def after_move(self, state: State, seat: str, uids: list[str], trail: list[str]) -> list[Event]:
        events = super().after_move(state, seat, uids, trail)
        if trail and any(self.units[u].is_combat for u in uids):
            for hx in self.entered(state, trail):
                events.extend(self._take_cauldrons(state, seat, hx, uids))  # 16.73: passing through too
            if seat == "sauron":
                events.extend(self.pour_oil(state, only=trail[-1]))
        return events

    def _apply_advance(self, state: State, seat: str, dice: Dice, uid: str, hx: str) -> list[Event]:
        here = state["units"][uid]["hex"]
        events = super()._apply_advance(state, seat, dice, uid, hx)
        if here:
            events += [Event(public=t, section="15.15") for t in self.mark_gates(state, seat, [here, hx])]
        events.extend(self._take_cauldrons(state, seat, hx))
        return events

    def _move_retreat(self, state: State, uids: list[str], hx: str) -> list[str]:
        here = state["units"][uids[0]]["hex"]
        lines = super()._move_retreat(state, uids, hx)
        seat = self.units[uids[0]].side
        lines += self.mark_gates(state, seat, [here, hx]) if distance(here, hx) == 1 else []
        lines += [e.public for e in self._take_cauldrons(state, seat, hx)]
        return lines

    def _check_advance(self, state: State, seat: str, uid: str, hx: str) -> None:
        super()._check_advance(state, seat, uid, hx)
        adv = state["ph"]["advance"]
        if adv.get("siege"):
            if Hex.parse(hx) in self.zoc_map(state, seat):
                raise IllegalOrder(f"an advance during siege may not enter an enemy zone of control ({hx})", "16.51")

    def on_step_start(self, state: State) -> list[Event]:
        events = super().on_step_start(state)
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
        """Whether ``seat`` has anything to do in the Siege Phase: Sauron with a
        catapult or an operated Grond on the map; Westernesse with a catapult
        within fireball range of Sauron siege equipment (otherwise it is done
        at once, so play by post does not wait on it every turn)."""
        cats = [c for c in self._catapults(state, seat) if not self._fired_this_turn(state, c)]
        if seat == "sauron":
            return bool(cats) or (state.get("grond_active", False) and self.on_map(state, "GRD"))
        rng = self.siege_chart(state)["fireball_range"]
        kit = [state["units"][u]["hex"] for u, d in self.units.items()
               if d.side == "sauron" and d.is_siege and self.on_map(state, u)]
        return any(distance(state["units"][c]["hex"], h) <= rng for c in cats for h in kit)

    def _advance(self, state: State) -> list[Event]:
        events = super()._advance(state)
        # a Siege Phase nobody has anything to do in ends at once
        while not state["over"] and self.kind(state) == "siege" and not self.active_seats(state):
            events.extend(super()._advance(state))
        return events

    # ------------------------------------------------------------- orders
    def _parse_breach(self, state: State, seat: str, words: list[str]) -> Action:
        if len(words) != 2:
            raise InvalidOrder("usage: `breach <catapult or GRD> <hexside>`, e.g. `breach SC1 1603/ne`")
        return Action("breach", (self.resolve_unit(words[0]), _hexside(words[1])))

    def _parse_missile(self, verb: str, words: list[str]) -> Action:
        if len(words) != 3 or words[1].lower() != "at":
            raise InvalidOrder(f"usage: `{verb} <catapult> at <hex>`, e.g. `{verb} SC1 at 1806`")
        return Action(verb, (self.resolve_unit(words[0]), "at", self._hex_token(words[2])))

    def _parse_fireball(self, state: State, seat: str, words: list[str]) -> Action:
        return self._parse_missile("fireball", words)

    def _parse_head(self, state: State, seat: str, words: list[str]) -> Action:
        return self._parse_missile("head", words)

    def _parse_ladder(self, state: State, seat: str, words: list[str]) -> Action:
        if len(words) != 2:
            raise InvalidOrder("usage: `ladder <unit> <hexside>`, e.g. `ladder OI1 1603/ne`")
        return Action("ladder", (self.resolve_unit(words[0]), _hexside(words[1])))

    def _parse_pickup(self, state: State, seat: str, words: list[str]) -> Action:
        if len(words) != 2:
            raise InvalidOrder("usage: `pickup <unit> <cauldron>`, e.g. `pickup GS1 K2`")
        return Action("pickup", (self.resolve_unit(words[0]), self.resolve_unit(words[1])))

    def _parse_pour(self, state: State, seat: str, words: list[str]) -> Action:
        if len(words) != 2 or words[1].lower() not in POUR_MODES:
            raise InvalidOrder("usage: `pour <unit> any|towers|hold` (the carrier's standing order, 16.74)")
        return Action("pour", (self.resolve_unit(words[0]), words[1].lower()))

    def _siege_step(self, state: State, seat: str, what: str, section: str) -> None:
        self.seat_check(state, seat)
        if self.kind(state) != "siege":
            raise IllegalOrder(f"{what} only in the Siege Phase; now: {self.step(state)['title']}", section)

    def _own_catapult(self, state: State, seat: str, uid: str, section: str) -> Hex:
        u = self._own_on_map(state, seat, uid)
        if u.type != "catapult":
            raise IllegalOrder(f"{uid} is not a catapult", section)
        if self._fired_this_turn(state, uid):
            raise IllegalOrder(f"{uid} has already fired this Game-Turn (one firing a turn, 16.12)", "16.12")
        return Hex.parse(state["units"][uid]["hex"])

    def _clear_line(self, a: Hex, b: Hex) -> Hex | None:
        """16.24, 16.61: the first mountain hex between ``a`` and ``b`` (ends excluded), if any."""
        for h in line(a, b)[1:-1]:
            if h in self.hexmap and self.hexmap.hexes[h].terrain == "mountain":
                return h
        return None

    # --- breach (16.2)
    def _check_breach(self, state: State, seat: str, *args: str) -> None:
        uid, hs = args
        self._siege_step(state, seat, "breaching", "16.2")
        if seat != "sauron":
            raise IllegalOrder("only Sauron breaches the walls of Minas Tirith", "16.2")
        self._breach_range(state, seat, uid, hs)

    def _breach_range(self, state: State, seat: str, uid: str, hs: str) -> tuple[str, str, int]:
        """(weapon, target kind, range) of a legal breach attempt, else IllegalOrder."""
        side = Hexside.parse(hs)
        kind = self.hexmap.hexsides.get(side)
        if kind is None:
            raise IllegalOrder(f"{hs} is not a wall, gate or tower hexside", "16.21")
        if self._breached(state, hs):
            raise IllegalOrder(f"{hs} is already breached", "16.27")
        u = self.units[uid]
        if u.type == "grond":
            self._own_on_map(state, seat, uid)
            if not state.get("grond_active"):
                raise IllegalOrder("Grond must first be operated by the Lord of the Nazgul's spell", "16.28")
            if self._fired_this_turn(state, uid):
                raise IllegalOrder("Grond has already struck this Game-Turn", "16.28")
            here = Hex.parse(state["units"][uid]["hex"])
            if here not in side.hexes():
                raise IllegalOrder(f"Grond must be next to {hs} (in one of its two hexes)", "16.28")
            occ = self.occupancy(state)
            if not any(self.units[x].type == "troll" or "uruk" in self.units[x].tags
                       for x in occ.get(str(here), ()) if self.units[x].side == seat):
                raise IllegalOrder("a Troll or Uruk-Hai unit must be in Grond's hex", "16.28")
            if self._outer_wall(hs) and not self._is_main_gate(hs):
                raise IllegalOrder("the Outer Wall can never be breached, not even by Grond (15.23)", "15.23")
            return "grond", kind, 1
        here = self._own_catapult(state, seat, uid, "16.21")
        if self._is_main_gate(hs):
            raise IllegalOrder("only Grond may breach the Main Gate (15.23)", "15.23")
        if self._outer_wall(hs):
            raise IllegalOrder("the Outer Wall can never be breached by siege equipment (15.23)", "15.23")
        a, b = side.hexes()
        near = min((a, b), key=lambda h: (distance(here, h), str(h)))
        rng = distance(here, near) + 1  # 16.23: adjacent to the hexside is range 1
        top = self.siege_chart(state)["breach_range"]
        if rng > top:
            raise IllegalOrder(f"{hs} is at range {rng} from {uid}; catapults reach walls at range {top} at most",
                               "16.23")
        m = self._clear_line(here, near)
        if m is not None:
            raise IllegalOrder(f"catapults never fire through mountain hexes ({m})", "16.24")
        return "catapult", kind, rng

    def breach_totals(self, state: State, weapon: str, kind: str, rng: int) -> frozenset[int]:
        row = self.charts_for(state)["breach"][weapon][kind]
        return parse_totals(row[min(rng, len(row)) - 1], 2, 12)

    def _apply_breach(self, state: State, seat: str, *args: str) -> list[Event]:
        uid, hs = args
        weapon, kind, rng = self._breach_range(state, seat, uid, hs)
        state["siege"]["fired"][uid] = state["turn"]
        dice = Dice(state["dice"])
        a, b = dice.d6("breach"), dice.d6("breach")
        need = self.breach_totals(state, weapon, kind, rng)
        need_txt = ", ".join(str(x) for x in sorted(need)) or "nothing"
        who = "Grond" if weapon == "grond" else uid
        head = (f"Sauron: {who} strikes the {kind} {hs} (range {rng}, needs {need_txt} on two dice): "
                f"{a}+{b}={a + b}")
        if a + b not in need:
            return [Event(public=head + ", no effect (16.22).", section="16.22", rolls=dice.rolls)]
        state["markers"].append({"type": "breached", "hexside": hs})
        text = head + ", BREACHED for the rest of the game (16.22, 16.27)."
        if weapon == "grond" and self._is_main_gate(hs):
            state["grond_breached_main"] = True
            text += " The Main Gate has fallen to Grond (19.11 B)."
        events = [Event(public=text, section="16.22", rolls=dice.rolls)]
        # 16.5: infantry stacked with the weapon, at range 1, may advance through at once
        if rng == 1:
            here = state["units"][uid]["hex"]
            side = Hexside.parse(hs)
            a_, b_ = side.hexes()
            there = str(b_ if str(a_) == here else a_)
            occ = self.occupancy(state)
            movers = [x for x in occ.get(here, ()) if self.units[x].side == seat
                      and self.units[x].type in INFANTRY_TYPES]
            if movers and not any(self.units[x].side != seat and (self.units[x].is_combat or self.units[x].is_leader)
                                  for x in occ.get(there, ())):
                state["ph"]["advance"] = {"seat": seat, "units": sorted(movers), "hex": there, "siege": True}
                ok = [m for m in sorted(movers) if self._ok(state, seat, Action("advance", (m, there)))]
                state["ph"]["advance"] = {"seat": seat, "units": ok, "hex": there, "siege": True} if ok else None
                if ok:
                    events.append(Event(public=f"{' or '.join(ok)} may advance through the breach into {there} "
                                               f"(`advance <unit> {there}`, now or never, 16.5).", section="16.5"))
        return events

    # --- fireballs and heads (16.6, 16.8)
    def _check_fireball(self, state: State, seat: str, *args: str) -> None:
        self._siege_step(state, seat, "fireballs", "16.6")
        self._missile_range(state, seat, args[0], args[2], "16.61")

    def _check_head(self, state: State, seat: str, *args: str) -> None:
        self._siege_step(state, seat, "severed heads", "16.8")
        if seat != "sauron":
            raise IllegalOrder("only Sauron hurls severed heads", "16.8")
        if state["siege"]["heads_left"] <= 0:
            raise IllegalOrder("all twelve severed heads have been thrown", "16.81")
        self._missile_range(state, seat, args[0], args[2], "16.82")

    def _missile_range(self, state: State, seat: str, uid: str, hx: str, section: str) -> int:
        here = self._own_catapult(state, seat, uid, section)
        h = Hex.parse(hx)
        if h not in self.hexmap:
            raise IllegalOrder(f"hex {hx} is off the map")
        d = distance(here, h)
        top = self.siege_chart(state)["fireball_range"]
        if d == 0 or d > top:
            raise IllegalOrder(f"{hx} is {d} hexes from {uid}; catapults hurl 1 to {top} hexes (counting the "
                               "target hex, not the catapult's)", "16.61")
        m = self._clear_line(here, h)
        if m is not None:
            raise IllegalOrder(f"catapults never fire through mountain hexes ({m})", "16.61")
        return d

    def _landing(self, state: State, dice: Dice, uid: str, hx: str) -> tuple[Hex | None, str]:
        """16.63: where a missile thrown at ``hx`` lands, and how it got there."""
        ch = self.siege_chart(state)
        d = distance(state["units"][uid]["hex"], hx)
        target = Hex.parse(hx)
        if d not in ch["scatter_ranges"]:
            return target, f"range {d}, on target"
        roll = dice.d6("scatter?")
        if roll not in ch["scatter_rolls"]:
            return target, f"range {d}, die {roll}: on target"
        dirs = self.charts_for(state)["scatter"]["directions"]
        sroll = dice.d6("scatter")
        land = target.neighbour(dirs[sroll - 1])
        where = str(land) if land in self.hexmap else "off the map"
        return (land if land in self.hexmap else None), (
            f"range {d}, die {roll}: it scatters; Scatter Diagram die {sroll} ({dirs[sroll - 1]}): {where}")

    def _apply_fireball(self, state: State, seat: str, *args: str) -> list[Event]:
        uid, _, hx = args
        state["siege"]["fired"][uid] = state["turn"]
        dice = Dice(state["dice"])
        land, how = self._landing(state, dice, uid, hx)
        text = f"{self.title_of(seat)}: {uid} hurls a fireball at {hx} ({how})"
        if land is None:
            return [Event(public=text + "; it falls harmlessly off the map (16.63).", section="16.63",
                          rolls=dice.rolls)]
        lines = self.fireball_lands(state, str(land))
        return [Event(public=text + f"; it lands in {land}: " + "; ".join(lines) + ".", section="16.6",
                      rolls=dice.rolls)]

    def fireball_lands(self, state: State, hx: str) -> list[str]:
        """16.65-16.67, 16.86: what a fireball landing in ``hx`` does."""
        lines = []
        occ = self.occupancy(state)
        ids = list(occ.get(hx, ()))
        heads = [m for m in state["markers"] if m.get("type") == "head" and m.get("hex") == hx]
        if heads:
            state["markers"] = [m for m in state["markers"] if m not in heads]
            lines.append(f"{len(heads)} severed head{'s' if len(heads) > 1 else ''} burned away "
                         "(the Demoralization Points stay, 16.86)")
        towers = [x for x in ids if self.units[x].type == "siege_tower"]
        for x in sorted(ids):
            d = self.units[x]
            if d.type in ("catapult", "cauldron", "siege_tower"):
                self.eliminate(state, x)
                lines.append(f"{d.name} {x} destroyed")
            elif d.is_combat and towers:
                self.eliminate(state, x)
                lines.append(f"{d.label()}, stacked with the siege tower, eliminated")
        for ldr in [x for x in ids if self.units[x].is_leader and self.on_map(state, x)]:
            if not self.combat_units_in(state, hx):
                lines.extend(self._displace_leader(state, ldr))
        if not any(m.get("type") == "fire" and m.get("hex") == hx for m in state["markers"]):
            state["markers"].append({"type": "fire", "hex": hx})
        inside = self.hexmap.in_city(Hex.parse(hx))
        lines.append("fire burns there " + ("for the rest of the game (16.66)" if inside else
                                             "until the next Siege Phase (16.66)"))
        if not any("destroyed" in ln or "eliminated" in ln for ln in lines):
            lines.insert(0, "no casualties (16.65)")
        return lines

    def _apply_head(self, state: State, seat: str, *args: str) -> list[Event]:
        uid, _, hx = args
        state["siege"]["fired"][uid] = state["turn"]
        state["siege"]["heads_left"] -= 1
        dice = Dice(state["dice"])
        land, how = self._landing(state, dice, uid, hx)
        left = state["siege"]["heads_left"]
        text = f"Sauron: {uid} hurls a severed head at {hx} ({how})"
        sec = "16.8"
        if land is None or not self.hexmap.in_city(land):
            end = "; it lands outside the city and is removed from play (16.85)"
            sec = "16.85"
        elif any(m.get("type") == "fire" and m.get("hex") == str(land) for m in state["markers"]):
            end = f"; it lands in {land}, on fire, and is consumed: no Demoralization Point (16.86)"
            sec = "16.86"
        elif any(self.units[x].type == "cauldron" for x in self.occupancy(state).get(str(land), ())):
            end = f"; it lands in {land}, in a cauldron, and is lost: no Demoralization Point (16.86)"
            sec = "16.86"
        else:
            state["markers"].append({"type": "head", "hex": str(land)})
            state["dem"]["garrison"] = state["dem"].get("garrison", 0) + 1
            end = (f"; it lands in {land}: +1 garrison Demoralization Point (16.83); Westernesse units there "
                   "defend one Morale grade worse (16.84)")
        return [Event(public=text + end + f". {left} head{'s' if left != 1 else ''} left (16.81).", section=sec,
                      rolls=dice.rolls)]

    # --- ladders (16.43)
    def _check_ladder(self, state: State, seat: str, *args: str) -> None:
        uid, hs = args
        self.seat_check(state, seat)
        if self.kind(state) != "move" or self.phasing(state) != seat:
            raise IllegalOrder("ladders are set up in your Movement Phase", "16.43")
        u = self._own_on_map(state, seat, uid)
        if not u.is_combat:
            raise IllegalOrder(f"{uid} is not a combat unit", "16.43")
        if u.is_mounted:
            raise IllegalOrder("cavalry and Mumakil never use ladders (16.48)", "16.48")
        side = Hexside.parse(hs)
        here = Hex.parse(state["units"][uid]["hex"])
        if self.hexmap.hexsides.get(side) is None or here not in side.hexes():
            raise IllegalOrder(f"{hs} is not a wall, gate or tower hexside of {uid}'s hex {here}", "16.43")
        other = next(h for h in side.hexes() if h != here)
        if self.hexmap.level(other) <= self.hexmap.level(here):
            raise IllegalOrder(f"a ladder climbs to a higher level; {other} is not above {here}", "16.43")
        if self._breached(state, hs):
            raise IllegalOrder(f"{hs} is breached: no ladder is needed (16.4)", "16.4")
        if any(m["hexside"] == hs and m["hex"] == str(here) for m in self._ladders(state)):
            raise IllegalOrder(f"a ladder already stands against {hs}", "16.43")
        if state["siege"]["ladders_left"] <= 0:
            raise IllegalOrder("no Ladder counters are left (counter-mix limit, 16.47)", "16.47")

    def _apply_ladder(self, state: State, seat: str, *args: str) -> list[Event]:
        uid, hs = args
        hx = state["units"][uid]["hex"]
        state["siege"]["ladders_left"] -= 1
        state["markers"].append({"type": "ladder", "hex": hx, "hexside": hs, "side": seat, "turn": state["turn"]})
        return [Event(public=f"{self.title_of(seat)}: {uid} sets a ladder against {hs} in {hx}; it may be climbed "
                             f"from next Game-Turn (+{self.siege_chart(state)['ladder_cost']} MP; "
                             f"{state['siege']['ladders_left']} ladders left) (16.43).", section="16.43")]

    # --- oil (16.72-16.75)
    def _check_pickup(self, state: State, seat: str, *args: str) -> None:
        uid, k = args
        self.seat_check(state, seat)
        if seat != "westernesse":
            raise IllegalOrder("Sauron units may never use cauldrons", "16.73")
        if self.kind(state) != "move" or self.phasing(state) != seat:
            raise IllegalOrder("oil is picked up in your Movement Phase", "16.72")
        u = self._own_on_map(state, seat, uid)
        if not u.is_combat:
            raise IllegalOrder(f"{uid} is not a combat unit", "16.72")
        c = self.units.get(k)
        if c is None or c.type != "cauldron" or not self.on_map(state, k):
            raise IllegalOrder(f"{k} is not a cauldron on the map", "16.72")
        if state["units"][k]["hex"] != state["units"][uid]["hex"]:
            raise IllegalOrder(f"{uid} must be in {k}'s hex ({state['units'][k]['hex']})", "16.72")
        if state["units"][k].get("oil", 0) <= 0:
            raise IllegalOrder(f"{k} has no oil counters left", "16.72")
        if state["units"][uid].get("oil_from"):
            raise IllegalOrder(f"{uid} already carries an oil counter (one each, 16.75)", "16.75")

    def _apply_pickup(self, state: State, seat: str, *args: str) -> list[Event]:
        uid, k = args
        state["units"][k]["oil"] -= 1
        state["units"][uid]["oil_from"] = k
        state["siege"]["pour"][uid] = "hold"
        ph = state["ph"]
        here = Hex.parse(state["units"][uid]["hex"])
        if uid in ph["moved"] and here not in self.zoc_map(state, seat):
            # 16.72 "enters ... picks up ... and moves off": the rest of its allowance
            ph["moved"] = [x for x in ph["moved"] if x != uid]
            ph.setdefault("resume", []).append(uid)
        return [Event(public=f"Westernesse: {uid} picks up an oil counter from {k} ({state['units'][k]['oil']} left "
                             "there); it moves and defends one point worse while it carries it (16.72, 16.75).",
                      section="16.72")]

    def _check_pour(self, state: State, seat: str, *args: str) -> None:
        uid, mode = args
        self.seat_check(state, seat)
        if seat != "westernesse":
            raise IllegalOrder("only Westernesse pours oil", "16.74")
        self._own_on_map(state, seat, uid)
        if not state["units"][uid].get("oil_from"):
            raise IllegalOrder(f"{uid} carries no oil", "16.74")
        if state["siege"]["pour"].get(uid, "hold") == mode:
            raise IllegalOrder(f"{uid}'s standing order is already `{mode}`", "16.74")

    def _apply_pour(self, state: State, seat: str, *args: str) -> list[Event]:
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

    # ------------------------------------------------------ legal actions
    def legal_extra(self, state: State, seat: str) -> Iterator[Action]:
        yield from super().legal_extra(state, seat)
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

    def _legal_ladders(self, state: State, seat: str) -> Iterator[Action]:
        if state["siege"]["ladders_left"] <= 0:
            return
        for u, d in sorted(self.units.items()):
            if d.side != seat or not d.is_combat or not self.on_map(state, u) or d.is_mounted:
                continue
            for hs in self._wall_sides_of(Hex.parse(state["units"][u]["hex"])):
                a = Action("ladder", (u, hs))
                if self._ok(state, seat, a):
                    yield a

    # ---------------------------------------------------------------- view
    def view_extra(self, state: State, own: str | None, view: dict) -> None:
        super().view_extra(state, own, view)
        real = set(state["hidden"].get("real_cauldrons", ()))
        for d in view["units"]:
            rec = state["units"][d["id"]]
            if rec.get("oil_from"):
                d["carrying"] = "oil"
                d["oil_from"] = rec["oil_from"]
                if own == "westernesse":
                    d["oil_real"] = rec["oil_from"] in real
            if d["type"] == "grond" and state.get("grond_active"):
                d["active"] = True
            if d["type"] == "siege_tower":
                sides = self._ready_sides(state, d["id"])
                if sides:
                    d["ready"] = sides
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
