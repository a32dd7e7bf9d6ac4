"""Point discord.py at a different REST base URL and gateway.

Config keys ``[discord] api_base`` (e.g. ``http://127.0.0.1:8080/api/v10``: an HTTP proxy in
front of Discord, or the fake Discord used by the end-to-end tests) and ``[discord]
gateway_url``.  Both unset means the real Discord.

How discord.py 2.7 picks its endpoints (verified in its source):

* REST: every request, including the interaction webhooks in ``discord/webhook/async_.py``,
  builds its URL as ``discord.http.Route.BASE + path`` when the ``Route`` is created, so setting
  that one class attribute redirects all of it.  (``Webhook.url`` is only a display string.)
* Gateway: ``Client.connect`` -> ``DiscordWebSocket.from_client(gateway=None)`` uses the class
  attribute ``DiscordWebSocket.DEFAULT_GATEWAY`` for the first connection and after an
  INVALID_SESSION; RESUMEs go to the ``resume_gateway_url`` from READY (so the server decides).
  ``AutoShardedClient`` asks ``GET /gateway/bot`` itself, which follows ``Route.BASE``.

Usage, before ``bot.start(token)``::

    apply_api_base(cfg.api_base)
    apply_gateway(await resolve_gateway(cfg.api_base, cfg.gateway_url, token))

These settings are process-wide; passing ``None`` restores Discord's defaults.
"""

from __future__ import annotations

import aiohttp
import discord
import discord.gateway
import discord.http
import yarl

__all__ = ["DEFAULT_API_BASE", "DEFAULT_GATEWAY", "apply_api_base", "apply_gateway", "resolve_gateway"]

DEFAULT_API_BASE = "https://discord.com/api/v10"
DEFAULT_GATEWAY = "wss://gateway.discord.gg/"


def apply_api_base(api_base: str | None) -> None:
    """Send all of discord.py's REST traffic (bot API and interaction webhooks) to ``api_base``.

    ``None`` or ``""`` restores ``https://discord.com/api/v10``.  Only affects ``Route`` objects
    created afterwards, so call it before the bot logs in.
    """
    base = (api_base or DEFAULT_API_BASE).rstrip("/")
    discord.http.Route.BASE = base


async def resolve_gateway(api_base: str | None, gateway_url: str | None, token: str) -> str | None:
    """The gateway URL to use: ``gateway_url`` if given; else, when ``api_base`` is set, the
    ``url`` answered by ``GET {api_base}/gateway/bot``; else ``None`` (discord.py's default).

    Raises ``discord.LoginFailure`` if the token is refused, ``RuntimeError`` if the lookup fails
    otherwise.
    """
    if gateway_url:
        return gateway_url
    if not api_base:
        return None
    url = api_base.rstrip("/") + "/gateway/bot"
    auth = token if token.startswith("Bot ") else f"Bot {token}"
    async with aiohttp.ClientSession() as session:
        async with session.get(url, headers={"Authorization": auth}) as resp:
            if resp.status == 401:
                raise discord.LoginFailure(f"GET {url}: 401, the token was refused")
            if resp.status != 200:
                raise RuntimeError(f"GET {url} failed with HTTP {resp.status}: {await resp.text()}")
            data = await resp.json()
    gateway = data.get("url")
    if not gateway:
        raise RuntimeError(f"GET {url} returned no gateway url: {data!r}")
    return gateway


def apply_gateway(url: str | None) -> None:
    """Make discord.py's first connection (and re-IDENTIFY after an invalidated session) dial
    ``url``; ``None`` restores ``wss://gateway.discord.gg/``."""
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url or DEFAULT_GATEWAY)
