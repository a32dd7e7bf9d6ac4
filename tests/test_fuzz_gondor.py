"""Random play (Rally the Troops' fuzzer idea): from many seeds, pick random
legal actions, mixed with random junk, until the game ends. Invariants:
every offered action is accepted and round-trips; junk is refused without
changing anything; views never carry the hidden cauldron flag except in
Westernesse's own; no dead end (someone can always act until the end).

A small sample runs by default; PALANTIR_FUZZ_GAMES=500 runs more."""
import json
import os
import random

import pytest

from engine.core import Game, OrderError, state_digest

GAMES = int(os.environ.get("PALANTIR_FUZZ_GAMES", "12"))
JUNK = ["", "deploy", "deploy OA1", "deploy K1 0000", "deploy ZZ 1903", "done done", "move OA1 2325 2324",
        "deploy OA1 3926", "DEPLOY oa1 2325", "deploy GS1 1905", "deploy K7 1905", "☃", "deploy OA1 2325 x"]


@pytest.mark.parametrize("seed", range(GAMES))
def test_random_play_keeps_every_invariant(seed):
    rnd = random.Random(seed)
    g = Game.new("gondor", seed=f"fuzz-{seed}")
    steps = 0
    while not g.result():
        active = g.active_seats()
        assert active, "dead end: nobody can act and the game is not over"
        seat = rnd.choice(active)
        offered = [g.ruleset.format(a) for a in g.legal_actions(seat)]
        assert offered, f"dead end for {seat} at {g.view(None)['phase']}"
        if rnd.random() < 0.15:
            junk = rnd.choice(JUNK)
            before = state_digest(g.state)
            try:
                g.play(rnd.choice(["sauron", "westernesse"]), junk)
            except OrderError:
                assert state_digest(g.state) == before
        # prefer finishing when allowed, so games end
        text = "done" if "done" in offered and rnd.random() < 0.25 else rnd.choice(offered)
        action = g.parse(seat, text)
        assert g.ruleset.format(action) == text
        g.play(seat, text)
        steps += 1
        assert steps < 2000
        for s in ("sauron", None):
            assert all("real" not in u for u in g.view(s)["units"])
        json.dumps(g.state)
    assert g.view(None)["turn"] == 17
