"""War of the Ring through the service: `/game new ruleset:wotr` is played in assist mode unless asked
otherwise (no other ruleset changes), a four-player game starts without a Rohan player, and the secrets
(Gondor's demand, AA.2; a search's results, Hidden Movement) reach their seats by DM only."""

from bot.service import Ctx, GameService

USERS = {"fellowship": 11, "dark-power": 22, "saruman": 33, "gondor": 44, "rohan": 55, "gm": 66}
_ids = iter(range(1, 10**9))


def ctx(user, channel=7, mod=False):
    return Ctx(channel_id=channel, user_id=user, guild_id=1, interaction_id=f"w{next(_ids)}", is_moderator=mod)


async def test_wotr_defaults_to_assist_and_others_do_not(store):
    svc = GameService(store, renderer=None, seed_source=lambda: "s", clock=lambda: 1000.0)
    assert (await svc.lobby.new_game(ctx(11), "wotr", None)).ok
    assert (await store.live_game(7)).ruleset == "wotr@assist"
    assert (await svc.lobby.new_game(ctx(11, channel=8), "wotr", "mode=enforced players=4")).ok
    assert (await store.live_game(8)).ruleset == "wotr@enforced"
    assert (await svc.lobby.new_game(ctx(11, channel=9), "gondor", None)).ok
    assert (await store.live_game(9)).ruleset == "gondor"


async def test_new_game_lists_rohan_as_an_optional_seat(store):
    svc = GameService(store, renderer=None, seed_source=lambda: "s", clock=lambda: 1000.0)
    out = await svc.lobby.new_game(ctx(11), "wotr", None)
    assert "`fellowship`, `dark-power`, `saruman`, `gondor`, `rohan` (optional) and the moderator's `gm`" \
        in out.reply.text, out.reply.text
    out = await svc.lobby.new_game(ctx(11, channel=8), "wotr", "mode=enforced players=4")
    assert "`rohan` (optional)" in out.reply.text
    out = await svc.lobby.new_game(ctx(11, channel=9), "gondor", None)
    assert "Seats: `sauron`, `westernesse`. " in out.reply.text  # no optional seat: unchanged


async def started(store, options):
    svc = GameService(store, renderer=None, seed_source=lambda: "s", clock=lambda: 1000.0)
    assert (await svc.lobby.new_game(ctx(66), "wotr", options)).ok
    for seat, uid in USERS.items():
        if seat == "rohan" and "players=4" in (options or ""):
            continue
        assert (await svc.lobby.join(ctx(uid, mod=seat == "gm"), seat)).ok, seat
    out = await svc.lobby.start(ctx(66))
    assert out.ok, out.reply.text
    return svc


async def test_four_players_start_without_rohan_and_the_demand_reaches_gondor_fellowship_and_gm(store):
    svc = await started(store, "players=4")
    out = await svc.orders.order(ctx(44), "demand on")
    assert out.ok
    assert set(out.dms) <= {USERS["gondor"], USERS["fellowship"], USERS["gm"]}
    assert USERS["fellowship"] in out.dms
    public = [out.reply.text if not out.ephemeral else ""] + [p.text for p in out.public] + \
        [p.text for posts in out.elsewhere.values() for p in posts]
    assert not any("demand" in t.lower() and "Boromir" in t for t in public)
    assert "(a secret order)" in " ".join(public)


async def test_search_results_by_dm_to_the_searcher_only(store):
    svc = await started(store, None)
    for _ in range(40):
        row = await store.live_game(7)
        game = await svc.table.load(row)
        if game.state["phase"] == "search":
            break
        seat = game.active_seats()[0]
        text = "draw none" if game.state["phase"] == "events" else "done"
        assert (await svc.orders.order(ctx(USERS[seat]), text)).ok
    # on turn 1 the Nazgul are all in Mordor (Gorgoroth and Nurn), where the Dark Power's two search
    out = await svc.orders.order(ctx(22), "search gorgoroth:1 nurn:1")
    assert out.ok
    results = [p.text for p in out.dms.get(USERS["dark-power"], [])]
    assert any("Search results" in t for t in results)
    for seat in ("saruman", "gondor", "rohan"):
        assert not any("Search results" in p.text for p in out.dms.get(USERS[seat], []))
    channel = [p.text for posts in out.elsewhere.values() for p in posts] + [p.text for p in out.public] + \
        [out.notice.text if out.notice else "", out.reply.text if not out.ephemeral else ""]
    assert any("The results go to the Dark Power alone" in t for t in channel)
    assert not any("nobody located" in t for t in channel)


async def test_export_hides_the_walk_until_the_end_and_then_verifies(store):
    import json

    from bot.verify import verify_export
    svc = await started(store, "turns=1")
    for _ in range(60):
        row = await store.live_game(7)
        if row is None:  # over
            break
        game = await svc.table.load(row)
        seat = game.active_seats()[0]
        ph = game.state["phase"]
        if ph == "turn" and seat == "fellowship" and game.state["chars"]["frodo"]["hex"] == "W2010":
            text = "move frodo W1911 W1814"
        elif ph == "search" and seat == "dark-power":
            text = "search gorgoroth:2"
        else:
            text = "draw none" if ph == "events" else "done"
        assert (await svc.orders.order(ctx(USERS[seat]), text)).ok, text
        if text.startswith("move"):
            mid = await svc.archive.export_data(await store.live_game(7))
            assert "W1814" not in json.dumps(mid) and "move (a hidden character)" in json.dumps(mid)
    row = await store.latest_game(7)
    data = await svc.archive.export_data(row)
    assert "move frodo W1911 W1814" in data["orders"]  # revealed once the game is over
    ok, lines = verify_export(data)
    assert ok, lines
