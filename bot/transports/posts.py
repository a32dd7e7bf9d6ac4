"""A post as discord.py's ``send()`` keyword sets: the text split at 2,000 characters, files on the
last (or a line saying what is over the upload limit), pings only for the post's own mentions, its
buttons. Used for every message the bot sends: answers, channel posts, DMs, private threads. And why a post
could not go to a channel, said to the player (issue 39: no answer claims a post that was not made)."""
from __future__ import annotations

import io

import discord

from bot.outcome import Post, split_text


def send_kwargs(post: Post, limit: int) -> list[dict]:
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


# the permissions a post in a channel needs, by discord.py's name and as the server settings name them
_NEEDED = (("view_channel", "View Channel"), ("send_messages", "Send Messages"))
_NEEDED_IN_THREAD = (("view_channel", "View Channel"), ("send_messages_in_threads", "Send Messages in Threads"))
_FILES = ("attach_files", "Attach Files")


def missing_permissions(channel, posts: list[Post]) -> list[str]:
    """The permissions the bot lacks to make ``posts`` in a guild ``channel`` (by their names in the server's
    settings); [] when it has them, or when the channel is not a guild's (nothing to check)."""
    guild = getattr(channel, "guild", None)
    me = guild.me if guild is not None else None
    if me is None or not hasattr(channel, "permissions_for"):
        return []
    perms = channel.permissions_for(me)
    needed = list(_NEEDED_IN_THREAD if isinstance(channel, discord.Thread) else _NEEDED)
    if any(p.image is not None or p.attachment is not None for p in posts):
        needed.append(_FILES)
    return [name for attr, name in needed if not getattr(perms, attr)]


def cannot_post(channel_id: int, error: discord.HTTPException | None = None, missing: list[str] = ()) -> str:
    """Why a post could not be made in a channel, in a few words (the caller says what was not done)."""
    if missing:
        return f"I lack the **{'** and **'.join(missing)}** permission in <#{channel_id}>"
    if isinstance(error, discord.NotFound):
        return "I cannot find that channel (deleted, or not one I can reach)"
    if isinstance(error, discord.Forbidden):
        if error.code == 50001:
            return f"I cannot see <#{channel_id}> (the **View Channel** permission)"
        return f"Discord refused to let me post in <#{channel_id}> (a missing permission, such as **Send Messages**)"
    status = getattr(error, "status", "?")
    return f"Discord did not take the post in <#{channel_id}> ({status}); try again"
