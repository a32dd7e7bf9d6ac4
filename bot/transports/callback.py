"""An interaction's first answer, sent without asking Discord for it back (issue 25), through discord.py (issue 43).

discord.py's ``InteractionResponse.send_message`` and ``defer`` post the callback with
``?with_response=1`` and build a message object from Discord's answer (an ``InteractionCallbackResponse``
with its ``Message``), which the bot never reads: on a busy bot that parse was a sizeable part of the CPU each
order costs (``benchmarks/bench_ack.py``, profiled). Here the callback is one POST without it, through the
webhook adapter discord.py's own response uses (aiohttp underneath; its retries on 429 and 5xx, a lock per
interaction that is dropped with it), which Discord answers ``204 No Content``. (Until issue 43 a hand-written
HTTP client sent it first, to save about 130 µs of CPU an order: see docs/architecture.md, "Hand-written
parts, and why".) Not through the client's ``HTTPClient.request``: that keeps a rate-limit bucket per route and
major parameters for 5 minutes, and once it holds 256 of them scans them all on every new one; with a
bucket per interaction, at 300 orders a second that scan was a fifth of the bot's CPU and grew with every
order (profiled with py-spy under ``benchmarks/bench_ack.py``). discord.py is told the interaction was answered (its
``InteractionResponse`` keeps the type it would have set), so ``is_done()``, follow-ups and
``edit_original_response`` work as before. Only a plain answer goes this way: one with files or buttons
takes discord.py's path, which knows how to send them (and to register the buttons' view).

A POST whose answer was lost (the connection cut or closed after it may have been written, a malformed or no
answer in time) may have been taken: it is sent once more, and Discord's refusal of that one as "already
acknowledged" (40060) counts as done. A refusal of the first one stands (a real second answer), and so does
a connection that could not be made (nothing was sent).
"""
from __future__ import annotations

import asyncio
from contextvars import ContextVar

import aiohttp
import discord
from discord.http import Route
from discord.webhook.async_ import async_context

CHANNEL_MESSAGE = 4  # "here is my answer"
DEFERRED_CHANNEL_MESSAGE = 5  # "thinking…", the answer follows by editing it
EPHEMERAL = 64  # the message flag: only the interaction's user sees it


def plain(kw: dict) -> bool:
    """Whether a ``send_kwargs`` set can go this way (no files, no buttons)."""
    return not kw.get("files") and kw.get("view") is None and set(kw) <= {"content", "allowed_mentions"}


def route(interaction: discord.Interaction) -> Route:
    """The callback's route, named as discord.py's webhook adapter names it: the adapter serialises requests
    per (webhook_id, webhook_token), so each interaction is a lock of its own. (Were every callback one
    bucket, they would be sent one at a time: under load they queued until Discord's 3 s ran out.)"""
    return Route("POST", "/interactions/{webhook_id}/{webhook_token}/callback",
                 webhook_id=interaction.id, webhook_token=interaction.token)


ALREADY_ACKNOWLEDGED = 40060  # Discord's code for a second callback to the same interaction

# (issue 39) "a request of this task has its connection": its bytes are then written before anything queued later
# runs (aiohttp writes a body from a task it makes in that same step). Set by aiohttp's trace of the bot's session
# (``TRACE``, given to discord.py as its ``http_trace``) for the task ``started`` made.
_CONNECTED: ContextVar[asyncio.Future | None] = ContextVar("callback_connected", default=None)


async def _on_connection(session, trace_ctx, params) -> None:
    connected()


def connected() -> None:
    """The current task's request has its connection (aiohttp's trace; a stand-in for it in tests)."""
    f = _CONNECTED.get()
    if f is not None and not f.done():
        f.set_result(None)


TRACE = aiohttp.TraceConfig()
TRACE.on_connection_reuseconn.append(_on_connection)
TRACE.on_connection_create_end.append(_on_connection)


def started(coro) -> tuple[asyncio.Future, asyncio.Future]:
    """``coro`` (an acknowledgement) as a task of its own, and a future done once its request has its connection
    (a kept one, or a new one connected): from then on its bytes are written before any task made after it runs."""
    sent = asyncio.get_running_loop().create_future()
    token = _CONNECTED.set(sent)
    try:
        return asyncio.ensure_future(coro), sent  # (the task runs in a copy of this context: it sees ``sent``)
    finally:
        _CONNECTED.reset(token)


def unsure(error: BaseException) -> bool:
    """Whether a request that failed with ``error`` may have reached Discord: any failure of aiohttp's once a
    connection was had (cut, closed, a malformed answer, none in time), not a connection that could not be made."""
    return (isinstance(error, (aiohttp.ClientError, asyncio.TimeoutError))
            and not isinstance(error, aiohttp.ClientConnectorError))


async def _post(interaction: discord.Interaction, kind: int, data: dict) -> None:
    if interaction.response.is_done():
        raise discord.InteractionResponded(interaction)
    payload = {"type": kind, "data": data}
    http = interaction.client.http

    async def request() -> None:  # 404 -> discord.NotFound, any other refusal discord.HTTPException
        await async_context.get().request(route(interaction), interaction._session, payload=payload,
                                          proxy=http.proxy, proxy_auth=http.proxy_auth)

    try:
        await request()
    except Exception as e:
        if not unsure(e):
            raise
        try:  # its answer lost: once more. Discord took the first if it refuses this one as already acknowledged
            await request()
        except discord.HTTPException as again:
            if again.code != ALREADY_ACKNOWLEDGED:
                raise
    # what discord.py's own response would have recorded: the interaction is answered, and how
    interaction.response._response_type = discord.InteractionResponseType(kind)


async def send(interaction: discord.Interaction, *, ephemeral: bool, content: str | None = None,
               allowed_mentions: discord.AllowedMentions | None = None) -> None:
    """The answer itself (callback type 4): ``content``, pinging only what ``allowed_mentions`` allows."""
    data: dict = {"content": content or ""}
    if allowed_mentions is not None:
        data["allowed_mentions"] = allowed_mentions.to_dict()
    if ephemeral:
        data["flags"] = EPHEMERAL
    await _post(interaction, CHANNEL_MESSAGE, data)


async def defer(interaction: discord.Interaction, *, ephemeral: bool) -> None:
    """"Thinking…" (callback type 5), public or private: the answer follows by editing it."""
    await _post(interaction, DEFERRED_CHANNEL_MESSAGE, {"flags": EPHEMERAL} if ephemeral else {})
