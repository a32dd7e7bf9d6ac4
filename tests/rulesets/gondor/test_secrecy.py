"""Hidden information never reaches Sauron: two games that differ only in
which cauldrons are real look identical to Sauron in every message, every
error, the log, the export and every image Sauron can see (16.71)."""
import json

from bot.service import Ctx, GameService
from bot.storage import Store
from tests.gondor_helpers import SAURON_SETUP, WESTERNESSE_SETUP

SAURON, WEST = 11, 22


async def play_and_collect(tmp_path, name, real):
    store = await Store.open(str(tmp_path / f"{name}.db"))
    svc = GameService(store, seed_source=lambda: "same-seed", clock=lambda: 5.0)
    svc.table.fixtures[1] = {"real_cauldrons": real}
    seen_by_sauron: list = []  # (kind, text or bytes)
    seen_by_west: list = []
    n = 0

    async def do(user, coro_fn, *args):
        nonlocal n
        n += 1
        out = await coro_fn(Ctx(channel_id=1, user_id=user, guild_id=1, interaction_id=f"x{n}"), *args)
        if out.reply:
            if not out.ephemeral or user == SAURON:
                seen_by_sauron.append(("reply", out.reply.text, out.reply.image, out.reply.attachment))
            if not out.ephemeral or user == WEST:
                seen_by_west.append(("reply", out.reply.text))
        for p in out.public:
            seen_by_sauron.append(("public", p.text, p.image))
        if out.map_after:
            gid, seat = out.map_after
            img, cap = await svc.table.render_game(gid, seat)
            if seat in (None, "sauron"):
                seen_by_sauron.append(("map", out.notice.text if out.notice else cap, img))
        for uid, posts in out.dms.items():
            for p in posts:
                (seen_by_sauron if uid == SAURON else seen_by_west).append(("dm", p.text))
        return out

    await do(SAURON, svc.lobby.new_game, "gondor")
    await do(SAURON, svc.lobby.join, "sauron")
    await do(WEST, svc.lobby.join, "westernesse")
    await do(SAURON, svc.lobby.start)
    for o in SAURON_SETUP[:10]:
        await do(SAURON, svc.orders.order, o)
    # Sauron probes the cauldrons: every refusal must read the same
    for probe in ("deploy K1 1804", "deploy K4 1804", "deploy K 2325"):
        await do(SAURON, svc.orders.order, probe)
    for o in SAURON_SETUP[10:]:
        await do(SAURON, svc.orders.order, o)
    await do(SAURON, svc.orders.done)
    for o in WESTERNESSE_SETUP[:15]:
        await do(WEST, svc.orders.order, o)
    await do(SAURON, svc.views.map, None, False)
    await do(SAURON, svc.views.map, None, True)
    await do(SAURON, svc.views.map, "1903", True)
    await do(SAURON, svc.views.secret)
    await do(SAURON, svc.orders.order, "deploy K2 1805")  # not Sauron's phase, not Sauron's counter
    await do(WEST, svc.views.secret)
    for o in WESTERNESSE_SETUP[15:]:
        await do(WEST, svc.orders.order, o)
    await do(WEST, svc.orders.done)
    await do(SAURON, svc.views.status)
    await do(SAURON, svc.views.log, 200)
    await do(SAURON, svc.archive.export)
    await store.close()
    return seen_by_sauron, seen_by_west


async def test_everything_sauron_can_see_is_identical_whichever_cauldrons_are_real(tmp_path):
    a_s, a_w = await play_and_collect(tmp_path, "a", ["K1", "K2", "K3"])
    b_s, b_w = await play_and_collect(tmp_path, "b", ["K4", "K5", "K6"])
    assert len(a_s) == len(b_s) > 60
    images = 0
    for x, y in zip(a_s, b_s):
        assert x == y
        images += sum(isinstance(v, bytes) and v[:4] == b"\x89PNG" for v in x)
    assert images >= 5  # the public maps and Sauron's own views were compared byte for byte
    # while Westernesse did learn which were real, and differently in the two games
    assert a_w != b_w
    assert any("K1, K2 and K3" in t[1] for t in a_w if t[0] == "dm")


async def test_the_public_log_and_export_carry_no_hidden_flag(tmp_path):
    a_s, _ = await play_and_collect(tmp_path, "c", ["K1", "K3", "K5"])
    export = next(x[3] for x in a_s if x[0] == "reply" and x[3])
    data = json.loads(export)
    blob = json.dumps(data).lower()
    assert "real" not in blob and "dummy" not in blob
