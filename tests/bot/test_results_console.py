"""Issue 41 in the terminal (`palantir local`): `/stats`, `/ratings` and `/me record` answer as on Discord, its
seats being separate players, the chart saved like any image; a bad ruleset or player is refused."""
import io

from bot.service import GameService
from bot.storage import Store
from bot.transports.console import Console
from tests import pbp_helpers  # noqa: F401  (tiny-pbp)


async def test_the_console_has_stats_ratings_and_my_record(tmp_path):
    store = await Store.open(str(tmp_path / "c.db"))
    try:
        out = io.StringIO()
        con = Console(GameService(store, renderer=None, seed_source=lambda: "c-seed"), "tiny-pbp", str(tmp_path),
                      stream=out, options="rated=on")
        assert await con.setup() is None
        assert (await con.run_command("/order win")).ok  # red (local player 1) wins
        said = out.getvalue()
        for line in ("/stats", "/ratings ruleset:tiny-pbp", "/me record", "/stats player:blue"):
            assert (await con.run_command(line)).ok, line
        said = out.getvalue()[len(said):]
        assert "Finished games in this server: 1" in said and "wins Red 1 · Blue 0" in said
        assert any(tmp_path.glob("*.png"))  # the chart, saved like any image
        assert "**Ratings: Tiny PBP** (2 players)" in said and "Your ratings here:** Tiny PBP" in said
        assert "Tiny PBP as Blue: 1 games, won 0, lost 1" in said
        assert not (await con.run_command("/stats player:nobody")).ok
        assert not (await con.run_command("/ratings ruleset:chess")).ok
    finally:
        await store.close()
