"""Boiling oil without a leak, through the whole bot (the service, storage,
notices, maps, DMs, autocomplete, odds and undo): two games that differ only
in which cauldrons are real give Sauron exactly the same messages, pings,
images and answers, until a Sauron unit ends its move below the carrier whose
oil is real in one game only (16.71-16.74)."""
from bot.service import Ctx, GameService
from bot.storage import Store
from tests.rulesets.gondor.test_gondor_oil_secrecy import ORDERS, UNITS

SAURON, WEST = 11, 22


async def play(tmp_path, name, real):
    store = await Store.open(str(tmp_path / f"{name}.db"))
    svc = GameService(store, seed_source=lambda: "same-seed", clock=lambda: 5.0)
    svc.table.fixtures[1] = {"real_cauldrons": real, "position": {"turn": 6, "step": "F", "units": UNITS}}
    seen: list = []  # everything Sauron could observe, in order
    n = 0

    async def do(user, fn, *args):
        nonlocal n
        n += 1
        out = await fn(Ctx(channel_id=1, user_id=user, guild_id=1, interaction_id=f"i{n}"), *args)
        if out.reply and (not out.ephemeral or user == SAURON):
            seen.append(("reply", out.reply.text, out.reply.image, tuple(out.reply.buttons), out.reply.attachment))
        for p in out.public:
            seen.append(("public", p.text, p.image, tuple(p.mentions)))
        for cid, posts in out.elsewhere.items():
            seen.extend(("channel", cid, p.text) for p in posts)
        if out.notice:
            seen.append(("notice", out.notice.text, tuple(out.notice.mentions)))
        if out.map_after:
            gid, seat = out.map_after
            if seat in (None, "sauron"):
                seen.append(("map", *(await svc.table.render_game(gid, seat))))
        seen.append(("dm", tuple(p.text for p in out.dms.get(SAURON, []))))
        return out

    await do(SAURON, svc.lobby.new_game, "gondor")
    await do(SAURON, svc.lobby.join, "sauron")
    await do(WEST, svc.lobby.join, "westernesse")
    await do(SAURON, svc.lobby.start)
    for seat, text in ORDERS[:-1]:
        user = SAURON if seat == "sauron" else WEST
        if text == "done":
            await do(user, svc.orders.done)
        else:
            await do(user, svc.orders.order, text)
        # Sauron looks around after every order
        seen.append(("ac", tuple(await svc.orders.autocomplete_order(Ctx(channel_id=1, user_id=SAURON, guild_id=1,
                                                                     interaction_id="ac"), ""))))
    # Sauron takes back his last move (free: no die, nothing revealed, in both games alike) and makes it again
    await do(SAURON, svc.undo.undo)
    await do(SAURON, svc.orders.order, ORDERS[-2][1])
    await do(SAURON, svc.views.map, None, True)
    await do(SAURON, svc.views.map, "1909", False)
    await do(SAURON, svc.orders.odds, "melee OI1 at 1909")
    await do(SAURON, svc.views.status)
    await do(SAURON, svc.views.log, 100)
    await do(SAURON, svc.views.secret)
    await do(SAURON, svc.archive.export)
    before = len(seen)
    await do(SAURON, svc.orders.order, ORDERS[-1][1])
    await store.close()
    return seen[:before], seen[before:]


async def test_sauron_observes_the_same_through_the_bot_until_real_oil_is_poured(tmp_path):
    a_before, a_after = await play(tmp_path, "a", ["K1", "K3", "K5"])
    b_before, b_after = await play(tmp_path, "b", ["K4", "K5", "K6"])
    assert len(a_before) == len(b_before) > 40
    for x, y in zip(a_before, b_before):
        assert x == y
    images = sum(1 for x in a_before for v in x if isinstance(v, bytes) and v[:4] == b"\x89PNG")
    assert images >= 4
    assert any(x[0] == "reply" and "move OI3 2109" in x[1] and "back" in x[1].lower() for x in a_before)
    assert all(x == ("dm", ()) for x in a_before if x[0] == "dm")  # Sauron is never DMed
    # the secret standing orders are masked in the channel, the log and autocomplete (16.74)
    assert sum(x[0] == "channel" and "secret standing order" in x[2] for x in a_before) == 3
    assert not any("pour GS" in str(x) for x in a_before)
    # the move below GS1, real in game A only: now they differ, by the pour
    assert a_after != b_after
    assert any("boiling oil" in str(x) for x in a_after) and not any("boiling oil" in str(x) for x in b_after)
