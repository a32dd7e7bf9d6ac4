"""Issue 42 in the service: a seat on autopilot that answers a contest (Sauron's challenge to Mortal Combat,
22.3) says in the channel, with its order, that its autopilot answered and why; the reason reads only what
every map shows, and it is kept with the order's stored answer."""
from bot.service import Ctx, GameService
from bot.storage import Store
from tests.clock import Clock

RED, BLUE = 11, 22
CH = 9
# Westernesse's Combat Phase of Game-Turn 1: Isildur three hexes from Gorgol (tests/e2e/test_sauron_discord.py)
POSITION = {"position": {"turn": 1, "step": "G", "units": {"ISI": "1206", "NC3": "1206", "GOR": "1209", "GA1": "1209"}}}
_ids = iter(range(1, 10**9))


def ctx(user):
    return Ctx(channel_id=CH, user_id=user, guild_id=1, interaction_id=f"r{next(_ids)}")


async def test_issue42_the_autopilots_answer_to_a_challenge_is_posted_with_its_reason(tmp_path):
    store = await Store.open(str(tmp_path / "reason.db"))
    try:
        svc = GameService(store, renderer=None, seed_source=lambda: "reason", clock=Clock(1_720_000_000.0))
        svc.table.fixtures[CH] = POSITION
        assert (await svc.lobby.new_game(ctx(RED), "sauron", "deadline=24")).ok
        assert (await svc.lobby.join(ctx(RED), "sauron")).ok
        assert (await svc.lobby.join(ctx(BLUE), "westernesse")).ok
        assert (await svc.lobby.start(ctx(RED))).ok
        row = await store.live_game(CH)
        assert (await svc.orders.order(ctx(BLUE), "challenge ISI GOR")).ok
        assert (await svc.lobby.leave(ctx(RED))).ok  # Sauron's seat on autopilot from now on
        for _ in range(20):  # Westernesse passes until Sauron, to answer, is played by the bot
            if any(a.seat == "sauron" for a in await store.actions(row.id)):
                break
            if "westernesse" in svc.table.games[row.id].active_seats():
                assert (await svc.orders.done(ctx(BLUE))).ok
            await svc.clocks.fire_due()
        answer = next(a for a in await store.actions(row.id) if a.seat == "sauron")
        assert answer.text == "decline GOR"  # Gorgol (4) against Isildur (7) surely dies: declining is cheaper
        posted = [o["payload"].get("text", "") for o in await store.outbox(row.id)]
        said = next(t for t in posted if "`decline GOR`" in t)
        assert "is played by the bot (autopilot)" in said
        assert "(autopilot: GOR declines, the cheaper answer (declining: +4 (22.3); Mortal Combat: GOR dies " \
               "100.0%, ISI dies 0.0%" in said, said
        assert "GOR declines ISI's challenge: +4 demoralization" in said
    finally:
        await store.close()
