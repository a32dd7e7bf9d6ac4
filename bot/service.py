"""The game service: everything a transport (Discord or the local console) asks of a game, with one
lock per channel, an order checked before anything is written, one transaction per accepted order, and
idempotency on the interaction id that carried a command.

``GameService`` is a facade over objects named by concern; each holds what it uses, passed in:

- ``bot/table.py``     ``Table``: the one commit path (the channel's lock and idempotency, ``locked``;
  loading a game; trying an order on a copy; committing it with its notice, DMs and clock) and what every
  part shares (the store, the loaded games, the clock, the renderer); it holds ``delivery``
  (``bot/delivery.py``: private messages a DM could not carry) and ``timekeeper`` (``bot/timekeeper.py``:
  a phase's deadline and reminders, quiet hours);
- ``bot/lobby.py``     ``Lobby(table)``: new game, join, leave, start, substitute, end, spectators, rooms;
- ``bot/recovery.py``  ``Recovery(table)``: answers that may not have reached their player;
- ``bot/orders.py``    ``Orders(table, recovery)``: ``/order``, ``/done``, autocomplete, odds, ``/roll``;
- ``bot/views.py``     ``Views(table, lobby)``: status (and the status board the table edits after an
  order), map, log, secrets, help;
- ``bot/clocks.py``    ``Clocks(table)``: deadlines fired, extended, paused; quiet hours and absence;
- ``bot/undo.py``      ``Undo(table)``: undo, free or by consent;
- ``bot/archive.py``   ``Archive(table, lobby)``: export and the animated replay;
- ``bot/seats.py``     ``Seats(table, lobby)``: a player's record and games everywhere, autoplay, taking over a
  seat on autopilot, the server's open seats and their board (issue 28);
- ``bot/templates.py`` ``Templates(table, lobby)``: saved set-ups (issue 41);
- ``bot/rematch.py``   ``Rematch(table, lobby)``: a finished game played again, each player confirming (issue 41);
- ``bot/digest.py``    ``Digest(table, seats, rematch)``: the daily private digest (issue 41).
- ``bot/results.py``   ``Results(table, seats)``: every finished game's result kept, `/stats`, `/ratings` and the
  ratings in `/me record` (issue 41).

No part calls another's private method (``tests/engine/test_architecture_calls.py``): a method another part calls is
public. A caller names the part it calls (``svc.orders.order(ctx, text)``, ``svc.clocks.fire_due()``) and reads or
sets what the parts share on the table (``svc.table.games``, ``svc.table.renderer = None``); ``svc.store`` is the
table's store. No method is reached by a name string (issue 43).
Nothing here imports discord, and nothing here writes SQL (``bot/storage/``)."""
from __future__ import annotations

from bot.archive import Archive
from bot.clocks import Clocks
from bot.digest import Digest
from bot.lobby import Lobby
from bot.orders import Orders
from bot.outcome import (MAX_CHARTS_BYTES, MAX_ORDER_TEXT, MAX_TEXT, NEW_GAME_SECONDS, RECOVER_HOURS,
                         REPEAT_MINUTES, Ctx, Outcome, PlaceError, Post, Renderer, charts_text, clip, fit_lines,
                         parse_options, public_text, split_text)
from bot.recovery import Recovery
from bot.rematch import Rematch
from bot.results import Results
from bot.seats import Seats
from bot.table import Table, default_renderer
from bot.templates import Templates
from bot.undo import Undo
from bot.views import Views


class GameService:
    """Everything a transport asks of a game: its parts, each a typed attribute a caller names (``svc.orders.order(ctx,
    text)``, ``svc.lobby.join(ctx, seat)``), the table they share (``svc.table``: the loaded games, the clock, the
    renderer...) and its store (``svc.store``). Nothing is reached by a name string (issue 43): no table of names, no
    forwarding; ``__slots__`` refuses a setting written on the facade instead of the table (``svc.table.renderer``)."""

    table: Table
    lobby: Lobby
    recovery: Recovery
    orders: Orders
    views: Views
    clocks: Clocks
    undo: Undo
    archive: Archive
    seats: Seats
    templates: Templates
    rematch: Rematch
    digest: Digest
    results: Results
    __slots__ = tuple(__annotations__)  # these and nothing else

    def __init__(self, store, **kw):
        self.table = table = Table(store, **kw)
        self.lobby = Lobby(table)
        self.recovery = Recovery(table)
        self.orders = Orders(table, self.recovery)
        self.views = Views(table, self.lobby)
        self.clocks = Clocks(table)
        self.undo = Undo(table)
        self.archive = Archive(table, self.lobby)
        self.seats = Seats(table, self.lobby)
        self.templates = Templates(table, self.lobby)
        self.rematch = Rematch(table, self.lobby)
        self.digest = Digest(table, self.seats, self.rematch)
        self.results = Results(table, self.seats)
        table.board_edit = self.views.board_edit  # the status board, edited after an order
        table.prefs_changed = self.digest.resync  # issue 41: a player's digest follows their zone and hours
        table.on_result, table.backfill = self.results.keep, self.results.backfill  # issue 41: results kept

    @property
    def store(self):
        """The table's store (every transport reads and marks its outbox there)."""
        return self.table.store


__all__ = ["GameService", "Ctx", "Outcome", "Post", "PlaceError", "Renderer", "MAX_CHARTS_BYTES", "MAX_ORDER_TEXT",
           "MAX_TEXT", "NEW_GAME_SECONDS", "RECOVER_HOURS", "REPEAT_MINUTES", "charts_text", "clip", "fit_lines",
           "parse_options", "public_text", "split_text", "default_renderer"]
