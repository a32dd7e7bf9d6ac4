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

import json
import tomllib

from functools import cached_property, partial
from pathlib import Path
from typing import Iterator
from engine.display import load as load_display, look
from engine.spi import autopilot, chartguard
from engine.core import (
    Action,
    AmbiguousOrder,
    Event,
    IllegalOrder,
    InvalidOrder,
    Result,
    RulesetBase,
    State,
)
from engine.dice import Dice
from engine.hexgrid import Hex, HexError
from engine.maps import HexMap
from engine import pending
from engine.orders import Order, check_order, legal_of, legal_orders, order_table, parse_order, apply_order
from engine.options import Option, Text
from engine.spi.charts import ChartError, Charts, cached
from engine.units import UnitDef, load_oob
from engine.spi.common import _HEX, MAX_ORDER_LEN, _phrase  # noqa: F401 (_phrase imported from here by rulesets)
from engine.spi.c04_movement import MOVE
from engine.spi.c07_1_fire import FIRE
from engine.spi.c07_2_leaders import DUEL
from engine.spi.c07_3_melee import MELEE
from engine.spi.c07_5_retreat import ADVANCE, CHOOSE_RETREAT, RETREAT
from engine.spi.c08_3_rally import RALLY
from engine.spi.c08_4_formations import DISBAND, FORM
from engine.spi.c08_5_magic import CAST
from engine.spi.c03_done import DONE
from engine.spi import c03_done
from engine.spi import c04_movement
from engine.spi import c07_3_melee
from engine.spi import c07_combat
from engine.spi import c08_3_rally
from engine.spi import c08_4_formations
from engine.spi import c08_5_magic
from engine.spi import c13_setup
from engine.spi import hooks
from engine.spi import c07_1_fire
from engine.spi import c07_5_retreat
from engine.spi import help as spi_help
from engine.spi import c02_units
from engine.spi import c03_sequence
from engine.spi import c05_stacking


# ``options: charts=<TOML>`` (a group's chart file over the game's; issue 39: declared once, for every SPI game)
CHARTS_OPTION = Option("charts", Text("<TOML>", "a chart file (TOML)", keep=True),
                       check=lambda rs, text: rs.read_charts_option(text), about="the group's own chart file")


class StandardRules(RulesetBase):
    """The Standard Rules engine. Subclasses set ``name``, ``title``,
    ``seats``, ``side_titles``, ``side_colors`` and provide ``hexmap``,
    ``units``, ``sequence``, ``ruleset_charts_text`` and ``spells``."""

    # The extension points (engine/spi/hooks.py: Hooks), one record: the standard steps of the case files
    # below, every other hook its default in hooks.py; a game declares its own with
    # ``hooks = replace(StandardRules.hooks, ...)``. Every other rule is called by its module
    # (`c04_movement._legal_moves(rs, ...)`), never through the class (issue 43).
    hooks = hooks.Hooks(
        deploy_example=c13_setup.deploy_example,
        _check_deploy=c13_setup._check_deploy,
        _check_movers=c04_movement._check_movers,
        _why_unreachable=c04_movement._why_unreachable,
        _why_section=c04_movement._why_section,
        _why_step=c04_movement._why_step,
        apply_result=c07_combat.apply_result,
        _leader_loss=c07_combat._leader_loss,
        _displace_leader=c07_combat._displace_leader,
        _can_fire=c07_1_fire._can_fire,
        missile_range=c07_1_fire.missile_range,
        _can_melee=c07_3_melee._can_melee,
        _melee_targets=c07_3_melee._melee_targets,
        _offer_advance=c07_5_retreat._offer_advance,
        _start_retreat=c07_5_retreat._start_retreat,
        _formed_this_turn=c08_4_formations._formed_this_turn,
        spell_cost=c08_5_magic.spell_cost,
        _expire_effects=c08_5_magic._expire_effects,
        next_step=c03_done.next_step,
        ratings=c02_units.ratings,
    )
    help_topics = spi_help.help_topics
    help = spi_help.help
    printed_setup_path = c13_setup.printed_setup_path
    printed_setups = c13_setup.printed_setups
    printed_setup_reconstructed = c13_setup.printed_setup_reconstructed
    _road_hexes = c04_movement._road_hexes
    apply_overriding = c04_movement.apply_overriding
    odds = c07_combat.odds

    name = "spi"
    title = "SPI Standard Rules"
    has_odds = True
    takes_charts = True
    seats: tuple[str, ...] = ()
    side_titles: dict[str, str] = {}
    side_colors: dict[str, str] = {}
    state_version = 2

    # the orders, in the order their legal actions are offered (engine/orders.py; set below the class,
    # after `done`'s record); a game appends its own, or replaces a standard one by its verb
    ORDERS: tuple[Order, ...]

    @cached_property
    def orders(self) -> dict[str, Order]:
        return order_table(self.ORDERS)

    # the pending decisions a seat may face (engine/pending.py), queued in ``state["pending"]``: while
    # one waits, its seat's legal actions are its answers and every other order is refused
    DECISIONS: tuple[pending.Decision, ...] = (CHOOSE_RETREAT,)

    @cached_property
    def decisions(self) -> dict[str, pending.Decision]:
        return pending.decision_table(self.DECISIONS)

    def waiting_decisions(self, state: State) -> list[dict]:
        """Every decision record waiting now (engine/pending.py): the queue, the first held up for; a
        game adds those its own state implies (Sauron's challenges, 22.3)."""
        return list(state["pending"])

    def upgrade_state(self, state: State) -> None:
        """A retreat stored before pending decisions had a kind (issue 29) is the 7.5 retreat."""
        for p in state.get("pending") or ():
            if "kind" not in p:
                p.update(kind=CHOOSE_RETREAT.kind, section=CHOOSE_RETREAT.section)

    # ------------------------------------------------------------------ data
    # a game's data/ folder: map.json, oob.toml, charts.toml, sequence.toml (setup_printed.toml if any),
    # read by the loaders below; a game may instead give any of them itself
    data_dir: Path | None = None
    spells: dict[str, dict] = {}

    @cached_property
    def map_data(self) -> dict:
        return json.loads((self.data_dir / "map.json").read_text())

    @cached_property
    def hexmap(self) -> HexMap:
        return HexMap.from_json(self.map_data)

    @cached_property
    def display(self) -> dict:
        """How the game's pieces look on its maps (``data/display.json``; the vocabulary: engine/display.py)."""
        path = self.data_dir / "display.json" if self.data_dir else None
        return load_display(path) if path is not None and path.exists() else {}

    @cached_property
    def units(self) -> dict[str, UnitDef]:
        return load_oob(self.data_dir / "oob.toml")

    @cached_property
    def ruleset_charts_text(self) -> str:
        return (self.data_dir / "charts.toml").read_text() if self.data_dir else ""

    @cached_property
    def sequence(self) -> dict:
        return tomllib.loads((self.data_dir / "sequence.toml").read_text())

    @cached_property
    def steps(self) -> dict[str, dict]:
        seq = self.sequence
        return {s["id"]: s for s in seq.get("setup", []) + seq["step"]}

    @cached_property
    def step_order(self) -> list[str]:
        return [s["id"] for s in self.sequence.get("setup", [])] + [s["id"] for s in self.sequence["step"]]

    def rules_in_force(self, state: State) -> list[str]:
        """Issue 42: a group's own charts, and Rally Ratings changed by `rally.<LEADER>=`."""
        opts = state.get("options") or {}
        out = ["the group's own charts"] if opts.get("charts") else []
        rally = opts.get("rally") or {}
        if rally:
            out.append("Rally Ratings " + ", ".join(f"{k} {v}" for k, v in sorted(rally.items())))
        return out

    def charts_for(self, state: State) -> Charts:
        return cached(self.ruleset_charts_text, state["options"].get("charts", ""))

    @cached_property
    def charts(self) -> Charts:
        """The ruleset's charts without a group's override (for help texts)."""
        return cached(self.ruleset_charts_text, "")

    def read_charts_option(self, text: str) -> str:
        """``options: charts=<TOML>`` (``CHARTS_OPTION``'s check): the text, once ``check_charts`` took it."""
        try:
            self.check_charts(text)
        except ChartError as e:
            raise ValueError(f"was refused: {e}") from None
        return text

    def check_charts(self, text: str) -> Charts:
        """A group's chart file (``options:charts=<TOML>``) over this ruleset's
        charts: the text, the parse and every bound (``engine.spi.chartguard``), then
        the ruleset's own tables (``check_group_charts``). Only ChartError escapes."""
        if not chartguard.check_text(text).strip():
            raise ChartError("the chart file is empty")
        ch = cached(self.ruleset_charts_text, text)
        try:
            self.hooks.check_group_charts(self, ch, text)
        except ChartError:
            raise
        except (ValueError, KeyError, TypeError, AttributeError, IndexError, RecursionError) as e:
            raise ChartError(f"missing {e}" if isinstance(e, KeyError) else str(e) or type(e).__name__) from None
        return ch




    # ------------------------------------------------------------- the state
    def base_state(self, options: dict, seed: str) -> State:
        from engine.dice import new_dice
        return {
            "ruleset": self.name,
            "version": self.state_version,
            "options": options,
            "dice": new_dice(seed),
            "turn": 0 if self.sequence.get("setup") else 1,  # turn 0 is the set-up, where the game has one
            "step": self.step_order[0],
            "done": [],
            "units": {},
            "markers": [],
            "gates": {},
            "dem": {},
            "hidden": {},
            "over": None,
            "ph": c03_sequence._fresh_phase(self),
            "pending": [],
            "effects": [],
            "spell_count": {},
            "cast_turn": {},
            "formations": {},
            "arrived": {},
        }



    def view_head(self, state: State, own: str | None, title: str) -> dict:
        """The keys every Standard Rules game's view begins with: the turn, the phase, who acts, the sides."""
        return {
            "ruleset": self.name,
            "title": title,
            "seat": own,
            "turn": self.hooks.view_turn(self, state),
            "turns": self.sequence["turns"],
            "night": c03_sequence.is_night(self, state),
            "phase": state["step"],
            "phase_title": self.phase_title(state),
            "active": self.active_seats(state),
            "done": list(state["done"]),
            "sides": {s: {"title": c02_units.title_of(self, s), "color": self.side_colors[s]} for s in self.seats},
            "display": self.display,
        }











    # -------------------------------------------------------------- sequence
    def active_seats(self, state: State) -> list[str]:
        if state["over"]:
            return []
        p = pending.blocking(self.decisions, state["pending"])
        if p is not None:
            return [p["seat"]]
        return [s for s in c03_sequence.step(self, state)["seats"] if s not in state["done"]]

    def phase_title(self, state: State) -> str:
        step = c03_sequence.step(self, state)
        return f"{step['title']} ({step['section']})"

    def phase_key(self, state: State) -> str:
        """The key of ``RulesetBase.phase_key`` read from the state, not from a whole view (the same
        string: tests/e2e/test_golden.py compares them at every position of its games)."""
        return json.dumps([self.hooks.view_turn(self, state), state["step"], self.phase_title(state)])

    # -------------------------------------------------------------- notation
    def adjust(self, state: State, unit: str, to: str | None) -> str:
        """The moderator's adjustment (engine/modes): a unit put on a hex, or eliminated (7.0: its
        demoralization counts as for a loss); a formation it was in is broken up (8.4)."""
        r = state["units"].get(unit)
        if r is None:
            raise IllegalOrder(f"There is no unit `{unit[:10]}`.")
        if to is None:
            if r.get("hex") is None:
                raise IllegalOrder(f"{unit} is not on the map.")
            was = r["hex"]
            c07_combat.eliminate(self, state, unit)
            return f"{unit} is removed from {was} (eliminated)"
        hx = str(Hex.parse(to))
        was = r.get("hex")
        f = c08_4_formations.formation_of(self, state, unit)
        if f:
            del state["formations"][f]
        r["hex"], r["status"] = hx, "map"
        return f"{unit} is moved {was or 'onto the map'} → {hx}"

    def public_order_text(self, text: str) -> str:
        """An order as the public reads it: its ``Order.redact`` if the order is secret."""
        words = text.split()
        order = self.orders.get(words[0].lower()) if words else None
        if order is None or order.redact is None:
            return text
        return order.redact(tuple(words[1:]))

    def brief_order_text(self, text: str) -> str:
        """A move logged with its whole path (``_with_path``) echoes as typed: units and destination."""
        words = text.split(" ")
        if words[0] != "move":
            return text
        hexes = [w for w in words[1:] if _HEX.match(w)]
        if len(hexes) < 2:
            return text
        return " ".join([w for w in words if not _HEX.match(w)] + hexes[-1:])

    def format(self, action: Action) -> str:
        return str(action)




    def parse(self, state: State, seat: str, text: str) -> Action:
        action = self.parse_text(state, seat, text)
        if action.verb == "move":
            action = c04_movement._complete_move(self, state, seat, action)
        self.check(state, seat, action)
        if action.verb == "move":
            action = c04_movement._with_path(self, state, seat, action)
        return action

    def parse_text(self, state: State, seat: str, text: str) -> Action:
        if len(text) > MAX_ORDER_LEN:
            raise InvalidOrder(f"that order is too long ({MAX_ORDER_LEN} characters at most)")
        words = text.strip().split()
        if not words:
            raise InvalidOrder("empty order; type `/help` for the orders")
        verb = words[0].lower()
        rest = words[1:]
        order = self.orders.get(verb)
        if order is None:
            known = ", ".join(f"`{v}`" for v in [*(v for v in self.orders if v != "done"), "done"])
            raise InvalidOrder(f"unknown order `{words[0][:20]}`; orders: {known}")
        _setup_guard(self, state, verb)
        return parse_order(order, self, state, seat, rest)



    # ------------------------------------------------------------- legality
    def seat_check(self, state: State, seat: str) -> None:
        try:
            _seat_check(self, state, seat)
        except IllegalOrder as e:
            hint = c13_setup._setup_order_hint(self)
            if state["turn"] == 0 and not state["over"] and seat in self.seats and seat not in state["done"] and hint:
                raise IllegalOrder(f"{e.message}. {hint}", "13.0") from None
            raise



    def check(self, state: State, seat: str, action: Action) -> None:
        self.seat_check(state, seat)
        v = action.verb
        p = pending.blocking(self.decisions, state["pending"])
        if p is not None:
            pending.check_answer(self.decisions, self, state, p, seat, action, partial(c02_units.title_of, self))
        order = self.orders.get(v)
        if order is None:
            raise InvalidOrder(f"unknown order `{v}`")
        _setup_guard(self, state, v)
        with c03_sequence._current_memo(action):
            check_order(order, self, state, seat, action)




    # ---------------------------------------------------------- legal actions
    def legal_actions(self, state: State, seat: str) -> Iterator[Action]:
        try:
            self.seat_check(state, seat)
        except IllegalOrder:
            return
        p = pending.blocking(self.decisions, state["pending"])
        if p is not None:
            yield from pending.legal_answers(self.decisions, self, state, p, seat)
            return
        yield from hooks.legal_extra(self, state, seat)
        yield from legal_orders(self.orders, self, state, seat)


    def deadline_action(self, state: State, seat: str) -> Action | None:
        """What the bot does for ``seat`` when its deadline passes and `done`
        is not allowed (the `pass` policy): a retreat the seat must choose
        goes to the first legal hex (7.5); a unit that must attack (7.31)
        attacks the first unit exerting the zone of control it is in."""
        p = pending.blocking(self.decisions, state["pending"])
        if p is not None:  # the first answer (7.5: the first legal hex)
            return next(pending.legal_answers(self.decisions, self, state, p, seat), None)
        if c03_sequence.kind(self, state) == "combat" and c03_sequence.phasing(self, state) == seat:
            occ = c05_stacking.occupancy(self, state)
            for uid in c07_3_melee._unmet_obligations(self, state, seat):
                for t in self.hooks._melee_targets(self, state, uid, occ):
                    a = Action("melee", (uid, "at", state["units"][t]["hex"]))
                    if c03_sequence._ok(self, state, seat, a):
                        return a
        return None

    def autopilot_action(self, state: State, seat: str) -> Action | None:
        """A seat on autopilot (issue 28): pass, else what the rules force by the cheapest legal
        choice, never a secret order (engine/spi/autopilot.py)."""
        return autopilot.autopilot_action(self, state, seat)

    def legal_actions_for(self, state: State, seat: str, unit: str) -> Iterator[Action]:
        """The legal actions naming ``unit``: what autocomplete needs once a
        player has typed a unit id, without path-finding for every other unit."""
        k = c03_sequence.kind(self, state)
        if k in ("move", "magic") and not state["pending"]:
            try:
                self.seat_check(state, seat)
            except IllegalOrder:
                return
            yield from c04_movement._legal_moves(self, state, seat, k, only=unit)
            for a in (c08_4_formations._legal_forms(self, state, seat) if k == "move" else ()):
                if unit in a.args:
                    yield a
            if k == "magic":
                for a in c08_5_magic._legal_casts(self, state, seat):
                    if unit in a.args:
                        yield a
            for a in hooks.legal_extra(self, state, seat):
                if unit in a.args:
                    yield a
            return
        for a in self.legal_actions(state, seat):
            if unit in a.args:
                yield a

    def legal_actions_matching(self, state: State, seat: str, words: list[str]) -> Iterator[Action]:
        """A unit id (or the start of a few) typed second: those units' actions only (no path-finding
        for the others); a verb typed first (and a word after it): that order's legal actions only; one
        word that begins verbs and no unit id: those orders' actions (matched by verb)."""
        if len(words) >= 2 and words[1]:
            units = [u for u in self.units if u.startswith(words[1].upper())]
            if 0 < len(units) <= 12 and (c03_sequence.kind(self, state) not in ("move", "magic") or state["pending"]):
                wanted = set(units)  # no path-finding here: one pass, keeping what names them
                for a in self.legal_actions(state, seat):
                    if wanted.intersection(a.args):
                        yield a
                return
            if 0 < len(units) <= 12:
                seen: set[Action] = set()
                for u in sorted(units):
                    for a in self.legal_actions_for(state, seat, u):
                        if a not in seen:
                            seen.add(a)
                            yield a
                return
        # the verb typed first: that order's actions; one word alone, the start of a verb and of no unit id
        # (`don`, `fire`): the orders it begins, matched by their verb (not anywhere in their text)
        w0 = words[0] if words else ""
        if len(words) >= 2:
            verbs = [w0] if w0 in self.orders else []
        elif w0.isalpha() and not any(u.startswith(w0.upper()) for u in self.units):
            verbs = [v for v in self.orders if v.startswith(w0)]
        else:
            verbs = []
        if not verbs or state["pending"]:
            yield from self.legal_actions(state, seat)
            return
        try:
            self.seat_check(state, seat)
        except IllegalOrder:
            return
        wanted = set(verbs)
        for a in hooks.legal_extra(self, state, seat):
            if a.verb in wanted:
                yield a
        for v in verbs:  # in the table's order, as the full list has them (a pass's, above with legal_extra)
            if self.orders[v].listed_in is not None:
                continue
            for a in legal_of(self.orders[v], self, state, seat):
                if a.verb in wanted:
                    yield a



    # ------------------------------------------------------------------ apply
    def apply(self, state: State, seat: str, action: Action) -> list[Event]:
        v = action.verb
        if v not in ("advance",) and state["ph"].get("advance") and state["ph"]["advance"]["seat"] == seat:
            state["ph"]["advance"] = None  # 7.5: the chance to advance lapses with the next order
        order = self.orders[v]
        with c03_sequence._current_memo(action):
            dice = Dice(state["dice"]) if order.dice else None
            events = apply_order(order, self, state, seat, action, dice)
            if dice is not None and dice.rolls and events:
                events[0].rolls = events[0].rolls + dice.rolls
        for step in self.hooks.AFTER_ORDER:  # what follows any order in the game (Sauron expanded: an overrun)
            events += step(self, state, seat, action)
        ver = self.hooks.check_victory(self, state)
        if ver and not state["over"]:
            state["over"] = ver
            events.append(Event(public=ver["summary"], section=ver.get("section"), new_phase=True))
        return events





    # ------------------------------------------------------------------- view
    def unit_view(self, state: State, uid: str, own: str | None) -> dict:
        u = self.units[uid]
        rec = state["units"][uid]
        d = {"id": uid, "side": hooks.side_of(self, state, uid), "type": u.type, "name": u.name, "hex": rec["hex"]}
        if u.ratings:
            d["ratings"] = str(self.hooks.ratings(self, state, uid))
            d["reduced"] = rec.get("reduced", False)
            d["disrupted"] = rec.get("disrupted", False)
        if u.is_leader:
            d["rally"] = c08_3_rally.leader_rating(self, state, uid, for_rally=False)
            if u.magic:
                d["magic"] = rec.get("magic", u.magic)
            # drawn at the counter's foot: R its rally rating, M its magic points (engine/display.py)
            bits = [f"{k}{d[key]}" for k, key in (("R", "rally"), ("M", "magic")) if d.get(key) is not None]
            if bits:
                look(d)["bottom"] = " ".join(bits)
        f = c08_4_formations.formation_of(self, state, uid)
        if f:
            d["formation"] = state["formations"][f]["kind"]
        return d

    def result(self, state: State) -> Result | None:
        if not state["over"]:
            return None
        o = state["over"]
        grade = o.get("grade") or ("a Decisive Victory" if o.get("decisive") else None)  # (issue 41: kept)
        return Result(o.get("winner"), o["summary"], o.get("section"), self.hooks.result_line(self, state, o),
                      grade=grade if o.get("winner") else None)


# the set-up's guard and who may act (3.0): functions of the ruleset (issue 43); `done` is engine/spi/c03_done.py
# the orders of a turn, which set-up (13.0) points to `deploy` for
TURN_VERBS = frozenset({"move", "fire", "melee", "duel", "rally", "advance", "form", "disband", "retreat",
                        "cast"})


def _setup_guard(rs, state: State, verb: str) -> None:
    if state["turn"] == 0 and not state["over"] and verb in TURN_VERBS and "deploy" in rs.orders:
        raise IllegalOrder(f"`{verb}` is an order of the game-turns; this is the set-up: place units with "
                           "`deploy <unit> [<unit>...] <hex>` (or `deploy printed`), then `/done`", "13.0")


def _seat_check(rs, state: State, seat: str) -> None:
    if seat not in rs.seats:
        raise IllegalOrder(f"`{seat}` is not a seat in {rs.title}")
    if state["over"]:
        raise IllegalOrder("the game is over")
    p = pending.blocking(rs.decisions, state["pending"])
    if p is not None:
        pending.check_seat(rs.decisions, rs, state, p, seat, partial(c02_units.title_of, rs))
        return
    step = c03_sequence.step(rs, state)
    if seat not in step["seats"]:
        who = " and ".join(c02_units.title_of(rs, s) for s in step["seats"])
        raise IllegalOrder(f"it is the {step['title']}: {who} acts now", step["section"])
    if seat in state["done"]:
        raise IllegalOrder("you are already done with this phase")


StandardRules.ORDERS = (ADVANCE, DONE, MOVE, FORM, CAST, FIRE, DUEL, MELEE, RALLY, RETREAT, DISBAND)
