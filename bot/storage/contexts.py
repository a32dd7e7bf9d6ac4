"""A channel's live game as the last order read it, kept in memory between orders (issue 25).

Every order read its context first (``Store.order_context``: an answer already stored for the
interaction, the channel's live game, its seats and the seats their holders left): on PostgreSQL a
round trip before the order could start, and 36 % of the server's CPU an order; on SQLite 8 % of the
bot's. Between two orders of a game nothing else usually changes that context but the order's own
write, which this cache follows (``advanced``). So the next order starts from memory, and what the
memory cannot know is checked where it costs nothing more, in the order's own write:

- **another writer moved the game on** (a second process that believes it owns the game): the write
  is fenced on the game's counter, as it always was (``StaleWriter``);
- **this interaction was answered before** (Discord redelivered it): the same fence refuses a write
  for an interaction that already has a stored answer;
- either way nothing is written, and the command is read afresh from storage and run again, once
  (``bot/table.py``: ``_run_locked_body``). An order the memory's context refuses, or that writes
  nothing, is read afresh too before its answer stands.

What can change a context without moving the counter (a seat taken, given up or handed over, the
game ended) forgets every entry: any write of this store but an order's own and the bookkeeping of
answers (``written``), counted by a generation so that a read that overlapped such a write is not
kept either. What another process changes that way (no deployment does: shards split the guilds) is
seen within ``TTL`` seconds, when an entry is read afresh whatever happened.
"""
from __future__ import annotations

import contextlib
import dataclasses
import time
from typing import Callable, Iterator

from bot.storage.base import GameRow

TTL = 30.0  # seconds an entry is trusted, for what another process might change beside the counter
LIMIT = 4096  # entries at most (a channel each): past it, all are forgotten and read again


class ContextCache:
    def __init__(self, clock: Callable[[], float] = time.monotonic, ttl: float = TTL, limit: int = LIMIT):
        self._clock = clock
        self.ttl = ttl
        self.limit = limit
        self._entries: dict[int, tuple[GameRow, float]] = {}  # channel id -> (its live game, read at)
        self._channel: dict[int, int] = {}  # game id -> its channel, for ``advanced``
        self.generation = 0  # moved by every write that may change a context (``written``)
        self.hits = 0
        self.misses = 0

    def get(self, channel_id: int) -> GameRow | None:
        """The channel's live game with its seats, as remembered; None: read it from storage."""
        entry = self._entries.get(channel_id)
        if entry is None or self._clock() - entry[1] > self.ttl:
            self.misses += 1
            return None
        self.hits += 1
        return entry[0]

    def put(self, channel_id: int, row: GameRow | None, generation: int) -> None:
        """Keep ``row`` as read from storage by a read that began at ``generation`` (``generation``
        before the read): not if a write that may change it began or ended meanwhile."""
        if row is None or generation != self.generation or row.seats is None or row.departed is None:
            return
        if len(self._entries) >= self.limit and channel_id not in self._entries:
            self._forget_all()
        self._entries[channel_id] = (row, self._clock())
        self._channel[row.id] = channel_id

    def advanced(self, game_id: int, seq: int, status: str | None) -> None:
        """The game's own order was written: its counter is now ``seq`` (and its status ``status``, if
        that order ended it: then it is forgotten, the channel has no live game any more)."""
        channel = self._channel.get(game_id)
        entry = self._entries.get(channel) if channel is not None else None
        if entry is None or entry[0].id != game_id:
            return
        if status is not None or entry[0].seq != seq - 1:
            self.forget(channel)
            return
        self._entries[channel] = (dataclasses.replace(entry[0], seq=seq), entry[1])

    def forget(self, channel_id: int) -> None:
        entry = self._entries.pop(channel_id, None)
        if entry is not None:
            self._channel.pop(entry[0].id, None)

    def written(self) -> None:
        """A write that may change a game's row, seats or departed seats: nothing remembered holds."""
        self.generation += 1
        if self._entries:
            self._forget_all()

    @contextlib.contextmanager
    def writing(self, keeps: bool = False) -> Iterator[None]:
        """Around a write of the store: ``written`` as it begins and as it ends, unless it ``keeps`` the
        contexts (an order's own write, which ``advanced`` follows, and the answers' bookkeeping)."""
        if keeps:
            yield
            return
        self.written()
        try:
            yield
        finally:
            self.written()

    def _forget_all(self) -> None:
        self._entries.clear()
        self._channel.clear()
