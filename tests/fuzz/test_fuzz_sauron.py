"""Random play over complete games of Sauron (issue 13): from many seeds and option sets, the set-up,
then random legal actions mixed with random junk, to a result (victory points, reconstructed).

Invariants after every order: every offered action is accepted and round-trips through the notation;
junk is refused and changes nothing (dice included); the board holds (spi_checks.check_board); wounds
never exceed Endurance and a leader on the map has fewer wounds than his Endurance (7.222); the Ring has
at most one holder, on the map or none (16.6); closed Gates are never crossed (18.1). At the end the
result is given and replaying the orders from a new game gives the same state.

A few games run by default; PALANTIR_FUZZ_GAMES=200 runs hundreds; PALANTIR_FUZZ_RULESET=sauron-expanded
plays the expanded game instead."""
import copy
import json
import os
import random

import pytest

from engine.core import Action, Game, state_digest
from engine.hexgrid import Hex
from engine.rulesets import get_ruleset
from tests.spi_checks import check_board, play_to_result
from engine.spi import hooks
from engine.rulesets.sauron import c07_22_leader_combat
from engine.rulesets.sauron import c18_1_gates
from engine.rulesets.sauron import c22_mortal_combat
from engine.spi import c03_sequence
from engine.spi import c05_stacking

pytestmark = pytest.mark.heavy  # a long unit (5 s or more on one worker): handed out first under xdist (tests/conftest.py)

GAMES = int(os.environ.get("PALANTIR_FUZZ_GAMES", "3"))
RULESET = os.environ.get("PALANTIR_FUZZ_RULESET", "sauron")  # or sauron-expanded
JUNK = ["", "deploy", "deploy GA1", "deploy ZZ 0101", "done done", "move OI1 0101 0102", "gates", "gates shut",
        "gates close", "gates open", "challenge", "challenge ISI", "challenge ISI GOR", "challenge ELE GOR",
        "accept", "accept GOR", "decline GOR", "ring ISI off", "ring SAU off", "ring ELE on", "duel ISI GOR",
        "fire MB1 at 0101", "melee NC1 at 1414", "rally ELE MI1", "retreat GA1 1515", "advance NC1 1414",
        "form wedge NC1 NC2 ISI", "cast SAU fear 5", "☃", "move SAU 1501"]
OPTIONS = [{}, {"extra": "all"}, {"variant": "off"}, {"extra": "3"}]
PER_PHASE = 6


class _Board:
    """The game as check_board sees it: two leaders met for Mortal Combat (22.1) share a hex by right,
    so the challenged one is set aside for that check."""
    def __init__(self, g: Game):
        self.ruleset, self.state = g.ruleset, copy.deepcopy(g.state)
        for m in self.state["sau"]["mortal"]:
            a, b = self.state["units"][m["challenger"]], self.state["units"][m["challenged"]]
            if m["status"] == "accepted" and a["status"] == b["status"] == "map" and a["hex"] == b["hex"]:
                b["status"] = "pool"


def check_invariants(g: Game) -> None:
    rs, st = g.ruleset, g.state
    check_board(_Board(g))
    occ = c05_stacking.occupancy(rs, st)
    for hx, ids in occ.items():
        if len({rs.units[x].side for x in ids}) > 1:
            assert all(rs.units[x].is_leader for x in ids if rs.units[x].side == "westernesse") or \
                all(rs.units[x].is_leader for x in ids if rs.units[x].side == "sauron"), (hx, ids)
    for uid, r in st["units"].items():
        assert r["status"] in ("map", "eliminated", "reinforcement", "pool", "out")
        if rs.units[uid].is_leader and st["options"]["variant"]:
            assert r.get("wounds", 0) <= c07_22_leader_combat.endurance(rs, st, uid)
            if r["status"] == "map":
                assert r.get("wounds", 0) < c07_22_leader_combat.endurance(rs, st, uid), f"{uid} should be dead (7.222)"
    h = st["sau"]["ring"]["holder"]
    assert h is None or st["units"][h]["status"] in ("map", "reinforcement") or h == "SAU"


def pick(g: Game, seat: str, rnd: random.Random, count: int) -> str:
    rs, st = g.ruleset, g.state
    if c03_sequence.kind(rs, st) in ("move", "magic") and not st["pending"]:
        if count >= PER_PHASE or rnd.random() < 0.1:
            if c03_sequence._ok(rs, st, seat, Action("done")):
                return "done"
        extra = [rs.format(a) for a in hooks.legal_extra(rs, st, seat)]
        extra += [rs.format(a) for a in c22_mortal_combat._legal_answers(rs, st, seat)] + [rs.format(a) for a in c18_1_gates._legal_gates(rs, st, seat)]
        if extra and rnd.random() < 0.3:
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
                    e = rnd.choice(enemies)
                    return min(moves, key=lambda t: (Hex.parse(t.split()[-1]).distance(e), rnd.random()))
                return rnd.choice(offered)
        offered = [rs.format(a) for a in g.legal_actions(seat)]
        return "done" if "done" in offered else rnd.choice(offered)
    offered = [rs.format(a) for a in g.legal_actions(seat)]
    assert offered, f"dead end for {seat} at {st['step']}"
    if "done" in offered and (count >= PER_PHASE or rnd.random() < 0.15):
        return "done"
    return rnd.choice([t for t in offered if t != "done"] or offered)


def play_random(seed: int, options: dict, ruleset: str = "sauron") -> tuple[Game, list]:
    rnd = random.Random(seed)
    g = Game.new(get_ruleset(ruleset), options=options, seed=f"fuzz-{seed}")
    log = play_to_result(g, rnd, pick=pick, check=check_invariants, junk=JUNK, junk_rate=0.05, max_steps=9000)
    return g, log


@pytest.mark.parametrize("seed", range(GAMES))
def test_random_play_keeps_every_invariant_to_a_result(seed):
    options = OPTIONS[seed % len(OPTIONS)]
    g, log = play_random(seed, options, RULESET)
    json.dumps(g.state)
    r = g.result()
    assert r.section in ("victory", "16.632") and ("Victory" in r.summary or "draw" in r.summary)
    replay = Game.new(get_ruleset(RULESET), options=options, seed=f"fuzz-{seed}")
    for seat, text in log:
        replay.play(seat, text)
    assert state_digest(replay.state) == state_digest(g.state)
