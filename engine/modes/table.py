"""The wrapper: any ruleset, played at a level of play, with the moderator's seat and the table.

Dispatch of an order (``parse``):
1. ``!<text>`` (assist, tabletop): a declared action, unless the engine accepts the text as it is;
2. a table verb that exists in this mode (talk, rulings, ``pass``; at tabletop the vocabulary,
   which only the seat to act and the moderator use) is the table's, unless the inner ruleset
   accepts the same text (its own verbs still work where it has them, ``move GS1 1904 1905``);
3. anything else is the inner ruleset's; in assist play, text it cannot parse is declared.
The moderator gives no order of the inner game."""
from __future__ import annotations

import json

from engine.core import Action, InvalidOrder, OrderError, RulesetBase, copy_parts
from engine.modes import GM, TABLE_OPTIONS, autopilot, mode_of, deck, moded_name, pieces, proposals, talk, trade, tracks, turns, votes
from engine.modes.common import every_seats_secrets, is_gm, table, table_action, title
from engine.options import OptionError, find, read_value
from engine.orders import apply_order, legal_of, parse_order, public_text

VERBS = {v.verb: v for v in (*talk.VERBS, *proposals.VERBS, *turns.VERBS, *pieces.VERBS, *deck.VERBS,
                             *tracks.VERBS, *trade.VERBS, *votes.VERBS)}


def _is_table(action: Action) -> bool:
    return bool(action.memo.get("table"))


class ModedRuleset(RulesetBase):
    optional_seats = (GM,)

    def __init__(self, inner, mode: str):
        self.inner = inner
        self.mode = mode
        self.name = moded_name(inner.name, mode)
        self.title = f"{inner.title} ({mode})"
        self.seats = (*inner.seats, GM)
        self.board_kind = inner.board_kind
        self.has_odds = inner.has_odds
        self.takes_charts = inner.takes_charts
        self.hidden_information = True  # secret pieces, hands, whispers, secret pacts
        self.hexmap = inner.hexmap
        self.board = inner.board
        self.turn_order = inner.turn_order
        self.optional_seats = (*inner.optional_seats, GM)  # a seat the game may lack (wotr's rohan), and gm
        self.options = (*inner.options, *TABLE_OPTIONS)  # the game's own and the table's (issue 39)

    # ---------------------------------------------------------------- delegated as they are
    def game_board(self):
        return self.inner.game_board()

    def parse_around(self, text):
        return self.inner.parse_around(text)

    def around_choices(self, prefix, public_view):
        return self.inner.around_choices(prefix, public_view)

    def odds(self, state, seat, text):
        if is_gm(seat):
            raise InvalidOrder("odds are for a seat that attacks")
        return self.inner.odds(state, seat, text)

    def check_charts(self, text):
        return self.inner.check_charts(text)

    def help_topics(self) -> tuple[str, ...]:
        return (*self.inner.help_topics(), "table")

    def rules_in_force(self, state):
        return self.inner.rules_in_force(state)

    def help(self, topic=None):
        if topic in ("table", "modes", self.mode):
            return self.table_help()
        return self.inner.help(topic) + f"\n\nThis game is played in **{self.mode}** mode: `/help topic:table` for its verbs."

    def table_help(self) -> str:
        lines = [f"**{self.mode.title()} play** (docs/modes.md). The moderator's seat is `gm`."]
        if self.mode == "assist":
            lines.append("An order the engine cannot read, or `!<order>` it refuses, is declared for a ruling.")
        if self.mode == "tabletop":
            lines.append("Seats act in turn; `done` passes to the next.")
        cards = {"deck", "draw", "discard", "give", "show", "reshuffle", "offer", "counter", "withdraw"}
        for v in VERBS.values():
            if self.mode not in v.modes or (self.mode != "tabletop" and v.verb in cards):
                continue
            syntax, _, what = v.usage.partition(": ")
            who = " (the moderator's here)" if v.vocabulary and self.mode != "tabletop" else ""
            lines.append(f"- `{syntax}`" + (f": {what}" if what else "") + who)
        return "\n".join(lines)

    # ---------------------------------------------------------------- the game
    def new_game(self, options, seed, fixture=None):
        opts = {str(k).strip().lower(): v for k, v in options.items()}
        mode = mode_of({k: opts.pop(k) for k in ("mode", "whispers") if k in opts}, self.inner.name) or self.mode
        if mode != self.mode:
            raise OptionError(f"{self.inner.name}: this game is played in {self.mode} mode, not `{mode}`")
        whispers = read_value(find(TABLE_OPTIONS, "whispers"), "whispers", options.get("whispers", "on"),
                              self.inner.name)
        st = self.inner.new_game(opts, seed, fixture)
        if "table" in st:
            raise InvalidOrder(f"{self.inner.title} keeps a `table` of its own and cannot be wrapped")
        st["table"] = {"mode": self.mode, "whispers": whispers, "pieces": {}, "next_token": 0, "decks": {},
                       "hands": {}, "tracks": {}, "proposals": [], "pacts": [], "whispers_log": [], "trades": [], "votes": [], "shown": {},
                       "turns": turns.new_turns(self.inner.game_turn_order(st) or self.inner.seats), "last_roll": None}
        return st

    def active_seats(self, state):
        if self.result(state) is not None:
            return []
        if self.mode == "tabletop":
            return [turns.to_act(state)]
        return self.inner.active_seats(state)

    def _inner_has(self, verb: str) -> bool:
        """Whether the wrapped game has an order of its own with this verb."""
        return verb in (getattr(self.inner, "orders", None) or {})

    def _verb(self, word: str):
        v = VERBS.get(word)
        return v if v is not None and self.mode in v.modes else None

    def _table_parse(self, state, seat, verb, words) -> Action:
        if verb.vocabulary and not is_gm(seat) and self.mode == "tabletop" and seat != turns.to_act(state) \
                and verb.verb != "done":
            from engine.modes.common import refuse
            raise refuse(f"It is {title(turns.to_act(state))}'s turn; the table is theirs until `done`.")
        if verb.vocabulary and self.mode != "tabletop" and not is_gm(seat):
            raise InvalidOrder(f"`{verb.verb}` is the moderator's here (tabletop play lets every seat use it)")
        return table_action(verb.verb, parse_order(verb, self, state, seat, words).args)

    def parse(self, state, seat, text):
        text = " ".join((text or "").split())
        if self.result(state) is not None:
            raise InvalidOrder("The game is over.")
        words = text.split(" ") if text else []
        if not words:
            raise InvalidOrder("An order is needed.")
        if text.startswith("!") and self.mode in ("assist", "tabletop"):
            body = text[1:].strip()
            if not is_gm(seat):
                try:
                    return self.inner.parse(state, seat, body)
                except OrderError:
                    pass
            return self._table_parse(state, seat, VERBS["declare"], body.split(" ") if body else [])
        verb = self._verb(words[0].lower())
        inner_error: OrderError | None = None
        if verb is not None and verb.vocabulary and not is_gm(seat) and verb.verb != "done":
            try:  # the ruleset's own verb of the same name goes first
                return self.inner.parse(state, seat, text)
            except OrderError as e:
                # kept without its traceback: a traceback holds this frame, and this frame the error, a
                # cycle that only the garbage collector frees (with every frame and state it holds), at
                # every table verb the game lacks (`roll`, `draw`, ...)
                inner_error = e.with_traceback(None)
        if verb is not None:
            try:
                return self._table_parse(state, seat, verb, words[1:])
            except OrderError:
                # the game's own verb of that name, mistyped: its refusal names its form (issue 27: a
                # seat's `move frodo` is not "the moderator's `move`"), where the table's verb is the
                # moderator's (tabletop play gives every seat the table's `move` when the game's fails)
                if inner_error is not None and (inner_error.kind != "invalid"
                                                or (self.mode != "tabletop" and self._inner_has(verb.verb))):
                    raise inner_error from None
                raise
        if is_gm(seat):
            raise InvalidOrder("The moderator gives no order of the game; `/help topic:table` lists the moderator's.")
        try:
            return self.inner.parse(state, seat, text)
        except InvalidOrder:
            if self.mode == "assist":
                return table_action("declare", (text,))
            raise
        except OrderError as e:
            if self.mode == "assist":
                raise type(e)(f"{e.message}. To ask for a ruling, declare it: `!{text}`", e.section) from None
            raise

    def format(self, action):
        return str(action) if _is_table(action) else self.inner.format(action)

    def check(self, state, seat, action):
        self.parse(state, seat, self.format(action))

    def apply(self, state, seat, action):
        if _is_table(action):
            return apply_order(VERBS[action.verb], self, state, seat, action, None)  # each rolls its own
        return self.inner.apply(state, seat, action)

    def work_copy(self, state, action):
        if _is_table(action) and (keys := VERBS[action.verb].touches) is not None:
            return copy_parts(state, keys)  # the table's verbs that write only the table (and its dice)
        return self.inner.work_copy(state, action)

    def legal_actions(self, state, seat):
        if self.result(state) is not None:
            return
        if is_gm(seat):
            yield from legal_of(VERBS["pass"], self, state, seat)
            return
        for verb in ("done", "roll", "draw"):  # the tabletop vocabulary of the seat to act, in this order
            yield from legal_of(VERBS[verb], self, state, seat)
        yield from self.inner.legal_actions(state, seat)

    def legal_actions_matching(self, state, seat, words):
        if is_gm(seat) or self.mode == "tabletop":
            return self.legal_actions(state, seat)
        return self.inner.legal_actions_matching(state, seat, words)

    def phase_key(self, state):
        if self.mode == "tabletop":
            t = table(state)["turns"]
            return json.dumps([t["round"], t["at"]])
        return self.inner.phase_key(state)

    def deadline_action(self, state, seat):
        return None if self.mode == "tabletop" or is_gm(seat) else self.inner.deadline_action(state, seat)

    def autopilot_action(self, state, seat):
        return autopilot.autopilot_action(self, state, seat)  # engine/modes/autopilot.py

    def answer_buttons(self, state, seat, action):
        if _is_table(action) or is_gm(seat):
            return []
        return self.inner.answer_buttons(state, seat, action)

    def public_order_text(self, text):
        if text.startswith("declare "):  # a declared secret order stays masked (proposals.public_text)
            return "declare " + proposals.public_text(self, text[len("declare "):])
        masked = public_text(VERBS, text)  # the table verb's record's redact
        return masked if masked is not None else self.inner.public_order_text(text)

    def upgrade_state(self, state):
        self.inner.upgrade_state(state)

    def brief_order_text(self, text):
        return text if text.startswith("declare ") else self.inner.brief_order_text(text)

    def result(self, state):
        return votes.result(state) or self.inner.result(state)

    def replaceable_seats(self, state):
        return votes.passed_replacements(state)

    def whispers(self, state):
        return table(state)["whispers"]

    # ---------------------------------------------------------------- what a seat sees
    def view(self, state, seat):
        if is_gm(seat):
            v = dict(self.inner.full_view(state))
        else:
            v = dict(self.inner.view(state, seat))
        v["seat"] = seat
        v["mode"] = self.mode
        v["units"] = list(v.get("units") or []) + pieces.view_units(self, state, seat)
        v["tracks"] = list(v.get("tracks") or []) + tracks.view_tracks(state)
        # the table's own, under one key (a ruleset's view may have `hands` or `decks` of its own)
        v["table"] = self.table_view(state, seat)
        if self.mode == "tabletop" and self.result(state) is None:
            t = table(state)["turns"]
            v["turn"] = t["round"]
            v["turns"] = "tabletop"
            v["phase"] = f"turn-{turns.to_act(state)}"
            v["phase_title"] = f"Round {t['round']}: {title(turns.to_act(state))} to act (tabletop)"
            v["active"] = self.active_seats(state)
        return v

    def full_view(self, state, views=None):  # (the moderator's view: ``views`` are not used)
        return self.view(state, GM)

    def table_view(self, state, seat) -> dict:
        """The table's part of ``seat``'s view (``view(state, seat)["table"]``: proposals, trades, votes,
        decks, talk) without the ruleset's board, which the bot reads after every order to see what waits
        for an answer (bot/orders.py: ``answerers``)."""
        return {"proposals": proposals.view_part(self, state, seat), "trades": trade.view_part(state, seat),
                "votes": [dict(x) for x in table(state)["votes"]],
                **deck.view_part(state, seat),
                **talk.view_part(state, seat)}

    def secret_text(self, state, seat):
        parts = []
        if is_gm(seat):
            parts += every_seats_secrets(self.inner, state)
        else:
            t = self.inner.secret_text(state, seat)
            if t:
                parts.append(t)
        lines = pieces.secret_lines(state, seat) + deck.secret_lines(state, seat) + talk.secret_lines(state, seat)
        parts += [f"- {line}" for line in lines]
        return "\n".join(parts) or None
