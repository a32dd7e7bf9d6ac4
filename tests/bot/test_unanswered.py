"""Orders stored but never answered (the process died between the commit and
the reply, issue 18): at the next start the stored answer is announced (the
channel for a public answer, a DM for a private one, never the secret in the
channel), each once; the same order from the same player soon after is asked
about once instead of applied twice."""
import pytest

from bot.service import RECOVER_HOURS, REPEAT_MINUTES, Ctx, GameService
from bot.storage import open_store
from tests.gondor_helpers import SAURON_SETUP
from tests.rulesets.gondor.test_gondor_oil_secrecy import UNITS
from tests.clock import Clock

SAURON, WEST = 101, 202
CH = 7


@pytest.fixture
async def store(store_url):  # SQLite and PostgreSQL (issue 16)
    s = await open_store(store_url)
    yield s
    await s.close()


_n = iter(range(1, 10**9))


def ctx(user, iid=None):
    return Ctx(channel_id=CH, user_id=user, guild_id=1, interaction_id=iid or f"i{next(_n)}")


async def started(svc, fixture=None):
    if fixture:
        svc.table.fixtures[CH] = fixture
    for user, fn, args in ((SAURON, svc.lobby.new_game, ("gondor",)), (SAURON, svc.lobby.join, ("sauron",)),
                           (WEST, svc.lobby.join, ("westernesse",)), (SAURON, svc.lobby.start, ())):
        c = ctx(user)
        assert (await fn(c, *args)).ok
        await svc.recovery.delivered(c.interaction_id)  # these were answered


async def count(store) -> int:
    return len(await store.actions((await store.latest_game(CH)).id))


async def test_a_public_answer_lost_in_a_crash_is_posted_once_and_a_retry_is_asked_about(store):
    clock = Clock()
    svc = GameService(store, renderer=None, seed_source=lambda: "s", clock=clock)
    await started(svc)
    order = SAURON_SETUP[0]
    lost = await svc.orders.order(ctx(SAURON, "lost"), order)  # committed; the process dies before the reply
    assert lost.ok
    answered = ctx(SAURON)
    assert (await svc.orders.order(answered, SAURON_SETUP[1])).ok
    await svc.recovery.delivered(answered.interaction_id)
    n = await count(store)

    clock.t += 120
    again = GameService(store, renderer=None, seed_source=lambda: "s", clock=clock)  # the restart
    assert await again.recovery.announce_unanswered() == 1
    rows = await store.pending_outbox()
    assert len(rows) == 1 and rows[0]["channel_id"] == CH and rows[0]["user_id"] is None
    text = rows[0]["payload"]["text"]
    assert "recorded before a restart" in text and order in text and f"<@{SAURON}>" in text
    assert lost.reply.text in text  # the answer the player never saw
    assert SAURON_SETUP[1] not in text  # the delivered one is not announced
    assert rows[0]["payload"]["mentions"] == [SAURON]
    # a second restart announces nothing more
    assert await GameService(store, renderer=None, clock=clock).recovery.announce_unanswered() == 0

    # the player, who saw no answer, sends the same order again: asked about, not applied
    retry = await again.orders.order(ctx(SAURON), order)
    assert not retry.ok and retry.ephemeral and "already applied" in retry.reply.text
    assert await count(store) == n
    # sent once more, it is applied (a re-placement during the set-up is legal twice)
    assert (await again.orders.order(ctx(SAURON), order)).ok
    assert await count(store) == n + 1


async def test_the_question_ends_after_its_window(store):
    clock = Clock()
    svc = GameService(store, renderer=None, seed_source=lambda: "s", clock=clock)
    await started(svc)
    order = SAURON_SETUP[0]
    assert (await svc.orders.order(ctx(SAURON, "lost"), order)).ok
    n = await count(store)
    clock.t += 60
    again = GameService(store, renderer=None, seed_source=lambda: "s", clock=clock)
    assert await again.recovery.announce_unanswered() == 1
    clock.t += REPEAT_MINUTES * 60 + 1
    assert (await again.orders.order(ctx(SAURON), order)).ok  # long after the restart: a new order
    assert await count(store) == n + 1


async def test_an_old_lost_answer_is_only_marked(store):
    clock = Clock()
    svc = GameService(store, renderer=None, seed_source=lambda: "s", clock=clock)
    await started(svc)
    assert (await svc.orders.order(ctx(SAURON, "lost"), SAURON_SETUP[0])).ok
    clock.t += RECOVER_HOURS * 3600 + 60
    again = GameService(store, renderer=None, seed_source=lambda: "s", clock=clock)
    assert await again.recovery.announce_unanswered() == 0
    assert await store.pending_outbox() == [] and await store.undelivered() == []
    assert not again.recovery.recovered


async def test_a_secret_answer_goes_by_dm_and_the_channel_reads_no_secret(store):
    """16.74: which cauldron pours is Westernesse's secret; its lost answer is sent to him
    privately, and the channel learns only that a command of his was recorded."""
    clock = Clock()
    svc = GameService(store, renderer=None, seed_source=lambda: "s", clock=clock)
    await started(svc, {"real_cauldrons": ["K1", "K3", "K5"], "position": {"turn": 6, "step": "F", "units": UNITS}})
    for o in ("pickup GS1 K1",):
        c = ctx(WEST)
        assert (await svc.orders.order(c, o)).ok
        await svc.recovery.delivered(c.interaction_id)
    lost = await svc.orders.order(ctx(WEST, "lost"), "pour GS1 any")
    assert lost.ok and lost.ephemeral
    clock.t += 30
    again = GameService(store, renderer=None, seed_source=lambda: "s", clock=clock)
    assert await again.recovery.announce_unanswered() == 1
    rows = await store.pending_outbox()
    dm = [r for r in rows if r["user_id"] == WEST]
    public = [r for r in rows if r["channel_id"] == CH]
    assert len(dm) == 1 and len(public) == 1 and len(rows) == 2
    assert "pour GS1 any" in dm[0]["payload"]["text"]
    assert "pour" not in public[0]["payload"]["text"] and "GS1" not in public[0]["payload"]["text"]
    assert "privately" in public[0]["payload"]["text"]
