"""Whatever the gateway sends, the bot stays up (issue 39).

discord.py reads each gateway frame in ``DiscordWebSocket.received_message``: it decodes the JSON
(``discord.utils._from_json``: orjson where it is installed, which refuses a lone surrogate, ``"\\ud800"``,
a valid JSON escape that Discord passes on from a client), then runs the event's parser
(``ConnectionState.parse_*``, which builds an ``Interaction`` and hands it to the command tree) in the
same call. An exception there leaves ``Client.connect`` and ends the process: one ``/roll reason:`` with
that character stopped the bot.

Two hooks, both installed by ``install()`` (once, process-wide, when the bot is made):

* ``HardenedGateway``, the socket class discord.py connects with (sharded or not): a frame that
  cannot be read (not JSON, not an object, an interaction discord.py fails to build, a parser's
  error of any kind) is dropped, logged in one line at most every ``DropLog.every`` seconds with the
  count dropped meanwhile, and the connection goes on; what discord.py handles itself (a reconnect,
  a closed socket) passes as before.
* discord.py's JSON, for the gateway and for REST's answers: read by
  ``bot/transports/inbound.py: loads`` (every string valid Unicode: a lone surrogate becomes U+FFFD, so
  the command is answered, and no later layer, SQLite, PostgreSQL, orjson in ``engine/core.py: clone``,
  a reply or a log line, meets one), written by ``dumps``. Both still go by orjson first, where it
  earns its place (``benchmarks/bench_json.py``: an interaction's frame read in 4 µs against 11, an
  answer written in 0.3 against 4), and what it refuses goes by the standard library, which cannot fail
  on a string: orjson can no longer stop anything.
"""
from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any, Callable

import aiohttp
import orjson

import discord
import discord.client
import discord.shard
import discord.utils
from discord.gateway import DiscordWebSocket, ReconnectWebSocket, WebSocketClosure

from bot.transports.inbound import loads

log = logging.getLogger("palantir")

# what discord.py's own loops handle (a reconnect, a resume, a closed socket): passed on as they are
PASSED = (ReconnectWebSocket, WebSocketClosure, discord.ConnectionClosed, discord.HTTPException,
          discord.GatewayNotFound, OSError, aiohttp.ClientError, asyncio.TimeoutError)


def dumps(obj: Any) -> str:
    """JSON text as discord.py writes it: by orjson (0.3 µs for an answer, against 4 by ``json``), and
    what orjson refuses (a lone surrogate, a key that is not a string) as discord.py writes it without
    orjson: in ASCII, which no string can make fail."""
    try:
        return orjson.dumps(obj).decode("utf-8")
    except TypeError:  # (orjson.JSONEncodeError)
        return json.dumps(obj, separators=(",", ":"), ensure_ascii=True)


class DropLog:
    """The frames dropped: all counted (``count``), one line logged at most every ``every`` seconds,
    saying how many were dropped since the last line (a flood of bad frames is not a flood of logs). A line
    names the event and the error (its first 160 characters), not the frame, and has no traceback."""

    def __init__(self, every: float = 60.0, clock: Callable[[], float] = time.monotonic):
        self.every, self.clock = every, clock
        self.count = 0
        self._last: float | None = None
        self._quiet = 0

    def dropped(self, frame: Any, exc: BaseException) -> None:
        self.count += 1
        now = self.clock()
        if self._last is not None and now - self._last < self.every:
            self._quiet += 1
            return
        more = f"; {self._quiet} more dropped since the last report" if self._quiet else ""
        self._last, self._quiet = now, 0
        reason = (str(exc).splitlines() or [""])[0][:160]
        log.warning("gateway: dropped a frame that could not be read (%s%s: %s)%s",
                    _event_of(frame), type(exc).__name__, reason, more)


def _event_of(frame: Any) -> str:
    """The frame's event name, if it can be read, for the log line (never its content)."""
    if isinstance(frame, (str, bytes)):
        head = frame[:200] if isinstance(frame, str) else frame[:200].decode("utf-8", "replace")
        at = head.find('"t":')
        if at >= 0:
            name = head[at + 4:].lstrip().split(",", 1)[0].strip().strip('"')
            if name.replace("_", "").isalnum():
                return name + ", "
    return ""


class HardenedGateway(DiscordWebSocket):
    """discord.py's gateway socket, which drops a frame it cannot read instead of ending the process."""

    async def received_message(self, msg: Any, /) -> None:
        try:
            await super().received_message(msg)
        except PASSED:
            raise
        except Exception as exc:
            drops = getattr(self._connection._get_client(), "gateway_drops", None) or DROPS
            drops.dropped(msg, exc)


DROPS = DropLog()  # a client without its own (``_Palantir.gateway_drops``)


def install() -> None:
    """discord.py connects with ``HardenedGateway`` and reads and writes JSON by ``loads`` and ``dumps``
    (module attributes discord.py looks up at each call). Idempotent."""
    discord.client.DiscordWebSocket = HardenedGateway
    discord.shard.DiscordWebSocket = HardenedGateway
    discord.utils._from_json = loads
    discord.utils._to_json = dumps
