"""Walking a game's log from its first state: orders are played, an ``undo``
row restores the state from before the action it takes back, with the dice
counter left where it was (dice already drawn stay burned). Used by the
service (verification, replays), by ``palantir verify`` and by the tests."""
from __future__ import annotations

from typing import Iterable, Iterator

from engine.core import Event, Game, Ruleset, clone
from engine.rulesets import get_ruleset


class HistoryError(ValueError):
    pass


def walk(ruleset: Ruleset | str, initial: dict, entries: Iterable[dict]) -> Iterator[tuple[dict, Game, list[Event]]]:
    """Each entry: ``seq``, ``seat``, ``kind`` ('order' or 'undo'), ``text``, ``ref_seq``,
    ``dice_before``, ``dice_after``. Yields ``(entry, game, events)`` after applying it.
    Raises HistoryError when a dice counter or an undo does not fit.

    The orders are played in place (``Game.redo``): the game yielded is one object whose state
    moves on, so a caller that keeps something of a position (a replay's frame) copies it. Only
    the state before an order that an undo row takes back is copied, to return to."""
    entries = list(entries)
    taken_back = {e.get("ref_seq") for e in entries if e.get("kind", "order") == "undo"}
    game = Game(get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset, clone(initial))
    stack: list[tuple[int, dict | None]] = []  # (seq, state before it, if an undo returns there) of every order in effect
    for e in entries:
        if game.dice_drawn() != e["dice_before"]:
            raise HistoryError(f"#{e['seq']}: {game.dice_drawn()} dice drawn before it, the log says {e['dice_before']}")
        if e.get("kind", "order") == "undo":
            ref = e.get("ref_seq")
            if not stack or stack[-1][0] != ref:
                raise HistoryError(f"#{e['seq']} takes back #{ref}, which is not the last action in effect")
            _, before = stack.pop()
            state = clone(before)
            state["dice"]["counter"] = e["dice_after"]  # burned dice stay burned
            if e["dice_after"] < e["dice_before"]:
                raise HistoryError(f"#{e['seq']}: the dice counter went back")
            game.state = state
            events: list[Event] = []
        else:
            before = clone(game.state) if e["seq"] in taken_back else None
            _, events = game.redo(e["seat"], e["text"])
            if game.dice_drawn() != e["dice_after"]:
                raise HistoryError(f"#{e['seq']}: {game.dice_drawn()} dice drawn after it, the log says {e['dice_after']}")
            stack.append((e["seq"], before))
        yield e, game, events


def entry_of(a) -> dict:
    """An ``ActionRow`` as a walk entry."""
    return {"seq": a.seq, "seat": a.seat, "kind": getattr(a, "kind", "order"), "text": a.text,
            "ref_seq": getattr(a, "ref_seq", None), "dice_before": a.dice_before, "dice_after": a.dice_after}


def is_blocking(events: list[dict]) -> str | None:
    """Why an action cannot be taken back freely: a die was rolled, something hidden was
    revealed, or it ended the phase. None if it can."""
    if any(e.get("rolls") for e in events):
        return "dice were rolled"
    if any(e.get("private") or e.get("reveals") for e in events):
        return "something hidden was revealed"
    if any(e.get("new_phase") for e in events):
        return "it ended the phase"
    return None
