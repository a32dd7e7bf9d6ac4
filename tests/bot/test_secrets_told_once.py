"""Issue 39, one road for each secret: a seat is told each new fact once. Every ruleset's scripted whole game
(tests/scripts/) is played through the console (the service, storage, the commit path), and every private
message each command sent is collected, per seat. Within one command, a seat must not read the same fact twice:
not as the order's private event and again as "your hidden information has changed" (a Field of Celebrant chit,
Gondor's oil order, War of the Ring's demand), and no line twice (War of the Ring's moderator read "Gondor's
demand (AA.2) is in force" once as Gondor's and once as the Fellowship's)."""
from __future__ import annotations

import io
import re
from collections import defaultdict
from pathlib import Path

import pytest

from bot.outcome import Outcome
from bot.service import GameService
from bot.storage import Store
from bot.transports.console import Console

pytestmark = pytest.mark.heavy  # six whole games: handed out first under xdist (tests/conftest.py)

ROOT = Path(__file__).resolve().parents[2]
# (ruleset, seed, script, options): the scripted games as README.md runs them
GAMES = [("gondor", "7", "gondor_game.txt", None), ("celebrant", "7", "celebrant_game.txt", None),
         ("sauron", "45", "sauron_game.txt", None), ("sauron-expanded", "5", "sauron_expanded_game.txt", None),
         ("risk-minas-tirith", "11", "risk_minas_tirith_game.txt", None),
         ("wotr@assist", "7", "wotr_game.txt", "turns=4")]  # (`palantir local wotr` plays it at its default level, assist)

EVENT = re.compile(r"^\*\*[^*]+\*\* \(private\): ")  # an order's private event (bot/table.py: commit)
CHANGED = re.compile(r"^\*\*[^*]+\*\* — your hidden information has changed:$")  # (Table.changed_secrets)


class Told(Console):
    """The console, keeping what each command sent each seat privately: (line, {seat: [texts]})."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.line = "(set-up)"
        self.told: list[tuple[str, dict[str, list[str]]]] = []

    async def run_command(self, line: str) -> Outcome | None:
        self.line = line
        return await super().run_command(line)

    async def show(self, out: Outcome) -> None:
        per_seat: dict[str, list[str]] = defaultdict(list)
        for uid, posts in out.dms.items():
            for p in posts:
                if not p.copy:  # (`/secret`'s copy of its own answer: the same text on purpose)
                    per_seat[p.seat or str(uid)].append(p.text)
        if per_seat:
            self.told.append((f"{self.seat}: {self.line}", dict(per_seat)))
        await super().show(out)


async def _told(ruleset: str, seed: str, script: str, options: str | None, db: Path):
    store = await Store.open(str(db))
    try:
        service = GameService(store, seed_source=lambda: f"local-{seed}", clock=lambda: 1_750_000_000.0,
                              renderer=None)
        console = Told(service, ruleset, None, io.StringIO(), options=options)
        assert await console.setup() is None
        assert await console.run_script(str(ROOT / "tests" / "scripts" / script)) == 0, console.stream.getvalue()[-2000:]
        return console.told
    finally:
        await store.close()


def _facts(text: str) -> list[str]:
    """A private message's lines, each as the fact it tells: its heading (whose, what kind) dropped, the
    markup and case ignored."""
    lines = text.split("\n")
    if CHANGED.match(lines[0]) or lines[0].endswith(" — hidden information, for you only:"):
        lines = lines[1:]
    elif EVENT.match(lines[0]):
        lines[0] = EVENT.sub("", lines[0])
    return [" ".join(re.sub(r"[*`]", "", ln).lower().split()) for ln in lines if ln.strip()]


def _words(fact: str) -> frozenset[str]:
    return frozenset(re.findall(r"[\w+.'-]+", fact))


def twice_told(texts: list[str]) -> list[str]:
    """What the messages a seat got from one command tell twice: an event and a change notice together (two
    roads for one order's news), a line twice, or a line whose every word another line of another message
    says too (the same fact, reworded: "chit is +1" and "chit is +1, face down")."""
    found = []
    if any(EVENT.match(t) for t in texts) and any(CHANGED.match(t.split("\n")[0]) for t in texts):
        found.append("both a private event and 'your hidden information has changed'")
    seen: list[tuple[int, str]] = []
    for i, t in enumerate(texts):
        for f in _facts(t):
            for j, g in seen:
                if f == g:
                    found.append(f"twice: {f!r}")
                elif i != j and min(len(_words(f)), len(_words(g))) >= 5 and (_words(f) <= _words(g) or _words(g) <= _words(f)):
                    found.append(f"the same fact twice: {g!r} / {f!r}")
            seen.append((i, f))
    return found


@pytest.mark.parametrize("ruleset,seed,script,options", GAMES, ids=[g[0].split("@")[0] for g in GAMES])
async def test_no_command_tells_a_seat_the_same_fact_twice(tmp_path, ruleset, seed, script, options):
    """Issue 39: one road for each secret, over a whole game of every ruleset."""
    told = await _told(ruleset, seed, script, options, tmp_path / "g.db")
    bad = [(line, seat, why) for line, per_seat in told for seat, texts in per_seat.items()
           for why in twice_told(texts)]
    assert not bad, f"{len(bad)} times; the first: " + "; ".join(map(str, bad[:5]))


def test_the_checker_finds_what_it_is_for():
    """Issue 39: the whole-game test above would see each way of telling a fact twice (the examples of the
    report), and passes one message per fact."""
    chit = ["**Shadow** (private): Your Eotheod chit is **+1** (14.3). It is revealed right after the Westernesse chit.",
            "**Shadow** — your hidden information has changed:\nYour Eotheod chit is **+1**, face down (14.3). "
            "It is revealed right after the Westernesse chit."]
    assert len(twice_told(chit)) == 2  # two roads, and the same fact reworded
    gm = ["**Moderator** — your hidden information has changed:\nFellowship: The hidden Fellowship: Frodo W2010.\n"
          "Gondor's demand (AA.2) is in force.\nGondor: Boromir is at W2010.\nGondor's demand (AA.2) is in force."]
    assert twice_told(gm) == ["twice: \"gondor's demand (aa.2) is in force.\""]
    assert twice_told(["**Gondor** (private): Gondor demands that Boromir move with the Ringbearer (AA.2).",
                       "**Gondor** — your hidden information has changed:\nGondor's demand (AA.2) is in force."])
    assert twice_told(["**Fellowship** (private): Frodo moves through W2010 W2011 to W2011.",
                       "**Fellowship** (private): The Dark Power spots Frodo at W2011."]) == []
