"""What every concern of the table shares: the verb record, the table's own state, names."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from engine.core import IllegalOrder, InvalidOrder

ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,15}$")
MAX_TEXT = 300  # free text in an order (a whisper, a pact, a reason, a declared action)


@dataclass(frozen=True)
class Verb:
    """One verb of the table's vocabulary.

    ``parse(rs, st, seat, words) -> tuple[str, ...]``: the canonical args (checked: it raises
    InvalidOrder / IllegalOrder, and never names a thing the seat may not see);
    ``apply(rs, st, seat, args) -> list[Event]``; ``redact(args) -> str | None``: what the public
    reads instead of the order's text (None: the text itself); ``modes``: where the verb exists;
    ``usage``: the help line."""

    verb: str
    usage: str
    parse: Callable
    apply: Callable
    modes: tuple[str, ...] = ("enforced", "assist", "tabletop")
    redact: Callable | None = None
    vocabulary: bool = False  # a tabletop verb: the seat to act (or the moderator) only


def table(st: dict) -> dict:
    return st["table"]


def is_gm(seat: str) -> bool:
    return seat == "gm"


def need_id(word: str, what: str = "id") -> str:
    if not ID_RE.match(word):
        raise InvalidOrder(f"`{word[:20]}` is not a valid {what} (letters, digits, - and _, 16 at most)")
    return word


def free_text(words: list[str], what: str = "text") -> str:
    text = " ".join(words).strip()
    if not text:
        raise InvalidOrder(f"the {what} is missing")
    if len(text) > MAX_TEXT:
        raise InvalidOrder(f"the {what} is too long ({MAX_TEXT} characters at most)")
    return text


def split_reason(words: list[str]) -> tuple[list[str], str | None]:
    """``... because <reason>`` -> (the words before, the reason)."""
    if "because" in words:
        i = words.index("because")
        return words[:i], free_text(words[i + 1:], "reason")
    return words, None


def with_reason(args: tuple[str, ...], reason: str | None) -> tuple[str, ...]:
    return args + ("because", reason) if reason else args


def parse_seat(rs, word: str, *, gm_ok: bool = False) -> str:
    s = word.strip().lower()
    if s in rs.inner.seats or (gm_ok and s == "gm"):
        return s
    raise InvalidOrder(f"`{word[:20]}` is not a seat here. Seats: {', '.join(rs.inner.seats)}")


def title(seat: str | None) -> str:
    return "Moderator" if seat == "gm" else (seat or "nobody").replace("-", " ").title()


def refuse(message: str) -> IllegalOrder:
    return IllegalOrder(message)
