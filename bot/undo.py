"""Taking an order back: free when nothing was revealed, else by the other players' consent."""
from __future__ import annotations

from engine.core import Game
from engine.rulesets import get_ruleset
from bot.history import is_blocking
from bot.storage import GameRow

from bot.outcome import Post, Outcome, Ctx, public_text
from bot.table import locked


class Undo:
    """Undo, free or by consent: an object holding the table."""

    def __init__(self, table):
        self.table = table

    @locked(needs_game=True)
    async def undo(self, ctx: Ctx, row: GameRow) -> Outcome:
        if row.status != "active":
            return Outcome.error("The game is not running.")
        game = await self.table.load(row)
        seats = await self.table.store.seats(row.id)
        rows = await self.table.store.actions(row.id)
        undone = {a.ref_seq for a in rows if a.kind == "undo"}
        eff = [a for a in rows if a.kind == "order" and a.seq not in undone]
        if not eff:
            return Outcome.error("There is nothing to take back.")
        last = eff[-1]
        holder = seats.get(last.seat)
        mine = holder == ctx.user_id
        if not mine and not ctx.is_moderator:
            return Outcome.error(f"The last action was {self.table.seat_title(last.seat)}'s "
                                 f"(`{public_text(get_ruleset(row.ruleset), last.text)}`, #{last.seq}); "
                                 "only its holder can ask to take it back.")
        why = is_blocking(last.events) or ("dice were drawn" if last.dice_after > last.dice_before else None)
        others = sorted({u for u in seats.values() if u != ctx.user_id})
        if why is None or not others or (ctx.is_moderator and not mine) or (ctx.is_moderator and why):
            note = "" if why is None else (f" ({why}; decided by a moderator)" if ctx.is_moderator and others
                                           else f" ({why})")
            return await self._apply_undo(ctx, row, game, seats, rows, last, note)
        req = await self.table.store.create_undo_request(game_id=row.id, seat=last.seat, user_id=ctx.user_id,
                                                   target_seq=last.seq, at_seq=row.seq, needed=others,
                                                   now=self.table.clock())
        pinged = await self.table.timekeeper.awake(others)  # issue 28: not in their quiet hours, not away
        who = " ".join(f"<@{u}>" for u in others)
        text = (f"<@{ctx.user_id}> asks to take back {self.table.seat_title(last.seat)}'s "
                f"`{public_text(get_ruleset(row.ruleset), last.text)}` (#{last.seq}), "
                f"but {why}. {who}: agree? Every other player must agree (or a moderator decides). "
                "Dice already drawn stay drawn.")
        return Outcome(reply=Post(text=text, mentions=pinged,
                                  buttons=[(f"undo:{req}:{row.seq}:y", "Agree"), (f"undo:{req}:{row.seq}:n", "Refuse")]),
                       ephemeral=False)

    async def _apply_undo(self, ctx: Ctx, row: GameRow, game: Game, seats: dict[str, int], rows, target,
                          note: str) -> Outcome:
        undone = {a.ref_seq for a in rows if a.kind == "undo"}
        snap_seq, state = await self.table.store.snapshot_before(row.id, target.seq)
        g = Game(game.ruleset, state)
        for a in rows:
            if a.kind == "order" and snap_seq < a.seq < target.seq and a.seq not in undone:
                g.redo(a.seat, a.text)
        burned = game.dice_drawn()
        g.state["dice"]["counter"] = burned  # dice already drawn stay burned: no fishing for a better roll
        seq = row.seq + 1
        text = (f"<@{ctx.user_id}> takes back {self.table.seat_title(target.seat)}'s "
                f"`{public_text(get_ruleset(row.ruleset), target.text)}` (#{target.seq}){note}. "
                f"Logged as #{seq}.")
        v_old = self.table.timekeeper.phase_key(game)
        await self.table.store.append_action(
            game_id=row.id, seq=seq, seat=target.seat, user_id=ctx.user_id or None, text=f"undo #{target.seq}",
            interaction_id=ctx.interaction_id, dice_before=burned, dice_after=burned,
            events=[{"public": text, "private": {}, "section": None, "rolls": [], "new_phase": False}],
            now=self.table.clock(), snapshot=g.state, response={"text": text, "ephemeral": False, "ok": True},
            kind="undo", ref_seq=target.seq)
        before = game.state
        game.state = g.state
        self.table.keep(row.id, game, seq)  # issue 39: loaded at the undo's position, even if pushed out meanwhile
        out = Outcome.public_reply(text)
        out.dms = self.table.withhold(self.table.changed_secrets(game.ruleset, seats, before, g.state), seats,
                                     await self.table.departed(row.id))  # issue 28: not to a holder who left
        fresh = await self.table.store.game(row.id)
        deadline = await self.table.timekeeper.sync(fresh, game)
        if self.table.timekeeper.phase_key(game) != v_old:
            # back in an earlier phase: its notice, one post with the map (as for an order)
            out.notice = await self.table.notice(game, seats, [], deadline)
            out.map_after = (row.id, None)
        out.board_edit = await self.table.board_edit(row.id)  # the status board, if any, edited in place
        return out

    @locked(needs_game=True)
    async def undo_vote(self, ctx: Ctx, row: GameRow, req_id: int, at_seq: int, agree: bool) -> Outcome:
        req = await self.table.store.undo_request(req_id)
        if req is None or req["game_id"] != row.id:
            return Outcome.error("This request is not for the game in this channel.")
        if req["status"] != "open":
            return Outcome.error(f"This request is already closed ({req['status']}).")
        if row.seq != req["at_seq"] or at_seq != req["at_seq"]:
            await self.table.store.update_undo_request(req_id, status="stale")
            return Outcome.error("This button is out of date: the game has moved on since it was posted. "
                                 "Nothing was taken back; ask again with `/game undo`.")
        if ctx.user_id not in req["needed"] and not ctx.is_moderator:
            return Outcome.error("This vote is not yours: only the other players (or a moderator) answer it.")
        if not agree:
            await self.table.store.update_undo_request(req_id, status="refused")
            return Outcome.public_reply(f"<@{ctx.user_id}> refuses: #{req['target_seq']} stands.")
        votes = dict(req["votes"])
        votes[ctx.user_id] = True
        await self.table.store.update_undo_request(req_id, votes=votes)
        missing = [u for u in req["needed"] if not votes.get(u)]
        if missing and not (ctx.is_moderator and ctx.user_id not in req["needed"]):
            return Outcome.public_reply(f"<@{ctx.user_id}> agrees to take back #{req['target_seq']}. "
                                        f"Waiting for {' '.join(f'<@{u}>' for u in missing)}.")
        game = await self.table.load(row)
        seats = await self.table.store.seats(row.id)
        rows = await self.table.store.actions(row.id)
        target = next(a for a in rows if a.seq == req["target_seq"])
        await self.table.store.update_undo_request(req_id, status="applied")
        how = " (decided by a moderator)" if missing else " (every other player agreed)"
        return await self._apply_undo(ctx, row, game, seats, rows, target, how)

    # ============================================================ odds
