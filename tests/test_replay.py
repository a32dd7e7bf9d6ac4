"""/game replay: an animated GIF from the caller's own view. Sauron's replay
is byte-identical whichever cauldrons are real (16.71); Westernesse's is not;
once the game is over the replay shows everything; frames are bounded."""
import io
import time

from PIL import Image

from bot.service import Ctx, GameService
from bot.storage import Store
from render.replay import MAX_FRAMES, pick
from tests.gondor_helpers import SAURON_SETUP, WESTERNESSE_SETUP

SAURON, WEST, CAROL = 1, 2, 3
_ids = iter(range(1, 10**9))


def ctx(user, mod=False):
    return Ctx(channel_id=4, user_id=user, guild_id=1, interaction_id=f"r{next(_ids)}", is_moderator=mod)


async def replays(tmp_path, real, name):
    store = await Store.open(str(tmp_path / name))
    svc = GameService(store, seed_source=lambda: "replay-seed", clock=lambda: 10.0)
    svc.fixtures[4] = {"real_cauldrons": real}
    await svc.new_game(ctx(SAURON), "gondor")
    await svc.join(ctx(SAURON), "sauron")
    await svc.join(ctx(WEST), "westernesse")
    await svc.start(ctx(SAURON))
    for o in SAURON_SETUP:
        assert (await svc.order(ctx(SAURON), o)).ok
    await svc.order(ctx(SAURON), "done")
    for o in WESTERNESSE_SETUP:
        assert (await svc.order(ctx(WEST), o)).ok
    await svc.order(ctx(WEST), "done")
    t = time.perf_counter()
    out = {"sauron": await svc.replay(ctx(SAURON)), "west": await svc.replay(ctx(WEST)),
           "carol": await svc.replay(ctx(CAROL)), "since": await svc.replay(ctx(WEST), "last")}
    took = time.perf_counter() - t
    bad = [await svc.replay(ctx(SAURON), "turn 7"), await svc.replay(ctx(SAURON), "yesterday")]
    await svc.end(ctx(SAURON, mod=True))
    out["over"] = await svc.replay(ctx(CAROL))
    await store.close()
    return out, bad, took


def gif(out):
    data = out.reply.image
    im = Image.open(io.BytesIO(data))
    assert im.format == "GIF"
    return data, im


async def test_replays_are_redacted_per_seat_and_bounded(tmp_path):
    a, bad, took = await replays(tmp_path, ["K1", "K2", "K3"], "a.db")
    b, _, _ = await replays(tmp_path, ["K4", "K5", "K6"], "b.db")
    for out in a.values():
        assert out.ok and out.ephemeral
    assert gif(a["sauron"])[0] == gif(b["sauron"])[0]  # Sauron's replay reveals nothing about the cauldrons
    assert gif(a["carol"])[0] == gif(b["carol"])[0]  # nor a spectator's
    assert gif(a["west"])[0] != gif(b["west"])[0]  # Westernesse sees its own real cauldrons
    assert gif(a["over"])[0] != gif(b["over"])[0]  # after the game, everything is revealed
    assert "everything revealed" in a["over"].reply.text
    data, im = gif(a["sauron"])
    assert 3 <= im.n_frames <= MAX_FRAMES and len(data) < 8 * 1024 * 1024
    assert im.width == 720
    assert gif(a["since"])[1].n_frames < gif(a["west"])[1].n_frames  # since my last move: fewer frames
    for out in bad:
        assert not out.ok and out.ephemeral
    assert took < 30
    # keep one frame to look at
    im.seek(im.n_frames - 1)
    im.convert("RGB").save(tmp_path / "last-frame.png")


def test_pick_keeps_first_and_last_and_caps():
    assert pick(list(range(100)), 10)[0] == 0 and pick(list(range(100)), 10)[-1] == 99
    assert len(pick(list(range(100)), 10)) == 10 and pick([1, 2], 10) == [1, 2]
