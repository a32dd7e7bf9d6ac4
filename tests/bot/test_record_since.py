"""Issue 40: a record made with `since:` (`/game export format:html since:turn N` or `since:last`, the
parser of `/game replay`) holds only the steps and log lines from there on, and is smaller than the whole."""
import json
import re

import pytest

from bot.service import Ctx, GameService
from bot.storage import Store
from tests.gondor_helpers import SAURON_SETUP, WESTERNESSE_SETUP

pytestmark = pytest.mark.heavy  # a game's records made four times

SAURON, WEST, CAROL = 1, 2, 3
BEGINS_TURN_1 = len(SAURON_SETUP) + len(WESTERNESSE_SETUP) + 2  # the log position of Westernesse's set-up `done`
_ids = iter(range(1, 10**9))


def ctx(user):
    return Ctx(channel_id=4, user_id=user, guild_id=1, interaction_id=f"s{next(_ids)}")


def steps_and_log(out) -> tuple[list[int], list[int]]:
    """The positions of a record's steps (a step's link is `#s<seq>`) and of its log lines."""
    assert out.ok and out.ephemeral, out.reply.text
    page = out.reply.attachment.decode()
    data = json.loads(re.search(r'<script type="application/json" id="data">(.*?)</script>', page, re.S).group(1))
    return [s["seq"] for s in data["steps"]], [int(n) for n in re.findall(r'<li id="l\d+" data-step="\d+"><span class="muted">#(\d+)</span>', page)]


async def test_a_record_since_a_turn_or_the_last_move_holds_only_those_steps(tmp_path):
    """Issue 40: `since:turn 1` opens on the position Westernesse's last set-up order was made in and holds
    every step and log line after it, none before; `since:last` opens where the caller's last move's phase
    began; both are smaller than the whole record; a turn not played yet is a short private refusal."""
    store = await Store.open(str(tmp_path / "since.db"))
    svc = GameService(store, seed_source=lambda: "since-seed", clock=lambda: 10.0)
    await svc.lobby.new_game(ctx(SAURON), "gondor")
    await svc.lobby.join(ctx(SAURON), "sauron")
    await svc.lobby.join(ctx(WEST), "westernesse")
    await svc.lobby.start(ctx(SAURON))
    for o in SAURON_SETUP + ["done"]:
        assert (await svc.orders.order(ctx(SAURON), o)).ok
    for o in WESTERNESSE_SETUP + ["done"]:
        assert (await svc.orders.order(ctx(WEST), o)).ok
    phases = []
    for _ in range(4):  # four phases of turn 1, each ended by its seat
        row = await store.live_game(4)
        seat = (await svc.table.load(row)).active_seats()[0]
        phases.append((seat, row.seq + 1))
        assert (await svc.orders.order(ctx(SAURON if seat == "sauron" else WEST), "done")).ok
    last = (await store.live_game(4)).seq
    whole, turn1, mine = (await svc.archive.export(ctx(CAROL), "html"), await svc.archive.export(ctx(CAROL), "html", "turn 1"),
                          await svc.archive.export(ctx(SAURON), "html", "last"))
    later = await svc.archive.export(ctx(CAROL), "html", "turn 9")
    await store.close()
    assert steps_and_log(whole) == (list(range(0, last + 1)), list(range(1, last + 1)))
    start = BEGINS_TURN_1 - 1
    assert steps_and_log(turn1) == (list(range(start, last + 1)), list(range(start, last + 1)))
    sauron_last = max(seq for seat, seq in phases if seat == "sauron")
    began = max(seq for _, seq in phases if seq < sauron_last)  # (each `done` here begins the next phase)
    assert steps_and_log(mine) == (list(range(began, last + 1)), list(range(began, last + 1)))
    assert len(mine.reply.attachment) < len(turn1.reply.attachment) < len(whole.reply.attachment)
    assert not later.ok and later.ephemeral and "Turn 9 has not been played yet" in later.reply.text
