"""A rematch in one click (issue 41): `/game rematch [swap:true|false]`, or the Rematch buttons under a game's
end-of-game post. The finished game's ruleset and options, its players in the same seats or, with ``swap``,
rotated (``rotated``); every player confirms with a button (the proposer's press counts), and one decline
cancels it. Once all have confirmed, the game is created with its seats taken and begins; where the channel
holds a live game by then, in a public thread of it (as `/game new thread:` opens one).

The rotation, for any number of sides: the sides that were held, in the ruleset's seat order, each pass to
the holder of the side before (the last side's holder takes the first). Two sides swap; War of the Ring's
four or five rotate one place (`fellowship` → `dark-power` → `saruman` → `gondor` → `rohan` → `fellowship`).
The moderator's `gm` seat stays with its holder.

One proposal a game at a time, kept in storage (``rematches``: its round counts the proposals, so a button of
a declined one answers nothing later); idempotent on interaction ids like every command (``locked``).

``Rematch(table, lobby)`` is a part of the service like the others: it holds the table and the lobby, whose
``create`` and ``seat_and_begin`` make the game."""
from __future__ import annotations

import dataclasses
from typing import Awaitable, Callable

from engine.modes import split_name
from engine.rulesets import get_ruleset
from bot.outcome import Ctx, Outcome, Post, clip
from bot.table import locked


def rotated(seat_order, seats: dict[str, int], optional=()) -> dict[str, int]:
    """The rematch's seats with sides swapped (see the module's text): each held side goes to the holder of
    the side held before it in ``seat_order``; optional seats (the moderator's) stay."""
    sides = [s for s in seat_order if s in seats and s not in optional]
    out = {s: u for s, u in seats.items() if s not in sides}
    for i, s in enumerate(sides):
        out[s] = seats[sides[i - 1]]
    return out


class Rematch:
    """`/game rematch`, its Confirm / Decline buttons and the end-of-game Rematch buttons."""

    def __init__(self, table, lobby):
        self.table = table
        self.lobby = lobby

    @locked(needs_game=False)
    async def rematch(self, ctx: Ctx, swap: bool = False, game_id: int | None = None) -> Outcome:
        """`/game rematch [swap:]` (of this channel's last finished game), or a Rematch button under the
        end-of-game post of ``game_id``."""
        store = self.table.store
        row = await store.game(game_id) if game_id is not None else await store.finished_game(ctx.channel_id)
        if row is None or row.channel_id != ctx.channel_id or row.status not in ("over", "ended"):
            return Outcome.error("No game here has ended: a rematch follows a finished game, in its channel.")
        seats = await store.seats(row.id)
        players = set(seats.values())
        if not players:
            return Outcome.error("That game had no players to play it again.")
        if ctx.user_id not in players and not self.table.can_admin(ctx, row):
            return Outcome.error("Only the game's players (or its creator, or a member with Manage Server) propose "
                                 "its rematch.")
        old = await store.rematch(row.id)
        if old is not None and old["status"] == "open":
            return Outcome.error("A rematch of this game is proposed already: its players confirm or decline it "
                                 "with the buttons under the proposal.")
        if old is not None and old["status"] == "started":
            return Outcome.error(f"This game's rematch was played already (<#{old['channel_id']}>).")
        rs = get_ruleset(row.ruleset)
        swap = bool(swap)
        new_seats = rotated(rs.seats, seats, rs.optional_seats) if swap else dict(seats)
        confirmed = [ctx.user_id] if ctx.user_id in players else []
        rnd = await store.propose_rematch(row.id, channel_id=row.channel_id, guild_id=row.guild_id, swap=swap,
                                          seats=new_seats, by_user=ctx.user_id, confirmed=confirmed,
                                          now=self.table.clock())
        rm = await store.rematch(row.id)
        if set(rm["confirmed"]) >= players:  # one player held every seat: nobody else to ask
            return await self._play(ctx, row, rm, None)
        waiting = sorted(players - set(confirmed))
        named, pings = await self.table.timekeeper.mention(waiting)
        how = "sides swapped" if swap else "the same sides"
        out = Outcome.public_reply(
            f"<@{ctx.user_id}> proposes a rematch of **{rs.title}** with the same options, {how}: "
            f"{self._seat_line(rs, new_seats)}. Each player confirms with the buttons below; one decline cancels it. "
            f"To confirm: {named}", mentions=pings)
        out.reply.buttons = [(f"rmv:{row.id}:{rnd}:y", "Confirm"), (f"rmv:{row.id}:{rnd}:n", "Decline")]
        return out

    def _seat_line(self, rs, seats: dict[str, int]) -> str:
        return ", ".join(f"{self.table.seat_title(s)} <@{seats[s]}>" for s in rs.seats if s in seats)

    @locked(needs_game=False)
    async def rematch_vote(self, ctx: Ctx, game_id: int, rnd: int, yes: bool,
                           open_thread: Callable[[str], Awaitable[int]] | None = None) -> Outcome:
        """A player's Confirm or Decline under a proposal. The last confirmation creates the game and begins
        it: here, or, where this channel holds a live game by then, in a new public thread (``open_thread``,
        the transport's, as `/game new thread:`)."""
        store = self.table.store
        rm = await store.rematch(game_id)
        if rm is None or rm["round"] != rnd or rm["status"] != "open":
            if rm is not None and rm["round"] == rnd and rm["status"] == "started":
                return Outcome.error(f"This rematch has begun: <#{rm['channel_id']}>.")
            return Outcome.error("This rematch proposal is over.")
        if rm["channel_id"] != ctx.channel_id:
            return Outcome.error("This button is for a rematch in another channel.")
        players = set(rm["seats"].values())
        if ctx.user_id not in players:
            return Outcome.error("Only the players of the rematch confirm or decline it.")
        row = await store.game(game_id)
        rs = get_ruleset(row.ruleset)
        if not yes:
            await store.set_rematch(game_id, confirmed=rm["confirmed"], status="declined")
            return Outcome.public_reply(f"<@{ctx.user_id}> declines the rematch of **{rs.title}**: it is cancelled. "
                                        "(`/game rematch` proposes another.)")
        if ctx.user_id in rm["confirmed"]:
            return Outcome.error("You have confirmed already; the rematch waits for: "
                                 + " ".join(f"<@{u}>" for u in sorted(players - set(rm["confirmed"]))) + ".")
        rm["confirmed"] = sorted(set(rm["confirmed"]) | {ctx.user_id})
        waiting = sorted(players - set(rm["confirmed"]))
        if waiting:
            await store.set_rematch(game_id, confirmed=rm["confirmed"], status="open")
            return Outcome.public_reply(f"<@{ctx.user_id}> confirms the rematch of **{rs.title}**. Still to confirm: "
                                        + " ".join(f"<@{u}>" for u in waiting) + ".")
        return await self._play(ctx, row, rm, open_thread)

    async def _play(self, ctx: Ctx, row, rm: dict, open_thread) -> Outcome:
        """Everyone has confirmed: the game, its seats taken, begun; here or in a new thread."""
        store = self.table.store
        here = await store.live_game(ctx.channel_id) is None
        if not here and open_thread is None:
            return Outcome.error("This channel holds a live game, and a thread cannot be opened here: finish that "
                                 "game (or press Confirm again in a moment) to play the rematch here.")
        ruleset = split_name(row.ruleset)[0]  # (its level of play is in its options, or the ruleset's default)
        made = await self.lobby.create(dataclasses.replace(ctx, user_id=rm["by_user"]), ruleset, dict(row.options),
                                       open_thread=None if here else open_thread)
        if not made.ok:
            return made  # (nothing created; the proposal stays open)
        new = await store.live_game(ctx.channel_id) if here else await store.live_game(next(iter(made.elsewhere)))
        await store.set_rematch(row.id, confirmed=rm["confirmed"], status="started", new_game_id=new.id)
        begun = await self.lobby.seat_and_begin(new.id, rm["seats"])
        self.table.stamp(begun, new.id)  # (each private message's game: where it goes if a DM is refused)
        rs = get_ruleset(new.ruleset)
        seats = self._seat_line(rs, rm["seats"])
        swapped = "sides swapped" if rm["swap"] else "the same sides"
        if here:
            begun.reply.text = clip(f"Everyone has confirmed: the rematch of **{rs.title}** ({swapped}: {seats}).\n"
                                    + begun.reply.text, 2000)
            return begun
        try:  # (a drawing failure must not lose the game just begun: `/game map` draws it again)
            img, caption = await self.table.render_game(new.id, None)
        except Exception:  # noqa: BLE001
            img, caption = None, "(the map could not be drawn this time; `/game map` tries again)"
        notice = begun.notice or Post(text=caption)
        out = Outcome.public_reply(f"Everyone has confirmed: the rematch of **{rs.title}** ({swapped}) is in the "
                                   f"thread <#{new.channel_id}>, as this channel holds a live game.")
        out.elsewhere[new.channel_id] = [
            Post(text=clip(f"The rematch of **{rs.title}** ({swapped}: {seats}).\n" + begun.reply.text, 2000)),
            Post(text=notice.text, image=img, mentions=list(notice.mentions),
                 alt=await self.table.map_description(new.id, None) if img else "")]
        out.dms = begun.dms
        return out

    async def waiting_for(self, user_id: int) -> list[dict]:
        """The rematch proposals waiting for ``user_id``'s confirmation (the daily digest lists them)."""
        return [rm for rm in await self.table.store.open_rematches()
                if user_id in rm["seats"].values() and user_id not in rm["confirmed"]]
