"""Build Standard Rules positions directly (tests only): a Gondor game past
its set-up, with the units named placed where a test wants them and every
other counter off the map, at the step and turn asked for.

    g = position({"GS1": "1516", "OI1": "1517"}, step="G", turn=7)
    g.play("westernesse", "melee GS1 at 1517")

Dice: ``fixed_dice(g, [3, 4, 6])`` makes the next draws come out as given
(it swaps the seeded stream for a scripted one, for tests that must hit a
particular table cell)."""
from __future__ import annotations

from engine.core import Game
from engine.dice import Dice
from engine.rulesets.gondor import GONDOR
from engine.spi import c07_3_melee
from engine.spi import c03_sequence


def position(units: dict[str, str], step: str = "C", turn: int = 1, seed: str = "test", ruleset=None,
             **state_extra) -> Game:
    rs = ruleset or GONDOR
    g = Game(rs, rs.new_game({}, seed))
    st = g.state
    for uid, rec in st["units"].items():
        rec["hex"] = None
        rec["status"] = "eliminated" if GONDOR.units[uid].setup != "reinforcement" else "reinforcement"
        if GONDOR.units[uid].setup == "reinforcement":
            rec["status"] = "reinforcement"
    for uid, hx in units.items():
        st["units"][uid]["hex"] = hx
        st["units"][uid]["status"] = "map"
    st["turn"] = turn
    st["step"] = step
    st["done"] = []
    st["ph"] = c03_sequence._fresh_phase(rs)
    if rs.steps[step].get("kind") == "combat":
        st["ph"]["must"] = c07_3_melee._obligations(rs, st, rs.steps[step]["side"])
    st.update(state_extra)
    return g


def fixed_dice(g: Game, values: list[int], start: int | None = None) -> int:
    """Move ``g``'s dice counter forward to a point of its real stream where
    the next six-sided draws are exactly ``values`` (found by search: the
    stream is HMAC(seed, counter), so any short sequence turns up soon).
    Returns the counter chosen. Nothing in the engine is bypassed."""
    rec = g.state["dice"]
    n = rec["counter"] if start is None else start
    for _ in range(200_000):
        probe = Dice({"seed": rec["seed"], "counter": n})
        if all(probe.d6() == v for v in values):
            rec["counter"] = n
            return n
        n += 1
    raise AssertionError(f"no run of {values} found")
