"""Saved set-ups (issue 41): `/template save name: ruleset: [options:]`, `/template list`, `/template delete
name:`, and `/game new template:<name>`, whose options given beside it override the set-up's, key by key.

Per server, names short and case-insensitive unique (``name_key``: the name folded). A set-up is refused at
save time exactly as `/game new` would refuse it (``Lobby.checked_setup``: the typed reader of
engine/options.py, naming the ruleset and the option), so a saved set-up always makes a game.

``Templates(table, lobby)`` is a part of the service like the others: it holds the table and the lobby
(whose checks it uses) and calls only public methods. ``template_setup`` is what `/game new` reads."""
from __future__ import annotations

import re

from engine.modes import split_name
from engine.options import OptionError, pairs
from bot.outcome import MAX_TEXT, Ctx, Outcome, clip

MAX_NAME = 32  # characters of a set-up's name
MAX_OPTIONS = 500  # characters of its options
MAX_TEMPLATES = 200  # set-ups a server keeps
PAGE = 20  # set-ups a page of `/template list` shows
_NAME = re.compile(r"^[\w][\w .'-]*$")


def name_key(name: str) -> str:
    """A set-up's name as it is compared: case and inner spaces folded (``Weekly  Siege`` is ``weekly siege``)."""
    return " ".join((name or "").split()).casefold()


def name_refusal(name: str) -> str | None:
    """Why ``name`` cannot name a set-up (None: it can)."""
    shown = " ".join((name or "").split())
    if not shown:
        return "Give the set-up a name: `/template save name:<name> ruleset:<game>`."
    if len(shown) > MAX_NAME or not _NAME.match(shown):
        return (f"A set-up's name is 1 to {MAX_NAME} letters, digits, spaces, `-`, `_`, `.` or `'`, starting with a "
                f"letter or digit; not `{clip(shown, 40)}`.")
    return None


async def template_setup(store, guild_id: int | None, name: str, ruleset: str | None, options_text: str | None,
                         charts_given: bool = False) -> tuple[str, dict] | Outcome:
    """`/game new template:<name> [options:]`: the saved set-up's ruleset and its options, those typed beside it
    overriding the set-up's key by key (a chart file given beside it replaces the set-up's `charts=`); or the
    refusal. The result goes through `/game new`'s own checks (``Lobby.create``)."""
    if guild_id is None:
        return Outcome.error("Saved set-ups belong to a server: use `/game new template:` there.")
    t = await store.template(guild_id, name_key(name))
    if t is None:
        return Outcome.error(f"This server has no saved set-up named `{clip(' '.join(name.split()), 40)}` "
                             "(`/template list` shows them).")
    if ruleset and split_name(ruleset)[0] != split_name(t["ruleset"])[0]:
        return Outcome.error(f"The set-up `{t['name']}` is a game of `{t['ruleset']}`, not `{clip(ruleset, 30)}`: leave "
                             "`ruleset` out, or name that one.")
    try:
        options = pairs(t["options"], t["ruleset"])
        given = pairs(options_text, t["ruleset"])
    except OptionError as e:
        return Outcome.error(f"Bad options: {e}", MAX_TEXT)
    if charts_given:
        options.pop("charts", None)
    options.update(given)  # key by key: what is typed beside the set-up wins
    return t["ruleset"], options


class Templates:
    """`/template save`, `/template list`, `/template delete` and their autocomplete: an object holding the
    table and the lobby (whose `/game new` checks a set-up passes before it is saved)."""

    def __init__(self, table, lobby):
        self.table = table
        self.lobby = lobby

    async def template_save(self, ctx: Ctx, name: str, ruleset: str, options_text: str | None = None) -> Outcome:
        if ctx.guild_id is None:
            return Outcome.error("Saved set-ups belong to a server: save one there.")
        if (why := name_refusal(name)) is not None:
            return Outcome.error(why)
        shown = " ".join(name.split())
        text = " ".join((options_text or "").split())
        if len(text) > MAX_OPTIONS:
            return Outcome.error(f"A set-up's options are at most {MAX_OPTIONS} characters; attach a chart file to "
                                 "`/game new` instead.")
        got = await self.lobby.checked_setup(ruleset, text or None)  # `/game new`'s own checks, nothing created
        if isinstance(got, Outcome):
            got.reply.text = "Not saved. " + got.reply.text
            return got
        store = self.table.store
        if len(await store.templates(ctx.guild_id)) >= MAX_TEMPLATES:
            return Outcome.error(f"This server keeps {MAX_TEMPLATES} set-ups at most: delete one first "
                                 "(`/template delete`).")
        if not await store.save_template(ctx.guild_id, name_key(shown), shown, ruleset, text, ctx.user_id,
                                         self.table.clock()):
            old = await store.template(ctx.guild_id, name_key(shown))
            return Outcome.error(f"This server has a set-up named `{old['name']}` already (names are the same "
                                 "whatever their case): choose another name, or `/template delete` it first.")
        return Outcome.public_reply(f"<@{ctx.user_id}> saved the set-up **{shown}**: `{ruleset}`"
                                    + (f" with `{clip(text, 300)}`" if text else "") + ". Play it with "
                                    f"`/game new template:{shown}` (options given beside it override these).")

    async def template_list(self, ctx: Ctx, page: int | None = None) -> Outcome:
        if ctx.guild_id is None:
            return Outcome.error("Saved set-ups belong to a server: list them there.")
        rows = await self.table.store.templates(ctx.guild_id)
        if not rows:
            return Outcome.private("This server has no saved set-up yet: `/template save name:<name> ruleset:<game> "
                                   "[options:<key=value ...>]`.")
        pages = (len(rows) + PAGE - 1) // PAGE
        try:
            n = int(page) if page is not None else 1
        except (TypeError, ValueError):
            n = 0
        if not 1 <= n <= pages:
            return Outcome.error(f"There {'is' if pages == 1 else 'are'} {pages} page{'s' if pages > 1 else ''} of "
                                 f"set-ups: `/template list page:<1-{pages}>`.")
        lines = [f"**Saved set-ups in this server** ({len(rows)}; page {n} of {pages}):"]
        for t in rows[(n - 1) * PAGE:n * PAGE]:
            lines.append(clip(f"- **{t['name']}**: `{t['ruleset']}`" + (f" `{t['options']}`" if t["options"] else "")
                              + f" (by <@{t['creator_id']}>)", 90))
        if n < pages:
            lines.append(f"Next: `/template list page:{n + 1}`.")
        return Outcome.private(clip("\n".join(lines), MAX_TEXT))

    async def template_delete(self, ctx: Ctx, name: str) -> Outcome:
        if ctx.guild_id is None:
            return Outcome.error("Saved set-ups belong to a server: delete one there.")
        t = await self.table.store.template(ctx.guild_id, name_key(name))
        if t is None:
            return Outcome.error(f"This server has no saved set-up named `{clip(' '.join((name or '').split()), 40)}` "
                                 "(`/template list` shows them).")
        if t["creator_id"] != ctx.user_id and not ctx.is_moderator:
            return Outcome.error(f"Only <@{t['creator_id']}>, who saved `{t['name']}`, or a member with Manage Server "
                                 "deletes it.")
        await self.table.store.delete_template(ctx.guild_id, t["name_key"])
        return Outcome.public_reply(f"<@{ctx.user_id}> deleted the set-up **{t['name']}**.")

    async def autocomplete_template(self, ctx: Ctx, current: str) -> list[str]:
        """The server's set-ups whose name holds what was typed (Discord shows 25 at most)."""
        if ctx.guild_id is None:
            return []
        cur = name_key(current)
        return [t["name"] for t in await self.table.store.templates(ctx.guild_id) if cur in t["name_key"]][:25]
