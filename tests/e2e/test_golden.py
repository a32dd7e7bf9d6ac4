"""Golden outputs (issue 19): nothing a player sees may change while the code is reorganized.

Recorded once, before the redesign, and compared byte for byte since:
- the three scripted whole games through the local console (the same service, storage and
  renderer as on Discord): every public and private message in order, the SHA-256 of every PNG,
  and the digest of the state a replay of the stored log gives;
- random games from fixed seeds for each ruleset, through the engine's public interface only
  (`Game.legal_texts`, `Game.play`): every order, every public and private event text, every
  roll, and the final state's digest.

A change a player should see (a fixed rule, a new line in a message) is recorded again on
purpose with `PALANTIR_GOLDEN_WRITE=1 pytest tests/e2e/test_golden.py`, and the commit says why."""
from __future__ import annotations

import difflib
import gzip
import hashlib
import io
import json
import os
import random
from pathlib import Path

import pytest

from bot.transports.console import CHANNEL, Console
from bot.service import GameService
from bot.storage import Store
from engine.core import Game, OrderError, RulesetBase, clone, json_shaped, state_digest
from engine.rulesets import BUILTIN, get_ruleset

pytestmark = pytest.mark.heavy  # a long unit (5 s or more on one worker): handed out first under xdist (tests/conftest.py)

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden"
WRITE = os.environ.get("PALANTIR_GOLDEN_WRITE") == "1"

# every game of the registry (issue 43: a new game is played here with no line edited): its scripted whole
# game where it declares one (``RulesetBase.golden_script``), and random games from three seeds
SCRIPTED = [(rs, seed, script) for rs in sorted(BUILTIN) if get_ruleset(rs).golden_script
            for script, seed in [get_ruleset(rs).golden_script]]
RANDOM = [(rs, seed) for rs in sorted(BUILTIN) for seed in (1, 2, 3)]
RANDOM_ORDERS = 300


def compare(name: str, actual: str) -> None:
    path = GOLDEN / f"{name}.txt.gz"
    if WRITE:
        GOLDEN.mkdir(exist_ok=True)
        path.write_bytes(gzip.compress(actual.encode(), mtime=0))
        return
    assert path.exists(), f"no golden file {path.name}: record it with PALANTIR_GOLDEN_WRITE=1"
    expected = gzip.decompress(path.read_bytes()).decode()
    if actual != expected:
        diff = list(difflib.unified_diff(expected.splitlines(), actual.splitlines(), "golden", "now", lineterm="", n=2))
        pytest.fail(f"{name}: output changed ({len(diff)} diff lines); first ones:\n" + "\n".join(diff[:60]))


class Capture(Console):
    """The console, with each saved image replaced by its hash (no files, no paths); ``saved``: each saved
    file's extension and size, in order."""

    saved: list | None = None

    def _save(self, data: bytes | None, label: str, ext: str = "png") -> str:
        if data is None:
            return "(none)"
        if self.saved is not None:
            self.saved.append((ext, len(data)))
        return f"{label}.{ext} sha256:{hashlib.sha256(data).hexdigest()[:32]}"


async def scripted(ruleset: str, seed: str, script: str, db: Path, renderer=None, saved: list | None = None) -> str:
    """The scripted game's output (every message, each image's hash, the replay's digest, the log's hash);
    ``renderer``: one standing in for the service's own (tests/scripted_helpers.py: the same maps, measured
    as they are drawn); ``saved``: filled with each image's extension and size, as `--out` would save it."""
    store = await Store.open(str(db))
    try:
        service = GameService(store, seed_source=lambda: f"local-{seed}", clock=lambda: 1_750_000_000.0,
                              **({"renderer": renderer} if renderer else {}))
        out = io.StringIO()
        console = Capture(service, ruleset, None, out)
        console.saved = saved
        await console.setup()
        rc = await console.run_script(str(ROOT / "tests" / "scripts" / script))
        assert rc == 0, out.getvalue()[-2000:]
        row = await store.latest_game(CHANNEL)
        replayed = await service.table.replay_from_start(row)
        rebuilt = await service.table.rebuild(row)
        assert state_digest(replayed.state) == state_digest(rebuilt.state)
        log = [(a.seq, a.seat, a.text, a.kind, a.events) for a in await store.actions(row.id)]
        return (out.getvalue() + f"\n== replay digest {state_digest(replayed.state)}"
                f"\n== log sha256 {hashlib.sha256(json.dumps(log, sort_keys=True).encode()).hexdigest()}\n")
    finally:
        await store.close()


@pytest.mark.scripted_game  # its game drawn once per worker, shared (tests/scripted_helpers.py: drawn)
@pytest.mark.parametrize("ruleset,seed,script", SCRIPTED, ids=[s[0] for s in SCRIPTED])
def test_scripted_game_output_is_unchanged(ruleset, seed, script):
    from tests.scripted_helpers import drawn

    compare(f"scripted-{ruleset}", drawn(ruleset, seed, script).text)


def random_game(ruleset: str, seed: int, n: int) -> str:
    rnd = random.Random(seed)
    g = Game.new(get_ruleset(ruleset), seed=f"golden-{seed}")
    lines = []
    keys = (g.ruleset.phase_key(g.state), RulesetBase.phase_key(g.ruleset, g.state))
    for _ in range(n):
        if g.result():
            break
        seats = g.active_seats()
        if not seats:
            break
        seat = rnd.choice(seats)
        texts = g.legal_texts(seat, "", limit=60)
        if not texts:
            lines.append(f"{seat}: no legal action")
            break
        text = rnd.choice(texts)
        try:
            _, events = g.play(seat, text)
        except OrderError as e:  # an offered action refused: recorded, and a defect the diff shows
            lines.append(f"{seat} {text!r} REFUSED {e}")
            continue
        lines.append(f"{seat} {text}")
        # the phase key a ruleset reads from its state changes exactly when the one the public view gives
        # does (issue 12; War of the Ring's reads other fields than the view's, at the same moments)
        now = (g.ruleset.phase_key(g.state), RulesetBase.phase_key(g.ruleset, g.state))
        assert (now[0] != keys[0]) == (now[1] != keys[1]), (text, keys, now)
        keys = now
        assert json_shaped(g.state), f"{text}: the state holds a tuple or a non-string key (engine.core.clone)"
        assert clone(g.state) == g.state, f"{text}: the state does not survive a JSON round trip (engine.core.clone)"
        for e in events:
            if e.public:
                lines.append(f"  public: {e.public}")
            for s, t in sorted(e.private.items()):
                lines.append(f"  private {s}: {t}")
            for roll in e.rolls:
                lines.append(f"  roll {roll.get('label', '')}: {roll['value']}")
    res = g.result()
    lines.append(f"== result {res.summary if res else None}")
    lines.append(f"== digest {state_digest(g.state)}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("ruleset,seed", RANDOM, ids=[f"{r}-{s}" for r, s in RANDOM])
def test_random_game_output_is_unchanged(ruleset, seed):
    compare(f"random-{ruleset}-{seed}", random_game(ruleset, seed, RANDOM_ORDERS))
