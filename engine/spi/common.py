"""Small text helpers the Standard Rules files share."""
from __future__ import annotations

import re
from fractions import Fraction

from engine.core import IllegalOrder, InvalidOrder
from engine.hexgrid import Hex, HexError

MAX_ORDER_LEN = 200  # characters in one order, typed or as the log keeps it
_HEX = re.compile(r"^\d{4}$")


def _phrase(items: list[str]) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def passes(check, *args) -> bool:
    """Whether ``check(*args)`` allows it (raises no IllegalOrder): a listing asking an order's check, or one
    part of it, without its reason."""
    try:
        check(*args)
        return True
    except IllegalOrder:
        return False


def pct(f: Fraction) -> str:
    return f"{float(f) * 100:.1f}%"


def _hex_token(t: str) -> str:
    try:
        return str(Hex.parse(t))
    except HexError as e:
        raise InvalidOrder(str(e)) from None

