"""The Discord transport: a ``commands.Bot`` whose cogs (loaded in
``setup_hook``) translate interactions into service calls, and ``deliver``,
which turns an ``Outcome`` into interaction responses, follow-ups and DMs
within Discord's limits."""
from __future__ import annotations

import asyncio
import io
import logging

import aiohttp

import discord
from discord import app_commands
from discord.ext import commands

from bot.config import Config
from bot.service import Ctx, GameService, Outcome, Post, split_text
from bot.storage import StoreProtocol as Store, open_store

log = logging.getLogger("palantir")

DEFER_AFTER = 1.5  # seconds: past this, acknowledge first (Discord allows 3)
_deferred: dict[int, bool] = {}  # interaction id -> deferred privately?
EXTENSIONS = ("cogs.game", "cogs.dice")


def ctx_of(interaction: discord.Interaction) -> Ctx:
    perms = interaction.permissions
    return Ctx(
        channel_id=interaction.channel_id or 0,
        guild_id=interaction.guild_id,
        user_id=interaction.user.id,
        interaction_id=str(interaction.id),
        is_moderator=bool(perms and perms.manage_guild),
        user_name=interaction.user.display_name,
    )


def _kwargs(post: Post, limit: int) -> list[dict]:
    """One or more send() keyword sets for a post: text split at 2,000
    characters, files on the last, pings only for the post's own mentions."""
    text = post.text or ""
    files = []
    for data, name, alt in ((post.image, post.filename, post.alt), (post.attachment, post.attachment_name, "")):
        if data is None:
            continue
        if len(data) <= limit:
            files.append(discord.File(io.BytesIO(data), filename=name, description=alt[:1024] or None))
        else:  # never silently: say what is missing
            text += f"\n({name} is {len(data) // 1024} KiB, over this server's upload limit; not attached)"
    chunks = split_text(text, 2000) if text else [""]
    mentions = discord.AllowedMentions(users=[discord.Object(u) for u in post.mentions], everyone=False,
                                       roles=False, replied_user=False)
    out = []
    for i, c in enumerate(chunks):
        kw: dict = {"content": c or None, "allowed_mentions": mentions}
        if i == len(chunks) - 1 and files:
            kw["files"] = files
        if i == len(chunks) - 1 and post.buttons:
            kw["view"] = buttons_view(post.buttons)
        out.append(kw)
    return out


def buttons_view(buttons: list[tuple[str, str]]) -> discord.ui.View:
    """Buttons whose clicks the cogs handle by custom id (so they survive a restart)."""
    view = discord.ui.View(timeout=None)
    for custom_id, label in buttons:
        style = discord.ButtonStyle.danger if custom_id.endswith(":n") else discord.ButtonStyle.success
        view.add_item(discord.ui.Button(label=label, custom_id=custom_id, style=style))
    return view


async def defer(interaction: discord.Interaction, ephemeral: bool) -> None:
    """Acknowledge now ("thinking…"), remembering how, so ``deliver`` can fill it in."""
    await interaction.response.defer(ephemeral=ephemeral, thinking=True)
    _deferred[interaction.id] = ephemeral


async def guarded(interaction: discord.Interaction, coro, ephemeral_guess: bool = True):
    """Run a service call; if it is not finished in DEFER_AFTER seconds,
    acknowledge the interaction first so Discord does not time it out."""
    task = asyncio.ensure_future(coro)
    done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER)
    if not done and not interaction.response.is_done():
        await defer(interaction, ephemeral_guess)
    return await task


MAP_FAILED = "(the map could not be drawn this time; `/game map` tries again)"


async def _render_map(out: Outcome, service: GameService) -> tuple[bytes | None, str | None, str]:
    if not out.map_after:
        return None, None, ""
    gid, seat = out.map_after
    try:
        img, caption = await service.render_game(gid, seat)
        return img, caption, await service.map_description(gid, seat)
    except Exception:  # a drawing failure must not lose the order already accepted
        log.exception("render failed for game %s", gid)
        return None, MAP_FAILED, ""


def map_post(out: Outcome, img: bytes | None, caption: str | None, alt: str = "") -> Post | None:
    """The post after the answer: a phase's notice with the map in one message (its pings
    intact), or the map with its caption."""
    if out.notice is not None:
        text = out.notice.text
        if caption == MAP_FAILED and len(text) + len(caption) + 1 <= 2000:
            text += "\n" + caption
        return Post(text=text, image=img, mentions=list(out.notice.mentions), alt=alt)
    if out.map_after:
        return Post(text=caption or "", image=img, alt=alt)
    return None


async def deliver(interaction: discord.Interaction, out: Outcome, service: GameService) -> None:
    limit = getattr(interaction, "filesize_limit", None) or discord.utils.DEFAULT_FILE_SIZE_LIMIT_BYTES
    post = out.reply or Post(text="Done.")
    sets = _kwargs(post, limit)
    if not interaction.response.is_done():
        first = sets.pop(0)
        await interaction.response.send_message(ephemeral=out.ephemeral, **first)
    else:
        deferred_private = _deferred.pop(interaction.id, True)
        if out.ephemeral == deferred_private:
            first = sets.pop(0)
            files = first.pop("files", None)
            if files:
                first["attachments"] = files
            await interaction.edit_original_response(**first)
        elif deferred_private:  # a private "thinking…", a public answer: say so, post it below
            await interaction.edit_original_response(content="Done: posted below.")
        else:  # a public "thinking…", a private answer: the answer must not show publicly
            await interaction.delete_original_response()
            if sets:
                await interaction.followup.send(ephemeral=True, **sets.pop(0))
    if out.board is not None and out.ok and not out.ephemeral:  # the status board: remembered, edited later
        try:
            msg = await interaction.original_response()
            await service.set_board(out.board, msg.channel.id, msg.id)
        except discord.HTTPException:
            log.exception("could not remember the status board of game %s", out.board)
    if out.board_edit is not None:
        channel_id, message_id, text = out.board_edit
        try:
            channel = interaction.client.get_channel(channel_id) or await interaction.client.fetch_channel(channel_id)
            await channel.get_partial_message(message_id).edit(content=text, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:  # deleted or out of reach: the next `/game status public:true` posts a new one
            log.warning("could not edit the status board %s", message_id)
    if out.ok:
        try:  # an answer stored with its order but not marked here is announced after a restart
            await service.delivered(str(interaction.id))
        except Exception:
            log.exception("could not mark interaction %s answered", interaction.id)
    for kw in sets:
        await interaction.followup.send(ephemeral=out.ephemeral, **kw)
    for p in out.public:
        for kw in _kwargs(p, limit):
            await interaction.followup.send(**kw)
    post = map_post(out, *(await _render_map(out, service)))
    if post is not None:
        for kw in _kwargs(post, limit):
            await interaction.followup.send(ephemeral=bool(out.map_after and out.map_after[1]), **kw)
    for cid, posts in out.elsewhere.items():  # e.g. the welcome in a game's new thread
        try:
            channel = interaction.client.get_channel(cid) or await interaction.client.fetch_channel(cid)
            for p in posts:
                for kw in _kwargs(p, limit):
                    await channel.send(**kw)
        except discord.HTTPException:
            log.exception("could not post in channel %s", cid)
    failed, quiet, notes = [], [], []
    for uid, posts in out.dms.items():
        try:
            user = interaction.client.get_user(uid) or await interaction.client.fetch_user(uid)
            for p in posts:
                for kw in _kwargs(p, limit):
                    await user.send(**kw)
        except discord.HTTPException:
            (quiet if all(p.quiet for p in posts) else failed).append(uid)
            notes += [p.undelivered for p in posts if p.undelivered and p.undelivered not in notes]
    if notes:  # the caller hears privately that what they sent did not arrive (a whisper)
        await interaction.followup.send("\n".join(notes)[:2000], ephemeral=True)
    if failed:
        who = ", ".join(f"<@{u}>" for u in failed)
        await interaction.followup.send(
            f"I could not send a direct message to {who}. Allow DMs from this server's members, then use `/secret`.",
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(u) for u in failed]))
    if quiet:
        # that hidden information changed (and when) may itself be a secret:
        # told privately to its own reader only, never in the channel
        if interaction.user.id in quiet:
            await interaction.followup.send(
                "I could not send you a direct message. Allow DMs from this server's members, then use `/secret`.",
                ephemeral=True)
        log.warning("could not DM users %s (hidden information changed; they can use /secret)", quiet)


class PalantirTree(app_commands.CommandTree):
    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        _deferred.pop(interaction.id, None)
        if isinstance(error, app_commands.CheckFailure):
            text = str(error) or "You cannot use that here."
        else:
            log.error("command failed", exc_info=error)
            text = "Something went wrong on my side; it has been logged. Please try again."
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException:
            pass


class _Palantir:
    """The bot, sharded or not (``PalantirBot``, ``ShardedPalantirBot``; ``make_bot`` chooses)."""

    def __init__(self, cfg: Config, service: GameService | None = None, **shards):
        intents = discord.Intents.default()
        intents.message_content = bool(cfg.discord.keep_rooms)  # private rooms kept for the export
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None,
                         tree_cls=PalantirTree, **shards)
        self.cfg = cfg
        self.service = service
        self._own_store: Store | None = None
        self._render_pool = None
        self._wake = asyncio.Event()
        self._scheduler_task: asyncio.Task | None = None

    async def setup_hook(self) -> None:
        if self.service is None:
            shard = self.cfg.discord.shard_filter()
            self._own_store = await open_store(self.cfg.storage)
            self._own_store.shard = shard  # deadlines, the outbox, start-up: this process's guilds only
            if shard is not None:
                log.info("serving shards %s of %d", list(shard.ids), shard.count)
                if len(shard.ids) < shard.count and type(self._own_store).__name__ == "SqliteStore":
                    log.warning("shards split across processes share one SQLite file: that only works on "
                                "one machine; set [storage] url = \"postgresql://...\" to run them apart")
            if self.cfg.render.workers:
                from bot.render_pool import RenderPool

                self._render_pool = RenderPool(self.cfg.render.workers)
            self.service = GameService(self._own_store, deadline_defaults=self.cfg.deadlines.rules(), shard=shard,
                                       render_pool=self._render_pool)
        self.service.on_timers_changed = self._wake.set
        n = await self.service.warm()
        log.info("loaded %d live games", n)
        if (k := await self.service.announce_unanswered()):
            log.warning("announced %d answers stored before a restart but never delivered", k)
        self._scheduler_task = asyncio.create_task(self._scheduler(), name="palantir-scheduler")
        for ext in EXTENSIONS:
            await self.load_extension(ext)
        for gid in self.cfg.discord.dev_guild_ids:
            guild = discord.Object(gid)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        shard = self.cfg.discord.shard_filter()
        if self.cfg.discord.sync_global and (shard is None or 0 in shard.ids):  # one process syncs
            await self.sync_global_if_changed()

    async def sync_global_if_changed(self) -> bool:
        """Global commands take a while to spread and syncing is rate limited:
        sync only when the command set differs from the last one synced."""
        import hashlib
        import json

        payload = sorted((c.to_dict(self.tree) for c in self.tree.get_commands()), key=lambda d: d["name"])
        digest = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
        store = self.service.store
        if await store.get_setting("global_commands_hash") == digest:
            log.info("global slash commands unchanged; not syncing")
            return False
        await self.tree.sync()
        await store.set_setting("global_commands_hash", digest)
        log.info("synced global slash commands")
        return True

    # ------------------------------------------------------------ scheduler
    async def _scheduler(self) -> None:
        """Fire due timers and send what they queued. Timers and the outbox live in SQLite, so a
        restart resumes here; each outbox row is sent with a nonce Discord enforces, so a row sent
        just before a crash is not posted twice when it is sent again."""
        await self.wait_until_ready()
        while not self.is_closed():
            try:
                await self.service.fire_due()
                await self.flush_outbox()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("scheduler step failed")
            self._wake.clear()
            try:
                await asyncio.wait_for(self._wake.wait(), self.cfg.deadlines.poll_seconds)
            except asyncio.TimeoutError:
                pass

    async def flush_outbox(self) -> int:
        store = self.service.store
        sent = 0
        for item in await store.pending_outbox():
            if item["payload"].get("board"):  # the status board, edited in place as it reads now
                await self._edit_board(item["payload"]["board"])
                await store.mark_sent(item["id"], self.service.clock())
                sent += 1
                continue
            try:
                post = await self.service.outbox_post(item["payload"])
            except Exception:  # a drawing failure must not hold the notice back
                log.exception("outbox %s: could not prepare the map", item["id"])
                post = Post(text=item["payload"].get("text", ""), mentions=list(item["payload"].get("mentions") or []))
            nonce = f"palantir-{item['id']}"
            try:
                if item["user_id"]:
                    target = self.get_user(item["user_id"]) or await self.fetch_user(item["user_id"])
                else:
                    target = self.get_channel(item["channel_id"]) or await self.fetch_channel(item["channel_id"])
                for i, kw in enumerate(_kwargs(post, discord.utils.DEFAULT_FILE_SIZE_LIMIT_BYTES)):
                    await target.send(nonce=f"{nonce}-{i}", **kw)
            except discord.Forbidden:
                log.warning("outbox %s: cannot send (forbidden); dropped", item["id"])
            except discord.HTTPException:
                log.exception("outbox %s: send failed; will retry", item["id"])
                continue
            await store.mark_sent(item["id"], self.service.clock())
            sent += 1
        return sent

    async def _edit_board(self, game_id: int) -> None:
        edit = await self.service.board_edit(game_id)
        if edit is None:
            return
        channel_id, message_id, text = edit
        try:
            channel = self.get_channel(channel_id) or await self.fetch_channel(channel_id)
            await channel.get_partial_message(message_id).edit(content=text, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:  # deleted or out of reach: the next `/game status public:true` posts a new one
            log.warning("could not edit the status board %s", message_id)

    async def close(self) -> None:
        if self._scheduler_task is not None:
            self._scheduler_task.cancel()
            try:
                await self._scheduler_task
            except BaseException:
                pass
            self._scheduler_task = None
        await super().close()
        if self._render_pool is not None:
            self._render_pool.close()
            self._render_pool = None
        if self._own_store is not None:
            await self._own_store.close()
            self._own_store = None


class PalantirBot(_Palantir, commands.Bot):
    """One process, every guild (no ``[discord] shard_count``)."""


class ShardedPalantirBot(_Palantir, commands.AutoShardedBot):
    """The shards ``[discord] shard_ids`` of ``shard_count`` (issue 16): discord.py connects one
    gateway session per shard, and the service answers, loads and fires deadlines only for the
    guilds of these shards; other processes run the other shards against the same PostgreSQL."""


def make_bot(cfg: Config, service: GameService | None = None) -> commands.Bot:
    d = cfg.discord
    if not d.shard_count:
        return PalantirBot(cfg, service)
    ids = list(d.shard_ids or range(d.shard_count))
    return ShardedPalantirBot(cfg, service, shard_ids=ids, shard_count=d.shard_count)


async def configure_endpoints(cfg: Config) -> None:
    """`[discord] api_base` for REST, and the gateway that server names."""
    from bot.transports.endpoints import apply_api_base, apply_gateway, resolve_gateway

    api_base = cfg.discord.api_base or None
    apply_api_base(api_base)
    url = await resolve_gateway(api_base, cfg.discord.gateway_url or None, cfg.token)
    apply_gateway(url)


class StartupError(Exception):
    """The bot could not start; the message is one line for the person who started it."""


def startup_error(exc: BaseException, api_base: str | None) -> str | None:
    """One clear line for what commonly stops the bot from starting, or None (a real bug: let it
    show its traceback)."""
    where = api_base or "https://discord.com"
    if isinstance(exc, discord.LoginFailure):
        return "Discord refused the token: check `[discord] token` in the config, or DISCORD_TOKEN."
    if isinstance(exc, discord.PrivilegedIntentsRequired):
        return ("Discord refused a privileged intent this bot asks for: enable it for the application in the "
                "Developer Portal (Bot, Privileged Gateway Intents).")
    if isinstance(exc, discord.ConnectionClosed):
        if exc.code == 4004:
            return "Discord refused the token on the gateway: check `[discord] token` in the config, or DISCORD_TOKEN."
        return f"Discord closed the gateway connection (code {exc.code}): {exc.reason or 'no reason given'}."
    if isinstance(exc, discord.Forbidden):
        return ("Discord refused to register the slash commands (HTTP 403): invite the bot with the "
                "`applications.commands` scope, or check `[discord] dev_guild_ids`.")
    if isinstance(exc, discord.HTTPException):
        return f"Discord answered HTTP {exc.status} at start-up: {str(exc.text or exc)[:200]}."
    if isinstance(exc, (aiohttp.ClientConnectorError, aiohttp.ServerDisconnectedError, ConnectionError,
                        asyncio.TimeoutError, OSError)):
        reason = str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__
        return f"Cannot reach Discord at {where}: {reason}. Check the network, a proxy, or `[discord] api_base`."
    if isinstance(exc, RuntimeError) and str(exc).startswith("GET "):  # the gateway lookup
        return f"Cannot find Discord's gateway: {str(exc)[:200]}."
    return None


async def run_bot(cfg: Config) -> int:
    """Run until stopped; a known start-up failure raises ``StartupError`` (one line)."""
    try:
        await configure_endpoints(cfg)
        bot = make_bot(cfg)
        async with bot:
            await bot.start(cfg.token)
    except Exception as e:
        line = startup_error(e, cfg.discord.api_base or None)
        if line is None:
            raise
        raise StartupError(line) from None
    return 0
