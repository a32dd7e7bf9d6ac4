"""The Discord transport: a ``commands.Bot`` whose cogs (loaded in
``setup_hook``) translate interactions into service calls, and ``deliver``,
which turns an ``Outcome`` into interaction responses, follow-ups and DMs
within Discord's limits."""
from __future__ import annotations

import asyncio
import logging
import time

import aiohttp

import discord
from discord import app_commands
from discord.ext import commands

from bot.config import Config
from bot.event_loop import Backlog, loop_name
from bot.outcome import seat_title
from bot.service import Ctx, GameService, Outcome, Post, split_text
from bot.transports import callback, gateway
from bot.transports.posts import buttons_view, cannot_post, missing_permissions, send_kwargs as _kwargs
from bot.transports.private import HELD, NONE, leave_room, send_private, seat_room, tell_table_once, where_text
from bot.storage import StoreProtocol as Store, open_store

log = logging.getLogger("palantir")

DEFER_AFTER = 1.5  # seconds: a command not answered in this long is acknowledged first
ACK_SECONDS = 3.0  # Discord takes an interaction's first answer this long after its creation
ACK_MARGIN = 0.8  # ...and we acknowledge at least this long before that, whatever the handler's delay
# (issue 39) an acknowledgement left to a timer leaves this many of the loop's turns later than planned (the timer's,
# the handler's wake-up), each as late as the loop runs (``Backlog.lag``): a loop that late acknowledges sooner
LAG_STEPS = 2
DEFER_BACKLOG = 64  # interactions already waiting for their acknowledgement, past which one more is acknowledged at once
OVERLOADED = ("Busy: I have more commands than I can answer right now. Nothing was applied; "
              "try again in a moment.")
EXTENSIONS = ("cogs.game", "cogs.dice")
LATE_NOTE = "-# Answer to <@{uid}>: Discord stopped waiting for it before I could reply."


def time_left(interaction: discord.Interaction) -> float:
    """Seconds left to acknowledge ``interaction``, by Discord's clock: 3 s from its creation (the
    snowflake's time), not from when our handler started, which may be late on a busy bot."""
    return interaction.created_at.timestamp() + ACK_SECONDS - time.time()


def ctx_of(interaction: discord.Interaction) -> Ctx:
    perms = interaction.permissions
    ctx = Ctx(
        channel_id=interaction.channel_id or 0,
        guild_id=interaction.guild_id,
        user_id=interaction.user.id,
        interaction_id=str(interaction.id),
        is_moderator=bool(perms and perms.manage_guild),
        user_name=interaction.user.display_name,
        expires_at=interaction.created_at.timestamp() + ACK_SECONDS,
    )
    interaction.extras["ctx"] = ctx  # ``defer`` marks it acknowledged
    return ctx


async def defer(interaction: discord.Interaction, ephemeral: bool) -> bool:
    """Acknowledge now ("thinking…"), remembering how, so ``deliver`` can fill it in. False if
    Discord no longer takes it (expired: ``deliver`` then answers in the channel)."""
    try:
        if interaction.type == discord.InteractionType.application_command:
            await callback.defer(interaction, ephemeral=ephemeral)  # (not asking for it back: issue 25)
        else:
            await interaction.response.defer(ephemeral=ephemeral, thinking=True)
    except discord.NotFound:  # 10062 Unknown interaction: its 3 s had run out
        interaction.extras["expired"] = True
        return False
    except discord.InteractionResponded:
        return True
    interaction.extras["deferred"] = ephemeral
    if (ctx := interaction.extras.get("ctx")) is not None:
        ctx.acked = True
    return True


async def guarded(interaction: discord.Interaction, coro, ephemeral_guess: bool = True):
    """Run a service call; if it is not finished in DEFER_AFTER seconds, or by ACK_MARGIN before
    Discord's deadline (counted from the interaction's creation), acknowledge the interaction first
    so Discord does not time it out. An interaction that reaches us late is acknowledged at once.
    (Issue 39) The bot's own backlog counts: the timer is shortened by how late the loop runs, an
    interaction behind ``DEFER_BACKLOG`` others waiting for theirs is acknowledged at once, and on a loop
    past ``Backlog.busy_lag`` the work is not started: "busy", privately, at once."""
    backlog = interaction.client.backlog
    lag = backlog.lag()
    if lag >= backlog.busy_lag:  # each step of the work would wait this long: shed it, answered in one step
        coro.close()
        log.warning("event loop %.1f s late: interaction %s answered busy", lag, interaction.id)
        return Outcome.error(OVERLOADED)
    wait = min(DEFER_AFTER, time_left(interaction) - ACK_MARGIN - LAG_STEPS * lag)
    if backlog.unacked >= DEFER_BACKLOG:
        wait = 0.0
    if wait <= 0:
        # late: acknowledged at once, the work meanwhile waiting its turn (Table's BUSY checks read ``Ctx.acked``
        # when the turn comes). Not acknowledged first and then started: a retry of this order, sent by its
        # player when Discord showed this one failed, could then take the channel's lock first while this
        # acknowledgement was on its way, and both be applied (the "already applied" guard needs this one first).
        # The acknowledgement's request is written before the work's first step runs (a work that blocks the loop
        # does not hold it back): its task starts first, and the work is made once that request has its connection
        # (aiohttp writes its body from a task of its own, made then: ``callback.started``), or the acknowledgement
        # ended, or the interaction expired, whichever is first: a connection's time at most, and no retry of this
        # interaction can come before it expires
        ack = None
        if not interaction.response.is_done() and not interaction.extras.get("expired"):
            if (ctx := interaction.extras.get("ctx")) is not None and time_left(interaction) > 0:
                ctx.ack_sent = True  # (its reply may be read after the work's turn came, on a loop running late)
            ack, connected = callback.started(_acknowledge(interaction, ephemeral_guess))
            try:
                await asyncio.wait({ack, connected}, timeout=max(0.0, time_left(interaction)),
                                   return_when=asyncio.FIRST_COMPLETED)
            except BaseException:  # (cancelled: the work never starts)
                coro.close()
                raise
        task = asyncio.ensure_future(coro)
        if ack is not None:
            await ack
        return await task
    task = asyncio.ensure_future(coro)  # the work takes its place in its channel's queue now, in arrival order
    backlog.unacked += 1
    try:
        done, _ = await asyncio.wait({task}, timeout=wait)
    finally:
        backlog.unacked -= 1
    if not done and not interaction.response.is_done() and not interaction.extras.get("expired"):
        await _acknowledge(interaction, ephemeral_guess)
    return await task


async def _acknowledge(interaction: discord.Interaction, ephemeral: bool) -> None:
    """``defer``, whose unexpected failure (Discord's 5xx after discord.py's own retries) must not leave the
    started work without the answer's way: its outcome is still delivered (``deliver`` answers what
    Discord takes, and in the channel what it no longer does)."""
    try:
        await defer(interaction, ephemeral)
    except discord.HTTPException:
        log.exception("could not acknowledge interaction %s; answering without", interaction.id)


MAP_FAILED = "(the map could not be drawn this time; `/game map` tries again)"


async def _render_map(out: Outcome, service: GameService) -> tuple[bytes | None, str | None, str]:
    if not out.map_after:
        return None, None, ""
    gid, seat = out.map_after
    try:
        img, caption = await service.table.render_game(gid, seat)
        return img, caption, await service.table.map_description(gid, seat)
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


class _Answer:
    """Where the rest of an answer goes: the interaction's webhook while Discord takes it; once it
    is dead (its 3 s ran out before we acknowledged it), public posts go to the channel as plain
    messages and private ones by the private way (``send_private``)."""

    def __init__(self, interaction: discord.Interaction, service: GameService, limit: int, late: bool):
        self.i, self.service, self.limit, self.late = interaction, service, limit, late

    async def channel(self):
        i = self.i
        return i.channel or i.client.get_channel(i.channel_id) or await i.client.fetch_channel(i.channel_id)

    async def public(self, post: Post) -> None:
        if self.late:
            channel = await self.channel()
            for kw in _kwargs(post, self.limit):
                await channel.send(**kw)
            return
        for kw in _kwargs(post, self.limit):
            await self.i.followup.send(**kw)

    async def private(self, post: Post, game_id: int | None = None) -> list:
        if self.late:
            if post.game_id is None:
                post.game_id = game_id
            return await send_private(self.i.client, self.service, self.i.user.id, [post], self.limit)
        for kw in _kwargs(post, self.limit):
            await self.i.followup.send(ephemeral=True, **kw)
        return []


def _game_of(out: Outcome) -> int | None:
    if out.map_after:
        return out.map_after[0]
    return next((p.game_id for ps in out.dms.values() for p in ps if p.game_id is not None), None)


async def deliver(interaction: discord.Interaction, out: Outcome, service: GameService) -> None:
    limit = getattr(interaction, "filesize_limit", None) or discord.utils.DEFAULT_FILE_SIZE_LIMIT_BYTES
    post = out.reply or Post(text="Done.")
    sets = _kwargs(post, limit)
    late = bool(interaction.extras.get("expired"))
    probe_note = None
    if out.probe is not None and not late and (time_left(interaction) > 1.2 or interaction.response.is_done()):
        # the delivery check's DM goes before the answer (so it is in place when the player reads it)
        probe_note, out.probe = await _probe(interaction, out.probe, service), None
    posted = False  # ``out.elsewhere``'s posts made (before the answer, when the answer claims them)
    if out.if_unposted is not None and out.elsewhere and not late:
        if not interaction.response.is_done():  # (the posts may take longer than Discord waits for an answer)
            late = not await defer(interaction, out.ephemeral)
        if not late:
            posted, why = True, await _post_elsewhere(interaction.client, out, service, limit)
            if why is not None:  # the claim would be false: say why instead, privately
                post, out.ephemeral = Post(text=out.if_unposted.replace("{why}", why)), True
                sets = _kwargs(post, limit)
    if not late:
        try:
            if not interaction.response.is_done():
                first = sets.pop(0)
                if callback.plain(first):  # (not asking for it back: issue 25)
                    await callback.send(interaction, ephemeral=out.ephemeral, **first)
                else:
                    await interaction.response.send_message(ephemeral=out.ephemeral, **first)
            else:
                deferred_private = interaction.extras.get("deferred", True)
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
        except discord.NotFound:  # 10062/10015: Discord stopped waiting before our answer reached it
            late = True
    if late and (not out.ok or (out.ephemeral and out.stored is None and not out.dms)):
        return  # a refusal (or a private read) changed nothing, and nobody waits for it now
    if not out.ok:  # a refusal its player saw (an "already applied" question is then used up)
        service.recovery.refusal_seen(str(interaction.id))
    answer = _Answer(interaction, service, limit, late)
    uid = interaction.user.id
    if late:  # the same answer, as a plain message in the channel (or privately, if it is private)
        log.warning("interaction %s expired before its answer; answering in the channel", interaction.id)
        if out.ephemeral:
            await answer.private(Post(text=post.text + "\n" + LATE_NOTE.format(uid=uid).removeprefix("-# "),
                                      image=post.image, filename=post.filename, alt=post.alt), _game_of(out))
        else:
            await answer.public(Post(text=post.text + "\n" + LATE_NOTE.format(uid=uid), image=post.image,
                                     filename=post.filename, alt=post.alt, mentions=[uid]))
        sets = []
    if out.board is not None and out.ok and not out.ephemeral and not late:  # the status board: remembered, edited later
        try:
            msg = await interaction.original_response()
            await service.views.set_board(out.board, msg.channel.id, msg.id)
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
            await service.recovery.delivered(str(interaction.id), late=late)
        except Exception:
            log.exception("could not mark interaction %s answered", interaction.id)
    for kw in sets:
        await interaction.followup.send(ephemeral=out.ephemeral, **kw)
    for p in out.public:
        await answer.public(p)
    mp = map_post(out, *(await _render_map(out, service)))
    if mp is not None:
        if out.map_after and out.map_after[1]:
            await answer.private(mp, out.map_after[0])
        else:
            await answer.public(mp)
    if not posted:
        await _post_elsewhere(interaction.client, out, service, limit)  # e.g. the welcome in a game's new thread
    await _send_dms(interaction, out, service, limit, answer)
    for tid in out.archive_rooms:  # a game that ended: its seats' private threads close with it
        try:
            thread = interaction.client.get_channel(tid) or await interaction.client.fetch_channel(tid)
            await thread.edit(archived=True)
        except discord.HTTPException:
            log.warning("could not archive the private thread %s", tid)
    for game_id, seat, uid in out.leave_rooms:  # issue 28: a holder who left reads the seat's thread no more
        await leave_room(interaction.client, service, game_id, seat, uid)
    for tid, uid, add in out.room_moves:  # issue 28: the players' private rooms follow a seat that changed hands
        try:
            thread = interaction.client.get_channel(tid) or await interaction.client.fetch_channel(tid)
            await (thread.add_user if add else thread.remove_user)(discord.Object(uid))
        except discord.HTTPException:
            log.warning("could not %s %s in the private room %s", "add" if add else "remove", uid, tid)
    if out.probe is not None and not late:
        probe_note = await _probe(interaction, out.probe, service)
    if probe_note:
        try:
            await interaction.followup.send(probe_note, ephemeral=True)
        except discord.HTTPException:
            log.warning("could not tell %s how their private information will reach them", uid)
    if not late and service.table.delivery.holds(uid):  # what could not reach this player before: now, privately
        ids, texts = await service.table.delivery.waiting(uid)
        try:
            for t in texts:
                await interaction.followup.send(t, ephemeral=True, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            log.warning("could not show held messages to %s", uid)
        else:
            await service.table.delivery.shown(uid, ids)


async def _post_elsewhere(client, out: Outcome, service: GameService, limit: int) -> str | None:
    """``out.elsewhere``'s posts, each channel's in turn: None if every one was made, else why the first that
    was not could not be (``posts.cannot_post``). A channel where the bot lacks a permission the post needs is
    not tried: Discord's refusal would not name the permission."""
    why = None
    for cid, posts in out.elsewhere.items():
        try:
            channel = client.get_channel(cid) or await client.fetch_channel(cid)
            missing = missing_permissions(channel, posts)
            if missing:
                why = why or cannot_post(cid, missing=missing)
                continue
            for p in posts:
                for kw in _kwargs(p, limit):
                    msg = await channel.send(**kw)
            if out.seat_board is not None:  # the server's open-seat board (issue 28): edited in place later
                await service.seats.board_placed(out.seat_board, cid, msg.id)
        except discord.HTTPException as e:
            log.warning("could not post in channel %s: %s", cid, e)
            why = why or cannot_post(cid, e)
    return why


async def edit_seat_board(client, service: GameService, guild_id: int | None) -> None:
    """The server's open-seat board (`/game board`, issue 28), edited to read as it is now."""
    try:
        got = await service.seats.board_update(guild_id)
        if got is None:
            return
        channel_id, message_id, text, buttons = got
        channel = client.get_channel(channel_id) or await client.fetch_channel(channel_id)
        await channel.get_partial_message(message_id).edit(
            content=text, view=buttons_view(buttons) if buttons else None,
            allowed_mentions=discord.AllowedMentions.none())
    except discord.HTTPException:  # deleted or out of reach: `/game board` posts a new one
        log.warning("could not edit the open-seat board of server %s", guild_id)


async def refresh_seat_board(interaction: discord.Interaction) -> None:
    """After a command that may change which seats are open: the server's board, if it has one."""
    if interaction.guild_id is not None:
        await edit_seat_board(interaction.client, interaction.client.service, interaction.guild_id)


async def _send_dms(interaction: discord.Interaction, out: Outcome, service: GameService, limit: int,
                    answer: _Answer) -> None:
    """``out.dms`` by the private way; the caller hears privately where a copy of their own went
    (``/secret``) and what could not be delivered (a whisper held for later); the table is told once
    when a player cannot be reached privately at all."""
    notes: list[str] = []
    for uid, posts in out.dms.items():
        sent = await send_private(interaction.client, service, uid, posts, limit)
        copies = [s for s in sent if s.post.copy]
        if copies and uid == interaction.user.id:
            notes.append(where_text(copies))
        notes += [s.post.undelivered for s in sent if s.via == HELD and s.post.undelivered
                  and s.post.undelivered not in notes]
        held = [s for s in sent if s.via in (HELD, NONE)]
        # that hidden information changed (and when) may itself be a secret: a quiet post that could
        # not be delivered is never announced in the channel; its reader sees it at their next command
        if held and not all(s.post.quiet for s in held):
            await tell_table_once(interaction.client, service, next((s.post.game_id for s in held), None), uid)
    if notes:
        for chunk in split_text("\n".join(notes), 2000):
            try:
                await answer.private(Post(text=chunk))
            except discord.HTTPException:
                log.warning("could not tell %s where their private messages went", interaction.user.id)


PROBE_TEXT = ("You hold **{seat}** in a game in <#{channel}>. Its private information (hidden from the other "
              "players) will come to you here, by direct message.")


async def _probe(interaction: discord.Interaction, probe: tuple[int, int, str], service: GameService) -> str | None:
    """A seat taken in a game with hidden information: can the holder be reached by DM? If not, the
    note to tell them privately, with the way their private information will take instead."""
    uid, game_id, seat = probe
    try:
        user = interaction.client.get_user(uid) or await interaction.client.fetch_user(uid)
        await user.send(PROBE_TEXT.format(seat=seat_title(seat), channel=interaction.channel_id),
                        allowed_mentions=discord.AllowedMentions.none())
        return None
    except discord.Forbidden:
        pass
    except discord.HTTPException:
        log.warning("delivery check for %s failed", uid)
        return None
    tid = await seat_room(interaction.client, service, game_id, seat, uid)
    if tid is not None:
        text = (f"I cannot send you direct messages (your DMs from this server are closed). Your private "
                f"information in this game will go to your private thread <#{tid}>: only you, the bot and the "
                "moderator read it. To get it by DM instead, allow direct messages from this server's members.")
    else:
        text = ("I cannot send you direct messages (your DMs from this server are closed), and I may not open a "
                "private thread here. Your private information will be shown to you alone each time you use a "
                "command here. To fix it: allow direct messages from this server's members, or ask a moderator "
                "to give me Create Private Threads.")
        await tell_table_once(interaction.client, service, game_id, uid)
    return text


class PalantirTree(app_commands.CommandTree):
    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
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

    def __init__(self, cfg: Config, service: GameService | None = None, **options):
        """``options``: discord.py's own (the shards below; tests pass ``guild_ready_timeout``)."""
        gateway.install()  # a frame it cannot read is dropped, not the process; text made valid (issue 39)
        self.gateway_drops = gateway.DropLog()
        intents = discord.Intents.default()
        # message events only where they are read: the private rooms kept for the export (cogs/game.py:
        # on_message). Otherwise Discord would send the bot every message of its servers, its own answers
        # included, and discord.py would build an object of each (issue 25: a part of each order's cost)
        intents.guild_messages = intents.dm_messages = intents.message_content = bool(cfg.discord.keep_rooms)
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None,
                         tree_cls=PalantirTree, http_trace=callback.TRACE, **options)
        self.cfg = cfg
        self.service = service
        self.backlog = Backlog()  # how late the loop runs, the interactions not yet acknowledged (issue 39)
        self._own_store: Store | None = None
        self._render_pool = None
        self._wake = asyncio.Event()
        self._scheduler_task: asyncio.Task | None = None
        self._stopping = False  # close() has begun
        self._closing: asyncio.Future | None = None
        self.scheduler_idle = False  # waiting for its next wake-up, between steps (tests wait on it)
        # set by a process that runs this bot alone (run_bot, tests/load_runner.py): see freeze_start_heap
        self.freeze_heap = False

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
            from render.hex_base import set_cache_dir

            set_cache_dir(self.cfg.render.cache_dir)  # before the workers start: they inherit it
            if self.cfg.render.workers:
                from bot.render_pool import RenderPool

                self._render_pool = RenderPool(self.cfg.render.workers)
            self.service = GameService(self._own_store, deadline_defaults=self.cfg.deadlines.rules(), shard=shard,
                                       render_pool=self._render_pool)
        self.service.table.on_timers_changed = self._wake.set
        n = await self.service.table.warm()
        log.info("loaded %d live games (event loop: %s)", n, loop_name(asyncio.get_running_loop()))
        if (k := await self.service.recovery.announce_unanswered()):
            log.warning("announced %d answers stored before a restart but never delivered", k)
        self._scheduler_task = asyncio.create_task(self._scheduler(), name="palantir-scheduler")
        # (issue 39) how late the loop runs, from here: the start-up's own long work (the games loaded, the answers
        # announced) is done and is no backlog. Not from the gateway's ready: a bot whose guilds come slowly takes
        # interactions before it, and a late loop must be seen then too (tests/e2e/test_backlog_e2e.py)
        self.backlog.start()
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
        if self.freeze_heap:
            freeze_start_heap()
        while not self.is_closed() and not self._stopping:
            # cleared before the step, not after: a timer added while the step runs (an order that makes an
            # autopilot seat due now, issue 28) wakes the next step at once, where clearing after it lost
            # that wake-up until the next poll (issue 39: seen as a test waiting 15 s on a 30 s poll)
            self._wake.clear()
            try:
                await self.service.clocks.fire_due()
                await self.service.digest.send_digests()  # issue 41: the players' daily digests that fell due
                await self.flush_outbox()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("scheduler step failed")
            self.scheduler_idle = True
            try:
                await asyncio.wait_for(self._wake.wait(), self.cfg.deadlines.poll_seconds)
            except asyncio.TimeoutError:
                pass
            self.scheduler_idle = False

    async def flush_outbox(self) -> int:
        store = self.service.store
        sent = 0
        for item in await store.pending_outbox():
            if item["payload"].get("seatboard"):  # the server's open-seat board (issue 28)
                await edit_seat_board(self, self.service, item["payload"]["seatboard"])
                await store.mark_sent(item["id"], self.service.table.clock())
                sent += 1
                continue
            if item["payload"].get("board"):  # the status board, edited in place as it reads now
                await self._edit_board(item["payload"]["board"])
                await store.mark_sent(item["id"], self.service.table.clock())
                sent += 1
                continue
            try:
                post = await self.service.clocks.outbox_post(item["payload"])
            except Exception:  # a drawing failure must not hold the notice back
                log.exception("outbox %s: could not prepare the map", item["id"])
                post = Post(text=item["payload"].get("text", ""), mentions=list(item["payload"].get("mentions") or []))
            nonce = f"palantir-{item['id']}"
            try:
                if item["user_id"]:  # a private message: by DM, else the seat's private thread, else held
                    post.game_id, post.seat = item["game_id"], item["payload"].get("seat")
                    post.quiet = bool(item["payload"].get("quiet"))
                    sent = await send_private(self, self.service, item["user_id"], [post],
                                              discord.utils.DEFAULT_FILE_SIZE_LIMIT_BYTES)
                    if sent[0].via == HELD and not post.quiet:
                        await tell_table_once(self, self.service, item["game_id"], item["user_id"])
                else:
                    target = self.get_channel(item["channel_id"]) or await self.fetch_channel(item["channel_id"])
                    for i, kw in enumerate(_kwargs(post, discord.utils.DEFAULT_FILE_SIZE_LIMIT_BYTES)):
                        await target.send(nonce=f"{nonce}-{i}", **kw)
            except discord.Forbidden:
                log.warning("outbox %s: cannot send (forbidden); dropped", item["id"])
            except discord.HTTPException:
                log.exception("outbox %s: send failed; will retry", item["id"])
                continue
            await store.mark_sent(item["id"], self.service.table.clock())
            sent += 1
        return sent

    async def _edit_board(self, game_id: int) -> None:
        edit = await self.service.views.board_edit(game_id)
        if edit is None:
            return
        channel_id, message_id, text = edit
        try:
            channel = self.get_channel(channel_id) or await self.fetch_channel(channel_id)
            await channel.get_partial_message(message_id).edit(content=text, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:  # deleted or out of reach: the next `/game status public:true` posts a new one
            log.warning("could not edit the status board %s", message_id)

    async def close(self) -> None:
        """Once, whoever asks first (SIGTERM's stop, ``async with``'s end, a test): a second call waits for the
        first, and a caller cancelled meanwhile does not cut the store's close short (issue 39)."""
        if self._closing is None:
            self._closing = asyncio.ensure_future(self._close_once())
        await asyncio.shield(self._closing)

    async def _close_once(self) -> None:
        self.backlog.stop()
        self._stopping = True  # (the scheduler's loop ends on it even where a cancel is lost in a wait_for)
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


def make_bot(cfg: Config, service: GameService | None = None, **options) -> commands.Bot:
    """The bot ``cfg`` asks for; ``options`` go to discord.py's client as they are."""
    d = cfg.discord
    if not d.shard_count:
        return PalantirBot(cfg, service, **options)
    ids = list(d.shard_ids or range(d.shard_count))
    return ShardedPalantirBot(cfg, service, shard_ids=ids, shard_count=d.shard_count, **options)


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


def freeze_start_heap() -> int:
    """Once the bot is ready (its games warmed, Discord's guilds and members cached), what is alive then lives
    as long as the process: moved out of the garbage collector's sight (``gc.freeze``), so a full collection
    no longer scans it. Measured in the bot under ``benchmarks/bench_ack.py`` (100 games, 300 orders/s):
    full collections of 15-50 ms, each a pause of every game's orders, fell to 2-8 ms. Only for a process
    that runs this bot alone: a test process that starts many bots would keep each one's leftovers. Returns
    the objects frozen."""
    import gc

    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()


async def run_bot(cfg: Config, stop: asyncio.Event | None = None) -> int:
    """Run until stopped (``stop`` set: the bot closes itself, as on SIGTERM, bot/cli.py); a known start-up
    failure raises ``StartupError`` (one line)."""
    closer = None
    try:
        await configure_endpoints(cfg)
        bot = make_bot(cfg)
        bot.freeze_heap = True  # this process runs this bot alone
        if stop is not None:
            async def close_when_asked() -> None:
                await stop.wait()
                await bot.close()

            closer = asyncio.create_task(close_when_asked(), name="palantir-stop")
        async with bot:
            await bot.start(cfg.token)
    except Exception as e:
        line = startup_error(e, cfg.discord.api_base or None)
        if line is None:
            raise
        raise StartupError(line) from None
    finally:
        if closer is not None:
            if stop.is_set():
                await closer  # (bot.close, once: the store's close is not cut short)
            else:
                closer.cancel()
    return 0
