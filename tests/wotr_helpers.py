"""Helpers for War of the Ring's tests: a game at a given point of the sequence, and orders played."""
from __future__ import annotations

from engine.core import Game
from engine.rulesets import get_ruleset

RS = get_ruleset("wotr")


def new(players=5, seed="w", **opts) -> Game:
    o = {"players": str(players), **{k: str(v) for k, v in opts.items() if k != "fixture"}}
    return Game.new(RS, o, seed, fixture=opts.get("fixture"))


def play(g: Game, seat: str, text: str):
    return g.play(seat, text)


def to_phase(g: Game, phase: str, seat: str | None = None) -> Game:
    """Play `done` (and `draw none`) until ``phase`` (and, for a player turn, ``seat``'s) comes."""
    for _ in range(200):
        st = g.state
        if st["phase"] == phase and (seat is None or seat in g.active_seats()):
            return g
        s = g.active_seats()[0]
        g.play(s, "draw none" if st["phase"] == "events" else "done")
    raise AssertionError(f"never reached {phase} {seat}")


def put(g: Game, cid: str, hx: str) -> None:
    """Place a character directly (a test's set-up, as a moderator would)."""
    g.state["chars"][cid]["hex"] = hx


def texts(events) -> str:
    return " ".join(e.public for e in events)
