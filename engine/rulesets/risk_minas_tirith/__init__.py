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

The rules are split by concern, one module of functions per file, each holding its orders' parse,
check, legal actions and apply, each function taking the ruleset (``rs``) and called by its module
(``attack.resolve_ground(rs, state, ...)``), each file importing only those below it: ``common``
(the constants, an order's words to its action), ``forces`` (areas, supply, leaders, Action points),
``losses`` (losses and the standing priority, `losses`), ``turn`` (sequence, take, done, end of
game), ``setup`` (options, new game), ``cards`` (exchange, keep, play, ram, strike), ``reinforce``
(reinforce, enter), ``movement`` (move, trade), ``advance`` (the free cavalry advance), ``retreat``,
``attack`` (fire, attack), ``view`` (view, help, odds). This module assembles the ruleset: its data,
its orders and decisions, the interface it overrides, and the dispatch of each verb to its concern.
"""
from __future__ import annotations

import itertools
import tomllib
from functools import cached_property
from typing import Iterator

from engine import pending
from engine.core import Action, Event, IllegalOrder, InvalidOrder, Result, RulesetBase, State
from engine.dice import Dice
from engine.orders import Order, apply_order, check_order, listed_by_turn, order_table
from engine.rulesets.risk_minas_tirith import (advance, attack, autopilot, cards, common, forces, losses, movement,
                                               reinforce, retreat, setup, turn, view)
from engine.rulesets.risk_minas_tirith.advance import FREE_ADVANCE
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

# in the order the verbs are listed in an unknown-order refusal; each order's parse, check and apply are
# in the file of its heading (engine/orders.py); its legal actions are the turn's list kept to its verb
# (``_candidates``: they depend on the phase, the hand and the board together)
ORDERS = (
    Order("take", "take <die>", parse=turn._parse_take, check=turn._check_take, apply=turn._do_take,
          legal=listed_by_turn("take"), cases=(S_DIE,)),
    Order("keep", "keep <card>", parse=cards._parse_keep, check=cards._check_keep, apply=cards._do_keep,
          legal=listed_by_turn("keep"), cases=(S_SPECIAL,)),
    Order("reinforce", "reinforce <card> on <Minas Tirith card>", parse=reinforce._parse_reinforce,
          check=reinforce._check_reinforce, apply=reinforce._do_reinforce, legal=listed_by_turn("reinforce"),
          cases=(S_REINF,)),
    Order("play", "play <card> [at <area>]", parse=cards._parse_play, check=cards._check_play, apply=cards._do_play,
          legal=listed_by_turn("play"), cases=(S_MT,)),
    Order("fire", "fire <n> from <area> at <area>", parse=attack._parse_fire, check=attack._check_fire,
          apply=attack._do_fire, legal=listed_by_turn("fire"), cases=(S_RANGED,)),
    Order("attack", "attack <n> from <area> at <area>", parse=attack._parse_attack, check=attack._check_attack,
          apply=attack._do_attack, legal=listed_by_turn("attack"), cases=(S_GROUND,)),
    Order("enter", "enter <card> at <area>", parse=reinforce._parse_enter, check=reinforce._check_enter,
          apply=reinforce._do_enter, legal=listed_by_turn("enter"), cases=(S_MT,)),
    Order("trade", "trade mumak at <area>", parse=movement._parse_trade, check=movement._check_trade,
          apply=movement._do_trade, legal=listed_by_turn("trade"), cases=(S_MT,)),
    Order("ram", "ram <card>", parse=cards._parse_ram, check=cards._check_ram, apply=cards._do_ram,
          legal=listed_by_turn("ram"), cases=(S_MT,)),
    Order("strike", "strike <card> at <area>", parse=cards._parse_strike, check=cards._check_strike,
          apply=cards._do_strike, legal=listed_by_turn("strike"), cases=(S_MT,)),
    Order("move", "move <units> from <area> [via <area> ...] to <area>", parse=movement._parse_move,
          check=movement._check_move, apply=movement._do_move, legal=listed_by_turn("move"), cases=(S_MOVE,)),
    Order("advance", "advance <units> from <area> to <area>", parse=advance._parse_advance,
          check=advance._check_advance, apply=advance._do_advance, legal=listed_by_turn("advance"), cases=(S_GROUND,)),
    Order("done", "done", parse=turn._parse_done, check=turn._check_done, apply=turn._do_done,
          legal=listed_by_turn("done"), cases=(S_ACT,)),
    Order("exchange",
          "exchange <card> <card> <card> [special draw|special take <card>|special place <type> at <area>]",
          parse=cards._parse_exchange, check=cards._check_exchange, apply=cards._do_exchange,
          legal=listed_by_turn("exchange"), cases=(S_EXCH,)),
    Order("retreat", "retreat <area> [<area> ...] (one area per 6; the path your force takes)",
          parse=retreat._parse_retreat, check=retreat._check_retreat_order, apply=retreat._do_retreat,
          legal=listed_by_turn("retreat"), cases=(S_RETREAT,)),
    Order("losses", "losses <type> [<type> ...] (first lost first, e.g. `losses inf arc cav`), or `losses default`",
          parse=losses._parse_losses, check=losses._check_losses, apply=losses._do_losses,
          legal=listed_by_turn("losses"), cases=(S_BATTLE,)),
)
USAGE = {o.verb: o.usage for o in ORDERS}


class RiskMinasTirith(RulesetBase):
    """The game: its data, its orders (ORDERS above) and decisions, and the interface the application
    calls, each method calling the function of the file of its heading (issue 43)."""

    def rules_in_force(self, state: State) -> list[str]:
        """Issue 42: a Minas Tirith deck other than the game's own."""
        src = (state.get("options") or {}).get("mt_source", "default")
        return [] if src == "default" else [f"Minas Tirith cards: {src}"]

    # the game's data, read once: the board (data/board.json) and cards.toml
    @cached_property
    def board(self) -> Board:
        return Board.load()

    @cached_property
    def cards(self) -> dict:
        return tomllib.loads((DATA / "cards.toml").read_text())

    @cached_property
    def reinforcement_cards(self) -> dict[str, dict]:
        """Card id -> {type, shield}. Ids are readable: inf1.., cav1.., cre1.., wild1, wild2."""
        out: dict[str, dict] = {}
        rc = self.cards["reinforcement"]
        for typ, code in (("infantry", "inf"), ("cavalry", "cav"), ("creature", "cre")):
            n = 0
            for shield in ("good", "evil"):
                for _ in range(rc[typ][shield]):
                    n += 1
                    out[f"{code}{n}"] = {"type": typ, "shield": shield}
        for i in range(rc["wild"]):
            out[f"wild{i + 1}"] = {"type": "wild", "shield": None}
        return out

    @cached_property
    def all_leaders(self) -> list[str]:
        return [lid for s in SEATS for lid in self.cards["forces"][s]["leaders"]]

    # the interface the application calls, each in the file of its heading
    def new_game(self, options: dict[str, str], seed: str, fixture: dict | None = None) -> State:
        return setup.new_game(self, options, seed, fixture)

    def adjust(self, state: State, unit: str, to: str | None) -> str:
        return forces.adjust(self, state, unit, to)

    def active_seats(self, state: State) -> list[str]:
        return turn.active_seats(self, state)

    def result(self, state: State) -> Result | None:
        return turn.result(self, state)

    def deadline_action(self, state: State, seat: str) -> Action | None:
        return retreat.deadline_action(self, state, seat)

    def autopilot_action(self, state: State, seat: str) -> Action | None:
        return autopilot.autopilot_action(self, state, seat)

    def format(self, action: Action) -> str:
        return view.format(self, action)

    def view(self, state: State, seat: str | None) -> dict:
        return view.view(self, state, seat)

    def secret_text(self, state: State, seat: str) -> str | None:
        return view.secret_text(self, state, seat)

    def help_topics(self) -> tuple[str, ...]:
        return view.help_topics(self)

    def help(self, topic: str | None = None) -> str:
        return view.help(self, topic)

    def odds(self, state: State, seat: str, text: str) -> str:
        return view.odds(self, state, seat, text)

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
        action = common._parse(self, state, seat, text)
        self.check(state, seat, action)
        return action

    def check(self, state: State, seat: str, action: Action) -> None:
        if seat not in SEATS:
            raise IllegalOrder(f"`{seat}` is not a seat in this game (good, evil)")
        if state["over"]:
            raise IllegalOrder("the game is over", S_WIN)
        v, a = action.verb, action.args
        if v == "losses":  # a standing order: either seat, at any time (ruling)
            losses._check_losses(self, state, seat, a)
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
            turn._check_done(self, state, seat, a)
            return
        if v in ("exchange", "reinforce", "play"):
            if ph != "cards":
                raise IllegalOrder("card plays are complete before the Actions begin", S_EXCH)
            check_order(self.orders[v], self, state, seat, action)
            return
        if ph != "actions":
            raise IllegalOrder("actions come after the card phase: `done` to start them", S_ACT)
        if v == "advance":
            advance._check_advance(self, state, seat, a)
            return
        if state["actions"] < 1:
            raise IllegalOrder("no Action points left", S_ACT)
        check_order(self.orders[v], self, state, seat, action)

    def apply(self, state: State, seat: str, action: Action) -> list[Event]:
        dice = Dice(state["dice"])
        v = action.verb
        if v == "losses":  # a standing order: touches nothing of the turn (not even a free advance)
            return losses._do_losses(self, state, seat, action.args, dice)
        if pending.lapses(self.decisions, state["pending"], action):  # an offer not taken
            state["pending"] = None
        events = apply_order(self.orders[v], self, state, seat, action, dice)
        if dice.rolls:
            events[0].rolls = list(dice.rolls) + events[0].rolls
        if not state["over"]:
            turn._check_towers(self, state)
            turn._finish_if_won(self, state, events)
        if not state["over"] and state["phase"] == "actions" and state["active"] == seat:
            if state["actions"] <= 0 and not state["pending"]:
                events.append(Event(public=f"{TITLES[seat]} has used every Action point.", section=S_ACT))
                events.extend(turn._end_turn(self, state, dice))
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
            for a in _candidates(self, state, seat):
                try:
                    self.check(state, seat, a)
                except (IllegalOrder, InvalidOrder):
                    continue
                yield a
        yield from losses._loss_suggestions(self, state, seat)



def _candidates(rs, state: State, seat: str) -> Iterator[Action]:
    """Every order worth checking now, in the order they are offered."""
    ph = state["phase"]
    pend = state["pending"] or {}
    if ph == "die":
        yield from turn._legal_take(rs, state)
        return
    mine = [aid for aid in rs.board.ids if state["areas"][aid]["side"] == seat and
            (state["areas"][aid]["u"] or state["areas"][aid]["leaders"])]
    if ph == "cards":
        yield Action("done")
        hand = sorted(state["hands"][seat]["reinf"], key=cards._card_key)
        combos = list(itertools.combinations(hand, 3))
        yield from cards._legal_exchanges(rs, combos)
        for cid in state["hands"][seat]["mt"]:
            yield from cards._legal_play(rs, state, seat, cid, mine)
            yield from reinforce._legal_reinforce(rs, state, seat, cid, hand)
        yield from cards._legal_special_exchanges(rs, state, seat, combos, mine)
        return
    # actions
    yield from advance._legal_advance(rs, state, pend)
    yield Action("done")
    for aid in mine:
        yield from attack._legal_attacks(rs, state, seat, aid)
        yield from attack._legal_fire(rs, state, seat, aid)
    for cid in state["hands"][seat]["mt"]:
        yield from reinforce._legal_enter(rs, state, seat, cid)
        yield from cards._legal_ram(rs, state, seat, cid)
        yield from cards._legal_strike(rs, state, seat, cid)
    yield from movement._legal_trade(rs, state, seat, mine)
    yield from movement._legal_moves(rs, state, seat, mine)


RISK = RiskMinasTirith()
