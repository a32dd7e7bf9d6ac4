"""Levels of play through the service (issue 14): the mode chosen at `/game new`, stored as the
wrapped ruleset's name while a plain game is stored as before; the mode in `/game status`; the `gm`
seat for the creator or Manage Server only; `/whisper` with the game's `whispers=` policy."""

from bot.service import Ctx, GameService

RED, BLUE, MOD, OTHER = 101, 202, 303, 404
_ids = iter(range(1, 10**9))


def ctx(user, channel=7, mod=False):
    return Ctx(channel_id=channel, user_id=user, guild_id=1, interaction_id=f"m{next(_ids)}", is_moderator=mod)


async def made(store, options="mode=assist", ruleset="risk-minas-tirith"):
    svc = GameService(store, renderer=None, seed_source=lambda: "seed-1", clock=lambda: 1000.0)
    out = await svc.lobby.new_game(ctx(RED), ruleset, options)
    assert out.ok, out.reply.text
    return svc


async def test_plain_game_stored_as_before_and_moded_one_by_its_wrapped_name(store):
    svc = await made(store, None)
    row = await store.live_game(7)
    assert row.ruleset == "risk-minas-tirith" and "table" not in await store.first_snapshot(row.id)
    out = await svc.lobby.new_game(ctx(RED, channel=8), "risk-minas-tirith", "mode=tabletop whispers=public-only")
    assert out.ok and "`gm`" in out.reply.text
    row = await store.live_game(8)
    assert row.ruleset == "risk-minas-tirith@tabletop" and row.options == {"mode": "tabletop", "whispers": "public-only"}
    bad = await svc.lobby.new_game(ctx(RED, channel=9), "risk-minas-tirith", "mode=chaos")
    assert not bad.ok and "mode" in bad.reply.text and await store.live_game(9) is None


async def test_gm_seat_needs_creator_or_manage_server_and_is_optional(store):
    svc = await made(store)
    assert not (await svc.lobby.join(ctx(OTHER), "gm")).ok
    assert (await svc.lobby.join(ctx(MOD, mod=True), "gm")).ok
    assert (await svc.lobby.join(ctx(RED), "good")).ok
    out = await svc.lobby.join(ctx(BLUE), "evil")
    assert out.ok and "All seats are taken" in out.reply.text
    status = await svc.views.status(ctx(RED))
    assert "Level of play: **assist**" in status.reply.text and "Moderator: <@303>" in status.reply.text


async def test_game_starts_without_gm_and_creator_takes_gm_later(store):
    svc = await made(store)
    await svc.lobby.join(ctx(RED), "good")
    await svc.lobby.join(ctx(BLUE), "evil")
    assert (await svc.lobby.start(ctx(RED))).ok
    assert not (await svc.lobby.join(ctx(BLUE), "gm")).ok  # not the creator
    out = await svc.lobby.join(ctx(RED), "gm")  # the creator may, once started: gets every secret by DM
    assert out.ok
    assert "Level of play: **assist**" in (await svc.views.status(ctx(BLUE))).reply.text


async def started(store, options):
    svc = await made(store, options)
    await svc.lobby.join(ctx(RED), "good")
    await svc.lobby.join(ctx(BLUE), "evil")
    await svc.lobby.join(ctx(MOD, mod=True), "gm")
    assert (await svc.lobby.start(ctx(RED))).ok
    return svc


async def test_whisper_reaches_the_seat_and_the_gm_and_nothing_public(store):
    svc = await started(store, "mode=enforced")
    out = await svc.orders.whisper(ctx(BLUE), "good", "the gate is weak")
    assert out.ok and out.ephemeral and not out.elsewhere and not out.notice
    assert "the gate is weak" in out.reply.text
    assert ["the gate is weak" in p.text for p in out.dms[RED]] == [True]
    assert ["the gate is weak" in p.text for p in out.dms[MOD]] == [True]
    assert BLUE not in out.dms
    log = await svc.views.log(ctx(OTHER))
    assert "whisper (private)" in log.reply.text and "gate" not in log.reply.text and "good" not in log.reply.text.split("whisper")[1]
    bad = await svc.orders.whisper(ctx(BLUE), "nobody", "hi")
    assert not bad.ok and bad.ephemeral


async def test_whisper_policies(store):
    svc = await started(store, "mode=enforced whispers=public-only")
    out = await svc.orders.whisper(ctx(BLUE), "good", "hello")
    assert out.ok and not out.ephemeral and "Evil to Good: hello" in out.reply.text
    svc2 = GameService(store, renderer=None, seed_source=lambda: "s", clock=lambda: 1000.0)
    await svc2.lobby.new_game(ctx(RED, channel=11), "risk-minas-tirith", "whispers=off")
    await svc2.lobby.join(ctx(RED, channel=11), "good")
    await svc2.lobby.join(ctx(BLUE, channel=11), "evil")
    await svc2.lobby.start(ctx(RED, channel=11))
    before = (await store.live_game(11)).seq
    off = await svc2.orders.whisper(ctx(BLUE, channel=11), "good", "hello")
    assert not off.ok and off.ephemeral and "off" in off.reply.text
    assert (await store.live_game(11)).seq == before


async def test_whisper_in_a_plain_game_is_refused(store):
    svc = GameService(store, renderer=None, seed_source=lambda: "s", clock=lambda: 1000.0)
    await svc.lobby.new_game(ctx(RED), "risk-minas-tirith")
    await svc.lobby.join(ctx(RED), "good")
    await svc.lobby.join(ctx(BLUE), "evil")
    await svc.lobby.start(ctx(RED))
    out = await svc.orders.whisper(ctx(BLUE), "good", "hi")
    assert not out.ok and "off" in out.reply.text
    assert not (await svc.lobby.join(ctx(BLUE), "gm")).ok  # not the creator, no Manage Server
    before = (await store.live_game(ctx(RED).channel_id)).seq
    assert (await svc.lobby.join(ctx(RED), "gm")).ok  # the lobby's moderator (engine/modes/gm.py)
    row = await store.live_game(ctx(RED).channel_id)
    assert row.ruleset == "risk-minas-tirith" and row.seq == before  # the game itself is unchanged


async def test_help_mentions_modes_and_whispers(store):
    svc = GameService(store, renderer=None, seed_source=lambda: "s", clock=lambda: 1000.0)
    general = (await svc.views.help(ctx(RED))).reply.text
    assert "mode=assist" in general and "/whisper" in general
    text = (await svc.views.help(ctx(RED), "modes")).reply.text
    assert "tabletop" in text and "accept d1 because" in text
    await svc.lobby.new_game(ctx(RED), "risk-minas-tirith", "mode=tabletop")
    table = (await svc.views.help(ctx(RED), "table")).reply.text
    assert "Tabletop play" in table and "draw <deck>" in table


async def test_a_seat_voted_out_is_handed_over_by_a_player_once(store):
    svc = await started(store, "mode=enforced")
    assert not (await svc.lobby.sub(ctx(BLUE), "good", OTHER)).ok  # no vote yet: creator or moderator only
    out = await svc.orders.order(ctx(BLUE), "vote replace good")
    assert out.ok and "passes" in out.reply.text  # the only other seat voted for it
    assert not (await svc.lobby.sub(ctx(OTHER), "good", OTHER)).ok  # not a player
    out = await svc.lobby.sub(ctx(BLUE), "good", OTHER)
    assert out.ok and f"<@{OTHER}> now holds **Good**" in out.reply.text
    assert not (await svc.lobby.sub(ctx(BLUE), "good", RED)).ok  # once


async def test_a_vote_to_end_ends_the_game_and_the_export_verifies(store):
    from bot.verify import verify_export

    svc = await started(store, "mode=enforced")
    assert (await svc.orders.order(ctx(RED), "vote end")).ok
    out = await svc.orders.order(ctx(BLUE), "accept v1")
    assert out.ok and "The game is over" in out.reply.text
    row = await store.latest_game(7)
    assert row.status == "over"
    ok, lines = verify_export(await svc.archive.export_data(row))
    assert ok, lines


def test_console_plays_assist_mode_with_the_moderator(tmp_path):
    """`palantir local gondor --mode assist`: every seat and the moderator's, `/whisper`, rulings."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    script = tmp_path / "assist.txt"
    script.write_text("\n".join([
        "/order Gothmog harangues the orcs",
        "!expect-error /order deploy GOT 9999",
        "/order !deploy GOT 9999",
        "as gm",
        "!expect-error /order accept d1",
        "/order accept d1 because a leader may harangue",
        "/order refuse d2 because off the map",
        "as sauron",
        "/whisper seat:westernesse text:yield the city",
        "/game log",
    ]) + "\n")
    res = subprocess.run([sys.executable, "-m", "bot.cli", "local", "gondor", "--mode", "assist", "--seed", "3",
                          "--no-images", "--script", str(script)], cwd=tmp_path, capture_output=True, text=True,
                         timeout=300, env=dict(os.environ, PYTHONPATH=str(root)))
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    out = res.stdout
    assert "**accepted** by the moderator" in out and "**refused** by the moderator" in out
    whisper = [ln for ln in out.splitlines() if "yield the city" in ln and not ln.startswith("> ")]
    assert whisper and all(ln.startswith(("[to sauron]", "[to westernesse]", "[to gm]")) for ln in whisper)
    assert "[to sauron] `#5` sauron: `whisper (private)`" in out


async def test_status_lists_what_awaits_an_answer(store):
    svc = await started(store, "mode=assist")
    await svc.orders.order(ctx(RED), "!take 9")
    await svc.orders.order(ctx(BLUE), "vote end")
    text = (await svc.views.status(ctx(OTHER))).reply.text
    assert "Awaiting an answer: declared d1 (`take 9`), vote v1 (end)." in text


async def test_undo_of_table_orders(store):
    svc = await started(store, "mode=tabletop")
    assert (await svc.orders.order(ctx(RED), "place A1 city infantry")).ok
    out = await svc.undo.undo(ctx(RED))
    assert out.ok and "takes back" in out.reply.text  # nothing hidden, no dice: free
    row = await store.live_game(7)
    assert (await svc.table.load(row)).state["table"]["pieces"] == {}
    assert (await svc.orders.whisper(ctx(RED), "evil", "a secret")).ok
    out = await svc.undo.undo(ctx(RED))
    assert out.ok and "agree" in out.reply.text  # the whisper was read: the others must agree


async def test_replay_of_a_tabletop_game_from_a_seat_and_the_moderator(store):
    svc = GameService(store, seed_source=lambda: "seed-r", clock=lambda: 1000.0)  # with the real renderer
    await svc.lobby.new_game(ctx(RED), "risk-minas-tirith", "mode=tabletop")
    await svc.lobby.join(ctx(RED), "good")
    await svc.lobby.join(ctx(BLUE), "evil")
    await svc.lobby.join(ctx(MOD, mod=True), "gm")
    await svc.lobby.start(ctx(RED))
    for text in ("place H1 city scout hidden", "done"):
        assert (await svc.orders.order(ctx(RED), text)).ok
    for who in (BLUE, MOD):
        out = await svc.archive.replay(ctx(who))
        assert out.ok and out.reply.image[:6] in (b"GIF87a", b"GIF89a"), out.reply.text
