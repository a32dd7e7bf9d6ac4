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
"""
from __future__ import annotations

import itertools
import tomllib
from fractions import Fraction
from functools import cached_property
from pathlib import Path
from typing import Iterator

from engine.core import Action, AmbiguousOrder, Dice, Event, IllegalOrder, InvalidOrder, Result, RulesetBase, State, clone, new_dice
from engine.rulesets.risk_minas_tirith.board import Board

DATA = Path(__file__).parent / "data"
SEATS = ("good", "evil")
TITLES = {"good": "Good", "evil": "Evil"}
COLORS = {"good": "#2f7d32", "evil": "#1b1b1b"}
OTHER = {"good": "evil", "evil": "good"}
STATE_VERSION = 1

TYPES = ("infantry", "archer", "cavalry", "horse-archer", "troll", "mumak")
CODES = {"infantry": "inf", "archer": "arc", "cavalry": "cav", "horse-archer": "hor", "troll": "tro", "mumak": "mum"}
FROM_CODE = {v: k for k, v in CODES.items()}
ALIASES = {"infantry": "inf", "inf": "inf", "archers": "arc", "archer": "arc", "arc": "arc", "crossbows": "arc",
           "cavalry": "cav", "cav": "cav", "hor": "hor", "horse-archer": "hor", "horse-archers": "hor",
           "troll": "tro", "trolls": "tro", "tro": "tro", "mumak": "mum", "mumakil": "mum", "mum": "mum"}
FOOT = ("infantry", "archer")                  # may stand on the walls (seed, Walls)
MOUNTED = ("cavalry", "horse-archer")
ARCHERY = ("archer", "horse-archer")
LOSS_ORDER = ("infantry", "archer", "cavalry", "horse-archer", "troll", "mumak")
SET_TYPES = ("infantry", "cavalry", "creature")

S_TURN = "Gameplay"
S_DIE = "1. Select an Action die"
S_DRAW = "2. Draw Reinforcement cards"
S_EXCH = "3. Exchange cards"
S_SPECIAL = "Special Exchange"
S_REINF = "Reinforcements"
S_ACT = "4. Actions"
S_MOVE = "Movement Actions"
S_WALLS = "Walls and Territory of Minas Tirith"
S_RANGED = "Ranged Attack"
S_GROUND = "Ground Attack"
S_RETREAT = "Retreat"
S_BATTLE = "How to do Battle"
S_LEADERS = "Leaders"
S_WIN = "Winning the Game"
S_POINTS = "Calculating Points"
S_MT = "Minas Tirith cards"


_REVEALS = {"reveals": True} if "reveals" in getattr(Event, "__dataclass_fields__", {}) else {}


def _group_text(g: dict[str, int], leaders: list[str]) -> str:
    parts = [f"{g[t]}{CODES[t]}" for t in TYPES if g.get(t)]
    return " ".join(parts + sorted(leaders))


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


class RiskMinasTirith(RulesetBase):
    name = "risk-minas-tirith"
    title = "LOTR Risk: Minas Tirith"
    seats = SEATS
    board_kind = "area"
    has_odds = True

    # ------------------------------------------------------------------ data
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

    def leader_color(self, lid: str) -> str:
        for side in SEATS:
            if lid in self.cards["forces"][side]["leaders"]:
                return self.cards["forces"][side]["leaders"][lid]
        raise KeyError(lid)

    def leader_side(self, lid: str) -> str:
        return "good" if lid in self.cards["forces"]["good"]["leaders"] else "evil"

    @cached_property
    def all_leaders(self) -> list[str]:
        return [lid for s in SEATS for lid in self.cards["forces"][s]["leaders"]]

    # --------------------------------------------------------------- options
    def mt_list(self, spec: str | None) -> list[str]:
        """The Minas Tirith deck: a named list from cards.toml, or an inline list
        ``kind,kind*2,...`` of card kinds (``mt_cards=`` option)."""
        lists = self.cards["mt_lists"]
        known = {k: v for k, v in self.cards["mt"].items()}
        if spec is None or spec == "":
            return list(lists["default"])
        spec = spec.strip().lower()
        if spec in lists and isinstance(lists[spec], list):
            return list(lists[spec])
        out: list[str] = []
        for part in spec.replace(";", ",").split(","):
            part = part.strip()
            if not part:
                continue
            name, _, count = part.partition("*")
            name = name.strip()
            if name not in known:
                names = ", ".join(k for k in lists if isinstance(lists[k], list))
                raise InvalidOrder(f"mt_cards: unknown card `{name[:30]}`; known cards: {', '.join(known)}; "
                                   f"named lists: {names}")
            if count and (not count.strip().isdigit() or not 1 <= int(count) <= 4):
                raise InvalidOrder(f"mt_cards: `{part[:30]}`: a count is 1 to 4, as in `mordor*2`")
            out.extend([name] * (int(count) if count else 1))
        if not 1 <= len(out) <= 30:
            raise InvalidOrder("mt_cards: a deck has 1 to 30 cards")
        for name in out:
            k = known[name]
            if k["kind"] == "leader" and out.count(name) > 1:
                raise InvalidOrder(f"mt_cards: `{name}` brings a leader and may appear only once")
            if k["kind"] == "host" and k.get("leader") and out.count(name) > 1:
                raise InvalidOrder(f"mt_cards: `{name}` brings a leader and may appear only once")
        return out

    def _check_options(self, options: dict[str, str]) -> dict:
        out = {"mt_cards": self.mt_list(None), "mt_source": "default"}
        for k, v in options.items():
            if k == "mt_cards":
                out["mt_cards"] = self.mt_list(v)
                out["mt_source"] = v.strip().lower()[:60]
            else:
                raise InvalidOrder(f"unknown option `{k[:30]}` for risk-minas-tirith (known: mt_cards=<list name or "
                                   "card,card*2,...>)")
        return out

    # ---------------------------------------------------------------- set-up
    def new_game(self, options: dict[str, str], seed: str, fixture: dict | None = None) -> State:
        opts = self._check_options(options)
        mt_defs: dict[str, str] = {}
        for name in opts["mt_cards"]:
            n = opts["mt_cards"].count(name)
            if n == 1:
                mt_defs[name] = name
            else:
                i = 1
                while f"{name}{i}" in mt_defs:
                    i += 1
                mt_defs[f"{name}{i}"] = name
        areas = {a: {"u": {}, "leaders": []} for a in self.board.ids}
        for side, places in self.board.start.items():
            for aid, what in places.items():
                rec = areas[aid]
                rec["side"] = side
                for t, n in what.items():
                    if t == "leaders":
                        rec["leaders"] = list(n)
                    else:
                        rec["u"][t] = n
        for rec in areas.values():
            rec.setdefault("side", None)
        state: State = {
            "ruleset": self.name, "version": STATE_VERSION, "options": opts, "dice": new_dice(seed),
            "round": 0, "turn": 0, "turn_in_round": 0, "roller": "good", "active": "good",
            "phase": "die", "action_dice": [], "die": None, "actions": 0,
            "areas": areas, "fired": {}, "catapults": [],
            "mt_defs": mt_defs,
            "hands": {s: {"reinf": [], "mt": []} for s in SEATS},
            "hosts": {}, "reinf_discard": [], "mt_discard": [], "mt_used": [],
            "lost": {s: {"leaders": []} for s in SEATS},
            "towers": [], "gate_broken": False,
            "flags": {"special": False, "ladders": False, "courage": False},
            "pending": None, "hidden": {}, "over": None, "log_round": [],
            "loss_priority": {s: self.default_priority(s) for s in SEATS},
        }
        dice = Dice(state["dice"])
        reinf = dice.shuffle(list(self.reinforcement_cards), "reinforcement deck")
        mt = dice.shuffle(list(mt_defs), "Minas Tirith deck")
        if fixture:
            if "reinf_deck" in fixture:
                reinf = list(fixture["reinf_deck"])
                if sorted(reinf) != sorted(self.reinforcement_cards) and not fixture.get("partial"):
                    raise ValueError("fixture reinf_deck must list every Reinforcement card")
            if "mt_deck" in fixture:
                mt = list(fixture["mt_deck"])
        state["hidden"] = {"reinf_deck": reinf, "mt_deck": mt}
        self._new_round(state, Dice(state["dice"]))
        return state

    # -------------------------------------------------------------- helpers
    @staticmethod
    def _side_of(state: State, aid: str) -> str | None:
        rec = state["areas"][aid]
        if any(rec["u"].values()) or rec["leaders"]:
            return rec["side"]
        return None

    @staticmethod
    def _bn(state: State, aid: str) -> int:
        return sum(state["areas"][aid]["u"].values())

    def _pool(self, state: State, side: str, t: str) -> int:
        total = self.cards["forces"][side].get(t, 0)
        used = sum(r["u"].get(t, 0) for r in state["areas"].values() if r["side"] == side)
        used += sum(h.get(t, 0) for cid, h in state["hosts"].items() if self._mt(state, cid)["side"] == side)
        used += state["lost"][side].get(t, 0)
        return total - used

    def _mt(self, state: State, cid: str) -> dict:
        return self.cards["mt"][state["mt_defs"][cid]]

    def _usable(self, state: State, cid: str, seat: str) -> bool:
        return self._mt(state, cid)["side"] in (seat, "both")

    def _on_board(self, state: State, lid: str) -> str | None:
        for aid, r in state["areas"].items():
            if lid in r["leaders"]:
                return aid
        return None

    def _name(self, aid: str) -> str:
        return self.board.areas[aid].name

    def _add(self, state: State, aid: str, side: str, g: dict[str, int], leaders: list[str]) -> None:
        rec = state["areas"][aid]
        if self._side_of(state, aid) is None:
            rec["side"] = side
            rec["u"], rec["leaders"] = {}, []
        for t, n in g.items():
            if n:
                rec["u"][t] = rec["u"].get(t, 0) + n
        rec["leaders"] = sorted(set(rec["leaders"]) | set(leaders))

    def _remove(self, state: State, aid: str, g: dict[str, int], leaders: list[str]) -> None:
        rec = state["areas"][aid]
        for t, n in g.items():
            rec["u"][t] = rec["u"].get(t, 0) - n
            if rec["u"][t] <= 0:
                del rec["u"][t]
        rec["leaders"] = [x for x in rec["leaders"] if x not in leaders]
        if not rec["u"] and not rec["leaders"]:
            rec["side"] = None

    def default_priority(self, side: str) -> list[str]:
        """Cheapest first (LOSS_ORDER), only the types ``side`` has (seed, Set up)."""
        return [t for t in LOSS_ORDER if t in self.cards["forces"][side]]

    def loss_priority(self, state: State, side: str) -> list[str]:
        """The owner's standing loss priority (``losses`` order), first lost first."""
        have = (state.get("loss_priority") or {}).get(side) or []
        return list(have) + [t for t in LOSS_ORDER if t not in have]

    def _take_losses(self, state: State, aid: str, n: int) -> dict[str, int]:
        """Remove ``n`` battalions in the owner's standing loss priority (``losses``
        order; default cheapest first) and hand them to the opponent; if the area is
        emptied of battalions its leaders are captured (seed, How to do Battle)."""
        rec = state["areas"][aid]
        side = rec["side"]
        lost: dict[str, int] = {}
        order = self.loss_priority(state, side) if side in SEATS else list(LOSS_ORDER)
        for _ in range(n):
            for t in order:
                if rec["u"].get(t):
                    rec["u"][t] -= 1
                    if not rec["u"][t]:
                        del rec["u"][t]
                    lost[t] = lost.get(t, 0) + 1
                    state["lost"][side][t] = state["lost"][side].get(t, 0) + 1
                    break
        arch = sum(rec["u"].get(t, 0) for t in ARCHERY)
        if state["fired"].get(aid, 0) > arch:
            state["fired"][aid] = arch
        if not rec["u"] and rec["leaders"] and side is not None:
            state["lost"][side]["leaders"].extend(rec["leaders"])
            lost["leaders"] = len(rec["leaders"])
            rec["leaders"] = []
        if not rec["u"] and not rec["leaders"]:
            rec["side"] = None
        return lost

    @staticmethod
    def _loss_text(lost: dict[str, int]) -> str:
        many = {"infantry": "infantry", "archer": "archers", "cavalry": "cavalry", "horse-archer": "horse-archers",
                "troll": "trolls", "mumak": "mumakil", "leaders": "leaders"}
        parts = [f"{n} {t if t != 'leaders' else 'leader'}" if n == 1 else f"{n} {many.get(t, t)}"
                 for t, n in lost.items() if n]
        return ", ".join(parts) if parts else "nothing"

    def _leader_bonus(self, state: State, aid: str) -> bool:
        return bool(state["areas"][aid]["leaders"])

    # ------------------------------------------------------------- sequence
    def _new_round(self, state: State, dice: Dice) -> list[Event]:
        state["round"] += 1
        state["roller"] = "good" if state["round"] % 2 == 1 else "evil"
        state["action_dice"] = dice.roll(3, label="Action dice")
        state["turn_in_round"] = 0
        return self._new_turn(state, round_start=True)

    def _new_turn(self, state: State, round_start: bool = False) -> list[Event]:
        state["turn"] += 1
        state["turn_in_round"] += 1
        r = state["roller"]
        state["active"] = r if state["turn_in_round"] in (1, 3) else OTHER[r]
        state["phase"], state["die"], state["actions"] = "die", None, 0
        state["fired"], state["catapults"] = {}, []
        state["flags"] = {"special": False, "ladders": False, "courage": False}
        state["pending"] = None
        head = ""
        if round_start:
            head = (f"Round {state['round']}: {TITLES[r]} rolls the Action dice: "
                    f"{', '.join(map(str, state['action_dice']))}. ")
        return [Event(public=head + f"Turn {state['turn']}: {TITLES[state['active']]} chooses an Action die.",
                      section=S_TURN, new_phase=True)]

    def _end_turn(self, state: State, dice: Dice | None = None) -> list[Event]:
        seat = state["active"]
        events: list[Event] = []
        # Leaders (seed): alone at the end of the turn -> removed; two of one colour -> one removed
        for aid in self.board.ids:
            rec = state["areas"][aid]
            if rec["side"] != seat or not rec["leaders"]:
                continue
            if not rec["u"]:
                gone = list(rec["leaders"])
                state["lost"][seat]["leaders"].extend(gone)
                rec["leaders"], rec["side"] = [], None
                events.append(Event(public=f"{', '.join(self._lname(x) for x in gone)} alone in "
                                           f"{self._name(aid)} at the end of the turn: removed, lost to "
                                           f"{TITLES[OTHER[seat]]}.", section=S_LEADERS))
                continue
            seen: dict[str, str] = {}
            for lid in list(rec["leaders"]):
                c = self.leader_color(lid)
                if c in seen:
                    rec["leaders"].remove(lid)
                    state["lost"][seat]["leaders"].append(lid)
                    events.append(Event(public=f"Two {c} leaders in {self._name(aid)}: {self._lname(lid)} is "
                                               f"removed, lost to {TITLES[OTHER[seat]]}.", section=S_LEADERS))
                else:
                    seen[c] = lid
        self._check_towers(state)
        if self._finish_if_won(state, events):
            return events
        if state["turn_in_round"] >= 3:
            events.extend(self._new_round(state, dice or Dice(state["dice"])))
        else:
            events.extend(self._new_turn(state))
        return events

    def _check_towers(self, state: State) -> None:
        for aid in list(state["towers"]):
            if state["areas"][aid]["side"] != "evil" or not state["areas"][aid]["u"]:
                state["towers"].remove(aid)

    def _lname(self, lid: str) -> str:
        return self.cards["leader_names"].get(lid, lid)

    # ---------------------------------------------------------------- scoring
    def points(self, state: State) -> dict[str, int]:
        P = self.cards["points"]
        out = {}
        for s in SEATS:
            lost = state["lost"][OTHER[s]]
            p = sum(P[t] * lost.get(t, 0) for t in TYPES if t not in ("troll", "mumak"))
            if s == "good":
                p += P["troll"] * lost.get("troll", 0) + P["mumak"] * lost.get("mumak", 0)
            p += P["leader"] * len(lost["leaders"])
            if s == "evil":
                p += P["wall"] * sum(1 for w in self.board.walls if state["areas"][w]["side"] == "evil"
                                     and state["areas"][w]["u"])
                p += P["gate"] if state["gate_broken"] else 0
            out[s] = p
        return out

    def _finish_if_won(self, state: State, events: list[Event]) -> bool:
        if state["over"]:
            return True
        evil_lost = [x for x in state["lost"]["evil"]["leaders"]]
        if len(evil_lost) >= 2:
            text = f"Two Evil leaders are lost ({', '.join(self._lname(x) for x in evil_lost)}): the Forces of Good win."
            state["over"] = {"winner": "good", "summary": text, "section": S_WIN, "how": "leaders"}
        elif state["areas"]["city"]["side"] == "evil" and state["areas"]["city"]["u"]:
            text = "Evil battalions occupy the Minas Tirith Territory: the Forces of Evil win."
            state["over"] = {"winner": "evil", "summary": text, "section": S_WIN, "how": "city"}
        else:
            return False
        state["pending"] = None  # nothing is waited for once the game is over
        events.append(Event(public=text, section=S_WIN, new_phase=True))
        return True

    def _end_on_points(self, state: State, events: list[Event]) -> None:
        p = self.points(state)
        w = "good" if p["good"] > p["evil"] else "evil" if p["evil"] > p["good"] else None
        res = f"the Forces of {TITLES[w]} win" if w else "a draw (ruling: equal points)"
        text = (f"The last Reinforcement card is drawn: Good {p['good']} points, Evil {p['evil']} points; {res}.")
        state["over"] = {"winner": w, "summary": text, "section": S_POINTS, "how": "points", "points": p}
        events.append(Event(public=text, section=S_POINTS, new_phase=True))

    # ------------------------------------------------------------ public API
    def active_seats(self, state: State) -> list[str]:
        if state["over"]:
            return []
        rt = self._pending_retreat(state)
        return [rt["queue"][0]["side"]] if rt else [state["active"]]

    @staticmethod
    def _pending_retreat(state: State) -> dict | None:
        return (state["pending"] or {}).get("retreat")

    def deadline_action(self, state: State, seat: str) -> Action | None:
        """What the bot does for ``seat`` when its deadline passes and `done`
        is not allowed (the `pass` policy): a retreat it was asked to choose
        takes the first legal path (the one that loses fewest battalions)."""
        if self._pending_retreat(state) and seat in self.active_seats(state):
            return next((a for a in self.legal_actions(state, seat) if a.verb == "retreat"), None)
        return None

    def result(self, state: State) -> Result | None:
        o = state["over"]
        return Result(o["winner"], o["summary"], o.get("section")) if o else None

    def format(self, action: Action) -> str:
        return str(action)

    # ------------------------------------------------------------------ parse
    def _area(self, tok: str) -> str:
        t = tok.lower()
        if t in self.board:
            return t
        m = [a for a in self.board.ids if a.startswith(t)] if t else []
        if len(m) == 1:
            return m[0]
        if len(m) > 1:
            raise AmbiguousOrder(f"`{tok[:20]}` could be {', '.join(m[:8])}", candidates=m)
        raise IllegalOrder(f"there is no area `{tok[:20]}` on this board")

    def _group(self, words: list[str]) -> tuple[dict[str, int], list[str]]:
        """``2inf 1cav faramir`` or ``2 inf 1 cav faramir`` -> counts and leaders."""
        g: dict[str, int] = {}
        leaders: list[str] = []
        i = 0
        while i < len(words):
            w = words[i].lower()
            num = ""
            while w and w[0].isdigit():
                num, w = num + w[0], w[1:]
            if num and not w and i + 1 < len(words):
                i += 1
                w = words[i].lower()
            if num:
                code = ALIASES.get(w)
                if code is None:
                    raise InvalidOrder(f"`{w[:12]}` is not a battalion type (inf, arc, cav, hor, tro, mum)")
                t = FROM_CODE[code]
                if t in g or int(num) < 1 or int(num) > 99:
                    raise InvalidOrder(f"give each battalion type once, with a count from 1: `{num}{w[:8]}`")
                g[t] = int(num)
            elif w in self.all_leaders:
                if w in leaders:
                    raise InvalidOrder(f"`{w}` named twice")
                leaders.append(w)
            else:
                raise InvalidOrder(f"`{words[i][:20]}` is neither a count with a type (`2inf`) nor a leader "
                                   f"({', '.join(self.all_leaders)})")
            i += 1
        if not g and not leaders:
            raise InvalidOrder("name the battalions, e.g. `2inf 1cav`, and any leaders")
        return {t: g[t] for t in TYPES if t in g}, sorted(leaders)

    def _mt_card(self, state: State, seat: str, tok: str) -> str:
        t = tok.lower()
        hand = state["hands"][seat]["mt"]
        if t in state["mt_defs"]:
            if t not in hand:
                raise IllegalOrder(f"you do not hold the Minas Tirith card `{t}`", S_MT)
            return t
        m = [c for c in hand if state["mt_defs"][c] == t or c.startswith(t)]
        if len(m) == 1:
            return m[0]
        if len(m) > 1:
            raise AmbiguousOrder(f"`{tok[:20]}` could be {', '.join(m)}", candidates=m)
        raise IllegalOrder(f"you hold no Minas Tirith card `{tok[:20]}`", S_MT)

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
        usage = {
            "take": "take <die>", "keep": "keep <card>", "reinforce": "reinforce <card> on <Minas Tirith card>",
            "play": "play <card> [at <area>]", "fire": "fire <n> from <area> at <area>",
            "attack": "attack <n> from <area> at <area>", "enter": "enter <card> at <area>",
            "trade": "trade mumak at <area>", "ram": "ram <card>", "strike": "strike <card> at <area>",
            "move": "move <units> from <area> [via <area> ...] to <area>",
            "advance": "advance <units> from <area> to <area>", "done": "done",
            "exchange": "exchange <card> <card> <card> [special draw|special take <card>|special place <type> at <area>]",
            "retreat": "retreat <area> [<area> ...] (one area per 6; the path your force takes)",
            "losses": "losses <type> [<type> ...] (first lost first, e.g. `losses inf arc cav`), or `losses default`",
        }
        if verb not in usage:
            raise InvalidOrder(f"unknown order `{verb[:20]}`; orders: {', '.join(usage)}")

        def bad():
            return InvalidOrder(f"usage: `{usage[verb]}`")
        if verb == "done":
            if rest:
                raise bad()
            return Action("done")
        if verb == "losses":
            return self._parse_losses(state, seat, rest, bad)
        if verb == "retreat":
            if not 1 <= len(rest) <= 6:
                raise bad()
            path = [self._area(x) for x in rest]
            rt = self._pending_retreat(state)
            if rt and rt["queue"][0]["side"] == seat:
                opts = rt["queue"][0]["options"]
                m = [o for o in opts if o[:len(path)] == path]
                if len(m) == 1:
                    path = list(m[0])  # the first area(s) named a single legal path: the whole of it
                elif len(m) > 1:
                    cands = ["retreat " + " ".join(o) for o in m]
                    raise AmbiguousOrder(f"`retreat {' '.join(path)}` goes on in more than one way: "
                                         f"{', '.join(f'`{c}`' for c in cands[:6])}", candidates=cands,
                                         section=S_RETREAT)
            return Action("retreat", tuple(path))
        if verb == "take":
            if len(rest) != 1 or not rest[0].isdigit() or not 1 <= int(rest[0]) <= 6:
                raise bad()
            return Action("take", (str(int(rest[0])),))
        if verb == "keep":
            if len(rest) != 1:
                raise bad()
            return Action("keep", (rest[0],))
        if verb == "exchange":
            if len(rest) < 3:
                raise bad()
            cards = rest[:3]
            for c in cards:
                if c not in self.reinforcement_cards:
                    raise IllegalOrder(f"`{c[:12]}` is not a Reinforcement card (ids like inf3, cav12, cre5, wild1)",
                                       S_EXCH)
            if len(set(cards)) != 3:
                raise InvalidOrder("three different cards, please")
            cards = sorted(cards, key=self._card_key)
            tail = rest[3:]
            if not tail:
                return Action("exchange", tuple(cards))
            if tail[0] != "special" or len(tail) < 2:
                raise bad()
            if tail[1:] == ["draw"]:
                return Action("exchange", (*cards, "special", "draw"))
            if tail[1] == "take" and len(tail) == 3:
                t = tail[2]
                if t not in state["mt_defs"]:
                    m = [c for c in state["mt_discard"] if state["mt_defs"][c] == t]
                    if not m:
                        raise IllegalOrder(f"no Minas Tirith card `{t[:20]}` in the discard pile", S_SPECIAL)
                    t = m[0]
                return Action("exchange", (*cards, "special", "take", t))
            if tail[1] == "place" and len(tail) == 5 and tail[3] == "at":
                code = ALIASES.get(tail[2])
                if code is None:
                    raise InvalidOrder(f"`{tail[2][:12]}` is not a battalion type (inf, arc, cav, hor, tro, mum)")
                return Action("exchange", (*cards, "special", "place", code, "at", self._area(tail[4])))
            raise bad()
        if verb == "reinforce":
            if len(rest) != 3 or rest[1] != "on":
                raise bad()
            if rest[0] not in self.reinforcement_cards:
                raise IllegalOrder(f"`{rest[0][:12]}` is not a Reinforcement card", S_REINF)
            return Action("reinforce", (rest[0], "on", self._mt_card(state, seat, rest[2])))
        if verb == "play":
            if len(rest) == 1:
                return Action("play", (self._mt_card(state, seat, rest[0]),))
            if len(rest) == 3 and rest[1] == "at":
                return Action("play", (self._mt_card(state, seat, rest[0]), "at", self._area(rest[2])))
            raise bad()
        if verb in ("enter", "strike"):
            if len(rest) != 3 or rest[1] != "at":
                raise bad()
            return Action(verb, (self._mt_card(state, seat, rest[0]), "at", self._area(rest[2])))
        if verb == "ram":
            if len(rest) != 1:
                raise bad()
            return Action("ram", (self._mt_card(state, seat, rest[0]),))
        if verb == "trade":
            if len(rest) != 3 or ALIASES.get(rest[0]) != "mum" or rest[1] != "at":
                raise bad()
            return Action("trade", ("mumak", "at", self._area(rest[2])))
        if verb in ("fire", "attack"):
            if len(rest) != 5 or rest[1] != "from" or rest[3] != "at":
                raise bad()
            n = rest[0]
            if not (n.isdigit() and 1 <= int(n) <= 6) and not (verb == "fire" and n == "catapult"):
                raise bad()
            n = n if n == "catapult" else str(int(n))
            return Action(verb, (n, "from", self._area(rest[2]), "at", self._area(rest[4])))
        # move / advance
        if "from" not in rest or "to" not in rest:
            raise bad()
        i, j = rest.index("from"), rest.index("to")
        if j != len(rest) - 2 or i < 1 or j < i + 2:
            raise bad()
        g, leaders = self._group(rest[:i])
        mid = rest[i + 1:j]
        src = self._area(mid[0])
        via: list[str] = []
        if len(mid) > 1:
            if mid[1] != "via" or len(mid) < 3 or len(mid) > 4 or verb == "advance":
                raise bad()
            via = [self._area(x) for x in mid[2:]]
        dst = self._area(rest[j + 1])
        args = [*(_group_text(g, leaders).split()), "from", src]
        if via:
            args += ["via", *via]
        args += ["to", dst]
        return Action(verb, tuple(args))

    def _parse_losses(self, state: State, seat: str, rest: list[str], bad) -> Action:
        """``losses cav inf`` -> the full priority: the types named first, in that order,
        then the seat's other types in their current order (canonical: every type)."""
        if not rest:
            raise bad()
        if seat not in SEATS:
            raise IllegalOrder(f"`{seat}` is not a seat in this game (good, evil)")
        mine = self.default_priority(seat)
        if rest == ["default"]:
            return Action("losses", tuple(CODES[t] for t in mine))
        named: list[str] = []
        for word in rest:
            code = ALIASES.get(word)
            if code is None:
                raise InvalidOrder(f"`{word[:12]}` is not a battalion type (inf, arc, cav, hor, tro, mum); "
                                   "e.g. `losses inf arc cav`")
            t = FROM_CODE[code]
            if t not in mine:
                raise IllegalOrder(f"{TITLES[seat]} has no {t} battalions; its types are "
                                   f"{' '.join(CODES[x] for x in mine)}", S_BATTLE)
            if t in named:
                raise InvalidOrder(f"`{code}` is named twice; give each type once, first lost first")
            named.append(t)
        cur = [t for t in self.loss_priority(state, seat) if t in mine]
        return Action("losses", tuple(CODES[t] for t in named + [t for t in cur if t not in named]))

    def _card_key(self, c: str):
        i = 0
        while not c[i].isdigit():
            i += 1
        return ({"inf": 0, "cav": 1, "cre": 2, "wild": 3}[c[:i]], int(c[i:]))

    @staticmethod
    def _split_move(args: tuple[str, ...]):
        i = args.index("from")
        j = args.index("to")
        units = args[:i]
        mid = list(args[i + 1:j])
        src, via = mid[0], mid[2:] if len(mid) > 1 else []
        g: dict[str, int] = {}
        leaders: list[str] = []
        for u in units:
            k = 0
            while k < len(u) and u[k].isdigit():
                k += 1
            if k:
                g[FROM_CODE[u[k:]]] = int(u[:k])
            else:
                leaders.append(u)
        return g, leaders, src, via, args[j + 1]

    # ------------------------------------------------------------------ check
    def check(self, state: State, seat: str, action: Action) -> None:
        if seat not in SEATS:
            raise IllegalOrder(f"`{seat}` is not a seat in this game (good, evil)")
        if state["over"]:
            raise IllegalOrder("the game is over", S_WIN)
        v, a = action.verb, action.args
        if v == "losses":  # a standing order: either seat, at any time (ruling)
            mine = [CODES[t] for t in self.default_priority(seat)]
            if sorted(a) != sorted(mine):
                raise InvalidOrder(f"name each of your types once: {' '.join(mine)}")
            return
        rt = self._pending_retreat(state)
        if rt:
            head = rt["queue"][0]
            if seat != head["side"]:
                raise IllegalOrder(f"waiting for {TITLES[head['side']]} to choose where the force in "
                                   f"{self._name(head['area'])} retreats", S_RETREAT)
            if v != "retreat":
                raise IllegalOrder(f"first choose where your force in {self._name(head['area'])} retreats: "
                                   f"{self._retreat_choices(head)}", S_RETREAT)
            if list(a) not in head["options"]:
                raise IllegalOrder(f"`retreat {' '.join(a)}` is not a retreat your force may take now; choose "
                                   f"{self._retreat_choices(head)}", S_RETREAT)
            return
        if v == "retreat":
            raise IllegalOrder("no force of yours has to retreat now (you are asked only when more than one "
                               "Territory qualifies)", S_RETREAT)
        if seat != state["active"]:
            raise IllegalOrder(f"it is {TITLES[state['active']]}'s turn", S_TURN)
        ph = state["phase"]
        pend = state["pending"] or {}
        if "keep" in pend and v != "keep":
            raise IllegalOrder("first choose which of the two drawn cards to keep: `keep <card>`", S_SPECIAL)
        if v == "keep":
            if "keep" not in pend:
                raise IllegalOrder("there is no card to choose now", S_SPECIAL)
            if a[0] not in pend["keep"]:
                raise IllegalOrder(f"keep one of {', '.join(pend['keep'])}", S_SPECIAL)
            return
        if v == "take":
            if ph != "die":
                raise IllegalOrder("the Action die is chosen at the start of the turn", S_DIE)
            if int(a[0]) not in state["action_dice"]:
                raise IllegalOrder(f"no {a[0]} among the Action dice left ({', '.join(map(str, state['action_dice']))})",
                                   S_DIE)
            return
        if ph == "die":
            raise IllegalOrder(f"first choose an Action die: `take <n>` ({', '.join(map(str, state['action_dice']))})",
                               S_DIE)
        if v == "done":
            if ph == "cards" and len(state["hands"][seat]["reinf"]) > self.cards["limits"]["hand"]:
                raise IllegalOrder(f"you hold {len(state['hands'][seat]['reinf'])} Reinforcement cards; with 7 or more "
                                   "you must exchange", S_EXCH)
            return
        if v in ("exchange", "reinforce", "play"):
            if ph != "cards":
                raise IllegalOrder("card plays are complete before the Actions begin", S_EXCH)
            getattr(self, f"_check_{v}")(state, seat, a)
            return
        if ph != "actions":
            raise IllegalOrder("actions come after the card phase: `done` to start them", S_ACT)
        if v == "advance":
            self._check_advance(state, seat, a)
            return
        if state["actions"] < 1:
            raise IllegalOrder("no Action points left", S_ACT)
        getattr(self, f"_check_{v}")(state, seat, a)

    def _check_exchange(self, state: State, seat: str, a: tuple[str, ...]) -> None:
        cards = list(a[:3])
        hand = state["hands"][seat]["reinf"]
        for c in cards:
            if c not in hand:
                raise IllegalOrder(f"you do not hold {c}", S_EXCH)
        typ = self._set_type(cards)
        if typ is None:
            raise IllegalOrder("a set is three of a kind (a wild card is any); one of each is not a set", S_EXCH)
        if len(a) == 3:
            return
        if state["flags"]["special"]:
            raise IllegalOrder("one Special Exchange per turn", S_SPECIAL)
        if not any(self.reinforcement_cards[c]["shield"] == seat for c in cards):
            raise IllegalOrder(f"a Special Exchange needs a card with the {TITLES[seat]} shield in the set", S_SPECIAL)
        opt = a[4]
        if opt == "draw":
            if not state["hidden"]["mt_deck"]:
                raise IllegalOrder("the Minas Tirith deck is empty", S_SPECIAL)
        elif opt == "take":
            cid = a[5]
            if cid not in state["mt_discard"]:
                raise IllegalOrder(f"{cid} is not in the Minas Tirith discard pile", S_SPECIAL)
            if self._mt(state, cid)["side"] not in (seat, "both"):
                raise IllegalOrder(f"{cid} is not a {TITLES[seat]} card", S_SPECIAL)
        else:
            t = FROM_CODE[a[5]]
            aid = a[7]
            allowed = {"infantry": ["infantry", "archer"],
                       "cavalry": ["cavalry", "horse-archer"] if seat == "good" else ["cavalry"],
                       "creature": ["troll", "mumak"] if seat == "evil" else []}[typ]
            if t not in allowed:
                raise IllegalOrder(f"a {typ} set places {' or '.join(allowed) or 'nothing for Good'}", S_SPECIAL)
            if t not in self.cards["forces"][seat]:
                raise IllegalOrder(f"{TITLES[seat]} has no {t} battalions", S_SPECIAL)
            if self._pool(state, seat, t) < 1:
                raise IllegalOrder(f"no {t} battalion left in your supply", "Set up")
            rec = state["areas"][aid]
            if rec["side"] != seat or not rec["u"]:
                raise IllegalOrder(f"place it in a Territory where you have battalions; {aid} is not one", S_SPECIAL)
            if self.board.areas[aid].kind == "wall" and t not in FOOT:
                raise IllegalOrder("only infantry may stand on the walls", S_WALLS)

    def _set_type(self, cards: list[str]) -> str | None:
        types = {self.reinforcement_cards[c]["type"] for c in cards} - {"wild"}
        return types.pop() if len(types) == 1 else None

    def _check_reinforce(self, state: State, seat: str, a: tuple[str, ...]) -> None:
        card, cid = a[0], a[2]
        if card not in state["hands"][seat]["reinf"]:
            raise IllegalOrder(f"you do not hold {card}", S_REINF)
        mt = self._mt(state, cid)
        if mt["kind"] != "host":
            raise IllegalOrder(f"battalions cannot be placed on {mt['name']}", S_REINF)
        if mt["side"] not in (seat, "both"):
            raise IllegalOrder(f"{mt['name']} is not a {TITLES[seat]} card", S_MT)
        t = self._host_type(cid, card, state)
        if t is None:
            raise IllegalOrder(f"{mt['name']} takes {', '.join(mt['holds'])} battalions, not "
                               f"{self.reinforcement_cards[card]['type']}", S_REINF)
        if self._pool(state, seat, t) < 1:
            raise IllegalOrder(f"no {t} battalion left in your supply", "Set up")

    def _host_type(self, cid: str, card: str, state: State) -> str | None:
        mt = self._mt(state, cid)
        ct = self.reinforcement_cards[card]["type"]
        want = {"infantry": "infantry", "cavalry": "cavalry", "creature": "troll"}.get(ct, mt["holds"][0])
        return want if want in mt["holds"] else None

    def _check_play(self, state: State, seat: str, a: tuple[str, ...]) -> None:
        cid = a[0]
        mt = self._mt(state, cid)
        if not self._usable(state, cid, seat):
            raise IllegalOrder(f"{mt['name']} is not a {TITLES[seat]} card", S_MT)
        kind = mt["kind"]
        at = a[2] if len(a) == 3 else None
        if kind in ("host", "ram", "strike"):
            raise IllegalOrder(f"{mt['name']} is used as an action: "
                               f"`{'enter' if kind == 'host' else kind} {cid}{' at <area>' if kind != 'ram' else ''}`",
                               S_MT)
        if kind in ("leader", "siege-tower"):
            if at is None:
                raise IllegalOrder(f"say where: `play {cid} at <area>`", S_MT)
            rec = state["areas"][at]
            if rec["side"] != seat or not rec["u"]:
                raise IllegalOrder(f"{self._name(at)} holds none of your battalions", S_MT)
            if kind == "leader":
                lid = mt["leader"]
                c = self.leader_color(lid)
                if self._on_board(state, lid):
                    raise IllegalOrder(f"{self._lname(lid)} is already on the board", S_MT)
                if lid in state["lost"][seat]["leaders"]:
                    raise IllegalOrder(f"{self._lname(lid)} is lost and does not come back", S_MT)
                if any(self.leader_color(x) == c for x in rec["leaders"]):
                    raise IllegalOrder(f"two {c} leaders may not occupy the same Territory", S_LEADERS)
            else:
                if self.board.areas[at].kind in ("wall", "city") or not any(
                        self.board.areas[x].kind == "wall" for x in self.board.areas[at].adj):
                    raise IllegalOrder("a Siege Tower stands in a Territory bordering a wall of Minas Tirith", S_WALLS)
                if at in state["towers"]:
                    raise IllegalOrder(f"a Siege Tower already stands in {self._name(at)}", S_WALLS)
            return
        if at is not None:
            raise IllegalOrder(f"{mt['name']} is played without an area: `play {cid}`", S_MT)
        if kind == "healing":
            if not state["lost"][seat].get("infantry"):
                raise IllegalOrder("none of your infantry is lost", S_MT)
            if state["areas"]["city"]["side"] not in (seat, None):
                raise IllegalOrder("the City is not yours", S_MT)
        if kind == "ladders" and state["flags"]["ladders"]:
            raise IllegalOrder("Scaling Ladders are already in use this turn", S_WALLS)
        if kind == "courage" and state["flags"]["courage"]:
            raise IllegalOrder("Courage is already in play this turn", S_MT)

    # --- movement
    def _enter_ok(self, state: State, side: str, x: str, y: str, g: dict[str, int], leaders: list[str],
                  path: bool = True) -> str | None:
        """Why ``g`` may not step x -> y (None if it may)."""
        B = self.board
        if y not in B.areas[x].adj:
            return f"{self._name(x)} does not border {self._name(y)}"
        occ = self._side_of(state, y)
        if occ is not None and occ != side:
            return f"{self._name(y)} holds enemy battalions; you may not move into it"
        kx, ky = B.areas[x].kind, B.areas[y].kind
        mounted_or_big = any(g.get(t) for t in TYPES if t not in FOOT)
        if ky == "wall":
            if mounted_or_big:
                return "only infantry battalions and leaders may stand on the walls (no cavalry on the walls)"
            if kx not in ("wall", "city"):
                if side == "good":
                    return "Good battalions climb onto the walls only from the Minas Tirith Territory"
                if not (state["flags"]["ladders"] or x in state["towers"]):
                    return "Evil climbs the walls only with Scaling Ladders or from a Siege Tower's Territory"
        if kx == "wall" and ky not in ("wall", "city") and side == "good":
            return "Good battalions may not go down from the walls; they go down into the City, then out by the Gate"
        if {x, y} == set(B.gate) and side == "evil" and not state["gate_broken"]:
            return "the Gate is closed to the Forces of Evil"
        return None

    def _check_group_at(self, state: State, seat: str, src: str, g: dict[str, int], leaders: list[str],
                        section: str = S_MOVE) -> None:
        rec = state["areas"][src]
        if rec["side"] != seat:
            raise IllegalOrder(f"you have no force in {self._name(src)}", section)
        for t, n in g.items():
            if rec["u"].get(t, 0) < n:
                raise IllegalOrder(f"{self._name(src)} holds {rec['u'].get(t, 0)} {t}, not {n}", section)
        for lid in leaders:
            if lid not in rec["leaders"]:
                raise IllegalOrder(f"{self._lname(lid)} is not in {self._name(src)}", section)

    def _check_move(self, state: State, seat: str, a: tuple[str, ...]) -> None:
        g, leaders, src, via, dst = self._split_move(a)
        self._check_group_at(state, seat, src, g, leaders)
        path = [src, *via, dst]
        if len(set(path)) != len(path):
            raise IllegalOrder("a move does not pass an area twice", S_MOVE)
        steps = len(path) - 1
        if steps > 1:
            if not g:
                if steps > self.cards["limits"]["leader_move"]:
                    raise IllegalOrder("a Leader alone moves through 1, 2 or 3 Territories", S_LEADERS)
                for x in path[1:]:
                    if self._side_of(state, x) != seat or not state["areas"][x]["u"]:
                        raise IllegalOrder(f"a Leader alone moves only through Territories its Force occupies; "
                                           f"{self._name(x)} is not one", S_LEADERS)
            elif any(t not in MOUNTED for t in g):
                raise IllegalOrder("only cavalry (with leaders) move 2 Territories; others move 1", S_MOVE)
            elif steps > self.cards["limits"]["cavalry_move"]:
                raise IllegalOrder("cavalry move 1 or 2 Territories", S_MOVE)
        for x, y in zip(path, path[1:]):
            why = self._enter_ok(state, seat, x, y, g, leaders)
            if why:
                raise IllegalOrder(why, S_WALLS if "wall" in why or "Gate" in why else S_MOVE)

    def _check_advance(self, state: State, seat: str, a: tuple[str, ...]) -> None:
        pend = state["pending"] or {}
        adv = pend.get("advance")
        g, leaders, src, via, dst = self._split_move(a)
        if not adv or adv["from"] != src or adv["to"] != dst:
            raise IllegalOrder("a free advance follows at once an attack that cleared the Territory", S_GROUND)
        if leaders or any(t not in MOUNTED for t in g):
            raise IllegalOrder("only the attacking cavalry advance for free", S_GROUND)
        if sum(g.values()) > adv["max"]:
            raise IllegalOrder(f"at most {adv['max']} attacking cavalry may advance", S_GROUND)
        self._check_group_at(state, seat, src, g, leaders, S_GROUND)
        why = self._enter_ok(state, seat, src, dst, g, leaders)
        if why:
            raise IllegalOrder(why, S_GROUND)

    def _check_enter(self, state: State, seat: str, a: tuple[str, ...]) -> None:
        cid, aid = a[0], a[2]
        mt = self._mt(state, cid)
        if mt["kind"] != "host" or mt["side"] not in (seat, "both"):
            raise IllegalOrder(f"{mt['name']} does not bring battalions onto the board", S_MOVE)
        if not sum(state["hosts"].get(cid, {}).values()):
            raise IllegalOrder(f"no battalions on {mt['name']} yet: `reinforce <card> on {cid}` first", S_REINF)
        if aid not in self.board.entries[mt["entries"]]:
            raise IllegalOrder(f"{mt['name']} enters at {', '.join(self.board.entries[mt['entries']])}", S_MOVE)
        if self._side_of(state, aid) not in (None, seat):
            raise IllegalOrder(f"{self._name(aid)} holds enemy battalions", S_MOVE)

    def _check_trade(self, state: State, seat: str, a: tuple[str, ...]) -> None:
        aid = a[2]
        if seat != "evil":
            raise IllegalOrder("only the Evil Forces trade a Mumakil battalion", S_MOVE)
        if state["areas"][aid]["side"] != "evil" or not state["areas"][aid]["u"].get("mumak"):
            raise IllegalOrder(f"no Mumakil battalion of yours in {self._name(aid)}", S_MOVE)
        if self._pool(state, "evil", "infantry") < 3:
            raise IllegalOrder("fewer than 3 infantry battalions left in your supply", S_MOVE)

    def _check_ram(self, state: State, seat: str, a: tuple[str, ...]) -> None:
        mt = self._mt(state, a[0])
        if mt["kind"] != "ram" or not self._usable(state, a[0], seat):
            raise IllegalOrder(f"{mt['name']} is not a battering ram", S_MT)
        if state["gate_broken"]:
            raise IllegalOrder("the Gate is already broken", S_MT)
        g = self.board.gate[1]
        if state["areas"][g]["side"] != seat or not state["areas"][g]["u"]:
            raise IllegalOrder(f"Grond needs your battalions in {self._name(g)}, under the Gate", S_MT)

    def _check_strike(self, state: State, seat: str, a: tuple[str, ...]) -> None:
        mt = self._mt(state, a[0])
        if mt["kind"] != "strike" or not self._usable(state, a[0], seat):
            raise IllegalOrder(f"{mt['name']} does not strike", S_MT)
        aid = a[2]
        if state["areas"][aid]["side"] != OTHER[seat] or not state["areas"][aid]["u"]:
            raise IllegalOrder(f"no enemy battalions in {self._name(aid)}", S_MT)

    # --- combat
    def _archery(self, state: State, aid: str) -> int:
        return sum(state["areas"][aid]["u"].get(t, 0) for t in ARCHERY)

    def fire_dice(self, state: State, seat: str, n: int, dst: str) -> tuple[int, bool]:
        """Dice rolled by ``n`` archer battalions at ``dst`` and whether the Gondor
        Banner exception applies (seed, Ranged Attack)."""
        banner = (seat == "evil" and self.board.areas[dst].banner and state["areas"][dst]["side"] == "good")
        return (n // 2 if banner else n), banner

    def _check_fire(self, state: State, seat: str, a: tuple[str, ...], ignore_turn: bool = False) -> None:
        n, src, dst = a[0], a[2], a[4]
        rec = state["areas"][src]
        if rec["side"] != seat or not rec["u"]:
            raise IllegalOrder(f"you have no battalions in {self._name(src)}", S_RANGED)
        if state["areas"][dst]["side"] != OTHER[seat] or not state["areas"][dst]["u"]:
            raise IllegalOrder(f"no enemy battalions in {self._name(dst)}", S_RANGED)
        d = self.board.distance(src, dst)
        if n == "catapult":
            if not self.board.areas[src].catapult:
                raise IllegalOrder(f"there is no catapult in {self._name(src)}", S_RANGED)
            if src in state["catapults"] and not ignore_turn:
                raise IllegalOrder("a catapult performs one Ranged Attack per turn", S_RANGED)
            if d > self.cards["limits"]["catapult_range"]:
                raise IllegalOrder(f"{self._name(dst)} is {d} Territories away; catapults reach 1, 2 or 3",
                                   S_RANGED)
            return
        k = int(n)
        free = self._archery(state, src) - (0 if ignore_turn else state["fired"].get(src, 0))
        if k > free:
            raise IllegalOrder(f"{self._name(src)} has {max(free, 0)} archery battalions that have not fired this turn "
                               "(each fires once per turn)", S_RANGED)
        if d > self.cards["limits"]["archer_range"]:
            raise IllegalOrder(f"{self._name(dst)} is {d} Territories away; archers reach 1 or 2", S_RANGED)
        dice, banner = self.fire_dice(state, seat, k, dst)
        if banner:
            if k not in (2, 4, 6):
                raise IllegalOrder("at a Banner of Gondor, Evil fires with 2, 4 or 6 archer battalions "
                                   "(1, 2 or 3 dice)", S_RANGED)
        elif k > 3:
            raise IllegalOrder("fire with 1, 2 or 3 archery battalions", S_RANGED)

    def _check_attack(self, state: State, seat: str, a: tuple[str, ...], ignore_turn: bool = False) -> None:
        n, src, dst = int(a[0]), a[2], a[4]
        rec = state["areas"][src]
        if rec["side"] != seat or not rec["u"]:
            raise IllegalOrder(f"you have no battalions in {self._name(src)}", S_GROUND)
        if n > 3:
            raise IllegalOrder("attack with 1, 2 or 3 battalions", S_GROUND)
        if dst not in self.board.areas[src].adj:
            raise IllegalOrder(f"{self._name(dst)} does not border {self._name(src)}", S_GROUND)
        if state["areas"][dst]["side"] != OTHER[seat] or not state["areas"][dst]["u"]:
            raise IllegalOrder(f"no enemy battalions in {self._name(dst)}", S_GROUND)
        # ruling: you attack across a border only where your attackers could move (walls, Gate)
        onto_wall = self.board.areas[dst].kind == "wall"
        usable = sum(rec["u"].get(t, 0) for t in FOOT) if onto_wall else sum(rec["u"].values())
        if n > usable:
            what = "infantry battalions" if onto_wall else "battalions"
            raise IllegalOrder(f"{self._name(src)} has {usable} {what} that could attack there, not {n}", S_GROUND)
        probe = {"infantry": 1} if onto_wall else {}
        fake = dict(state)
        fake["areas"] = dict(state["areas"])
        fake["areas"][dst] = {"side": None, "u": {}, "leaders": []}
        why = self._enter_ok(fake, seat, src, dst, probe, [])
        if why:
            raise IllegalOrder(why + " (so you cannot attack there either)", S_WALLS)

    # ------------------------------------------------------------------ apply
    def apply(self, state: State, seat: str, action: Action) -> list[Event]:
        dice = Dice(state["dice"])
        v = action.verb
        if v == "losses":  # a standing order: touches nothing of the turn (not even a free advance)
            return self._do_losses(state, seat, action.args, dice)
        if state["pending"] and "advance" in state["pending"] and v != "advance":
            state["pending"] = None
        events = getattr(self, f"_do_{v}")(state, seat, action.args, dice)
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

    def _spend(self, state: State) -> None:
        state["actions"] -= 1

    def _do_done(self, state, seat, a, dice):
        if state["phase"] == "cards":
            state["phase"] = "actions"
            return [Event(public=f"{TITLES[seat]} begins the Actions with {_plural(state['actions'], 'Action point')}.",
                          section=S_ACT)]
        left = state["actions"]
        ev = [Event(public=f"{TITLES[seat]} ends the turn" + (f" with {_plural(left, 'Action point')} unused."
                                                               if left else "."),
                    section=S_ACT)]
        return ev + self._end_turn(state, dice)

    def _do_take(self, state, seat, a, dice):
        n = int(a[0])
        state["action_dice"].remove(n)
        acts, draws = self.cards["action_dice"]["table"][str(n)]
        state["die"], state["actions"], state["phase"] = n, acts, "cards"
        deck = state["hidden"]["reinf_deck"]
        got = []
        for _ in range(draws):
            if not deck:
                break
            got.append(deck.pop(0))
        state["hands"][seat]["reinf"].extend(got)
        text = (f"{TITLES[seat]} takes the {n}: {_plural(acts, 'Action')}, "
                f"{_plural(len(got), 'Reinforcement card')} drawn" + (f" ({', '.join(self._card_label(c) for c in got)})"
                                                                        if got else "") + ".")
        events = [Event(public=text, section=S_DRAW, **(_REVEALS if got else {}))]
        if got and not deck:
            self._end_on_points(state, events)
        return events

    def _card_label(self, c: str) -> str:
        d = self.reinforcement_cards[c]
        return f"{c} {d['type']}" + (f", {d['shield']} shield" if d["shield"] else "")

    def _draw_mt(self, state: State, seat: str) -> tuple[str | None, str]:
        deck = state["hidden"]["mt_deck"]
        if not deck:
            return None, "the Minas Tirith deck is empty (no reshuffle)"
        c = deck.pop(0)
        mt = self._mt(state, c)
        if mt["side"] in (seat, "both"):
            state["hands"][seat]["mt"].append(c)
            return c, f"draws {mt['name']} ({c})"
        state["mt_discard"].append(c)
        return None, f"draws {mt['name']} ({c}), a {TITLES[OTHER[seat]]} card, and discards it"

    def _do_exchange(self, state, seat, a, dice):
        cards = list(a[:3])
        hand = state["hands"][seat]["reinf"]
        for c in cards:
            hand.remove(c)
        state["reinf_discard"].extend(cards)
        typ = self._set_type(cards)
        head = f"{TITLES[seat]} exchanges {', '.join(cards)} ({typ} set)"
        if len(a) == 3:
            _, what = self._draw_mt(state, seat)
            return [Event(public=f"{head} and {what}.", section=S_EXCH, **_REVEALS)]
        state["flags"]["special"] = True
        opt = a[4]
        if opt == "draw":
            deck = state["hidden"]["mt_deck"]
            two = [deck.pop(0) for _ in range(min(2, len(deck)))]
            mine = [c for c in two if self._usable(state, c, seat)]
            for c in two:
                if c not in mine:
                    state["mt_discard"].append(c)
            names = ", ".join(f"{self._mt(state, c)['name']} ({c})" for c in two)
            if len(mine) == 2:
                state["pending"] = {"keep": mine}
                return [Event(public=f"{head}, a Special Exchange: draws {names}; keeps one (`keep <card>`).",
                              section=S_SPECIAL, **_REVEALS)]
            state["hands"][seat]["mt"].extend(mine)
            kept = f"keeps {mine[0]}" if mine else "can use neither; both discarded"
            return [Event(public=f"{head}, a Special Exchange: draws {names}; {kept}.", section=S_SPECIAL, **_REVEALS)]
        if opt == "take":
            cid = a[5]
            state["mt_discard"].remove(cid)
            state["hands"][seat]["mt"].append(cid)
            return [Event(public=f"{head}, a Special Exchange: takes {self._mt(state, cid)['name']} ({cid}) from the "
                                 "discard pile.", section=S_SPECIAL)]
        t, aid = FROM_CODE[a[5]], a[7]
        self._add(state, aid, seat, {t: 1}, [])
        return [Event(public=f"{head}, a Special Exchange: places 1 {t} in {self._name(aid)}.", section=S_SPECIAL)]

    def _do_keep(self, state, seat, a, dice):
        two = state["pending"]["keep"]
        state["pending"] = None
        for c in two:
            (state["hands"][seat]["mt"] if c == a[0] else state["mt_discard"]).append(c)
        other = [c for c in two if c != a[0]]
        return [Event(public=f"{TITLES[seat]} keeps {a[0]} and discards {', '.join(other)}.", section=S_SPECIAL)]

    def _do_reinforce(self, state, seat, a, dice):
        card, cid = a[0], a[2]
        t = self._host_type(cid, card, state)
        state["hands"][seat]["reinf"].remove(card)
        state["reinf_discard"].append(card)
        h = state["hosts"].setdefault(cid, {})
        h[t] = h.get(t, 0) + 1
        return [Event(public=f"{TITLES[seat]} places 1 {t} on {self._mt(state, cid)['name']} ({card}).",
                      section=S_REINF)]

    def _discard_mt(self, state, seat, cid):
        state["hands"][seat]["mt"].remove(cid)
        state["mt_discard"].append(cid)

    def _do_play(self, state, seat, a, dice):
        cid = a[0]
        mt = self._mt(state, cid)
        kind = mt["kind"]
        at = a[2] if len(a) == 3 else None
        text = f"{TITLES[seat]} plays {mt['name']}"
        if kind == "leader":
            self._add(state, at, seat, {}, [mt["leader"]])
            self._discard_mt(state, seat, cid)
            text += f": {self._lname(mt['leader'])} joins the force in {self._name(at)}."
        elif kind == "siege-tower":
            state["hands"][seat]["mt"].remove(cid)
            state["mt_used"].append(cid)
            state["towers"].append(at)
            text += f" in {self._name(at)}: Evil infantry may climb the walls from there; +1 in attack from it."
        elif kind == "ladders":
            self._discard_mt(state, seat, cid)
            state["flags"]["ladders"] = True
            text += ": this turn Evil infantry and leaders may climb onto any wall from a bordering Territory."
        elif kind == "actions":
            self._discard_mt(state, seat, cid)
            state["actions"] += mt["bonus"]
            text += f": +{mt['bonus']} Action points this turn ({state['actions']} in all)."
        elif kind == "courage":
            self._discard_mt(state, seat, cid)
            state["flags"]["courage"] = True
            text += ": +1 on the highest die of your ground attacks this turn."
        elif kind == "healing":
            self._discard_mt(state, seat, cid)
            n = min(2, state["lost"][seat].get("infantry", 0), self.cards["forces"][seat]["infantry"])
            state["lost"][seat]["infantry"] -= n
            self._add(state, "city", seat, {"infantry": n}, [])
            text += f": {_plural(n, 'lost infantry battalion')} return to the City."
        return [Event(public=text, section=S_MT)]

    def _move_fired(self, state: State, src: str, dst: str, g: dict[str, int]) -> None:
        k = sum(g.get(t, 0) for t in ARCHERY)
        f = min(k, state["fired"].get(src, 0))
        if f:
            state["fired"][src] -= f
            state["fired"][dst] = state["fired"].get(dst, 0) + f

    def _do_move(self, state, seat, a, dice):
        g, leaders, src, via, dst = self._split_move(a)
        self._remove(state, src, g, leaders)
        self._add(state, dst, seat, g, leaders)
        self._move_fired(state, src, dst, g)
        self._spend(state)
        route = " via " + ", ".join(self._name(x) for x in via) if via else ""
        return [Event(public=f"{TITLES[seat]} moves {_group_text(g, leaders)} from {self._name(src)}{route} to "
                             f"{self._name(dst)}.", section=S_MOVE)]

    def _do_advance(self, state, seat, a, dice):
        g, leaders, src, via, dst = self._split_move(a)
        self._remove(state, src, g, leaders)
        self._add(state, dst, seat, g, leaders)
        self._move_fired(state, src, dst, g)
        state["pending"] = None
        return [Event(public=f"{TITLES[seat]}'s cavalry advance for free: {_group_text(g, [])} from "
                             f"{self._name(src)} to {self._name(dst)}.", section=S_GROUND)]

    def _do_enter(self, state, seat, a, dice):
        cid, aid = a[0], a[2]
        mt = self._mt(state, cid)
        g = state["hosts"].pop(cid)
        leaders = [mt["leader"]] if mt.get("leader") and not self._on_board(state, mt["leader"]) \
            and mt["leader"] not in state["lost"][seat]["leaders"] else []
        self._add(state, aid, seat, g, leaders)
        self._discard_mt(state, seat, cid)
        self._spend(state)
        return [Event(public=f"{mt['name']} enter the battle in {self._name(aid)}: {_group_text(g, leaders)}.",
                      section=S_MOVE)]

    def _do_trade(self, state, seat, a, dice):
        aid = a[2]
        self._remove(state, aid, {"mumak": 1}, [])
        self._add(state, aid, seat, {"infantry": 3}, [])
        self._spend(state)
        return [Event(public=f"Evil trades a Mumakil battalion in {self._name(aid)} for 3 infantry battalions.",
                      section=S_MOVE)]

    def _do_ram(self, state, seat, a, dice):
        self._spend(state)
        g = self.board.gate[1]
        need = 3 if state["areas"][g]["leaders"] else 4
        roll = dice.d6("Grond")
        if roll >= need:
            state["gate_broken"] = True
            self._discard_mt(state, seat, a[0])
            text = f"Grond strikes the Gate: {roll} (needs {need}+). The Gate is broken!"
        else:
            text = f"Grond strikes the Gate: {roll} (needs {need}+). The Gate holds."
        return [Event(public=text, section=S_MT)]

    def _do_strike(self, state, seat, a, dice):
        aid = a[2]
        self._spend(state)
        rolls = dice.roll(2, label="Fell Beasts")
        hits = rolls.count(6)
        lost = self._take_losses(state, aid, hits)
        self._discard_mt(state, seat, a[0])
        return [Event(public=f"Fell Beasts swoop on {self._name(aid)}: {rolls}; {_plural(hits, 'hit')}; "
                             f"{TITLES[OTHER[seat]]} loses {self._loss_text(lost)}.", section=S_MT)]

    def _do_fire(self, state, seat, a, dice):
        n, src, dst = a[0], a[2], a[4]
        self._spend(state)
        if n == "catapult":
            state["catapults"].append(src)
            k, banner = 1, False
            what = "the catapult"
        else:
            k, banner = self.fire_dice(state, seat, int(n), dst)
            state["fired"][src] = state["fired"].get(src, 0) + int(n)
            what = _plural(int(n), "archery battalion")
        rolls = dice.roll(k, label="Ranged attack")
        hits = rolls.count(6)
        lost = self._take_losses(state, dst, hits)
        note = " (Banner of Gondor: half the dice)" if banner else ""
        return [Event(public=f"{TITLES[seat]} fires {what} from {self._name(src)} at {self._name(dst)}{note}: "
                             f"{rolls}; {_plural(hits, 'hit')}; {TITLES[OTHER[seat]]} loses {self._loss_text(lost)}.",
                      section=S_RANGED)]

    # --- ground attack: the one resolution used by apply and by the odds
    def modifiers(self, state: State, seat: str, src: str, dst: str) -> tuple[int, int, list[str]]:
        """(attack bonus, defence bonus, reasons) on the highest die (seed, Leaders table)."""
        att, dfn, why = 0, 0, []
        if state["areas"][src]["leaders"]:
            att += 1
            why.append("attacking leader +1")
        if seat == "evil" and src in state["towers"]:
            att += 1
            why.append("Siege Tower +1")
        if state["flags"].get("courage"):
            att += 1
            why.append("Courage in Battle +1")
        if state["areas"][dst]["leaders"]:
            dfn += 1
            why.append("defending leader +1")
        if OTHER[seat] == "good" and self.board.areas[dst].banner:
            dfn += 1
            why.append("Banner of Gondor +1 in defence")
        return att, dfn, why

    def defence_dice(self, state: State, dst: str) -> int:
        return min(self.cards["limits"]["defence_dice"], self._bn(state, dst))

    def resolve_ground(self, state: State, seat: str, n: int, src: str, dst: str,
                       att: list[int], dfn: list[int], choose=None) -> dict:
        """Apply one ground attack with the given dice (already rolled). Returns what happened.
        Retreats needing the owner's choice stay in ``queue`` unless ``choose`` picks (the odds)."""
        am, dm, _ = self.modifiers(state, seat, src, dst)
        A, D = sorted(att, reverse=True), sorted(dfn, reverse=True)
        A2, D2 = list(A), list(D)
        A2[0] += am
        D2[0] += dm
        a_loss = d_loss = 0
        for x, y in zip(A2, D2):
            if x > y:
                d_loss += 1
            else:
                a_loss += 1
        good, evil = (seat, OTHER[seat]) if seat == "good" else (OTHER[seat], seat)
        good_rolls = att if seat == "good" else dfn
        evil_rolls = att if seat == "evil" else dfn
        good6 = good_rolls.count(6)
        evil_side_area = src if seat == "evil" else dst
        good_side_area = src if seat == "good" else dst
        naz = "nazgul" in state["areas"][evil_side_area]["leaders"]
        evil6 = evil_rolls.count(6) if naz else 0
        out = {"att_loss": a_loss, "def_loss": d_loss, "a_lost": {}, "d_lost": {}, "retreats": [],
               "turn_ends": False, "advance": 0, "queue": [], "assumed": False}
        out["a_lost"] = self._take_losses(state, src, a_loss)
        out["d_lost"] = self._take_losses(state, dst, d_loss)
        queue = []
        for side, area, sixes in (("evil", evil_side_area, good6), ("good", good_side_area, evil6)):
            if sixes and state["areas"][area]["side"] == side and state["areas"][area]["u"]:
                queue.append({"side": side, "area": area, "sixes": sixes})
                if side == seat:
                    out["turn_ends"] = True
        out["queue"] = self.run_retreats(state, queue, out, choose)
        if not out["queue"]:
            out["advance"] = self._free_advance(state, seat, n, src, dst, out["turn_ends"])
        _ = good, evil
        return out

    def _free_advance(self, state: State, seat: str, n: int, src: str, dst: str, turn_ends: bool) -> int:
        """How many attacking cavalry may move in for free (seed, How to do Battle, Note)."""
        if turn_ends or self._side_of(state, dst) is not None or state["areas"][src]["side"] != seat:
            return 0
        cav = sum(state["areas"][src]["u"].get(t, 0) for t in MOUNTED)
        if cav and self._enter_ok(state, seat, src, dst, {"cavalry": 1}, []) is None:
            return min(n, cav)
        return 0

    def run_retreats(self, state: State, queue: list[dict], out: dict, choose=None) -> list[dict]:
        """Carry out the queued retreats in order (Evil's first). A retreat with one
        legal path (or none: a battalion per six) happens at once; where more than one
        path qualifies the owner chooses: with ``choose`` (the odds) it picks, else the
        queue is returned with the choices in ``queue[0]["options"]`` (a pending order)."""
        queue = [dict(q) for q in queue]
        while queue:
            head = queue[0]
            paths = self.retreat_paths(state, head["side"], head["area"], head["sixes"])
            if len(paths) > 1:
                if choose is None:
                    head["options"] = paths
                    return queue
                if len({len(p) for p in paths}) > 1:
                    out["assumed"] = True  # the choice changes the losses: the odds say what they assume
                path = choose(paths)
            else:
                path = paths[0] if paths else []
            queue.pop(0)
            out["retreats"].append(self.retreat_along(state, head["side"], head["area"], head["sixes"], path))
        return []

    def retreat_paths(self, state: State, side: str, area: str, steps: int) -> list[list[str]]:
        """Every way the whole force of ``side`` in ``area`` may retreat ``steps`` times
        (seed, Retreat): each step into a bordering Territory closer to its end, not
        enemy-held, that the force may legally enter; a path stops early where no step
        is left (each six not taken costs a battalion). Sorted: fewest battalions lost,
        then own-held Territories first, then by id -- the first is what /odds assumes."""
        dist = self.board.end_distance[side]
        rec = state["areas"][area]
        g, leaders = dict(rec["u"]), list(rec["leaders"])
        out: list[tuple] = []

        def walk(cur: str, left: int, path: list[str], keys: list[tuple]) -> None:
            nxt = []
            if left:
                here = dist.get(cur, 99)
                for y in self.board.areas[cur].adj:
                    if dist.get(y, 99) >= here:
                        continue
                    occ = self._side_of(state, y)
                    if occ is not None and occ != side:
                        continue
                    if self._enter_ok(state, side, cur, y, g, leaders) is not None:
                        continue
                    nxt.append((dist.get(y, 99), 0 if occ == side else 1, y))
            if not nxt:
                if path:
                    out.append((left, keys, path))
                return
            for k in sorted(nxt):
                walk(k[2], left - 1, path + [k[2]], keys + [k])
        walk(area, steps, [], [])
        return [p for _, _, p in sorted(out)]

    def retreat_along(self, state: State, side: str, area: str, sixes: int, path: list[str]) -> dict:
        """Move the force along ``path`` (a legal retreat); each six left over costs a battalion."""
        cur = area
        for y in path:
            rec = state["areas"][cur]
            g, leaders = dict(rec["u"]), list(rec["leaders"])
            self._remove(state, cur, g, leaders)
            self._add(state, y, side, g, leaders)
            self._move_fired(state, cur, y, g)
            cur = y
        lost = self._take_losses(state, cur, sixes - len(path)) if sixes > len(path) else {}
        return {"path": [area, *path], "lost": lost, "side": side, "sixes": sixes}

    def _retreat_text(self, rt: dict) -> str:
        who = TITLES[rt["side"]]
        text = ""
        if len(rt["path"]) > 1:
            text += (f" {who} rolled against a 6 ×{rt['sixes']}: the force retreats "
                     f"{' → '.join(self._name(x) for x in rt['path'])}.")
        if rt["lost"]:
            text += f" Blocked: {who} loses {self._loss_text(rt['lost'])}."
        return text

    def _retreat_choices(self, head: dict) -> str:
        parts = []
        for o in head["options"][:6]:
            left = head["sixes"] - len(o)
            parts.append(f"`retreat {' '.join(o)}`" + (f" (then blocked: loses {left})" if left else ""))
        more = len(head["options"]) - 6
        return " or ".join(parts) + (f" (and {more} more)" if more > 0 else "")

    def _ask_retreat(self, state: State, queue: list[dict], battle: dict) -> Event:
        """Wait for the owner of the retreating force (like a Standard Rules retreat):
        post the map and ping that seat."""
        state["pending"] = {"retreat": {"queue": queue, "battle": battle}}
        head = queue[0]
        return Event(public=f"{TITLES[head['side']]} must choose where the force in {self._name(head['area'])} "
                            f"retreats ({head['sixes']} × 6, one Territory toward its end for each): "
                            f"{self._retreat_choices(head)}.", section=S_RETREAT, new_phase=True)

    def _after_battle(self, state: State, battle: dict, dice: Dice, events: list[Event]) -> None:
        """Once every retreat of a ground attack is done: the free cavalry advance,
        or the end of a turn whose side was forced back (seed, Retreat)."""
        seat, src, dst = battle["seat"], battle["src"], battle["dst"]
        if self._finish_if_won(state, events):
            return
        adv = self._free_advance(state, seat, battle["n"], src, dst, battle["turn_ends"])
        if adv:
            state["pending"] = {"advance": {"from": src, "to": dst, "max": adv}}
            events.append(Event(public=f"{self._name(dst)} is cleared: up to {adv} attacking cavalry may "
                                       f"advance for free (`advance <n>cav from {src} to {dst}`).", section=S_GROUND))
        if battle["turn_ends"]:
            events.append(Event(public=f"{TITLES[seat]} was forced to retreat: the turn ends.", section=S_RETREAT))
            events.extend(self._end_turn(state, dice))

    def _do_attack(self, state, seat, a, dice):
        n, src, dst = int(a[0]), a[2], a[4]
        self._spend(state)
        nd = self.defence_dice(state, dst)
        att = dice.roll(n, label="attack")
        dfn = dice.roll(nd, label="defence")
        am, dm, why = self.modifiers(state, seat, src, dst)
        r = self.resolve_ground(state, seat, n, src, dst, att, dfn)
        mods = f" [{'; '.join(why)}]" if why else ""
        text = (f"{TITLES[seat]} attacks {self._name(dst)} from {self._name(src)} with {n}: attack {att}, defence "
                f"{dfn}{mods}. {TITLES[seat]} loses {self._loss_text(r['a_lost'])}; "
                f"{TITLES[OTHER[seat]]} loses {self._loss_text(r['d_lost'])}.")
        for rt in r["retreats"]:
            text += self._retreat_text(rt)
        retreat = r["retreats"] or r["queue"]
        events = [Event(public=text, section=S_RETREAT if retreat else S_GROUND)]
        battle = {"seat": seat, "n": n, "src": src, "dst": dst, "turn_ends": r["turn_ends"]}
        if r["queue"]:
            if not self._finish_if_won(state, events):
                events.append(self._ask_retreat(state, r["queue"], battle))
            return events
        self._after_battle(state, battle, dice, events)
        return events

    def _do_retreat(self, state, seat, a, dice):
        rt = state["pending"]["retreat"]
        head, battle = rt["queue"][0], rt["battle"]
        done = self.retreat_along(state, head["side"], head["area"], head["sixes"], list(a))
        out = {"retreats": [], "assumed": False}
        rest = self.run_retreats(state, rt["queue"][1:], out, None)
        text = f"{TITLES[seat]} chooses the retreat." + self._retreat_text(done)
        for r in out["retreats"]:
            text += self._retreat_text(r)
        events = [Event(public=text, section=S_RETREAT)]
        state["pending"] = None
        if self._finish_if_won(state, events):
            return events
        if rest:
            events.append(self._ask_retreat(state, rest, battle))
            return events
        self._after_battle(state, battle, dice, events)
        if not state["over"] and not battle["turn_ends"] and state["actions"] <= 0 and not state["pending"] \
                and state["phase"] == "actions":
            # the retreat was the last thing the turn waited for (no Action point left): that turn is over
            events.append(Event(public=f"{TITLES[state['active']]} has used every Action point.", section=S_ACT))
            events.extend(self._end_turn(state, dice))
        if not any(e.new_phase for e in events):
            events.append(Event(public=f"Back to {TITLES[state['active']]}: "
                                       f"{_plural(state['actions'], 'Action point')} left.", section=S_ACT,
                                new_phase=True))  # the turn's owner acts again: post the map and ping
        return events

    def _do_losses(self, state, seat, a, dice):
        old = self.loss_priority(state, seat)
        new = [FROM_CODE[c] for c in a]
        state.setdefault("loss_priority", {s: self.default_priority(s) for s in SEATS})[seat] = new
        names = {"infantry": "infantry", "archer": "archers", "cavalry": "cavalry", "horse-archer": "horse archers",
                 "troll": "trolls", "mumak": "mumakil"}
        same = " (unchanged)" if [t for t in old if t in new] == new else ""
        return [Event(public=f"{TITLES[seat]}'s standing loss priority{same}, first lost first: "
                             f"{', '.join(names[t] for t in new)} (`losses {' '.join(a)}`).", section=S_BATTLE)]

    # ------------------------------------------------------------ legal actions
    def legal_actions(self, state: State, seat: str) -> Iterator[Action]:
        if state["over"] or seat not in SEATS:
            return
        rt = self._pending_retreat(state)
        if rt:
            if rt["queue"][0]["side"] == seat:
                for path in rt["queue"][0]["options"]:
                    yield Action("retreat", tuple(path))
        elif seat == state["active"]:
            for a in self._candidates(state, seat):
                try:
                    self.check(state, seat, a)
                except (IllegalOrder, InvalidOrder):
                    continue
                yield a
        yield from self._loss_suggestions(state, seat)

    def _loss_suggestions(self, state: State, seat: str) -> Iterator[Action]:
        """A few sensible standing loss priorities (any seat, any time), offered only
        when the seat has two or more battalion types on the board and they differ from
        the current one: cheapest first (the default), archers kept longest, dearest first.
        Any other order of the types is accepted when typed."""
        mine = self.default_priority(seat)
        have = {t for r in state["areas"].values() if r["side"] == seat for t, n in r["u"].items() if n}
        if len(have) < 2:
            return
        cur = [t for t in self.loss_priority(state, seat) if t in mine]
        arch_last = [t for t in mine if t not in ARCHERY] + [t for t in mine if t in ARCHERY]
        seen = [cur]
        for cand in (mine, arch_last, mine[::-1]):
            if cand not in seen:
                seen.append(cand)
                yield Action("losses", tuple(CODES[t] for t in cand))

    def _groups(self, rec: dict, only: tuple[str, ...] | None = None, leaders: bool = True) -> Iterator[tuple]:
        """Every sub-force of an area (largest first)."""
        types = [t for t in TYPES if rec["u"].get(t) and (only is None or t in only)]
        ranges = [range(rec["u"][t], -1, -1) for t in types]
        lsets = [list(c) for k in range(len(rec["leaders"]), -1, -1)
                 for c in itertools.combinations(sorted(rec["leaders"]), k)] if leaders else [[]]
        for counts in itertools.product(*ranges):
            g = {t: c for t, c in zip(types, counts) if c}
            for ls in lsets:
                if g or ls:
                    yield g, ls

    def _candidates(self, state: State, seat: str) -> Iterator[Action]:
        ph = state["phase"]
        pend = state["pending"] or {}
        if "keep" in pend:
            for c in pend["keep"]:
                yield Action("keep", (c,))
            return
        if ph == "die":
            for n in sorted(set(state["action_dice"]), reverse=True):
                yield Action("take", (str(n),))
            return
        B = self.board
        mine = [aid for aid in B.ids if state["areas"][aid]["side"] == seat and
                (state["areas"][aid]["u"] or state["areas"][aid]["leaders"])]
        if ph == "cards":
            yield Action("done")
            hand = sorted(state["hands"][seat]["reinf"], key=self._card_key)
            combos = list(itertools.combinations(hand, 3))
            for c in combos:
                yield Action("exchange", c)
            for cid in state["hands"][seat]["mt"]:
                mt = self._mt(state, cid)
                if mt["kind"] in ("leader", "siege-tower"):
                    for aid in mine:
                        yield Action("play", (cid, "at", aid))
                else:
                    yield Action("play", (cid,))
                if mt["kind"] == "host":
                    for card in hand:
                        yield Action("reinforce", (card, "on", cid))
            for c in combos:
                yield Action("exchange", (*c, "special", "draw"))
                for d in state["mt_discard"]:
                    yield Action("exchange", (*c, "special", "take", d))
                for code in CODES.values():
                    for aid in mine:
                        yield Action("exchange", (*c, "special", "place", code, "at", aid))
            return
        # actions
        adv = pend.get("advance")
        if adv:
            rec = state["areas"][adv["from"]]
            for g, ls in self._groups(rec, MOUNTED, leaders=False):
                if sum(g.values()) <= adv["max"]:
                    yield Action("advance", (*_group_text(g, []).split(), "from", adv["from"], "to", adv["to"]))
        yield Action("done")
        for aid in mine:
            rec = state["areas"][aid]
            for y in B.areas[aid].adj:
                if state["areas"][y]["side"] == OTHER[seat] and state["areas"][y]["u"]:
                    for n in (3, 2, 1):
                        yield Action("attack", (str(n), "from", aid, "at", y))
            if self._archery(state, aid) or B.areas[aid].catapult:
                for y in B.ids:
                    if state["areas"][y]["side"] == OTHER[seat] and state["areas"][y]["u"] and \
                            B.distance(aid, y) <= self.cards["limits"]["catapult_range"]:
                        for n in ("catapult", "6", "4", "3", "2", "1"):
                            yield Action("fire", (n, "from", aid, "at", y))
        for cid in state["hands"][seat]["mt"]:
            mt = self._mt(state, cid)
            if mt["kind"] == "host":
                for aid in B.entries[mt["entries"]]:
                    yield Action("enter", (cid, "at", aid))
            elif mt["kind"] == "ram":
                yield Action("ram", (cid,))
            elif mt["kind"] == "strike":
                for y in B.ids:
                    if state["areas"][y]["side"] == OTHER[seat]:
                        yield Action("strike", (cid, "at", y))
        for aid in mine:
            if state["areas"][aid]["u"].get("mumak"):
                yield Action("trade", ("mumak", "at", aid))
        # moves: the whole force first, then every sub-force; then cavalry and leaders further
        for whole in (True, False):
            for aid in mine:
                rec = state["areas"][aid]
                groups = [(dict(rec["u"]), list(rec["leaders"]))] if whole else list(self._groups(rec))[1:]
                for g, ls in groups:
                    for y in B.areas[aid].adj:
                        if self._enter_ok(state, seat, aid, y, g, ls) is None:
                            yield Action("move", (*_group_text(g, ls).split(), "from", aid, "to", y))
        for aid in mine:
            rec = state["areas"][aid]
            for g, ls in self._groups(rec, MOUNTED):
                if not g:
                    continue
                for y in B.areas[aid].adj:
                    if self._enter_ok(state, seat, aid, y, g, ls) is not None:
                        continue
                    for z in B.areas[y].adj:
                        if z != aid and self._enter_ok(state, seat, y, z, g, ls) is None:
                            yield Action("move", (*_group_text(g, ls).split(), "from", aid, "via", y, "to", z))
            for lid in rec["leaders"]:
                for path in self._leader_paths(state, seat, aid):
                    if len(path) >= 2:
                        yield Action("move", (lid, "from", aid, "via", *path[:-1], "to", path[-1]))

    def _leader_paths(self, state, seat, start) -> Iterator[list[str]]:
        def ok(x):
            return state["areas"][x]["side"] == seat and bool(state["areas"][x]["u"])
        stack = [[start]]
        while stack:
            p = stack.pop()
            if len(p) > 1:
                yield p[1:]
            if len(p) > self.cards["limits"]["leader_move"]:
                continue
            for y in self.board.areas[p[-1]].adj:
                if y not in p and ok(y):
                    stack.append(p + [y])

    # ------------------------------------------------------------------- odds
    def odds_table(self, state: State, seat: str, text: str) -> dict:
        """Exact outcome probabilities of a proposed ground or ranged attack."""
        action = self._parse(state, seat, text)
        if seat not in SEATS:
            raise IllegalOrder(f"`{seat}` is not a seat in this game (good, evil)")
        if action.verb == "attack":
            self._check_attack(state, seat, action.args, ignore_turn=True)
            return self._odds_ground(state, seat, action)
        if action.verb == "fire":
            self._check_fire(state, seat, action.args, ignore_turn=True)
            return self._odds_fire(state, seat, action)
        raise InvalidOrder("odds are for `attack <n> from <area> at <area>` and `fire <n> from <area> at <area>`")

    def _odds_fire(self, state, seat, action) -> dict:
        n, src, dst = action.args[0], action.args[2], action.args[4]
        if n == "catapult":
            k, banner = 1, False
        else:
            k, banner = self.fire_dice(state, seat, int(n), dst)
        cap = self._bn(state, dst)
        dist: dict[tuple, Fraction] = {}
        for h in range(k + 1):
            p = Fraction(self._comb(k, h)) * Fraction(1, 6) ** h * Fraction(5, 6) ** (k - h)
            key = (0, min(h, cap))
            dist[key] = dist.get(key, 0) + p
        mods = ["Banner of Gondor: Evil rolls one die per two archer battalions"] if banner else []
        return {"kind": "fire", "dice": (k, 0), "dice_losses": dict(dist), "final": {(0, h, ""): p for (_, h), p in
                                                                                    dist.items()},
                "modifiers": mods, "src": src, "dst": dst, "seat": seat}

    @staticmethod
    def _comb(n, k):
        from math import comb
        return comb(n, k)

    def _odds_ground(self, state, seat, action) -> dict:
        n, src, dst = int(action.args[0]), action.args[2], action.args[4]
        nd = self.defence_dice(state, dst)
        am, dm, why = self.modifiers(state, seat, src, dst)
        total = 6 ** (n + nd)
        groups: dict[tuple, list] = {}
        for roll in itertools.product(range(1, 7), repeat=n + nd):
            att, dfn = list(roll[:n]), list(roll[n:])
            A, D = sorted(att, reverse=True), sorted(dfn, reverse=True)
            A[0] += am
            D[0] += dm
            al = sum(1 for x, y in zip(A, D) if x <= y)
            dl = sum(1 for x, y in zip(A, D) if x > y)
            key = (al, dl, att.count(6), dfn.count(6))
            if key in groups:
                groups[key][0] += 1
            else:
                groups[key] = [1, att, dfn]
        dice_losses: dict[tuple, Fraction] = {}
        final: dict[tuple, Fraction] = {}
        assumed = False
        for (al, dl, _, _), (cnt, att, dfn) in groups.items():
            p = Fraction(cnt, total)
            dice_losses[(al, dl)] = dice_losses.get((al, dl), 0) + p
            work = {"areas": clone(state["areas"]), "lost": clone(state["lost"]), "towers": list(state["towers"]),
                    "flags": dict(state["flags"]), "fired": dict(state["fired"]), "gate_broken": state["gate_broken"],
                    "loss_priority": clone(state.get("loss_priority") or {})}
            # where the owner chooses a retreat path, assume the first listed: fewest battalions lost
            r = self.resolve_ground(work, seat, n, src, dst, att, dfn, choose=lambda paths: paths[0])
            assumed = assumed or r["assumed"]
            aL = sum(v for k, v in r["a_lost"].items() if k != "leaders")
            dL = sum(v for k, v in r["d_lost"].items() if k != "leaders")
            note = []
            for rt in r["retreats"]:
                extra = sum(v for k, v in rt["lost"].items() if k != "leaders")
                if rt["side"] == seat:
                    aL += extra
                else:
                    dL += extra
                steps = len(rt["path"]) - 1
                who = "you" if rt["side"] == seat else "they"
                if steps:
                    note.append(f"{who} retreat {steps}")
                if extra:
                    note.append(f"{who} blocked")
            if r["advance"]:
                note.append("cleared")
            key = (aL, dL, ", ".join(note))
            final[key] = final.get(key, 0) + p
        return {"kind": "attack", "dice": (n, nd), "dice_losses": dice_losses, "final": final, "modifiers": why,
                "src": src, "dst": dst, "seat": seat, "bonus": (am, dm), "assumed_retreat": assumed}

    def odds(self, state: State, seat: str, text: str) -> str:
        t = self.odds_table(state, seat, text)
        src, dst = self._name(t["src"]), self._name(t["dst"])
        total = 6 ** sum(t["dice"])

        def frac(p: Fraction) -> str:  # over the number of dice combinations, unreduced
            return f"{p * total}/{total} ({float(p):.1%})"
        lines = []
        if t["kind"] == "fire":
            lines.append(f"**Ranged attack** {src} → {dst}: {_plural(t['dice'][0], 'die')}, a hit on each 6 "
                         "(no defence; no retreat).")
            for (_, h), p in sorted(t["dice_losses"].items()):
                lines.append(f"- they lose {h}: {frac(p)}")
        else:
            a, d = t["dice"]
            lines.append(f"**Ground attack** {src} → {dst}: {a} attacking {'die' if a == 1 else 'dice'} vs "
                         f"{d} defending.")
            lines.append("Dice (highest against highest, ties to the defender):")
            for (al, dl), p in sorted(t["dice_losses"].items()):
                lines.append(f"- you lose {al}, they lose {dl}: {frac(p)}")
            if len(t["final"]) != len(t["dice_losses"]) or any(k[2] for k in t["final"]):
                lines.append("With retreats (each Good 6, or Evil 6 with the Lord of the Nazgul, moves the other "
                             "force one Territory toward its end or costs a battalion if blocked):")
                items = sorted(t["final"].items(), key=lambda kv: (-kv[1], kv[0]))
                for (al, dl, note), p in items[:12]:
                    lines.append(f"- you lose {al}, they lose {dl}{'; ' + note if note else ''}: {frac(p)}")
                if len(items) > 12:
                    rest = sum(p for _, p in items[12:])
                    lines.append(f"- {len(items) - 12} rarer outcomes: {float(rest):.1%}")
                if t.get("assumed_retreat"):
                    lines.append("Assumed: where a retreating force's owner may choose between paths that lose "
                                 "different numbers of battalions, the path losing fewest (the first one offered).")
        lines.append("Modifiers: " + ("; ".join(t["modifiers"]) if t["modifiers"] else "none") + ".")
        out = "\n".join(lines)
        return out[:1790]

    # ------------------------------------------------------------------ views
    def phase_title(self, state: State) -> str:
        ph = {"die": "choose an Action die", "cards": "Reinforcement cards", "actions": "Actions"}[state["phase"]]
        extra = f", {_plural(state['actions'], 'Action point')} left" if state["phase"] == "actions" else ""
        rt = self._pending_retreat(state)
        if rt and not state["over"]:
            head = rt["queue"][0]
            opts = " or ".join(f"`retreat {' '.join(o)}`" for o in head["options"][:4])
            extra += (f"; {TITLES[head['side']]} chooses where the force in {self._name(head['area'])} retreats: "
                      f"{opts}" + (" ..." if len(head["options"]) > 4 else ""))
        return f"Round {state['round']}, turn {state['turn_in_round']} of 3: {TITLES[state['active']]}, {ph}{extra}"

    def view(self, state: State, seat: str | None) -> dict:
        own = seat if seat in SEATS else None
        areas = {}
        units = []
        for aid in self.board.ids:
            rec = state["areas"][aid]
            side = self._side_of(state, aid)
            areas[aid] = {"side": side, "units": dict(rec["u"]) if side else {},
                          "leaders": [{"id": x, "name": self._lname(x), "color": self.leader_color(x)}
                                      for x in rec["leaders"]],
                          "fired": state["fired"].get(aid, 0), "tower": aid in state["towers"]}
            for t, n in rec["u"].items():
                units.append({"id": f"{aid}:{CODES[t]}", "side": side, "type": t, "count": n, "hex": aid,
                              "area": aid})
            for x in rec["leaders"]:
                units.append({"id": x, "side": side, "type": "leader", "name": self._lname(x), "hex": aid,
                              "area": aid})
        hands = {}
        for s in SEATS:
            hands[s] = {
                "reinforcement": [dict(id=c, **self.reinforcement_cards[c]) for c in state["hands"][s]["reinf"]],
                "minas_tirith": [{"id": c, "name": self._mt(state, c)["name"], "kind": self._mt(state, c)["kind"],
                                  "on_card": dict(state["hosts"].get(c, {}))} for c in state["hands"][s]["mt"]],
            }
        pts = self.points(state)
        v = {
            "ruleset": self.name, "title": "LOTR Risk: Minas Tirith", "board": "area", "seat": own,
            "turn": state["turn"], "turns": "until the last Reinforcement card", "night": False,
            "round": state["round"], "turn_in_round": state["turn_in_round"], "roller": state["roller"],
            "phase": state["phase"], "phase_title": self.phase_title(state), "active": self.active_seats(state),
            "done": [], "action_dice": list(state["action_dice"]), "die": state["die"], "actions": state["actions"],
            "sides": {s: {"title": TITLES[s], "color": COLORS[s]} for s in SEATS},
            "areas": areas, "units": units, "hands": hands,
            "decks": {"reinforcement": len(state["hidden"]["reinf_deck"]),
                      "minas_tirith": len(state["hidden"]["mt_deck"])},
            "discards": {"reinforcement": list(state["reinf_discard"]), "minas_tirith": list(state["mt_discard"])},
            "lost": clone(state["lost"]), "gate_broken": state["gate_broken"], "towers": list(state["towers"]),
            "flags": dict(state["flags"]), "pending": clone(state["pending"]),
            # standing loss priorities are public (nothing here is secret); the seat's own one first
            "loss_priority": {s: [CODES[t] for t in self.loss_priority(state, s) if t in self.cards["forces"][s]]
                              for s in SEATS},
            "own_loss_priority": ([CODES[t] for t in self.loss_priority(state, own)
                                   if t in self.cards["forces"][own]] if own else None),
            "points": pts,
            "tracks": [{"name": "Good points", "side": "good", "points": pts["good"], "level": "-"},
                       {"name": "Evil points", "side": "evil", "points": pts["evil"], "level": "-"},
                       {"name": "Reinforcement cards left", "side": None,
                        "points": len(state["hidden"]["reinf_deck"]), "level": 66}]
            + [{"name": f"{TITLES[s]} loses first", "side": s,
                "points": " ".join(CODES[t] for t in self.loss_priority(state, s) if t in self.cards["forces"][s]),
                "level": "-"} for s in SEATS],
            "over": clone(state["over"]),
        }
        return v

    def secret_text(self, state: State, seat: str) -> str | None:
        return None  # hands are face up (seed, Draw Reinforcement cards); only the deck order is hidden

    def help(self, topic: str | None = None) -> str:
        return (
            "**LOTR Risk: Minas Tirith** (Hasbro 2003). Seats `good`, `evil`. Three turns a round; the rolling side "
            "alternates. Each turn: `take <die>` (actions and cards from the table), then card plays, `done`, "
            "then Actions, `done`.\n"
            "Cards: `exchange inf1 inf4 wild1` (three of a kind) [`special draw` | `special take <card>` | "
            "`special place inf at <area>`], `keep <card>`, `reinforce cav3 on theoden`, `play gandalf at city`.\n"
            "Actions: `move 2inf 1cav faramir from causeway to grond`, cavalry `move 3cav from a via b to c`, "
            "`attack 3 from fort-e at osgiliath-w`, `fire 2 from wall-n at pelennor-n`, `fire catapult from wall-gate "
            "at causeway`, `advance 2cav from a to b` (free), `enter theoden at druadan`, `trade mumak at x`, "
            "`ram grond`, `strike fell-beasts at x`, `done`.\n"
            "Losses: `losses inf arc cav` sets your standing loss priority (first lost first; types left out keep "
            "their order; `losses default` = cheapest first), at any time, even in the other side's turn; "
            "every loss follows it.\n"
            "Retreat: when more than one Territory toward your end qualifies, you are asked: `retreat <area> "
            "[<area> ...]`, the whole path, one area per 6 (the first area is enough when the rest follows).\n"
            "Types: inf arc cav hor(se archers) tro(ll) mum(ak). `/odds text:attack 3 from a at b` gives exact odds. "
            "Board and Minas Tirith cards are reconstructed: docs/risk-minas-tirith.md."
        )


RISK = RiskMinasTirith()
