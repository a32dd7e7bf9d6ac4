"""Helpers for War of the Ring's tests: a game at a given point of the sequence, and orders played."""
from __future__ import annotations

from engine.core import Game
from engine.rulesets import get_ruleset
from engine.rulesets.wotr import lookup

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


def fix_dice(monkeypatch, values):
    """The next dice the game draws are ``values`` (a test of a rule's thresholds)."""
    from engine.dice import Dice
    queue = list(values)

    class Fixed(Dice):
        def randint(self, lo, hi, label=""):
            v = queue.pop(0)
            self.rolls.append({"n": -1, "sides": hi - lo + 1, "value": v, "label": label})
            return v

    import engine.rulesets.wotr.aa_ring as a
    import engine.rulesets.wotr.cc_diplomacy as c
    import engine.rulesets.wotr.hidden_movement as h
    for m in (a, c, h):
        monkeypatch.setattr(m, "Dice", Fixed)
    return queue


def ring_to(g, cid, wearing=False):
    """Give the Ring (a test's set-up)."""
    g.state["ring"]["bearer"] = cid
    g.state["ring"]["wearing"] = wearing


def nazgul_count(g: Game, seat: str) -> int:
    return sum(1 for n in g.state["nazgul"].values() if n["seat"] == seat)


def nazgul_at(g: Game, where: str, n: int, seat: str = "dark-power", avoid: tuple = ()) -> list[str]:
    """Put ``n`` Nazgul in ``where`` (a hex, or a province: one of its hexes not in ``avoid``) as ``seat``'s,
    taking the Dark Power's from naz1 up (a test's set-up, as a moderator would)."""
    b = lookup._bd(RS, g.state)
    hx = where if where in b.terrain else next((h for h in b.areas[where].hexes if h not in avoid),
                                               b.areas[where].hexes[0])
    pool = [k for k, v in g.state["nazgul"].items() if v["seat"] in (seat, "dark-power")]
    pool.sort(key=lambda k: (g.state["nazgul"][k]["seat"] != seat, g.state["nazgul"][k]["hex"] != hx,
                             b.province_of[g.state["nazgul"][k]["hex"]] not in ("gorgoroth", "nurn")))
    moved = pool[:n]
    assert len(moved) == n, (where, n, seat)
    for k in moved:
        g.state["nazgul"][k].update(hex=hx, seat=seat)
    return moved
