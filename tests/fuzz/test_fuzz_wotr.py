"""Random play over War of the Ring's enforced parts (wrapped in assist mode, as it is played): every
order the engine offers is accepted, the state stays JSON-shaped, a replay from the log gives the same
state, and no public view ever shows where a hidden Fellowship character is."""
import json
import random

import pytest

from engine.core import Game, json_shaped
from engine.rulesets import get_ruleset
from engine.rulesets.wotr.common import NINE


@pytest.mark.parametrize("players,seed", [(4, 1), (5, 2), (5, 3)])
def test_random_play_keeps_the_secrets_and_replays(players, seed):
    rs = get_ruleset("wotr@assist")
    opts = {"players": str(players), "turns": "3", "mode": "assist"}
    if seed == 3:
        opts["scenario"] = "all-out-war"
    g = Game.new(rs, opts, f"fz{seed}")
    rnd = random.Random(seed)
    log = []
    for _ in range(1500):
        if g.result() is not None:
            break
        s = rnd.choice(g.active_seats())
        acts = list(g.legal_actions(s))
        texts = [rs.format(a) for a in acts]
        text = "done" if "done" in texts and rnd.random() < 0.2 else rnd.choice(texts)
        g.play(s, text)
        log.append((s, text))
        pub = g.view(None)
        for p in pub["pieces"]:
            assert p["id"] not in NINE or not g.state["chars"][p["id"]]["hidden"]
        json.dumps(pub)
    assert g.result() is not None and json_shaped(g.state)
    r = Game.new(rs, opts, f"fz{seed}")
    for s, text in log:
        r.play(s, text)
    assert r.state == g.state
