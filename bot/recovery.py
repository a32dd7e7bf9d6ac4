"""Answers lost in a crash (issue 18): announced at start-up, a retry of the same order asked about."""
from __future__ import annotations

from collections import defaultdict

from engine.rulesets import get_ruleset
from bot.storage import GameRow, OutboxPost

from bot.outcome import MAX_TEXT, RECOVER_HOURS, REPEAT_MINUTES, Outcome, Ctx, public_text, clip


class Recovery:
    """Answers that may not have reached their player: announced after a restart, and a repeat of such an
    order asked about once. An object holding the table and what it remembers."""

    def __init__(self, table):
        self.table = table
        # (game id, user id) -> [[canonical text, log seq, until when a repeat is questioned, interaction id,
        # when, the interaction that asked about a repeat]]: orders stored before a restart whose answer never
        # reached the player, and orders committed before their interaction was acknowledged, until their
        # answer is known delivered
        self.recovered: dict[tuple[int, int], list[list]] = defaultdict(list)
        self.watched: dict[str, tuple[int, int]] = {}  # interaction id -> its key in ``recovered``
        # interaction id of an "already applied" question -> its key: the question is used up only once
        # its answer is known to have reached the player (``refusal_seen``); one that reached nobody is asked again
        self.asking: dict[str, tuple[int, int]] = {}

    async def announce_unanswered(self) -> int:
        """Start-up, before any command is taken: answers stored with their order but never
        delivered (the process died between the commit and the reply) are queued in the outbox,
        in the same transaction that marks them delivered: a public answer in the game's
        channel, a private one (a secret order's) by DM with only a neutral line in the channel.
        An answer older than ``RECOVER_HOURS`` is only marked. Each recovered order is
        remembered for ``REPEAT_MINUTES``: the same order from the same player is then questioned
        once instead of applied again (``order``). Returns how many were announced."""
        now = self.table.clock()
        items = await self.table.store.undelivered()
        ids, outbox, announced = [], [], 0
        for it in items:
            ids.append(it["interaction_id"])
            if it["game_id"] is None or it["channel_id"] is None or now - it["created_at"] > RECOVER_HOURS * 3600:
                continue
            resp, uid = it["response"], it["user_id"]
            ping = f"<@{uid}>, " if uid else ""
            what = f"your order `{clip(public_text(get_ruleset(it['ruleset']), it['text']), 200)}`" if it["seq"] is not None else "your command"
            new_phase = any(e.get("new_phase") for e in it["events"])
            tail = "\nA new phase began with it (the map below); `/game status` tells who acts." if new_phase else ""
            if resp.get("ephemeral"):
                if uid:
                    outbox.append(OutboxPost(it["game_id"], {"text": clip(
                        f"Recorded before a restart (I could not answer you then):\n{resp['text']}", MAX_TEXT)},
                        now, user_id=uid))
                line = f"{ping}a command of yours was recorded before a restart; its answer went to you privately.{tail}"
            else:
                line = f"{ping}{what} was recorded before a restart; I could not answer then. The answer was:\n{resp['text']}{tail}"
            payload = {"text": clip(line, MAX_TEXT), "mentions": [uid] if uid else []}
            if new_phase:
                payload["map"] = it["game_id"]  # the map as it stands now
            outbox.append(OutboxPost(it["game_id"], payload, now, channel_id=it["channel_id"]))
            if it["seq"] is not None and uid:
                self.recovered[(it["game_id"], uid)].append(
                    [it["text"], it["seq"], now + REPEAT_MINUTES * 60, None, "just before a restart", None])
            announced += 1
        if ids:
            await self.table.store.settle_undelivered(ids, outbox, now)
            if self.table.on_timers_changed and outbox:
                self.table.on_timers_changed()  # the scheduler sends the outbox now
        return announced

    async def delivered(self, interaction_id: str, late: bool = False) -> None:
        """The transport sent the answer to this interaction: in time (the player saw it: a repeat of
        the order is meant), or ``late``, in the channel after Discord stopped waiting (the player
        may not have seen it and may retry: a repeat is asked about, ``watch``). What is known here is
        used at once, before the store's write: the player may send the same order again as soon as they
        read the answer, and it must not wait for that write (a group commit) to be applied."""
        key = self.watched.pop(interaction_id, None)
        if key is not None and not late and (pending := self.recovered.get(key)) is not None:
            pending[:] = [p for p in pending if p[3] != interaction_id]
            if not pending:
                del self.recovered[key]
        await self.table.store.mark_delivered(interaction_id, self.table.clock())

    def refusal_seen(self, interaction_id: str) -> None:
        """A refusal reached its player in time (the transport says so): an "already applied" question
        it carried is used up, and the same order sent once more is applied."""
        key = self.asking.pop(interaction_id, None)
        if key is not None and (pending := self.recovered.get(key)) is not None:
            pending[:] = [p for p in pending if p[5] != interaction_id]
            if not pending:
                del self.recovered[key]

    def watch(self, row: GameRow, ctx: Ctx, canon: str, seq: int) -> None:
        """An order committed while its interaction was not yet acknowledged (issue 25): until its
        answer is known to have reached the player in time, the same order from the same player is
        asked about once instead of applied again (a retry of an order whose answer they never saw)."""
        if ctx.expires_at is None or ctx.acked or not ctx.user_id:
            return
        self.recovered[(row.id, ctx.user_id)].append(
            [canon, seq, self.table.clock() + REPEAT_MINUTES * 60, ctx.interaction_id, "a moment ago", None])
        if len(self.watched) > 10_000:  # answers never reported (a transport that failed): forget the oldest
            self.watched.pop(next(iter(self.watched)))
        self.watched[ctx.interaction_id] = (row.id, ctx.user_id)

    def repeat_asked(self, row: GameRow, ctx: Ctx, canon: str) -> Outcome | None:
        """An order equal to one whose answer may not have reached its player (recovered at
        start-up, or answered in the channel after its interaction expired), from the same player,
        soon after: asked about once, not applied (the player may be retrying it). Sent again, it
        is applied."""
        key = (row.id, ctx.user_id)
        pending = self.recovered.get(key)
        if not pending:
            return None
        now = self.table.clock()
        pending[:] = [p for p in pending if p[2] > now]
        for i, (text, seq, _, _, when, asked_by) in enumerate(pending):
            if text == canon:
                if ctx.expires_at is None:  # no Discord clock (the console): the question reaches its reader
                    del pending[i]
                    if not pending:
                        del self.recovered[key]
                else:  # used up once its answer is known to have reached the player (``refusal_seen``)
                    self.asking.pop(asked_by, None)
                    pending[i][5] = ctx.interaction_id
                    self.asking[ctx.interaction_id] = key
                return Outcome.error(
                    f"`{clip(canon, 200)}` was already applied (log #{seq}) {when}, and its answer may not have "
                    "reached you, so I did not apply it again. If you mean to give the same order a second time, "
                    "send it once more.")
        if not pending:
            del self.recovered[key]
        return None
