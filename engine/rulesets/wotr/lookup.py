"""What every part of War of the Ring (seed:001) looks up the same way: what an order's words name (a
character, a hex of the game's map: the reconstructed one or the group's own, ``charts=``) and the refusal
of words that do not parse (the order's usage); whose a unit is; whether a seat knows a hidden character's
hex (Hidden Movement); and the order of play, whose player turn it is and the phase's title (Sequence of
Play)."""
from __future__ import annotations

from engine.core import InvalidOrder
from engine.rulesets.wotr.board import Board
from engine.rulesets.wotr.common import S_SEQ, nation_seat, order, refuse, title


def _usage(rs, verb) -> InvalidOrder:
    return InvalidOrder(f"usage: `{rs.orders[verb].usage}`")


def _char(rs, st, word) -> str:
    w = word.lower()
    if w in st["chars"]:
        return w
    cands = [c for c, d in st["chars"].items() if c.startswith(w) or d["name"].lower() == w]
    if len(cands) == 1:
        return cands[0]
    raise InvalidOrder(f"no character `{word[:20]}`")


def _bd(rs, st) -> Board:
    """The game's map: the reconstructed one, or the group's own (`charts=`, a file with a map)."""
    m = st.get("map")
    if not m:
        return rs.board
    return Board.from_text(m if isinstance(m, str) else st["group"])


def _hex(rs, st, word) -> str:
    try:
        return _bd(rs, st).hex(word)
    except ValueError as e:
        raise InvalidOrder(str(e)) from None


def _unit_seat(rs, st, uid) -> str:
    return nation_seat(st, st["units"][uid]["nation"])


PHASE_TITLES = {"ring": "Ring Phase", "events": "Events Phase", "search": "Search Phase", "turn": "player turn"}


def _seat_order(rs, st) -> tuple[str, ...]:
    return order(st)


def _acting_order(rs, st) -> list[str]:
    """The order without a seat that has nothing to do: Gondor once eliminated in the five-player game
        (DD.1; in the four-player game its seat still moves Rohan's units)."""
    return [s for s in order(st) if not (s == "gondor" and st["gondor_out"] and st["players"] == 5)]


def _turn_of(rs, st, seat, what="that") -> None:
    if st["phase"] != "turn" or seat not in rs.active_seats(st):
        raise refuse(f"{what} is done in your own player turn; now: {_phase_title(rs, st)}", S_SEQ)


def _phase_title(rs, st) -> str:
    if st["over"]:
        return "The game is over"
    ph = st["phase"]
    act = rs.active_seats(st)
    if ph in ("events", "turn") and act:
        what = "draws an Event Card" if ph == "events" else "player turn"
        return f"Turn {st['turn']}: {PHASE_TITLES[ph]}, {title(act[0])} {what}"
    return f"Turn {st['turn']}: {PHASE_TITLES[ph]}"


def _sees_char(rs, st, seat, cid) -> bool:
    """Does ``seat`` know this character's true hex?"""
    c = st["chars"][cid]
    if not c["hidden"] or seat == "gm":
        return True
    if seat == "fellowship" and c["seat"] == "fellowship":
        return True  # (not a Boromir who seized the Ring and left, AA.2: Gondor's hidden character now)
    if seat == "gondor" and cid == "boromir":
        return True
    return seat in c["spotted"]
