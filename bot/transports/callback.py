"""An interaction's first answer, sent without asking Discord for it back (issue 25).

discord.py's ``InteractionResponse.send_message`` and ``defer`` post the callback with
``?with_response=1`` and build a message object from Discord's answer (an ``InteractionCallbackResponse``
with its ``Message``), which the bot never reads: on a busy bot that parse, and the webhook adapter it
goes through, were a sizeable part of the CPU each order costs (``benchmarks/bench_ack.py``, profiled).
Here the callback is one POST without it, through the same webhook adapter discord.py's own response uses
(its retries on 429 and 5xx, a lock per interaction that is dropped with it), which Discord answers ``204 No
Content``. First by a lean client of its own (``bot/transports/lean_http.py``: about 16 µs of CPU, against
145 µs through the webhook adapter and aiohttp), which leaves anything but a plain 2xx or 404 to the adapter.
Not through the client's ``HTTPClient.request``: that keeps a rate-limit bucket per route and
major parameters for 5 minutes, and once it holds 256 of them scans them all on every new one; with a
bucket per interaction, at 300 orders a second that scan was a fifth of the bot's CPU and grew with every
order (profiled with py-spy under ``benchmarks/bench_ack.py``). discord.py is told the interaction was answered (its
``InteractionResponse`` keeps the type it would have set), so ``is_done()``, follow-ups and
``edit_original_response`` work as before. Only a plain answer goes this way: one with files or buttons
takes discord.py's path, which knows how to send them (and to register the buttons' view).
"""
from __future__ import annotations

import discord
from discord.http import Route
from discord.webhook.async_ import async_context

from bot.transports.lean_http import SPARE, UNSURE, LeanPoster, not_found

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


def poster(client: discord.Client) -> LeanPoster | None:
    """The client's lean poster (``bot/transports/lean_http.py``), made on first use; None where a proxy is
    configured (discord.py's way knows how to go through it)."""
    p = getattr(client, "_lean_poster", None)
    if p is None:
        http = client.http
        if http.proxy:
            return None
        p = LeanPoster(Route.BASE, http.user_agent, spare=SPARE)
        client._lean_poster = p
    return p


def close_poster(client: discord.Client) -> None:
    """Close the connections the client's lean poster keeps (the client is closing)."""
    p = getattr(client, "_lean_poster", None)
    if p is not None:
        p.close()


async def _post(interaction: discord.Interaction, kind: int, data: dict) -> None:
    if interaction.response.is_done():
        raise discord.InteractionResponded(interaction)
    payload = {"type": kind, "data": data}
    p = poster(interaction.client)
    got = None
    if p is not None:  # the lean way first (issue 25): 2xx done, 404 NotFound, anything else the usual way
        got = await p.post(f"/interactions/{interaction.id}/{interaction.token}/callback",
                           discord.utils._to_json(payload).encode())
        if got is not None and got[0] == 404:
            raise not_found(got[1])
        if got is not None and 200 <= got[0] < 300:
            interaction.response._response_type = discord.InteractionResponseType(kind)
            return
    http = interaction.client.http
    try:
        await async_context.get().request(route(interaction), interaction._session, payload=payload,
                                          proxy=http.proxy, proxy_auth=http.proxy_auth)  # 404 -> NotFound
    except discord.HTTPException as e:
        # the lean way's request was written and its answer lost (a connection cut): Discord took it, and
        # refuses this second one as already acknowledged. Any other refusal stands, as does this one when the
        # lean way's request was refused outright (a real second answer to the same interaction)
        if not (got is UNSURE and e.code == ALREADY_ACKNOWLEDGED):
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
