"""A War of the Ring game stored by the release before the Nazgul were pieces (state version 1) goes on
after the upgrade: it loads, its whole log replays, and it plays to the end it would have had, keeping
the rules it began with (its searches may name any province up to the seat's strength: Hidden Movement
as that release had it). The fixture is a real SQLite file that release wrote, over its console, after
62 orders of the scripted game (turn 3); tests/fixtures/wotr_v1_rest.txt is the rest of that script."""
import asyncio
import gzip
import os
import shutil
import subprocess
import sys
from pathlib import Path

from bot.history import entry_of, walk
from bot.storage.sqlite import SqliteStore
from engine.core import Game, clone
from engine.rulesets import get_ruleset
from engine.rulesets.wotr.nazgul import NAZGUL
from tests.wotr_helpers import RS, new
from engine.rulesets.wotr import lookup

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = ROOT / "tests" / "fixtures"


def _db(tmp_path) -> Path:
    db = tmp_path / "v1.db"
    with gzip.open(FIXTURES / "wotr_v1_turn3.db.gz") as src, open(db, "wb") as out:
        shutil.copyfileobj(src, out)
    return db


def test_a_version_1_game_replays_its_whole_log_after_the_upgrade(tmp_path):
    async def go():
        store = await SqliteStore.open(str(_db(tmp_path)))
        try:
            row = await store.game(1)
            first = await store.first_snapshot(1)
            rows = await store.actions(1)
        finally:
            await store.close()
        return row, first, rows

    row, first, rows = asyncio.run(go())
    assert row.ruleset == "wotr@assist" and first["version"] == 1 and isinstance(first["nazgul"]["dark-power"], int)
    assert any(a.text.startswith("search hollin:1") for a in rows)  # a search where no Nazgul piece stands
    game = None
    for _, game, _ in walk(row.ruleset, first, [entry_of(a) for a in rows]):
        pass
    st = game.state
    assert st["version"] == 2 and st["searches_anywhere"] and set(st["nazgul"]) == set(NAZGUL)
    assert all(lookup._bd(RS, st).province_of[n["hex"]] in ("gorgoroth", "nurn") for n in st["nazgul"].values())


def test_the_upgrade_turns_counts_into_pieces_of_the_same_seats():
    st = clone(new(5).state)
    st["version"] = 1
    st["nazgul"] = {"dark-power": 6, "saruman": 2, "gondor": 1}
    st["map"] = None
    for k in ("group", "event_texts", "item_names"):
        st.pop(k, None)
    for c in st["chars"].values():
        c.pop("ratings", None)
    g = Game(get_ruleset("wotr"), st)  # every Game made from a stored state is upgraded
    seats = [g.state["nazgul"][n]["seat"] for n in NAZGUL]
    assert seats.count("dark-power") == 6 and seats.count("saruman") == 2 and seats.count("gondor") == 1
    assert g.state["chars"]["denethor"]["ratings"]["ring_rating"] == 3  # AA.1
    assert g.state["item_names"] and g.state["group"] is None and g.state["searches_anywhere"]


def test_a_game_begun_now_keeps_the_pieces_rule_and_is_left_as_it_is():
    """Only a version 1 state searches anywhere; the upgrade leaves a current one alone (the search refused
    where the seat has no Nazgul: tests/rulesets/wotr/test_wotr_nazgul.py)."""
    g = new(5)
    assert "searches_anywhere" not in g.state  # the pieces' rule (Hidden Movement) for every game begun now
    st = clone(g.state)
    st["version"] = 1
    st["nazgul"] = {"dark-power": 9, "saruman": 0, "gondor": 0}
    st["map"] = None
    old = Game(get_ruleset("wotr"), st)
    assert old.state["searches_anywhere"]
    before = clone(g.state)
    g.ruleset.upgrade_state(g.state)  # a current state is left as it is
    assert g.state == before


def test_the_version_1_game_plays_on_to_its_end_over_the_console(tmp_path):
    db = _db(tmp_path)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    res = subprocess.run([sys.executable, "-m", "bot.cli", "local", "wotr", "--seed", "7", "--options", "turns=4",
                          "--no-images", "--db", str(db), "--script", str(FIXTURES / "wotr_v1_rest.txt")],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    out = res.stdout
    assert res.returncode == 0, out[-3000:] + res.stderr[-2000:]
    assert "Refused" not in out and "Traceback" not in out
    # turn 4's search names Lothlorien, where no Nazgul piece stands: accepted, as when the game began
    assert "Dark Power searches: Lothlorien with 6 Nazgul" in out
    # the full reasoning once, then the result in one short line, the winner first (issue 26)
    assert out.count("The last game-turn (4) is over. Winners: Gondor, Rohan.") == 1
    assert "The last game-turn (4) is over. Winners: Gondor, Rohan.\n**The game is over: Gondor and Rohan win**" in out
