"""The game service: everything a transport (Discord or the local console)
asks of a game, with one lock per channel, an order checked before anything
is written, one transaction per accepted order, and idempotency on the
interaction id that carried a command.

``GameService`` is a facade over files named by concern, each a part of it:

- ``bot/outcome.py``  what the service answers (``Outcome``, ``Post``), how a command arrives (``Ctx``),
  message limits and text helpers;
- ``bot/table.py``    the one commit path: the channel's lock and idempotency (``_locked``), loading a
  game, trying an order on a copy, committing it with its notice, DMs and clock;
- ``bot/lobby.py``    new game, join, leave, start, substitute, end;
- ``bot/orders.py``   ``/order``, ``/done``, autocomplete, odds, ``/roll``;
- ``bot/views.py``    status, map, log, secrets, help;
- ``bot/clocks.py``   deadlines, reminders, quiet hours, absence, pause and extend;
- ``bot/undo.py``     undo, free or by consent;
- ``bot/archive.py``  export and the animated replay;
- ``bot/recovery.py`` answers lost in a crash, announced at start-up.

It returns ``Outcome`` objects; transports turn them into messages. Nothing
here imports discord, and nothing here writes SQL (``bot/storage/``)."""
from __future__ import annotations

from bot.archive import Archive
from bot.clocks import Clocks
from bot.lobby import Lobby
from bot.orders import Orders
from bot.outcome import (MAX_CHARTS_BYTES, MAX_ORDER_TEXT, MAX_TEXT, NEW_GAME_SECONDS, RECOVER_HOURS,
                         REPEAT_MINUTES, Ctx, Outcome, PlaceError, Post, Renderer, charts_text, clip, fit_lines,
                         parse_options, public_text, split_text)
from bot.recovery import Recovery
from bot.table import Table, default_renderer
from bot.undo import Undo
from bot.views import Views


class GameService(Lobby, Orders, Views, Clocks, Undo, Archive, Recovery, Table):
    """Everything a transport asks of a game (see the module's docstring for where each part lives)."""


__all__ = ["GameService", "Ctx", "Outcome", "Post", "PlaceError", "Renderer", "MAX_CHARTS_BYTES", "MAX_ORDER_TEXT",
           "MAX_TEXT", "NEW_GAME_SECONDS", "RECOVER_HOURS", "REPEAT_MINUTES", "charts_text", "clip", "fit_lines",
           "parse_options", "public_text", "split_text", "default_renderer"]
