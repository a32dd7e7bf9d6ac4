"""What every concern of the table shares: the table's action, the table's own state, names. Each verb of
the table is an ``engine.orders.Order`` in its concern's ``VERBS`` (``dice=False``: each rolls its own)."""
from __future__ import annotations

import re
from engine.core import Action, IllegalOrder, InvalidOrder

ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,15}$")
MAX_TEXT = 300  # free text in an order (a whisper, a pact, a reason, a declared action)


def table_action(verb: str, args) -> Action:
    """A table action: marked so that ``apply`` and ``format`` know it from the inner game's own
    action of the same verb (the mark is no part of its identity or text)."""
    return Action(verb, tuple(args), memo={"table": True})


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


def every_seats_secrets(inner, state) -> list[str]:
    """What the moderator reads of the seats' hidden information: the game's own wording of it
    (``RulesetBase.moderator_secret_text``: War of the Ring says a fact two seats share once, issue 39), else
    each seat's ``secret_text`` under its name. The lobby's moderator (engine/modes/gm.py) and the table's
    (engine/modes/table.py) alike."""
    own = inner.moderator_secret_text(state)
    if own is not None:
        return [own] if own else []
    return [f"{title(s)}: {t}" for s in inner.seats if (t := inner.secret_text(state, s))]


def refuse(message: str) -> IllegalOrder:
    return IllegalOrder(message)
