"""Random play at the levels of play (issue 14): legal actions of the ruleset mixed with the table's
verbs (pieces, hidden ones too, decks, tracks, rolls, whispers, pacts, trades, votes, declared actions
and rulings) and junk, by random seats and the moderator. Checks: a refused order changes nothing; every
accepted order's canonical text parses back to itself on the same position; no hidden piece's id or kind,
no face-down card, no whisper and no secret pact reaches the public view or the public text of any order;
replaying the accepted orders from the first state gives the same final state; views, secrets and
legal actions never change the state.

A small sample runs by default; PALANTIR_FUZZ_GAMES=200 runs more."""
import json
import os
import random

import pytest

from bot.history import walk
from engine.core import Game, OrderError, clone, state_digest
from engine.rulesets import get_ruleset

pytestmark = pytest.mark.heavy  # a long unit (5 s or more on one worker): handed out first under xdist (tests/conftest.py)

GAMES = int(os.environ.get("PALANTIR_FUZZ_GAMES", "6"))
SECRET_WORDS = ("zzwhisper", "zzpact")  # never public; a hidden piece's kind is public once flipped


def table_orders(rng, g, seat, places):
    rs = g.ruleset
    others = [s for s in rs.inner.seats if s != seat]
    hand = [c for _, c in g.state["table"]["hands"].get(seat, [])]
    pid = f"P{rng.randint(1, 6)}"
    opts = [
        f"place {pid} {rng.choice(places)} " + rng.choice(["infantry", f"zzspy{rng.randint(100, 999)} hidden", f"zzspy{rng.randint(100, 999)} secret", ""]),
        f"move {pid} {rng.choice(places)}", f"remove {pid}", f"flip {pid}",
        f"set morale {rng.randint(-3, 9)}", f"roll {rng.randint(1, 4)}d6 for luck",
        "deck cards " + " ".join(f"c{i}" for i in range(1, 7)), "draw cards", "reshuffle cards",
        f"whisper {rng.choice(others)} zzwhisper {rng.random():.3f}", f"say {rng.choice(others)} hello",
        f"pact secret {rng.choice(others)} zzpact", f"pact {rng.choice(others)} truce",
        f"accept k{rng.randint(1, 3)}", f"accept d{rng.randint(1, 3)}", f"refuse d{rng.randint(1, 3)}",
        f"accept v{rng.randint(1, 2)}", "vote end" if rng.random() < 0.05 else "vote stop",
        "!summon the eagles", "done", "☃", "", "move", "place ? city",
    ]
    if hand:
        c = rng.choice(hand)
        opts += [f"discard {c}", f"give {c} to {rng.choice(others)}", f"offer {rng.choice(others)} {c} for nothing",
                 f"show {c} to {rng.choice(others)}", f"accept t{rng.randint(1, 3)}", f"withdraw t{rng.randint(1, 3)}"]
    if seat == "gm":
        opts = [o + " because fuzz" for o in opts if o.split(" ")[0] in ("place", "move", "remove", "set")] + \
            [f"accept d{rng.randint(1, 3)} because fuzz", f"pass {rng.choice(rs.inner.seats)} because fuzz",
             f"refuse v{rng.randint(1, 2)} because fuzz"]
    return rng.choice(opts)


def public_text_of(g, log):
    return json.dumps(g.view(None)) + " ".join(g.ruleset.public_order_text(e["text"]) for e in log)


@pytest.mark.parametrize("name,mode", [("gondor", "assist"), ("risk-minas-tirith", "tabletop"),
                                       ("celebrant", "enforced"), ("gondor", "tabletop")])
def test_random_play_at_a_level(name, mode):
    rs = get_ruleset(f"{name}@{mode}")
    places = [p for _, p in rs.around_choices("", rs.inner.view(Game.new(rs.inner, {}, "x").state, None))][:8] \
        or ["1905", "2010", "0123"]
    for n in range(GAMES):
        rng = random.Random(f"{name}{mode}{n}")
        g = Game.new(rs, {"mode": mode}, f"fuzz-{n}")
        first = clone(g.state)
        log: list = []
        revealed: set[str] = set()
        for _ in range(120):
            if g.result() is not None:
                break
            seat = rng.choice([*g.active_seats(), *rs.seats]) if g.active_seats() else rng.choice(rs.seats)
            if rng.random() < 0.4 and seat != "gm":
                legal = g.legal_texts(seat, limit=30)
                text = rng.choice(legal) if legal else "done"
            else:
                text = table_orders(rng, g, seat, places)
            before = json.dumps(g.state, sort_keys=True)
            dice = g.dice_drawn()
            try:
                action = g.parse(seat, text)
            except OrderError:
                assert json.dumps(g.state, sort_keys=True) == before
                continue
            canon = rs.format(action)
            assert rs.format(g.parse(seat, canon)) == canon, (text, canon)
            _, events = g.play(seat, canon)
            for e in events:  # a flip reveals a hidden piece: from then on it is public knowledge
                if e.reveals:
                    revealed.update(w.strip("`.,:") for w in e.public.split() if "zzspy" in w or "." in w)
            log.append({"seq": len(log) + 1, "seat": seat, "kind": "order", "text": canon,
                        "dice_before": dice, "dice_after": g.dice_drawn()})
            pure = state_digest(g.state)
            public = public_text_of(g, log)
            for s in rs.seats:  # reading a game changes nothing
                g.view(s), rs.secret_text(g.state, s), g.legal_texts(s, limit=3)
            assert state_digest(g.state) == pure
            for word in SECRET_WORDS:
                assert word not in public, (word, canon)
            for p in g.state["table"]["pieces"].values():
                if p["hide"] and p["kind"].startswith("zzspy") and p["kind"] not in revealed:
                    # hidden since it was placed: neither its id nor what it is reaches the public
                    assert p["kind"] not in public and p["id"] not in public, (p, canon)
        final = None
        for _, final, _ in walk(rs, first, log):
            pass
        assert final is None or state_digest(final.state) == state_digest(g.state)
