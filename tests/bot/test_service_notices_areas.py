"""Service tests (no Discord): the phase notice (one post: report, ping, deadline; a long report
is trimmed, never the ping), an area game's `/game map around:` and status line, `/odds` for a
ruleset without odds, chart files (`charts=`) and the console's `charts=@file`."""
import io


from bot.transports.console import Console
from bot.service import Ctx, GameService, fit_lines
from engine.core import Event
from engine.rulesets import register
from tests import pbp_helpers
from tests.pbp_helpers import Tiny

RED, BLUE = 11, 22
_ids = iter(range(1, 10**9))


def ctx(user, channel=7):
    return Ctx(channel_id=channel, user_id=user, guild_id=1, interaction_id=f"n{next(_ids)}", user_name=str(user))


class Wordy(Tiny):
    """Tiny, whose phase change comes with a very long report, and with no odds."""

    name = "tiny-wordy"
    title = "Tiny Wordy"
    has_odds = False  # declared: the service never probes for an `odds` method

    def apply(self, st, seat, a):
        events = super().apply(st, seat, a)
        if a.verb == "done":
            events.append(Event(public="The omens: " + "ravens circle the tower. " * 150, new_phase=True))
        return events


register(Wordy())
assert pbp_helpers.TINY


async def started(svc, ruleset, seats, options=None, channel=7):
    assert (await svc.lobby.new_game(ctx(RED, channel), ruleset, options)).ok
    for user, seat in zip((RED, BLUE), seats):
        assert (await svc.lobby.join(ctx(user, channel), seat)).ok
    out = await svc.lobby.start(ctx(RED, channel))
    assert out.ok
    return out


def test_fit_lines_trims_the_report_never_the_ping():
    text = fit_lines([("keep", "**Head**"), ("trim", "x" * 3000), ("trim", "more"), ("keep", "To act: Blue (<@22>)."),
                      ("opt", "hint")], limit=2000)
    assert len(text) == 2000 and text.startswith("**Head**\n") and text.endswith("To act: Blue (<@22>).")
    assert "hint" not in text and "…" in text
    short = fit_lines([("keep", "a"), ("trim", "b"), ("keep", "c"), ("opt", "d")])
    assert short == "a\nb\nc\nd"


async def test_a_phase_start_is_one_notice_with_the_ping_and_a_trimmed_report(store):
    svc = GameService(store, renderer=None, seed_source=lambda: "s", clock=lambda: 1_000_000.0)
    out = await started(svc, "tiny-wordy", ("red", "blue"), "deadline=24")
    assert out.notice.mentions == [RED] and out.reply.mentions == []
    out = await svc.orders.order(ctx(RED), "done")
    assert out.ok and not out.ephemeral and out.map_after
    assert out.reply.text.startswith("**Red** `done`") and out.reply.mentions == []  # the order's answer
    n = out.notice
    assert len(n.text) <= 2000 and n.mentions == [BLUE]
    assert f"To act: Blue (<@{BLUE}>)." in n.text and "Deadline: <t:" in n.text  # kept whole
    assert "The omens: ravens" in n.text and "…" in n.text  # the report, trimmed
    assert "ravens" not in out.reply.text


async def test_odds_for_a_ruleset_without_odds_are_refused_privately(store):
    svc = GameService(store, renderer=None, seed_source=lambda: "s")
    await started(svc, "tiny-wordy", ("red", "blue"))
    out = await svc.orders.odds(ctx(RED), "roll 3")
    assert not out.ok and out.ephemeral and "not available" in out.reply.text and "Tiny Wordy" in out.reply.text
    # a ruleset with odds still answers
    svc2 = GameService(store, renderer=None, seed_source=lambda: "s")
    await started(svc2, "tiny-pbp", ("red", "blue"), channel=8)
    out = await svc2.orders.odds(ctx(RED, 8), "roll 3")
    assert out.ok and out.ephemeral and "4/6" in out.reply.text


async def test_an_area_game_map_around_areas_and_a_status_without_game_turns(store):
    svc = GameService(store, seed_source=lambda: "area")
    await started(svc, "risk-minas-tirith", ("good", "evil"))
    for place in ("osgiliath-w", "city", "OSGILIATH-W"):
        out = await svc.views.map(ctx(RED), place)
        assert out.ok and not out.ephemeral and out.reply.image[:8] == b"\x89PNG\r\n\x1a\n"
        assert f"around {place.lower()}" in out.reply.text
    for bad, needle in (("1905", "no area"), ("narnia", "no area"), ("x" * 60, "40 characters")):
        out = await svc.views.map(ctx(RED), bad)
        assert not out.ok and out.ephemeral and needle in out.reply.text, out.reply.text
    pairs = await svc.views.autocomplete_around(ctx(RED), "osg")
    assert 0 < len(pairs) <= 25 and all(v.startswith("osg") for _, v in pairs[:1])
    assert len(await svc.views.autocomplete_around(ctx(RED), "")) <= 25
    st = (await svc.views.status(ctx(BLUE))).reply.text
    assert "Game-Turn" not in st and "{turns}" not in st and "Round 1" in st
    # a hex game keeps its hexes
    await started(svc, "gondor", ("sauron", "westernesse"), channel=9)
    assert (await svc.views.map(ctx(RED, 9), "1905")).ok
    out = await svc.views.map(ctx(RED, 9), "city")
    assert not out.ok and out.ephemeral
    assert "Set-up" in (await svc.views.status(ctx(RED, 9))).reply.text


async def test_charts_text_becomes_the_charts_option_and_bad_charts_name_their_line(store):
    svc = GameService(store, renderer=None, seed_source=lambda: "c")
    good = '[cpt]\nD = ["2-12", "2-12", "2-12", "2-12"]\n'
    out = await svc.lobby.new_game(ctx(RED, 3), "gondor", None, charts='# x\n[cpt]\nA = ["2-9", "2-9", "2-8"]\n')
    assert not out.ok and out.ephemeral and "charts line 3" in out.reply.text
    out = await svc.lobby.new_game(ctx(RED, 3), "risk-minas-tirith", None, charts=good)
    assert not out.ok and "risk-minas-tirith has no option `charts`" in out.reply.text
    assert await store.latest_game(3) is None
    out = await svc.lobby.new_game(ctx(RED, 3), "gondor", "rally.ara=9", charts=good)
    assert out.ok and "own charts" in out.reply.text
    row = await store.live_game(3)
    assert row.options["charts"] == good and (await svc.table.load(row)).state["options"]["charts"] == good


async def test_the_console_reads_charts_at_file(store, tmp_path):
    svc = GameService(store, renderer=None, seed_source=lambda: "con")
    stream = io.StringIO()
    con = Console(svc, "gondor", None, stream)
    await con.setup()
    assert (await con.run_command("/game end")).ok
    bad = tmp_path / "bad.toml"
    bad.write_text('# x\n[cpt]\nA = ["2-9", "2-9", "2-8"]\n')
    out = await con.run_command(f"/game new gondor options:charts=@{bad}")
    assert not out.ok and "charts line 3" in out.reply.text
    out = await con.run_command(f"/game new gondor options:charts=@{tmp_path / 'missing.toml'}")
    assert not out.ok and "cannot read" in out.reply.text
    big = tmp_path / "big.toml"
    big.write_bytes(b"#" * (65 * 1024))
    assert "64 KB" in (await con.run_command(f"/game new gondor options:charts=@{big}")).reply.text
    good = tmp_path / "ours.toml"
    good.write_text('[cpt]\nD = ["2-12", "2-12", "2-12", "2-12"]\n')
    out = await con.run_command(f'/game new gondor options:"deadline=12 charts=@{good}"')
    assert out.ok, out.reply.text
    row = await store.live_game(1)
    assert row.options["charts"] == good.read_text() and row.options["deadline"] == "12"
