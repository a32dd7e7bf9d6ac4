"""The game service: everything a transport (Discord or the local console) asks of a game, with one
lock per channel, an order checked before anything is written, one transaction per accepted order, and
idempotency on the interaction id that carried a command.

``GameService`` is a facade over objects named by concern; each holds what it uses, passed in:

- ``bot/table.py``     ``Table``: the one commit path (the channel's lock and idempotency, ``_locked``;
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

No part calls another's private method (``tests/engine/test_architecture.py``). The facade's public API is the
parts' public methods, by name (``API``); what it does not name it reads from the table (``svc.store``,
``svc.games``...), and setting one of the table's settings on it sets the table's (``svc.renderer = None``).
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

# the public API: each part's methods a transport (or a test) calls
API = {
    "lobby": ("new_game", "join", "leave", "start", "autocomplete_seat", "autocomplete_taken_seat", "end",
              "table_rooms", "room_message", "room_logs", "spectators", "spectate", "admit", "sub", "checkin"),
    "orders": ("order", "whisper", "answer_button", "rule_vote", "done", "autocomplete_order", "odds", "roll"),
    "views": ("status", "status_text", "set_board", "board_edit", "map", "parse_around", "autocomplete_around",
              "log", "secret", "help_topics", "help", "rule", "autocomplete_rule"),
    "clocks": ("outbox_post", "fire_due", "extend", "pause", "resume", "set_quiet", "set_away"),
    "undo": ("undo", "undo_vote"),
    "archive": ("export_data", "export", "replay"),
    "recovery": ("announce_unanswered", "delivered", "refusal_seen"),
    "seats": ("my_games", "autoplay", "takeover", "autocomplete_takeover_seat", "takeover_vote", "open_games", "set_seat_board",
              "board_placed", "board_update", "join_game", "takeover_game"),
    # issue 41, between games: saved set-ups, a rematch, the daily digest
    "templates": ("template_save", "template_list", "template_delete", "autocomplete_template"),
    "rematch": ("rematch", "rematch_vote"),
    "digest": ("set_digest", "send_digests"),
    "results": ("record", "stats", "ratings", "recompute", "backfill"),
}
# the table's settings a caller may change on the facade (tests, the console, the bot's start-up)
SETTINGS = ("renderer", "seed_source", "clock", "render_pool", "on_timers_changed", "roll_rng", "deadline_defaults")


class GameService:
    """Everything a transport asks of a game (see the module's docstring for where each part lives)."""

    def __init__(self, store, **kw):
        table = Table(store, **kw)
        object.__setattr__(self, "table", table)
        self.lobby = Lobby(table)
        self.recovery = Recovery(table)
        self.orders = Orders(table, self.recovery)
        self.views = Views(table, self.lobby)
        self.clocks = Clocks(table)
        self.undo_part = Undo(table)
        self.archive = Archive(table, self.lobby)
        self.seats_part = Seats(table, self.lobby)
        self.templates_part = Templates(table, self.lobby)
        self.rematch_part = Rematch(table, self.lobby)
        self.digest_part = Digest(table, self.seats_part, self.rematch_part)
        self.results = Results(table, self.seats_part)
        table.board_edit = self.views.board_edit  # the status board, edited after an order
        table.prefs_changed = self.digest_part.resync  # issue 41: a player's digest follows their zone and hours
        table.on_result, table.backfill = self.results.keep, self.results.backfill  # issue 41: results kept
        parts = {"lobby": self.lobby, "orders": self.orders, "views": self.views, "clocks": self.clocks,
                 "undo": self.undo_part, "archive": self.archive, "recovery": self.recovery,
                 "seats": self.seats_part, "templates": self.templates_part, "rematch": self.rematch_part,
                 "digest": self.digest_part, "results": self.results}
        for part, names in API.items():
            for name in names:
                object.__setattr__(self, name, getattr(parts[part], name))

    def __getattr__(self, name):  # the table's (store, games, fixtures, load, delivery...)
        return getattr(object.__getattribute__(self, "table"), name)

    def __setattr__(self, name, value):
        if name in SETTINGS:
            setattr(self.table, name, value)
        else:
            object.__setattr__(self, name, value)


__all__ = ["GameService", "Ctx", "Outcome", "Post", "PlaceError", "Renderer", "MAX_CHARTS_BYTES", "MAX_ORDER_TEXT",
           "MAX_TEXT", "NEW_GAME_SECONDS", "RECOVER_HOURS", "REPEAT_MINUTES", "charts_text", "clip", "fit_lines",
           "parse_options", "public_text", "split_text", "default_renderer"]
