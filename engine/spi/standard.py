"""SPI Games of Middle-earth Standard Rules (cases 1.0-10.0), shared by
Gondor, Sauron and Field of Celebrant.

A ruleset subclasses :class:`StandardRules` and supplies data (map, order of
battle, charts, sequence of play, spells) and a few hooks (hexside rules,
reinforcement schedule, victory). Everything here is pure: the state is a
JSON-able dict, dice come only from ``Dice(state["dice"])``.

Order notation (CONVENTIONS.md), unit ids then hexes:
  move <unit> [<unit>...] [<hex>...] <hex>   move a unit (or a stack) to a hex;
                                             the cheapest legal path unless hexes are given
  fire <unit> [<unit>...] at <hex>           missile fire (7.1), each firer resolved in turn
  duel <leader> <enemy leader>               leader (individual) combat (7.2)
  melee <unit> [<unit>...] at <hex>          melee (7.3), each attacker resolved in turn
  advance <unit> <hex>                       advance after combat into the vacated hex (7.5)
  retreat <unit> <hex>                       the owner's choice of retreat (7.5)
  rally <leader> <unit>                      rally a Disrupted unit (8.3)
  cast <leader> <spell> [<points>] [<target>] cast a spell (8.5); points default to the full cost
  form shieldwall|wedge <unit> <unit> <leader>  special formation (8.4)
  disband <unit> <hex>                       leave a formation into an adjacent hex (8.4)
  done                                       end your part of the phase
"""
from __future__ import annotations

import math
import re
from fractions import Fraction
from functools import cached_property
from typing import Iterator

from engine import chartguard
from engine.core import (
    Action,
    AmbiguousOrder,
    Dice,
    Event,
    IllegalOrder,
    InvalidOrder,
    Result,
    RulesetBase,
    State,
)
from engine.hexgrid import Hex, HexError, cheapest_path, distance, reachable
from engine.maps import HexMap
from engine.spi.charts import ChartError, Charts, cached, result_text, severity, shift_letter, shift_morale
from engine.units import Ratings, UnitDef

_HEX = re.compile(r"^\d{4}$")


def _phrase(items: list[str]) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def pct(f: Fraction) -> str:
    return f"{float(f) * 100:.1f}%"


class StandardRules(RulesetBase):
    """The Standard Rules engine. Subclasses set ``name``, ``title``,
    ``seats``, ``side_titles``, ``side_colors`` and provide ``hexmap``,
    ``units``, ``sequence``, ``ruleset_charts_text`` and ``spells``."""

    name = "spi"
    title = "SPI Standard Rules"
    has_odds = True
    takes_charts = True
    seats: tuple[str, ...] = ()
    side_titles: dict[str, str] = {}
    side_colors: dict[str, str] = {}
    state_version = 2

    # ------------------------------------------------------------------ data
    hexmap: HexMap
    units: dict[str, UnitDef]
    sequence: dict
    ruleset_charts_text: str = ""
    spells: dict[str, dict] = {}

    @cached_property
    def steps(self) -> dict[str, dict]:
        seq = self.sequence
        return {s["id"]: s for s in seq.get("setup", []) + seq["step"]}

    @cached_property
    def step_order(self) -> list[str]:
        return [s["id"] for s in self.sequence.get("setup", [])] + [s["id"] for s in self.sequence["step"]]

    def charts_for(self, state: State) -> Charts:
        return cached(self.ruleset_charts_text, state["options"].get("charts", ""))

    @cached_property
    def charts(self) -> Charts:
        """The ruleset's charts without a group's override (for help texts)."""
        return cached(self.ruleset_charts_text, "")

    def check_charts(self, text: str) -> Charts:
        """A group's chart file (``options:charts=<TOML>``) over this ruleset's
        charts: the text, the parse and every bound (``engine.chartguard``), then
        the ruleset's own tables (``check_group_charts``). Only ChartError escapes."""
        if not chartguard.check_text(text).strip():
            raise ChartError("the chart file is empty")
        ch = cached(self.ruleset_charts_text, text)
        try:
            self.check_group_charts(ch, text)
        except ChartError:
            raise
        except (ValueError, KeyError, TypeError, AttributeError, IndexError, RecursionError) as e:
            raise ChartError(f"missing {e}" if isinstance(e, KeyError) else str(e) or type(e).__name__) from None
        return ch

    def check_group_charts(self, charts: Charts, text: str) -> None:
        """A ruleset's checks of its own chart tables (raise ChartError or ValueError)."""

    def enemy(self, seat: str) -> str:
        return next(s for s in self.seats if s != seat)

    def title_of(self, seat: str) -> str:
        return self.side_titles.get(seat, seat)

    # ------------------------------------------------------------- the state
    def base_state(self, options: dict, seed: str) -> State:
        from engine.core import new_dice
        return {
            "ruleset": self.name,
            "version": self.state_version,
            "options": options,
            "dice": new_dice(seed),
            "turn": 0,
            "step": self.step_order[0],
            "done": [],
            "units": {},
            "markers": [],
            "gates": {},
            "dem": {},
            "hidden": {},
            "over": None,
            "ph": self._fresh_phase(),
            "pending": [],
            "effects": [],
            "spell_count": {},
            "cast_turn": {},
            "formations": {},
            "arrived": {},
        }

    @staticmethod
    def _fresh_phase() -> dict:
        return {"moved": [], "fired": [], "meleed": [], "dueled": [], "rally_tries": {}, "rallied": [],
                "entered": {}, "segment": "fire", "must": [], "cast": [], "advance": None}

    def unit_record(self, u: UnitDef) -> dict:
        rec: dict = {"hex": None, "status": "reinforcement" if u.setup == "reinforcement" else "pool"}
        if u.ratings:
            rec.update(reduced=False, disrupted=False, dem_paid=0)
        if u.is_leader:
            rec["rally_lost"] = 0
            if u.magic:
                rec["magic"] = u.magic
        return rec

    # ------------------------------------------------------------ unit facts
    def on_map(self, state: State, uid: str) -> bool:
        return state["units"][uid]["status"] == "map"

    def ratings(self, state: State, uid: str) -> Ratings | None:
        u = self.units[uid]
        if state["units"][uid].get("reduced"):
            return u.reduced_ratings()
        return u.ratings

    def leader_rating(self, state: State, uid: str, for_rally: bool = True) -> int:
        """A leader's current Rally Rating: printed (or the option), the night
        rating at night where it has one, less Rally Points lost (19.2)."""
        u = self.units[uid]
        base = self.printed_rally(state, uid)
        if self.is_night(state) and u.night_rally:
            base = u.night_rally
        ch = self.charts_for(state)
        if self.is_night(state) and (u.tags & set(ch["night"].get("leader_bonus_tags", []))):
            base += ch["night"].get("leader_bonus", 0)
        r = base - state["units"][uid].get("rally_lost", 0)
        if for_rally and self.demoralized(state, self.army_of(uid)):
            r -= ch["demoralization"].get("rally_penalty", 0)
        return max(r, 0)

    def printed_rally(self, state: State, uid: str) -> int:
        return 0

    def army_of(self, uid: str) -> str:
        u = self.units[uid]
        return u.army or u.side

    def is_magic_leader(self, uid: str) -> bool:
        u = self.units[uid]
        return u.is_leader and bool(u.magic)

    def occupancy(self, state: State) -> dict[str, list[str]]:
        occ: dict[str, list[str]] = {}
        for uid, r in state["units"].items():
            if r["status"] == "map" and r["hex"] is not None:
                occ.setdefault(r["hex"], []).append(uid)
        return occ

    def combat_units_in(self, state: State, hx: str, occ=None) -> list[str]:
        occ = occ if occ is not None else self.occupancy(state)
        return [x for x in occ.get(hx, ()) if self.units[x].is_combat]

    def side_in(self, state: State, hx: str, occ=None) -> str | None:
        occ = occ if occ is not None else self.occupancy(state)
        for x in occ.get(hx, ()):
            if self.units[x].is_combat or self.units[x].is_leader:
                return self.units[x].side
        return None

    def is_night(self, state: State) -> bool:
        return state["turn"] in self.sequence.get("night_turns", [])

    def step(self, state: State) -> dict:
        return self.steps[state["step"]]

    def kind(self, state: State) -> str:
        return self.step(state).get("kind", "setup" if state["turn"] == 0 else "other")

    def phasing(self, state: State) -> str | None:
        s = self.step(state)
        return s.get("side") or (s["seats"][0] if len(s["seats"]) == 1 else None)

    # ------------------------------------------------------------ hooks
    def hexside_rule(self, state: State, uids: list[str], a: Hex, b: Hex,
                     retreat: bool = False) -> float | str | None:
        """Extra MP to cross the hexside a|b, ``None`` if forbidden, ``"all"``
        if crossing costs the whole allowance (and ends the move). Consulted
        for hexsides with a map feature (wall, gate, river...). ``retreat`` is
        true when a retreat (7.5) asks. Default: 0."""
        return 0

    def extra_blocked(self, state: State, seat: str, uids: list[str]) -> set[Hex]:
        """Hexes ``uids`` may not enter (move, retreat or advance) for a
        ruleset's own reasons (Gondor 14.31: cavalry never next to Mumakil)."""
        return set()

    def init_extra(self, state: State) -> None:
        """Hook for a ruleset's mixins to add their state keys to a new game."""

    def view_extra(self, state: State, own: str | None, view: dict) -> None:
        """Hook for a ruleset's mixins to add to a seat's view (and its notes)."""

    def dem_total(self, state: State, army: str) -> int:
        """An army's demoralization points now (9.1; a ruleset may adjust)."""
        return state["dem"].get(army, 0)

    def zoc_through(self, state: State, a: Hex, b: Hex) -> bool:
        """Whether a ZOC extends from ``a`` into adjacent ``b``."""
        return True

    def zoc_through_fn(self, state: State):
        """``zoc_through`` for one state, as a function of (a, b): a ruleset may
        work out what it needs once per call of ``zoc_map`` (speed only)."""
        return lambda a, b: self.zoc_through(state, a, b)

    def movement_allowance(self, state: State, uid: str) -> float:
        u = self.units[uid]
        ch = self.charts_for(state)
        ma = u.movement if u.movement is not None else ch["movement"].get(u.type, ch["movement"]["infantry"])
        f = self.formation_of(state, uid)
        if f:
            ma = min(ma, ch["formations"][state["formations"][f]["kind"]]["movement"])
        if u.is_leader and self.kind(state) == "rally" and self.step(state).get("leader_moves"):
            ma = min(ma, self.step(state)["leader_moves"])  # FoC 8.38: up to 3 MP before rallying
        return ma

    def reinforcement_entry(self, state: State, uid: str) -> list[str] | None:
        """Hexes a reinforcement may enter by now, or None if it may not enter."""
        return None

    def on_step_start(self, state: State) -> list[Event]:
        return []

    def on_unit_lost(self, state: State, uid: str, points: int) -> None:
        """A unit or leader cost ``points`` of demoralization (9.1, 19.2)."""
        army = self.army_of(uid)
        state["dem"][army] = state["dem"].get(army, 0) + points

    def dem_level(self, state: State, army: str) -> int | None:
        return None

    def unit_dem_value(self, state: State, uid: str) -> int:
        """A combat unit's demoralization value (9.12): the chart's formula by
        default; a ruleset may print it on the counter (FoC 9.12)."""
        return self.charts_for(state).demoralization_value(self.units[uid].ratings)

    def may_enter_enemy_leaders(self, state: State, uids: list[str]) -> bool:
        """Whether ``uids`` may enter a hex holding enemy leaders but no enemy
        combat unit (4.27: not under the Standard Rules; FoC amends it)."""
        return False

    def demoralized(self, state: State, army: str) -> bool:
        lvl = self.dem_level(state, army)
        return lvl is not None and self.dem_total(state, army) >= lvl

    def check_victory(self, state: State) -> dict | None:
        return None

    def extra_verbs(self) -> dict:
        """verb -> (parse(state, seat, words) -> Action, check, apply, legal(state, seat))."""
        return {}

    # -------------------------------------------------------------- sequence
    def active_seats(self, state: State) -> list[str]:
        if state["over"]:
            return []
        if state["pending"]:
            return [state["pending"][0]["seat"]]
        return [s for s in self.step(state)["seats"] if s not in state["done"]]

    def phase_title(self, state: State) -> str:
        step = self.step(state)
        return f"{step['title']} ({step['section']})"

    def _advance(self, state: State) -> list[Event]:
        order = self.step_order
        first_play = self.sequence["step"][0]["id"]
        i = order.index(state["step"])
        state["done"] = []
        events: list[Event] = []
        if i + 1 < len(order):
            state["step"] = order[i + 1]
            if state["step"] == first_play:
                state["turn"] = 1
                events.append(Event(public="Set-up is complete (13.0).", section="13.0"))
        else:
            end = self.end_of_turn(state)
            events.extend(end)
            if state["over"]:
                return events
            state["turn"] += 1
            state["step"] = first_play
        state["ph"] = self._fresh_phase()
        if state["turn"] > self.sequence["turns"]:
            v = self.final_result(state)
            state["over"] = v
            events.append(Event(public=v["summary"], section=v.get("section"), new_phase=True))
            return events
        self._expire_effects(state)
        step = self.step(state)
        if step.get("kind") == "combat":
            state["ph"]["must"] = self._obligations(state, step["side"])
        head = "Set-up" if state["turn"] == 0 else (
            f"Game-Turn {state['turn']} ({'night' if self.is_night(state) else 'day'})")
        events.extend(self.on_step_start(state))
        if state["over"]:
            return events
        # who acts (a ruleset may have found a seat with nothing to do here)
        who = " and ".join(self.title_of(s) for s in (self.active_seats(state) or step["seats"]))
        events.append(Event(public=f"{head}: {step['title']}. {who} to act ({step['section']}).",
                            section=step["section"], new_phase=True))
        return events

    def end_of_turn(self, state: State) -> list[Event]:
        return []

    def final_result(self, state: State) -> dict:
        n = self.sequence["turns"]
        words = {12: "twelve", 14: "fourteen", 15: "fifteen", 16: "sixteen", 18: "eighteen", 20: "twenty"}
        return {"winner": None, "summary": f"The {words.get(n, n)} Game-Turns are over "
                                           f"({self.sequence.get('length_section', '12.0')}).",
                "section": self.sequence.get("length_section", "12.0")}

    # -------------------------------------------------------------- notation
    def format(self, action: Action) -> str:
        return str(action)

    def public_order_text(self, text: str) -> str:
        """An order as the public reads it; a ruleset masks its secret orders."""
        return text

    def resolve_unit(self, token: str) -> str:
        t = token.upper()
        if t in self.units:
            return t
        matches = sorted(u for u in self.units if u.startswith(t)) if t else []
        if len(matches) > 1:
            raise AmbiguousOrder(f"`{token[:12]}` could be {', '.join(matches[:8])}{'…' if len(matches) > 8 else ''}",
                                 candidates=matches)
        if len(matches) == 1:
            return matches[0]
        raise IllegalOrder(f"there is no unit `{token[:12]}` in this game")

    @staticmethod
    def _hex_token(t: str) -> str:
        try:
            return str(Hex.parse(t))
        except HexError as e:
            raise InvalidOrder(str(e)) from None

    USAGE = {
        "move": "`move <unit> [<unit>...] <hex>`, e.g. `move GS1 1905`",
        "fire": "`fire <unit> [<unit>...] at <hex>`, e.g. `fire GB1 at 2007`",
        "melee": "`melee <unit> [<unit>...] at <hex>`, e.g. `melee GS1 at 2008`",
        "duel": "`duel <leader> <enemy leader>`, e.g. `duel IMR GOT`",
        "advance": "`advance <unit> <hex>`",
        "retreat": "`retreat <unit> <hex>`",
        "rally": "`rally <leader> <unit>`, e.g. `rally IMR GS1`",
        "cast": "`cast <leader> <spell> [<points>] [<target>]`, e.g. `cast NAZ fear 5`",
        "form": "`form shieldwall|wedge <unit> <unit> <leader>`",
        "disband": "`disband <unit> <hex>`",
    }

    def parse(self, state: State, seat: str, text: str) -> Action:
        action = self.parse_text(state, seat, text)
        if action.verb == "move":
            action = self._complete_move(state, seat, action)
        self.check(state, seat, action)
        return action

    def parse_text(self, state: State, seat: str, text: str) -> Action:
        if len(text) > 200:
            raise InvalidOrder("that order is too long (200 characters at most)")
        words = text.strip().split()
        if not words:
            raise InvalidOrder("empty order; type `/help` for the orders")
        verb = words[0].lower()
        rest = words[1:]
        extra = self.extra_verbs()
        if verb in extra:
            return extra[verb][0](state, seat, rest)
        usage = self.USAGE.get(verb)
        if verb == "done":
            if rest:
                raise InvalidOrder("usage: `done`")
            return Action("done")
        if verb == "move":
            ids = [w for w in rest if not _HEX.match(w)]
            hexes = [w for w in rest if _HEX.match(w)]
            if not ids or not hexes or rest[:len(ids)] != ids:
                raise InvalidOrder(f"usage: {usage}")
            uids = [self.resolve_unit(w) for w in ids]
            if len(set(uids)) != len(uids):
                raise InvalidOrder("a unit is named twice")
            return Action("move", (*uids, *[self._hex_token(h) for h in hexes]))
        if verb in ("fire", "melee"):
            if len(rest) < 3 or rest[-2].lower() != "at":
                raise InvalidOrder(f"usage: {usage}")
            uids = sorted({self.resolve_unit(w) for w in rest[:-2]})
            return Action(verb, (*uids, "at", self._hex_token(rest[-1])))
        if verb in ("duel", "rally"):
            if len(rest) != 2:
                raise InvalidOrder(f"usage: {usage}")
            return Action(verb, (self.resolve_unit(rest[0]), self.resolve_unit(rest[1])))
        if verb in ("advance", "retreat", "disband"):
            if len(rest) != 2:
                raise InvalidOrder(f"usage: {usage}")
            return Action(verb, (self.resolve_unit(rest[0]), self._hex_token(rest[1])))
        if verb == "cast":
            if len(rest) < 2 or len(rest) > 4:
                raise InvalidOrder(f"usage: {usage}")
            leader = self.resolve_unit(rest[0])
            spell = rest[1].lower()
            if spell not in self.spells:
                known = ", ".join(sorted(self.spells)) or "none"
                raise InvalidOrder(f"unknown spell `{spell[:20]}` (spells here: {known})")
            sp = self.spells[spell]
            more = rest[2:]
            points = None
            if more and more[0].isdigit():
                points = int(more[0])
                more = more[1:]
            if points is None:
                points = self.spell_cost(state, spell)
            target = None
            if more:
                target = self.resolve_unit(more[0]) if not _HEX.match(more[0]) else self._hex_token(more[0])
                more = more[1:]
            if more or (target is not None and not sp.get("target")):
                raise InvalidOrder(f"usage: {usage}" + ("" if sp.get("target") else f"; {spell} takes no target"))
            if sp.get("target") and target is None:
                raise InvalidOrder(f"{spell} needs a target: `cast {leader} {spell} <points> <{sp['target']}>`")
            args = (leader, spell, str(points)) + ((target,) if target else ())
            return Action("cast", args)
        if verb == "form":
            if len(rest) != 4 or rest[0].lower() not in ("shieldwall", "wedge"):
                raise InvalidOrder(f"usage: {self.USAGE['form']}")
            a, b, ldr = (self.resolve_unit(w) for w in rest[1:])
            return Action("form", (rest[0].lower(), a, b, ldr))
        known = ", ".join(f"`{v}`" for v in ["move", "fire", "duel", "melee", "advance", "retreat", "rally",
                                                 "cast", "form", "disband", *extra, "done"])
        raise InvalidOrder(f"unknown order `{words[0][:20]}`; orders: {known}")

    # ------------------------------------------------------------- legality
    def seat_check(self, state: State, seat: str) -> None:
        try:
            self._seat_check(state, seat)
        except IllegalOrder as e:
            hint = self._setup_order_hint()
            if state["turn"] == 0 and not state["over"] and seat in self.seats and seat not in state["done"] and hint:
                raise IllegalOrder(f"{e.message}. {hint}", "13.0") from None
            raise

    def _setup_order_hint(self) -> str:
        sides = [s.get("side") for s in self.sequence.get("setup", [])]
        if len(sides) < 2 or None in sides:
            return ""
        return f"{self.title_of(sides[0])} places first, then {self.title_of(sides[1])}"

    # --- set-up (13.0): `deploy <unit> <hex>`; a ruleset checks the hex in `_check_deploy`
    deploy_example = "GS1 1905"

    def _parse_deploy(self, state: State, seat: str, words: list[str]) -> Action:
        if len(words) != 2:
            raise InvalidOrder(f"usage: `deploy <unit> <hex>`, e.g. `deploy {self.deploy_example}`")
        return Action("deploy", (self.resolve_unit(words[0]), self._hex_token(words[1])))

    def _check_deploy_action(self, state: State, seat: str, action: Action) -> None:
        if len(action.args) != 2:
            raise InvalidOrder("usage: `deploy <unit> <hex>`")
        self._check_deploy(state, seat, *action.args)

    def _check_deploy(self, state: State, seat: str, uid: str, hx: str, occ=None) -> None:
        raise IllegalOrder("this game has no set-up orders", "13.0")

    def on_setup_step_end(self, state: State) -> list[Event]:
        """Hook: a set-up step is over (every seat in it done), before the next step."""
        return []

    def _seat_check(self, state: State, seat: str) -> None:
        if seat not in self.seats:
            raise IllegalOrder(f"`{seat}` is not a seat in {self.title}")
        if state["over"]:
            raise IllegalOrder("the game is over")
        if state["pending"]:
            p = state["pending"][0]
            if p["seat"] != seat:
                raise IllegalOrder(f"waiting for {self.title_of(p['seat'])} to retreat {p['unit']}", "7.5")
            return
        step = self.step(state)
        if seat not in step["seats"]:
            who = " and ".join(self.title_of(s) for s in step["seats"])
            raise IllegalOrder(f"it is the {step['title']}: {who} acts now", step["section"])
        if seat in state["done"]:
            raise IllegalOrder("you are already done with this phase")

    def check(self, state: State, seat: str, action: Action) -> None:
        self.seat_check(state, seat)
        v = action.verb
        if state["pending"] and v != "retreat":
            p = state["pending"][0]
            raise IllegalOrder(f"first choose where {p['unit']} retreats: "
                               f"`retreat {p['unit']} <hex>` ({', '.join(p['options'][:6])})", "7.5")
        extra = self.extra_verbs()
        if v in extra:
            extra[v][1](state, seat, action)
            return
        fn = getattr(self, f"_check_{v}", None)
        if fn is None:
            raise InvalidOrder(f"unknown order `{v}`")
        fn(state, seat, *action.args)

    def _need_kind(self, state: State, kinds: tuple[str, ...], what: str, section: str) -> None:
        if self.kind(state) not in kinds:
            step = self.step(state)
            raise IllegalOrder(f"{what} only in the {' or '.join(kinds)} phase; now: {step['title']}", section)

    def _own_on_map(self, state: State, seat: str, uid: str) -> UnitDef:
        u = self.units[uid]
        if u.side != seat:
            raise IllegalOrder(f"{uid} is not yours")
        if not self.on_map(state, uid):
            st = state["units"][uid]["status"]
            raise IllegalOrder(f"{uid} is not on the map ({st})")
        return u

    # --- done
    def _check_done(self, state: State, seat: str) -> None:
        if state["turn"] == 0:
            left = [uid for uid, u in self.units.items() if u.side == seat and state["units"][uid]["status"] == "pool"]
            if left:
                more = f" and {len(left) - 6} more" if len(left) > 6 else ""
                noun = "counter" if len(left) == 1 else "counters"
                raise IllegalOrder(f"{len(left)} {noun} still to deploy: {', '.join(left[:6])}{more}",
                                   self.step(state)["section"])
            return
        if self.kind(state) == "combat":
            left = self._unmet_obligations(state, seat)
            if left:
                raise IllegalOrder(
                    f"{_phrase(left[:6])} began the phase in an enemy zone of control and must attack one of the "
                    "units exerting it before you are done", "7.31")

    def _obligations(self, state: State, seat: str) -> list[str]:
        """7.31: phasing units that start the combat phase in an enemy ZOC."""
        occ = self.occupancy(state)
        out = []
        for uid in sorted(state["units"]):
            u = self.units[uid]
            if u.side == seat and u.is_combat and self.on_map(state, uid) and self._can_melee(state, uid):
                if self.exerting(state, Hex.parse(state["units"][uid]["hex"]), seat, occ):
                    out.append(uid)
        return out

    def _unmet_obligations(self, state: State, seat: str) -> list[str]:
        occ = self.occupancy(state)
        out = []
        for uid in state["ph"]["must"]:
            if self.units[uid].side != seat or not self.on_map(state, uid) or uid in state["ph"]["meleed"]:
                continue
            if not self._can_melee(state, uid):
                continue
            if self.exerting(state, Hex.parse(state["units"][uid]["hex"]), seat, occ):  # still in that ZOC
                out.append(uid)
        return out

    # --- zones of control
    def exerting(self, state: State, h: Hex, seat: str, occ=None) -> list[str]:
        """Enemy combat units whose ZOC covers hex ``h`` (for ``seat``)."""
        occ = occ if occ is not None else self.occupancy(state)
        ch = self.charts_for(state)
        through = self.zoc_through_fn(state)
        out = []
        for nb in h.neighbours():
            for x in occ.get(str(nb), ()):
                u = self.units[x]
                if u.side == seat or not u.has_zoc:
                    continue
                if not ch["zoc"].get("disrupted_exert", True) and state["units"][x].get("disrupted"):
                    continue
                if through(nb, h):
                    out.append(x)
        return out

    def zoc_map(self, state: State, seat: str, occ=None) -> set[Hex]:
        """Hexes in the ZOC of ``seat``'s enemies."""
        occ = occ if occ is not None else self.occupancy(state)
        ch = self.charts_for(state)
        through = self.zoc_through_fn(state)
        hexes = self.hexmap.hexes
        out: set[Hex] = set()
        for hx, ids in occ.items():
            for x in ids:
                u = self.units[x]
                if u.side == seat or not u.has_zoc:
                    continue
                if not ch["zoc"].get("disrupted_exert", True) and state["units"][x].get("disrupted"):
                    continue
                h = Hex.parse(hx)
                for nb in h.neighbours():
                    if nb in hexes and through(h, nb):
                        out.add(nb)
                break  # one exerting unit is enough for the hex
        return out

    # --- movement
    def _mover_kind(self, state: State, seat: str, uid: str) -> str | None:
        """Which phase kind lets ``uid`` move: magic leaders in magic phases
        (8.52); leaders in a rally phase that allows them a move (FoC 8.38)."""
        if self.units[uid].is_leader and self.kind(state) == "rally" and self.step(state).get("leader_moves"):
            return "rally"
        return "magic" if self.is_magic_leader(uid) else "move"

    def _stack_of(self, state: State, uids: tuple[str, ...]) -> list[str]:
        """Formation members move together (8.4)."""
        out = list(uids)
        for uid in uids:
            f = self.formation_of(state, uid)
            if f:
                for m in state["formations"][f]["units"]:
                    if m not in out:
                        out.append(m)
        return out

    def _complete_move(self, state: State, seat: str, action: Action) -> Action:
        """Formation members move together (8.4); a leading start hex is dropped.
        A single hex means "the cheapest legal path there", found again when
        the order is checked and applied (deterministic), so the order text
        round-trips as typed."""
        uids = [a for a in action.args if not _HEX.match(a)]
        hexes = [a for a in action.args if _HEX.match(a)]
        uids = self._stack_of(state, tuple(uids))
        start = state["units"][uids[0]]["hex"]
        if len(hexes) > 1 and start is not None and hexes[0] == start:
            hexes = hexes[1:]
        return Action("move", (*uids, *hexes))

    def _move_path(self, state: State, seat: str, uids: list[str], hexes: list[str]) -> list[str]:
        if len(hexes) == 1:
            path = self._find_path(state, seat, uids, hexes[0])
            if path is None:
                why = self._why_unreachable(state, seat, uids, hexes[0])
                raise IllegalOrder(why, self._why_section(state, seat, hexes[0], why))
            return path
        return hexes

    def _check_movers(self, state: State, seat: str, uids: list[str]) -> None:
        self.seat_check(state, seat)
        start = None
        for uid in uids:
            u = self.units[uid]
            if u.side != seat:
                raise IllegalOrder(f"{uid} is not yours")
            r = state["units"][uid]
            if r["status"] == "reinforcement":
                if self.reinforcement_entry(state, uid) is None:
                    raise IllegalOrder(f"{uid} is a reinforcement that may not enter now", u.section)
            elif r["status"] != "map":
                raise IllegalOrder(f"{uid} is not on the map ({r['status']})")
            if start is None:
                start = r["hex"]
            elif r["hex"] != start:
                raise IllegalOrder("units that move together must start in the same hex", "4.0")
            want = self._mover_kind(state, seat, uid)
            if self.kind(state) != want:
                if want == "magic":
                    raise IllegalOrder(f"{uid} is a magic leader: it moves only in the Magic Leader phases", "8.52")
                raise IllegalOrder(f"{uid} moves only in your Movement Phase; now: {self.step(state)['title']}", "4.0")
            if uid in state["ph"]["moved"]:
                raise IllegalOrder(f"{uid} has already moved this phase", "4.0")
            if uid in state["ph"]["cast"]:
                raise IllegalOrder(f"{uid} cast or tried a spell this phase and may not move", "8.52")
            if uid in state["ph"]["rally_tries"]:
                raise IllegalOrder(f"{uid} has begun rallying: a leader moves before its rally attempts", "8.38")
            frozen = next((e for e in state["effects"] if e.get("frozen") and uid in e["frozen"]), None)
            if u.is_leader and frozen:
                raise IllegalOrder(f"{uid} is frozen by {frozen['title']} and may not move", frozen.get("section"))
            if u.is_siege and not any(self.units[x].is_combat for x in uids):
                raise IllegalOrder(f"{uid} is siege equipment: it moves only with a combat unit stacked with it", "16.11")
            f = self.formation_of(state, uid)
            if f and self._formed_this_turn(state, f) and state["formations"][f]["kind"] == "wedge" \
                    and self.charts_for(state)["formations"].get("wedge_waits", True):
                raise IllegalOrder("a Wedge may not move on the turn it forms", "8.4")
        self.check_stack_move(state, seat, uids)

    def check_stack_move(self, state: State, seat: str, uids: list[str]) -> None:
        """Hook: siege equipment carriers and the like (Gondor 16.11-16.13)."""

    def _movers_ma(self, state: State, uids: list[str]) -> float:
        return min(self.movement_allowance(state, u) for u in uids)

    def _terrain_costs(self, state: State, cav: bool) -> dict[Hex, float | None]:
        """Hex -> MP to enter (None: impassable), from the TEC; cached per chart set."""
        ch = self.charts_for(state)
        key = (id(ch), cav)
        cache = self.__dict__.setdefault("_tc_cache", {})
        if key not in cache or cache[key][0] is not ch:  # an id can be reused once a chart set is dropped
            tec = ch["tec"]
            out: dict[Hex, float | None] = {}
            for h, info in self.hexmap.hexes.items():
                t = tec.get(info.terrain, {"cost": 1})
                out[h] = None if not t.get("passable", True) else (t.get("cavalry_cost", t["cost"]) if cav else t["cost"])
            cache[key] = (ch, out)
        return cache[key][1]

    @cached_property
    def _road_hexes(self) -> frozenset[Hex]:
        return frozenset(h for h, i in self.hexmap.hexes.items() if i.road)

    def _step_cost_fn(self, state: State, seat: str, uids: list[str], start: Hex | None, occ):
        ch = self.charts_for(state)
        tec = ch["tec"]
        enemy_zoc = self.zoc_map(state, seat, occ)
        fire_extra = tec.get("fire_extra", 3)
        fires = {Hex.parse(m["hex"]) for m in state["markers"] if m.get("type") == "fire" and m.get("hex")}
        cav = any(self.units[u].is_mounted for u in uids)
        disrupted = any(state["units"][u].get("disrupted") for u in uids)
        ma = self._movers_ma(state, uids)
        no_zoc_entry = disrupted and not ch["disrupted"].get("may_enter_zoc", True)
        zoc_to_zoc = ch["zoc"].get("zoc_to_zoc", False)
        terrain = self._terrain_costs(state, cav)
        roads = self._road_hexes
        road_cost = tec.get("road_cost")
        sides = self.hexmap.side_index
        # enemy combat units block; so do enemy leaders alone (4.27), unless a ruleset lets these movers in
        leaders_block = not self.may_enter_enemy_leaders(state, uids)
        blocked = {Hex.parse(hx) for hx, ids in occ.items()
                   if any(self.units[x].side != seat and (self.units[x].is_combat
                                                          or (leaders_block and self.units[x].is_leader))
                          for x in ids)}
        blocked |= self.extra_blocked(state, seat, uids)

        def cost(a: Hex, b: Hex) -> float | None:
            c = terrain.get(b)
            if c is None or b in blocked:
                return None
            if no_zoc_entry and b in enemy_zoc:
                return None
            if a == b:  # entering the map from off the edge (14.0)
                return c + (fire_extra if b in fires else 0)
            if start is not None and a != start and a in enemy_zoc:
                return None  # entering a ZOC ended the move
            if a == start and not zoc_to_zoc and a in enemy_zoc and b in enemy_zoc:
                return None
            side = 0
            if (a, b) in sides:
                side = self.hexside_rule(state, uids, a, b)
                if side is None:
                    return None
                if side == "all":
                    if a != start or b in enemy_zoc:
                        return None
                    return float(ma)
            elif road_cost is not None and a in roads and b in roads:
                c = min(c, road_cost)
            if b in fires:
                c += fire_extra
            return c + side

        return cost, enemy_zoc

    def _move_graph(self, state: State, seat: str, uids: list[str], occ=None):
        occ = occ if occ is not None else self.occupancy(state)
        start_s = state["units"][uids[0]]["hex"]
        start = Hex.parse(start_s) if start_s else None
        cost, enemy_zoc = self._step_cost_fn(state, seat, uids, start, occ)
        ma = self._movers_ma(state, uids)
        starts = None
        if start is None:  # a reinforcement: enter in a chain (14.0)
            starts = {}
            for hx in self.reinforcement_entry(state, uids[0]) or []:
                h = Hex.parse(hx)
                c = cost(h, h) if h in self.hexmap else None
                if c is None:
                    continue
                c += state["ph"]["entered"].get(hx, 0)
                if c <= ma:
                    starts[h] = c

        def expand(h: Hex) -> bool:
            return h not in enemy_zoc

        return start, starts, cost, expand, ma, enemy_zoc

    def _reach(self, state: State, seat: str, uids: list[str], occ=None) -> dict[Hex, float]:
        start, starts, cost, expand, ma, zoc = self._move_graph(state, seat, uids, occ)
        if start is None and not starts:
            return {}
        # a step that costs "all" is priced at the whole allowance, so the move ends there
        return reachable(start, cost, ma, expand=expand, starts=starts)

    def _find_path(self, state: State, seat: str, uids: list[str], dest: str) -> list[str] | None:
        start, starts, cost, expand, ma, zoc = self._move_graph(state, seat, uids)
        goal = Hex.parse(dest)
        res = cheapest_path(start, goal, cost, ma, expand=expand, starts=starts)
        if res is None:
            return None
        path = [str(h) for h in res[1]]
        if start is not None:
            path = path[1:]
        return path or None

    def _why_unreachable(self, state: State, seat: str, uids: list[str], dest: str) -> str:
        h = Hex.parse(dest)
        if h not in self.hexmap:
            return f"hex {dest} is off the map"
        info = self.hexmap.hexes[h]
        if not self.charts_for(state)["tec"].get(info.terrain, {}).get("passable", True):
            return f"{dest} is {info.terrain}: impassable"
        occ = self.occupancy(state)
        if any(self.units[x].side != seat for x in occ.get(dest, ()) if not self.units[x].is_siege):
            return f"{dest} holds enemy units"
        who = _phrase(uids)
        if state["units"][uids[0]]["hex"] is None:
            return f"{who} cannot enter and reach {dest} this phase (entry costs, 14.0)"
        return (f"{who} cannot reach {dest} with {self._movers_ma(state, uids):g} Movement Points "
                "(terrain, zones of control, walls)")

    def _check_move(self, state: State, seat: str, *args: str) -> None:
        uids = [a for a in args if not _HEX.match(a)]
        path = [a for a in args if _HEX.match(a)]
        if not uids or not path:
            raise InvalidOrder(f"usage: {self.USAGE['move']}")
        full = self._stack_of(state, tuple(uids))
        if sorted(full) != sorted(uids):
            missing = [x for x in full if x not in uids]
            raise IllegalOrder(f"{_phrase(missing)} must move with {uids[0]}: they are in one formation", "8.4")
        self._check_movers(state, seat, uids)
        path = self._move_path(state, seat, uids, path)
        occ = self.occupancy(state)
        end, spent, ma = self._path_spent(state, seat, uids, path, occ)
        if spent > ma + 1e-9:
            raise IllegalOrder(f"that path costs {spent:g} Movement Points; {_phrase(uids)} has {ma:g}", "4.0")
        self._check_stacking(state, seat, uids, end, occ)
        self.check_move_end(state, seat, uids, end, occ)

    def _path_spent(self, state: State, seat: str, uids: list[str], path: list[str], occ) -> tuple[str, float, float]:
        """(last hex, Movement Points the path costs, the allowance) of a move
        along ``path``; IllegalOrder for a step that may not be taken."""
        start, starts, cost, expand, ma, zoc = self._move_graph(state, seat, uids, occ)
        spent = 0.0
        if start is None:
            first = Hex.parse(path[0])
            if not starts or first not in starts:
                entry = self.reinforcement_entry(state, uids[0]) or []
                raise IllegalOrder(f"{uids[0]} must enter through one of its entry hexes "
                                   f"({_phrase(entry[:8])}{'…' if len(entry) > 8 else ''})", self.units[uids[0]].section)
            spent = starts[first]
            prev = first
            rest = path[1:]
        else:
            prev = start
            rest = path
        for i, hx in enumerate(rest):
            h = Hex.parse(hx)
            if h.distance(prev) != 1:
                raise IllegalOrder(f"{hx} is not next to {prev}", "4.0")
            if prev != start and prev in zoc:
                raise IllegalOrder(f"{_phrase(uids)} must stop on entering an enemy zone of control at {prev}", "6.0")
            c = cost(prev, h)
            if c is None:
                why = self._why_step(state, seat, uids, prev, h, zoc, start)
                raise IllegalOrder(why, self._why_section(state, seat, str(h), why))
            spent += c
            prev = h
        return str(prev), spent, ma

    def _why_section(self, state: State, seat: str, hx: str, why: str) -> str:
        """The case a refused move breaks: 4.27 for a hex holding only enemy
        leaders, 6.0 for the zone-of-control limits, else 4.0."""
        if why.endswith("holds enemy units"):
            enemy = [x for x in self.occupancy(state).get(hx, ()) if self.units[x].side != seat
                     and not self.units[x].is_siege]
            return "4.27" if enemy and all(self.units[x].is_leader for x in enemy) else "4.0"
        if "zone of control" in why and "(15.13)" not in why:
            return "6.0"
        return "4.0"

    def _why_step(self, state, seat, uids, a: Hex, b: Hex, zoc, start) -> str:
        if b not in self.hexmap:
            return f"{b} is off the map"
        info = self.hexmap.hexes[b]
        if not self.charts_for(state)["tec"].get(info.terrain, {}).get("passable", True):
            return f"{b} is {info.terrain}: impassable"
        occ = self.occupancy(state)
        if any(self.units[x].side != seat for x in occ.get(str(b), ()) if not self.units[x].is_siege):
            return f"{b} holds enemy units"
        if a == start and a in zoc and b in zoc:
            return f"{_phrase(uids)} may not move from one enemy zone of control straight into another ({a} to {b})"
        side = self.hexside_rule(state, uids, a, b) if (a, b) in self.hexmap.side_index else 0
        if side is None:
            return self.why_hexside(state, uids, a, b)
        if side == "all":
            return "crossing a wall downwards uses the whole Movement Allowance and may not end in an enemy zone of control (15.13)"
        disrupted = any(state["units"][u].get("disrupted") for u in uids)
        if b in zoc and disrupted and not self.charts_for(state)["disrupted"].get("may_enter_zoc", True):
            return f"{_phrase(uids)} is Disrupted and may not enter an enemy zone of control ({b})"
        if b in self.extra_blocked(state, seat, uids):
            return f"{_phrase(uids)} may not enter {b}"
        return f"{_phrase(uids)} may not move from {a} to {b}"

    def why_hexside(self, state, uids, a, b) -> str:
        return f"the hexside {a}/{b} may not be crossed"

    def check_move_end(self, state: State, seat: str, uids: list[str], dest: str, occ) -> None:
        """8.1 (inferred): a leader that is not a magic leader ends its move with a combat unit."""
        if self.charts_for(state)["stacking"].get("leaders_alone", False):
            return
        if all(self.units[u].is_leader and not self.is_magic_leader(u) for u in uids):
            friends = [x for x in occ.get(dest, ()) if self.units[x].is_combat and self.units[x].side == seat]
            if not friends:
                raise IllegalOrder(f"{_phrase(uids)} must end its move stacked with a friendly combat unit", "8.1")

    def _check_stacking(self, state: State, seat: str, uids: list[str], hx: str, occ) -> None:
        ch = self.charts_for(state)["stacking"]
        present = [x for x in occ.get(hx, ()) if x not in uids]
        leaders_block = not self.may_enter_enemy_leaders(state, uids)
        if any(self.units[x].side != seat and (self.units[x].is_combat or (leaders_block and self.units[x].is_leader))
               for x in present):
            raise IllegalOrder(f"hex {hx} holds enemy units", "4.27")
        combat = [x for x in present + uids if self.units[x].is_combat]
        forms = {self.formation_of(state, x) for x in combat}
        limit = ch["formation_units"] if len(forms) == 1 and None not in forms else ch["combat_units"]
        if len(combat) > limit:
            raise IllegalOrder(f"hex {hx} would hold {len(combat)} combat units ({_phrase(sorted(combat))}); "
                               f"one combat unit per hex, a formation two", "5.0")
        siege = [x for x in present + uids if self.units[x].is_siege]
        if len(siege) > ch.get("siege_equipment", 1):
            raise IllegalOrder(f"hex {hx} would hold more than one piece of siege equipment", "5.0")

    # --- combat: missile fire (7.1)
    def _combat_phase_check(self, state: State, seat: str, segment: str, section: str) -> None:
        self._need_kind(state, ("combat",), {"fire": "missile fire", "duel": "leader combat",
                                             "melee": "melee"}[segment], section)
        order = ["fire", "duel", "melee"]
        if order.index(state["ph"]["segment"]) > order.index(segment):
            raise IllegalOrder(f"{segment} comes before {state['ph']['segment']}: missile fire first, then leader "
                               "combat, then melee", "7.0")

    def _can_fire(self, state: State, uid: str) -> bool:
        r = self.ratings(state, uid)
        if not r or not r.missile:
            return False
        if state["units"][uid].get("disrupted") and not self.charts_for(state)["disrupted"].get("may_attack", False):
            return False
        return True

    def _can_melee(self, state: State, uid: str) -> bool:
        r = self.ratings(state, uid)
        if not r or not r.melee:
            return False
        if state["units"][uid].get("disrupted") and not self.charts_for(state)["disrupted"].get("may_attack", False):
            return False
        if self._wedge_waits(state, uid):
            return False
        return True

    def _wedge_waits(self, state: State, uid: str) -> bool:
        """8.4: a Wedge may neither move nor attack on the turn it forms."""
        f = self.formation_of(state, uid)
        return bool(f and self._formed_this_turn(state, f) and state["formations"][f]["kind"] == "wedge"
                    and self.charts_for(state)["formations"].get("wedge_waits", True))

    def missile_range(self, state: State, uid: str) -> int:
        ch = self.charts_for(state)["missile"]
        return ch["mounted_range"] if self.units[uid].is_cavalry else ch["range"]

    def _target_units(self, state: State, seat: str, hx: str, occ=None) -> list[str]:
        occ = occ if occ is not None else self.occupancy(state)
        return sorted(x for x in occ.get(hx, ()) if self.units[x].is_combat and self.units[x].side != seat)

    def _check_fire(self, state: State, seat: str, *args: str) -> None:
        uids, hx = list(args[:-2]), args[-1]
        self._combat_phase_check(state, seat, "fire", "7.1")
        if self.phasing(state) != seat:
            raise IllegalOrder("only the phasing side fires", "7.1")
        targets = self._target_units(state, seat, hx)
        if not targets:
            raise IllegalOrder(f"there is no enemy combat unit in {hx} to fire at", "7.1")
        for uid in uids:
            self._own_on_map(state, seat, uid)
            if not self._can_fire(state, uid):
                why = "is Disrupted" if state["units"][uid].get("disrupted") else "has no missile rating"
                raise IllegalOrder(f"{uid} {why} and may not fire", "7.1")
            if uid in state["ph"]["fired"]:
                raise IllegalOrder(f"{uid} has already fired this phase", "7.1")
            d = distance(state["units"][uid]["hex"], hx)
            rng = self.missile_range(state, uid)
            if d > rng or d == 0:
                raise IllegalOrder(f"{hx} is {d} hexes from {uid}; its range is {rng} (counting the target hex, "
                                   "not the firer's)", "7.12")

    def _check_melee(self, state: State, seat: str, *args: str) -> None:
        uids, hx = list(args[:-2]), args[-1]
        self._combat_phase_check(state, seat, "melee", "7.3")
        if self.phasing(state) != seat:
            raise IllegalOrder("only the phasing side attacks", "7.3")
        occ = self.occupancy(state)
        targets = self._target_units(state, seat, hx, occ)
        if not targets:
            raise IllegalOrder(f"there is no enemy combat unit in {hx} to attack", "7.3")
        for uid in uids:
            self._own_on_map(state, seat, uid)
            if self._wedge_waits(state, uid):
                raise IllegalOrder("a Wedge may not attack on the turn it forms", "8.4")
            if not self._can_melee(state, uid):
                why = "is Disrupted" if state["units"][uid].get("disrupted") else "has no melee rating"
                raise IllegalOrder(f"{uid} {why} and may not melee", "7.3")
            if uid in state["ph"]["meleed"]:
                raise IllegalOrder(f"{uid} has already attacked this phase (one attack a phase)", "7.31")
            if hx not in [state["units"][t]["hex"] for t in self._melee_targets(state, uid, occ)]:
                raise IllegalOrder(f"{uid} is not in contact with {hx}: melee needs the target's zone of control "
                                   "to reach the attacker (no attacks through walls)", "7.31")

    def _melee_targets(self, state: State, uid: str, occ=None) -> list[str]:
        """Enemy units ``uid`` may melee: those whose ZOC covers it (7.31)."""
        occ = occ if occ is not None else self.occupancy(state)
        h = Hex.parse(state["units"][uid]["hex"])
        return self.exerting(state, h, self.units[uid].side, occ)

    def _check_duel(self, state: State, seat: str, a: str, b: str) -> None:
        self._combat_phase_check(state, seat, "duel", "7.2")
        if self.phasing(state) != seat:
            raise IllegalOrder("only the phasing side starts leader combat", "7.2")
        ua = self._own_on_map(state, seat, a)
        if not ua.is_leader:
            raise IllegalOrder(f"{a} is not a leader", "7.2")
        ub = self.units[b]
        if not ub.is_leader or ub.side == seat:
            raise IllegalOrder(f"{b} is not an enemy leader", "7.2")
        if not self.on_map(state, b):
            raise IllegalOrder(f"{b} is not on the map", "7.2")
        if a in state["ph"]["dueled"]:
            raise IllegalOrder(f"{a} has already fought a leader combat this phase", "7.24")
        ha, hb = Hex.parse(state["units"][a]["hex"]), Hex.parse(state["units"][b]["hex"])
        if ha != hb and (ha.distance(hb) != 1 or not self.zoc_through(state, hb, ha)):
            raise IllegalOrder(f"{b} must be in {a}'s hex or adjacent to it (not through a wall)", "7.2")

    def _check_advance_offer(self, state: State, seat: str, uid: str, hx: str) -> list[str]:
        """7.5: the advance on offer is this seat's, into this hex, by this unit,
        not Disrupted, within stacking. Returns the units that would move."""
        adv = state["ph"].get("advance")
        if not adv or adv["seat"] != seat:
            raise IllegalOrder("advance after combat only right after a melee that emptied the defender's hex", "7.5")
        if hx != adv["hex"]:
            raise IllegalOrder(f"advance only into {adv['hex']}, the hex the defender left", "7.5")
        if uid not in adv["units"]:
            raise IllegalOrder(f"only {_phrase(adv['units'])} may advance (they took part in that melee)", "7.5")
        if state["units"][uid].get("disrupted"):
            raise IllegalOrder(f"{uid} is Disrupted and may not advance", "7.5")
        uids = self._stack_of(state, (uid,))
        self._check_stacking(state, seat, uids, hx, self.occupancy(state))
        if Hex.parse(hx) in self.extra_blocked(state, seat, uids):
            raise IllegalOrder(f"{uid} may not enter {hx}", "7.5")
        return uids

    def _check_advance(self, state: State, seat: str, uid: str, hx: str) -> None:
        self._own_on_map(state, seat, uid)
        uids = self._check_advance_offer(state, seat, uid, hx)
        side = self.hexside_rule(state, uids, Hex.parse(state["units"][uid]["hex"]), Hex.parse(hx))
        if side is None or side == "all":
            raise IllegalOrder(self.why_hexside(state, uids, Hex.parse(state["units"][uid]["hex"]), Hex.parse(hx)), "7.5")

    def _check_retreat(self, state: State, seat: str, uid: str, hx: str) -> None:
        if not state["pending"]:
            raise IllegalOrder("no unit of yours has to retreat now", "7.5")
        p = state["pending"][0]
        if p["seat"] != seat or p["unit"] != uid:
            raise IllegalOrder(f"{p['unit']} is the unit that must retreat now", "7.5")
        if hx not in p["options"]:
            raise IllegalOrder(f"{uid} may retreat to {_phrase(p['options'])}; not {hx}", "7.5")

    def _check_rally(self, state: State, seat: str, leader: str, uid: str) -> None:
        self._need_kind(state, ("rally",), "rallying", "8.3")
        ul = self._own_on_map(state, seat, leader)
        if not ul.is_leader:
            raise IllegalOrder(f"{leader} is not a leader", "8.3")
        u = self._own_on_map(state, seat, uid)
        if not u.is_combat:
            raise IllegalOrder(f"{uid} is not a combat unit", "8.3")
        if not state["units"][uid].get("disrupted"):
            raise IllegalOrder(f"{uid} is not Disrupted", "8.3")
        if uid in state["ph"]["rallied"]:
            raise IllegalOrder(f"{uid} has already been tried this Rally Phase", "8.3")
        ch = self.charts_for(state)["rally"]
        if state["ph"]["rally_tries"].get(leader, 0) >= ch["per_leader"]:
            raise IllegalOrder(f"{leader} has tried {ch['per_leader']} rallies this phase already", "8.3")
        d = distance(state["units"][leader]["hex"], state["units"][uid]["hex"])
        if d > ch["range"]:
            raise IllegalOrder(f"{uid} is {d} hexes from {leader}; a leader rallies units within {ch['range']}", "8.3")
        for e in state["effects"]:
            if e.get("no_rally") and e.get("side") == seat:
                raise IllegalOrder(f"no {self.title_of(seat)} unit may be rallied while {e['title']} lasts",
                                   e.get("section"))
            if e.get("frozen") and leader in e["frozen"]:
                raise IllegalOrder(f"{leader} is frozen by a spell and may not rally", e.get("section"))
        self.check_rally_extra(state, seat, leader, uid)

    def check_rally_extra(self, state: State, seat: str, leader: str, uid: str) -> None:
        pass

    # --- magic (8.5)
    def spell_cost(self, state: State, spell: str) -> int:
        sp = self.spells[spell]
        n = state["spell_count"].get(spell, 0)
        costs = sp.get("costs") or [sp["cost"]]
        return costs[min(n, len(costs) - 1)]

    def _check_cast(self, state: State, seat: str, leader: str, spell: str, points: str, target: str | None = None) -> None:
        self._need_kind(state, ("magic",), "spells", "8.5")
        u = self._own_on_map(state, seat, leader)
        if not u.magic:
            raise IllegalOrder(f"{leader} is not a magic leader", "8.5")
        sp = self.spells.get(spell)
        if sp is None:
            raise IllegalOrder(f"unknown spell `{spell}`", "8.5")
        if leader not in sp["casters"]:
            raise IllegalOrder(f"{spell} is cast only by {_phrase(sp['casters'])}", sp["section"])
        p = int(points)
        have = state["units"][leader].get("magic", 0)
        ch = self.charts_for(state)["magic"]
        if p < ch.get("min_points", 1):
            raise IllegalOrder(f"spend at least {ch.get('min_points', 1)} point(s)", "8.5")
        if p > have:
            raise IllegalOrder(f"{leader} has {have} Magic Capability Points; {p} asked", "8.5")
        cost = self.spell_cost(state, spell)
        if p > cost:
            raise IllegalOrder(f"{spell} costs {cost} for an automatic cast; spend at most that", sp["section"])
        if leader in state["ph"]["cast"]:
            raise IllegalOrder(f"{leader} has already cast or tried a spell this phase", "8.5")
        if leader in state["ph"]["moved"]:
            raise IllegalOrder(f"{leader} moved this phase and may not cast", "8.52")
        if state["cast_turn"].get(leader) == state["turn"]:
            raise IllegalOrder(f"{leader} cast or tried a spell in the first Magic Leader phase and may not in the "
                               "second", "8.52")
        if sp.get("max") is not None and state["spell_count"].get(spell, 0) >= sp["max"]:
            raise IllegalOrder(f"{spell} may be cast successfully only {sp['max']} times a game", sp["section"])
        if sp.get("day_only") and self.is_night(state):
            raise IllegalOrder(f"{spell} is cast only in a day turn", sp["section"])
        for e in state["effects"]:
            if e.get("frozen") and leader in e["frozen"]:
                raise IllegalOrder(f"{leader} is frozen by a spell and may not cast", e.get("section"))
        self.check_spell(state, seat, leader, spell, target)

    def check_spell(self, state: State, seat: str, leader: str, spell: str, target: str | None) -> None:
        pass

    # --- formations (8.4)
    def formation_of(self, state: State, uid: str) -> str | None:
        for fid, f in state["formations"].items():
            if uid in f["units"]:
                return fid
        return None

    def _formed_this_turn(self, state: State, fid: str) -> bool:
        return state["formations"][fid]["turn"] == state["turn"]

    def may_form(self, state: State, seat: str, kind: str) -> bool:
        return True

    def _check_form(self, state: State, seat: str, kind: str, a: str, b: str, leader: str) -> None:
        self._need_kind(state, ("move",), "forming a special formation", "8.4")
        if not self.may_form(state, seat, kind):
            raise IllegalOrder(f"{self.title_of(seat)} units may not form a {kind}", "8.41")
        spec = self.charts_for(state)["formations"][kind]
        for x in (a, b):
            u = self._own_on_map(state, seat, x)
            if u.type not in spec["types"]:
                raise IllegalOrder(f"{x} is {u.type}; a {kind} is made of {' or '.join(spec['types'])} units", "8.4")
            if self.formation_of(state, x):
                raise IllegalOrder(f"{x} is already in a formation", "8.4")
            if state["units"][x].get("disrupted"):
                raise IllegalOrder(f"{x} is Disrupted", "8.4")
            if x in state["ph"]["moved"]:
                raise IllegalOrder(f"{x} has already moved this phase", "8.4")
        ul = self._own_on_map(state, seat, leader)
        if not ul.is_leader:
            raise IllegalOrder(f"{leader} is not a leader", "8.4")
        frozen = next((e for e in state["effects"] if e.get("frozen") and leader in e["frozen"]), None)
        if frozen:
            raise IllegalOrder(f"{leader} is frozen by {frozen['title']}", frozen.get("section"))
        ha, hb = state["units"][a]["hex"], state["units"][b]["hex"]
        if state["units"][leader]["hex"] != ha:
            raise IllegalOrder(f"{leader} must be stacked with {a} in {ha}", "8.4")
        if distance(ha, hb) != 1:
            raise IllegalOrder(f"{b} must be next to {a}", "8.4")
        info = self.hexmap.hexes[Hex.parse(ha)]
        if self.charts_for(state)["tec"].get(info.terrain, {}).get("cost", 1) != 1:
            raise IllegalOrder(f"{ha} is {info.terrain}: formations form only in clear hexes", "8.4")
        side = self.hexside_rule(state, [b], Hex.parse(hb), Hex.parse(ha))
        if side is None or side == "all" or side:
            raise IllegalOrder(f"{b} cannot step into {ha}", "8.4")

    def _check_disband(self, state: State, seat: str, uid: str, hx: str) -> None:
        self._need_kind(state, ("move",), "leaving a formation", "8.4")
        self._own_on_map(state, seat, uid)
        f = self.formation_of(state, uid)
        if not f:
            raise IllegalOrder(f"{uid} is not in a formation", "8.4")
        if uid in state["ph"]["moved"]:
            raise IllegalOrder(f"{uid} has already moved this phase", "8.4")
        here = Hex.parse(state["units"][uid]["hex"])
        h = Hex.parse(hx)
        if h.distance(here) != 1 or h not in self.hexmap:
            raise IllegalOrder(f"{hx} is not next to {here}", "8.4")
        occ = self.occupancy(state)
        cost, zoc = self._step_cost_fn(state, seat, [uid], here, occ)
        if cost(here, h) is None or self.hexside_rule(state, [uid], here, h) == "all":
            raise IllegalOrder(f"{uid} cannot step into {hx}", "8.4")
        if self.combat_units_in(state, hx, occ):
            raise IllegalOrder(f"{hx} already holds a combat unit", "5.0")

    # ---------------------------------------------------------- legal actions
    def legal_actions(self, state: State, seat: str) -> Iterator[Action]:
        try:
            self.seat_check(state, seat)
        except IllegalOrder:
            return
        if state["pending"]:
            p = state["pending"][0]
            for hx in p["options"]:
                yield Action("retreat", (p["unit"], hx))
            return
        yield from self.legal_extra(state, seat)
        k = self.kind(state)
        adv = state["ph"].get("advance")
        if adv and adv["seat"] == seat:
            for uid in adv["units"]:
                a = Action("advance", (uid, adv["hex"]))
                if self._ok(state, seat, a):
                    yield a
        if k != "setup" and self._ok(state, seat, Action("done")):
            yield Action("done")
        if k in ("move", "magic"):
            yield from self._legal_moves(state, seat, k)
        if k == "rally" and self.step(state).get("leader_moves"):
            yield from self._legal_moves(state, seat, "rally")
        if k == "move":
            yield from self._legal_forms(state, seat)
        if k == "magic":
            yield from self._legal_casts(state, seat)
        if k == "combat" and self.phasing(state) == seat:
            yield from self._legal_combat(state, seat)
        if k == "rally":
            yield from self._legal_rallies(state, seat)

    def legal_extra(self, state: State, seat: str) -> Iterator[Action]:
        return iter(())

    def deadline_action(self, state: State, seat: str) -> Action | None:
        """What the bot does for ``seat`` when its deadline passes and `done`
        is not allowed (the `pass` policy): a retreat the seat must choose
        goes to the first legal hex (7.5); a unit that must attack (7.31)
        attacks the first unit exerting the zone of control it is in."""
        if state["pending"]:
            p = state["pending"][0]
            return Action("retreat", (p["unit"], p["options"][0])) if p["seat"] == seat else None
        if self.kind(state) == "combat" and self.phasing(state) == seat:
            occ = self.occupancy(state)
            for uid in self._unmet_obligations(state, seat):
                for t in self._melee_targets(state, uid, occ):
                    a = Action("melee", (uid, "at", state["units"][t]["hex"]))
                    if self._ok(state, seat, a):
                        return a
        return None

    def legal_actions_for(self, state: State, seat: str, unit: str) -> Iterator[Action]:
        """The legal actions naming ``unit``: what autocomplete needs once a
        player has typed a unit id, without path-finding for every other unit."""
        k = self.kind(state)
        if k in ("move", "magic") and not state["pending"]:
            try:
                self.seat_check(state, seat)
            except IllegalOrder:
                return
            yield from self._legal_moves(state, seat, k, only=unit)
            for a in (self._legal_forms(state, seat) if k == "move" else ()):
                if unit in a.args:
                    yield a
            if k == "magic":
                for a in self._legal_casts(state, seat):
                    if unit in a.args:
                        yield a
            for a in self.legal_extra(state, seat):
                if unit in a.args:
                    yield a
            return
        for a in self.legal_actions(state, seat):
            if unit in a.args:
                yield a

    def _ok(self, state: State, seat: str, action: Action) -> bool:
        try:
            self.check(state, seat, action)
            return True
        except (IllegalOrder, InvalidOrder):
            return False

    def _legal_moves(self, state: State, seat: str, kind: str, only: str | None = None) -> Iterator[Action]:
        occ = self.occupancy(state)
        seen: set[str] = set()
        units = [only] if only else sorted(state["units"])
        if only and only in self.units and self.units[only].is_siege and state["units"][only]["hex"]:
            # typed the equipment's id: its carriers' stack moves (16.11)
            units = sorted(x for x in occ.get(state["units"][only]["hex"], ()) if self.units[x].is_combat)
        for uid in units:
            if uid not in state["units"]:
                return
            u = self.units[uid]
            r = state["units"][uid]
            if u.side != seat or uid in seen or self._mover_kind(state, seat, uid) != kind:
                continue
            if r["status"] == "reinforcement" and self.reinforcement_entry(state, uid) is None:
                continue
            if r["status"] not in ("map", "reinforcement"):
                continue
            if u.is_siege:
                continue  # siege equipment moves with its carrier (a stack order)
            uids = self._stack_of(state, (uid,))
            seen.update(uids)
            stacks = [uids]
            if u.is_combat and r["status"] == "map":
                # 16.11: siege equipment moves only with a combat unit: offer the pair too
                stacks += [uids + [e] for e in sorted(occ.get(r["hex"], ()))
                           if self.units[e].is_siege and self.units[e].side == seat
                           and (only is None or only in (uid, e))]
                if only and self.units[only].is_siege:
                    stacks = stacks[1:]
            for movers in stacks:
                yield from self._stack_moves(state, seat, movers, occ)

    def _stack_moves(self, state: State, seat: str, uids: list[str], occ) -> Iterator[Action]:
        try:
            self._check_movers(state, seat, uids)
        except IllegalOrder:
            return
        reach = self._reach(state, seat, uids, occ)
        here = state["units"][uids[0]]["hex"]
        for h in sorted(reach):
            hx = str(h)
            if hx == here:
                continue
            try:
                self._check_stacking(state, seat, uids, hx, occ)
                self.check_move_end(state, seat, uids, hx, occ)
            except IllegalOrder:
                continue
            yield Action("move", (*uids, hx))

    def _legal_forms(self, state: State, seat: str) -> Iterator[Action]:
        occ = self.occupancy(state)
        for leader in sorted(state["units"]):
            if self.units[leader].side != seat or not self.units[leader].is_leader or not self.on_map(state, leader):
                continue
            ha = state["units"][leader]["hex"]
            for a in self.combat_units_in(state, ha, occ):
                for nb in Hex.parse(ha).neighbours():
                    for b in self.combat_units_in(state, str(nb), occ):
                        for kind in ("shieldwall", "wedge"):
                            act = Action("form", (kind, a, b, leader))
                            if self._ok(state, seat, act):
                                yield act

    def _legal_casts(self, state: State, seat: str) -> Iterator[Action]:
        for name in sorted(self.spells):
            sp = self.spells[name]
            for leader in sp["casters"]:
                if self.units.get(leader) is None or self.units[leader].side != seat:
                    continue
                cost = self.spell_cost(state, name)
                have = state["units"][leader].get("magic", 0)
                pts = sorted({min(cost, have), cost}, reverse=True)
                targets = list(self.spell_targets(state, seat, name)) if sp.get("target") else [None]
                for p in pts:
                    for t in targets:
                        a = Action("cast", (leader, name, str(p)) + ((t,) if t else ()))
                        if self._ok(state, seat, a):
                            yield a

    def spell_targets(self, state: State, seat: str, spell: str) -> Iterator[str]:
        return iter(())

    def _legal_combat(self, state: State, seat: str) -> Iterator[Action]:
        occ = self.occupancy(state)
        mine = sorted(x for x in state["units"] if self.units[x].side == seat and self.on_map(state, x))
        seg = ["fire", "duel", "melee"].index(state["ph"]["segment"])
        if seg == 0:
            enemies = sorted({state["units"][x]["hex"] for x in state["units"]
                              if self.units[x].side != seat and self.units[x].is_combat and self.on_map(state, x)})
            for uid in mine:
                if uid in state["ph"]["fired"] or not self._can_fire(state, uid):
                    continue
                rng = self.missile_range(state, uid)
                for hx in enemies:
                    if 0 < distance(state["units"][uid]["hex"], hx) <= rng:
                        a = Action("fire", (uid, "at", hx))
                        if self._ok(state, seat, a):
                            yield a
        if seg <= 1:
            for uid in mine:
                if not self.units[uid].is_leader or uid in state["ph"]["dueled"]:
                    continue
                h = state["units"][uid]["hex"]
                for other in sorted(state["units"]):
                    o = self.units[other]
                    if o.is_leader and o.side != seat and self.on_map(state, other) \
                            and distance(h, state["units"][other]["hex"]) <= 1:
                        a = Action("duel", (uid, other))
                        if self._ok(state, seat, a):
                            yield a
        for uid in mine:
            if uid in state["ph"]["meleed"] or not self.units[uid].is_combat or not self._can_melee(state, uid):
                continue
            for t in self._melee_targets(state, uid, occ):
                a = Action("melee", (uid, "at", state["units"][t]["hex"]))
                if self._ok(state, seat, a):
                    yield a

    def _legal_rallies(self, state: State, seat: str) -> Iterator[Action]:
        rng = self.charts_for(state)["rally"]["range"]
        disrupted = sorted(x for x in state["units"] if self.units[x].side == seat and self.on_map(state, x)
                           and state["units"][x].get("disrupted") and x not in state["ph"]["rallied"])
        for leader in sorted(state["units"]):
            if self.units[leader].side != seat or not self.units[leader].is_leader or not self.on_map(state, leader):
                continue
            for uid in disrupted:
                if distance(state["units"][leader]["hex"], state["units"][uid]["hex"]) <= rng:
                    a = Action("rally", (leader, uid))
                    if self._ok(state, seat, a):
                        yield a

    # ------------------------------------------------------------------ apply
    def apply(self, state: State, seat: str, action: Action) -> list[Event]:
        v = action.verb
        if v not in ("advance",) and state["ph"].get("advance") and state["ph"]["advance"]["seat"] == seat:
            state["ph"]["advance"] = None  # 7.5: the chance to advance lapses with the next order
        extra = self.extra_verbs()
        if v in extra:
            events = extra[v][2](state, seat, action)
        else:
            dice = Dice(state["dice"])
            events = getattr(self, f"_apply_{v}")(state, seat, dice, *action.args)
            if dice.rolls and events:
                events[0].rolls = events[0].rolls + dice.rolls
        ver = self.check_victory(state)
        if ver and not state["over"]:
            state["over"] = ver
            events.append(Event(public=ver["summary"], section=ver.get("section"), new_phase=True))
        return events

    def _apply_done(self, state: State, seat: str, dice: Dice) -> list[Event]:
        if state["turn"] == 0:
            state["done"].append(seat)
            events = [Event(public=f"{self.title_of(seat)} has finished setting up (13.0).", section="13.0")]
            if not self.active_seats(state):
                events.extend(self.on_setup_step_end(state))
                events.extend(self._advance(state))
            return events
        state["done"].append(seat)
        events = [Event(public=f"{self.title_of(seat)} is done with the {self.step(state)['title']}.")]
        if not self.active_seats(state):
            events.extend(self._advance(state))
        return events

    def _apply_move(self, state: State, seat: str, dice: Dice, *args: str) -> list[Event]:
        uids = [a for a in args if not _HEX.match(a)]
        path = self._move_path(state, seat, uids, [a for a in args if _HEX.match(a)])
        start = state["units"][uids[0]]["hex"]
        entering = start is None
        _, spent, _ = self._path_spent(state, seat, uids, path, self.occupancy(state))
        for uid in uids:  # what each mover has spent this phase (a move may resume: Gondor 16.72)
            state["ph"].setdefault("spent", {})[uid] = state["ph"].get("spent", {}).get(uid, 0) + spent
        for uid in uids:
            r = state["units"][uid]
            r["hex"] = path[-1]
            r["status"] = "map"
            state["ph"]["moved"].append(uid)
        if entering:
            # 14.0: each unit entering by a hex makes the chain one longer
            state["ph"]["entered"][path[0]] = state["ph"]["entered"].get(path[0], 0) + len(uids)
        who = _phrase([self.units[u].label() for u in uids])
        if entering:
            text = f"{self.title_of(seat)}: {who} enters at {path[0]}" + (
                f" and moves to {path[-1]} (via {' '.join(path[1:-1])})" if len(path) > 2 else
                (f" and moves to {path[-1]}" if len(path) > 1 else "") + " (14.0)."
            )
            if not text.endswith("."):
                text += " (14.0)."
            sec = "14.0"
        else:
            via = f" via {' '.join(path[:-1])}" if len(path) > 1 else ""
            text = f"{self.title_of(seat)}: {who} moves to {path[-1]}{via} (4.0)."
            sec = "4.0"
        events = [Event(public=text, section=sec)]
        state["ph"]["move_from"] = start  # for ``entered``: None when the move entered the map
        events.extend(self.after_move(state, seat, uids, ([start] if start else []) + path))
        return events

    def entered(self, state: State, trail: list[str]) -> list[str]:
        """In ``after_move``: the hexes the move entered (the trail less its start
        hex; all of it for a unit that came onto the map)."""
        return list(trail[1:]) if state["ph"].get("move_from") else list(trail)

    def after_move(self, state: State, seat: str, uids: list[str], trail: list[str]) -> list[Event]:
        """Hook after a move; ``trail`` is every hex from the start (if on the map) to the end."""
        return []

    # --- combat resolution
    def attack_profile(self, state: State, attacker: str, target: str, kind: str) -> dict:
        """Everything that goes into one attack: the letter, the defender's
        Armor Protection and Morale after every modifier, and the notes that
        explain them (for the log and for /odds)."""
        ch = self.charts_for(state)
        ra, rd = self.ratings(state, attacker), self.ratings(state, target)
        ua, ud = self.units[attacker], self.units[target]
        notes: list[str] = []
        letter = (ra.missile if kind == "fire" else ra.melee) or "e"
        armor, morale = rd.armor, rd.morale
        crt_mod = 0
        fanatic = False
        if self.is_night(state) and ua.tags & set(ch["night"].get("fanatic_tags", [])):
            fanatic = True
            notes.append(f"{attacker} is fanatical at night (10.0)")
        if self.is_fanatic(state, attacker):
            fanatic = True
        if fanatic and ch["fanatic"]["mode"] == "modifiers":
            if kind == "melee":
                letter = shift_letter(letter, 1)
                morale = shift_morale(morale, -1)
                notes.append("fanatic: +1 attack, defender Morale -1 (7.37)")
            fanatic = False
        hd = Hex.parse(state["units"][target]["hex"])
        info = self.hexmap.hexes.get(hd)
        if kind == "melee" and info is not None:
            t = ch["tec"].get(info.terrain, {})
            if t.get("armor"):
                armor += t["armor"]
                notes.append(f"defender in {info.terrain}: Armor Protection +{t['armor']} (4.3)")
        fa = self.formation_of(state, attacker)
        if fa and kind == "melee":
            spec = ch["formations"][state["formations"][fa]["kind"]]
            if spec.get("attack"):
                letter = shift_letter(letter, spec["attack"])
                notes.append(f"{attacker} in a {state['formations'][fa]['kind']}: attack +{spec['attack']} (8.4)")
        fd = self.formation_of(state, target)
        if fd:
            spec = ch["formations"][state["formations"][fd]["kind"]]
            if spec.get("armor"):
                armor += spec["armor"]
                notes.append(f"defender in a {state['formations'][fd]['kind']}: Armor Protection +{spec['armor']} (8.4)")
            if spec.get("morale"):
                morale = shift_morale(morale, spec["morale"])
                notes.append(f"defender in a {state['formations'][fd]['kind']}: Morale +{spec['morale']} (8.4)")
        if state["units"][target].get("disrupted"):
            pen = ch["disrupted"].get("morale_penalty", 0)
            if pen:
                morale = shift_morale(morale, -pen)
                notes.append(f"defender Disrupted: Morale -{pen} (7.57)")
        if self.demoralized(state, self.army_of(target)):
            pen = ch["demoralization"].get("morale_penalty", 0)
            if pen:
                morale = shift_morale(morale, -pen)
                notes.append(f"defender's army demoralized: Morale -{pen} (9.1)")
        for e in state["effects"]:
            if e.get("side") == ua.side and e.get("attack") and (not e.get("tags") or ua.tags & set(e["tags"])):
                letter = shift_letter(letter, e["attack"])
                notes.append(f"{e['title']}: attack {e['attack']:+d} ({e['section']})")
            if e.get("side") == ud.side and e.get("morale") and (not e.get("tags") or ud.tags & set(e["tags"])):
                morale = shift_morale(morale, e["morale"])
                notes.append(f"{e['title']}: defender Morale {e['morale']:+d} ({e['section']})")
        prof = {"letter": letter, "armor": armor, "morale": morale, "crt_mod": crt_mod,
                "bypass_cpt": fanatic, "notes": notes}
        self.modify_attack(state, attacker, target, kind, prof)
        return prof

    def modify_attack(self, state: State, attacker: str, target: str, kind: str, prof: dict) -> None:
        """Hook for exclusive rules (siege towers, tunnels, guards...)."""

    def is_fanatic(self, state: State, uid: str) -> bool:
        return False

    def outcome_distribution(self, state: State, attacker: str, target: str, kind: str) -> tuple[dict, dict]:
        """Exact distribution of CRT results (tuples) for one attack."""
        ch = self.charts_for(state)
        prof = self.attack_profile(state, attacker, target, kind)
        if prof["bypass_cpt"]:
            p_hit = Fraction(1)
        else:
            hits = ch.cpt_hits(prof["letter"], prof["armor"])
            p_hit = Fraction(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b in hits), 36)
        dist: dict[tuple, Fraction] = {}
        if p_hit < 1:
            dist[()] = 1 - p_hit
        for roll in range(1, 7):
            res = ch.crt_result(prof["morale"], roll + prof["crt_mod"])
            res = self.adjust_result(state, target, res, prof)
            dist[res] = dist.get(res, Fraction(0)) + p_hit / 6
        return dist, prof

    def adjust_result(self, state: State, target: str, res: tuple, prof: dict) -> tuple:
        return res

    def _resolve_attack(self, state: State, dice: Dice, attacker: str, target: str, kind: str) -> tuple[list[str], tuple, dict]:
        ch = self.charts_for(state)
        prof = self.attack_profile(state, attacker, target, kind)
        lines = []
        sec = "7.1" if kind == "fire" else "7.3"
        if prof["bypass_cpt"]:
            hit = True
            lines.append("fanatical: no Casualty Probability roll (9.33)")
        else:
            a, b = dice.d6("CPT"), dice.d6("CPT")
            hits = ch.cpt_hits(prof["letter"], prof["armor"])
            hit = a + b in hits
            lines.append(f"CPT {prof['letter']} vs Armor {prof['armor']}: {a}+{b}={a + b}, "
                         f"{'casualty' if hit else 'no casualty'} (7.33)")
        res: tuple = ()
        if hit:
            roll = dice.d6("CRT")
            mod = prof["crt_mod"]
            res = ch.crt_result(prof["morale"], roll + mod)
            res = self.adjust_result(state, target, res, prof)
            m = f"{roll}{mod:+d}={roll + mod}" if mod else str(roll)
            lines.append(f"CRT Morale {prof['morale']}: {m}, {result_text(res)} (7.42)")
        return lines, res, {"section": sec, **prof}

    def _apply_fire(self, state: State, seat: str, dice: Dice, *args: str) -> list[Event]:
        uids, hx = list(args[:-2]), args[-1]
        return self._attacks(state, seat, dice, uids, hx, "fire")

    def _apply_melee(self, state: State, seat: str, dice: Dice, *args: str) -> list[Event]:
        uids, hx = list(args[:-2]), args[-1]
        state["ph"]["segment"] = "melee"
        return self._attacks(state, seat, dice, uids, hx, "melee")

    def _attacks(self, state: State, seat: str, dice: Dice, uids: list[str], hx: str, kind: str) -> list[Event]:
        events: list[Event] = []
        done_key = "fired" if kind == "fire" else "meleed"
        attackers_used = []
        for uid in uids:
            targets = self._target_units(state, seat, hx)
            if not targets or state["pending"]:
                events.append(Event(public=f"{uid} does not {kind}: the target is gone."))
                break
            target = self._pick_target(state, targets)
            state["ph"][done_key].append(uid)
            attackers_used.append(uid)
            lines, res, prof = self._resolve_attack(state, dice, uid, target, kind)
            verb = "fires at" if kind == "fire" else "attacks"
            head = f"{self.title_of(seat)}: {self.units[uid].label()} {verb} {self.units[target].label()} in {hx}"
            if prof["notes"]:
                head += f" [{'; '.join(prof['notes'])}]"
            apply_lines = self.apply_result(state, dice, target, res, attacker_hex=state["units"][uid]["hex"],
                                            kind=kind)
            events.append(Event(public=head + ": " + "; ".join(lines + apply_lines) + ".", section=prof["section"]))
        if kind == "melee" and attackers_used and not self._target_units(state, seat, hx) and not state["pending"]:
            self._offer_advance(state, seat, attackers_used, hx)
            if state["ph"]["advance"]:
                events.append(Event(public=f"{hx} is empty: {_phrase(state['ph']['advance']['units'])} may advance "
                                           f"into it (`advance <unit> {hx}`, 7.5)."))
        elif kind == "melee" and state["pending"]:
            state["ph"]["advance_after"] = {"seat": seat, "units": attackers_used, "hex": hx}
        if state["pending"] and events:
            events[-1].new_phase = True  # the owner of the retreating unit must act now: post and ping
        return events

    def _offer_advance(self, state: State, seat: str, units: list[str], hx: str) -> None:
        ok = [u for u in units if self.on_map(state, u) and not state["units"][u].get("disrupted")
              and distance(state["units"][u]["hex"], hx) == 1]
        state["ph"]["advance"] = {"seat": seat, "units": ok, "hex": hx} if ok else None
        if state["ph"]["advance"]:
            real = [u for u in ok if self._ok(state, seat, Action("advance", (u, hx)))]
            state["ph"]["advance"] = {"seat": seat, "units": real, "hex": hx} if real else None

    def _pick_target(self, state: State, targets: list[str]) -> str:
        """The unit an attack on a hex is resolved against: a formation's front
        unit (the one that takes the loss, 8.4 ruling), else the first."""
        f = self.formation_of(state, targets[0])
        return state["formations"][f]["units"][0] if f else targets[0]

    def apply_result(self, state: State, dice: Dice, target: str, res: tuple, attacker_hex: str | None,
                     kind: str) -> list[str]:
        """Apply a CRT result to ``target`` (and its formation). Returns log lines."""
        if not res:
            return []
        f = self.formation_of(state, target)
        victims = list(state["formations"][f]["units"]) if f else [target]
        lines: list[str] = []
        hx = state["units"][target]["hex"]
        leaders = [x for x in self.occupancy(state).get(hx, ()) if self.units[x].is_leader]
        loss = "E" if "E" in res else ("1/2E" if "1/2E" in res else None)
        # 8.4 (ruling): a loss falls on the formation's front unit (the first
        # named); if it is eliminated the formation ends. A retreat moves the
        # formation as one, still formed.
        for v in victims[:1]:
            if loss == "E" or (loss == "1/2E" and state["units"][v].get("reduced")):
                self.eliminate(state, v)
                lines.append(f"{v} eliminated")
            elif loss == "1/2E":
                state["units"][v]["reduced"] = True
                val = self.unit_dem_value(state, v)
                pay = math.ceil(val / 2)
                state["units"][v]["dem_paid"] = pay
                self.on_unit_lost(state, v, pay)
                lines.append(f"{v} half eliminated (reduced side)")
        if f and f not in state["formations"]:
            lines.append("the formation is broken")
        if loss:
            lines.extend(self._leaders_caught(state, dice, leaders, loss))
        survivors = [v for v in victims if self.on_map(state, v)]
        retreat = 2 if "r2" in res else (1 if "r1" in res else 0)
        if retreat and survivors:
            lines.extend(self._start_retreat(state, dice, survivors, retreat, attacker_hex, leaders))
        elif "D" in res:
            for v in survivors:
                state["units"][v]["disrupted"] = True
            if survivors:
                lines.append(f"{_phrase(survivors)} Disrupted")
        # leaders left alone after their unit fell (8.1)
        for ldr in leaders:
            if self.on_map(state, ldr) and state["units"][ldr]["hex"] == hx and not self.combat_units_in(state, hx):
                lines.extend(self._displace_leader(state, ldr))
        return lines

    def eliminate(self, state: State, uid: str) -> None:
        r = state["units"][uid]
        if self.units[uid].ratings:
            val = self.unit_dem_value(state, uid)
            self.on_unit_lost(state, uid, max(val - r.get("dem_paid", 0), 0))
            r["dem_paid"] = val
        r["status"] = "eliminated"
        r["hex"] = None
        f = self.formation_of(state, uid)
        if f:
            del state["formations"][f]

    def _leaders_caught(self, state: State, dice: Dice, leaders: list[str], loss: str) -> list[str]:
        """Leaders stacked with a unit that takes 1/2E or E (7.23, FoC 8.24)."""
        out = []
        caught = self.charts_for(state)["leader_combat"].get("caught", [5, 6])
        for ldr in leaders:
            if not self.on_map(state, ldr):
                continue
            roll = dice.d6(f"{ldr} caught")
            if roll in caught:
                r = self.leader_rating(state, ldr, for_rally=False)
                lost = r if loss == "E" else max(1, r // 2)
                out.append(f"{ldr} caught in the result (die {roll}): "
                           + self._leader_loss(state, ldr, lost))
            else:
                out.append(f"{ldr} unharmed (die {roll})")
        return out

    def _leader_loss(self, state: State, ldr: str, points: int) -> str:
        r = self.leader_rating(state, ldr, for_rally=False)
        points = min(points, r)
        state["units"][ldr]["rally_lost"] = state["units"][ldr].get("rally_lost", 0) + points
        self.on_unit_lost(state, ldr, points)
        if self.leader_rating(state, ldr, for_rally=False) <= 0:
            state["units"][ldr]["status"] = "eliminated"
            state["units"][ldr]["hex"] = None
            return f"{ldr} is killed ({points} Rally Points lost, 19.2)"
        return f"{ldr} loses {points} Rally Point{'s' if points != 1 else ''} (19.2)"

    def _displace_leader(self, state: State, ldr: str) -> list[str]:
        """8.1 (inferred): a leader left without a combat unit goes to the
        nearest friendly combat unit (ties: the lowest hex number)."""
        side = self.units[ldr].side
        here = state["units"][ldr]["hex"]
        best = None
        for uid in sorted(state["units"]):
            u = self.units[uid]
            if u.side == side and u.is_combat and self.on_map(state, uid):
                d = distance(here, state["units"][uid]["hex"])
                key = (d, state["units"][uid]["hex"])
                if best is None or key < best:
                    best = key
        if best is None:
            return []
        state["units"][ldr]["hex"] = best[1]
        return [f"{ldr} rejoins the nearest friendly unit in {best[1]} (8.1)"]

    def retreat_options(self, state: State, uids: list[str], n: int, attacker_hex: str | None) -> list[str]:
        """Final hexes of a legal ``n``-hex retreat (7.5): each step farther
        from the attacker, into passable hexes free of enemy units and enemy
        ZOC, across no forbidden hexside; the last hex within stacking."""
        seat = self.units[uids[0]].side
        occ = self.occupancy(state)
        zoc = self.zoc_map(state, seat, occ)
        start = Hex.parse(state["units"][uids[0]]["hex"])
        src = Hex.parse(attacker_hex) if attacker_hex else None
        tec = self.charts_for(state)["tec"]
        extra = self.extra_blocked(state, seat, uids)
        frontier = {start}
        for _ in range(n):
            nxt = set()
            for h in frontier:
                for nb in h.neighbours():
                    info = self.hexmap.hexes.get(nb)
                    if info is None or not tec.get(info.terrain, {}).get("passable", True):
                        continue
                    if src is not None and nb.distance(src) <= h.distance(src):
                        continue
                    if any(self.units[x].side != seat and (self.units[x].is_combat or self.units[x].is_leader)
                           for x in occ.get(str(nb), ())):
                        continue
                    if nb in zoc:
                        continue
                    if nb in extra:
                        continue
                    side = self.hexside_rule(state, uids, h, nb, retreat=True)
                    if side is None:
                        continue
                    nxt.add(nb)
            frontier = nxt
        out = []
        moving = uids + [x for x in occ.get(str(start), ()) if self.units[x].is_leader]
        for h in sorted(frontier):
            try:
                self._check_stacking(state, seat, moving, str(h), occ)
            except IllegalOrder:
                continue
            out.append(str(h))
        return out

    def _start_retreat(self, state: State, dice: Dice, uids: list[str], n: int, attacker_hex: str | None,
                       leaders: list[str]) -> list[str]:
        opts = self.retreat_options(state, uids, n, attacker_hex)
        seat = self.units[uids[0]].side
        if not opts:
            for v in uids:
                self.eliminate(state, v)
            return [f"{_phrase(uids)} cannot retreat {n} hex{'es' if n > 1 else ''} and is eliminated (7.55)"]
        for v in uids:
            state["units"][v]["disrupted"] = True
        if len(opts) == 1:
            return [f"{_phrase(uids)} Disrupted and retreats to {opts[0]} (7.5)"] + \
                self._move_retreat(state, uids, opts[0])
        state["pending"].append({"seat": seat, "unit": uids[0], "units": uids, "options": opts, "hexes": n})
        return [f"{_phrase(uids)} Disrupted and must retreat {n} hex{'es' if n > 1 else ''}: "
                f"{self.title_of(seat)} chooses ({_phrase(opts)}) (7.5)"]

    def _move_retreat(self, state: State, uids: list[str], hx: str) -> list[str]:
        here = state["units"][uids[0]]["hex"]
        occ = self.occupancy(state)
        moving = list(uids) + [x for x in occ.get(here, ()) if self.units[x].is_leader
                               and self.units[x].side == self.units[uids[0]].side]
        for v in moving:
            state["units"][v]["hex"] = hx
        lead = [x for x in moving if x not in uids]
        return [f"{_phrase(lead)} retreat{'s' if len(lead) == 1 else ''} with it (8.24)"] if lead else []

    def _apply_retreat(self, state: State, seat: str, dice: Dice, uid: str, hx: str) -> list[Event]:
        p = state["pending"].pop(0)
        lines = self._move_retreat(state, p["units"], hx)
        events = [Event(public=f"{self.title_of(seat)}: {_phrase(p['units'])} retreats to {hx} (7.5)"
                               + (f"; {'; '.join(lines)}" if lines else "") + ".", section="7.5",
                        new_phase=not state["pending"])]  # back to the phasing side: post and ping
        after = state["ph"].pop("advance_after", None)
        if after and not state["pending"]:
            if not self._target_units(state, after["seat"], after["hex"]):
                self._offer_advance(state, after["seat"], after["units"], after["hex"])
                if state["ph"]["advance"]:
                    events.append(Event(public=f"{after['hex']} is empty: {_phrase(state['ph']['advance']['units'])} "
                                               f"may advance into it (`advance <unit> {after['hex']}`, 7.5)."))
        return events

    def _apply_advance(self, state: State, seat: str, dice: Dice, uid: str, hx: str) -> list[Event]:
        uids = self._stack_of(state, (uid,))
        here = state["units"][uid]["hex"]
        occ = self.occupancy(state)
        leaders = [x for x in occ.get(here, ()) if self.units[x].is_leader and self.units[x].side == seat]
        for v in uids:
            state["units"][v]["hex"] = hx
        adv = state["ph"]["advance"]
        adv["units"] = [u for u in adv["units"] if u not in uids]
        if not adv["units"] or self.combat_units_in(state, hx):
            state["ph"]["advance"] = None
        extra = f" ({_phrase(leaders)} stay in {here})" if leaders else ""
        return [Event(public=f"{self.title_of(seat)}: {_phrase(uids)} advances into {hx} (7.5){extra}.", section="7.5")]

    def _apply_duel(self, state: State, seat: str, dice: Dice, a: str, b: str) -> list[Event]:
        state["ph"]["segment"] = "duel"
        state["ph"]["dueled"].append(a)
        ra = self.leader_rating(state, a, for_rally=False) + self.duel_modifier(state, a, b)
        rb = self.leader_rating(state, b, for_rally=False) + self.duel_modifier(state, b, a)
        diff = ra - rb
        roll = dice.d6("leader combat")
        la, lb = self.charts_for(state).leader_combat_cell(diff, roll)
        parts = []
        for who, cell in ((a, la), (b, lb)):
            if cell == "-":
                continue
            r = self.leader_rating(state, who, for_rally=False)
            parts.append(self._leader_loss(state, who, r if cell == "k" else int(cell)))
        res = "; ".join(parts) or "no effect"
        return [Event(public=f"{self.title_of(seat)}: leader combat, {a} ({ra}) against {b} ({rb}), differential "
                             f"{diff:+d}, die {roll}: {res} (7.25).", section="7.25")]

    def duel_modifier(self, state: State, leader: str, other: str) -> int:
        return 0

    def _apply_rally(self, state: State, seat: str, dice: Dice, leader: str, uid: str) -> list[Event]:
        tries = state["ph"]["rally_tries"]
        tries[leader] = tries.get(leader, 0) + 1
        state["ph"]["rallied"].append(uid)
        rating = self.leader_rating(state, leader)
        totals = self.charts_for(state).rally_totals(rating)
        if totals == "auto":
            ok, how = True, "automatic"
        else:
            a, b = dice.d6("rally"), dice.d6("rally")
            ok = a + b in totals
            how = f"{a}+{b}={a + b}"
        if ok:
            state["units"][uid]["disrupted"] = False
        res = "rallied" if ok else "still Disrupted"
        return [Event(public=f"{self.title_of(seat)}: {leader} (Rally Rating {rating}) rallies {uid}: {how}, {res} (8.37).",
                      section="8.37")]

    def _apply_cast(self, state: State, seat: str, dice: Dice, leader: str, spell: str, points: str,
                    target: str | None = None) -> list[Event]:
        sp = self.spells[spell]
        p = int(points)
        cost = self.spell_cost(state, spell)
        state["ph"]["cast"].append(leader)
        if self.step(state).get("magic_round", 1) == 1:
            state["cast_turn"][leader] = state["turn"]
        if p >= cost:
            ok, how = True, f"{p} points, automatic"
        else:
            need = self.charts_for(state).magic_success_max(cost - p)
            roll = dice.d6("magic")
            ok = roll <= need
            how = f"{p} of {cost} points, die {roll} (needs {need} or less)"
        if not ok:
            return [Event(public=f"{self.title_of(seat)}: {leader} tries {sp['title']} ({how}) and fails; no points "
                                 f"are spent, but {leader}'s phase is gone (8.5).", section="8.5")]
        state["units"][leader]["magic"] -= p
        state["spell_count"][spell] = state["spell_count"].get(spell, 0) + 1
        lines = self.spell_effect(state, seat, leader, spell, target)
        return [Event(public=f"{self.title_of(seat)}: {leader} casts {sp['title']} ({how}; "
                             f"{state['units'][leader]['magic']} points left): {lines} ({sp['section']}).",
                      section=sp["section"])]

    def spell_effect(self, state: State, seat: str, leader: str, spell: str, target: str | None) -> str:
        """Generic spell effects from data: an ``effect`` table added to
        ``state['effects']`` until the same step of the next turn."""
        sp = self.spells[spell]
        eff = dict(sp.get("effect", {}))
        eff.update(title=sp["title"], section=sp["section"], spell=spell,
                   until={"turn": state["turn"] + 1, "step": state["step"]})
        if eff.get("side") == "enemy":
            eff["side"] = self.enemy(seat)
        elif eff.get("side") == "own":
            eff["side"] = seat
        if eff.pop("freeze_within", None) is not None:
            r = sp["effect"]["freeze_within"]
            here = state["units"][leader]["hex"]
            eff["frozen"] = sorted(x for x in state["units"] if self.units[x].is_leader
                                   and self.units[x].side != seat and self.on_map(state, x)
                                   and distance(here, state["units"][x]["hex"]) <= r)
        state["effects"].append(eff)
        return sp.get("text", "in effect")

    def _expire_effects(self, state: State) -> None:
        keep = []
        for e in state["effects"]:
            u = e.get("until")
            if u and u["turn"] == state["turn"] and u["step"] == state["step"]:
                continue
            if u and u["turn"] < state["turn"]:
                continue
            keep.append(e)
        state["effects"] = keep

    def _apply_form(self, state: State, seat: str, dice: Dice, kind: str, a: str, b: str, leader: str) -> list[Event]:
        hx = state["units"][a]["hex"]
        state["units"][b]["hex"] = hx
        n = 1
        while f"F{n}" in state["formations"]:
            n += 1
        fid = f"F{n}"
        state["formations"][fid] = {"kind": kind, "units": [a, b], "leader": leader, "turn": state["turn"]}
        state["ph"]["moved"].extend([a, b])
        title = {"shieldwall": "Shield Wall", "wedge": "Wedge"}[kind]
        return [Event(public=f"{self.title_of(seat)}: {a} and {b} form a {title} with {leader} in {hx} (8.4).",
                      section="8.4")]

    def _apply_disband(self, state: State, seat: str, dice: Dice, uid: str, hx: str) -> list[Event]:
        f = self.formation_of(state, uid)
        del state["formations"][f]
        state["units"][uid]["hex"] = hx
        state["ph"]["moved"].append(uid)
        return [Event(public=f"{self.title_of(seat)}: {uid} leaves its formation for {hx}; the formation is "
                             "dissolved (8.4).", section="8.4")]

    # ------------------------------------------------------------------- odds
    def odds(self, state: State, seat: str, text: str) -> str:
        """Exact outcome probabilities of a proposed fire or melee, without
        applying it (``/odds``)."""
        action = self.parse_text(state, seat, text)
        if action.verb not in ("fire", "melee"):
            raise InvalidOrder("odds are for `fire <unit> at <hex>` or `melee <unit> at <hex>`")
        uids, hx = list(action.args[:-2]), action.args[-1]
        targets = self._target_units(state, seat, hx)
        if not targets:
            raise IllegalOrder(f"there is no enemy combat unit in {hx}", "7.0")
        target = self._pick_target(state, targets)
        for uid in uids:
            if self.units[uid].side != seat or not self.on_map(state, uid):
                raise IllegalOrder(f"{uid} is not one of your units on the map")
        out = []
        try:
            self.check(state, seat, action)
        except IllegalOrder as e:
            out.append(f"(not legal now: {e}; figures as if it were)")
        for uid in uids:
            dist, prof = self.outcome_distribution(state, uid, target, action.verb)
            r1 = r2 = None
            lines = []
            for res, p in sorted(dist.items(), key=lambda kv: severity(kv[0])):
                extra = ""
                if "r1" in res or "r2" in res:
                    n = 2 if "r2" in res else 1
                    key = r2 if n == 2 else r1
                    if key is None:
                        key = len(self.retreat_options(state, [target], n, state["units"][uid]["hex"]))
                        if n == 2:
                            r2 = key
                        else:
                            r1 = key
                    extra = " (no legal retreat now: eliminated, 7.55)" if key == 0 else ""
                lines.append(f"  {result_text(res)}: {pct(p)} ({p.numerator}/{p.denominator}){extra}")
            kind = "fires at" if action.verb == "fire" else "attacks"
            head = (f"**{uid} {kind} {target} in {hx}**: letter {prof['letter']} vs Armor {prof['armor']}, "
                    f"Morale {prof['morale']}" + (", no CPT (fanatic)" if prof["bypass_cpt"] else ""))
            if prof["notes"]:
                head += "\n  modifiers: " + "; ".join(prof["notes"])
            out.append(head + "\n" + "\n".join(lines))
        return "\n".join(out)[:1900]

    # ------------------------------------------------------------------- view
    def unit_view(self, state: State, uid: str, own: str | None) -> dict:
        u = self.units[uid]
        rec = state["units"][uid]
        d = {"id": uid, "side": u.side, "type": u.type, "name": u.name, "hex": rec["hex"]}
        if u.ratings:
            d["ratings"] = str(self.ratings(state, uid))
            d["reduced"] = rec.get("reduced", False)
            d["disrupted"] = rec.get("disrupted", False)
        if u.is_leader:
            d["rally"] = self.leader_rating(state, uid, for_rally=False)
            if u.magic:
                d["magic"] = rec.get("magic", u.magic)
        f = self.formation_of(state, uid)
        if f:
            d["formation"] = state["formations"][f]["kind"]
        return d

    def result(self, state: State) -> Result | None:
        if not state["over"]:
            return None
        o = state["over"]
        return Result(o.get("winner"), o["summary"], o.get("section"))
