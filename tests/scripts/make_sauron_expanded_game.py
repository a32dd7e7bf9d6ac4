"""Write tests/scripts/sauron_expanded_game.txt: a complete expanded game of Sauron (seed 004's rematch,
`sauron-expanded`) for `palantir local sauron-expanded --seed <N> --script <it>`, played by a small
deterministic player on the engine with the console's dice (`local-<N>`): the default set-up (the three
catapults in the fortifications, the armies apart), the Alliance marching on the Gate, every missile unit
and catapult firing, every melee that can be made, the rallies; to the end of Game-Turn 18 and its result.

Run: .venv/bin/python -m tests.scripts.make_sauron_expanded_game > tests/scripts/sauron_expanded_game.txt"""
from __future__ import annotations

import sys

from engine.core import Game
from engine.hexgrid import distance
from engine.rulesets import get_ruleset
from engine.spi import hooks
from engine.spi import c03_sequence

RS = get_ruleset("sauron-expanded")
SEED = 5
MOVES_PER_PHASE = 8
MAX_ORDERS = 4000


def enemy_hexes(st, seat):
    return [r["hex"] for u, r in st["units"].items()
            if r["status"] == "map" and hooks.side_of(RS, st, u) != seat and RS.units[u].is_combat]


def pick(g: Game, seat: str, moved: int) -> str:
    """The next order of ``seat``: a pending retreat; an answer owed (accept); fire, melee, rally; a move
    toward the nearest enemy (at most MOVES_PER_PHASE a phase); else `done`."""
    st = g.state
    acts = list(g.legal_actions(seat))
    texts = [RS.format(a) for a in acts]
    for verb in ("retreat", "accept"):
        for a, t in zip(acts, texts):
            if a.verb == verb:
                return t
    kind = c03_sequence.kind(RS, st)
    if kind == "combat":
        for verb in ("fire", "melee"):
            for a, t in zip(acts, texts):
                if a.verb == verb:
                    return t
    if kind == "rally":
        for a, t in zip(acts, texts):
            if a.verb == "rally":
                return t
    if kind in ("move", "magic") and moved < MOVES_PER_PHASE:
        foes = enemy_hexes(st, seat)
        best = None
        for a, t in zip(acts, texts):
            if a.verb != "move" or not foes:
                continue
            uids = [x for x in a.args if not x[:1].isdigit()]
            if any(RS.units[u].is_leader for u in uids) and len(uids) == 1 and RS.units[uids[0]].magic:
                continue  # Sauron stays at his pedestal
            here = st["units"][uids[0]]["hex"]
            dest = a.args[-1]
            if here is None:
                gain = 10
            else:
                gain = min(distance(here, f) for f in foes) - min(distance(dest, f) for f in foes)
            if gain > 0 and (best is None or gain > best[0]):
                best = (gain, t)
        if best:
            return best[1]
    if "done" in texts:
        return "done"
    return texts[0] if texts else "done"


def main() -> None:
    g = Game.new(RS, seed=f"local-{SEED}")
    lines, seat, turn = [], g.active_seats()[0], None
    moved = {}
    for _ in range(MAX_ORDERS):
        if g.result() is not None:
            break
        st = g.state
        if st["turn"] != turn:
            turn = st["turn"]
            lines.append(f"# Game-Turn {turn}")
        act = g.active_seats()
        pend = st["pending"][0]["seat"] if st["pending"] else None
        who = pend or (seat if seat in act else act[0])
        if who != seat:
            seat = who
            lines.append(f"as {seat}")
        key = (st["turn"], st["step"], seat)
        text = pick(g, seat, moved.get(key, 0))
        g.play(seat, text)
        if text.startswith("move"):
            moved[key] = moved.get(key, 0) + 1
        lines.append("/done" if text == "done" else f"/order {text}")
    res = g.result()
    if res is None:
        raise SystemExit("no result")
    head = [
        "# A complete expanded game of Sauron (seed 004's rematch, `sauron-expanded`), run in CI",
        "# (tests/rulesets/sauron/test_sauron_expanded_game.py):",
        f"# `palantir local sauron-expanded --seed {SEED} --script <this>`. Written by",
        "# tests/scripts/make_sauron_expanded_game.py (a small deterministic player): the default set-up",
        "# (the three catapults in the fortifications, the armies apart), the Alliance marching on the Gate,",
        "# every fire and melee that can be made, the rallies; to the end and its result.",
        f"# seed: {SEED}",
    ]
    print("\n".join(head + lines + [f"# The end: {res.summary}"]))
    print(f"{len(lines)} lines; {res.short}", file=sys.stderr)


if __name__ == "__main__":
    main()
