"""Random play over complete games of Field of Celebrant: from many seeds (and
21.0 option sets), the set-up, then random legal actions mixed with random
junk, to a graded result (20.x).

Invariants checked after every order: every offered action is accepted and
round-trips through the notation; junk is refused and changes nothing (dice
included); stacking holds (one combat unit a hex, two in a formation; no hex
holds both sides); every unit on the map stands on passable ground, and no
cavalry on the landing (16.21); demoralization totals are never negative
(19.11); a leader uses its ability at most once (17.0); until the chits are
revealed, no view but a seat's own carries its chit (14.3); no dead end. At
the end the result is graded and replaying the orders from a new game gives
the same state.

A few games run by default; PALANTIR_FUZZ_GAMES=200 runs hundreds."""
import json
import os
import random

import pytest

from engine.core import Action, Game, state_digest
from engine.hexgrid import Hex
from tests.spi_checks import check_board, play_to_result
from tests.rulesets.celebrant.test_celebrant_secrecy import setup_orders
from engine.rulesets import get_ruleset
from engine.spi import hooks
from engine.spi import c03_sequence

pytestmark = pytest.mark.heavy  # a long unit (5 s or more on one worker): handed out first under xdist (tests/conftest.py)

GAMES = int(os.environ.get("PALANTIR_FUZZ_GAMES", "4"))
JUNK = ["", "deploy", "deploy OI1", "deploy ZZ 0101", "done done", "move OI1 0101 0102", "ability", "ability CIR",
        "ability CIR whip", "ability OC1 whip extra", "ability EORL death-and-glory", "swap GS1", "swap GS1 GS1",
        "dress GS1 0000", "entry", "entry SW", "entry NW NE", "fire GB1 at 0101", "melee OI1 at 4208",
        "rally CIR GS1", "move GL1 4222", "move GS1 4314", "retreat GS1 2014", "advance OI1 2014",
        "form wedge OI1 OI2 OC1", "form shieldwall OI1 OI2 OC1", "cast CIR fear 5", "☃", "move EORL 0901",
        "move BS1 2928", "ability EC1 arise", "ability BCH despair", "duel CIR OCH"]
OPTIONS = [{}, {"balance": "shadow"}, {"balance": "westernesse"},
           {"swap.gondor": "yes", "swap.orcs": "4", "swap.eotheod": "yes", "swap.balchoth": "yes"}]
PER_PHASE = 5


def check_invariants(g: Game) -> None:
    rs, st = g.ruleset, g.state
    check_board(g)
    for uid, r in st["units"].items():
        assert r["status"] in ("map", "eliminated", "reinforcement", "pool", "out")
        if r["status"] == "map" and rs.units[uid].is_cavalry:
            assert rs.terrain(Hex.parse(r["hex"])) != "landing", f"{uid} on the landing (16.21)"
    used = st["cel"]["abilities"]
    assert all(e["leader"] in used for e in st["effects"] if e.get("ability"))
    if st["hidden"].get("chits") and not st["cel"]["eotheod"]["revealed"]:
        for seat in (None, "shadow", "westernesse"):
            v = g.view(seat)
            assert set(v["chits"].values()) == {"face down"}
            assert v.get("my_chit") == (st["hidden"]["chits"][seat] if seat else None)


def pick(g: Game, seat: str, rnd: random.Random, count: int) -> str:
    rs, st = g.ruleset, g.state
    if c03_sequence.kind(rs, st) == "move" and not st["pending"]:
        if count >= PER_PHASE or rnd.random() < 0.1:
            if c03_sequence._ok(rs, st, seat, Action("done")):
                return "done"
        extra = [rs.format(a) for a in hooks.legal_extra(rs, st, seat)]
        if extra and rnd.random() < 0.1:
            return rnd.choice(extra)
        mine = [u for u, d in rs.units.items() if d.side == seat and st["units"][u]["status"] in ("map", "reinforcement")]
        rnd.shuffle(mine)
        enemies = [Hex.parse(r["hex"]) for u, r in st["units"].items()
                   if r["status"] == "map" and rs.units[u].side != seat and rs.units[u].is_combat]
        for uid in mine[:4]:
            offered = [rs.format(a) for a in rs.legal_actions_for(st, seat, uid)]
            if offered:
                moves = [t for t in offered if t.startswith("move ")]
                if moves and enemies and rnd.random() < 0.8:
                    e = rnd.choice(enemies)  # head for an enemy, so that combat happens often
                    return min(moves, key=lambda t: (Hex.parse(t.split()[-1]).distance(e), rnd.random()))
                return rnd.choice(offered)
        return "done"
    offered = [rs.format(a) for a in g.legal_actions(seat)]
    assert offered, f"dead end for {seat} at {st['step']}"
    if "done" in offered and (count >= PER_PHASE or rnd.random() < 0.15):
        return "done"
    return rnd.choice([t for t in offered if t != "done"] or offered)


@pytest.mark.parametrize("seed", range(GAMES))
def test_random_play_keeps_every_invariant_to_a_graded_result(seed):
    rnd = random.Random(seed)
    options = OPTIONS[seed % len(OPTIONS)]
    g = Game.new(get_ruleset("celebrant"), options=options, seed=f"fuzz-{seed}")
    log: list[tuple[str, str]] = []
    for seat, text in setup_orders(g):
        g.play(seat, text)
        log.append((seat, text))
    play_to_result(g, rnd, pick=pick, check=check_invariants, junk=JUNK, junk_rate=0.08, max_steps=8000, log=log)
    json.dumps(g.state)
    r = g.result()
    assert r.section in ("20.1", "20.2", "20.3", "20.4") and ("Victory" in r.summary or "draw" in r.summary)
    replay = Game.new(get_ruleset("celebrant"), options=options, seed=f"fuzz-{seed}")
    for seat, text in log:
        replay.play(seat, text)
    assert state_digest(replay.state) == state_digest(g.state)
