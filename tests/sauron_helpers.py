"""What Sauron's rule tests share (tests/rulesets/sauron/): a game past its set-up, a phase to stand in,
counters put where a case needs them, and a refusal that must cite its section."""
from __future__ import annotations

import pytest

from engine.core import Game, OrderError
from engine.rulesets import get_ruleset
from engine.spi import c03_sequence

RS = get_ruleset("sauron")


def game(seed: str = "rules", **options) -> Game:
    """A game of Sauron whose set-up both sides have ended (each side's printed positions)."""
    g = Game.new(RS, options=options, seed=seed)
    g.play("sauron", "done")
    g.play("westernesse", "done")
    return g


def at(g: Game, step: str, turn: int | None = None) -> None:
    """Stand the game in ``step`` (of ``turn``), nobody done, the phase's scratch state fresh."""
    st = g.state
    st["step"], st["done"] = step, []
    if turn is not None:
        st["turn"] = turn
    st["ph"] = c03_sequence._fresh_phase(RS)


def place(g: Game, **where) -> None:
    for uid, hx in where.items():
        g.state["units"][uid].update(hex=hx, status="map")


def refused(g: Game, seat: str, text: str, section: str) -> str:
    """The order is refused, citing ``section`` (in its text or as its section); the refusal's text."""
    with pytest.raises(OrderError) as e:
        g.play(seat, text)
    assert section in str(e.value) or getattr(e.value, "section", None) == section, str(e.value)
    return str(e.value)
