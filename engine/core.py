"""The ruleset interface every game plugs into.

A game is a JSON-able ``state`` (a plain dict) plus the actions applied to it.
The engine is pure: no I/O, no clock, no global random. Dice come from a
stream kept in the state and derived from the game's secret seed
(HMAC-SHA256(seed, counter)); the counter only ever goes up, so a die once
drawn is never drawn again.

Outside the engine, a game is read only through ``Ruleset.view(state, seat)``
(``seat=None`` is the public view); the seed and every hidden fact stay in the
state and never reach a view they are not entitled to.
"""
from __future__ import annotations

import hashlib
import json
import marshal
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Protocol, Sequence

try:  # a dependency (clone); the engine still works without it
    import orjson as _orjson
except ImportError:  # pragma: no cover
    _orjson = None

State = dict[str, Any]


# --------------------------------------------------------------------------
# Errors: invalid (syntax) vs illegal (rules) vs ambiguous
# --------------------------------------------------------------------------
class OrderError(ValueError):
    """Base of every refused order. ``str(err)`` is a short text fit to show
    the player who sent it (it never carries hidden information)."""

    kind = "error"

    def __init__(self, message: str, section: str | None = None):
        super().__init__(message)
        self.message = message
        self.section = section

    def __str__(self) -> str:
        if self.section:
            return f"{self.message} (rule {self.section})"
        return self.message


class InvalidOrder(OrderError):
    """The text is not an order in this ruleset's notation."""

    kind = "invalid"


class IllegalOrder(OrderError):
    """A well-formed order that the rules forbid now. Carries the reason and
    the rule section."""

    kind = "illegal"


class AmbiguousOrder(OrderError):
    """The text fits more than one legal action."""

    kind = "ambiguous"

    def __init__(self, message: str, candidates: Sequence[str] = (), section: str | None = None):
        super().__init__(message, section)
        self.candidates = list(candidates)


# --------------------------------------------------------------------------
# Actions and events
# --------------------------------------------------------------------------
@dataclass(frozen=True)
class Action:
    """One parsed order. ``verb`` then positional ``args`` (unit ids, hexes,
    hexsides, keywords), exactly as the canonical notation prints them."""

    verb: str
    args: tuple[str, ...] = ()
    # what the check found that apply needs (a move's path and its cost), so that an order is searched
    # once; never part of the order's identity, text or log
    memo: dict = field(default_factory=dict, compare=False, hash=False, repr=False)

    def __str__(self) -> str:
        return " ".join((self.verb, *self.args))


@dataclass
class Event:
    """What an accepted action did. ``public`` is safe for the channel; each
    entry of ``private`` goes only to that seat's holders (by DM)."""

    public: str = ""
    private: dict[str, str] = field(default_factory=dict)
    section: str | None = None
    rolls: list[dict] = field(default_factory=list)
    new_phase: bool = False  # a phase began: post a map / take a snapshot
    reveals: bool = False  # something hidden became known (blocks a free undo, like a die roll)

    def to_json(self) -> dict:
        return {
            "public": self.public,
            "private": dict(self.private),
            "section": self.section,
            "rolls": list(self.rolls),
            "new_phase": self.new_phase,
            "reveals": self.reveals,
        }


@dataclass(frozen=True)
class Result:
    """The end of a game."""

    winner: str | None  # a seat, or None for a draw
    summary: str
    section: str | None = None
    short: str = ""     # the result in one short line, the winner first ("Westernesse wins: ... (20.1)")
    # issue 41: every winning seat where several win together (War of the Ring's), and the grade of victory
    # where the rules grade it (Field of Celebrant's "a Decisive Victory" ...); kept with the game's result
    winners: tuple[str, ...] = ()
    grade: str | None = None

    @property
    def sides(self) -> tuple[str, ...]:
        """The winning seats: ``winners``, else the one ``winner`` (none: a draw, or nobody wins)."""
        return tuple(self.winners) or ((self.winner,) if self.winner else ())

    @property
    def line(self) -> str:
        """The short line (the summary when a ruleset gives none): the header, status, caption, alt text."""
        return self.short or self.summary


# --------------------------------------------------------------------------
# The ruleset protocol
# --------------------------------------------------------------------------
class Ruleset(Protocol):
    name: str
    title: str
    seats: tuple[str, ...]

    def new_game(self, options: dict[str, str], seed: str, fixture: dict | None = None) -> State:
        """A fresh game. ``options`` are the public ``key=value`` pairs of
        ``/game new``; ``fixture`` lets a test or a group resuming a table game
        fix hidden facts that are otherwise drawn from the seed."""

    def active_seats(self, state: State) -> list[str]:
        """Seats that must act now (their part of the phase is not done)."""

    def legal_actions(self, state: State, seat: str) -> Iterator[Action]:
        """Lazily every complete legal action of ``seat`` now (feeds autocomplete)."""

    def parse(self, state: State, seat: str, text: str) -> Action:
        """Parse order text into a legal action, or raise Invalid/Illegal/AmbiguousOrder: the action
        returned has passed ``check`` on this state, and ``Game.play`` applies it without checking
        again (one check per order)."""

    def format(self, action: Action) -> str:
        """Canonical notation; ``parse(format(a)) == a`` for a legal ``a``."""

    def check(self, state: State, seat: str, action: Action) -> None:
        """Raise IllegalOrder (reason + section) if ``action`` is not legal now."""

    def apply(self, state: State, seat: str, action: Action) -> list[Event]:
        """Mutate ``state`` by a checked action, drawing dice only from its stream."""

    def view(self, state: State, seat: str | None) -> dict:
        """What ``seat`` may see (``None``: the public). The only read path."""

    def secret_text(self, state: State, seat: str) -> str | None:
        """The seat's hidden information as a short text, for DM and /secret."""

    def public_order_text(self, text: str) -> str:
        """How an accepted order's canonical ``text`` reads in public (the
        channel, the log, an export before the game is over). Normally the text
        itself; a ruleset with secret orders (Gondor's oil, 16.74) masks them."""

    def upgrade_state(self, state: State) -> None:
        """Bring a state stored by an earlier release to this code's layout, in place."""

    def brief_order_text(self, text: str) -> str:
        """An order's public text as the channel's echo of it reads (a move logged with its whole
        path: the units and the destination)."""

    def result(self, state: State) -> Result | None:
        """The game's result once it is over, else None."""

    def help(self, topic: str | None = None) -> str:
        """How to play this ruleset here."""


class RulesetBase:
    """What every ruleset can be asked, with the default answer: the application calls these and
    never probes a ruleset for an attribute. A game overrides what it does differently."""

    name: str = ""
    title: str = ""
    seats: tuple[str, ...] = ()
    optional_seats: tuple[str, ...] = ()  # seats a game may start without (the moderator's ``gm``)
    mode: str = "enforced"  # the level of play (engine/modes wraps a ruleset for another)
    default_mode: str | None = None  # the level of play `/game new` picks when none is asked (None: unwrapped)
    turn_order: tuple[str, ...] = ()  # a fixed player-turn order, if the game declares one (3-5 seats)
    board_kind: str = "hex"  # "hex" or "area": which ``Board`` the game has
    has_odds: bool = False  # ``odds`` answers (else /odds says it is not available)
    takes_charts: bool = False  # ``check_charts`` accepts a group's chart file
    # some of the game's information reaches one seat only (``secret_text``, private events): the
    # bot checks at join that it can reach the seat's holder privately (issue 25)
    hidden_information: bool = False
    # what the tests that cover every game read of it (issue 43: no list of games in a test): two
    # ``new_game`` fixtures that differ only in a hidden fact (a game with hidden information declares
    # them; the secrecy tests play one game from each and compare what the public reads), and the
    # scripted whole game the golden test plays through the console, (file in tests/scripts, seed; none:
    # the game is still played at random by the golden, autopilot and fuzz tests)
    secret_twins: tuple[dict, dict] | None = None
    golden_script: tuple[str, str] | None = None
    # the game's options, declared as data (a tuple of ``engine.options.Option``; issue 39): every
    # `/game new options:` key is read by that one typed reader, and refused naming this game's own list
    options: tuple = ()
    hexmap = None  # a hex game's map (``engine.maps.HexMap``)
    board = None  # an area game's board (with ``areas``)

    def game_turn_order(self, state: State) -> tuple[str, ...]:
        """The player-turn order of this game (tabletop play follows it): ``turn_order`` unless the game's
        options change it (War of the Ring's four-player game has no Rohan turn)."""
        return self.turn_order

    def rules_in_force(self, state: State) -> list[str]:
        """Issue 42: the scenario, variant, errata and every option that changes this game's rules, each a
        few plain words ("the original leader rules", "no errata"), for `/help`, `/game status` and the
        map's header. Nothing: the rules as the game prints them."""
        return []

    def help_topics(self) -> tuple[str, ...]:
        """The `/help topic:` names this game answers (autocompleted), beyond its general help."""
        return ("orders", "phases", "setup", "secrets")

    def game_board(self):
        """The board as the application needs it (``engine.board``): parse and offer places, and
        what the renderer draws from."""
        from engine.board import AreaBoard, HexBoard

        if self.board_kind == "area":
            return AreaBoard(self.board)
        return HexBoard(self.hexmap)

    def parse_around(self, text: str) -> str:
        """The canonical place for ``/game map around:`` (ValueError with a short reason)."""
        return self.game_board().parse_place(text)

    def around_choices(self, prefix: str, public_view: dict) -> list[tuple[str, str]]:
        """Up to 25 (label, value) places for ``/game map around:`` autocomplete."""
        return self.game_board().place_choices(prefix, public_view)

    def legal_actions_matching(self, state: State, seat: str, words: list[str]) -> Iterator["Action"]:
        """The legal actions of ``seat`` that the words typed so far (lower case; the first a verb
        once a second word follows) can still match, in ``legal_actions``' order: a superset of the
        matches, never materializing what the words rule out. The default lists them all."""
        return self.legal_actions(state, seat)

    def phase_key(self, state: State) -> str:
        """A key that changes exactly when the phase does (a deadline's clock restarts with it). The
        default reads three fields of the public view; a game may read them from its state directly,
        cheaper, as long as the key is the same."""
        v = self.view(state, None)
        return json.dumps([v.get("turn"), v.get("phase"), v.get("phase_title")])

    def public_order_text(self, text: str) -> str:
        """How an accepted order's canonical ``text`` reads in public: the text itself unless the
        game has secret orders (Gondor's oil, 16.74)."""
        return text

    def upgrade_state(self, state: State) -> None:
        """A state stored by an earlier release of this ruleset (an older ``version``) brought to the
        layout this code reads, in place, keeping the rules the game began with (its log must replay as
        it was played). Called on every state a ``Game`` is made from; nothing to do by default."""

    def brief_order_text(self, text: str) -> str:
        """An accepted order's (public) text as its echo in the channel reads: the text itself,
        unless the log keeps more than the player needs to read there (a move's whole path: the
        event that follows names the way)."""
        return text

    def work_copy(self, state: State, action: "Action") -> State:
        """The copy of ``state`` that ``apply`` of ``action`` works on (``Game.play``): the whole state, unless
        the ruleset knows the action changes only some of its top-level parts (``copy_parts``)."""
        return clone(state)

    def deadline_action(self, state: State, seat: str) -> "Action | None":
        """What a seat does when its deadline passes and the rules refuse ``done`` (None: nag)."""
        return None

    def autopilot_action(self, state: State, seat: str) -> "Action | None":
        """The seat's safe default when nobody plays it (issue 28): by default what a deadline does."""
        return self.deadline_action(state, seat)

    def forced_action(self, state: State, seat: str) -> "Action | None":
        """The seat's only legal action, if it has exactly one (issue 28, `/me autoplay`)."""
        found = iter_limit(self.legal_actions(state, seat), 2)
        return found[0] if len(found) == 1 else None

    def odds(self, state: State, seat: str, text: str) -> str:
        raise NotImplementedError(f"{self.title} has no odds")

    def answer_buttons(self, state: State, seat: str, action: "Action") -> list[tuple[str, str, str]]:
        """Buttons under the notice of ``action`` (just applied; ``state`` is after it) that let another
        seat answer it: (answering seat, order text, label) each; the bot plays the order from that seat
        when its holder clicks (Sauron 22.3: Accept / Decline a challenge to Mortal Combat). Default: none."""
        return []

    def check_charts(self, text: str):
        raise ValueError(f"{self.name} takes no chart file")

    def full_view(self, state: State, views: dict | None = None) -> dict:
        """Everything revealed (a finished game's replay): the public view with each seat's own
        knowledge merged in. ``views``: this state's views already taken, by seat (None: the public
        one), not taken again (a game's record takes them for its pages anyway)."""
        from engine.board import merged_view

        views = views or {}
        return merged_view((views[s] if s in views else self.view(state, s) for s in self.seats),
                           views[None] if None in views else self.view(state, None))

    def secret_text(self, state: State, seat: str) -> str | None:
        return None

    def moderator_secret_text(self, state: State) -> str | None:
        """What the moderator's ``gm`` seat reads of every seat's hidden information, where the game words it
        itself (each fact once: issue 39); None: each seat's ``secret_text`` under its name
        (``engine/modes/common.py: every_seats_secrets``)."""
        return None

    def adjust(self, state: State, unit: str, to: str | None) -> str:
        """The moderator's adjustment of one of the game's own units (engine/modes: `move <unit> <place>`,
        `remove <unit>`): to a canonical place, or off the map (``to`` None). Returns what the public
        reads; IllegalOrder where the game does not allow it (the default)."""
        raise IllegalOrder(f"{self.title} has no adjustment of its own units here; the table's pieces move freely")

    def apply_overriding(self, state: State, seat: str, text: str) -> "list[Event] | None":
        """A declared order the rules refused, accepted by a ruling (engine/modes/proposals.py, assist
        play): ``text`` parsed and applied to ``state`` with the rule check set aside, its events
        returned; None where the ruleset cannot (the default: the moderator then carries it out by
        hand). Deterministic: the same state and text give the same result on every replay."""
        return None

    def replaceable_seats(self, state: State) -> list[str]:
        """Seats the players voted to hand to someone else (engine/modes/votes.py); none by default."""
        return []

    def whispers(self, state: State) -> str:
        """The game's private-talk policy, ``on``, ``public-only`` or ``off`` (a game made without a
        level of play has no table: off)."""
        return "off"


# --------------------------------------------------------------------------
# Game: a ruleset plus its state, python-chess style
# --------------------------------------------------------------------------
def clone(state: State) -> State:
    """A deep copy of a JSON-able state: a JSON round trip by ``orjson`` (about 45 µs for a Gondor game's
    state, against 65 µs by ``marshal`` and about 200 by the standard library's ``json``: an order copies
    the state once, issue 25). Both copy dicts, lists, strings and numbers exactly as JSON would, as long
    as a state holds no tuple and no key that is not a string (tests/e2e/test_golden.py checks it at every
    position it plays). ``marshal`` where orjson is absent or refuses (an integer past 64 bits, a lone
    surrogate: none reaches a state, text being made valid where it comes in, ``bot/transports/inbound.py``;
    figures of issue 39 in ``benchmarks/bench_json.py``)."""
    if _orjson is not None:
        try:
            return _orjson.loads(_orjson.dumps(state))
        except TypeError:  # (orjson.JSONEncodeError): marshal copies what JSON could not hold, as it is
            pass
    return marshal.loads(marshal.dumps(state))


def copy_parts(state: State, keys: Iterable[str]) -> State:
    """A new top-level state whose parts ``keys`` are copies and whose other parts are the very objects of
    ``state`` (issue 25: a tabletop `roll` copied a whole Gondor position, a tenth of an order's CPU, to
    change the dice and the table). Sound because a state that became a game's state is never changed in
    place (``Game.play`` works on this copy; ``redo`` plays only a game rebuilt from storage, new objects):
    the shared parts are read, never written. An order's ``touches`` names the parts its apply writes
    (tests/rulesets/modes/test_modes.py checks it against a whole copy)."""
    out = dict(state)
    for k in keys:
        if k in out:
            out[k] = clone(out[k])
    return out


def json_shaped(x) -> bool:
    """True if ``x`` is what JSON gives back: dicts with string keys, lists, strings, numbers,
    booleans and None (what ``clone`` needs of a state)."""
    if x is None or isinstance(x, (str, int, float)):
        return True
    if isinstance(x, list):
        return all(json_shaped(v) for v in x)
    if isinstance(x, dict):
        return all(isinstance(k, str) and json_shaped(v) for k, v in x.items())
    return False


def state_digest(state: State) -> str:
    return hashlib.sha256(json.dumps(state, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


class Game:
    def __init__(self, ruleset: Ruleset, state: State):
        if isinstance(ruleset, str):
            raise TypeError("Game takes a ruleset object: engine.rulesets.get_ruleset(name)")
        if state is not None:  # (None: a game not begun, which the lobby's moderator may look at)
            ruleset.upgrade_state(state)  # a game stored by an earlier release
        self.ruleset = ruleset
        self.state = state

    @classmethod
    def new(cls, ruleset: Ruleset, options: dict[str, str] | None = None, seed: str = "0",
            fixture: dict | None = None) -> "Game":
        return cls(ruleset, ruleset.new_game(dict(options or {}), seed, fixture))

    def legal_actions(self, seat: str) -> Iterator[Action]:
        return self.ruleset.legal_actions(self.state, seat)

    def legal_texts(self, seat: str, prefix: str = "", limit: int | None = None,
                    stop: "Callable[[], bool] | None" = None) -> list[str]:
        """The canonical texts of ``seat``'s legal actions matching ``prefix`` (a start, or a part),
        at most ``limit``. ``stop`` (the caller's budget: the engine reads no clock) is asked every
        64 actions generated; when it says so, what was found so far is returned."""
        out: list[str] = []
        p = prefix.strip().lower()
        # only what the words typed can still match: a ruleset prunes by verb, then by unit
        actions = self.ruleset.legal_actions_matching(self.state, seat, p.split())
        for n, a in enumerate(actions, 1):
            if stop is not None and n % 64 == 0 and stop():
                break
            t = self.ruleset.format(a)
            if not p or t.lower().startswith(p) or p in t.lower():
                out.append(t)
                if limit is not None and len(out) >= limit:
                    break
        return out

    def parse(self, seat: str, text: str) -> Action:
        return self.ruleset.parse(self.state, seat, text)

    def play(self, seat: str, text: str) -> tuple[Action, list[Event]]:
        """Parse, check and apply on a copy; the live state changes only if
        everything succeeded (a refused order changes nothing, dice included)."""
        action = self.parse(seat, text)  # parsed and checked against this very state (the protocol)
        work = self.ruleset.work_copy(self.state, action)
        events = self.ruleset.apply(work, seat, action)
        self.state = work
        return action, events

    def redo(self, seat: str, text: str) -> tuple[Action, list[Event]]:
        """An order from the game's own log played again (a rebuild from a snapshot, an undo's
        replay): parsed and checked as ``play`` does, then applied to the live state in place, with
        no copy. The log held only accepted orders, so a failure here is an error, not a refusal:
        the game it leaves is not to be used (callers raise)."""
        action = self.parse(seat, text)
        return action, self.ruleset.apply(self.state, seat, action)

    def view(self, seat: str | None) -> dict:
        return self.dress(self.ruleset.view(self.state, seat))

    def dress(self, v: dict) -> dict:
        """The ruleset's view ``v`` of this game's state as its map shows it: with the result and the rules
        in force."""
        res = self.ruleset.result(self.state) if isinstance(v, dict) and v.get("over") else None
        if res is not None:  # the result in one line, the winner first, for the map's header
            v = {**v, "result": res.line, "winner": res.winner}
        rules = self.ruleset.rules_in_force(self.state)
        if rules and isinstance(v, dict):  # the rules in force, on the map's header (issue 42)
            v = {**v, "rules": "Rules: " + "; ".join(rules)}
        return v

    def result(self) -> Result | None:
        return self.ruleset.result(self.state)

    def active_seats(self) -> list[str]:
        return self.ruleset.active_seats(self.state)

    def dice_drawn(self) -> int:
        """How many dice the game has drawn from its stream (public: the log
        records it around every order, so a replay can be checked)."""
        return self.state["dice"]["counter"]


def iter_limit(it: Iterable, n: int) -> list:
    out = []
    for x in it:
        out.append(x)
        if len(out) >= n:
            break
    return out
