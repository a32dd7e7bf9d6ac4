"""LOTR Risk: Minas Tirith (Hasbro 2003), the two-player siege game (seed:002).

An *area* game on the same engine as the hex games: the board is a graph of
named areas (``board.json``), not a hex grid. Rule references in errors cite the
seed's headings (e.g. "Ranged Attack", "Retreat"); rulings where the seed is
silent are in docs/risk-minas-tirith.md.

Order notation (verb first, then units, then areas):
  take <die>                               choose one of the rolled Action dice
  exchange <c1> <c2> <c3> [special draw | special take <mt> | special place <type> at <area>]
  keep <mt>                                after "special draw": the card you keep
  reinforce <card> on <mt>                 a battalion onto Theoden/Aragorn/Mordor
  play <mt> [at <area>]                    a leader, siege tower, ladders or event card
  move <units> from <a> [via <b> [<c>]] to <d>
  advance <units> from <a> to <b>          free cavalry advance after an attack
  fire <n> from <a> at <b> · fire catapult from <a> at <b>
  attack <n> from <a> at <b>
  enter <mt> at <area> · trade mumak at <area> · ram <mt> · strike <mt> at <area>
  done
  retreat <area> [<area> ...]              the owner's retreat path, when more than one qualifies
  losses <type> [<type> ...]               standing loss priority, first lost first (any time, either seat)
Units are counts and leaders: ``2inf 1arc 3cav 1hor 1tro 1mum faramir``.

The rules are split by concern, one mixin per file, each holding its orders' parse, check,
legal actions and apply: ``setup`` (data, options, new game), ``forces`` (areas and supply),
``turn`` (sequence, take, done, end of game), ``cards`` (exchange, keep, play, ram, strike),
``reinforce`` (reinforce, enter), ``movement`` (move, trade), ``attack`` (fire, attack,
advance, losses), ``retreat``, ``view`` (view, help, odds); ``common`` holds the constants.
This module assembles the ruleset and dispatches each verb to its concern.
"""
from __future__ import annotations

import itertools
from typing import Iterator

from engine.core import Action, Dice, Event, IllegalOrder, InvalidOrder, RulesetBase, State
from engine.orders import Order, order_table
from engine.rulesets.risk_minas_tirith.board import Board
from engine.rulesets.risk_minas_tirith.common import (
    DATA, SEATS, TITLES, COLORS, OTHER, STATE_VERSION, TYPES, CODES, FROM_CODE, ALIASES, FOOT, MOUNTED, ARCHERY,
    LOSS_ORDER, SET_TYPES, S_TURN, S_DIE, S_DRAW, S_EXCH, S_SPECIAL, S_REINF, S_ACT, S_MOVE, S_WALLS, S_RANGED,
    S_GROUND, S_RETREAT, S_BATTLE, S_LEADERS, S_WIN, S_POINTS, S_MT,
)
from engine.rulesets.risk_minas_tirith.attack import AttackMixin
from engine.rulesets.risk_minas_tirith.cards import CardsMixin
from engine.rulesets.risk_minas_tirith.forces import ForcesMixin
from engine.rulesets.risk_minas_tirith.movement import MovementMixin
from engine.rulesets.risk_minas_tirith.reinforce import ReinforceMixin
from engine.rulesets.risk_minas_tirith.retreat import RetreatMixin
from engine.rulesets.risk_minas_tirith.setup import SetupMixin
from engine.rulesets.risk_minas_tirith.turn import TurnMixin
from engine.rulesets.risk_minas_tirith.view import ViewMixin

__all__ = ["RISK", "RiskMinasTirith", "Board", "DATA", "SEATS", "TITLES", "COLORS", "OTHER", "STATE_VERSION",
           "TYPES", "CODES", "FROM_CODE", "ALIASES", "FOOT", "MOUNTED", "ARCHERY", "LOSS_ORDER", "SET_TYPES",
           "S_TURN", "S_DIE", "S_DRAW", "S_EXCH", "S_SPECIAL", "S_REINF", "S_ACT", "S_MOVE", "S_WALLS", "S_RANGED",
           "S_GROUND", "S_RETREAT", "S_BATTLE", "S_LEADERS", "S_WIN", "S_POINTS", "S_MT"]

def _order(verb: str, section: str, usage: str) -> Order:
    """A Risk order's record: its parse, check and apply are ``_parse_<verb>``, ``_check_<verb>`` and
    ``_do_<verb>`` in the file of its heading; its legal actions come from ``_candidates`` (they
    depend on the phase, the hand and the board together)."""
    return Order(verb, (section,), usage, parse=f"_parse_{verb}", check=f"_check_{verb}", apply=f"_do_{verb}")


# in the order the verbs are listed in an unknown-order refusal
ORDERS = (
    _order("take", S_DIE, "take <die>"),
    _order("keep", S_SPECIAL, "keep <card>"),
    _order("reinforce", S_REINF, "reinforce <card> on <Minas Tirith card>"),
    _order("play", S_MT, "play <card> [at <area>]"),
    _order("fire", S_RANGED, "fire <n> from <area> at <area>"),
    _order("attack", S_GROUND, "attack <n> from <area> at <area>"),
    _order("enter", S_MT, "enter <card> at <area>"),
    _order("trade", S_MT, "trade mumak at <area>"),
    _order("ram", S_MT, "ram <card>"),
    _order("strike", S_MT, "strike <card> at <area>"),
    _order("move", S_MOVE, "move <units> from <area> [via <area> ...] to <area>"),
    _order("advance", S_GROUND, "advance <units> from <area> to <area>"),
    _order("done", S_ACT, "done"),
    _order("exchange", S_EXCH,
           "exchange <card> <card> <card> [special draw|special take <card>|special place <type> at <area>]"),
    _order("retreat", S_RETREAT, "retreat <area> [<area> ...] (one area per 6; the path your force takes)"),
    _order("losses", S_BATTLE,
           "losses <type> [<type> ...] (first lost first, e.g. `losses inf arc cav`), or `losses default`"),
)
USAGE = {o.verb: o.usage for o in ORDERS}


class RiskMinasTirith(SetupMixin, ForcesMixin, TurnMixin, CardsMixin, ReinforceMixin, MovementMixin, AttackMixin,
                      RetreatMixin, ViewMixin, RulesetBase):
    name = "risk-minas-tirith"
    hidden_information = True
    title = "LOTR Risk: Minas Tirith"
    seats = SEATS
    board_kind = "area"
    has_odds = True
    orders = order_table(ORDERS)

    def parse(self, state: State, seat: str, text: str) -> Action:
        action = self._parse(state, seat, text)
        self.check(state, seat, action)
        return action

    def _parse(self, state: State, seat: str, text: str) -> Action:
        if len(text) > 200:
            raise InvalidOrder("that order is too long (200 characters at most)")
        w = text.strip().lower().split()
        if not w:
            raise InvalidOrder("empty order; see `/help` (e.g. `take 4`, `attack 3 from fort-e at osgiliath-w`, `done`)")
        verb, rest = w[0], w[1:]
        order = self.orders.get(verb)
        if order is None:
            raise InvalidOrder(f"unknown order `{verb[:20]}`; orders: {', '.join(self.orders)}")

        def bad():
            return InvalidOrder(f"usage: `{order.usage}`")
        return getattr(self, order.parse)(state, seat, rest, bad)

    def check(self, state: State, seat: str, action: Action) -> None:
        if seat not in SEATS:
            raise IllegalOrder(f"`{seat}` is not a seat in this game (good, evil)")
        if state["over"]:
            raise IllegalOrder("the game is over", S_WIN)
        v, a = action.verb, action.args
        if v == "losses":  # a standing order: either seat, at any time (ruling)
            self._check_losses(state, seat, a)
            return
        rt = self._pending_retreat(state)
        if rt or v == "retreat":
            self._check_retreat(state, seat, action, rt)
            return
        if seat != state["active"]:
            raise IllegalOrder(f"it is {TITLES[state['active']]}'s turn", S_TURN)
        ph = state["phase"]
        pend = state["pending"] or {}
        if "keep" in pend and v != "keep":
            raise IllegalOrder("first choose which of the two drawn cards to keep: `keep <card>`", S_SPECIAL)
        if v in ("keep", "take"):
            getattr(self, self.orders[v].check)(state, seat, a)
            return
        if ph == "die":
            raise IllegalOrder(f"first choose an Action die: `take <n>` ({', '.join(map(str, state['action_dice']))})",
                               S_DIE)
        if v == "done":
            self._check_done(state, seat, a)
            return
        if v in ("exchange", "reinforce", "play"):
            if ph != "cards":
                raise IllegalOrder("card plays are complete before the Actions begin", S_EXCH)
            getattr(self, self.orders[v].check)(state, seat, a)
            return
        if ph != "actions":
            raise IllegalOrder("actions come after the card phase: `done` to start them", S_ACT)
        if v == "advance":
            self._check_advance(state, seat, a)
            return
        if state["actions"] < 1:
            raise IllegalOrder("no Action points left", S_ACT)
        getattr(self, self.orders[v].check)(state, seat, a)

    def apply(self, state: State, seat: str, action: Action) -> list[Event]:
        dice = Dice(state["dice"])
        v = action.verb
        if v == "losses":  # a standing order: touches nothing of the turn (not even a free advance)
            return self._do_losses(state, seat, action.args, dice)
        if state["pending"] and "advance" in state["pending"] and v != "advance":
            state["pending"] = None
        events = getattr(self, self.orders[v].apply)(state, seat, action.args, dice)
        if dice.rolls:
            events[0].rolls = list(dice.rolls) + events[0].rolls
        if not state["over"]:
            self._check_towers(state)
            self._finish_if_won(state, events)
        if not state["over"] and state["phase"] == "actions" and state["active"] == seat:
            if state["actions"] <= 0 and not state["pending"]:
                events.append(Event(public=f"{TITLES[seat]} has used every Action point.", section=S_ACT))
                events.extend(self._end_turn(state, dice))
                if dice.rolls and len(events) > 1:
                    pass
        return events

    def legal_actions(self, state: State, seat: str) -> Iterator[Action]:
        if state["over"] or seat not in SEATS:
            return
        rt = self._pending_retreat(state)
        if rt:
            yield from self._legal_retreat(state, seat, rt)
        elif seat == state["active"]:
            for a in self._candidates(state, seat):
                try:
                    self.check(state, seat, a)
                except (IllegalOrder, InvalidOrder):
                    continue
                yield a
        yield from self._loss_suggestions(state, seat)

    def _candidates(self, state: State, seat: str) -> Iterator[Action]:
        """Every order worth checking now, in the order they are offered."""
        ph = state["phase"]
        pend = state["pending"] or {}
        if "keep" in pend:
            yield from self._legal_keep(pend)
            return
        if ph == "die":
            yield from self._legal_take(state)
            return
        mine = [aid for aid in self.board.ids if state["areas"][aid]["side"] == seat and
                (state["areas"][aid]["u"] or state["areas"][aid]["leaders"])]
        if ph == "cards":
            yield Action("done")
            hand = sorted(state["hands"][seat]["reinf"], key=self._card_key)
            combos = list(itertools.combinations(hand, 3))
            yield from self._legal_exchanges(combos)
            for cid in state["hands"][seat]["mt"]:
                yield from self._legal_play(state, seat, cid, mine)
                yield from self._legal_reinforce(state, seat, cid, hand)
            yield from self._legal_special_exchanges(state, combos, mine)
            return
        # actions
        yield from self._legal_advance(state, pend)
        yield Action("done")
        for aid in mine:
            yield from self._legal_attacks(state, seat, aid)
            yield from self._legal_fire(state, seat, aid)
        for cid in state["hands"][seat]["mt"]:
            yield from self._legal_enter(state, seat, cid)
            yield from self._legal_ram(state, seat, cid)
            yield from self._legal_strike(state, seat, cid)
        yield from self._legal_trade(state, seat, mine)
        yield from self._legal_moves(state, seat, mine)


RISK = RiskMinasTirith()
