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

from engine.core import Action, IllegalOrder, InvalidOrder, OrderError, RulesetBase, State
from engine.rulesets.wotr.aa_ring import RingMixin
from engine.rulesets.wotr.bb_events import EventsMixin
from engine.rulesets.wotr.board import Board
from engine.rulesets.wotr.cc_diplomacy import DiplomacyMixin
from engine.rulesets.wotr.charts import ChartsMixin
from engine.rulesets.wotr.common import NINE, SEATS, order
from engine.rulesets.wotr.dd_succession import SuccessionMixin
from engine.rulesets.wotr import group_file
from engine.rulesets.wotr.group_file import GroupFile
from engine.rulesets.wotr.forces import ForcesMixin
from engine.rulesets.wotr.hidden_movement import HiddenMixin
from engine.rulesets.wotr.magic_cards import MagicMixin
from engine.rulesets.wotr.mobilization import MobilizationMixin
from engine.rulesets.wotr.nazgul import NazgulMixin
from engine.rulesets.wotr.sequence import SequenceMixin
from engine.rulesets.wotr.setup import SetupMixin
from engine.rulesets.wotr.victory import VictoryMixin
from engine.rulesets.wotr.view import ViewMixin

USAGE = {
    "done": "done", "move": "move <piece> <hex> [<hex> ...]", "attack": "attack <hex>", "lose": "lose <unit> <sp>",
    "kill": "kill <character>", "capture": "capture <place>", "claim": "claim",
    "challenge": "challenge <your character> <their character>", "command": "command <hex> <character|nazgul>",
    "mobilize": "mobilize <nation>", "draw": "draw <nnn>|none", "event": "event <nnn> [note]",
    "nullify": "nullify 093", "search": "search <province>:<nazgul> [<province>:<nazgul> ...]",
    "demand": "demand on|off", "ring": "ring on|off|to <character>", "nazgul": "nazgul control|gain [<nazgul>]",
    "seizure": "seizure held|lost", "seize": "seize <your character>", "prisoner": "prisoner <character> on|off", "wraith": "wraith <character>", "palantir": "palantir <character>",
    "paths": "paths", "reveal": "reveal <hidden character>", "mind-battle": "mind-battle sauron|saruman", "ally": "ally <seat>",
    "dissolve": "dissolve <seat>", "barter": "barter <seat> <terms>", "agree": "agree <barter id>",
    "item": "item <card> <character>", "use": "use <card> <character>",
    "resolve": "resolve <chart> <column> [<die modifier>]",
}


class WarOfTheRing(SetupMixin, SequenceMixin, RingMixin, EventsMixin, DiplomacyMixin, SuccessionMixin, HiddenMixin,
                   MobilizationMixin, MagicMixin, NazgulMixin, ForcesMixin, ChartsMixin, VictoryMixin, ViewMixin, RulesetBase):
    name = "wotr"
    hidden_information = True
    title = "War of the Ring (4-5 players)"
    seats = SEATS
    optional_seats = ("rohan",)  # a four-player game has no Rohan seat to fill
    turn_order = ("saruman", "fellowship", "rohan", "gondor", "dark-power")  # Sequence of Play 2
    default_mode = "assist"
    board_kind = "area"

    def __init__(self):
        self.board = Board.load()  # the reconstructed map; a game may carry its group's own

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
        args = getattr(self, "_p_" + verb.replace("-", "_"))(state, seat, rest)
        return Action(verb, tuple(args))

    def format(self, action: Action) -> str:
        return str(action)

    def check(self, state, seat, action):
        self.parse(state, seat, self.format(action))

    def apply(self, state, seat, action):
        ev = getattr(self, "_a_" + action.verb.replace("-", "_"))(state, seat, action.args)
        if not state["over"]:
            ev += self._succession_news(state, None)
        return ev

    def public_order_text(self, text):
        w = text.split(" ")
        if len(w) >= 2 and w[0] == "move" and w[1] in NINE:
            return "move (a hidden character)"
        if w[0] == "draw":
            return "draw (a card)"
        if w[0] == "demand":
            return "(a secret order)"
        if w[0] == "barter" and len(w) >= 2:
            return f"barter (private) with {w[1]}"
        if w[0] == "item" and len(w) >= 3 and w[2] in NINE:
            return "item (to a hidden character)"
        return text

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
        if st["ring"]["seizure"] and seat == self._ring_seat(st):
            out += ["seizure held", "seizure lost"]
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
