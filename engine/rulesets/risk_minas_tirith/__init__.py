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

from engine import pending
from engine.core import Action, Event, IllegalOrder, InvalidOrder, RulesetBase, State
from engine.dice import Dice
from engine.orders import Order, apply_order, check_order, listed_by_turn, order_table, parse_order
from engine.rulesets.risk_minas_tirith import attack, cards, movement, reinforce, retreat, turn
from engine.rulesets.risk_minas_tirith.attack import FREE_ADVANCE
from engine.rulesets.risk_minas_tirith.board import Board
from engine.rulesets.risk_minas_tirith.cards import KEEP_ONE
from engine.rulesets.risk_minas_tirith.retreat import CHOOSE_PATH
from engine.rulesets.risk_minas_tirith.options import OPTIONS
from engine.rulesets.risk_minas_tirith.common import (
    DATA, SEATS, TITLES, COLORS, OTHER, STATE_VERSION, TYPES, CODES, FROM_CODE, ALIASES, FOOT, MOUNTED, ARCHERY,
    LOSS_ORDER, SET_TYPES, S_TURN, S_DIE, S_DRAW, S_EXCH, S_SPECIAL, S_REINF, S_ACT, S_MOVE, S_WALLS, S_RANGED,
    S_GROUND, S_RETREAT, S_BATTLE, S_LEADERS, S_WIN, S_POINTS, S_MT,
)

__all__ = ["RISK", "RiskMinasTirith", "Board", "DATA", "SEATS", "TITLES", "COLORS", "OTHER", "STATE_VERSION",
           "TYPES", "CODES", "FROM_CODE", "ALIASES", "FOOT", "MOUNTED", "ARCHERY", "LOSS_ORDER", "SET_TYPES",
           "S_TURN", "S_DIE", "S_DRAW", "S_EXCH", "S_SPECIAL", "S_REINF", "S_ACT", "S_MOVE", "S_WALLS", "S_RANGED",
           "S_GROUND", "S_RETREAT", "S_BATTLE", "S_LEADERS", "S_WIN", "S_POINTS", "S_MT"]

T, C, R, M, A = turn, cards, reinforce, movement, attack  # the files of the seed's headings
# in the order the verbs are listed in an unknown-order refusal; each order's parse, check and apply are
# in the file of its heading (engine/orders.py); its legal actions are the turn's list kept to its verb
# (``_candidates``: they depend on the phase, the hand and the board together)
ORDERS = (
    Order("take", "take <die>", parse=T._parse_take, check=T._check_take, apply=T._do_take,
          legal=listed_by_turn("take"), cases=(S_DIE,)),
    Order("keep", "keep <card>", parse=C._parse_keep, check=C._check_keep, apply=C._do_keep,
          legal=listed_by_turn("keep"), cases=(S_SPECIAL,)),
    Order("reinforce", "reinforce <card> on <Minas Tirith card>", parse=R._parse_reinforce,
          check=R._check_reinforce, apply=R._do_reinforce, legal=listed_by_turn("reinforce"), cases=(S_REINF,)),
    Order("play", "play <card> [at <area>]", parse=C._parse_play, check=C._check_play, apply=C._do_play,
          legal=listed_by_turn("play"), cases=(S_MT,)),
    Order("fire", "fire <n> from <area> at <area>", parse=A._parse_fire, check=A._check_fire, apply=A._do_fire,
          legal=listed_by_turn("fire"), cases=(S_RANGED,)),
    Order("attack", "attack <n> from <area> at <area>", parse=A._parse_attack, check=A._check_attack,
          apply=A._do_attack, legal=listed_by_turn("attack"), cases=(S_GROUND,)),
    Order("enter", "enter <card> at <area>", parse=R._parse_enter, check=R._check_enter, apply=R._do_enter,
          legal=listed_by_turn("enter"), cases=(S_MT,)),
    Order("trade", "trade mumak at <area>", parse=M._parse_trade, check=M._check_trade, apply=M._do_trade,
          legal=listed_by_turn("trade"), cases=(S_MT,)),
    Order("ram", "ram <card>", parse=C._parse_ram, check=C._check_ram, apply=C._do_ram,
          legal=listed_by_turn("ram"), cases=(S_MT,)),
    Order("strike", "strike <card> at <area>", parse=C._parse_strike, check=C._check_strike, apply=C._do_strike,
          legal=listed_by_turn("strike"), cases=(S_MT,)),
    Order("move", "move <units> from <area> [via <area> ...] to <area>", parse=M._parse_move,
          check=M._check_move, apply=M._do_move, legal=listed_by_turn("move"), cases=(S_MOVE,)),
    Order("advance", "advance <units> from <area> to <area>", parse=A._parse_advance, check=A._check_advance,
          apply=A._do_advance, legal=listed_by_turn("advance"), cases=(S_GROUND,)),
    Order("done", "done", parse=T._parse_done, check=T._check_done, apply=T._do_done,
          legal=listed_by_turn("done"), cases=(S_ACT,)),
    Order("exchange",
          "exchange <card> <card> <card> [special draw|special take <card>|special place <type> at <area>]",
          parse=C._parse_exchange, check=C._check_exchange, apply=C._do_exchange, legal=listed_by_turn("exchange"),
          cases=(S_EXCH,)),
    Order("retreat", "retreat <area> [<area> ...] (one area per 6; the path your force takes)",
          parse=retreat._parse_retreat, check=retreat._check_retreat_order, apply=retreat._do_retreat,
          legal=listed_by_turn("retreat"), cases=(S_RETREAT,)),
    Order("losses", "losses <type> [<type> ...] (first lost first, e.g. `losses inf arc cav`), or `losses default`",
          parse=A._parse_losses, check=A._check_losses, apply=A._do_losses, legal=listed_by_turn("losses"),
          cases=(S_BATTLE,)),
)
USAGE = {o.verb: o.usage for o in ORDERS}


class RiskMinasTirith(RulesetBase):
    """The game: its files' functions, one file per heading of the seed (setup, forces, turn, cards,
    reinforce, movement, attack, retreat, view), and the dispatch over ORDERS below."""

    def rules_in_force(self, state: State) -> list[str]:
        """Issue 42: a Minas Tirith deck other than the game's own."""
        src = (state.get("options") or {}).get("mt_source", "default")
        return [] if src == "default" else [f"Minas Tirith cards: {src}"]

    from engine.rulesets.risk_minas_tirith.setup import (
        board, cards, reinforcement_cards, leader_color, leader_side, all_leaders, _lname, mt_list,
        _check_options, new_game
    )
    from engine.rulesets.risk_minas_tirith.forces import (
        _side_of, _bn, _pool, _mt, _usable, _on_board, _name, _area, _add, _remove, _leader_bonus, adjust
    )
    from engine.rulesets.risk_minas_tirith.turn import (
        active_seats, result, _new_round, _new_turn, _end_turn, _check_towers, points, _finish_if_won,
        _end_on_points, _parse_take, _check_take, _legal_take, _do_take, _parse_done, _check_done, _do_done,
        _spend
    )
    from engine.rulesets.risk_minas_tirith.cards import (
        _mt_card, _card_key, _card_label, _parse_exchange, _check_exchange, _set_type, _legal_exchanges,
        _legal_special_exchanges, _draw_mt, _do_exchange, _parse_keep, _check_keep, _legal_keep, _do_keep,
        _parse_play, _check_play, _legal_play, _discard_mt, _do_play, _parse_card_at, _parse_ram, _check_ram,
        _legal_ram, _do_ram, _parse_strike, _check_strike, _legal_strike, _do_strike
    )
    from engine.rulesets.risk_minas_tirith.reinforce import (
        _parse_reinforce, _check_reinforce, _host_type, _legal_reinforce, _do_reinforce, _parse_enter,
        _check_enter, _legal_enter, _do_enter
    )
    from engine.rulesets.risk_minas_tirith.movement import (
        _group, _parse_route, _parse_move, _split_move, _enter_ok, _check_group_at, _check_move, _groups,
        _ride_groups, _legal_moves, _leader_paths, _move_fired, _do_move, _parse_trade, _check_trade,
        _legal_trade, _do_trade
    )
    from engine.rulesets.risk_minas_tirith.attack import (
        _parse_shot, _archery, fire_dice, _parse_fire, _check_fire, _legal_fire, _do_fire, _parse_attack,
        _check_attack, _legal_attacks, modifiers, defence_dice, resolve_ground, _free_advance, _after_battle,
        _do_attack, _parse_advance, _check_advance, _legal_advance, _advance_groups, _do_advance,
        default_priority, loss_priority, _take_losses, _loss_text, _parse_losses, _check_losses,
        _loss_suggestions, _do_losses
    )
    from engine.rulesets.risk_minas_tirith.retreat import (
        _pending_retreat, deadline_action, _parse_retreat, _check_retreat_order, _check_retreat, _legal_retreat,
        run_retreats, retreat_paths, retreat_along, _retreat_text, _retreat_choices, _ask_retreat, _do_retreat
    )
    from engine.rulesets.risk_minas_tirith.autopilot import autopilot_action
    from engine.rulesets.risk_minas_tirith.view import (
        format, phase_title, view, secret_text, HELP_TOPICS, help_topics, help, odds_table, _odds_fire, _comb,
        _odds_ground, odds
    )

    name = "risk-minas-tirith"
    options = OPTIONS  # options.py (issue 39)
    hidden_information = True
    golden_script = ("risk_minas_tirith_game.txt", "11")
    title = "LOTR Risk: Minas Tirith"
    seats = SEATS
    board_kind = "area"
    has_odds = True
    orders = order_table(ORDERS)
    # the pending decisions (engine/pending.py), one at a time in ``state["pending"]``: a retreat's path
    # and the card to keep hold up play; the free cavalry advance is an offer another order lets lapse
    DECISIONS = (CHOOSE_PATH, KEEP_ONE, FREE_ADVANCE)
    decisions = pending.decision_table(DECISIONS)

    @property
    def secret_twins(self) -> tuple[dict, dict]:
        """The Reinforcement deck's order, its last two cards swapped (issue 43)."""
        deck = list(self.reinforcement_cards)
        return {"reinf_deck": deck}, {"reinf_deck": deck[:-2] + deck[-2:][::-1]}

    def waiting_decisions(self, state: State) -> list[dict]:
        """The decision record waiting now, if any (engine/pending.py)."""
        return [state["pending"]] if state["pending"] else []

    def upgrade_state(self, state: State) -> None:
        """A decision stored before decisions had a kind (issue 29): ``{"retreat"|"keep"|"advance": ...}``."""
        p = state.get("pending")
        if p and "kind" not in p:
            (kind,) = p
            seat = p["retreat"]["queue"][0]["side"] if kind == "retreat" else state["active"]
            p.update(kind=kind, seat=seat, section=self.decisions[kind].section)

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

        return parse_order(order, self, state, seat, rest)

    def _usage(self, verb: str) -> InvalidOrder:
        return InvalidOrder(f"usage: `{self.orders[verb].usage}`")

    def check(self, state: State, seat: str, action: Action) -> None:
        if seat not in SEATS:
            raise IllegalOrder(f"`{seat}` is not a seat in this game (good, evil)")
        if state["over"]:
            raise IllegalOrder("the game is over", S_WIN)
        v, a = action.verb, action.args
        if v == "losses":  # a standing order: either seat, at any time (ruling)
            self._check_losses(state, seat, a)
            return
        p = pending.blocking(self.decisions, state["pending"])
        if p is not None:  # only its answer, by its seat (then the answer's own check)
            pending.check_answer(self.decisions, self, state, p, seat, action, TITLES.__getitem__)
            check_order(self.orders[v], self, state, seat, action)
            return
        if v == "retreat":  # no retreat to choose
            check_order(self.orders[v], self, state, seat, action)
            return
        if seat != state["active"]:
            raise IllegalOrder(f"it is {TITLES[state['active']]}'s turn", S_TURN)
        ph = state["phase"]
        if v in ("keep", "take"):
            check_order(self.orders[v], self, state, seat, action)
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
            check_order(self.orders[v], self, state, seat, action)
            return
        if ph != "actions":
            raise IllegalOrder("actions come after the card phase: `done` to start them", S_ACT)
        if v == "advance":
            self._check_advance(state, seat, a)
            return
        if state["actions"] < 1:
            raise IllegalOrder("no Action points left", S_ACT)
        check_order(self.orders[v], self, state, seat, action)

    def apply(self, state: State, seat: str, action: Action) -> list[Event]:
        dice = Dice(state["dice"])
        v = action.verb
        if v == "losses":  # a standing order: touches nothing of the turn (not even a free advance)
            return self._do_losses(state, seat, action.args, dice)
        if pending.lapses(self.decisions, state["pending"], action):  # an offer not taken
            state["pending"] = None
        events = apply_order(self.orders[v], self, state, seat, action, dice)
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
        p = pending.blocking(self.decisions, state["pending"])
        if p is not None:
            yield from pending.legal_answers(self.decisions, self, state, p, seat)
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
