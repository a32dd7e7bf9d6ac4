"""Random play over every game of the registry (issue 43: `sorted(BUILTIN)`, so a new game is fuzzed with no
line edited here; each game's own fuzzer, tests/fuzz/test_fuzz_<game>.py, adds its rules' invariants and
plays to a result): from a few seeds, orders picked at random among those the game offers, mixed with junk
from random seats.

Checked after every order: an offered order is accepted and its canonical text parses back to itself; junk
is refused with a short reason and changes nothing (dice included); someone can act until the game is
over; the state stays JSON-shaped; every seat's view and the public one read as JSON. At the end,
replaying the accepted orders from a new game gives the same state.

One game a ruleset runs by default; PALANTIR_FUZZ_GAMES=<n> runs more."""
import json
import os
import random

import pytest

from engine.core import Game, OrderError, json_shaped, state_digest
from engine.rulesets import BUILTIN, get_ruleset

pytestmark = pytest.mark.heavy  # a long unit (5 s or more on one worker): handed out first under xdist (tests/conftest.py)

GAMES = int(os.environ.get("PALANTIR_FUZZ_GAMES", "1"))
ORDERS = 150
JUNK = ["", "☃", "done done", "x" * 250, "move", "deploy", "attack", "fire at", "melee at 0000", "move ZZ9 0101",
        "deploy ZZ9 9999", "retreat", "take 99", "play", "\u0000", "move " + "A" * 60, "done extra words"]


def check_position(g: Game) -> None:
    rs = g.ruleset
    assert g.result() is not None or g.active_seats(), "dead end: nobody can act and the game is not over"
    assert json_shaped(g.state)
    for seat in (None, *rs.seats):
        json.dumps(g.view(seat))


@pytest.mark.parametrize("name,seed", [(n, s) for n in sorted(BUILTIN) for s in range(GAMES)],
                         ids=[f"{n}-{s}" for n in sorted(BUILTIN) for s in range(GAMES)])
def test_random_play_with_junk_keeps_the_game_whole(name, seed):
    rs, rnd = get_ruleset(name), random.Random(seed)
    g = Game.new(rs, seed=f"fuzz-{seed}")
    log: list[tuple[str, str]] = []
    for _ in range(ORDERS):
        if g.result() is not None:
            break
        if rnd.random() < 0.1:
            junk, who, before = rnd.choice(JUNK), rnd.choice(list(rs.seats)), state_digest(g.state)
            try:
                g.play(who, junk)
            except OrderError as e:
                assert state_digest(g.state) == before and 0 < len(str(e)) <= 2000, (junk, str(e)[:200])
            else:
                log.append((who, junk))  # junk that happens to be an order: logged, replayed below
        seat = rnd.choice(g.active_seats())
        texts = g.legal_texts(seat, "", limit=60)
        assert texts, f"{seat} must act and is offered nothing"
        text = "done" if "done" in texts and rnd.random() < 0.3 else rnd.choice(texts)
        canon = rs.format(g.parse(seat, text))
        assert rs.format(g.parse(seat, canon)) == canon, (text, canon)
        g.play(seat, text)
        log.append((seat, text))
        check_position(g)
    replay = Game.new(rs, seed=f"fuzz-{seed}")
    for seat, text in log:
        replay.play(seat, text)
    assert state_digest(replay.state) == state_digest(g.state)
