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
``victory``; ``charts`` (the base game's reconstructed charts) and ``resolve`` (rolling one, `resolve`),
``group_file`` (a group's own file: map, characters, forces, cards, charts); ``forces`` holds the base
game's actions recorded at the table, ``nazgul`` the Nazgul as pieces (searching, spotting); ``setup``,
``board`` (the reconstructed map), ``view``, ``lookup`` (what an order's words name, whose turn it is) and
``common``. Each file is a module of functions that take the ruleset (``rs``) and are called by module
(``hidden_movement._p_search(rs, ...)``), importing only files below it (docs/architecture.md). Rulings:
docs/wotr.md."""
from __future__ import annotations

from typing import Iterator

from engine import pending
from engine.core import Action, IllegalOrder, InvalidOrder, OrderError, RulesetBase, State
from engine.orders import Order, apply_order, listed_by_turn, order_table, parse_order, public_text, secret
from engine.rulesets.wotr import (aa_ring, autopilot, bb_events, cc_diplomacy, dd_succession, forces, hidden_movement,
                                  lookup, magic_cards, mobilization, nazgul, resolve, sequence, setup, victory, view)
from engine.rulesets.wotr.board import Board
from engine.rulesets.wotr.common import NINE, SEATS, order
from engine.rulesets.wotr.options import OPTIONS

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
    Order("done", "done", parse=sequence._p_done, apply=sequence._a_done, legal=TABLE("done")),
    Order("move", "move <piece> <hex> [<hex> ...]", parse=forces._p_move, apply=forces._a_move, legal=TABLE("move"),
          redact=_hidden_move),
    Order("attack", "attack <hex>", parse=forces._p_attack, apply=forces._a_attack, legal=TABLE("attack")),
    Order("lose", "lose <unit> <sp>", parse=forces._p_lose, apply=forces._a_lose, unlisted=f"a loss {AT_THE_TABLE}"),
    Order("kill", "kill <character>", parse=forces._p_kill, apply=forces._a_kill, unlisted=f"a death {AT_THE_TABLE}"),
    Order("capture", "capture <place>", parse=forces._p_capture, apply=forces._a_capture, legal=TABLE("capture")),
    Order("claim", "claim", parse=forces._p_claim, apply=forces._a_claim,
          unlisted="a seat claims its victory when it judges the base game's conditions met; the bot checks the "
                   "claim but cannot read those conditions off the board to offer it"),
    Order("challenge", "challenge <your character> <their character> [sorcery]", parse=dd_succession._p_challenge,
          apply=dd_succession._a_challenge,
          unlisted=f"individual combat {AT_THE_TABLE.replace('follows a result', 'is a choice')}"),
    Order("command", "command <hex> <character|nazgul>", parse=dd_succession._p_command, apply=dd_succession._a_command,
          unlisted="naming a commander is the seat's choice among its characters in a hex, made when an army "
                   "fights; offered by no phase (DD)"),
    Order("mobilize", "mobilize <nation>", parse=mobilization._p_mobilize, apply=mobilization._a_mobilize,
          legal=TABLE("mobilize")),
    Order("draw", "draw <nnn>|none", parse=bb_events._p_draw, apply=bb_events._a_draw, legal=TABLE("draw"),
          redact=secret("draw (a card)")),
    Order("event", "event <nnn> [note]", parse=bb_events._p_event, apply=bb_events._a_event, legal=TABLE("event")),
    Order("nullify", "nullify 093", parse=bb_events._p_nullify, apply=bb_events._a_nullify,
          unlisted="Gondor's answer to Event 093 just played, typed in reply to that event (BB.4)"),
    Order("search", "search <province>:<nazgul> [<province>:<nazgul> ...]", parse=hidden_movement._p_search,
          apply=hidden_movement._a_search,
          legal=TABLE("search")),
    Order("demand", "demand on|off", parse=hidden_movement._p_demand, apply=hidden_movement._a_demand,
          redact=secret("(a secret order)"),
          unlisted="a secret standing order Gondor sets on or off when it chooses (AA.2); offered by no phase"),
    Order("ring", "ring on|off|to <character>", parse=aa_ring._p_ring, apply=aa_ring._a_ring, legal=TABLE("ring")),
    Order("nazgul", "nazgul control|gain [<nazgul>]", parse=aa_ring._p_nazgul, apply=aa_ring._a_nazgul,
          legal=TABLE("nazgul")),
    Order("seizure", "seizure held|lost|roll", parse=aa_ring._p_seizure, apply=aa_ring._a_seizure,
          legal=TABLE("seizure")),
    Order("seize", "seize <your character>", parse=aa_ring._p_seize, apply=aa_ring._a_seize,
          unlisted="an attempt on the Ring by the base game's M.3, the seat's choice at the table (AA.1)"),
    Order("prisoner", "prisoner <character> on|off", parse=aa_ring._p_prisoner, apply=aa_ring._a_prisoner,
          unlisted=f"a capture {AT_THE_TABLE}"),
    Order("wraith", "wraith <character>", parse=aa_ring._p_wraith, apply=aa_ring._a_wraith,
          unlisted=f"a Ring-bearer's fading {AT_THE_TABLE}"),
    Order("palantir", "palantir <character>", parse=aa_ring._p_palantir, apply=aa_ring._a_palantir,
          unlisted="the Palantir's holder passes it by the seat's choice at the table; offered by no phase"),
    Order("paths", "paths", parse=dd_succession._p_paths, apply=dd_succession._a_paths,
          unlisted="the Fellowship records that Aragorn took the Paths of the Dead when it moves him there at the "
                   "table (DD)"),
    Order("reveal", "reveal <hidden character>", parse=hidden_movement._p_reveal, apply=hidden_movement._a_reveal,
          unlisted="revealing a hidden character for good is the Fellowship's choice when it chooses; offered by "
                   "no phase"),
    Order("mind-battle", "mind-battle sauron|saruman", parse=cc_diplomacy._p_mind_battle,
          apply=cc_diplomacy._a_mind_battle,
          legal=TABLE("mind-battle")),
    Order("ally", "ally <seat>", parse=cc_diplomacy._p_ally, apply=cc_diplomacy._a_ally, legal=TABLE("ally")),
    Order("dissolve", "dissolve <seat>", parse=cc_diplomacy._p_dissolve, apply=cc_diplomacy._a_dissolve,
          unlisted="ending an alliance is the seat's choice at any time; offered by no phase (CC)"),
    Order("barter", "barter <seat> <terms>", parse=cc_diplomacy._p_barter, apply=cc_diplomacy._a_barter, redact=_barter,
          unlisted="its terms are free text"),
    Order("agree", "agree <barter id>", parse=cc_diplomacy._p_agree, apply=cc_diplomacy._a_agree,
          unlisted="the answer to a barter, typed in reply to the private offer it names"),
    Order("item", "item <card> <character>", parse=magic_cards._p_item, apply=magic_cards._a_item, redact=_to_hidden,
          unlisted="a magic card given to a character where the table's map puts them together; offered by no phase"),
    Order("use", "use <card> <character>", parse=magic_cards._p_use, apply=magic_cards._a_use,
          unlisted="a magic card used when the table's situation calls for it; offered by no phase"),
    Order("resolve", "resolve <chart> <column> [<die modifier>]", parse=resolve._p_resolve, apply=resolve._a_resolve,
          legal=TABLE("resolve")),
)
USAGE = {o.verb: o.usage for o in ORDERS}


class WarOfTheRing(RulesetBase):
    """The game: its map, its orders (ORDERS above) and decision, and the interface the application calls,
    each method calling the function of the file of its part of the seed (issue 43)."""

    # the interface the application calls, each in the file of its part of the seed
    def upgrade_state(self, st) -> None:
        return setup.upgrade_state(self, st)

    def new_game(self, options, seed, fixture=None):
        return setup.new_game(self, options, seed, fixture)

    def active_seats(self, st):
        return sequence.active_seats(self, st)

    def waiting_decisions(self, st) -> list[dict]:
        return aa_ring.waiting_decisions(self, st)

    def result(self, st):
        return victory.result(self, st)

    def autopilot_action(self, state: State, seat: str) -> Action | None:
        return autopilot.autopilot_action(self, state, seat)

    def view(self, st, seat):
        return view.view(self, st, seat)

    def full_view(self, st, views=None):
        return view.full_view(self, st, views)

    def phase_key(self, st):
        return view.phase_key(self, st)

    def secret_text(self, st, seat):
        return view.secret_text(self, st, seat)

    def moderator_secret_text(self, st):
        return view.moderator_secret_text(self, st)

    def help_topics(self):
        return view.help_topics(self)

    def help(self, topic=None):
        return view.help(self, topic)

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
            ev += forces._succession_news(self, state, None)
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

    def legal_actions(self, state, seat) -> Iterator[Action]:
        if state["over"] or seat not in self.seats:
            return
        for text in _candidates(self, state, seat):
            try:
                yield self.parse(state, seat, text)
            except OrderError:
                continue


# legal actions (autocomplete, random play)
def _candidates(rs, st, seat) -> list[str]:
    out = []
    act = seat in rs.active_seats(st)
    ph = st["phase"]
    if act and ph == "events":
        return ["draw none", "draw 075", "draw 093", "draw 041"]
    if act and ph == "search":
        n = nazgul._search_strength(rs, st, seat)
        out += [f"search {p}:{min(n, nazgul._nazgul_in(rs, st, seat, p))}" for p in lookup._bd(rs, st).areas
                if nazgul._nazgul_in(rs, st, seat, p)] + ["done"]
        return out
    if act:
        out.append("done")
    if act and ph == "ring":
        out += ["ring on", "ring off", "nazgul control", "mind-battle sauron", "mind-battle saruman"]
    if act and ph == "turn":
        places = list(lookup._bd(rs, st).places.values())
        for cid, c in st["chars"].items():
            if c["alive"] and forces._mover(rs, st, cid) == seat:
                prov = lookup._bd(rs, st).areas[lookup._bd(rs, st).province_of[c["hex"]]]
                out += [f"move {cid} {h}" for h in (*prov.hexes, *places) if h != c["hex"]]
        for uid, u in st["units"].items():
            if u["sp"] > 0 and lookup._unit_seat(rs, st, uid) == seat:
                prov = lookup._bd(rs, st).areas[lookup._bd(rs, st).province_of[u["hex"]]]
                out += [f"move {uid} {h}" for h in (*prov.hexes, *places) if h != u["hex"]]
                out.append(f"attack {u['hex']}")
        for nid in nazgul._nazgul_of(rs, st, seat):
            prov = lookup._bd(rs, st).areas[lookup._bd(rs, st).province_of[st["nazgul"][nid]["hex"]]]
            out += [f"move {nid} {h}" for h in (*prov.hexes, *places) if h != st["nazgul"][nid]["hex"]]
        out += ["resolve combat 2-1", "resolve individual 0 +1"]
        out += [f"capture {p}" for p in lookup._bd(rs, st).places]
        out += [f"mobilize {n}" for n in st["mobilized"]]
        out += [f"event {c}" for c in st["hands"].get(seat, [])]
        out += [f"ally {s}" for s in cc_diplomacy._playing(rs, st)]
    # AA.2: the answer to a seizure, an offer among the seat's other orders (engine/pending.py)
    out += [str(a) for a in pending.answers_of(rs.decisions, rs, st, rs.waiting_decisions(st), seat)]
    if "075" in st["hands"].get(seat, []):
        out.append("event 075")
    return out


WOTR = WarOfTheRing()

__all__ = ["WOTR", "WarOfTheRing", "Board", "USAGE"]
