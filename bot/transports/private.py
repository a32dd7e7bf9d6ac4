"""Private messages on Discord (issue 25): a direct message; when Discord refuses it (closed DMs,
50007), the seat's private thread in the game's channel; when the bot may not open one, held for
the player's next command (``bot/delivery.py`` keeps the record and what is held).

``send_private`` returns where each message went, so no caller claims a delivery that did not
happen."""
from __future__ import annotations

import logging
from dataclasses import dataclass, replace

import discord

from bot.delivery import VIA_THREAD
from bot.outcome import Post
from bot.transports.posts import send_kwargs

log = logging.getLogger("palantir")

DM, THREAD, HELD, NONE = "dm", "thread", "held", "none"

CLOSED_NO_THREADS = ("<@{uid}> cannot receive direct messages from me, and I may not open private threads here. "
                     "To fix it: allow direct messages from this server's members (Privacy Settings), or give me "
                     "**Create Private Threads** in this channel. Until then their private information is shown "
                     "to them alone when they next use a command here.")


@dataclass
class Sent:
    post: Post
    via: str  # DM, THREAD, HELD or NONE (a copy no way took)
    where: int | None = None  # the thread


def post_kwargs(post: Post, limit: int, *, mention: int | None = None) -> list[dict]:
    """send() keyword sets for a private post; ``mention``: ping that user once (a private thread,
    where a plain message may not notify)."""
    if mention is not None:
        post = replace(post, text=f"<@{mention}> {post.text or ''}", mentions=[mention])
    return send_kwargs(post, limit)


async def send_private(client: discord.Client, service, user_id: int, posts: list[Post], limit: int) -> list[Sent]:
    """Each post to ``user_id`` by the first way that takes it (see the module's docstring)."""
    user = None
    try:
        user = client.get_user(user_id) or await client.fetch_user(user_id)
    except discord.HTTPException:
        log.warning("cannot find user %s for a private message", user_id)
    out = []
    for p in posts:
        out.append(await _send_one(client, service, user, user_id, p, limit))
    return out


async def _send_one(client, service, user, user_id: int, p: Post, limit: int) -> Sent:
    if user is not None:
        try:
            for kw in post_kwargs(p, limit):
                await user.send(**kw)
            return Sent(p, DM)
        except discord.Forbidden:
            pass  # closed DMs (50007): the fallback
        except discord.HTTPException:
            log.exception("DM to %s failed; trying the fallback", user_id)
    delivery = service.table.delivery
    if p.game_id is not None:
        tid = await seat_room(client, service, p.game_id, p.seat, user_id)
        if tid is not None:
            try:
                thread = client.get_channel(tid) or await client.fetch_channel(tid)
                for kw in post_kwargs(p, limit, mention=user_id):
                    await thread.send(**kw)
                await delivery.went(p.game_id, p.seat, user_id, VIA_THREAD)
                return Sent(p, THREAD, tid)
            except discord.HTTPException:
                log.exception("could not post in the private thread %s of game %s", tid, p.game_id)
    if p.copy:  # the answer itself showed it: nothing to hold
        return Sent(p, NONE)
    text = p.text + ("\n(A map went with it: `/game map mine:true` shows it.)" if p.image else "")
    await delivery.hold(user_id, p.game_id, p.seat, text)
    return Sent(p, HELD)


async def seat_room(client: discord.Client, service, game_id: int, seat: str | None, user_id: int) -> int | None:
    """The seat's private thread in the game's channel (of its parent, when the game is in a thread),
    with the seat's holder and the moderator's; opened on first need; None if the bot may not."""
    delivery = service.table.delivery
    place = await delivery.place(game_id, seat, user_id)
    if place is None:
        return None
    seat, channel_id, gm_user, title = place
    async with delivery.room_locks[(game_id, seat)]:  # one thread a seat, whoever asks at once
        room = await delivery.room(game_id, seat)
        if room is not None:
            tid, added, gm_added = room
            if (added, gm_added) != (user_id, gm_user or 0):
                # the seat changed hands (the new holder joins, the old one leaves), or a moderator came
                try:
                    thread = client.get_channel(tid) or await client.fetch_channel(tid)
                    for uid in {user_id, gm_user} - {added, gm_added, None, 0}:
                        await thread.add_user(discord.Object(uid))
                    for uid in {added, gm_added} - {user_id, gm_user, None, 0}:
                        await thread.remove_user(discord.Object(uid))
                    await delivery.set_room(game_id, seat, tid, user_id, gm_user)
                except discord.NotFound:
                    room = None  # deleted: open a new one below
                except discord.HTTPException:
                    log.exception("could not hand the private thread %s to %s", tid, user_id)
            if room is not None:
                return tid
        try:
            channel = client.get_channel(channel_id) or await client.fetch_channel(channel_id)
        except discord.HTTPException:
            return None
        base = channel.parent if isinstance(channel, discord.Thread) else channel
        if not isinstance(base, discord.TextChannel):
            return None
        me = base.guild.me if base.guild else None
        if me is not None:
            perms = base.permissions_for(me)
            if not (perms.create_private_threads and perms.send_messages_in_threads):
                return None
        try:
            thread = await base.create_thread(name=f"{title} — private"[:100], type=discord.ChannelType.private_thread,
                                              invitable=False, auto_archive_duration=10080,
                                              reason="a palantir seat's private information (DMs closed)")
            await thread.add_user(discord.Object(user_id))
            if gm_user and gm_user != user_id:
                await thread.add_user(discord.Object(gm_user))
        except discord.HTTPException:
            log.warning("could not open a private thread for game %s seat %s", game_id, seat)
            return None
        await delivery.set_room(game_id, seat, thread.id, user_id, gm_user)
        return thread.id


async def leave_room(client: discord.Client, service, game_id: int, seat: str, user_id: int) -> bool:
    """Issue 28: a holder who left a running game is taken out of the seat's private thread (the seat's
    secrets go on being posted there for its next holder). True if they were in it and are out."""
    delivery = service.table.delivery
    async with delivery.room_locks[(game_id, seat)]:
        room = await delivery.room(game_id, seat)
        if room is None or room[1] != user_id:
            return False
        tid, _, gm_added = room
        try:
            thread = client.get_channel(tid) or await client.fetch_channel(tid)
            await thread.remove_user(discord.Object(user_id))
        except discord.NotFound:
            pass  # the thread is gone: nobody reads it
        except discord.HTTPException:
            log.exception("could not take %s out of the private thread %s", user_id, tid)
            return False
        await delivery.set_room(game_id, seat, tid, 0, gm_added)  # the next holder is added on first need
        return True


async def tell_table_once(client: discord.Client, service, game_id: int | None, user_id: int) -> bool:
    """The table is told, once a game, that a player cannot be reached privately at all."""
    if game_id is None or await service.table.delivery.told(game_id, user_id):
        return False
    channel_id = await service.table.delivery.channel_of(game_id)
    if channel_id is None:
        return False
    try:
        channel = client.get_channel(channel_id) or await client.fetch_channel(channel_id)
        await channel.send(CLOSED_NO_THREADS.format(uid=user_id),
                           allowed_mentions=discord.AllowedMentions(users=[discord.Object(user_id)]))
    except discord.HTTPException:
        log.warning("could not tell game %s's channel that %s cannot be reached", game_id, user_id)
        return False
    await service.table.delivery.mark_told(game_id, user_id)
    return True


def where_text(sent: list[Sent]) -> str:
    """One line for the player: where a copy of their private information went."""
    ways = {s.via for s in sent}
    threads = sorted({s.where for s in sent if s.where})
    if ways == {DM}:
        return "A copy went to you by direct message."
    if THREAD in ways:
        return (f"Your DMs are closed, so a copy went to your private thread {' '.join(f'<#{t}>' for t in threads)} "
                "(only you, the bot and the moderator read it).")
    return ("Your DMs are closed and I may not open a private thread here, so this reply is your only copy: "
            "allow direct messages from this server's members to get them by DM.")
