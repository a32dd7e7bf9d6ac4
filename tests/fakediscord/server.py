"""A fake Discord (REST API v10 + gateway) that a real discord.py bot can use over loopback.

Typical use (see ``tests/e2e/test_fakediscord.py``)::

    server = FakeDiscord()
    await server.start()
    gid = server.add_guild("test guild")
    cid = server.add_channel(gid, "general")
    alice = server.add_user("alice", guild_id=gid)

    endpoints.apply_api_base(server.api_base)
    endpoints.apply_gateway(await endpoints.resolve_gateway(server.api_base, None, server.token))
    task = asyncio.create_task(bot.start(server.token))
    await server.wait_ready()

    result = await server.slash(alice, cid, "game", "new", options={"ruleset": "gondor"})
    assert result.message.content == "..."
    ...
    await bot.close(); await task
    await server.stop()
    endpoints.apply_api_base(None); endpoints.apply_gateway(None)
    assert server.violations == [] and server.unknown_routes == []

What it models
--------------
* REST under ``/api/v10`` for everything a moderation bot normally touches (login, application
  info, application-command sync, interaction callbacks, followups/webhook messages, channel
  messages with attachments, DMs, threads, members, users).  Any other route answers 404 with a
  Discord-style error and is recorded in :attr:`FakeDiscord.unknown_routes`.
* The gateway at ``ws://127.0.0.1:PORT/gateway``: HELLO, IDENTIFY -> READY + GUILD_CREATE,
  heartbeats, RESUME with replay of missed events, REQUEST_GUILD_MEMBERS.  The gateway always
  answers with *uncompressed* JSON text frames: discord.py asks for ``compress=zlib-stream`` but
  decodes text frames as plain JSON, so no compression is needed.
* Discord's limits, failing loudly: every breach is appended to :attr:`FakeDiscord.violations`
  and answered with the error Discord would give (mostly ``400 Invalid Form Body``).

Test-facing API (ids are ints)
------------------------------
World (call before the bot connects; afterwards GUILD_CREATE / CHANNEL_CREATE /
GUILD_MEMBER_ADD (members intent only) / GUILD_MEMBER_UPDATE are dispatched):
``add_guild(name)``, ``add_channel(guild_id, name)``, ``add_user(name, guild_id=None,
manage_guild=False, *, bot=False, dms_open=True)``, ``add_member(guild_id, user_id, *,
manage_guild=False)``, ``remove_member(guild_id, user_id)``, ``set_manage_guild(guild_id, user_id, value)``, ``dm_channel(user_id)``,
``set_bot_permissions(guild_id, permissions)`` (thread creation needs Create Public/Private Threads,
else ``403 Missing Permissions``), ``set_channel_permissions(channel_id, target_id, allow=, deny=)`` (an
overwrite: a message in a guild channel needs View Channel and Send Messages (in a thread: Send Messages in
Threads), else ``403 Missing Access`` / ``403 Missing Permissions``).

Driving the bot (each returns an :class:`InteractionResult` unless noted):
``slash(user, channel, *names, options=None, timeout=10, bypass_permissions=False)``,
``autocomplete(user, channel, *names, options=None, focused=...) -> list[dict]``,
``click(user, message, custom_id, *, values=None)`` (alias ``select``),
``submit_modal(user, result_that_opened_it, {custom_id: value})``,
``user_command(user, channel, name, target_user)``, ``message_command(user, channel, name, msg)``,
``post_message(user, channel, content, *, attachments=None) -> FakeMessage``,
``drop_gateway(code=4000, *, abrupt=False)``.

Frames Discord could send that a bot must survive (issue 39): ``dispatch_raw(event, data_json) -> seq``
(a DISPATCH whose ``d`` is any text), ``send_frame(text)`` (any text frame, no sequence number),
``interaction_payload(user, channel, itype=2, data=None) -> dict`` (an INTERACTION_CREATE's ``d`` to break
and send), ``interact(user, channel, itype, data, *, message=None)`` (an interaction whose ``data`` is
not checked, answered and awaited like ``slash``). Option values go out as ``json.dumps`` writes them, so a lone surrogate in one is the escape
``\\ud800``, as Discord sends it.

Observing: ``messages(channel_id, *, include_ephemeral=False, include_gone=False)``, ``dms(user_id)``,
``all_visible_to(user_id)``, ``message(id)``, ``commands(guild_id=None)``, ``violations``,
``unknown_routes``, ``errors``, ``internal_errors``, ``assert_clean()``, ``wait_ready()``,
``wait_commands_synced()``, ``wait_connected()``, ``wait_for(predicate)``,
``FakeMessage.pinged()`` (who a message notifies, from its content and ``allowed_mentions``).

Duplicates: ``slash(..., interaction_id=server.new_interaction_id())`` sent twice models a client
retry of one interaction (same id, new token). A channel message sent with ``nonce`` and
``enforce_nonce`` (discord.py sets both when given a nonce) is created once; a repeat returns the
first message and counts in ``nonce_duplicates``.

Interaction timing: ``slash``/``click``/... return once the initial response arrived; for a
"thinking" defer (type 5) they wait for the first followup or edit of @original (else
:class:`InteractionTimeout`).  A deferred *update* (type 6) returns at once; use
``result.wait_for_messages(n)`` for later edits/followups.  If the bot does not answer within
``ack_deadline`` (3 s) the result comes back with ``expired=True``, an ``ack_timeout`` violation
is recorded and a late callback gets Discord's ``404 Unknown interaction`` (10062); its webhook
(followups, @original) then answers ``404 Unknown Webhook`` (10015).  ``slash(..., delay=2.2)`` (also
``click``) delivers an interaction late: its snowflake is 2.2 s old and the 3 s count from it;
``late_ok=True`` when the test expects the expiry (no violation).  ``result.acknowledged_age`` is
the time from creation to the first response.

Not modelled: rate limits, permission overwrites beyond sending messages, voice, reactions, pins, forum channels,
interaction-token expiry (15 min), presence, message-content intent for mentions, CDN assets
(avatars still point at cdn.discordapp.com).
"""

from __future__ import annotations

import asyncio
import datetime as _dt
import json
import logging
import mimetypes
import re
import secrets
import time
import traceback
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, NamedTuple

from aiohttp import WSMsgType, web

__all__ = [
    "Attachment",
    "FakeDiscord",
    "FakeMessage",
    "GUILD_READY_TIMEOUT",
    "InteractionResult",
    "InteractionTimeout",
    "Violation",
]

# discord.py becomes ready (``wait_until_ready``: the bot's scheduler starts then) only once no
# GUILD_CREATE has come for ``guild_ready_timeout`` seconds, 2 s by default, for the real Discord,
# which streams a large bot's guilds in after READY. The fake sends every guild's GUILD_CREATE right
# after READY, on the same connection, so a bot under test waits this long instead (issue 29: 2 s at
# each start of a bot, some 150 starts in the suite). A guild that came later would still be added
# (discord.py dispatches it as joined); the bot reads no guild event.
GUILD_READY_TIMEOUT = 0.1

_log = logging.getLogger("fakediscord")

API_PREFIX = "/api/v10"
DISCORD_EPOCH_MS = 1420070400000

# --- Discord limits -------------------------------------------------------------------------
MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024  # 10 MiB, per file and per request
MAX_FILES = 10
MAX_CHOICES = 25
MAX_CHOICE_LEN = 100
ACK_DEADLINE = 3.0

# --- permission bits ------------------------------------------------------------------------
P_CREATE_INSTANT_INVITE = 1 << 0
P_ADMINISTRATOR = 1 << 3
P_MANAGE_GUILD = 1 << 5
P_ADD_REACTIONS = 1 << 6
P_VIEW_CHANNEL = 1 << 10
P_SEND_MESSAGES = 1 << 11
P_EMBED_LINKS = 1 << 14
P_ATTACH_FILES = 1 << 15
P_READ_MESSAGE_HISTORY = 1 << 16
P_USE_EXTERNAL_EMOJIS = 1 << 18
P_CONNECT = 1 << 20
P_SPEAK = 1 << 21
P_CHANGE_NICKNAME = 1 << 26
P_USE_APPLICATION_COMMANDS = 1 << 31
P_CREATE_PUBLIC_THREADS = 1 << 35
P_CREATE_PRIVATE_THREADS = 1 << 36
P_SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 51) - 1
EVERYONE_PERMISSIONS = (
    P_CREATE_INSTANT_INVITE
    | P_ADD_REACTIONS
    | P_VIEW_CHANNEL
    | P_SEND_MESSAGES
    | P_EMBED_LINKS
    | P_ATTACH_FILES
    | P_READ_MESSAGE_HISTORY
    | P_USE_EXTERNAL_EMOJIS
    | P_CONNECT
    | P_SPEAK
    | P_CHANGE_NICKNAME
    | P_USE_APPLICATION_COMMANDS
    | P_CREATE_PUBLIC_THREADS
    | P_SEND_MESSAGES_IN_THREADS
)

# --- gateway intents ------------------------------------------------------------------------
I_GUILD_MEMBERS = 1 << 1
I_GUILD_MESSAGES = 1 << 9
I_DIRECT_MESSAGES = 1 << 12
I_MESSAGE_CONTENT = 1 << 15

# --- message flags --------------------------------------------------------------------------
F_SUPPRESS_EMBEDS = 1 << 2
F_HAS_THREAD = 1 << 5
F_EPHEMERAL = 1 << 6
F_LOADING = 1 << 7
F_SUPPRESS_NOTIFICATIONS = 1 << 12
F_COMPONENTS_V2 = 1 << 15
_SETTABLE_FLAGS = F_SUPPRESS_EMBEDS | F_SUPPRESS_NOTIFICATIONS | F_COMPONENTS_V2

# channel types
CH_TEXT = 0
CH_DM = 1
CH_PUBLIC_THREAD = 11
CH_PRIVATE_THREAD = 12
_THREAD_TYPES = (10, 11, 12)

# option types
OPT_SUB_COMMAND = 1
OPT_SUB_COMMAND_GROUP = 2
OPT_STRING = 3
OPT_INTEGER = 4
OPT_BOOLEAN = 5
OPT_USER = 6
OPT_CHANNEL = 7
OPT_ROLE = 8
OPT_MENTIONABLE = 9
OPT_NUMBER = 10
OPT_ATTACHMENT = 11

_SELECT_TYPES = (3, 5, 6, 7, 8)


def _now_iso() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat()


class Violation(NamedTuple):
    """A breach of a Discord limit by the bot: ``kind`` is a short machine-readable tag."""

    kind: str
    message: str


class Attachment(NamedTuple):
    """An attachment as a test sees it: compares equal to a ``(filename, bytes)`` tuple."""

    filename: str
    data: bytes


class InteractionTimeout(asyncio.TimeoutError):
    """The bot deferred an interaction (or never answered) and nothing arrived in time."""


@dataclass
class _AttachmentRec:
    id: int
    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None
    new: bool = False  # uploaded by the current request (for size checks)


@dataclass
class FakeMessage:
    """A message stored by the fake.  ``attachments`` is a list of ``(filename, bytes)``."""

    id: int
    channel_id: int
    guild_id: int | None
    author_id: int
    content: str = ""
    embeds: list[dict] = field(default_factory=list)
    components: list[dict] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    tts: bool = False
    timestamp: str = field(default_factory=_now_iso)
    edited_timestamp: str | None = None
    visible_to: int | None = None  # for ephemeral messages: the only user who can see it
    interaction_id: int | None = None
    webhook_id: int | None = None
    message_reference: dict | None = None
    thread_id: int | None = None
    deleted: bool = False
    allowed_mentions: dict | None = None  # as the bot sent it (None: Discord's default, everyone mentioned)
    _atts: list[_AttachmentRec] = field(default_factory=list, repr=False)

    def pinged(self) -> set[int]:
        """The users this message notifies: mentioned in the content as ``<@id>`` and allowed by
        ``allowed_mentions`` (``users`` list or ``parse: ["users"]``)."""
        mentioned = {int(m) for m in re.findall(r"<@!?(\d+)>", self.content or "")}
        am = self.allowed_mentions
        if am is None:
            return mentioned
        allowed = {int(u) for u in am.get("users") or []}
        if "users" in (am.get("parse") or []):
            return mentioned
        return mentioned & allowed

    @property
    def attachments(self) -> list[Attachment]:
        return [Attachment(a.filename, a.data) for a in self._atts]

    @property
    def alt_texts(self) -> list[str | None]:
        """Each attachment's description (its alt text), in order."""
        return [a.description for a in self._atts]

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & F_EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & F_LOADING)

    def custom_ids(self) -> list[str]:
        """Every ``custom_id`` in this message's components (buttons, selects, ...)."""
        return [c["custom_id"] for c in _walk_components(self.components) if "custom_id" in c]

    def __repr__(self) -> str:  # keep assertion output readable
        extra = []
        if self.ephemeral:
            extra.append("ephemeral")
        if self._atts:
            extra.append(f"attachments={[a.filename for a in self._atts]}")
        if self.embeds:
            extra.append(f"embeds={len(self.embeds)}")
        if self.components:
            extra.append(f"custom_ids={self.custom_ids()}")
        if self.deleted:
            extra.append("deleted")
        return f"<FakeMessage id={self.id} channel={self.channel_id} {self.content!r} {' '.join(extra)}>"


def _walk_components(components: Iterable[dict]) -> Iterable[dict]:
    for comp in components or []:
        if not isinstance(comp, dict):
            continue
        yield comp
        yield from _walk_components(comp.get("components") or [])
        for key in ("accessory", "component"):
            if isinstance(comp.get(key), dict):
                yield from _walk_components([comp[key]])


@dataclass
class _User:
    id: int
    name: str
    bot: bool = False
    dms_open: bool = True


@dataclass
class _Member:
    user_id: int
    roles: list[int]
    joined_at: str = field(default_factory=_now_iso)


@dataclass
class _Guild:
    id: int
    name: str
    owner_id: int
    roles: dict[int, dict]
    members: dict[int, _Member] = field(default_factory=dict)
    mod_role_id: int | None = None
    bot_role_id: int | None = None


@dataclass
class _Channel:
    id: int
    type: int
    name: str | None
    guild_id: int | None = None
    position: int = 0
    parent_id: int | None = None
    owner_id: int | None = None
    recipient_id: int | None = None  # DM channels
    thread_members: set[int] = field(default_factory=set)
    created: str = field(default_factory=_now_iso)
    auto_archive_duration: int = 1440
    last_message_id: int | None = None
    archived: bool = False
    # permission overwrites: target (a role or member id) -> (allow, deny); a thread follows its parent's
    overwrites: dict[int, tuple[int, int]] = field(default_factory=dict)


POSTED_BELOW = "Done: posted below."  # the bot's private note when a private "thinking…" gets a public answer


class InteractionResult:
    """What happened to one interaction.  Live: later followups keep being appended.

    Attributes: ``interaction_id``, ``label`` (e.g. ``"/game new"``), ``callback_type`` (the
    initial response type or None), ``acknowledged``, ``expired`` (not acknowledged within the
    deadline), ``choices`` (autocomplete), ``modal`` (type 9 payload), ``errors`` (error replies
    the fake gave to requests about this interaction).
    """

    def __init__(self, server: "FakeDiscord", *, id: int, token: str, type: int, user_id: int,
                 channel_id: int, guild_id: int | None, label: str, data: dict,
                 component_message_id: int | None = None) -> None:
        self._server = server
        self.interaction_id = id
        self.token = token
        self.type = type
        self.user_id = user_id
        self.channel_id = channel_id
        self.guild_id = guild_id
        self.label = label
        self.data = data
        self.component_message_id = component_message_id
        self.original_message_id: int | None = None
        self.callback_type: int | None = None
        self.asked_back: bool | None = None  # the first answer was sent with ``?with_response=1``
        self.acknowledged = False
        self.expired = False
        self.choices: list[dict] | None = None
        self.modal: dict | None = None
        self.errors: list[dict] = []
        self.dispatched_at: float | None = None
        self.acknowledged_after: float | None = None
        # seconds between the interaction's creation (its snowflake) and its dispatch to the bot:
        # a late delivery (``slash(..., delay=2.2)``) leaves the bot ``ack_deadline - delay``
        self.delay = 0.0
        self.late_ok = False  # an expiry the test expects is not a violation
        self._message_ids: list[int] = []
        self._settled = asyncio.Event()
        self._changed = asyncio.Event()
        self._deadline: asyncio.TimerHandle | None = None

    # -- public helpers ------------------------------------------------------------------
    @property
    def deferred(self) -> bool:
        return self.callback_type in (5, 6)

    @property
    def acknowledged_age(self) -> float | None:
        """Seconds from the interaction's creation (not its dispatch) to the bot's first response."""
        return None if self.acknowledged_after is None else self.delay + self.acknowledged_after

    @property
    def messages(self) -> list[FakeMessage]:
        """Messages this interaction produced or edited (not deleted, not still 'thinking')."""
        out = []
        for mid in self._message_ids:
            msg = self._server._messages.get(mid)
            if msg is not None and not msg.deleted and not msg.loading:
                out.append(msg)
        return out

    @property
    def posted_below(self) -> bool:
        """The bot acknowledged privately ("thinking…") and its answer turned out public: it edited its private
        note to "Done: posted below." and posted the answer after it, as a slow order is answered on a loaded
        host (bot/transports/discord_app.py: deliver). ``message``, ``content`` and ``ephemeral`` then read the
        public answer, what the player reads as the answer, so that a test of what the answer says does not
        depend on how fast the host was (issue 39); ``note`` is the private line."""
        msgs = self.messages
        return bool(msgs) and self.callback_type == 5 and msgs[0].ephemeral and msgs[0].content == POSTED_BELOW

    @property
    def note(self) -> FakeMessage | None:
        return self.messages[0] if self.posted_below else None

    @property
    def message(self) -> FakeMessage | None:
        msgs = self.messages
        if self.posted_below:
            msgs = msgs[1:]
        return msgs[0] if msgs else None

    @property
    def content(self) -> str | None:
        msg = self.message
        return None if msg is None else msg.content

    @property
    def ephemeral(self) -> bool | None:
        msg = self.message
        return None if msg is None else msg.ephemeral

    async def wait_for_messages(self, count: int = 1, timeout: float = 10.0) -> list[FakeMessage]:
        """Wait until at least ``count`` messages were produced (e.g. later followups)."""
        async def _wait() -> None:
            while len(self.messages) < count:
                self._changed.clear()
                await self._changed.wait()

        try:
            await asyncio.wait_for(_wait(), timeout)
        except asyncio.TimeoutError:
            raise InteractionTimeout(
                f"{self.label}: expected {count} message(s), got {self.messages!r} after {timeout}s"
            ) from None
        return self.messages

    def __repr__(self) -> str:
        return (f"<InteractionResult {self.label} callback={self.callback_type} "
                f"expired={self.expired} messages={self.messages!r} choices={self.choices!r}>")

    # -- internal --------------------------------------------------------------------------
    def _add_message(self, msg: FakeMessage) -> None:
        if msg.id not in self._message_ids:
            self._message_ids.append(msg.id)
        self._changed.set()

    def _settle(self) -> None:
        self._settled.set()
        self._changed.set()


@dataclass(eq=False)
class _Session:
    id: str
    intents: int
    shard: list[int] | None
    seq: int = 0
    log: list[tuple[int, str, Callable[[], None] | None]] = field(default_factory=list)
    conn: "_Conn | None" = None
    wake: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass(eq=False)
class _Conn:
    ws: web.WebSocketResponse
    request: web.Request
    idx: int = 0
    sender: asyncio.Task | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def send(self, payload: dict) -> None:
        async with self.lock:
            await self.ws.send_str(json.dumps(payload))


class _HTTPError(Exception):
    def __init__(self, status: int, code: int, message: str, errors: dict | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.errors = status, code, message, errors


def _form_error(path: list[str], code: str, message: str) -> _HTTPError:
    errors: dict = {"_errors": [{"code": code, "message": message}]}
    for key in reversed(path):
        errors = {key: errors}
    return _HTTPError(400, 50035, "Invalid Form Body", errors)


def _json_response(data: Any, status: int = 200) -> web.Response:
    # discord.py only decodes bodies whose Content-Type is exactly "application/json"
    # (no charset parameter), like Discord sends them.
    return web.Response(body=json.dumps(data).encode(), status=status,
                        headers={"Content-Type": "application/json"})


def _snowflake_or_none(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


class FakeDiscord:
    """The fake Discord.  All ids are ints on the Python side and strings on the wire.

    Public state for assertions: ``violations`` (list[Violation]), ``unknown_routes``
    (list of ``"METHOD /path"``), ``errors`` (every non-2xx reply: dicts with status, method,
    path, body), ``internal_errors`` (bugs in the fake itself), ``authorizations`` (distinct
    Authorization headers / identify tokens seen), ``gateway_connections`` (query params of
    each gateway connection), ``identify_count``, ``resume_count``.
    """

    def __init__(self, *, ack_deadline: float = ACK_DEADLINE, bot_name: str = "palantir-test",
                 bot_permissions: int = P_ADMINISTRATOR, heartbeat_interval_ms: int = 41250) -> None:
        self.host = "127.0.0.1"
        self.port: int | None = None
        self.ack_deadline = ack_deadline
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.bot_permissions = bot_permissions
        self.token = "fake-bot-token." + secrets.token_urlsafe(16)
        # as Discord: any other token is refused (401 on REST, close 4004 on the gateway); and the
        # privileged intents the application was not granted close the gateway with 4014
        self.strict_token = True
        self.disallowed_intents = 0

        self.violations: list[Violation] = []
        self.unknown_routes: list[str] = []
        self.errors: list[dict] = []
        self.inflight = 0  # REST requests being served now, and served in all (``tests/settle.py``)
        self.requests_served = 0
        self.internal_errors: list[str] = []
        self.authorizations: list[str] = []
        self.gateway_connections: list[dict] = []
        self.identify_count = 0
        self.resume_count = 0

        self._last_snowflake = 0
        self.users: dict[int, _User] = {}
        self.guilds: dict[int, _Guild] = {}
        self.channels: dict[int, _Channel] = {}
        self._messages: dict[int, FakeMessage] = {}
        self._blobs: dict[int, _AttachmentRec] = {}
        self._dm_by_user: dict[int, int] = {}
        self.global_commands: dict[int, dict] = {}
        self.guild_commands: dict[int, dict[int, dict]] = {}
        self._command_ids: dict[tuple, int] = {}
        self._interactions: dict[int, InteractionResult] = {}
        self._by_token: dict[str, InteractionResult] = {}
        self._nonces: dict[tuple[int, str], int] = {}  # (channel, nonce) -> message id (enforce_nonce)
        self.nonce_duplicates = 0  # sends answered with an earlier message because of enforce_nonce

        self.bot_user_id = self._new_user(bot_name, bot=True)
        self.application_id = self.bot_user_id
        self.app_owner_id = self._new_user("app-owner")

        self._session: _Session | None = None
        # sharded bots (IDENTIFY with shard [i, n], n > 1): one session per shard; guild events and
        # interactions go to the session of the guild's shard, (guild_id >> 22) % n, the rest to 0
        self._shards: dict[int, _Session] = {}
        self._conns: set[_Conn] = set()
        self._live = asyncio.Event()
        self._identified = asyncio.Event()
        self._synced = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self._tasks: set[asyncio.Task] = set()

    # ================================================================== lifecycle
    async def start(self) -> None:
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        self._add_routes(app.router)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, 0)
        await site.start()
        sockets = site._server.sockets  # type: ignore[union-attr]
        self.port = sockets[0].getsockname()[1]

    async def stop(self) -> None:
        for inter in self._interactions.values():
            if inter._deadline is not None:
                inter._deadline.cancel()
        for conn in list(self._conns):
            if conn.sender is not None:
                conn.sender.cancel()
            if not conn.ws.closed:
                try:
                    await asyncio.wait_for(conn.ws.close(code=1001, message=b"server stopping"), 2)
                except Exception:  # pragma: no cover - best effort
                    pass
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> "FakeDiscord":
        await self.start()
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def api_base(self) -> str:
        return f"{self.base_url}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.host}:{self.port}/gateway"

    async def wait_ready(self, timeout: float = 10.0, *, commands: bool = True) -> None:
        """Wait until the bot identified (READY + GUILD_CREATEs sent) and, unless
        ``commands=False``, synced its application commands.  After a bot closed cleanly both
        are reset, so this also works for a second bot started against the same server (pass
        ``commands=False`` if that bot does not sync on startup; synced commands are kept)."""
        await self._wait(self._identified, timeout, "the bot to IDENTIFY on the fake gateway")
        if commands:
            await self.wait_commands_synced(timeout)
        await self._wait(self._live, timeout, "the bot's gateway connection")

    async def wait_commands_synced(self, timeout: float = 10.0) -> None:
        await self._wait(self._synced, timeout, "the bot to sync its application commands")

    async def wait_connected(self, timeout: float = 10.0) -> None:
        """Wait until the bot has a live gateway session (after READY or RESUMED)."""
        await self._wait(self._live, timeout, "the bot's gateway connection")

    async def wait_for(self, predicate: Callable[[], Any], timeout: float = 5.0, interval: float = 0.01) -> Any:
        """Poll ``predicate`` until it returns something truthy (handy for background effects)."""
        deadline = time.monotonic() + timeout
        while True:
            value = predicate()
            if value:
                return value
            if time.monotonic() > deadline:
                raise asyncio.TimeoutError(f"condition not met within {timeout}s")
            await asyncio.sleep(interval)

    @staticmethod
    async def _wait(event: asyncio.Event, timeout: float, what: str) -> None:
        try:
            await asyncio.wait_for(event.wait(), timeout)
        except asyncio.TimeoutError:
            raise asyncio.TimeoutError(f"fakediscord: timed out after {timeout}s waiting for {what}") from None

    def assert_clean(self) -> None:
        """Raise AssertionError if any violation, unknown route or fake-internal error happened."""
        problems = []
        if self.violations:
            problems.append(f"violations: {self.violations!r}")
        if self.unknown_routes:
            problems.append(f"unknown routes: {self.unknown_routes!r}")
        if self.internal_errors:
            problems.append("internal errors:\n" + "\n".join(self.internal_errors))
        if problems:
            raise AssertionError("fakediscord: " + "; ".join(problems))

    # ================================================================== world building
    def _snowflake(self) -> int:
        now = ((int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22)
        self._last_snowflake = max(self._last_snowflake + 1, now)
        return self._last_snowflake

    def _snowflake_at(self, when: float) -> int:
        """A unique snowflake whose timestamp is ``when`` (seconds since the epoch), earlier than now.
        Its increment is in the upper half of the 22 bits, which ``_snowflake`` never reaches (it
        counts from 0 within each millisecond), so it cannot equal an id given before at that time."""
        self._back_counter = (getattr(self, "_back_counter", 0) + 1) % (1 << 21)
        return ((int(when * 1000) - DISCORD_EPOCH_MS) << 22) | (1 << 21) | self._back_counter

    def _new_user(self, name: str, *, bot: bool = False, dms_open: bool = True) -> int:
        uid = self._snowflake()
        self.users[uid] = _User(uid, name, bot=bot, dms_open=dms_open)
        return uid

    def add_guild(self, name: str) -> int:
        gid = self._snowflake()
        everyone = self._role_payload(gid, "@everyone", EVERYONE_PERMISSIONS, 0)
        guild = _Guild(gid, name, owner_id=self.app_owner_id, roles={gid: everyone})
        bot_role = self._snowflake()
        role = self._role_payload(bot_role, self.users[self.bot_user_id].name, self.bot_permissions, 1)
        role["managed"] = True
        role["tags"] = {"bot_id": str(self.bot_user_id)}
        guild.roles[bot_role] = role
        guild.bot_role_id = bot_role
        guild.members[self.bot_user_id] = _Member(self.bot_user_id, [bot_role])
        self.guilds[gid] = guild
        if self._session is not None:
            self._dispatch("GUILD_CREATE", self._guild_payload(guild, full=True))
        return gid

    def add_channel(self, guild_id: int, name: str) -> int:
        guild = self.guilds[guild_id]
        cid = self._snowflake()
        position = sum(1 for c in self.channels.values() if c.guild_id == guild_id and c.type == CH_TEXT)
        ch = _Channel(cid, CH_TEXT, name, guild_id=guild.id, position=position)
        self.channels[cid] = ch
        if self._session is not None:
            self._dispatch("CHANNEL_CREATE", self._channel_payload(ch))
        return cid

    def add_user(self, name: str, guild_id: int | None = None, manage_guild: bool = False, *,
                 bot: bool = False, dms_open: bool = True) -> int:
        """Create a user; with ``guild_id`` also make them a member (``manage_guild`` gives them
        a role with the Manage Server permission).  ``dms_open=False`` makes DMs to them fail
        with 403/50007 like a user who blocks DMs from server members."""
        uid = self._new_user(name, bot=bot, dms_open=dms_open)
        if guild_id is not None:
            self.add_member(guild_id, uid, manage_guild=manage_guild)
        return uid

    def add_member(self, guild_id: int, user_id: int, *, manage_guild: bool = False) -> None:
        guild = self.guilds[guild_id]
        member = _Member(user_id, [])
        guild.members[user_id] = member
        if manage_guild:
            member.roles.append(self._mod_role(guild))
        if self._session is not None and self._session.intents & I_GUILD_MEMBERS:
            self._dispatch("GUILD_MEMBER_ADD", {**self._member_payload(guild, user_id), "guild_id": str(guild_id)})

    def remove_member(self, guild_id: int, user_id: int) -> None:
        """The user leaves the guild (dispatches GUILD_MEMBER_REMOVE with the members intent, as Discord does)."""
        self.guilds[guild_id].members.pop(user_id, None)
        if self._session is not None and self._session.intents & I_GUILD_MEMBERS:
            self._dispatch("GUILD_MEMBER_REMOVE", {"guild_id": str(guild_id), "user": self._user_payload(user_id)})

    def set_manage_guild(self, guild_id: int, user_id: int, value: bool) -> None:
        """Grant/revoke the Manage Server role (dispatches GUILD_MEMBER_UPDATE when connected)."""
        guild = self.guilds[guild_id]
        member = guild.members[user_id]
        role = self._mod_role(guild)
        if value and role not in member.roles:
            member.roles.append(role)
        if not value and role in member.roles:
            member.roles.remove(role)
        if self._session is not None:
            self._dispatch("GUILD_MEMBER_UPDATE", {**self._member_payload(guild, user_id), "guild_id": str(guild_id)})

    def set_bot_permissions(self, guild_id: int, permissions: int) -> None:
        """Change the bot's role permissions in a guild (e.g. take Create Public Threads away);
        dispatches GUILD_ROLE_UPDATE when connected. Interactions carry them as ``app_permissions``."""
        guild = self.guilds[guild_id]
        role = guild.roles[guild.bot_role_id]  # type: ignore[index]
        role["permissions"] = str(permissions)
        if self._session is not None:
            self._dispatch("GUILD_ROLE_UPDATE", {"guild_id": str(guild_id), "role": role})

    def set_channel_permissions(self, channel_id: int, target_id: int, *, allow: int = 0, deny: int = 0) -> None:
        """A permission overwrite on a guild channel for a role or a member (``target_id``; the bot's is
        ``bot_user_id``), e.g. ``deny=P_SEND_MESSAGES``: the bot may then not post there (``403 Missing
        Permissions``; without View Channel, ``403 Missing Access``). Dispatches CHANNEL_UPDATE when connected."""
        ch = self.channels[channel_id]
        ch.overwrites[target_id] = (allow, deny)
        if self._session is not None:
            self._dispatch("CHANNEL_UPDATE", self._channel_payload(ch))

    def channel_permissions(self, channel_id: int, user_id: int) -> int:
        """``user_id``'s permissions in a guild channel (a thread: its parent's), Discord's way: the guild's,
        then the @everyone overwrite, the roles' overwrites, the member's own."""
        ch = self.channels[channel_id]
        if ch.type in _THREAD_TYPES and ch.parent_id in self.channels:
            ch = self.channels[ch.parent_id]
        guild = self.guilds[ch.guild_id]  # type: ignore[index]
        perms = self._guild_permissions(guild, user_id)
        if perms & P_ADMINISTRATOR or user_id == guild.owner_id:
            return ALL_PERMISSIONS
        allow, deny = ch.overwrites.get(guild.id, (0, 0))
        perms = (perms & ~deny) | allow
        member = guild.members.get(user_id)
        roles = member.roles if member is not None else []
        allow = deny = 0
        for rid in roles:
            a, d = ch.overwrites.get(rid, (0, 0))
            allow, deny = allow | a, deny | d
        perms = (perms & ~deny) | allow
        allow, deny = ch.overwrites.get(user_id, (0, 0))
        return (perms & ~deny) | allow

    def dm_channel(self, user_id: int) -> int:
        """The id of the DM channel between the bot and ``user_id`` (created on demand)."""
        if user_id not in self._dm_by_user:
            cid = self._snowflake()
            self.channels[cid] = _Channel(cid, CH_DM, None, recipient_id=user_id)
            self._dm_by_user[user_id] = cid
        return self._dm_by_user[user_id]

    def _mod_role(self, guild: _Guild) -> int:
        if guild.mod_role_id is None:
            rid = self._snowflake()
            guild.roles[rid] = self._role_payload(rid, "Moderator", P_MANAGE_GUILD, 1)
            guild.mod_role_id = rid
            if self._session is not None:
                self._dispatch("GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": guild.roles[rid]})
        return guild.mod_role_id

    # ================================================================== queries for tests
    def message(self, message_id: int) -> FakeMessage:
        return self._messages[message_id]

    def messages(self, channel_id: int, *, include_ephemeral: bool = False,
                 include_gone: bool = False) -> list[FakeMessage]:
        """Every visible message in the channel (or thread/DM), oldest first; with ``include_gone`` also
        those deleted since and "thinking…" ones: whatever anyone there may have seen, if only for a moment."""
        return [
            m for m in self._messages.values()
            if m.channel_id == channel_id and (include_gone or (not m.deleted and not m.loading))
            and (include_ephemeral or not m.ephemeral)
        ]

    def dms(self, user_id: int) -> list[FakeMessage]:
        """Messages in the DM channel between the bot and ``user_id``."""
        cid = self._dm_by_user.get(user_id)
        return [] if cid is None else self.messages(cid)

    def all_visible_to(self, user_id: int) -> list[FakeMessage]:
        """Everything ``user_id`` can read: public messages in their guilds' channels and
        threads, their own ephemeral responses and their DMs (oldest first)."""
        return [m for m in self._messages.values()
                if not m.deleted and not m.loading and self._can_see(user_id, m)]

    def commands(self, guild_id: int | None = None) -> list[dict]:
        """The application commands the bot synced (global, or for one guild)."""
        store = self.global_commands if guild_id is None else self.guild_commands.get(guild_id, {})
        return list(store.values())

    def _can_see(self, user_id: int, msg: FakeMessage) -> bool:
        if msg.ephemeral:
            return msg.visible_to == user_id
        ch = self.channels.get(msg.channel_id)
        if ch is None:
            return False
        if ch.type == CH_DM:
            return ch.recipient_id == user_id or user_id == self.bot_user_id
        guild = self.guilds.get(ch.guild_id or 0)
        if guild is None or user_id not in guild.members:
            return False
        if ch.type == CH_PRIVATE_THREAD:
            return user_id in ch.thread_members or bool(self._guild_permissions(guild, user_id) & P_ADMINISTRATOR)
        return True

    # ================================================================== interactions
    async def slash(self, user_id: int, channel_id: int, *names: str, options: dict | None = None,
                    timeout: float = 10.0, bypass_permissions: bool = False,
                    interaction_id: int | None = None, delay: float = 0.0,
                    late_ok: bool = False) -> InteractionResult:
        """Invoke ``/names[0] names[1] ...`` as ``user_id`` in ``channel_id``.

        Options are validated like the Discord client would (unknown/missing-required options,
        choices, min/max raise ``ValueError``).  Users/channels/roles may be passed as ids;
        attachments as ``(filename, bytes)``.  Waits until the interaction was answered and, if
        deferred, until the first followup or edit of the original response; raises
        :class:`InteractionTimeout` if that does not happen within ``timeout`` seconds.  If the
        bot does not acknowledge within 3 s the returned result has ``expired=True`` (and a
        violation is recorded, unless ``late_ok``).

        ``delay``: the interaction was created that many seconds before it reaches the bot (a
        backed-up gateway, a slow client): its snowflake carries the earlier time and Discord's
        3 s count from it, so the bot has ``3 - delay`` seconds left (none from 3 on)."""
        ch, guild, data = self._command_data("slash", user_id, channel_id, names, options,
                                             focused=None, bypass_permissions=bypass_permissions)
        return await self._run_interaction(2, user_id, ch, guild, data, label="/" + " ".join(names),
                                           timeout=timeout, interaction_id=interaction_id, delay=delay,
                                           late_ok=late_ok)

    async def interact(self, user_id: int, channel_id: int, itype: int, data: dict, *,
                       message: FakeMessage | int | None = None, timeout: float = 10.0) -> InteractionResult:
        """Send an interaction of type ``itype`` whose ``data`` is taken as it is (no command or component
        looked up, nothing checked: a client's malformed or hostile interaction), and wait for its answer
        as ``slash`` does."""
        ch, guild = self._interaction_place(user_id, channel_id)
        msg = self._resolve_message(message) if message is not None else None
        return await self._run_interaction(itype, user_id, ch, guild, data, message=msg, timeout=timeout,
                                           label=f"interaction of type {itype}")

    def new_interaction_id(self) -> int:
        """A fresh snowflake to pass as ``slash(..., interaction_id=)``: sending it twice models a
        client retry / duplicate delivery of the same interaction (with a new token)."""
        return self._snowflake()

    def _command_data(self, what: str, user_id: int, channel_id: int, names: tuple[str, ...],
                      options: dict | None, *, focused: str | None, bypass_permissions: bool = False):
        """The place and the ``data`` of a chat-input command interaction, as the client builds it
        (for autocomplete the options always go in, with the focused one marked)."""
        if not names:
            raise TypeError(f"{what}() needs at least the command name")
        ch, guild = self._interaction_place(user_id, channel_id)
        cmd = self._lookup_command(names[0], guild.id if guild else None, 1)
        self._check_command_access(cmd, user_id, guild, bypass_permissions)
        opts, resolved = self._build_options(cmd, list(names[1:]), options or {}, guild, focused=focused)
        data: dict[str, Any] = {"id": str(cmd["id"]), "name": cmd["name"], "type": 1}
        if opts or focused is not None:
            data["options"] = opts
        if resolved and focused is None:
            data["resolved"] = resolved
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        return ch, guild, data

    async def autocomplete(self, user_id: int, channel_id: int, *names: str, options: dict | None = None,
                           focused: str, timeout: float = 10.0) -> list[dict]:
        """Send an autocomplete interaction while the user types into option ``focused``
        (its value is taken from ``options``, default "") and return the bot's choices as a
        list of ``{"name": ..., "value": ...}`` dicts ([] if the bot did not answer in time)."""
        ch, guild, data = self._command_data("autocomplete", user_id, channel_id, names, options,
                                             focused=focused)
        result = await self._run_interaction(4, user_id, ch, guild, data, timeout=timeout,
                                             label="autocomplete /" + " ".join(names) + f" [{focused}]")
        return list(result.choices or [])

    async def user_command(self, user_id: int, channel_id: int, name: str, target_user_id: int,
                           *, timeout: float = 10.0) -> InteractionResult:
        """Invoke a user context-menu command (type 2) on ``target_user_id``."""
        ch, guild = self._interaction_place(user_id, channel_id)
        cmd = self._lookup_command(name, guild.id if guild else None, 2)
        self._check_command_access(cmd, user_id, guild, False)
        resolved: dict = {}
        self._resolve_user(resolved, target_user_id, guild)
        data = {"id": str(cmd["id"]), "name": name, "type": 2, "target_id": str(target_user_id),
                "resolved": resolved}
        return await self._run_interaction(2, user_id, ch, guild, data, label=f"user command {name}",
                                           timeout=timeout)

    async def message_command(self, user_id: int, channel_id: int, name: str, message: FakeMessage | int,
                              *, timeout: float = 10.0) -> InteractionResult:
        """Invoke a message context-menu command (type 3) on ``message``."""
        ch, guild = self._interaction_place(user_id, channel_id)
        cmd = self._lookup_command(name, guild.id if guild else None, 3)
        self._check_command_access(cmd, user_id, guild, False)
        msg = self._resolve_message(message)
        data = {"id": str(cmd["id"]), "name": name, "type": 3, "target_id": str(msg.id),
                "resolved": {"messages": {str(msg.id): self._message_payload(msg)}}}
        return await self._run_interaction(2, user_id, ch, guild, data, label=f"message command {name}",
                                           timeout=timeout)

    async def click(self, user_id: int, message: FakeMessage | int, custom_id: str, *,
                    values: list | None = None, timeout: float = 10.0, delay: float = 0.0,
                    late_ok: bool = False) -> InteractionResult:
        """Click the button (or choose ``values`` in the select) ``custom_id`` on ``message``."""
        msg = self._resolve_message(message)
        if not self._can_see(user_id, msg):
            raise PermissionError(f"user {user_id} cannot see message {msg.id}")
        comp = next((c for c in _walk_components(msg.components) if c.get("custom_id") == custom_id), None)
        if comp is None:
            raise ValueError(f"message {msg.id} has no component {custom_id!r}; it has {msg.custom_ids()}")
        if comp.get("disabled"):
            raise ValueError(f"component {custom_id!r} is disabled")
        ch, guild = self._interaction_place(user_id, msg.channel_id)
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": comp["type"]}
        if "id" in comp:
            data["id"] = comp["id"]
        if comp["type"] in _SELECT_TYPES:
            vals = [str(getattr(v, "id", v)) for v in (values or [])]
            lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
            if not lo <= len(vals) <= hi:
                raise ValueError(f"select {custom_id!r} needs {lo}..{hi} values, got {vals}")
            if comp["type"] == 3:
                allowed = {o["value"] for o in comp.get("options", [])}
                bad = [v for v in vals if v not in allowed]
                if bad:
                    raise ValueError(f"select {custom_id!r}: unknown values {bad}; options are {sorted(allowed)}")
            else:
                resolved: dict = {}
                for v in vals:
                    if comp["type"] in (5, 7) and int(v) in self.users:
                        self._resolve_user(resolved, int(v), guild)
                    elif guild and int(v) in guild.roles:
                        resolved.setdefault("roles", {})[v] = guild.roles[int(v)]
                    elif int(v) in self.channels:
                        resolved.setdefault("channels", {})[v] = self._resolved_channel(self.channels[int(v)], guild)
                if resolved:
                    data["resolved"] = resolved
            data["values"] = vals
        elif values:
            raise ValueError("values= is only for select menus")
        return await self._run_interaction(3, user_id, ch, guild, data, message=msg, timeout=timeout,
                                           delay=delay, late_ok=late_ok,
                                           label=f"click {custom_id!r}")

    select = click

    async def submit_modal(self, user_id: int, origin: InteractionResult, values: dict[str, Any], *,
                           timeout: float = 10.0) -> InteractionResult:
        """Fill in and submit the modal that ``origin`` answered with (callback type 9)."""
        modal = origin.modal
        if modal is None:
            raise ValueError(f"{origin.label} did not answer with a modal")
        ch, guild = self._interaction_place(user_id, origin.channel_id)

        def fill(comp: dict) -> dict:
            t = comp.get("type")
            if t == 1:
                return {"type": 1, "components": [fill(c) for c in comp.get("components", [])]}
            if t == 18:
                return {"type": 18, "id": comp.get("id"), "component": fill(comp["component"])}
            cid = comp.get("custom_id")
            if t == 4:
                value = values.get(cid, comp.get("value") or "")
                if comp.get("required", True) and not value:
                    raise ValueError(f"modal field {cid!r} is required")
                if len(value) > comp.get("max_length", 4000) or len(value) < comp.get("min_length", 0):
                    raise ValueError(f"modal field {cid!r}: length {len(value)} out of bounds")
                return {"type": 4, "id": comp.get("id"), "custom_id": cid, "value": value}
            if t in _SELECT_TYPES:
                return {"type": t, "id": comp.get("id"), "custom_id": cid,
                        "values": [str(v) for v in values.get(cid, [])]}
            return {"type": t, "id": comp.get("id")}

        data = {"custom_id": modal["custom_id"], "components": [fill(c) for c in modal.get("components", [])]}
        message = self._messages.get(origin.component_message_id or 0)
        return await self._run_interaction(5, user_id, ch, guild, data, message=message, timeout=timeout,
                                           label=f"modal {modal['custom_id']!r}")

    async def post_message(self, user_id: int, channel_id: int, content: str = "", *,
                           attachments: list[tuple[str, bytes]] | None = None) -> FakeMessage:
        """A user posts a message (dispatches MESSAGE_CREATE; content is blanked for the bot
        unless it has the message-content intent, except in DMs)."""
        ch = self.channels[channel_id]
        guild = self.guilds.get(ch.guild_id or 0)
        msg = FakeMessage(id=self._snowflake(), channel_id=channel_id, guild_id=ch.guild_id,
                          author_id=user_id, content=content)
        for fn, data in attachments or []:
            msg._atts.append(self._store_blob(fn, data))
        self._store_message(msg)
        payload = self._message_payload(msg, gateway=True)
        session = self._session
        if guild is not None and session is not None and not session.intents & I_MESSAGE_CONTENT:
            payload.update(content="", embeds=[], attachments=[], components=[])
        self._dispatch_message("MESSAGE_CREATE", msg, payload)
        return msg

    def _resolve_message(self, message: FakeMessage | int) -> FakeMessage:
        mid = message.id if isinstance(message, FakeMessage) else int(message)
        msg = self._messages.get(mid)
        if msg is None or msg.deleted:
            raise ValueError(f"unknown or deleted message {mid}")
        return msg

    def _interaction_place(self, user_id: int, channel_id: int) -> tuple[_Channel, _Guild | None]:
        if user_id not in self.users:
            raise ValueError(f"unknown user {user_id}")
        ch = self.channels.get(channel_id)
        if ch is None:
            raise ValueError(f"unknown channel {channel_id}")
        if ch.type == CH_DM:
            if ch.recipient_id != user_id:
                raise PermissionError(f"channel {channel_id} is not user {user_id}'s DM with the bot")
            return ch, None
        guild = self.guilds[ch.guild_id]  # type: ignore[index]
        if user_id not in guild.members:
            raise PermissionError(f"user {user_id} is not a member of guild {guild.id}")
        return ch, guild

    def _lookup_command(self, name: str, guild_id: int | None, ctype: int) -> dict:
        pools = []
        if guild_id is not None:
            pools.append(self.guild_commands.get(guild_id, {}))
        pools.append(self.global_commands)
        for pool in pools:
            for cmd in pool.values():
                if cmd["name"] == name and cmd.get("type", 1) == ctype:
                    return cmd
        known = sorted({c["name"] for p in pools for c in p.values()})
        raise LookupError(f"no synced command {name!r} (type {ctype}); synced: {known}")

    def _check_command_access(self, cmd: dict, user_id: int, guild: _Guild | None, bypass: bool) -> None:
        contexts = cmd.get("contexts")
        if guild is None:
            if contexts is not None and 1 not in contexts and 2 not in contexts:
                raise PermissionError(f"/{cmd['name']} is not available in DMs")
            if contexts is None and cmd.get("dm_permission") is False:
                raise PermissionError(f"/{cmd['name']} is not available in DMs")
            return
        if contexts is not None and 0 not in contexts:
            raise PermissionError(f"/{cmd['name']} is not available in guilds")
        required = cmd.get("default_member_permissions")
        if required is not None and not bypass:
            required = int(required)
            perms = self._guild_permissions(guild, user_id)
            if perms & P_ADMINISTRATOR == 0 and perms & required != required:
                raise PermissionError(
                    f"/{cmd['name']} requires permissions {required:#x}; user {user_id} has {perms:#x} "
                    "(Discord would not even show the command; pass bypass_permissions=True to force it)"
                )

    def _build_options(self, cmd: dict, path: list[str], values: dict, guild: _Guild | None,
                       focused: str | None) -> tuple[list[dict], dict]:
        defs = cmd.get("options") or []
        resolved: dict = {}
        wrappers: list[dict] = []
        for sub in path:
            opt = next((o for o in defs if o["name"] == sub and o["type"] in (OPT_SUB_COMMAND, OPT_SUB_COMMAND_GROUP)), None)
            if opt is None:
                raise ValueError(f"/{cmd['name']} has no subcommand {sub!r}")
            wrappers.append({"type": opt["type"], "name": sub, "options": []})
            defs = opt.get("options") or []
        if any(o["type"] in (OPT_SUB_COMMAND, OPT_SUB_COMMAND_GROUP) for o in defs):
            subs = [o["name"] for o in defs]
            raise ValueError(f"/{' '.join([cmd['name'], *path])} needs a subcommand: {subs}")
        known = {o["name"]: o for o in defs}
        unknown = set(values) - set(known)
        if unknown:
            raise ValueError(f"unknown option(s) {sorted(unknown)}; /{cmd['name']} accepts {sorted(known)}")
        leaf: list[dict] = []
        for o in defs:
            name = o["name"]
            if name == focused:
                leaf.append({"type": o["type"], "name": name, "value": str(values.get(name, "")), "focused": True})
                continue
            if name not in values:
                if o.get("required") and focused is None:
                    raise ValueError(f"option {name!r} is required")
                continue
            value = self._convert_option(o, values[name], guild, resolved if focused is None else {})
            leaf.append({"type": o["type"], "name": name, "value": value})
        if focused is not None and focused not in known:
            raise ValueError(f"focused option {focused!r} does not exist")
        if focused is not None and not known[focused].get("autocomplete"):
            raise ValueError(f"option {focused!r} has no autocomplete")
        # nest: wrappers[0] contains wrappers[1] ... contains leaf
        options = leaf
        for wrapper in reversed(wrappers):
            wrapper["options"] = options
            options = [wrapper]
        return options, resolved

    def _convert_option(self, o: dict, value: Any, guild: _Guild | None, resolved: dict) -> Any:
        t, name = o["type"], o["name"]
        if t == OPT_STRING:
            value = str(value)
            if not o.get("min_length", 0) <= len(value) <= o.get("max_length", 6000):
                raise ValueError(f"option {name!r}: length {len(value)} out of bounds")
        elif t == OPT_INTEGER:
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"option {name!r} must be an int, got {value!r}")
        elif t == OPT_NUMBER:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ValueError(f"option {name!r} must be a number, got {value!r}")
            value = float(value)
        elif t == OPT_BOOLEAN:
            if not isinstance(value, bool):
                raise ValueError(f"option {name!r} must be a bool, got {value!r}")
        elif t in (OPT_USER, OPT_MENTIONABLE, OPT_CHANNEL, OPT_ROLE):
            sid = int(getattr(value, "id", value))
            if t in (OPT_USER, OPT_MENTIONABLE) and sid in self.users:
                self._resolve_user(resolved, sid, guild)
            elif t in (OPT_ROLE, OPT_MENTIONABLE) and guild is not None and sid in guild.roles:
                resolved.setdefault("roles", {})[str(sid)] = guild.roles[sid]
            elif t == OPT_CHANNEL and sid in self.channels:
                ch = self.channels[sid]
                types = o.get("channel_types")
                if types and ch.type not in types:
                    raise ValueError(f"option {name!r}: channel type {ch.type} not in {types}")
                resolved.setdefault("channels", {})[str(sid)] = self._resolved_channel(ch, guild)
            else:
                raise ValueError(f"option {name!r}: unknown id {sid}")
            return str(sid)
        elif t == OPT_ATTACHMENT:
            filename, data = value
            rec = self._store_blob(filename, bytes(data))
            resolved.setdefault("attachments", {})[str(rec.id)] = self._attachment_payload(rec)
            return str(rec.id)
        if t in (OPT_INTEGER, OPT_NUMBER):
            lo, hi = o.get("min_value"), o.get("max_value")
            if (lo is not None and value < lo) or (hi is not None and value > hi):
                raise ValueError(f"option {name!r}: {value} not in [{lo}, {hi}]")
        choices = o.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise ValueError(f"option {name!r}: {value!r} is not one of {[c['value'] for c in choices]}")
        return value

    def _resolve_user(self, resolved: dict, user_id: int, guild: _Guild | None) -> None:
        resolved.setdefault("users", {})[str(user_id)] = self._user_payload(user_id)
        if guild is not None and user_id in guild.members:
            member = self._member_payload(guild, user_id)
            member.pop("user")
            member["permissions"] = str(self._guild_permissions(guild, user_id))
            resolved.setdefault("members", {})[str(user_id)] = member

    def _resolved_channel(self, ch: _Channel, guild: _Guild | None) -> dict:
        payload = self._channel_payload(ch)
        payload["permissions"] = str(ALL_PERMISSIONS)
        return payload

    async def _run_interaction(self, itype: int, user_id: int, ch: _Channel, guild: _Guild | None,
                               data: dict, *, label: str, timeout: float,
                               message: FakeMessage | None = None,
                               interaction_id: int | None = None, delay: float = 0.0,
                               late_ok: bool = False) -> InteractionResult:
        await self._wait(self._live, timeout, "the bot's gateway connection (is the bot running?)")
        iid = interaction_id or (self._snowflake_at(time.time() - delay) if delay else self._snowflake())
        inter = InteractionResult(self, id=iid, token=secrets.token_urlsafe(48), type=itype, user_id=user_id,
                                  channel_id=ch.id, guild_id=guild.id if guild else None, label=label,
                                  data=data, component_message_id=message.id if message else None)
        inter.delay, inter.late_ok = max(0.0, delay), late_ok
        self._interactions[iid] = inter
        self._by_token[inter.token] = inter
        payload = self._interaction_payload(itype, iid, inter.token, user_id, ch, guild, data, message)

        def on_sent() -> None:
            loop = asyncio.get_running_loop()
            inter.dispatched_at = loop.time()
            inter._deadline = loop.call_later(max(0.0, self.ack_deadline - inter.delay), self._ack_expired, inter)

        self._dispatch("INTERACTION_CREATE", payload, on_sent=on_sent)
        try:
            await asyncio.wait_for(inter._settled.wait(), timeout)
        except asyncio.TimeoutError:
            raise InteractionTimeout(
                f"{label}: no answer within {timeout}s (callback type {inter.callback_type}, "
                f"messages so far {inter.messages!r}, errors {inter.errors!r})"
            ) from None
        if inter.posted_below:  # the answer itself follows the private note: wait for it too
            await inter.wait_for_messages(2, timeout)
        return inter

    def _interaction_payload(self, itype: int, iid: int, token: str, user_id: int, ch: _Channel,
                             guild: _Guild | None, data: dict, message: FakeMessage | None = None) -> dict:
        """INTERACTION_CREATE's ``d``, as Discord sends it."""
        payload: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": itype,
            "data": data,
            "token": token,
            "version": 1,
            "channel_id": str(ch.id),
            "locale": "en-US",
            "entitlements": [],
            "attachment_size_limit": MAX_ATTACHMENT_BYTES,
        }
        channel = self._channel_payload(ch)
        if guild is not None:
            channel["permissions"] = str(self.channel_permissions(ch.id, user_id))
            member = self._member_payload(guild, user_id)
            member["permissions"] = str(self.channel_permissions(ch.id, user_id))
            payload.update(
                guild_id=str(guild.id),
                guild={"id": str(guild.id), "locale": "en-US", "features": []},
                guild_locale="en-US",
                member=member,
                app_permissions=str(self.channel_permissions(ch.id, self.bot_user_id)),
                authorizing_integration_owners={"0": str(guild.id)},
                context=0,
            )
        else:
            payload.update(
                user=self._user_payload(user_id),
                app_permissions=str(EVERYONE_PERMISSIONS),
                authorizing_integration_owners={"0": "0"},
                context=1,
            )
        payload["channel"] = channel
        if message is not None:
            payload["message"] = self._message_payload(message)
        return payload

    def interaction_payload(self, user_id: int, channel_id: int, itype: int = 2, data: dict | None = None) -> dict:
        """An INTERACTION_CREATE's ``d`` as Discord would send it (a fresh id and token; no command looked
        up and nothing waits for an answer): for a test to break and send by ``dispatch_raw``."""
        ch, guild = self._interaction_place(user_id, channel_id)
        return self._interaction_payload(itype, self._snowflake(), secrets.token_urlsafe(48), user_id, ch, guild,
                                         data if data is not None else {})

    def _ack_expired(self, inter: InteractionResult) -> None:
        inter._deadline = None
        if inter.acknowledged:
            return
        inter.expired = True
        if not inter.late_ok:
            self._violate("ack_timeout", f"{inter.label}: interaction {inter.interaction_id} was not "
                          f"acknowledged within {self.ack_deadline}s")
        inter._settle()

    # ================================================================== payload builders
    def _user_payload(self, user_id: int) -> dict:
        u = self.users[user_id]
        payload = {
            "id": str(u.id),
            "username": u.name,
            "discriminator": "0",
            "global_name": None if u.bot else u.name,
            "avatar": None,
            "public_flags": 0,
            "flags": 0,
            "banner": None,
            "accent_color": None,
            "avatar_decoration_data": None,
        }
        if u.bot:
            payload["bot"] = True
        return payload

    @staticmethod
    def _role_payload(rid: int, name: str, permissions: int, position: int) -> dict:
        return {
            "id": str(rid),
            "name": name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": position,
            "permissions": str(permissions),
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }

    def _member_payload(self, guild: _Guild, user_id: int) -> dict:
        m = guild.members[user_id]
        return {
            "user": self._user_payload(user_id),
            "nick": None,
            "avatar": None,
            "banner": None,
            "roles": [str(r) for r in m.roles],
            "joined_at": m.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }

    def _guild_permissions(self, guild: _Guild, user_id: int) -> int:
        if user_id == guild.owner_id:
            return ALL_PERMISSIONS
        member = guild.members.get(user_id)
        if member is None:
            return 0
        perms = int(guild.roles[guild.id]["permissions"])
        for rid in member.roles:
            perms |= int(guild.roles[rid]["permissions"])
        if perms & P_ADMINISTRATOR:
            return ALL_PERMISSIONS
        return perms

    def _channel_payload(self, ch: _Channel) -> dict:
        if ch.type == CH_DM:
            return {
                "id": str(ch.id),
                "type": CH_DM,
                "last_message_id": str(ch.last_message_id) if ch.last_message_id else None,
                "recipients": [self._user_payload(ch.recipient_id)],  # type: ignore[arg-type]
                "flags": 0,
            }
        payload: dict[str, Any] = {
            "id": str(ch.id),
            "type": ch.type,
            "guild_id": str(ch.guild_id),
            "name": ch.name,
            "parent_id": str(ch.parent_id) if ch.parent_id else None,
            "last_message_id": str(ch.last_message_id) if ch.last_message_id else None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        if ch.type in _THREAD_TYPES:
            payload.update(
                owner_id=str(ch.owner_id),
                message_count=sum(1 for m in self._messages.values() if m.channel_id == ch.id and not m.deleted),
                member_count=len(ch.thread_members),
                total_message_sent=sum(1 for m in self._messages.values() if m.channel_id == ch.id),
                thread_metadata={
                    "archived": ch.archived,
                    "auto_archive_duration": ch.auto_archive_duration,
                    "archive_timestamp": ch.created,
                    "locked": False,
                    "invitable": True,
                    "create_timestamp": ch.created,
                },
            )
        else:
            guild = self.guilds.get(ch.guild_id or 0)
            overwrites = [{"id": str(t), "type": 0 if guild is not None and t in guild.roles else 1,
                           "allow": str(a), "deny": str(d)} for t, (a, d) in ch.overwrites.items()]
            payload.update(position=ch.position, permission_overwrites=overwrites, topic=None, nsfw=False,
                           default_auto_archive_duration=1440)
        return payload

    def _guild_payload(self, guild: _Guild, *, full: bool) -> dict:
        payload: dict[str, Any] = {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(guild.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": list(guild.roles.values()),
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "max_members": 500000,
            "vanity_url_code": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": "en-US",
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
        }
        if full:
            chans = [c for c in self.channels.values() if c.guild_id == guild.id]
            payload.update(
                joined_at=guild.members[self.bot_user_id].joined_at,
                large=False,
                unavailable=False,
                member_count=len(guild.members),
                voice_states=[],
                members=[self._member_payload(guild, uid) for uid in guild.members],
                channels=[self._channel_payload(c) for c in chans if c.type not in _THREAD_TYPES],
                threads=[self._channel_payload(c) for c in chans if c.type in _THREAD_TYPES],
                presences=[],
                stage_instances=[],
                guild_scheduled_events=[],
                soundboard_sounds=[],
            )
        return payload

    def _attachment_payload(self, rec: _AttachmentRec, *, ephemeral: bool = False) -> dict:
        url = f"{self.base_url}/attachments/{rec.id}/{rec.filename}"
        payload: dict[str, Any] = {
            "id": str(rec.id),
            "filename": rec.filename,
            "size": len(rec.data),
            "url": url,
            "proxy_url": url,
        }
        if rec.content_type:
            payload["content_type"] = rec.content_type
        if rec.description is not None:
            payload["description"] = rec.description
        if ephemeral:
            payload["ephemeral"] = True
        return payload

    def _message_payload(self, msg: FakeMessage, *, gateway: bool = False) -> dict:
        payload: dict[str, Any] = {
            "id": str(msg.id),
            "channel_id": str(msg.channel_id),
            "author": self._user_payload(msg.author_id),
            "content": msg.content,
            "timestamp": msg.timestamp,
            "edited_timestamp": msg.edited_timestamp,
            "tts": msg.tts,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [self._attachment_payload(a, ephemeral=msg.ephemeral) for a in msg._atts],
            "embeds": msg.embeds,
            "components": msg.components,
            "pinned": False,
            "type": msg.type,
            "flags": msg.flags,
        }
        if msg.guild_id is not None:
            payload["guild_id"] = str(msg.guild_id)
            guild = self.guilds.get(msg.guild_id)
            if gateway and msg.webhook_id is None and guild is not None and msg.author_id in guild.members:
                member = self._member_payload(guild, msg.author_id)
                member.pop("user")
                payload["member"] = member
        if msg.webhook_id is not None:
            payload["webhook_id"] = str(msg.webhook_id)
            payload["application_id"] = str(self.application_id)
        if msg.message_reference is not None:
            payload["message_reference"] = msg.message_reference
        if msg.thread_id is not None and msg.thread_id in self.channels:
            payload["thread"] = self._channel_payload(self.channels[msg.thread_id])
        inter = self._interactions.get(msg.interaction_id or 0)
        if inter is not None:
            meta: dict[str, Any] = {
                "id": str(inter.interaction_id),
                "type": inter.type,
                "user": self._user_payload(inter.user_id),
                "authorizing_integration_owners": {"0": str(inter.guild_id or 0)},
            }
            if inter.type == 2:
                meta["name"] = inter.data.get("name", "")
                meta["command_type"] = inter.data.get("type", 1)
            if inter.component_message_id is not None:
                meta["interacted_message_id"] = str(inter.component_message_id)
            if inter.original_message_id is not None and inter.original_message_id != msg.id:
                meta["original_response_message_id"] = str(inter.original_message_id)
            payload["interaction_metadata"] = meta
            if inter.type == 2:
                payload["interaction"] = {"id": str(inter.interaction_id), "type": 2,
                                          "name": inter.data.get("name", ""),
                                          "user": self._user_payload(inter.user_id)}
        return payload

    # ================================================================== gateway
    def _route(self, event: str, data: dict) -> "_Session | None":
        """The session an event goes to: the one session, or (sharded) the guild's shard's."""
        if not self._shards:
            return self._session
        gid = data.get("guild_id") if isinstance(data, dict) else None
        if gid is None and event in ("GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"):
            gid = data.get("id")
        count = next(iter(self._shards.values())).shard[1]
        return self._shards.get(0 if gid is None else (int(gid) >> 22) % count)

    def shard_session_live(self, shard_id: int) -> bool:
        """A sharded bot's session for this shard is connected."""
        session = self._shards.get(shard_id)
        return session is not None and session.conn is not None

    def _sessions_all(self) -> list["_Session"]:
        return list(self._shards.values()) if self._shards else [se for se in (self._session,) if se is not None]

    def gateway_backlog(self) -> int:
        """Gateway frames logged for a live session and not yet sent on its socket."""
        return sum(len(se.log) - se.conn.idx for se in self._sessions_all() if se.conn is not None)

    def gateway_last_seq(self) -> dict[int | None, int]:
        """The last sequence number sent to each session, by its shard id (None unsharded)."""
        return {(se.shard[0] if se.shard else None): se.seq for se in self._sessions_all()}

    def _dispatch(self, event: str, data: dict, *, on_sent: Callable[[], None] | None = None,
                  session: "_Session | None" = None) -> None:
        session = session or self._route(event, data)
        if session is None:
            return
        session.seq += 1
        frame = json.dumps({"op": 0, "t": event, "s": session.seq, "d": data})
        session.log.append((session.seq, frame, on_sent))
        session.wake.set()

    def dispatch_raw(self, event: str, data_json: str) -> int:
        """Send the bot a DISPATCH frame whose ``d`` is the text ``data_json`` as it is (a lone surrogate's
        escape, a type discord.py does not expect, text that is not JSON), as the next event of the (unsharded)
        session; returns its sequence number. Discord passes on JSON escapes it was sent, ``\\ud800`` among them."""
        session = self._session
        if session is None:
            raise RuntimeError("the bot has no gateway session")
        session.seq += 1
        frame = '{"op":0,"t":%s,"s":%d,"d":%s}' % (json.dumps(event), session.seq, data_json)
        session.log.append((session.seq, frame, None))
        session.wake.set()
        return session.seq

    def send_frame(self, text: str) -> None:
        """Send the bot one gateway text frame, ``text`` as it is (not JSON, a JSON array, an unknown op),
        in order with the session's events; it carries no sequence number."""
        session = self._session
        if session is None:
            raise RuntimeError("the bot has no gateway session")
        session.log.append((session.seq, text, None))
        session.wake.set()

    def _dispatch_message(self, event: str, msg: FakeMessage, payload: dict | None = None) -> None:
        session = self._route(event, {"guild_id": msg.guild_id})
        if msg.ephemeral or msg.loading or session is None:
            return
        needed = I_DIRECT_MESSAGES if msg.guild_id is None else I_GUILD_MESSAGES
        if not session.intents & needed:
            return
        if event == "MESSAGE_DELETE":
            data = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
            if msg.guild_id is not None:
                data["guild_id"] = str(msg.guild_id)
        else:
            data = payload if payload is not None else self._message_payload(msg, gateway=True)
        self._dispatch(event, data, session=session)

    async def _sender(self, conn: _Conn, session: _Session) -> None:
        try:
            while True:
                while conn.idx < len(session.log) and session.conn is conn:
                    _seq, frame, on_sent = session.log[conn.idx]
                    async with conn.lock:
                        await conn.ws.send_str(frame)
                    conn.idx += 1
                    if on_sent is not None:
                        on_sent()
                session.wake.clear()
                await session.wake.wait()
                if session.conn is not conn:
                    return
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # connection went away; the events stay in the log for RESUME
            _log.debug("gateway sender stopped: %r", exc)

    async def _gateway_handler(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        conn = _Conn(ws=ws, request=request)
        self._conns.add(conn)
        self.gateway_connections.append(dict(request.query))
        try:
            await conn.send({"op": 10, "s": None, "t": None, "d": {"heartbeat_interval": self.heartbeat_interval_ms}})
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    try:
                        await self._gateway_op(conn, json.loads(msg.data))
                    except Exception:
                        self.internal_errors.append(traceback.format_exc())
                        raise
                elif msg.type == WSMsgType.BINARY:
                    self.internal_errors.append("binary gateway frame received (etf encoding is not supported)")
        finally:
            self._conns.discard(conn)
            if conn.sender is not None:
                conn.sender.cancel()
            for shard_id, sh in list(self._shards.items()):
                if sh.conn is conn:
                    sh.conn = None
                    if ws.close_code in (1000, 1001):
                        del self._shards[shard_id]
                    if not any(x.conn for x in self._shards.values()):
                        self._live.clear()
            session = self._session
            if session is not None and session.conn is conn:
                session.conn = None
                self._live.clear()
                if ws.close_code in (1000, 1001):
                    # A clean close by the bot (``bot.close()``) ends the session, as on Discord;
                    # a bot started later must IDENTIFY (and sync) again before wait_ready().
                    self._session = None
                    self._identified.clear()
                    self._synced.clear()
        return ws

    async def _gateway_op(self, conn: _Conn, frame: dict) -> None:
        op, d = frame.get("op"), frame.get("d")
        if op == 1:  # heartbeat
            await conn.send({"op": 11, "s": None, "t": None, "d": None})
        elif op == 2:  # identify
            self._record_auth("Bot " + str(d.get("token")))
            token = str(d.get("token") or "").removeprefix("Bot ")
            if self.strict_token and token != self.token:
                await conn.ws.close(code=4004, message=b"Authentication failed.")
                return
            if int(d.get("intents") or 0) & self.disallowed_intents:
                await conn.ws.close(code=4014, message=b"Disallowed intent(s).")
                return
            self.identify_count += 1
            shard = d.get("shard")
            sharded = bool(shard) and int(shard[1]) > 1
            old = self._shards.get(int(shard[0])) if sharded else self._session
            if old is not None and old.conn is not None and old.conn is not conn:
                old.conn = None
            session = _Session(id=secrets.token_hex(16), intents=int(d.get("intents") or 0), shard=shard)
            if sharded:
                self._shards[int(shard[0])] = session
            else:
                self._session = session
            mine = [g for g in self.guilds.values() if not sharded or (g.id >> 22) % int(shard[1]) == int(shard[0])]
            ready = {
                "v": 10,
                "user": {**self._user_payload(self.bot_user_id), "verified": True, "mfa_enabled": False,
                         "email": None, "locale": "en-US"},
                "guilds": [{"id": str(g.id), "unavailable": True} for g in mine],
                "session_id": session.id,
                "session_type": "normal",
                "resume_gateway_url": self.gateway_url,
                "shard": session.shard or [0, 1],
                "application": {"id": str(self.application_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "guild_join_requests": [],
                "geo_ordered_rtc_regions": [],
                "user_settings": {},
                "_trace": ["fakediscord"],
            }
            self._dispatch("READY", ready, session=session)
            for guild in mine:
                self._dispatch("GUILD_CREATE", self._guild_payload(guild, full=True), session=session)
            self._attach(conn, session, 0)
            self._identified.set()
        elif op == 6:  # resume
            session = next((x for x in [self._session, *self._shards.values()]
                            if x is not None and x.id == d.get("session_id")), None)
            if session is None or d.get("session_id") != session.id:
                await conn.send({"op": 9, "s": None, "t": None, "d": False})
                return
            self._record_auth("Bot " + str(d.get("token")))
            if session.conn is not None and session.conn is not conn:
                session.conn = None
            seq = d.get("seq") or 0
            idx = next((i for i, (s, _, _) in enumerate(session.log) if s > seq), len(session.log))
            self.resume_count += 1
            self._dispatch("RESUMED", {"_trace": ["fakediscord"]}, session=session)
            self._attach(conn, session, idx)
        elif op == 8:  # request guild members
            gid = int(d["guild_id"])
            guild = self.guilds.get(gid)
            members = []
            if guild is not None:
                ids = d.get("user_ids")
                wanted = [int(x) for x in ids] if ids else list(guild.members)
                query = (d.get("query") or "").lower()
                members = [self._member_payload(guild, u) for u in wanted
                           if u in guild.members and self.users[u].name.lower().startswith(query)]
                if d.get("limit"):
                    members = members[: d["limit"]]
            chunk = {"guild_id": str(gid), "members": members, "chunk_index": 0, "chunk_count": 1,
                     "not_found": []}
            if d.get("nonce"):
                chunk["nonce"] = d["nonce"]
            self._dispatch("GUILD_MEMBERS_CHUNK", chunk)
        elif op in (3, 4):  # presence / voice state: accepted, ignored
            pass
        else:
            self.internal_errors.append(f"unsupported gateway opcode {op}: {frame!r}")

    def _attach(self, conn: _Conn, session: _Session, idx: int) -> None:
        session.conn = conn
        conn.idx = idx
        if conn.sender is not None:
            conn.sender.cancel()
        conn.sender = asyncio.get_running_loop().create_task(self._sender(conn, session))
        self._tasks.add(conn.sender)
        conn.sender.add_done_callback(self._tasks.discard)
        session.wake.set()
        self._live.set()

    async def drop_gateway(self, code: int = 4000, *, abrupt: bool = False) -> None:
        """Close the bot's gateway connection (default: close code 4000, which discord.py
        answers by reconnecting and RESUMEing).  ``abrupt=True`` drops the TCP connection
        without a close frame.  Events dispatched meanwhile are replayed on RESUME."""
        session = self._session
        conn = session.conn if session is not None else None
        if conn is None:
            raise RuntimeError("the bot is not connected to the fake gateway")
        session.conn = None  # type: ignore[union-attr]
        self._live.clear()
        if conn.sender is not None:
            conn.sender.cancel()
        if abrupt:
            transport = conn.request.transport
            if transport is not None:
                transport.close()
        else:
            try:
                await asyncio.wait_for(conn.ws.close(code=code, message=b"dropped by test"), 5)
            except asyncio.TimeoutError:  # pragma: no cover
                pass

    # ================================================================== HTTP plumbing
    def _add_routes(self, r: web.UrlDispatcher) -> None:
        P = API_PREFIX
        routes: list[tuple[str, str, Callable]] = [
            ("GET", "/gateway", self._gateway_handler),
            ("GET", "/attachments/{attachment_id}/{filename}", self._h_attachment),
            ("GET", P + "/gateway", self._h_gateway),
            ("GET", P + "/gateway/bot", self._h_gateway_bot),
            ("GET", P + "/users/@me", self._h_me),
            ("POST", P + "/users/@me/channels", self._h_open_dm),
            ("GET", P + "/users/{user_id}", self._h_user),
            ("GET", P + "/oauth2/applications/@me", self._h_app_info),
            ("GET", P + "/applications/@me", self._h_app_info),
            ("GET", P + "/applications/{app_id}/commands", self._h_cmd_list),
            ("PUT", P + "/applications/{app_id}/commands", self._h_cmd_bulk),
            ("POST", P + "/applications/{app_id}/commands", self._h_cmd_upsert),
            ("GET", P + "/applications/{app_id}/commands/{command_id}", self._h_cmd_get),
            ("PATCH", P + "/applications/{app_id}/commands/{command_id}", self._h_cmd_edit),
            ("DELETE", P + "/applications/{app_id}/commands/{command_id}", self._h_cmd_delete),
            ("GET", P + "/applications/{app_id}/guilds/{guild_id}/commands/permissions", self._h_cmd_perms),
            ("GET", P + "/applications/{app_id}/guilds/{guild_id}/commands", self._h_cmd_list),
            ("PUT", P + "/applications/{app_id}/guilds/{guild_id}/commands", self._h_cmd_bulk),
            ("POST", P + "/applications/{app_id}/guilds/{guild_id}/commands", self._h_cmd_upsert),
            ("GET", P + "/applications/{app_id}/guilds/{guild_id}/commands/{command_id}", self._h_cmd_get),
            ("PATCH", P + "/applications/{app_id}/guilds/{guild_id}/commands/{command_id}", self._h_cmd_edit),
            ("DELETE", P + "/applications/{app_id}/guilds/{guild_id}/commands/{command_id}", self._h_cmd_delete),
            ("POST", P + "/interactions/{interaction_id}/{token}/callback", self._h_callback),
            ("POST", P + "/webhooks/{app_id}/{token}", self._h_followup),
            ("GET", P + "/webhooks/{app_id}/{token}/messages/{message_id}", self._h_webhook_msg_get),
            ("PATCH", P + "/webhooks/{app_id}/{token}/messages/{message_id}", self._h_webhook_msg_edit),
            ("DELETE", P + "/webhooks/{app_id}/{token}/messages/{message_id}", self._h_webhook_msg_delete),
            ("GET", P + "/channels/{channel_id}", self._h_channel),
            ("PATCH", P + "/channels/{channel_id}", self._h_channel_edit),
            ("GET", P + "/channels/{channel_id}/messages", self._h_history),
            ("POST", P + "/channels/{channel_id}/messages", self._h_send),
            ("GET", P + "/channels/{channel_id}/messages/{message_id}", self._h_msg_get),
            ("PATCH", P + "/channels/{channel_id}/messages/{message_id}", self._h_msg_edit),
            ("DELETE", P + "/channels/{channel_id}/messages/{message_id}", self._h_msg_delete),
            ("POST", P + "/channels/{channel_id}/threads", self._h_thread),
            ("POST", P + "/channels/{channel_id}/messages/{message_id}/threads", self._h_thread),
            ("PUT", P + "/channels/{channel_id}/thread-members/@me", self._h_thread_member),
            ("PUT", P + "/channels/{channel_id}/thread-members/{user_id}", self._h_thread_member),
            ("DELETE", P + "/channels/{channel_id}/thread-members/{user_id}", self._h_thread_member),
            ("POST", P + "/channels/{channel_id}/typing", self._h_typing),
            ("GET", P + "/guilds/{guild_id}", self._h_guild),
            ("GET", P + "/guilds/{guild_id}/channels", self._h_guild_channels),
            ("GET", P + "/guilds/{guild_id}/roles", self._h_guild_roles),
            ("GET", P + "/guilds/{guild_id}/members", self._h_guild_members),
            ("GET", P + "/guilds/{guild_id}/members/{user_id}", self._h_member),
        ]
        for method, path, handler in routes:
            r.add_route(method, path, handler)
        r.add_route("*", "/{tail:.*}", self._h_unknown)

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Callable) -> web.StreamResponse:
        path = request.path
        needs_auth = path.startswith(API_PREFIX) and not path.startswith(
            (API_PREFIX + "/interactions/", API_PREFIX + "/webhooks/")) and path != API_PREFIX + "/gateway"
        if request.headers.get("Upgrade", "").lower() == "websocket":  # the gateway: open for the session's life
            return await self._serve(request, handler, path, needs_auth)
        self.inflight += 1
        try:
            return await self._serve(request, handler, path, needs_auth)
        finally:
            self.inflight -= 1
            self.requests_served += 1

    async def _serve(self, request: web.Request, handler: Callable, path: str, needs_auth: bool) -> web.StreamResponse:
        try:
            if needs_auth:
                auth = request.headers.get("Authorization")
                if not auth or not auth.startswith("Bot ") or (self.strict_token and auth != f"Bot {self.token}"):
                    raise _HTTPError(401, 0, "401: Unauthorized")
                self._record_auth(auth)
            return await handler(request)
        except _HTTPError as exc:
            body: dict[str, Any] = {"message": exc.message, "code": exc.code}
            if exc.errors is not None:
                body["errors"] = exc.errors
            self.errors.append({"status": exc.status, "method": request.method, "path": path, "body": body})
            token = request.match_info.get("token")
            inter = self._by_token.get(token) if token else None
            if inter is not None:
                inter.errors.append(body)
                inter._changed.set()
            return _json_response(body, exc.status)
        except web.HTTPException:
            raise
        except asyncio.CancelledError:
            raise
        except Exception:
            tb = traceback.format_exc()
            self.internal_errors.append(f"{request.method} {path}\n{tb}")
            _log.error("fakediscord internal error on %s %s\n%s", request.method, path, tb)
            body = {"message": "fakediscord internal error (see server.internal_errors)", "code": 0}
            return _json_response(body, 400)

    def _record_auth(self, auth: str) -> None:
        if auth not in self.authorizations:
            self.authorizations.append(auth)

    def _violate(self, kind: str, message: str) -> None:
        _log.warning("fakediscord violation %s: %s", kind, message)
        self.violations.append(Violation(kind, message))

    async def _read_body(self, request: web.Request) -> tuple[dict, list[tuple[int, str, bytes]]]:
        """Return (json payload, [(file index, filename, bytes)])."""
        if request.content_type.startswith("multipart/"):
            payload: dict = {}
            files: list[tuple[int, str, bytes]] = []
            reader = await request.multipart()
            while True:
                part = await reader.next()
                if part is None:
                    break
                if part.name == "payload_json":
                    payload = json.loads(await part.text())
                elif getattr(part, "filename", None) is not None:
                    m = re.fullmatch(r"files\[(\d+)\]", part.name or "")
                    index = int(m.group(1)) if m else len(files)
                    files.append((index, part.filename, bytes(await part.read(decode=False))))
                else:
                    await part.release()
            return payload, files
        raw = await request.read()
        if not raw:
            return {}, []
        try:
            return json.loads(raw), []
        except ValueError:
            raise _HTTPError(400, 50109, "The request body contains invalid JSON.") from None

    @staticmethod
    def _ok(data: Any, status: int = 200) -> web.Response:
        return _json_response(data, status)

    @staticmethod
    def _no_content() -> web.Response:
        return web.Response(status=204)

    @staticmethod
    def _int(value: str, code: int = 10003, what: str = "Unknown Channel") -> int:
        try:
            return int(value)
        except (TypeError, ValueError):
            raise _HTTPError(404, code, what) from None

    def _get_channel(self, request: web.Request) -> _Channel:
        cid = self._int(request.match_info["channel_id"])
        ch = self.channels.get(cid)
        if ch is None:
            raise _HTTPError(404, 10003, "Unknown Channel")
        return ch

    def _get_guild(self, request: web.Request) -> _Guild:
        gid = self._int(request.match_info["guild_id"], 10004, "Unknown Guild")
        guild = self.guilds.get(gid)
        if guild is None:
            raise _HTTPError(404, 10004, "Unknown Guild")
        return guild

    def _store_blob(self, filename: str, data: bytes, *, description: str | None = None) -> _AttachmentRec:
        rec = _AttachmentRec(self._snowflake(), filename, data, mimetypes.guess_type(filename)[0], description)
        self._blobs[rec.id] = rec
        return rec

    def _store_message(self, msg: FakeMessage) -> None:
        self._messages[msg.id] = msg
        ch = self.channels.get(msg.channel_id)
        if ch is not None:
            ch.last_message_id = msg.id

    # ================================================================== message validation
    def _prepare_message(self, data: dict, files: list[tuple[int, str, bytes]], *, prefix: list[str],
                         existing: FakeMessage | None, what: str) -> list[_AttachmentRec]:
        """Validate a message create/edit body against Discord's limits; return the resulting
        attachment list (not yet stored).  Raises _HTTPError (and records a violation)."""

        def fail(kind: str, field_path: list[str], code: str, message: str) -> None:
            self._violate(kind, f"{what}: {message}")
            raise _form_error(prefix + field_path, code, message)

        if not isinstance(data, dict):
            raise _HTTPError(400, 50109, "The request body contains invalid JSON.")
        content = data.get("content") if "content" in data else (existing.content if existing else "")
        content = content or ""
        if len(content) > MAX_CONTENT:
            fail("content_too_long", ["content"], "BASE_TYPE_MAX_LENGTH",
                 f"Must be {MAX_CONTENT} or fewer in length. (got {len(content)})")
        embeds = data.get("embeds") if "embeds" in data else (existing.embeds if existing else [])
        embeds = embeds or []
        if len(embeds) > MAX_EMBEDS:
            fail("too_many_embeds", ["embeds"], "BASE_TYPE_MAX_LENGTH",
                 f"Must be {MAX_EMBEDS} or fewer in length. (got {len(embeds)})")
        self._check_embeds(embeds, fail)
        components = data.get("components") if "components" in data else (existing.components if existing else [])
        components = components or []
        flags = data.get("flags", existing.flags if existing else 0) or 0
        self._check_components(components, bool(flags & F_COMPONENTS_V2), fail)

        # attachments
        index_map = {idx: (fn, blob) for idx, fn, blob in files}
        kept: list[_AttachmentRec] = []
        used: set[int] = set()
        if "attachments" in data and data["attachments"] is not None:
            old = {a.id: a for a in (existing._atts if existing else [])}
            for entry in data["attachments"]:
                if len(entry.get("description") or "") > 1024:  # Discord's limit for an attachment's alt text
                    fail("attachment_description_too_long", ["attachments", "description"], "BASE_TYPE_MAX_LENGTH",
                         "Must be 1024 or fewer in length.")
                aid = _snowflake_or_none(entry.get("id"))
                if aid is not None and aid in old:
                    kept.append(old[aid])
                elif aid is not None and aid in index_map and aid not in used:
                    fn, blob = index_map[aid]
                    used.add(aid)
                    kept.append(_AttachmentRec(0, entry.get("filename") or fn, blob, mimetypes.guess_type(fn)[0],
                                               entry.get("description"), new=True))
                else:
                    raise _form_error(prefix + ["attachments"], "ATTACHMENT_NOT_FOUND",
                                      f"Unknown attachment id {entry.get('id')!r}")
        elif existing is not None:
            kept = list(existing._atts)
        for idx, fn, blob in files:
            if idx not in used:
                kept.append(_AttachmentRec(0, fn, blob, mimetypes.guess_type(fn)[0], None, new=True))
        new = [a for a in kept if a.new]
        if len(kept) > MAX_FILES:
            fail("too_many_attachments", ["attachments"], "BASE_TYPE_MAX_LENGTH",
                 f"Must be {MAX_FILES} or fewer in length. (got {len(kept)})")
        for a in new:
            if len(a.data) > MAX_ATTACHMENT_BYTES:
                self._violate("attachment_too_large",
                              f"{what}: {a.filename} is {len(a.data)} bytes (limit {MAX_ATTACHMENT_BYTES})")
                raise _HTTPError(413, 40005, "Request entity too large")
        total = sum(len(a.data) for a in new)
        if total > MAX_ATTACHMENT_BYTES:
            self._violate("attachment_too_large",
                          f"{what}: attachments total {total} bytes (limit {MAX_ATTACHMENT_BYTES})")
            raise _HTTPError(413, 40005, "Request entity too large")
        if not content and not embeds and not kept and not components and not data.get("poll") \
                and not data.get("sticker_ids"):
            self._violate("empty_message", f"{what}: empty message")
            raise _HTTPError(400, 50006, "Cannot send an empty message")
        return kept

    @staticmethod
    def _check_embeds(embeds: list[dict], fail: Callable[..., None]) -> None:
        total = 0
        limits = {"title": 256, "description": 4096}
        for i, e in enumerate(embeds):
            for key, limit in limits.items():
                text = e.get(key) or ""
                total += len(text)
                if len(text) > limit:
                    fail("embed_too_long", ["embeds", str(i), key], "BASE_TYPE_MAX_LENGTH",
                         f"embed {key} must be {limit} or fewer in length (got {len(text)})")
            fields = e.get("fields") or []
            if len(fields) > 25:
                fail("embed_too_long", ["embeds", str(i), "fields"], "BASE_TYPE_MAX_LENGTH",
                     f"embed fields must be 25 or fewer (got {len(fields)})")
            for j, f in enumerate(fields):
                for key, limit in (("name", 256), ("value", 1024)):
                    text = str(f.get(key) or "")
                    total += len(text)
                    if len(text) > limit:
                        fail("embed_too_long", ["embeds", str(i), "fields", str(j), key], "BASE_TYPE_MAX_LENGTH",
                             f"embed field {key} must be {limit} or fewer in length (got {len(text)})")
            for key, sub, limit in (("footer", "text", 2048), ("author", "name", 256)):
                text = ((e.get(key) or {}).get(sub)) or ""
                total += len(text)
                if len(text) > limit:
                    fail("embed_too_long", ["embeds", str(i), key, sub], "BASE_TYPE_MAX_LENGTH",
                         f"embed {key}.{sub} must be {limit} or fewer in length (got {len(text)})")
        if total > 6000:
            fail("embed_too_long", ["embeds"], "MAX_EMBED_SIZE_EXCEEDED",
                 f"Embed size exceeds maximum size of 6000 (got {total})")

    @staticmethod
    def _check_components(components: list[dict], v2: bool, fail: Callable[..., None]) -> None:
        seen: set[str] = set()
        for comp in _walk_components(components):
            cid = comp.get("custom_id")
            if cid is not None:
                if len(cid) > 100:
                    fail("invalid_components", ["components"], "BASE_TYPE_MAX_LENGTH",
                         f"custom_id {cid[:20]!r}... longer than 100")
                if cid in seen:
                    fail("invalid_components", ["components"], "COMPONENT_CUSTOM_ID_DUPLICATED",
                         f"duplicate custom_id {cid!r}")
                seen.add(cid)
            if comp.get("type") == 2 and len(comp.get("label") or "") > 80:
                fail("invalid_components", ["components"], "BASE_TYPE_MAX_LENGTH", "button label longer than 80")
            if comp.get("type") == 3 and len(comp.get("options") or []) > 25:
                fail("invalid_components", ["components"], "BASE_TYPE_MAX_LENGTH", "select has more than 25 options")
        if v2:
            return
        if len(components) > 5:
            fail("invalid_components", ["components"], "BASE_TYPE_MAX_LENGTH",
                 f"Must be 5 or fewer in length. (got {len(components)} rows)")
        for i, row in enumerate(components):
            if row.get("type") != 1:
                fail("invalid_components", ["components", str(i)], "UNION_TYPE_CHOICES",
                     "top-level components must be action rows (or set the components-v2 flag)")
            children = row.get("components") or []
            selects = [c for c in children if c.get("type") in _SELECT_TYPES]
            if not children or len(children) > 5 or (selects and len(children) > 1):
                fail("invalid_components", ["components", str(i), "components"], "BASE_TYPE_BAD_LENGTH",
                     "an action row holds 1-5 buttons or exactly one select")

    def _assign_component_ids(self, components: list[dict]) -> list[dict]:
        components = json.loads(json.dumps(components))  # deep copy
        used = {c["id"] for c in _walk_components(components) if isinstance(c.get("id"), int)}
        next_id = 1
        for comp in _walk_components(components):
            if "id" not in comp or comp["id"] is None:
                while next_id in used:
                    next_id += 1
                comp["id"] = next_id
                used.add(next_id)
        return components

    def _commit_attachments(self, recs: list[_AttachmentRec]) -> list[_AttachmentRec]:
        out = []
        for rec in recs:
            if rec.new:
                stored = self._store_blob(rec.filename, rec.data, description=rec.description)
                out.append(stored)
            else:
                out.append(rec)
        return out

    def _apply(self, msg: FakeMessage, data: dict, atts: list[_AttachmentRec], *, creating: bool) -> None:
        if "content" in data:
            msg.content = data["content"] or ""
        if "allowed_mentions" in data:
            msg.allowed_mentions = data["allowed_mentions"]
        if "embeds" in data:
            msg.embeds = data["embeds"] or []
        if "components" in data:
            msg.components = self._assign_component_ids(data["components"] or [])
        if "tts" in data and creating:
            msg.tts = bool(data["tts"])
        if "flags" in data and data["flags"] is not None:
            keep = msg.flags & ~_SETTABLE_FLAGS
            msg.flags = keep | (int(data["flags"]) & _SETTABLE_FLAGS)
        msg._atts = self._commit_attachments(atts)

    def _new_bot_message(self, channel_id: int, data: dict, atts: list[_AttachmentRec], *,
                         inter: InteractionResult | None = None, ephemeral: bool = False,
                         loading: bool = False) -> FakeMessage:
        ch = self.channels[channel_id]
        msg = FakeMessage(id=self._snowflake(), channel_id=channel_id, guild_id=ch.guild_id,
                          author_id=self.bot_user_id)
        if inter is not None:
            msg.interaction_id = inter.interaction_id
            msg.webhook_id = self.application_id
            msg.type = 20 if inter.type == 2 and inter.data.get("type", 1) == 1 else (23 if inter.type == 2 else 0)
            if ephemeral:
                msg.flags |= F_EPHEMERAL
                msg.visible_to = inter.user_id
        if loading:
            msg.flags |= F_LOADING
        self._apply(msg, data, atts, creating=True)
        self._store_message(msg)
        return msg

    # ================================================================== REST handlers
    async def _h_unknown(self, request: web.Request) -> web.Response:
        route = f"{request.method} {request.path}"
        self.unknown_routes.append(route)
        _log.warning("fakediscord: unknown route %s", route)
        raise _HTTPError(404, 0, "404: Not Found")

    async def _h_attachment(self, request: web.Request) -> web.Response:
        rec = self._blobs.get(self._int(request.match_info["attachment_id"], 0, "404: Not Found"))
        if rec is None:
            raise _HTTPError(404, 0, "404: Not Found")
        return web.Response(body=rec.data, content_type=rec.content_type or "application/octet-stream")

    async def _h_gateway(self, request: web.Request) -> web.Response:
        return self._ok({"url": self.gateway_url})

    async def _h_gateway_bot(self, request: web.Request) -> web.Response:
        return self._ok({
            "url": self.gateway_url,
            "shards": 1,
            "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 14400000, "max_concurrency": 1},
        })

    async def _h_me(self, request: web.Request) -> web.Response:
        return self._ok({**self._user_payload(self.bot_user_id), "verified": True, "mfa_enabled": False,
                         "email": None, "locale": "en-US"})

    async def _h_user(self, request: web.Request) -> web.Response:
        uid = self._int(request.match_info["user_id"], 10013, "Unknown User")
        if uid not in self.users:
            raise _HTTPError(404, 10013, "Unknown User")
        return self._ok(self._user_payload(uid))

    async def _h_open_dm(self, request: web.Request) -> web.Response:
        body, _ = await self._read_body(request)
        uid = _snowflake_or_none(body.get("recipient_id"))
        if uid is None or uid not in self.users or uid == self.bot_user_id:
            raise _form_error(["recipient_id"], "INVALID_RECIPIENT", "Invalid Recipient(s)")
        return self._ok(self._channel_payload(self.channels[self.dm_channel(uid)]))

    async def _h_app_info(self, request: web.Request) -> web.Response:
        bot = self.users[self.bot_user_id]
        return self._ok({
            "id": str(self.application_id),
            "name": bot.name,
            "icon": None,
            "description": "",
            "summary": "",
            "type": None,
            "bot": self._user_payload(self.bot_user_id),
            "bot_public": False,
            "bot_require_code_grant": False,
            "owner": self._user_payload(self.app_owner_id),
            "team": None,
            "verify_key": "0" * 64,
            "flags": 0,
            "tags": [],
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "role_connections_verification_url": None,
            "approximate_guild_count": len(self.guilds),
        })

    async def _h_guild(self, request: web.Request) -> web.Response:
        guild = self._get_guild(request)
        return self._ok({**self._guild_payload(guild, full=False),
                         "approximate_member_count": len(guild.members)})

    async def _h_guild_channels(self, request: web.Request) -> web.Response:
        guild = self._get_guild(request)
        return self._ok([self._channel_payload(c) for c in self.channels.values()
                         if c.guild_id == guild.id and c.type not in _THREAD_TYPES])

    async def _h_guild_roles(self, request: web.Request) -> web.Response:
        return self._ok(list(self._get_guild(request).roles.values()))

    async def _h_guild_members(self, request: web.Request) -> web.Response:
        guild = self._get_guild(request)
        limit = int(request.query.get("limit", 1))
        after = int(request.query.get("after", 0))
        ids = sorted(u for u in guild.members if u > after)[:limit]
        return self._ok([self._member_payload(guild, u) for u in ids])

    async def _h_member(self, request: web.Request) -> web.Response:
        guild = self._get_guild(request)
        uid = self._int(request.match_info["user_id"], 10013, "Unknown User")
        if uid not in guild.members:
            raise _HTTPError(404, 10007, "Unknown Member")
        return self._ok(self._member_payload(guild, uid))

    # ---- application commands ----------------------------------------------------------
    def _cmd_scope(self, request: web.Request) -> tuple[int | None, dict[int, dict]]:
        app_id = self._int(request.match_info["app_id"], 10002, "Unknown Application")
        if app_id != self.application_id:
            raise _HTTPError(403, 50001, "Missing Access")
        if "guild_id" in request.match_info:
            guild = self._get_guild(request)
            return guild.id, self.guild_commands.setdefault(guild.id, {})
        return None, self.global_commands

    def _normalize_command(self, body: dict, guild_id: int | None, existing_id: int | None = None) -> dict:
        what = f"command {body.get('name')!r}"
        ctype = body.get("type", 1)
        name = body.get("name") or ""
        valid = re.fullmatch(r"[-_\w]{1,32}", name) and name == name.lower() if ctype == 1 else 1 <= len(name) <= 32
        if not valid:
            self._violate("invalid_command", f"{what}: invalid name")
            raise _form_error(["name"], "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
        desc = body.get("description") or ""
        if ctype == 1 and not 1 <= len(desc) <= 100:
            self._violate("invalid_command", f"{what}: description must be 1-100 characters")
            raise _form_error(["description"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
        self._check_command_options(body.get("options") or [], what, ["options"], 0)
        key = (guild_id, ctype, name)
        cid = existing_id or self._command_ids.get(key) or self._snowflake()
        self._command_ids[key] = cid
        cmd = {
            "type": 1,
            "default_member_permissions": None,
            "nsfw": False,
            "options": [],
            **body,
            "id": str(cid),
            "application_id": str(self.application_id),
            "version": str(self._snowflake()),
        }
        if cmd["default_member_permissions"] is not None:  # Discord answers with a string
            cmd["default_member_permissions"] = str(cmd["default_member_permissions"])
        if guild_id is not None:
            cmd["guild_id"] = str(guild_id)
        if ctype != 1:
            cmd["description"] = ""
        return cmd

    def _check_command_options(self, options: list[dict], what: str, path: list[str], depth: int) -> None:
        if len(options) > 25:
            self._violate("invalid_command", f"{what}: more than 25 options")
            raise _form_error(path, "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        seen_optional = False
        for i, opt in enumerate(options):
            if not re.fullmatch(r"[-_\w]{1,32}", opt.get("name") or "") or opt["name"] != opt["name"].lower():
                self._violate("invalid_command", f"{what}: invalid option name {opt.get('name')!r}")
                raise _form_error(path + [str(i), "name"], "APPLICATION_COMMAND_INVALID_NAME", "invalid name")
            if not 1 <= len(opt.get("description") or "") <= 100:
                self._violate("invalid_command", f"{what}: option {opt['name']!r} description must be 1-100 chars")
                raise _form_error(path + [str(i), "description"], "BASE_TYPE_BAD_LENGTH",
                                  "Must be between 1 and 100 in length.")
            if opt.get("type") in (OPT_SUB_COMMAND, OPT_SUB_COMMAND_GROUP):
                if depth >= 2:
                    self._violate("invalid_command", f"{what}: subcommands nested too deep")
                    raise _form_error(path + [str(i)], "APPLICATION_COMMAND_TOO_DEEP", "too deep")
                self._check_command_options(opt.get("options") or [], what, path + [str(i), "options"], depth + 1)
                continue
            if opt.get("required"):
                if seen_optional:
                    self._violate("invalid_command", f"{what}: required option {opt['name']!r} after optional")
                    raise _form_error(path + [str(i), "required"], "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                                      "Required options must be placed before non-required options")
            else:
                seen_optional = True
            choices = opt.get("choices") or []
            if len(choices) > MAX_CHOICES:
                self._violate("invalid_command", f"{what}: option {opt['name']!r} has more than 25 choices")
                raise _form_error(path + [str(i), "choices"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")

    async def _h_cmd_list(self, request: web.Request) -> web.Response:
        _, store = self._cmd_scope(request)
        return self._ok(list(store.values()))

    async def _h_cmd_bulk(self, request: web.Request) -> web.Response:
        guild_id, store = self._cmd_scope(request)
        body, _ = await self._read_body(request)
        if not isinstance(body, list):
            raise _form_error([], "BASE_TYPE_ARRAY", "expected a list of commands")
        if sum(1 for c in body if c.get("type", 1) == 1) > 100:
            self._violate("invalid_command", "more than 100 chat-input commands")
            raise _HTTPError(400, 30032, "Maximum number of application commands reached (100)")
        names = [(c.get("type", 1), c.get("name")) for c in body]
        if len(set(names)) != len(names):
            self._violate("invalid_command", f"duplicate command names in sync: {names}")
            raise _form_error([], "APPLICATION_COMMANDS_DUPLICATE_NAME", "Application command names must be unique")
        cmds = [self._normalize_command(c, guild_id) for c in body]
        store.clear()
        for cmd in cmds:
            store[int(cmd["id"])] = cmd
        self._synced.set()
        return self._ok(cmds)

    async def _h_cmd_upsert(self, request: web.Request) -> web.Response:
        guild_id, store = self._cmd_scope(request)
        body, _ = await self._read_body(request)
        cmd = self._normalize_command(body, guild_id)
        created = int(cmd["id"]) not in store
        store[int(cmd["id"])] = cmd
        self._synced.set()
        return self._ok(cmd, 201 if created else 200)

    def _cmd_lookup(self, request: web.Request) -> tuple[int | None, dict[int, dict], int]:
        guild_id, store = self._cmd_scope(request)
        cid = self._int(request.match_info["command_id"], 10063, "Unknown application command")
        if cid not in store:
            raise _HTTPError(404, 10063, "Unknown application command")
        return guild_id, store, cid

    async def _h_cmd_get(self, request: web.Request) -> web.Response:
        _, store, cid = self._cmd_lookup(request)
        return self._ok(store[cid])

    async def _h_cmd_edit(self, request: web.Request) -> web.Response:
        guild_id, store, cid = self._cmd_lookup(request)
        body, _ = await self._read_body(request)
        merged = {k: v for k, v in store[cid].items() if k not in ("id", "application_id", "version", "guild_id")}
        merged.update(body)
        store[cid] = self._normalize_command(merged, guild_id, existing_id=cid)
        return self._ok(store[cid])

    async def _h_cmd_delete(self, request: web.Request) -> web.Response:
        _, store, cid = self._cmd_lookup(request)
        del store[cid]
        return self._no_content()

    async def _h_cmd_perms(self, request: web.Request) -> web.Response:
        self._cmd_scope(request)
        return self._ok([])

    # ---- interactions ------------------------------------------------------------------
    # interaction type -> valid initial response types (PING, which gateway bots never get, -> PONG)
    _ALLOWED_CALLBACKS = {1: {1}, 2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}

    async def _h_callback(self, request: web.Request) -> web.Response:
        iid = self._int(request.match_info["interaction_id"], 10062, "Unknown interaction")
        inter = self._interactions.get(iid)
        if inter is None or inter.token != request.match_info["token"]:
            raise _HTTPError(404, 10062, "Unknown interaction")
        arrived = asyncio.get_running_loop().time()  # the callback's time, before its body is read
        if (not inter.acknowledged and not inter.expired and inter.dispatched_at is not None
                and arrived - inter.dispatched_at >= self.ack_deadline - inter.delay):
            # past its 3 s, though its timer has not fired yet (a busy event loop): Discord's clock decides
            if inter._deadline is not None:
                inter._deadline.cancel()
            self._ack_expired(inter)
        body, files = await self._read_body(request)
        ctype = body.get("type")
        if inter.expired:
            raise _HTTPError(404, 10062, "Unknown interaction")
        if inter.acknowledged:
            self._violate("already_acknowledged",
                          f"{inter.label}: second initial response (type {ctype}) after type {inter.callback_type}")
            raise _HTTPError(400, 40060, "Interaction has already been acknowledged.")
        allowed = set(self._ALLOWED_CALLBACKS.get(inter.type, set()))
        if inter.type == 5 and inter.component_message_id is None:
            allowed -= {6, 7}
        if ctype not in allowed:
            self._violate("invalid_callback_type",
                          f"{inter.label}: callback type {ctype} is not valid for interaction type {inter.type}")
            raise _form_error(["type"], "INTERACTION_RESPONSE_TYPE_INVALID", "Interaction response type is invalid")
        data = body.get("data") or {}
        ch_id = inter.channel_id
        resource_msg: FakeMessage | None = None

        if ctype == 4:
            atts = self._prepare_message(data, files, prefix=["data"], existing=None, what=inter.label)
            ephemeral = bool((data.get("flags") or 0) & F_EPHEMERAL)
            resource_msg = self._new_bot_message(ch_id, data, atts, inter=inter, ephemeral=ephemeral)
            inter.original_message_id = resource_msg.id
        elif ctype == 5:
            ephemeral = bool((data.get("flags") or 0) & F_EPHEMERAL)
            resource_msg = self._new_bot_message(ch_id, {}, [], inter=inter, ephemeral=ephemeral, loading=True)
            inter.original_message_id = resource_msg.id
        elif ctype == 7:
            target = self._messages[inter.component_message_id]  # type: ignore[index]
            atts = self._prepare_message(data, files, prefix=["data"], existing=target, what=inter.label)
            self._apply(target, data, atts, creating=False)
            target.edited_timestamp = _now_iso()
            resource_msg = target
        elif ctype == 8:
            self._check_choices(data, inter)
            inter.choices = list(data.get("choices") or [])
        elif ctype == 9:
            self._check_modal(data, inter)
            inter.modal = data

        inter.acknowledged = True
        inter.callback_type = ctype
        inter.asked_back = request.query.get("with_response", "").lower() in ("1", "true")
        if inter.dispatched_at is not None:
            inter.acknowledged_after = arrived - inter.dispatched_at
        if inter._deadline is not None:
            inter._deadline.cancel()
            inter._deadline = None
        if resource_msg is not None:
            inter._add_message(resource_msg)
            if ctype == 4:
                self._dispatch_message("MESSAGE_CREATE", resource_msg)
            elif ctype == 7:
                self._dispatch_message("MESSAGE_UPDATE", resource_msg)
        if ctype != 5:
            inter._settle()
        else:
            inter._changed.set()

        if request.query.get("with_response", "").lower() not in ("1", "true"):
            return self._no_content()
        response: dict[str, Any] = {"interaction": {"id": str(inter.interaction_id), "type": inter.type}}
        if resource_msg is not None:
            response["interaction"].update(
                response_message_id=str(resource_msg.id),
                response_message_loading=resource_msg.loading,
                response_message_ephemeral=resource_msg.ephemeral,
            )
            response["resource"] = {"type": ctype, "message": self._message_payload(resource_msg)}
        return self._ok(response)

    def _check_choices(self, data: dict, inter: InteractionResult) -> None:
        choices = data.get("choices") or []
        if len(choices) > MAX_CHOICES:
            self._violate("too_many_choices", f"{inter.label}: {len(choices)} autocomplete choices (max {MAX_CHOICES})")
            raise _form_error(["data", "choices"], "BASE_TYPE_MAX_LENGTH",
                              f"Must be {MAX_CHOICES} or fewer in length.")
        for i, c in enumerate(choices):
            for key in ("name", "value"):
                value = c.get(key)
                if key == "name" and not 1 <= len(str(value or "")) <= MAX_CHOICE_LEN or \
                        key == "value" and isinstance(value, str) and len(value) > MAX_CHOICE_LEN:
                    self._violate("choice_too_long",
                                  f"{inter.label}: choice {i} {key} {str(value)[:30]!r}... has length {len(str(value))}")
                    raise _form_error(["data", "choices", str(i), key], "BASE_TYPE_BAD_LENGTH",
                                      f"Must be between 1 and {MAX_CHOICE_LEN} in length.")

    def _check_modal(self, data: dict, inter: InteractionResult) -> None:
        comps = data.get("components") or []
        if not data.get("custom_id") or len(data["custom_id"]) > 100 or not 1 <= len(data.get("title") or "") <= 45 \
                or not 1 <= len(comps) <= 5:
            self._violate("invalid_modal", f"{inter.label}: invalid modal (custom_id/title<=45/1-5 components)")
            raise _form_error(["data"], "BASE_TYPE_BAD_LENGTH", "Invalid modal")

    def _webhook_interaction(self, request: web.Request) -> InteractionResult:
        inter = self._by_token.get(request.match_info["token"])
        if inter is None or request.match_info["app_id"] != str(self.application_id):
            raise _HTTPError(404, 10015, "Unknown Webhook")
        if not inter.acknowledged and inter.expired:
            # Discord: an interaction never acknowledged in time has no webhook (the bot could not know)
            inter.errors.append({"code": 10015, "message": "Unknown Webhook", "method": request.method})
            raise _HTTPError(404, 10015, "Unknown Webhook")
        if not inter.acknowledged:
            self._violate("not_acknowledged",
                          f"{inter.label}: {request.method} on the interaction webhook before the initial response")
            raise _HTTPError(404, 10015, "Unknown Webhook")
        return inter

    def _original(self, inter: InteractionResult) -> FakeMessage | None:
        if inter.callback_type in (4, 5) and inter.original_message_id is not None:
            return self._messages.get(inter.original_message_id)
        if inter.callback_type in (6, 7) and inter.component_message_id is not None:
            return self._messages.get(inter.component_message_id)
        return None

    def _webhook_message(self, request: web.Request, inter: InteractionResult) -> FakeMessage:
        mid = request.match_info["message_id"]
        if mid == "@original":
            msg = self._original(inter)
        else:
            msg = self._messages.get(self._int(mid, 10008, "Unknown Message"))
            if msg is not None and msg.interaction_id != inter.interaction_id and msg.id != inter.component_message_id:
                msg = None
        if msg is None or msg.deleted:
            raise _HTTPError(404, 10008, "Unknown Message")
        return msg

    async def _h_followup(self, request: web.Request) -> web.Response:
        inter = self._webhook_interaction(request)
        data, files = await self._read_body(request)
        original = self._original(inter)
        if original is not None and original.loading and not original.deleted:
            # The first followup after a "thinking" defer replaces the loading message and keeps
            # the defer's ephemerality.
            atts = self._prepare_message(data, files, prefix=[], existing=None, what=inter.label + " followup")
            self._apply(original, data, atts, creating=True)  # ephemeral bit is not settable: kept
            original.flags &= ~F_LOADING
            msg = original
        else:
            atts = self._prepare_message(data, files, prefix=[], existing=None, what=inter.label + " followup")
            ephemeral = bool((data.get("flags") or 0) & F_EPHEMERAL)
            msg = self._new_bot_message(inter.channel_id, data, atts, inter=inter, ephemeral=ephemeral)
        inter._add_message(msg)
        self._dispatch_message("MESSAGE_CREATE", msg)
        inter._settle()
        if request.query.get("wait", "").lower() in ("1", "true"):
            return self._ok(self._message_payload(msg))
        return self._no_content()

    async def _h_webhook_msg_get(self, request: web.Request) -> web.Response:
        inter = self._webhook_interaction(request)
        return self._ok(self._message_payload(self._webhook_message(request, inter)))

    async def _h_webhook_msg_edit(self, request: web.Request) -> web.Response:
        inter = self._webhook_interaction(request)
        msg = self._webhook_message(request, inter)
        data, files = await self._read_body(request)
        was_loading = msg.loading
        atts = self._prepare_message(data, files, prefix=[], existing=None if was_loading else msg,
                                     what=inter.label + " edit")
        self._apply(msg, data, atts, creating=was_loading)
        if was_loading:
            msg.flags &= ~F_LOADING
            self._dispatch_message("MESSAGE_CREATE", msg)
        else:
            msg.edited_timestamp = _now_iso()
            self._dispatch_message("MESSAGE_UPDATE", msg)
        inter._add_message(msg)
        inter._settle()
        return self._ok(self._message_payload(msg))

    async def _h_webhook_msg_delete(self, request: web.Request) -> web.Response:
        inter = self._webhook_interaction(request)
        msg = self._webhook_message(request, inter)
        msg.deleted = True
        self._dispatch_message("MESSAGE_DELETE", msg)
        inter._settle()
        return self._no_content()

    # ---- channels / messages -----------------------------------------------------------
    async def _h_channel(self, request: web.Request) -> web.Response:
        return self._ok(self._channel_payload(self._get_channel(request)))

    async def _h_channel_edit(self, request: web.Request) -> web.Response:
        """Only what a bot does to its threads here: archive (or unarchive) one, rename it."""
        ch = self._get_channel(request)
        body, _ = await self._read_body(request)
        if ch.type not in _THREAD_TYPES:
            raise _HTTPError(403, 50013, "Missing Permissions")
        if "archived" in body:
            ch.archived = bool(body["archived"])
        if body.get("name"):
            ch.name = str(body["name"])[:100]
        payload = self._channel_payload(ch)
        self._dispatch("THREAD_UPDATE", payload)
        return self._ok(payload)

    async def _h_typing(self, request: web.Request) -> web.Response:
        self._get_channel(request)
        return self._no_content()

    async def _h_send(self, request: web.Request) -> web.Response:
        ch = self._get_channel(request)
        if ch.type == CH_DM and not self.users[ch.recipient_id].dms_open:  # type: ignore[index]
            raise _HTTPError(403, 50007, "Cannot send messages to this user")
        if ch.guild_id is not None and ch.guild_id in self.guilds:  # the bot's permissions in the channel
            perms = self.channel_permissions(ch.id, self.bot_user_id)
            if not perms & P_VIEW_CHANNEL:
                raise _HTTPError(403, 50001, "Missing Access")
            if not perms & (P_SEND_MESSAGES_IN_THREADS if ch.type in _THREAD_TYPES else P_SEND_MESSAGES):
                raise _HTTPError(403, 50013, "Missing Permissions")
        ch.archived = False  # Discord: a message in an archived (unlocked) thread unarchives it
        data, files = await self._read_body(request)
        nonce = data.get("nonce")
        if nonce is not None and len(str(nonce)) > 25:
            self._violate("invalid_form_body", f"message in channel {ch.id}: nonce longer than 25 characters")
            raise _HTTPError(400, 50035, "Invalid Form Body",
                             {"nonce": {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 25 or fewer in length."}]}})
        if nonce is not None and data.get("enforce_nonce"):
            # Discord: a second message with the same nonce (same author, a few minutes) returns the first
            earlier = self._nonces.get((ch.id, str(nonce)))
            if earlier is not None and earlier in self._messages:
                self.nonce_duplicates += 1
                return self._ok(self._message_payload(self._messages[earlier]))
        atts = self._prepare_message(data, files, prefix=[], existing=None, what=f"message in channel {ch.id}")
        data = dict(data)
        if data.get("flags"):
            data["flags"] = int(data["flags"]) & ~F_EPHEMERAL
        msg = self._new_bot_message(ch.id, data, atts)
        if nonce is not None and data.get("enforce_nonce"):
            self._nonces[(ch.id, str(nonce))] = msg.id
        ref = data.get("message_reference")
        if ref and ref.get("message_id"):
            msg.type = 19
            msg.message_reference = {"type": 0, "message_id": str(ref["message_id"]), "channel_id": str(ch.id),
                                     **({"guild_id": str(ch.guild_id)} if ch.guild_id else {})}
        self._dispatch_message("MESSAGE_CREATE", msg)
        return self._ok(self._message_payload(msg))

    def _channel_message(self, request: web.Request) -> tuple[_Channel, FakeMessage]:
        ch = self._get_channel(request)
        mid = self._int(request.match_info["message_id"], 10008, "Unknown Message")
        msg = self._messages.get(mid)
        if msg is None or msg.channel_id != ch.id or msg.deleted or msg.ephemeral:
            raise _HTTPError(404, 10008, "Unknown Message")
        return ch, msg

    async def _h_msg_get(self, request: web.Request) -> web.Response:
        _, msg = self._channel_message(request)
        return self._ok(self._message_payload(msg))

    async def _h_history(self, request: web.Request) -> web.Response:
        ch = self._get_channel(request)
        q = request.query
        limit = max(1, min(100, int(q.get("limit", 50))))
        msgs = [m for m in self.messages(ch.id)]
        if "before" in q:
            msgs = [m for m in msgs if m.id < int(q["before"])]
        if "after" in q:
            msgs = [m for m in msgs if m.id > int(q["after"])]
            msgs = msgs[:limit]
        elif "around" in q:
            around = int(q["around"])
            older = [m for m in msgs if m.id <= around][-(limit // 2 + 1):]
            newer = [m for m in msgs if m.id > around][: limit - len(older)]
            msgs = older + newer
        else:
            msgs = msgs[-limit:]
        return self._ok([self._message_payload(m) for m in reversed(msgs)])

    async def _h_msg_edit(self, request: web.Request) -> web.Response:
        ch, msg = self._channel_message(request)
        if msg.author_id != self.bot_user_id:
            raise _HTTPError(403, 50005, "Cannot edit a message authored by another user")
        data, files = await self._read_body(request)
        atts = self._prepare_message(data, files, prefix=[], existing=msg, what=f"edit of message {msg.id}")
        self._apply(msg, data, atts, creating=False)
        msg.edited_timestamp = _now_iso()
        self._dispatch_message("MESSAGE_UPDATE", msg)
        return self._ok(self._message_payload(msg))

    async def _h_msg_delete(self, request: web.Request) -> web.Response:
        _, msg = self._channel_message(request)
        msg.deleted = True
        self._dispatch_message("MESSAGE_DELETE", msg)
        return self._no_content()

    async def _h_thread(self, request: web.Request) -> web.Response:
        parent = self._get_channel(request)
        if parent.type != CH_TEXT:
            raise _HTTPError(400, 50024, "Cannot execute action on this channel type")
        body, _ = await self._read_body(request)
        guild = self.guilds.get(parent.guild_id or 0)
        private = "message_id" not in request.match_info and int(body.get("type") or CH_PRIVATE_THREAD) == CH_PRIVATE_THREAD
        needed = P_CREATE_PRIVATE_THREADS if private else P_CREATE_PUBLIC_THREADS
        if guild is not None and not self._guild_permissions(guild, self.bot_user_id) & needed:
            raise _HTTPError(403, 50013, "Missing Permissions")
        name = body.get("name") or ""
        if not 1 <= len(name) <= 100:
            self._violate("invalid_thread", f"thread name {name!r} must be 1-100 characters")
            raise _form_error(["name"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
        starter: FakeMessage | None = None
        if "message_id" in request.match_info:
            _, starter = self._channel_message(request)
            if starter.thread_id is not None:
                raise _HTTPError(400, 160004, "A thread has already been created for this message")
            tid, ttype = starter.id, CH_PUBLIC_THREAD
        else:
            tid, ttype = self._snowflake(), int(body.get("type") or CH_PRIVATE_THREAD)
        thread = _Channel(tid, ttype, name, guild_id=parent.guild_id, parent_id=parent.id,
                          owner_id=self.bot_user_id,
                          auto_archive_duration=int(body.get("auto_archive_duration") or 1440))
        thread.thread_members.add(self.bot_user_id)
        self.channels[tid] = thread
        if starter is not None:
            starter.thread_id = tid
            starter.flags |= F_HAS_THREAD
        payload = self._channel_payload(thread)
        self._dispatch("THREAD_CREATE", {**payload, "newly_created": True})
        return self._ok(payload, 201)

    async def _h_thread_member(self, request: web.Request) -> web.Response:
        ch = self._get_channel(request)
        if ch.type not in _THREAD_TYPES:
            raise _HTTPError(400, 50024, "Cannot execute action on this channel type")
        raw = request.match_info.get("user_id", "@me")
        uid = self.bot_user_id if raw == "@me" else self._int(raw, 10013, "Unknown User")
        if uid not in self.users:
            raise _HTTPError(404, 10013, "Unknown User")
        if request.method == "PUT":
            ch.thread_members.add(uid)
        else:
            ch.thread_members.discard(uid)
        return self._no_content()
