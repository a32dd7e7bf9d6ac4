"""An order, in one record, for every game: its verb, how it is typed, the rule cases it applies, and
the functions that parse, check, list and apply it (python-chess keeps a move's notation and legality
together; boardgame.io's long-form moves carry flags the framework reads; this is both). The record
holds the functions themselves, never their names: a reader (or a tool) follows an order from its
text to its rules by following the record's fields.

Every game lists its orders as a tuple of ``Order`` (``ORDERS`` in the Standard Rules games, Risk and War
of the Ring; each concern's ``VERBS`` at the table, engine/modes) and dispatches through the functions
below, the one dispatcher every game shares. A game that changes a standard
order gives its own record (``dataclasses.replace(FIRE, check=...)``) in its table; a record with the
verb of an earlier one replaces it in place (``order_table``).

One signature for every game (``rs`` is the ruleset object, ``args`` the action's arguments):
- ``parse(rs, state, seat, words) -> tuple[str, ...]``: the words after the verb, to the action's
  canonical arguments (``InvalidOrder`` for bad syntax, with the usage; ``IllegalOrder`` where the
  words name what the rules forbid);
- ``check(rs, state, seat, args)``: ``IllegalOrder`` with the section if the rules forbid it (``None``:
  the parse checks everything, as War of the Ring's and the table's orders do);
- ``legal(rs, state, seat) -> Iterator[Action]``: the order's legal actions now, lazily, what
  autocomplete and a random player offer; ``None`` only with ``unlisted``, which says why (free text,
  a choice offered by a pending decision, a standing order typed at any time);
- ``listed_in(rs, state, seat) -> Iterator[Action]``: instead of ``legal``, a pass that lists several
  orders' actions together, in the order a game offers them (Gondor's Siege Phase: each catapult's
  breaches, fireballs and heads in one sweep), which the game runs in its own place (its
  ``LEGAL_EXTRA``, engine/spi/hooks.py); the record's ``legal`` is then that pass kept to its verb,
  and ``legal_orders`` does not list the order a second time;
- ``apply(rs, state, seat, args, dice) -> list[Event]``: ``dice`` is a ``Dice`` on the state's stream
  when ``dice`` is true (the game shows what it rolled on its events), ``None`` when the order rolls
  its own dice and shows them where its events say;
- ``redact(words) -> str | None``: what the public reads instead of the order's text (a secret
  standing order, Gondor 16.74; a hidden piece at the table); ``None``: the text itself. The seat
  itself and the moderator see the order as typed;
- ``undoable``: False for an order whose seat may never take it back alone, whatever its events show
  (every order of the five games may be, subject to the bot's rule on rolls and reveals).
The table's verbs (engine/modes) also say in which ``modes`` they exist and whether they are the
tabletop ``vocabulary`` (the seat to act or the moderator only)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator

from engine.core import Action, Event, State

ALL_MODES = ("enforced", "assist", "tabletop")


@dataclass(frozen=True)
class Order:
    verb: str
    usage: str
    parse: Callable[..., tuple]
    apply: Callable[..., list]
    check: Callable[..., None] | None = None
    legal: Callable[..., Iterator[Action]] | None = None
    unlisted: str = ""
    cases: tuple[str, ...] = ()
    dice: bool = True
    redact: Callable[[tuple[str, ...]], str | None] | None = None
    undoable: bool = True
    modes: tuple[str, ...] = ALL_MODES
    vocabulary: bool = False
    listed_in: Callable[..., Iterator[Action]] | None = None
    # the state's top-level parts its apply may write (``engine.core.copy_parts``); None: any, so the
    # order works on a copy of the whole state
    touches: tuple[str, ...] | None = None

    def __post_init__(self):
        if self.listed_in is not None and self.legal is None:
            object.__setattr__(self, "legal", kept_to(self.listed_in, self.verb))
        if self.legal is None and not self.unlisted:
            raise ValueError(f"order `{self.verb}`: give its legal actions, or say in `unlisted` why it has none")


def secret(text: str) -> Callable[[tuple[str, ...]], str]:
    """A ``redact`` that always shows the same text (a secret order whatever its words)."""
    return lambda words: text


def listed_by_turn(verb: str) -> Callable[..., Iterator[Action]]:
    """An order's legal actions for a game that lists its orders' actions together, in one pass over
    the phase, the hand and the board (Risk, War of the Ring: ``legal_actions``, whose order is the
    one autocomplete and a random player see): that list, kept to the order's verb."""
    def legal(rs, state: State, seat: str) -> Iterator[Action]:
        return (a for a in rs.legal_actions(state, seat) if a.verb == verb)
    legal.__qualname__ = legal.__name__ = f"legal_{verb.replace('-', '_')}"
    return legal


def kept_to(listing: Callable[..., Iterator[Action]], verb: str) -> Callable[..., Iterator[Action]]:
    """A pass over several orders' legal actions (``listing(rs, state, seat)``), kept to one verb."""
    def legal(rs, state: State, seat: str) -> Iterator[Action]:
        return (a for a in listing(rs, state, seat) if a.verb == verb)
    legal.__qualname__ = legal.__name__ = f"legal_{verb.replace('-', '_')}"
    legal.listing = listing
    return legal


def order_table(orders: tuple[Order, ...]) -> dict[str, Order]:
    """Verb -> order, in the order given; a later record with the same verb replaces the earlier one
    in its place."""
    table: dict[str, Order] = {}
    for o in orders:
        table[o.verb] = o
    return table


# ---------------------------------------------------------------------------- the dispatcher
def parse_order(order: Order, rs, state: State, seat: str, words: list[str]) -> Action:
    """The words after the verb, to the order's action."""
    return Action(order.verb, tuple(order.parse(rs, state, seat, words)))


def check_order(order: Order, rs, state: State, seat: str, action: Action) -> None:
    if order.check is not None:
        order.check(rs, state, seat, action.args)


def apply_order(order: Order, rs, state: State, seat: str, action: Action, dice) -> list[Event]:
    return order.apply(rs, state, seat, action.args, dice)


def legal_of(order: Order, rs, state: State, seat: str) -> Iterator[Action]:
    """The order's legal actions (none for an order its record says is never listed)."""
    if order.legal is not None:
        yield from order.legal(rs, state, seat)


def legal_orders(orders: dict[str, Order], rs, state: State, seat: str) -> Iterator[Action]:
    """Every order's legal actions, in the table's order (those a pass of the game lists, ``listed_in``,
    are left to it)."""
    for order in orders.values():
        if order.legal is not None and order.listed_in is None:
            yield from order.legal(rs, state, seat)


def public_text(orders: dict[str, Order], text: str) -> str | None:
    """What the public reads of an order's text: its record's ``redact``, or None (the text itself)."""
    words = text.split(" ")
    order = orders.get(words[0]) if words else None
    if order is None or order.redact is None:
        return None
    return order.redact(tuple(words[1:]))
