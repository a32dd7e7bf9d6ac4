"""A post as discord.py's ``send()`` keyword sets: the text split at 2,000 characters, files on the
last (or a line saying what is over the upload limit), pings only for the post's own mentions, its
buttons. Used for every message the bot sends: answers, channel posts, DMs, private threads."""
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
