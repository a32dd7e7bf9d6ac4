"""War of the Ring for four and five players (seed:001): Don Lowry's variant of SPI's *War of the Ring*
(1977), on the table modes (engine/modes): played in **assist** mode by default, since the base game's
rules, map, cards and counters are not available. The bot enforces every rule the variant states and
keeps the rest as a table the players or the moderator adjudicate (declared actions, rulings).

Seats: `fellowship`, `dark-power`, `saruman`, `gondor` and, in the five-player game, `rohan` (the Rohan
seat is optional: a four-player game never gives it a turn). Options: `players=4|5` (default 5),
`scenario=all-out-war`, `magic=historical`, `turns=<n>` (default 12, a reconstruction).

One file per part of the seed: ``sequence`` (Sequence of Play), ``aa_ring`` (AA, EE, the Ring in DD.1),
``bb_events`` (BB, EE), ``cc_diplomacy`` (CC, FF), ``dd_succession`` (DD, GG, Restrictions on
Alliances), ``hidden_movement`` (Hidden Movement and AA.2's secret demand), ``mobilization``
(Modifications to Mobilization, All Out War), ``magic_cards`` (Historical Locations of Magic Cards),
``victory``; ``charts`` (the base game's reconstructed charts, rolled on with `resolve`), ``group_file``
(a group's own file: map, characters, forces, cards, charts); ``forces`` holds the base game's actions recorded at the table; ``setup``, ``board``
(the reconstructed map), ``view`` and ``common``. Rulings: docs/wotr.md."""
from __future__ import annotations

from typing import Iterator

from engine import pending
from engine.core import Action, IllegalOrder, InvalidOrder, OrderError, RulesetBase, State
from engine.orders import Order, apply_order, listed_by_turn, order_table, parse_order, public_text, secret
from engine.rulesets.wotr import (aa_ring, bb_events, cc_diplomacy, charts, dd_succession, forces, hidden_movement,
                                  magic_cards, mobilization, sequence)
from engine.rulesets.wotr.board import Board
from engine.rulesets.wotr.common import NINE, SEATS, order
from engine.rulesets.wotr import group_file
from engine.rulesets.wotr.options import OPTIONS
from engine.rulesets.wotr.group_file import GroupFile

# the parts of the seed, by the files that hold them
Ev, Fo, Di, Hi, Mo, Se, Ri, Ma, Su, Ch = (bb_events, forces, cc_diplomacy, hidden_movement, mobilization, sequence,
                                        aa_ring, magic_cards, dd_succession, charts)
TABLE = listed_by_turn  # an order offered in the turn's list (``_candidates``), kept to its verb
AT_THE_TABLE = ("follows a result the table resolves with the base game's charts (`resolve`), which the bot does "
                "not know: typed by the seat it befalls")


def _hidden_move(words):
    return "move (a hidden character)" if words and words[0] in NINE else None


def _to_hidden(words):
    return "item (to a hidden character)" if len(words) >= 2 and words[1] in NINE else None


def _barter(words):
    return f"barter (private) with {words[0]}" if words else None


# every order, in the order an unknown-order refusal lists them; the parse checks the rules too (the
# check of an action parses its text again), so no record has a check of its own (engine/orders.py)
ORDERS = (
    Order("done", "done", parse=Se._p_done, apply=Se._a_done, legal=TABLE("done")),
    Order("move", "move <piece> <hex> [<hex> ...]", parse=Fo._p_move, apply=Fo._a_move, legal=TABLE("move"),
          redact=_hidden_move),
    Order("attack", "attack <hex>", parse=Fo._p_attack, apply=Fo._a_attack, legal=TABLE("attack")),
    Order("lose", "lose <unit> <sp>", parse=Fo._p_lose, apply=Fo._a_lose, unlisted=f"a loss {AT_THE_TABLE}"),
    Order("kill", "kill <character>", parse=Fo._p_kill, apply=Fo._a_kill, unlisted=f"a death {AT_THE_TABLE}"),
    Order("capture", "capture <place>", parse=Fo._p_capture, apply=Fo._a_capture, legal=TABLE("capture")),
    Order("claim", "claim", parse=Fo._p_claim, apply=Fo._a_claim,
          unlisted="a seat claims its victory when it judges the base game's conditions met; the bot checks the "
                   "claim but cannot read those conditions off the board to offer it"),
    Order("challenge", "challenge <your character> <their character> [sorcery]", parse=Su._p_challenge, apply=Su._a_challenge,
          unlisted=f"individual combat {AT_THE_TABLE.replace('follows a result', 'is a choice')}"),
    Order("command", "command <hex> <character|nazgul>", parse=Su._p_command, apply=Su._a_command,
          unlisted="naming a commander is the seat's choice among its characters in a hex, made when an army "
                   "fights; offered by no phase (DD)"),
    Order("mobilize", "mobilize <nation>", parse=Mo._p_mobilize, apply=Mo._a_mobilize, legal=TABLE("mobilize")),
    Order("draw", "draw <nnn>|none", parse=Ev._p_draw, apply=Ev._a_draw, legal=TABLE("draw"),
          redact=secret("draw (a card)")),
    Order("event", "event <nnn> [note]", parse=Ev._p_event, apply=Ev._a_event, legal=TABLE("event")),
    Order("nullify", "nullify 093", parse=Ev._p_nullify, apply=Ev._a_nullify,
          unlisted="Gondor's answer to Event 093 just played, typed in reply to that event (BB.4)"),
    Order("search", "search <province>:<nazgul> [<province>:<nazgul> ...]", parse=Hi._p_search, apply=Hi._a_search,
          legal=TABLE("search")),
    Order("demand", "demand on|off", parse=Hi._p_demand, apply=Hi._a_demand, redact=secret("(a secret order)"),
          unlisted="a secret standing order Gondor sets on or off when it chooses (AA.2); offered by no phase"),
    Order("ring", "ring on|off|to <character>", parse=Ri._p_ring, apply=Ri._a_ring, legal=TABLE("ring")),
    Order("nazgul", "nazgul control|gain [<nazgul>]", parse=Ri._p_nazgul, apply=Ri._a_nazgul, legal=TABLE("nazgul")),
    Order("seizure", "seizure held|lost|roll", parse=Ri._p_seizure, apply=Ri._a_seizure, legal=TABLE("seizure")),
    Order("seize", "seize <your character>", parse=Ri._p_seize, apply=Ri._a_seize,
          unlisted="an attempt on the Ring by the base game's M.3, the seat's choice at the table (AA.1)"),
    Order("prisoner", "prisoner <character> on|off", parse=Ri._p_prisoner, apply=Ri._a_prisoner,
          unlisted=f"a capture {AT_THE_TABLE}"),
    Order("wraith", "wraith <character>", parse=Ri._p_wraith, apply=Ri._a_wraith,
          unlisted=f"a Ring-bearer's fading {AT_THE_TABLE}"),
    Order("palantir", "palantir <character>", parse=Ri._p_palantir, apply=Ri._a_palantir,
          unlisted="the Palantir's holder passes it by the seat's choice at the table; offered by no phase"),
    Order("paths", "paths", parse=Su._p_paths, apply=Su._a_paths,
          unlisted="the Fellowship records that Aragorn took the Paths of the Dead when it moves him there at the "
                   "table (DD)"),
    Order("reveal", "reveal <hidden character>", parse=Hi._p_reveal, apply=Hi._a_reveal,
          unlisted="revealing a hidden character for good is the Fellowship's choice when it chooses; offered by "
                   "no phase"),
    Order("mind-battle", "mind-battle sauron|saruman", parse=Di._p_mind_battle, apply=Di._a_mind_battle,
          legal=TABLE("mind-battle")),
    Order("ally", "ally <seat>", parse=Di._p_ally, apply=Di._a_ally, legal=TABLE("ally")),
    Order("dissolve", "dissolve <seat>", parse=Di._p_dissolve, apply=Di._a_dissolve,
          unlisted="ending an alliance is the seat's choice at any time; offered by no phase (CC)"),
    Order("barter", "barter <seat> <terms>", parse=Di._p_barter, apply=Di._a_barter, redact=_barter,
          unlisted="its terms are free text"),
    Order("agree", "agree <barter id>", parse=Di._p_agree, apply=Di._a_agree,
          unlisted="the answer to a barter, typed in reply to the private offer it names"),
    Order("item", "item <card> <character>", parse=Ma._p_item, apply=Ma._a_item, redact=_to_hidden,
          unlisted="a magic card given to a character where the table's map puts them together; offered by no phase"),
    Order("use", "use <card> <character>", parse=Ma._p_use, apply=Ma._a_use,
          unlisted="a magic card used when the table's situation calls for it; offered by no phase"),
    Order("resolve", "resolve <chart> <column> [<die modifier>]", parse=Ch._p_resolve, apply=Ch._a_resolve,
          legal=TABLE("resolve")),
)
USAGE = {o.verb: o.usage for o in ORDERS}


class WarOfTheRing(RulesetBase):
    """The game: its files' functions, one file per part of the seed (listed in the module's docstring),
    and the dispatch over ORDERS."""

    from engine.rulesets.wotr.setup import (
        upgrade_state, new_game
    )
    from engine.rulesets.wotr.sequence import (
        _seat_order, _acting_order, active_seats, _turn_of, _phase_title, _p_done, _a_done, _next_phase,
        _begin_player_turn, _end_turn, _begin_turn
    )
    from engine.rulesets.wotr.aa_ring import (
        _bearer, _ring_seat, _ring_penalty, _ring_phase_conditions, _p_ring, _a_ring, _after_ring_change,
        _p_nazgul, _a_nazgul, _p_seize, _a_seize, _p_seizure, _a_seizure, _p_prisoner, _a_prisoner,
        _try_transfer, _p_wraith, _a_wraith, _p_palantir, _a_palantir, waiting_decisions
    )
    from engine.rulesets.wotr.bb_events import (
        _p_draw, _card_text, _a_draw, _p_event, _a_event, _p_nullify, _a_nullify
    )
    from engine.rulesets.wotr.cc_diplomacy import (
        _p_mind_battle, _a_mind_battle, _other_seat, _playing, _p_ally, _a_ally, _p_dissolve, _a_dissolve,
        _p_barter, _a_barter, _p_agree, _a_agree
    )
    from engine.rulesets.wotr.dd_succession import (
        _eligible, _ruler, _check_king, _king_of_rohan, _command_error, _stack_commanders, _rohan_may_defer,
        _p_command, _a_command, _stack_error, _p_challenge, _a_challenge, _p_paths, _a_paths
    )
    from engine.rulesets.wotr.hidden_movement import (
        _sees_char, _demand_in_force, _p_demand, _a_demand, _p_reveal, _a_reveal, _move_hidden, _spot_all,
        _search_strength, _searchers, _p_search, _a_search
    )
    from engine.rulesets.wotr.mobilization import (
        _mobilized, _mordor_first, _p_mobilize, _a_mobilize, _on_mobilized, _mobilization_error,
        _after_mobile_move
    )
    from engine.rulesets.wotr.magic_cards import (
        _item_name, _item, _item_holder_hex, _p_item, _carry_error, _a_item, _p_use, _use_error, _anduril_user,
        _a_use
    )
    from engine.rulesets.wotr.nazgul import (
        _nazgul_of, _nazgul_count, _nazgul_in, _in_mordor, _dark_power_in_play, _nazgul_move_error, _nazgul_word,
        _nazgul_to, _a_move_nazgul, _spotters, _nazgul_views
    )
    from engine.rulesets.wotr.forces import (
        _unit_seat, _piece, _mover, _p_move, _a_move, _p_attack, _a_attack, _p_lose, _a_lose, _p_kill, _a_kill,
        _succession_news, _p_capture, _a_capture, _p_claim, _a_claim
    )
    from engine.rulesets.wotr.charts import (
        _charts, _chart_label, _p_resolve, _a_resolve
    )
    from engine.rulesets.wotr.victory import (
        _gondor_places, _end_player_turn, _winners, _finish, result
    )
    from engine.rulesets.wotr.autopilot import autopilot_action
    from engine.rulesets.wotr.view import (
        _piece_views, _areas_view, _view, view, full_view, phase_key, secret_text, moderator_secret_text, help_topics, help, help_order_line, help_orders
    )

    name = "wotr"
    options = OPTIONS  # options.py (issue 39)
    hidden_information = True
    secret_twins = ({"hexes": {"frodo": "W2010"}, "demand": False},  # the hidden Fellowship, Gondor's demand
                    {"hexes": {"frodo": "W1911", "sam": "W1812"}, "demand": True})
    title = "War of the Ring (4-5 players)"
    seats = SEATS
    optional_seats = ("rohan",)  # a four-player game has no Rohan seat to fill
    turn_order = ("saruman", "fellowship", "rohan", "gondor", "dark-power")  # Sequence of Play 2
    default_mode = "assist"
    board_kind = "area"
    orders = order_table(ORDERS)
    # the pending decisions (engine/pending.py): the answer to a seizure of the Ring, an offer (AA.2)
    DECISIONS = (aa_ring.SEIZURE_AA_2,)
    decisions = pending.decision_table(DECISIONS)

    def __init__(self):
        self.board = Board.load()  # the reconstructed map; a game may carry its group's own

    def rules_in_force(self, state: State) -> list[str]:
        """Issue 42: the players, the scenario, the magic cards, the length, the seizure's secrecy."""
        out = [f"{state.get('players', 5)} players"]
        if state.get("scenario") == "all-out-war":
            out.append("All Out War")
        if state.get("magic") == "historical":
            out.append("the magic cards dealt to their owners")
        if state.get("last_turn", 12) != 12:
            out.append(f"{state['last_turn']} game-turns")
        if state.get("seizure_public"):
            out.append("the Ring's seizure announced")
        if state.get("group"):
            out.append("the group's own charts")
        return out

    def game_turn_order(self, state):
        return order(state)  # Sequence of Play 1 or 2, by the number of players

    # ------------------------------------------------------------------ helpers the parts share
    def _usage(self, verb) -> InvalidOrder:
        return InvalidOrder(f"usage: `{USAGE[verb]}`")

    def _char(self, st, word) -> str:
        w = word.lower()
        if w in st["chars"]:
            return w
        cands = [c for c, d in st["chars"].items() if c.startswith(w) or d["name"].lower() == w]
        if len(cands) == 1:
            return cands[0]
        raise InvalidOrder(f"no character `{word[:20]}`")

    def _bd(self, st) -> Board:
        """The game's map: the reconstructed one, or the group's own (`charts=`, a file with a map)."""
        m = st.get("map")
        if not m:
            return self.board
        return Board.from_text(m if isinstance(m, str) else st["group"])

    def _group(self, st) -> GroupFile | None:
        """The group's own file the game carries (`charts=`), checked and cached; None without one."""
        return group_file.load(st["group"]) if st.get("group") else None

    def _hex(self, st, word) -> str:
        try:
            return self._bd(st).hex(word)
        except ValueError as e:
            raise InvalidOrder(str(e)) from None

    # ------------------------------------------------------------------ the protocol
    def parse(self, state: State, seat: str, text: str) -> Action:
        text = " ".join((text or "").split())
        if len(text) > 300:
            raise InvalidOrder("that order is too long (300 characters at most)")
        w = text.split(" ") if text else []
        if not w:
            raise InvalidOrder("an order is needed; `/help` lists them")
        verb = w[0].lower()
        if verb not in USAGE:
            raise InvalidOrder(f"unknown order `{verb[:20]}`; orders: {', '.join(USAGE)}")
        if seat not in self.seats:
            raise IllegalOrder(f"`{seat}` is not a seat in this game")
        if state["over"]:
            raise IllegalOrder("the game is over")
        if seat == "rohan" and state["players"] == 4:
            raise IllegalOrder("the four-player game has no Rohan player (Gondor controls Rohan)", "Four-Player War of the Ring")
        rest = w[1:] if verb in ("event", "barter") else [x.lower() for x in w[1:]]
        return parse_order(self.orders[verb], self, state, seat, rest)

    def format(self, action: Action) -> str:
        return str(action)

    def check(self, state, seat, action):
        self.parse(state, seat, self.format(action))

    def apply(self, state, seat, action):
        ev = apply_order(self.orders[action.verb], self, state, seat, action, None)  # each order rolls its own
        if not state["over"]:
            ev += self._succession_news(state, None)
        return ev

    def public_order_text(self, text):
        masked = public_text(self.orders, text)  # each record's redact
        return text if masked is None else masked

    def deadline_action(self, state, seat):
        if seat in self.active_seats(state):
            if state["phase"] == "events":
                return Action("draw", ("none",))
            return Action("done")
        return None

    # ------------------------------------------------------------------ legal actions (autocomplete, random play)
    def _candidates(self, st, seat) -> list[str]:
        out = []
        act = seat in self.active_seats(st)
        ph = st["phase"]
        if act and ph == "events":
            return ["draw none", "draw 075", "draw 093", "draw 041"]
        if act and ph == "search":
            n = self._search_strength(st, seat)
            out += [f"search {p}:{min(n, self._nazgul_in(st, seat, p))}" for p in self._bd(st).areas
                    if self._nazgul_in(st, seat, p)] + ["done"]
            return out
        if act:
            out.append("done")
        if act and ph == "ring":
            out += ["ring on", "ring off", "nazgul control", "mind-battle sauron", "mind-battle saruman"]
        if act and ph == "turn":
            places = list(self._bd(st).places.values())
            for cid, c in st["chars"].items():
                if c["alive"] and self._mover(st, cid) == seat:
                    prov = self._bd(st).areas[self._bd(st).province_of[c["hex"]]]
                    out += [f"move {cid} {h}" for h in (*prov.hexes, *places) if h != c["hex"]]
            for uid, u in st["units"].items():
                if u["sp"] > 0 and self._unit_seat(st, uid) == seat:
                    prov = self._bd(st).areas[self._bd(st).province_of[u["hex"]]]
                    out += [f"move {uid} {h}" for h in (*prov.hexes, *places) if h != u["hex"]]
                    out.append(f"attack {u['hex']}")
            for nid in self._nazgul_of(st, seat):
                prov = self._bd(st).areas[self._bd(st).province_of[st["nazgul"][nid]["hex"]]]
                out += [f"move {nid} {h}" for h in (*prov.hexes, *places) if h != st["nazgul"][nid]["hex"]]
            out += ["resolve combat 2-1", "resolve individual 0 +1"]
            out += [f"capture {p}" for p in self._bd(st).places]
            out += [f"mobilize {n}" for n in st["mobilized"]]
            out += [f"event {c}" for c in st["hands"].get(seat, [])]
            out += [f"ally {s}" for s in self._playing(st)]
        # AA.2: the answer to a seizure, an offer among the seat's other orders (engine/pending.py)
        out += [str(a) for a in pending.answers_of(self.decisions, self, st, self.waiting_decisions(st), seat)]
        if "075" in st["hands"].get(seat, []):
            out.append("event 075")
        return out

    def legal_actions(self, state, seat) -> Iterator[Action]:
        if state["over"] or seat not in self.seats:
            return
        for text in self._candidates(state, seat):
            try:
                yield self.parse(state, seat, text)
            except OrderError:
                continue


WOTR = WarOfTheRing()

__all__ = ["WOTR", "WarOfTheRing", "Board", "USAGE"]
