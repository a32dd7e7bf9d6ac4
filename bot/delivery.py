"""Private information that must arrive (issue 25): where a seat's private messages go when Discord
refuses the direct message, and what is kept for a player who cannot be reached at all.

The order of ways, for every private message (the start's secrets, ``/secret``, a changed secret,
a search result, a whisper, a hand-over, an outbox DM):

1. a direct message;
2. refused (closed DMs, Discord's 50007): the seat's **private thread** in the game's channel (only
   the holder, the bot and the moderator's holder), made on first need and reused;
3. no private thread possible (the bot lacks Create Private Threads): the message is **held** and
   shown to the player alone, as an ephemeral reply, the next time they use any command; the
   player and the table are told once, plainly, what to change.

Every way but the first is recorded against the game (``/game status``: "private messages for
Westernesse went to their private thread"). Nothing is reported as sent that was not.

This object holds the store and the clock; the transports call it (Discord: the thread and the
held messages; the console prints every private message as ``[to seat]`` and needs no fallback).
Nothing here imports discord."""
from __future__ import annotations

import asyncio
from collections import defaultdict
from typing import Callable

from engine.modes import split_name
from bot.outcome import MAX_TEXT, clip, seat_title

VIA_THREAD = "thread"
VIA_HELD = "held"

TOLD_KEY = "dmclosed:{game}:{user}"
ROOM_KEY = "room:{game}:{seat}"


class PrivateDelivery:
    def __init__(self, store, clock: Callable[[], float]):
        self.store = store
        self.clock = clock
        # users with held messages (read once at start-up, then kept): any command of theirs shows them
        self.holding: set[int] = set()
        # (game, seat) -> the lock under which its private thread is looked up or opened (this service's,
        # so of its event loop: a module-wide one outlived a loop and refused the next)
        self.room_locks: dict[tuple[int, str], asyncio.Lock] = defaultdict(asyncio.Lock)

    async def load(self) -> None:
        self.holding = set(await self.store.users_with_held_posts())

    # ------------------------------------------------------------------ a seat's private thread
    async def place(self, game_id: int, seat: str | None, user_id: int) -> tuple[str, int, int | None, str] | None:
        """Where a seat's private thread belongs: (the seat (the user's first, if not given), the
        game's channel, the moderator's holder, the thread's title), or None (no such game or seat)."""
        row = await self.store.game(game_id)
        if row is None:
            return None
        seats = await self.store.seats(game_id)
        if seat is None:
            seat = next((s for s, u in sorted(seats.items()) if u == user_id and s != "gm"), None)
            if seat is None:
                return None
        return seat, row.channel_id, seats.get("gm"), f"{seat_title(seat)} ({split_name(row.ruleset)[0]})"

    async def channel_of(self, game_id: int) -> int | None:
        row = await self.store.game(game_id)
        return None if row is None else row.channel_id

    async def room(self, game_id: int, seat: str) -> tuple[int, int, int] | None:
        """The seat's private thread, the holder and the moderator last added to it (0: none), or None."""
        v = await self.store.get_setting(ROOM_KEY.format(game=game_id, seat=seat))
        if not v:
            return None
        thread, user, gm = (v.split(":") + ["0", "0"])[:3]
        return int(thread), int(user or 0), int(gm or 0)

    async def set_room(self, game_id: int, seat: str, thread_id: int, user_id: int, gm_id: int | None = None) -> None:
        await self.store.set_setting(ROOM_KEY.format(game=game_id, seat=seat), f"{thread_id}:{user_id}:{gm_id or 0}")

    async def rooms(self, game_id: int, seats) -> list[int]:
        """Every private thread the game's seats have (to archive them with the game)."""
        out = []
        for s in seats:
            r = await self.room(game_id, s)
            if r:
                out.append(r[0])
        return out

    # ------------------------------------------------------------------ the record
    async def went(self, game_id: int | None, seat: str | None, user_id: int, via: str) -> None:
        await self.store.record_delivery(game_id, seat, user_id, via, self.clock())

    async def status_lines(self, game_id: int, title: Callable[[str], str]) -> list[str]:
        """For ``/game status``: whose private messages did not go by DM, and where they went."""
        lines = []
        for seat, uid, via, n in await self.store.delivery_counts(game_id):
            who = f"**{title(seat)}**" if seat else f"<@{uid}>"
            times = "once" if n == 1 else f"{n} times"
            if via == VIA_THREAD:
                lines.append(f"Private messages for {who} went to their private thread ({times}): their DMs are closed.")
            elif via == VIA_HELD:
                lines.append(f"Private messages for {who} could not be sent ({times}: DMs closed, no private thread "
                             "allowed); each is shown to them privately at their next command.")
        return lines

    async def told(self, game_id: int | None, user_id: int) -> bool:
        """Whether the table was already told that this player's DMs are closed (once a game)."""
        return bool(await self.store.get_setting(TOLD_KEY.format(game=game_id, user=user_id)))

    async def mark_told(self, game_id: int | None, user_id: int) -> None:
        await self.store.set_setting(TOLD_KEY.format(game=game_id, user=user_id), "1")

    # ------------------------------------------------------------------ held for the next command
    async def hold(self, user_id: int, game_id: int | None, seat: str | None, text: str) -> None:
        await self.store.hold_post(user_id, game_id, seat, text, self.clock())
        await self.went(game_id, seat, user_id, VIA_HELD)
        self.holding.add(user_id)

    def holds(self, user_id: int) -> bool:
        return user_id in self.holding

    async def waiting(self, user_id: int) -> tuple[list[int], list[str]]:
        """The messages held for this user (their ids, and their texts as messages of at most
        2,000 characters, oldest first). The caller shows them privately, then calls ``shown``."""
        if user_id not in self.holding:
            return [], []
        held = await self.store.held_posts(user_id)
        if not held:
            self.holding.discard(user_id)
            return [], []
        head = "Held for you (I could not send it by direct message):"
        out, cur = [], head
        for h in held:
            t = clip(h["text"], MAX_TEXT - len(head) - 1)
            if len(cur) + 1 + len(t) > MAX_TEXT:
                out.append(cur)
                cur = t
            else:
                cur = f"{cur}\n{t}"
        out.append(cur)
        return [h["id"] for h in held], out

    async def shown(self, user_id: int, ids: list[int]) -> None:
        await self.store.mark_held_shown(ids, self.clock())
        if not await self.store.held_posts(user_id):
            self.holding.discard(user_id)
