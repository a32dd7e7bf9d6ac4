"""Issue 40: a mid-game record (`/game export format:html`) from each seat holds none of another seat's
secrets, for every ruleset with hidden information (Gondor's cauldrons: tests/bot/test_record.py). Each
game is played through the console (the service, storage, the commit path) twice, the two games differing
only in one seat's secret; the records of every seat not entitled to that secret, the public one and the
JSON export (with its public views, from which `palantir record` makes the public record) are
byte-identical."""
from __future__ import annotations

import io
from pathlib import Path

import pytest

from bot.cli import main
from bot.service import GameService
from bot.storage import Store
from bot.transports.console import Console

pytestmark = pytest.mark.heavy  # whole games up to mid-play: handed out first under xdist (tests/conftest.py)

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"
SPECTATOR = 999


def script_lines(name: str, until: str | None = None, swap: dict[str, str] | None = None) -> list[str]:
    """A scripted game's commands (comments and blank lines out), up to the line ``until`` (not included),
    with lines of ``swap`` replaced."""
    out = []
    for raw in (SCRIPTS / name).read_text().splitlines():
        if raw.strip() == until:
            break
        line = raw.split("#", 1)[0].strip() if not raw.lstrip().startswith("#") else ""
        if line:
            out.append((swap or {}).get(line, line))
    return out


async def seat_records(db: Path, ruleset: str, seed: str, lines: list[str], fixture: dict | None = None,
                       options: str | None = None) -> tuple[dict[str, bytes], dict]:
    """Each seat's record, a spectator's (``public``), and the JSON export (``json``) of the game ``lines``
    play (mid-game), and the game's state; `palantir record` of that export makes the spectator's record."""
    store = await Store.open(str(db))
    try:
        svc = GameService(store, seed_source=lambda: seed, clock=lambda: 1_750_000_000.0, renderer=None)
        if fixture:
            svc.table.fixtures[1] = fixture
        console = Console(svc, ruleset, None, io.StringIO(), options=options)
        assert await console.setup() is None
        for line in lines:
            expect = line.startswith("!expect-error ")
            out = await console.run_command(line.removeprefix("!expect-error ").strip())
            assert out is None or out.ok != expect, (line, out.reply.text if out and out.reply else out)
        records = {}
        for seat in console.rs.seats:
            console.seat = seat
            out = await svc.archive.export(console.ctx(), "html")
            assert out.ok and out.ephemeral, out.reply.text
            records[seat] = out.reply.attachment
        ctx = console.ctx()
        out = await svc.archive.export(type(ctx)(channel_id=ctx.channel_id, guild_id=ctx.guild_id, user_id=SPECTATOR,
                                         interaction_id="spectator"), "html")
        assert out.ok and b"The public view" in out.reply.attachment, out.reply.text
        records["public"] = out.reply.attachment
        # the JSON export of the game under way, and `palantir record` of it: the public record again
        records["json"] = (await svc.archive.export(console.ctx())).reply.attachment
        (db.parent / f"{db.stem}.json").write_bytes(records["json"])
        assert main(["record", str(db.parent / f"{db.stem}.json"), "-o", str(db.parent / f"{db.stem}.html")]) == 0
        assert (db.parent / f"{db.stem}.html").read_bytes() == records["public"]
        return records, (await svc.table.load(await store.live_game(1))).state
    finally:
        await store.close()


def differ_only_for(a: dict[str, bytes], b: dict[str, bytes], entitled: set[str]) -> None:
    """Every record but those of the ``entitled`` seats is byte-identical in the two games."""
    same = {k for k in a if a[k] == b[k]}
    assert set(a) - entitled <= same, f"records that tell another seat's secret: {sorted(set(a) - entitled - same)}"


CELEBRANT = script_lines("celebrant_game.txt", until="# Game-Turn 6")  # (the chits are revealed on turn 7)


async def test_celebrant_records_hold_no_other_seats_eotheod_chit(tmp_path):
    """Issue 40 (14.3): mid-game, two games differing only in the Westernesse chit drawn give identical
    public records and identical records from the Shadow seat; and the other way round."""
    def chits(west, shadow):
        return {"chits": {"westernesse": west, "shadow": shadow}}
    base, state = await seat_records(tmp_path / "a.db", "celebrant", "local-7", CELEBRANT, chits("7 NW", "+1"))
    assert state["turn"] == 6 and not state["cel"]["eotheod"]["revealed"]  # mid-game, the chits still secret
    west, _ = await seat_records(tmp_path / "b.db", "celebrant", "local-7", CELEBRANT, chits("7 SE (-2)", "+1"))
    differ_only_for(base, west, {"westernesse"})
    shadow, _ = await seat_records(tmp_path / "c.db", "celebrant", "local-7", CELEBRANT, chits("7 NW", "+2 shift"))
    differ_only_for(base, shadow, {"shadow"})


async def test_risk_records_hold_nothing_of_the_decks_order(tmp_path):
    """Issue 40: in LOTR Risk the hands are face up and only the order of the two face-down decks is hidden,
    from both sides: two games that differ only in the order of the cards not yet drawn give identical
    records from every seat and the public."""
    from engine.core import Game
    from engine.rulesets import get_ruleset

    lines = script_lines("risk_minas_tirith_game.txt", until="/order reinforce cav6 on theoden")
    decks = Game.new(get_ruleset("risk-minas-tirith"), {}, "local-11").state["hidden"]
    a, state = await seat_records(tmp_path / "a.db", "risk-minas-tirith", "local-11", lines, dict(decks))
    left = {k: len(state["hidden"][k]) for k in decks}
    assert state["over"] is None and all(0 < n < len(decks[k]) for k, n in left.items())  # cards drawn, some left
    turned = {k: decks[k][:-left[k]] + decks[k][-left[k]:][::-1] for k in decks}  # the cards not drawn, reversed
    b, other = await seat_records(tmp_path / "b.db", "risk-minas-tirith", "local-11", lines, turned)
    assert other["hidden"] != state["hidden"]
    differ_only_for(a, b, set())


WOTR = script_lines("wotr_game.txt", until="/order move frodo W1911 W1814")  # (turn 1: demand, draws, search)


async def test_wotr_records_hold_neither_the_fellowships_position_nor_the_demand(tmp_path):
    """Issue 40: in War of the Ring, two games that differ only in the hidden Fellowship's position give
    identical records from every seat but the Fellowship's (whose own view shows where it is); two that
    differ only in Gondor's secret demand (AA.2: on, or lifted) give identical records from every seat not
    told of it (the Dark Power, Saruman, Rohan, the public)."""
    a, state = await seat_records(tmp_path / "a.db", "wotr", "local-7", WOTR, None, "turns=4")
    assert state["demand"] and state["over"] is None
    moved, _ = await seat_records(tmp_path / "b.db", "wotr", "local-7", WOTR, {"hexes": {"frodo": "E0927"}}, "turns=4")
    differ_only_for(a, moved, {"fellowship"})
    assert a["fellowship"] != moved["fellowship"]
    lifted = [{"/order demand on": "/order demand off"}.get(line, line) for line in WOTR]
    b, other = await seat_records(tmp_path / "c.db", "wotr", "local-7", lifted, {"demand": True}, "turns=4")
    assert not other["demand"]
    differ_only_for(a, b, {"gondor", "fellowship"})
