"""Random play (Rally the Troops' fuzzer idea) over the Standard Rules as
Gondor uses them: from many seeds, random legal actions mixed with random
junk, played to the end of Game-Turn 16.

Invariants checked after every order: every offered action is accepted and
round-trips through the notation; junk is refused and changes nothing (dice
included); stacking holds (one combat unit a hex, two in a formation; no hex
holds both sides); every unit on the map is on a map hex; no negative points
(magic, demoralization, Rally Points); views never carry the hidden cauldron
flag except in Westernesse's own; no dead end. At the end, replaying the
orders from a new game gives the same state.

A small sample runs by default; PALANTIR_FUZZ_GAMES=300 runs hundreds."""
import functools
import json
import os
import random

import pytest

from engine.core import Action, Game, state_digest
from engine.hexgrid import Hex
from tests.spi_checks import check_board, play_to_result
from engine.rulesets import get_ruleset
from engine.rulesets.gondor import c16_0_siege_phase
from engine.spi import c03_sequence

pytestmark = pytest.mark.heavy  # a long unit (5 s or more on one worker): handed out first under xdist (tests/conftest.py)

GAMES = int(os.environ.get("PALANTIR_FUZZ_GAMES", "4"))
JUNK = ["", "deploy", "deploy OA1", "deploy K1 0000", "deploy ZZ 1903", "done done", "move OA1 2325 2324",
        "deploy OA1 3926", "DEPLOY oa1 2325", "deploy GS1 1905", "deploy K7 1905", "☃", "deploy OA1 2325 x",
        "move GS1 0101", "fire GB1 at 1903", "melee OI1 at 1910", "rally GAN GS1", "cast GAN fear 5",
        "cast NAZ fear 9", "duel IMR NAZ", "retreat GS1 1905", "advance OI1 1910", "form wedge GK1 GL1 IMR",
        "disband GS1 1905", "move NAZ 1903", "cast NAZ freeze-leader", "melee at 1903", "fire at",
        "breach SC1 1910/n", "breach SC1 1909/se", "breach GRD 1909/se", "breach SC1 0000/n", "breach SC1",
        "fireball WC1 at 0000", "fireball SC1 at 3926", "head SC1 at 1903", "head WC1 at 2010", "ladder GK1 1909/n",
        "ladder OI1 1909/x", "pickup OI1 K1", "pickup GS1 K9", "pour GS1 sometimes", "pour OI1 any"]
PER_PHASE = 6


def check_invariants(g: Game) -> None:
    rs, st = g.ruleset, g.state
    check_board(g)
    sg = st["siege"]
    assert 0 <= sg["heads_left"] <= 12 and 0 <= sg["ladders_left"] <= 6
    for uid, r in st["units"].items():
        if r.get("oil_from"):
            assert rs.units[r["oil_from"]].type == "cauldron" and rs.units[uid].side == "westernesse"
        if rs.units[uid].type == "cauldron":
            assert 0 <= r["oil"] <= 3
    for m in st["markers"]:
        assert m["type"] in ("fire", "breached", "head", "ladder"), m
        if m["type"] == "breached":
            assert not c16_0_siege_phase._outer_wall(rs, m["hexside"]) or c16_0_siege_phase._is_main_gate(rs, m["hexside"])


@functools.cache
def _setup_pairs(rs, seat: str) -> list[tuple[str, str]]:
    """Every (unit, hex of its set-up zone) of ``seat`` (13.0): where a deployment may go, legal or not."""
    return [(u, hx) for u, d in sorted(rs.units.items()) if d.side == seat and d.setup in rs.zones
            for hx in rs._zone_labels[d.setup]]  # (the labels the set-up's own listing goes through)


def setup_pick(g: Game, seat: str, rnd: random.Random, count: int) -> str:
    """A set-up order (13.0) as :func:`pick` chooses among the listed ones, without listing the thousands of
    deployments (every unit to every hex of its zone, re-placements included: a third of a game's time here):
    `done` as often where it is legal; else a (unit, hex of its zone) pair drawn evenly until one is legal,
    which draws each legal deployment as often as a choice from the whole list does."""
    rs, st = g.ruleset, g.state
    if c03_sequence._ok(rs, st, seat, Action("done")) and (count >= PER_PHASE or rnd.random() < 0.2):
        return "done"
    pairs = _setup_pairs(rs, seat)
    for _ in range(500):
        uid, hx = rnd.choice(pairs)
        a = Action("deploy", (uid, hx))
        if st["units"][uid]["hex"] != hx and c03_sequence._ok(rs, st, seat, a):  # (not where it stands)
            return rs.format(a)
    offered = [rs.format(a) for a in g.legal_actions(seat)]  # (none drawn: the whole list, as a dead end shows)
    assert offered, f"dead end for {seat} in the set-up"
    return rnd.choice(offered)


def pick(g: Game, seat: str, rnd: random.Random, count: int) -> str:
    rs, st = g.ruleset, g.state
    if st["turn"] == 0 and not st["pending"]:
        return setup_pick(g, seat, rnd, count)
    kind = c03_sequence.kind(rs, st)
    if kind in ("move", "magic") and not st["pending"]:
        if count >= PER_PHASE or rnd.random() < 0.15:
            offered = [rs.format(a) for a in rs.legal_actions_for(st, seat, "__none__")]
            offered += ["done"] if c03_sequence._ok(rs, st, seat, Action("done")) else []
            if "done" in offered:
                return "done"
        mine = [u for u, d in rs.units.items() if d.side == seat and st["units"][u]["status"] in ("map", "reinforcement")]
        rnd.shuffle(mine)
        enemies = [Hex.parse(r["hex"]) for u, r in st["units"].items()
                   if r["status"] == "map" and rs.units[u].side != seat and rs.units[u].is_combat]
        for uid in mine[:8]:
            offered = [rs.format(a) for a in rs.legal_actions_for(st, seat, uid)]
            if offered:
                moves = [t for t in offered if t.startswith("move ")]
                if moves and enemies and rnd.random() < 0.6:
                    # head for the enemy, so that combat happens often
                    return min(moves, key=lambda t: (min(Hex.parse(t.split()[-1]).distance(e) for e in enemies),
                                                     rnd.random()))
                return rnd.choice(offered)
        return "done"
    offered = [rs.format(a) for a in g.legal_actions(seat)]
    assert offered, f"dead end for {seat} at {st['step']}"
    if "done" in offered and (count >= PER_PHASE or rnd.random() < 0.2):
        return "done"
    if kind == "siege":  # fireballs would crowd out the rarer orders
        for verb, p in (("advance", 0.9), ("breach", 0.6), ("head", 0.4)):
            these = [t for t in offered if t.startswith(verb + " ")]
            if these and rnd.random() < p:
                return rnd.choice(these)
    return rnd.choice(offered)


def play_out(g: Game, rnd: random.Random, *, junk: bool, grond: bool = False) -> list[tuple[str, str]]:
    """Random play to the end of ``g``, checking every invariant after every
    order; junk orders mixed in (refused with nothing changed) if ``junk``;
    the Nazgul Lord keen to operate Grond if ``grond``. Returns the log."""
    def keen(g: Game, seat: str, rnd: random.Random, count: int) -> str:
        text = None
        if grond and seat == "sauron" and c03_sequence.kind(g.ruleset, g.state) == "magic" and rnd.random() < 0.5:
            text = next(iter(g.legal_texts(seat, "cast NAZ operate-grond")), None)
        return text or pick(g, seat, rnd, count)

    def check(g: Game) -> None:
        check_invariants(g)
        for s in ("sauron", None):
            assert all("real" not in u and "oil_real" not in u for u in g.view(s)["units"])
        json.dumps(g.state)

    return play_to_result(g, rnd, pick=keen, check=check, junk=JUNK, junk_rate=0.1 if junk else 0.0, max_steps=6000)


@pytest.mark.parametrize("seed", range(GAMES))
def test_random_play_keeps_every_invariant(seed):
    g = Game.new(get_ruleset("gondor"), seed=f"fuzz-{seed}")
    log = play_out(g, random.Random(seed), junk=True)
    assert g.result().winner in ("sauron", "westernesse")  # 20.1 decides every game
    replay = Game.new(get_ruleset("gondor"), seed=f"fuzz-{seed}")
    for seat, text in log:
        replay.play(seat, text)
    assert state_digest(replay.state) == state_digest(g.state)


# A siege already under way (Game-Turn 5): catapults, towers and Grond at the
# walls, carriers by the cauldrons, so that random play breaches, scales,
# throws heads and pours oil. Random play from here to the victory decision.
SIEGE_START = {
    "SC1": "2010", "OI1": "2010", "SC2": "1811", "OI2": "1811", "SC3": "2111", "OI3": "2111",
    "ST1": "1809", "OI4": "1809", "ST2": "2109", "OI5": "2109", "GRD": "1910", "TR1": "1910",
    "NAZ": "2011", "GOT": "2012", "LO1": "2012", "LO2": "1912", "LO3": "2212", "LO4": "1711", "OA1": "2213",
    "GS1": "1909", "K1": "1909", "GS2": "1808", "K4": "1808", "GS3": "2008", "K2": "2008", "GA1": "1908",
    "GB1": "1907", "WC1": "1906", "GS4": "1906", "GAN": "1905", "IMR": "1908", "CG1": "1903", "K3": "1806",
    "K5": "1902", "K6": "2003", "GX1": "1905",
}


@pytest.mark.parametrize("seed", range(max(2, GAMES // 2)))
def test_random_siege_play_keeps_every_invariant(seed):
    import copy

    from tests.spi_helpers import position
    g = position(SIEGE_START, step="A-westernesse", turn=5, seed=f"siege-{seed}")
    for uid in g.state["units"]:  # the rest of Sauron's army waits to enter (14.1)
        if g.ruleset.units[uid].arrives == 2 and uid not in SIEGE_START:
            g.state["units"][uid]["status"] = "reinforcement"
    start = copy.deepcopy(g.state)
    log = play_out(g, random.Random(1000 + seed), junk=False, grond=True)
    assert g.result().winner in ("sauron", "westernesse")
    replay = Game(g.ruleset, start)
    for seat, text in log:
        replay.play(seat, text)
    assert state_digest(replay.state) == state_digest(g.state)
