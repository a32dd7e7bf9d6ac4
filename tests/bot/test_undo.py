"""Undo: free within your own part of a phase; past a die roll, a reveal or a
phase change only by every other player's consent (buttons) or a moderator;
recorded in the append-only log; dice already drawn stay burned; stale
buttons are refused; rebuilds, replays and exports honour it."""
import pytest

from bot.history import HistoryError, walk
from bot.service import Ctx, GameService
from bot.storage import open_store
from engine.core import Game, state_digest
from tests import pbp_helpers  # noqa: F401  (registers tiny-pbp)
from engine.rulesets import get_ruleset

RED, BLUE, MOD, CAROL = 11, 22, 33, 44
_ids = iter(range(1, 10**9))


def ctx(user, mod=False, iid=None):
    return Ctx(channel_id=5, user_id=user, guild_id=1, interaction_id=iid or f"u{next(_ids)}", is_moderator=mod)


@pytest.fixture
async def svc(store_url):  # SQLite and PostgreSQL (issue 16)
    store = await open_store(store_url)
    s = GameService(store, renderer=None, seed_source=lambda: "undo-seed", clock=lambda: 5000.0)
    assert (await s.lobby.new_game(ctx(RED), "tiny-pbp")).ok
    assert (await s.lobby.join(ctx(RED), "red")).ok
    assert (await s.lobby.join(ctx(BLUE), "blue")).ok
    assert (await s.lobby.start(ctx(RED))).ok
    yield s
    await store.close()


async def state(svc):
    row = await svc.store.live_game(5)
    return row, (await svc.table.load(row)).state


async def test_free_undo_of_your_own_move_is_logged_and_rebuilt(svc):
    assert (await svc.orders.order(ctx(RED), "note a")).ok
    _, before = await state(svc)
    assert (await svc.orders.order(ctx(RED), "note b")).ok
    out = await svc.undo.undo(ctx(RED))
    assert out.ok and not out.ephemeral and "takes back" in out.reply.text and "note b" in out.reply.text
    row, after = await state(svc)
    assert after == before and after["notes"] == ["a"]
    rows = await svc.store.actions(row.id)
    assert [(a.kind, a.ref_seq) for a in rows][-1] == ("undo", 2)  # the log keeps both, append-only
    assert state_digest((await svc.table.rebuild(row)).state) == state_digest(after)
    assert state_digest((await svc.table.replay_from_start(row)).state) == state_digest(after)
    log = (await svc.views.log(ctx(BLUE))).reply.text
    assert "taken back by #3" in log and "takes back #2" in log
    # nothing left to take back of Red's? the note a is still free to undo
    assert (await svc.undo.undo(ctx(RED))).ok
    assert (await state(svc))[1]["notes"] == []
    assert not (await svc.undo.undo(ctx(RED))).ok  # nothing to take back


async def test_only_the_holder_of_the_last_action_may_ask(svc):
    await svc.orders.order(ctx(RED), "note a")
    out = await svc.undo.undo(ctx(BLUE))
    assert not out.ok and out.ephemeral and "only its holder" in out.reply.text
    out = await svc.undo.undo(ctx(CAROL))
    assert not out.ok and out.ephemeral


async def test_after_a_die_consent_is_needed_and_the_dice_stay_burned(svc):
    assert (await svc.orders.order(ctx(RED), "roll")).ok
    row, rolled = await state(svc)
    drawn = rolled["dice"]["counter"]
    out = await svc.undo.undo(ctx(RED))
    assert out.ok and "dice were rolled" in out.reply.text and out.reply.buttons
    assert out.reply.mentions == [BLUE]
    yes = next(c for c, label in out.reply.buttons if label == "Agree")
    _, req, at, _ = yes.split(":")
    assert (await state(svc))[1] == rolled  # nothing changed yet
    r = await svc.undo.undo_vote(ctx(RED), int(req), int(at), True)
    assert not r.ok and r.ephemeral and "not yours" in r.reply.text  # the asker cannot vote
    r = await svc.undo.undo_vote(ctx(BLUE), int(req), int(at), True)
    assert r.ok and "every other player agreed" in r.reply.text
    row, after = await state(svc)
    assert after["total"] == 0 and after["dice"]["counter"] == drawn  # burned: the counter did not go back
    assert (await svc.orders.order(ctx(RED), "roll")).ok
    _, again = await state(svc)
    assert again["dice"]["counter"] > drawn  # a new die, not the old one again
    assert state_digest((await svc.table.replay_from_start(row)).state) == state_digest(again)
    r = await svc.undo.undo_vote(ctx(BLUE), int(req), int(at), True)
    assert not r.ok and "closed" in r.reply.text


async def test_a_stale_button_is_refused_and_changes_nothing(svc):
    await svc.orders.order(ctx(RED), "peek")  # a reveal
    out = await svc.undo.undo(ctx(RED))
    assert "something hidden was revealed" in out.reply.text
    _, req, at, _ = out.reply.buttons[0][0].split(":")
    await svc.orders.order(ctx(RED), "note later")  # the game moves on
    _, before = await state(svc)
    r = await svc.undo.undo_vote(ctx(BLUE), int(req), int(at), True)
    assert not r.ok and r.ephemeral and "out of date" in r.reply.text
    assert (await state(svc))[1] == before


async def test_a_refusal_closes_the_request_and_a_moderator_decides(svc):
    await svc.orders.order(ctx(RED), "roll")
    out = await svc.undo.undo(ctx(RED))
    _, req, at, _ = out.reply.buttons[0][0].split(":")
    r = await svc.undo.undo_vote(ctx(BLUE), int(req), int(at), False)
    assert r.ok and "stands" in r.reply.text
    _, before = await state(svc)
    out = await svc.undo.undo(ctx(RED))
    _, req, at, _ = out.reply.buttons[0][0].split(":")
    r = await svc.undo.undo_vote(ctx(MOD, mod=True), int(req), int(at), True)  # not a player: decides
    assert r.ok and "moderator" in r.reply.text
    assert (await state(svc))[1]["total"] == 0 and (await state(svc))[1]["dice"] == before["dice"]


async def test_undoing_a_phase_change_needs_consent_and_restores_the_phase(svc):
    await svc.orders.order(ctx(RED), "done")
    row, st = await state(svc)
    assert st["phase"] == "blue"
    out = await svc.undo.undo(ctx(RED))
    assert "ended the phase" in out.reply.text
    _, req, at, _ = out.reply.buttons[0][0].split(":")
    r = await svc.undo.undo_vote(ctx(BLUE), int(req), int(at), True)
    assert r.ok and "red phase" in r.notice.text and r.notice.mentions == [RED] and not r.reply.mentions
    assert r.map_after  # one post: the notice with the map
    assert (await state(svc))[1]["phase"] == "red"
    # a redelivered vote interaction is answered from storage, not applied twice
    iid = "vote-again"
    await svc.orders.order(ctx(RED), "done")
    out = await svc.undo.undo(ctx(RED))
    _, req, at, _ = out.reply.buttons[0][0].split(":")
    r1 = await svc.undo.undo_vote(ctx(BLUE, iid=iid), int(req), int(at), True)
    r2 = await svc.undo.undo_vote(ctx(BLUE, iid=iid), int(req), int(at), True)
    assert r1.ok and r2.replayed
    row = await svc.store.live_game(5)
    assert sum(a.kind == "undo" for a in await svc.store.actions(row.id)) == 2


async def test_walk_refuses_a_log_that_does_not_fit():
    g = Game.new(get_ruleset("tiny-pbp"), seed="w")
    entries = [{"seq": 1, "seat": "red", "kind": "order", "text": "roll", "ref_seq": None,
                "dice_before": g.dice_drawn(), "dice_after": g.dice_drawn() + 1},
               {"seq": 2, "seat": "red", "kind": "undo", "text": "undo #1", "ref_seq": 1,
                "dice_before": g.dice_drawn() + 1, "dice_after": g.dice_drawn()}]  # the counter goes back
    with pytest.raises(HistoryError):
        list(walk("tiny-pbp", g.state, entries))
    entries[1]["ref_seq"], entries[1]["dice_after"] = 7, g.dice_drawn() + 1  # an action not in effect
    with pytest.raises(HistoryError):
        list(walk("tiny-pbp", g.state, entries))
    entries[1]["ref_seq"] = 1
    assert len(list(walk("tiny-pbp", g.state, entries))) == 2  # and the right one walks
