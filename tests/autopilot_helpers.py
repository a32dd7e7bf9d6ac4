"""What the autopilot's tests and its benchmark share (tests/engine/test_autopilot_policies.py,
tests/rulesets/*, benchmarks/bench_autopilot.py): the seat to play, the autopilot's order checked as the
contract says, a whole game played by the autopilot against an opponent, and a random legal opponent."""
from __future__ import annotations

import itertools
import json
import random
from collections import Counter

from engine.autopilot import is_secret
from engine.core import Action, Game
from engine.hexgrid import Hex
from engine.rulesets import get_ruleset
from engine.rulesets.sauron import c22_mortal_combat
from engine.spi import c03_sequence

BOUND = 1500  # actions: an all-autopilot game takes 96 (Risk) to 192 (War of the Ring)


def playing(rs, state) -> list[str]:
    return [s for s in rs.active_seats(state) if s != "gm"]


def checked_autopilot(rs, state, seat) -> str:
    """The autopilot's order for ``seat``, checked as the contract says: an action ``check`` accepts,
    or None where `done` is legal; never a secret order but War of the Ring's `draw none`."""
    a = rs.autopilot_action(state, seat)
    a = a if a is not None else Action("done")
    rs.check(state, seat, a)  # raises on a refused order
    text = rs.format(a)
    assert not is_secret(rs, a) or text == "draw none", text
    return text


def play(name: str, seed: str, fixture=None, autopilot=None, opponent=None, bound: int = BOUND,
         record: bool = True, options: dict | None = None):
    """A game played by the autopilot for the seats in ``autopilot`` (all: None) and ``opponent`` for
    the others. Returns the game, the log, the public record (what the channel reads, step by step;
    ``record``: with the public view after every order) and the autopilot's orders."""
    rs = get_ruleset(name)
    g = Game.new(rs, options=options, seed=seed, fixture=fixture)
    log, public, mine = [], [], []
    public.append(json.dumps(g.view(None), sort_keys=True))
    count, key = 0, rs.phase_key(g.state)
    for _ in range(bound):
        if g.result() is not None:
            break
        seat = playing(rs, g.state)[0]
        if autopilot is None or seat in autopilot:
            text = checked_autopilot(rs, g.state, seat)
            mine.append(text)
        else:
            text = opponent(rs, g.state, seat, count)
        _, events = g.play(seat, text)
        log.append((seat, text))
        public.append(rs.public_order_text(text))
        if any(e.reveals and not e.private for e in events):  # a secret made public by the rules
            public.append("REVEAL")
        for e in events:
            for who, private in e.private.items():
                assert not private or private not in e.public, (who, private)
            public.append(e.public)
        if record:
            public.append(json.dumps(g.view(None), sort_keys=True))
        now = rs.phase_key(g.state)
        count, key = (0, now) if now != key else (count + 1, key)
    return g, log, public, mine


FARMED = ("challenge", "draw 075", "event 075")  # what an opponent repeats against an absent seat (issue 42)


def random_opponent(seed: int, farm: bool = False):
    """Random legal play, a few orders a phase; on the Standard Rules it marches its units toward the
    enemy and attacks whenever it may, so that the autopilot meets what the rules force (7.31, 7.5).
    ``farm``: first of all, whatever raises a contest the absent seat must answer, whenever it is legal
    (Sauron's challenge to Mortal Combat, 22.0; War of the Ring's Event 075, drawn and played, AA.2)."""
    rnd = random.Random(seed)

    def farmed(rs, state, seat):
        for a in itertools.islice(rs.legal_actions(state, seat), 400):
            text = rs.format(a)
            if a.verb == "challenge" or text in FARMED:
                return text
        return None

    def spi_order(rs, state, seat):
        inner = getattr(rs, "inner", rs)
        if not hasattr(inner, "legal_actions_for") or state["turn"] == 0:
            return None
        if c03_sequence.kind(inner, state) == "combat":
            attacks = [a for a in itertools.islice(rs.legal_actions(state, seat), 200) if a.verb in ("melee", "fire")]
            return rs.format(rnd.choice(attacks)) if attacks else None
        if c03_sequence.kind(inner, state) != "move":
            return None
        enemies = [Hex.parse(r["hex"]) for u, r in state["units"].items()
                   if r["status"] == "map" and inner.units[u].side != seat and inner.units[u].is_combat]
        mine = sorted(u for u, d in inner.units.items() if d.side == seat and state["units"][u]["status"] == "map")
        rnd.shuffle(mine)
        for uid in mine[:6]:
            moves = [a for a in inner.legal_actions_for(state, seat, uid) if a.verb == "move"]
            if moves and enemies:
                best = min(moves, key=lambda a: (min(Hex.parse(a.args[-1]).distance(e) for e in enemies), rnd.random()))
                return rs.format(best)
        return None

    def pick(rs, state, seat, count):
        if farm and (text := farmed(rs, state, seat)):
            return text
        if count < 6 and rnd.random() < 0.8:
            text = spi_order(rs, state, seat)
            if text:
                return text
            offered = [a for a in itertools.islice(rs.legal_actions(state, seat), 60) if a.verb != "done"]
            if offered:
                return rs.format(rnd.choice(offered))
        a = rs.autopilot_action(state, seat)  # the phase's end: done, or what is owed
        return "done" if a is None else rs.format(a)

    return pick


def farmed_game(name: str, seed: int, seat: str, tally: Counter, verbs: Counter, bound: int = 6000) -> tuple[Game, int]:
    """A whole game (issue 42): ``seat`` on autopilot against a farming random opponent (``random_opponent``
    with ``farm``). Counts into ``tally`` the challenges to Mortal Combat the autopilot answered (22.3):
    `challenges`, `accepted` with `accept-expected` (the fights' expected net cost), `declined` with
    `decline-paid` and `decline-bound` (the most a fight it declined was expected to cost), what
    declining every one would have cost (`always-decline`); the Mortal Combats fought (`fights`,
    `fight-deaths`); the seizures of the Ring the autopilot rolled (`seizures`, `held`, `seized`); into ``verbs`` the
    autopilot's orders by verb. Returns the game and its number of orders."""
    rs = get_ruleset(name)
    g = Game.new(rs, seed=f"bench-ap-{seed}")
    opponent, key, count = random_opponent(seed, farm=True), rs.phase_key(g.state), 0
    n = 0
    for n in range(bound):
        if g.result() is not None:
            break
        who = playing(rs, g.state)
        # a seat nobody plays answers what waits for it even out of its turn (AA.2's seizure)
        if seat not in who and rs.autopilot_action(g.state, seat) is not None:
            who = [seat]
        s = who[0]
        if s == seat:
            a = rs.autopilot_action(g.state, s)
            text = checked_autopilot(rs, g.state, s)
            verbs[text.split()[0]] += 1
            if a is not None and a.verb in ("accept", "decline") and "challenge" in getattr(rs, "decisions", {}):
                p = next(p for p in rs.waiting_decisions(g.state) if p["kind"] == "challenge" and p["seat"] == s)
                c = c22_mortal_combat.challenge_costs(rs, g.state, p["leader"], p["challenger"])
                tally["challenges"] += 1
                tally["always-decline"] += c["decline"]
                if a.verb == "accept":
                    tally["accepted"] += 1
                    tally["accept-expected"] += float(c["accept"])
                else:
                    tally["declined"] += 1
                    tally["decline-paid"] += c["decline"]
                    tally["decline-bound"] = max(tally["decline-bound"], float(c["accept"]))
        else:
            text = opponent(rs, g.state, s, count)
        _, events = g.play(s, text)
        for e in events:
            if "Mortal Combat between" in (e.public or ""):
                tally["fights"] += 1
                tally["fight-deaths"] += e.public.count(" is dead (")
            if s == seat and "The seizure is rolled" in (e.public or ""):
                tally["seizures"] += 1
                tally["seized" if "seized on" in e.public else "held"] += 1
        now = rs.phase_key(g.state)
        count, key = (0, now) if now != key else (count + 1, key)
    return g, n
