"""Issue 40: `/game export format:html`, the game's record. Mid-game, Sauron's and a spectator's records
are byte-identical whichever cauldrons are real (16.71), Westernesse's are not; once the game is over
everything is revealed with a view per seat; a bad format or a record too big is a short private answer."""
import json

import pytest

from bot import archive
from bot.service import Ctx, GameService
from bot.storage import Store
from tests.gondor_helpers import SAURON_SETUP, WESTERNESSE_SETUP

pytestmark = pytest.mark.heavy  # a long unit (5 s or more on one worker): handed out first under xdist (tests/conftest.py)

SAURON, WEST, CAROL = 1, 2, 3
_ids = iter(range(1, 10**9))


def ctx(user, mod=False):
    return Ctx(channel_id=4, user_id=user, guild_id=1, interaction_id=f"h{next(_ids)}", is_moderator=mod)


async def records(tmp_path, real, name):
    store = await Store.open(str(tmp_path / name))
    svc = GameService(store, seed_source=lambda: "record-seed", clock=lambda: 86400.0 * 365)
    svc.table.fixtures[4] = {"real_cauldrons": real}
    await svc.lobby.new_game(ctx(SAURON), "gondor")
    await svc.lobby.join(ctx(SAURON), "sauron")
    await svc.lobby.join(ctx(WEST), "westernesse")
    await svc.lobby.start(ctx(SAURON))
    for o in SAURON_SETUP:
        assert (await svc.orders.order(ctx(SAURON), o)).ok
    await svc.orders.order(ctx(SAURON), "done")
    for o in WESTERNESSE_SETUP:
        assert (await svc.orders.order(ctx(WEST), o)).ok
    await svc.orders.order(ctx(WEST), "done")
    out = {"sauron": await svc.archive.export(ctx(SAURON), "html"), "west": await svc.archive.export(ctx(WEST), "html"),
           "carol": await svc.archive.export(ctx(CAROL), "html"), "bad": await svc.archive.export(ctx(CAROL), "xml"),
           "json": await svc.archive.export(ctx(CAROL))}
    await svc.lobby.end(ctx(SAURON, mod=True))
    out["over"] = await svc.archive.export(ctx(CAROL), "html")
    await store.close()
    return out


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    import asyncio

    d = tmp_path_factory.mktemp("record")
    return (asyncio.run(records(d, ["K1", "K2", "K3"], "a.db")), asyncio.run(records(d, ["K4", "K5", "K6"], "b.db")))


def html(out) -> bytes:
    assert out.ok and out.ephemeral, out.reply.text if out.reply else out
    return out.reply.attachment


def test_public_records_are_byte_identical_whatever_the_secret(pair):
    """Issue 40: a mid-game record from Sauron's seat, or a spectator's, holds nothing of which cauldrons
    are real (16.71): two games that differ only in that give the same bytes; Westernesse's differ."""
    a, b = pair
    assert html(a["sauron"]) == html(b["sauron"])
    assert html(a["carol"]) == html(b["carol"])
    assert html(a["west"]) != html(b["west"])
    assert html(a["over"]) != html(b["over"])  # once it is over, everything is revealed


def test_record_says_whose_view_and_names_the_game_and_date(pair):
    """Issue 40: the file name says the game and the date; the page's title is the game's; once over, a
    switch between every seat's view and the full view."""
    a, _ = pair
    assert a["sauron"].reply.attachment_name == "palantir-gondor-game-1-1971-01-01.html"
    page = html(a["sauron"]).decode()
    assert "<title>Gondor: The Siege of Minas Tirith: game record</title>" in page and "Sauron&#39;s own view" in page
    assert '<select id="view">' not in page  # mid-game: the caller's own view only
    assert "The public view" in html(a["carol"]).decode()
    over = html(a["over"]).decode()
    assert '<select id="view">' in over
    assert all(f'<option value="{v}">' in over for v in ("full", "sauron", "westernesse"))
    assert "http://" not in page and "https://" not in page  # nothing fetched from anywhere


def test_bad_format_is_refused_privately(pair):
    """Issue 40: a format other than json or html is a short private answer, and JSON stays the default."""
    a, _ = pair
    assert not a["bad"].ok and a["bad"].ephemeral and "`json` or `html`" in a["bad"].reply.text
    assert a["json"].reply.attachment_name.endswith(".json")


async def test_a_record_too_big_says_so_and_offers_a_range(tmp_path, monkeypatch):
    """Issue 40: a record over Discord's 10 MiB is not sent: the answer says so and offers `since:`."""
    monkeypatch.setattr(archive, "MAX_RECORD_BYTES", 1000)
    store = await Store.open(str(tmp_path / "big.db"))
    svc = GameService(store, seed_source=lambda: "record-seed", clock=lambda: 10.0)
    await svc.lobby.new_game(ctx(SAURON), "gondor")
    await svc.lobby.join(ctx(SAURON), "sauron")
    await svc.lobby.join(ctx(WEST), "westernesse")
    await svc.lobby.start(ctx(SAURON))
    out = await svc.archive.export(ctx(SAURON), "html")
    await store.close()
    assert not out.ok and out.ephemeral and "10 MiB" in out.reply.text and "since:" in out.reply.text
    assert out.reply.attachment is None


def test_palantir_record_of_a_mid_game_export_is_the_public_record(pair, tmp_path):
    """Issue 40: `palantir record` makes the public view of a game under way: its JSON export carries each
    step's public view (no seed, nothing hidden: the exports of two games that differ only in which
    cauldrons are real are byte-identical), and the record made from it is, byte for byte, the one a
    spectator gets from the bot."""
    from bot.cli import main

    a, b = pair
    blob = a["json"].reply.attachment
    assert blob == b["json"].reply.attachment
    data = json.loads(blob)
    assert data["seed"] is None and len(data["public_views"]["steps"]) == len(data["log"]) > 50
    (tmp_path / "mid.json").write_bytes(blob)
    assert main(["record", str(tmp_path / "mid.json"), "-o", str(tmp_path / "mid.html")]) == 0
    assert (tmp_path / "mid.html").read_bytes() == html(a["carol"])


async def test_palantir_record_makes_the_page_of_an_export(tmp_path, capsys):
    """Issue 40: `palantir record EXPORT.json -o FILE` makes the record of a finished game's export
    (everything revealed); an export made while the game was under way by an earlier version (no seed, no
    public views) is refused in one line."""
    from bot.cli import main

    store = await Store.open(str(tmp_path / "cli.db"))
    svc = GameService(store, seed_source=lambda: "record-seed", clock=lambda: 10.0)
    await svc.lobby.new_game(ctx(SAURON), "gondor")
    await svc.lobby.join(ctx(SAURON), "sauron")
    await svc.lobby.join(ctx(WEST), "westernesse")
    await svc.lobby.start(ctx(SAURON))
    for o in SAURON_SETUP[:5]:
        assert (await svc.orders.order(ctx(SAURON), o)).ok
    mid = json.loads((await svc.archive.export(ctx(SAURON))).reply.attachment)
    del mid["public_views"]  # (as an earlier version exported a game under way)
    (tmp_path / "mid.json").write_text(json.dumps(mid))
    await svc.lobby.end(ctx(SAURON, mod=True))
    (tmp_path / "over.json").write_bytes((await svc.archive.export(ctx(SAURON))).reply.attachment)
    await store.close()
    assert main(["record", str(tmp_path / "over.json"), "-o", str(tmp_path / "r.html")]) == 0
    page = (tmp_path / "r.html").read_text()
    assert '<select id="view">' in page and page.count('<li id="l') == 5  # a line a log row
    assert main(["record", str(tmp_path / "mid.json")]) == 2
    assert "under way (no seed)" in capsys.readouterr().out
    assert not (tmp_path / "mid.html").exists()
