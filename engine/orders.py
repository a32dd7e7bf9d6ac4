"""An order of a ruleset, in one record: its verb, the rule cases it applies, how it is typed, and the
methods that parse, check, list and apply it (python-chess keeps a move's notation and legality
together; boardgame.io's long-form moves carry flags the framework reads; this is both).

A ruleset lists its orders in ``ORDERS`` (a tuple of ``Order``); the Standard Rules' dispatch
(``engine/spi/standard.py``) finds an order by its verb there and calls the named methods, so a game
that subclasses the rules and overrides one of them changes that order and nothing else. A game adds
an order by appending its record; an order with the verb of an earlier one replaces it in place.

The methods, by name on the ruleset object:
- ``parse(state, seat, words) -> Action``: the words after the verb, to an action (``InvalidOrder`` for
  bad syntax, with the usage);
- ``check(state, seat, *args)``: ``IllegalOrder`` with the section if the rules forbid it;
- ``legal(state, seat) -> Iterator[Action]``: the order's legal actions now, lazily (``None``: the
  order is only ever typed, or offered by a pending decision);
- ``apply(state, seat, dice, *args) -> list[Event]`` when ``dice`` is true (the dispatcher hands it the
  state's dice stream and shows what it rolled on the first event); ``apply(state, seat, *args)`` when
  false (the order rolls its own dice and shows them where its events say).
``redact``: what the public reads instead of the order's text (a secret standing order, Gondor 16.74);
the seat itself and the moderator see the order as typed.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Order:
    verb: str
    cases: tuple[str, ...]
    usage: str
    parse: str
    check: str
    apply: str
    legal: str | None = None
    dice: bool = True
    redact: str | None = None


def order_table(orders: tuple[Order, ...]) -> dict[str, Order]:
    """Verb -> order, in the order given; a later record with the same verb replaces the earlier one
    in its place."""
    table: dict[str, Order] = {}
    for o in orders:
        table[o.verb] = o
    return table
