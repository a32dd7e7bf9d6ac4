"""Slash commands for games: thin translations to GameService calls."""
from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import discord
from discord import app_commands
from discord.ext import commands

from bot.transports.discord_app import ctx_of, defer, deliver, guarded, refresh_seat_board
from bot.service import MAX_CHARTS_BYTES, Outcome, PlaceError, charts_text
from engine.rulesets import ruleset_names


def _service(interaction: discord.Interaction):
    return interaction.client.service

async def answer(interaction: discord.Interaction, method: Callable[..., Awaitable[Outcome]], *args,
                 public: bool = False) -> None:
    """The usual command body: call ``method``, a service part's method (``svc.orders.order``), with the
    caller's context and ``args``, deferring if it is slow (privately unless ``public`` is the likely
    answer), and deliver what it says."""
    out = method(ctx_of(interaction), *args)
    await deliver(interaction, await guarded(interaction, out, not public), _service(interaction))



def present_in(interaction: discord.Interaction):
    """Issue 41: which of some users are still members of the interaction's server (a player who left is not
    shown in a table). Discord is asked by id, 100 at a time, over the gateway (no privileged intent needed; the
    member cache alone would not know who left); if it does not answer, the cache decides."""

    async def present(user_ids: list[int]) -> set[int]:
        guild = interaction.guild
        if guild is None:
            return set()
        here: set[int] = set()
        for i in range(0, len(user_ids), 100):
            ids = user_ids[i:i + 100]
            try:
                here |= {m.id for m in await guild.query_members(user_ids=ids, limit=100, cache=False)}
            except (asyncio.TimeoutError, discord.ClientException):
                here |= {u for u in ids if guild.get_member(u) is not None}
        return here

    return present


YES = ("yes", "y", "true", "on", "1")
NO = ("no", "n", "false", "off", "0")


def thread_opener(interaction: discord.Interaction, name: str | None):
    """How ``/game new thread:`` opens its thread: a public thread of the channel the command
    was used in, named ``name`` (or the service's default). Failures become ``PlaceError``s,
    which the service answers privately (and then creates no game)."""

    async def open_thread(default_name: str) -> int:
        channel = interaction.channel
        if isinstance(channel, discord.Thread):
            raise PlaceError("this is already a thread; use `/game new` here without `thread`")
        if not isinstance(channel, discord.TextChannel):
            raise PlaceError("threads can be opened only in a server's text channel")
        perms = interaction.app_permissions
        if not (perms.create_public_threads and perms.send_messages_in_threads):
            raise PlaceError("I lack the Create Public Threads (or Send Messages in Threads) permission "
                             "in this channel; a moderator can grant it, or create the game without `thread`")
        try:
            made = await channel.create_thread(name=(name or default_name)[:100], type=discord.ChannelType.public_thread,
                                               auto_archive_duration=10080, reason="a palantir game")
        except discord.Forbidden:
            raise PlaceError("Discord refused to let me open a thread here (missing permission); "
                             "a moderator can grant Create Public Threads, or create the game without `thread`") from None
        except discord.HTTPException as e:
            raise PlaceError(f"Discord could not open the thread ({e.status}: {str(e.text)[:80]}); try again") from None
        return made.id

    return open_thread


def room_opener(interaction: discord.Interaction):
    """How `/game table` opens a private room: a private thread of the game's channel (of its parent,
    when the game is in a thread) with the given members; failures become ``PlaceError``s."""

    async def open_room(name: str, user_ids: list[int]) -> int:
        channel = interaction.channel
        base = channel.parent if isinstance(channel, discord.Thread) else channel
        if not isinstance(base, discord.TextChannel):
            raise PlaceError("private threads can be opened only in a server's text channel")
        perms = base.permissions_for(base.guild.me) if base.guild and base.guild.me else interaction.app_permissions
        if not (perms.create_private_threads and perms.send_messages_in_threads):
            raise PlaceError("I lack the Create Private Threads (or Send Messages in Threads) permission here; "
                             "use `/whisper` instead, or a moderator can grant it")
        try:
            made = await base.create_thread(name=name[:100], type=discord.ChannelType.private_thread, invitable=False,
                                            auto_archive_duration=10080, reason="a palantir game's private room")
            for uid in user_ids:
                await made.add_user(discord.Object(id=uid))
        except discord.Forbidden:
            raise PlaceError("Discord refused to let me open a private thread here (missing permission)") from None
        except discord.HTTPException as e:
            raise PlaceError(f"Discord could not open the private thread ({e.status}); try again") from None
        return made.id

    return open_room


_ZONES: list[str] = []


def zones_matching(current: str) -> list[str]:
    """Up to 25 IANA zones containing what was typed (the tz database from `tzdata`)."""
    if not _ZONES:
        from zoneinfo import available_timezones

        _ZONES.extend(sorted(z for z in available_timezones() if "/" in z and not z.startswith(("Etc/", "SystemV/"))))
        _ZONES.append("UTC")
    cur = (current or "").strip().lower()
    starts = [z for z in _ZONES if z.lower().startswith(cur)]
    rest = [z for z in _ZONES if cur in z.lower() and z not in starts]
    return (starts + rest)[:25]


class GameCog(commands.Cog):
    def __init__(self, bot: commands.Bot):
        self.bot = bot

    game = app_commands.Group(name="game", description="Create, join and run a game in this channel",
                              guild_only=True)

    @game.command(name="new", description="Create a game in this channel (or in a new thread of it)")
    @app_commands.describe(ruleset="Which game", options="key=value pairs (variants, deadlines)",
                           thread="Open a public thread for the game: `yes`, or the thread's name",
                           charts="A chart file (TOML, at most 64 KB) overriding the ruleset's charts",
                           template="A set-up saved in this server (`/template list`); options given here override it")
    @app_commands.choices(ruleset=[app_commands.Choice(name=n, value=n) for n in ruleset_names()])
    async def new(self, interaction: discord.Interaction, ruleset: str | None = None, options: str | None = None,
                  thread: app_commands.Range[str, 1, 100] | None = None, charts: discord.Attachment | None = None,
                  template: app_commands.Range[str, 1, 40] | None = None):
        svc = _service(interaction)
        ctx = ctx_of(interaction)

        if charts is not None:  # downloading and checking a chart file may take a moment: acknowledge first,
            await defer(interaction, True)  # privately: a refusal is private (issue 39), a new game posted below

        async def run() -> Outcome:
            text = None
            if charts is not None:
                if (charts.size or 0) > MAX_CHARTS_BYTES:
                    return Outcome.error(f"No game was created: the chart file is {charts.size // 1024} KB; "
                                         f"at most {MAX_CHARTS_BYTES // 1024} KB.")
                try:
                    text = charts_text(await charts.read())
                except ValueError as e:
                    return Outcome.error(f"No game was created: {e}.")
                except discord.HTTPException:
                    return Outcome.error("No game was created: I could not download the chart file; try again.")
            opener = None
            if thread is not None and thread.strip().lower() not in NO:
                opener = thread_opener(interaction, None if thread.strip().lower() in YES else thread.strip())
            return await svc.lobby.new_game(ctx, ruleset or "", options, charts=text, open_thread=opener,
                                            template=template)

        # a slow check of a group's charts given in the options is acknowledged privately too: they may be
        # refused (issue 39); a plain new game, slow under load, is acknowledged in public, where it is answered
        charted = charts is not None or "charts=" in (options or "")
        await deliver(interaction, await guarded(interaction, run(), charted), svc)
        await refresh_seat_board(interaction)

    @new.autocomplete("template")
    async def new_template(self, interaction: discord.Interaction, current: str):
        names = await _service(interaction).templates.autocomplete_template(ctx_of(interaction), current)
        return [app_commands.Choice(name=n, value=n) for n in names[:25]]

    @game.command(name="rematch", description="Play this channel's finished game again, each player confirming")
    @app_commands.describe(swap="Sides swapped (rotated one place with more than two)")
    async def rematch(self, interaction: discord.Interaction, swap: bool = False):
        await answer(interaction, _service(interaction).rematch.rematch, swap, public=True)

    @game.command(name="table", description="A private thread for each pair of seats (creator or Manage Server)")
    @app_commands.describe(seats="Only these seats, one room: e.g. good+evil (default: every pair)")
    async def table(self, interaction: discord.Interaction, seats: app_commands.Range[str, 1, 100] | None = None):
        svc = _service(interaction)
        out = svc.lobby.table_rooms(ctx_of(interaction), room_opener(interaction), seats)
        await deliver(interaction, await guarded(interaction, out, False), svc)

    @game.command(name="join", description="Take a seat")
    @app_commands.describe(seat="The seat to take")
    async def join(self, interaction: discord.Interaction, seat: str):
        await answer(interaction, _service(interaction).lobby.join, seat, public=True)
        await refresh_seat_board(interaction)

    @join.autocomplete("seat")
    async def join_seat(self, interaction: discord.Interaction, current: str):
        names = await _service(interaction).lobby.autocomplete_seat(ctx_of(interaction), current)
        return [app_commands.Choice(name=n, value=n) for n in names[:25]]

    @game.command(name="leave", description="Give up your seat (in a running game: it goes on autopilot, open for takeover)")
    async def leave(self, interaction: discord.Interaction):
        await answer(interaction, _service(interaction).lobby.leave, public=True)
        await refresh_seat_board(interaction)

    @game.command(name="start", description="Start once every seat is taken; publishes the dice commitment")
    async def start(self, interaction: discord.Interaction):
        await answer(interaction, _service(interaction).lobby.start, public=True)
        await refresh_seat_board(interaction)

    @game.command(name="status", description="Turn, phase, who must act, the tracks")
    @app_commands.describe(public="Post it in the channel as the status board, edited in place after every order")
    async def status(self, interaction: discord.Interaction, public: bool = False):
        await answer(interaction, _service(interaction).views.status, public, public=public)

    @game.command(name="map", description="The public map, or your own seat's view (private)")
    @app_commands.describe(around="Zoom in on this hex (XXYY) or area", mine="Your own seat's view, privately",
                           whole="The whole map (by default: where the action is)",
                           radius="With around: hexes either side, 2 to 12 (default 5)")
    async def map(self, interaction: discord.Interaction, around: app_commands.Range[str, 1, 40] | None = None,
                  mine: bool = False, whole: bool = False, radius: app_commands.Range[int, 2, 12] | None = None):
        svc = _service(interaction)
        await defer(interaction, mine)  # drawing can take a moment
        await deliver(interaction, await svc.views.map(ctx_of(interaction), around, mine, whole, radius), svc)

    @map.autocomplete("around")
    async def map_around(self, interaction: discord.Interaction, current: str):
        pairs = await _service(interaction).views.autocomplete_around(ctx_of(interaction), current)
        return [app_commands.Choice(name=n, value=v) for n, v in pairs[:25]]

    @game.command(name="log", description="The public log, in order notation")
    @app_commands.describe(last="How many orders (default 20)")
    async def log(self, interaction: discord.Interaction, last: app_commands.Range[int, 1, 200] | None = None):
        await answer(interaction, _service(interaction).views.log, last)

    @game.command(name="export", description="The game as JSON (the dice seed only once it is over), or an HTML record")
    @app_commands.describe(format="json (default) or html: one page with every step's map and the log",
                           since="html: `last` or `turn N` (a part of the game)")
    @app_commands.choices(format=[app_commands.Choice(name="json", value="json"),
                                  app_commands.Choice(name="html", value="html")])
    async def export(self, interaction: discord.Interaction, format: app_commands.Choice[str] | None = None,
                     since: app_commands.Range[str, 1, 40] | None = None):
        await answer(interaction, _service(interaction).archive.export, format.value if format else "json", since)

    @game.command(name="end", description="End the game (creator or Manage Server)")
    async def end(self, interaction: discord.Interaction):
        await answer(interaction, _service(interaction).lobby.end, public=True)

    @game.command(name="extend", description="Give the current phase more time (creator or Manage Server)")
    @app_commands.describe(hours="How many hours to add to the deadline")
    async def extend(self, interaction: discord.Interaction, hours: app_commands.Range[int, 1, 720]):
        await answer(interaction, _service(interaction).clocks.extend, hours, public=True)

    @game.command(name="pause", description="Stop the deadline clock (creator or Manage Server)")
    async def pause(self, interaction: discord.Interaction):
        await answer(interaction, _service(interaction).clocks.pause, public=True)

    @game.command(name="resume", description="Restart the deadline clock (creator or Manage Server)")
    async def resume(self, interaction: discord.Interaction):
        await answer(interaction, _service(interaction).clocks.resume, public=True)

    @game.command(name="sub", description="Hand a seat to someone else (creator or Manage Server)")
    @app_commands.describe(seat="The seat", user="Its new holder")
    async def sub(self, interaction: discord.Interaction, seat: str, user: discord.Member):
        svc = _service(interaction)
        out = svc.lobby.sub(ctx_of(interaction), seat, user.id, user_is_bot=user.bot)
        await deliver(interaction, await guarded(interaction, out, False), svc)

    @sub.autocomplete("seat")
    async def sub_seat(self, interaction: discord.Interaction, current: str):
        names = await _service(interaction).lobby.autocomplete_taken_seat(ctx_of(interaction), current)
        return [app_commands.Choice(name=n, value=n) for n in names[:25]]

    @game.command(name="takeover", description="Take a seat that is on autopilot (issue 28)")
    @app_commands.describe(seat="The seat on autopilot")
    async def takeover(self, interaction: discord.Interaction, seat: str):
        await answer(interaction, _service(interaction).seats.takeover, seat, public=True)
        await refresh_seat_board(interaction)

    @takeover.autocomplete("seat")
    async def takeover_seat(self, interaction: discord.Interaction, current: str):
        names = await _service(interaction).seats.autocomplete_takeover_seat(ctx_of(interaction), current)
        return [app_commands.Choice(name=n, value=n) for n in names[:25]]

    @game.command(name="open", description="This server's games with a free seat or a seat up for takeover")
    async def open_(self, interaction: discord.Interaction):
        await answer(interaction, _service(interaction).seats.open_games)

    @game.command(name="board", description="Keep the open-seat list as one message in a channel (Manage Server)")
    @app_commands.describe(channel="Where the board is kept")
    async def board(self, interaction: discord.Interaction, channel: discord.TextChannel):
        await answer(interaction, _service(interaction).seats.set_seat_board, channel.id)

    @game.command(name="spectate", description="Ask to watch this game (the creator admits; the public view only)")
    async def spectate(self, interaction: discord.Interaction):
        await answer(interaction, _service(interaction).lobby.spectate, public=True)

    @game.command(name="admit", description="Admit a spectator, or decline one who asked (creator or Manage Server)")
    @app_commands.describe(user="Who watches", admit="Admit (default) or decline")
    async def admit(self, interaction: discord.Interaction, user: discord.Member, admit: bool = True):
        svc = _service(interaction)
        out = svc.lobby.admit(ctx_of(interaction), user.id, admit, user_is_bot=user.bot)
        await deliver(interaction, await guarded(interaction, out, False), svc)

    @game.command(name="undo", description="Take back your last action (others confirm past a die roll)")
    async def undo(self, interaction: discord.Interaction):
        await answer(interaction, _service(interaction).undo.undo)

    @game.command(name="replay", description="An animated replay from your own view (everything, once over)")
    @app_commands.describe(since="`last` (your last move) or `turn N`; default: the whole game")
    async def replay(self, interaction: discord.Interaction, since: app_commands.Range[str, 1, 40] | None = None):
        svc = _service(interaction)
        await defer(interaction, True)  # drawing many frames takes a moment
        await deliver(interaction, await svc.archive.replay(ctx_of(interaction), since), svc)

    @replay.autocomplete("since")
    async def replay_since(self, interaction: discord.Interaction, current: str):
        opts = ["last"] + [f"turn {n}" for n in range(1, 17)]
        cur = (current or "").lower()
        return [app_commands.Choice(name=o, value=o) for o in opts if cur in o][:25]

    # ----------------------------------------------------------- private rooms, kept for the export
    @commands.Cog.listener()
    async def on_message(self, message: discord.Message):
        if message.guild is None or message.author.bot or not isinstance(message.channel, discord.Thread):
            return
        svc = getattr(self.bot, "service", None)
        if svc is None or not self.bot.cfg.discord.keep_rooms:
            return
        try:
            await svc.lobby.room_message(message.channel.id, message.author.id, message.content, message.id)
        except Exception:  # noqa: BLE001 (a room message not kept must not stop the bot)
            import logging

            logging.getLogger(__name__).exception("could not keep a private room's message")

    # ----------------------------------------------------------- buttons
    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction):
        if interaction.type != discord.InteractionType.component:
            return
        cid = (interaction.data or {}).get("custom_id", "")
        if cid.startswith("rule:"):  # a declared action's Accept / Refuse (assist play)
            svc = _service(interaction)
            try:
                _, gid, did, vote = cid.split(":")
                game_id = int(gid)
            except ValueError:
                await interaction.response.send_message("That button is not one of mine.", ephemeral=True)
                return
            out = await guarded(interaction, svc.orders.rule_vote(ctx_of(interaction), game_id, did, vote == "y"))
            await deliver(interaction, out, svc)
            return
        if cid.startswith("ans:"):  # an answer by button (Sauron 22.3: Accept / Decline a challenge)
            svc = _service(interaction)
            try:
                _, gid, seat, text = cid.split(":", 3)
                game_id = int(gid)
            except ValueError:
                await interaction.response.send_message("That button is not one of mine.", ephemeral=True)
                return
            out = await guarded(interaction, svc.orders.answer_button(ctx_of(interaction), game_id, seat, text))
            await deliver(interaction, out, svc)
            return
        if cid.startswith("spec:"):  # a spectator's request: Admit / Decline (the creator's)
            svc = _service(interaction)
            try:
                _, gid, uid, vote = cid.split(":")
                game_id, user_id = int(gid), int(uid)
            except ValueError:
                await interaction.response.send_message("That button is not one of mine.", ephemeral=True)
                return
            out = await guarded(interaction, svc.lobby.admit(ctx_of(interaction), user_id, vote == "y", game_id))
            await deliver(interaction, out, svc)
            return
        if cid.startswith(("rematch:", "rmv:")):  # issue 41: the end-of-game Rematch buttons; a rematch's answers
            svc = _service(interaction)
            try:
                parts = cid.split(":")
                game_id = int(parts[1])
                if parts[0] == "rematch":
                    coro = svc.rematch.rematch(ctx_of(interaction), parts[2:] == ["swap"], game_id)
                else:
                    coro = svc.rematch.rematch_vote(ctx_of(interaction), game_id, int(parts[2]), parts[3] == "y",
                                            thread_opener(interaction, None))
            except (ValueError, IndexError):
                await interaction.response.send_message("That button is not one of mine.", ephemeral=True)
                return
            await deliver(interaction, await guarded(interaction, coro, False), svc)
            return
        if cid.startswith("checkin:"):  # issue 28: a player checks in once the game is full
            svc = _service(interaction)
            try:
                game_id = int(cid.split(":")[1])
            except (ValueError, IndexError):
                await interaction.response.send_message("That button is not one of mine.", ephemeral=True)
                return
            await deliver(interaction, await guarded(interaction, svc.lobby.checkin(ctx_of(interaction), game_id)), svc)
            await refresh_seat_board(interaction)
            return
        if cid.startswith(("sjoin:", "stake:", "tkv:")):  # issue 28: the open-seat list, a takeover vote
            svc = _service(interaction)
            try:
                kind, gid, rest = cid.split(":", 2)
                game_id = int(gid)
            except ValueError:
                await interaction.response.send_message("That button is not one of mine.", ephemeral=True)
                return
            if kind == "sjoin":
                coro = svc.seats.join_game(ctx_of(interaction), game_id, rest)
            elif kind == "stake":
                coro = svc.seats.takeover_game(ctx_of(interaction), game_id, rest)
            else:
                seat, _, vote = rest.partition(":")
                coro = svc.seats.takeover_vote(ctx_of(interaction), game_id, seat, vote == "y")
            await deliver(interaction, await guarded(interaction, coro), svc)
            await refresh_seat_board(interaction)
            return
        if cid.startswith("res:"):  # issue 41: a page of `/stats`' players or of `/ratings`
            svc = _service(interaction)
            try:
                _, kind, ruleset, page = cid.split(":")
                page_no = int(page)
            except ValueError:
                await interaction.response.send_message("That button is not one of mine.", ephemeral=True)
                return
            method = svc.results.ratings if kind == "ratings" else svc.results.stats
            out = await guarded(interaction, method(ctx_of(interaction), None if ruleset == "*" else ruleset,
                                                    present=present_in(interaction), page=page_no))
            await deliver(interaction, out, svc)
            return
        if not cid.startswith("undo:"):
            return
        svc = _service(interaction)
        try:
            _, req, at, vote = cid.split(":")
            req_id, at_seq = int(req), int(at)
        except ValueError:
            await interaction.response.send_message("That button is not one of mine.", ephemeral=True)
            return
        out = await guarded(interaction, svc.undo.undo_vote(ctx_of(interaction), req_id, at_seq, vote == "y"))
        await deliver(interaction, out, svc)

    # ----------------------------------------------------------- orders
    @app_commands.command(name="order", description="Give an order; autocomplete offers every legal one")
    @app_commands.describe(text="The order in notation, e.g. deploy OA1 2325", seat="If you hold several seats")
    @app_commands.guild_only()
    async def order(self, interaction: discord.Interaction, text: str, seat: str | None = None):
        await answer(interaction, _service(interaction).orders.order, text, seat)

    @order.autocomplete("text")
    async def order_text(self, interaction: discord.Interaction, current: str):
        texts = await _service(interaction).orders.autocomplete_order(ctx_of(interaction), current, limit=25)
        return [app_commands.Choice(name=t, value=t) for t in texts]

    @app_commands.command(name="whisper", description="A private message to another seat (the moderator reads it too)")
    @app_commands.describe(seat="The seat to whisper to", text="What to say")
    @app_commands.guild_only()
    async def whisper(self, interaction: discord.Interaction, seat: str, text: app_commands.Range[str, 1, 300]):
        await answer(interaction, _service(interaction).orders.whisper, seat, text)

    @whisper.autocomplete("seat")
    async def whisper_seat(self, interaction: discord.Interaction, current: str):
        names = await _service(interaction).lobby.autocomplete_taken_seat(ctx_of(interaction), current)
        return [app_commands.Choice(name=n, value=n) for n in names[:25]]

    @app_commands.command(name="done", description="End your part of the current phase")
    @app_commands.describe(seat="If you hold several seats")
    @app_commands.guild_only()
    async def done(self, interaction: discord.Interaction, seat: str | None = None):
        await answer(interaction, _service(interaction).orders.done, seat)

    @app_commands.command(name="odds", description="Exact outcome probabilities of a proposed attack, privately")
    @app_commands.describe(text="The attack in order notation")
    @app_commands.guild_only()
    async def odds(self, interaction: discord.Interaction, text: app_commands.Range[str, 1, 200]):
        await answer(interaction, _service(interaction).orders.odds, text)

    @odds.autocomplete("text")
    async def odds_text(self, interaction: discord.Interaction, current: str):
        texts = await _service(interaction).orders.autocomplete_order(ctx_of(interaction), current, limit=25)
        return [app_commands.Choice(name=t, value=t) for t in texts]

    # ----------------------------------------------------------- you
    me = app_commands.Group(name="me", description="Your games, record, quiet hours and absences")

    @me.command(name="quiet", description="No pings in these hours; deadlines move out of them")
    @app_commands.rename(start="from", end="to")
    @app_commands.describe(start="Start, hh:mm (your local time)", end="End, hh:mm", tz="IANA time zone, e.g. Europe/London")
    async def quiet(self, interaction: discord.Interaction, start: app_commands.Range[str, 1, 5],
                    end: app_commands.Range[str, 1, 5], tz: app_commands.Range[str, 1, 64]):
        await answer(interaction, _service(interaction).clocks.set_quiet, start, end, tz)

    @quiet.autocomplete("tz")
    async def quiet_tz(self, interaction: discord.Interaction, current: str):
        return [app_commands.Choice(name=z, value=z) for z in zones_matching(current)]

    @me.command(name="away", description="Away until a date: your seats' deadlines wait")
    @app_commands.describe(until="YYYY-MM-DD (the last day away), or `off`")
    async def away(self, interaction: discord.Interaction, until: app_commands.Range[str, 1, 20]):
        await answer(interaction, _service(interaction).clocks.set_away, until)

    @me.command(name="games", description="Every game you hold a seat in, in every server, and which wait for you")
    async def my_games(self, interaction: discord.Interaction):
        names = {g.id: g.name for g in interaction.client.guilds}
        await answer(interaction, _service(interaction).seats.my_games, names)

    @me.command(name="record", description="Your record: phases on time, games finished, seats taken over, your ratings")
    async def record(self, interaction: discord.Interaction):
        await answer(interaction, _service(interaction).results.record)

    @me.command(name="autoplay", description="The bot plays your forced actions (a single legal one) and says so")
    @app_commands.describe(value="on or off")
    @app_commands.choices(value=[app_commands.Choice(name="on", value="on"), app_commands.Choice(name="off", value="off")])
    async def autoplay(self, interaction: discord.Interaction, value: str):
        await answer(interaction, _service(interaction).seats.autoplay, value)

    @me.command(name="digest", description="One private message a day at this local time, when something waits")
    @app_commands.describe(at="hh:mm in your time zone (`/me quiet tz:`, else UTC), or `off`")
    async def digest(self, interaction: discord.Interaction, at: app_commands.Range[str, 1, 5]):
        await answer(interaction, _service(interaction).digest.set_digest, at)

    # ----------------------------------------------------------- saved set-ups (issue 41)
    template = app_commands.Group(name="template", description="Set-ups saved in this server, for `/game new template:`",
                                  guild_only=True)

    @template.command(name="save", description="Save a set-up: a ruleset and its options")
    @app_commands.describe(name="A short name, unique in this server", ruleset="Which game",
                           options="key=value pairs, as `/game new options:`")
    @app_commands.choices(ruleset=[app_commands.Choice(name=n, value=n) for n in ruleset_names()])
    async def template_save(self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 40], ruleset: str,
                            options: app_commands.Range[str, 1, 500] | None = None):
        await answer(interaction, _service(interaction).templates.template_save, name, ruleset, options, public=True)

    @template.command(name="list", description="The set-ups saved in this server")
    @app_commands.describe(page="Which page (20 a page)")
    async def template_list(self, interaction: discord.Interaction, page: app_commands.Range[int, 1, 100] | None = None):
        await answer(interaction, _service(interaction).templates.template_list, page)

    @template.command(name="delete", description="Delete a saved set-up (who saved it, or Manage Server)")
    @app_commands.describe(name="The set-up")
    async def template_delete(self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 40]):
        await answer(interaction, _service(interaction).templates.template_delete, name, public=True)

    @template_delete.autocomplete("name")
    async def template_delete_name(self, interaction: discord.Interaction, current: str):
        names = await _service(interaction).templates.autocomplete_template(ctx_of(interaction), current)
        return [app_commands.Choice(name=n, value=n) for n in names[:25]]
    @app_commands.command(name="stats", description="This server's finished games: wins per side, lengths; a player's results")
    @app_commands.describe(ruleset="Only this game", player="This player's results by ruleset and side")
    @app_commands.choices(ruleset=[app_commands.Choice(name=n, value=n) for n in ruleset_names()])
    @app_commands.guild_only()
    async def stats(self, interaction: discord.Interaction, ruleset: str | None = None,
                    player: discord.Member | None = None):
        svc = _service(interaction)
        out = svc.results.stats(ctx_of(interaction), ruleset, player.id if player else None,
                                present=present_in(interaction))
        await deliver(interaction, await guarded(interaction, out, True), svc)

    @app_commands.command(name="ratings", description="This server's ratings of games played with rated=on")
    @app_commands.describe(ruleset="Only this game (its whole table, in pages)")
    @app_commands.choices(ruleset=[app_commands.Choice(name=n, value=n) for n in ruleset_names()])
    @app_commands.guild_only()
    async def ratings(self, interaction: discord.Interaction, ruleset: str | None = None):
        svc = _service(interaction)
        out = svc.results.ratings(ctx_of(interaction), ruleset, present=present_in(interaction))
        await deliver(interaction, await guarded(interaction, out, True), svc)

    @app_commands.command(name="secret", description="Re-send your hidden information privately")
    @app_commands.guild_only()
    async def secret(self, interaction: discord.Interaction):
        await answer(interaction, _service(interaction).views.secret)

    @app_commands.command(name="help", description="How to play here")
    @app_commands.describe(topic="A topic of this channel's game (orders, …) or a ruleset")
    async def help(self, interaction: discord.Interaction, topic: app_commands.Range[str, 0, 40] | None = None):
        await answer(interaction, _service(interaction).views.help, topic)

    @help.autocomplete("topic")
    async def help_topic(self, interaction: discord.Interaction, current: str):
        names = await _service(interaction).views.help_topics(ctx_of(interaction), current)
        return [app_commands.Choice(name=n, value=n) for n in names[:25]]

    @app_commands.command(name="rule", description="A rule case looked up, privately: by its number (16.71) or a word (oil)")
    @app_commands.describe(case="A case number or a word", ruleset="Which game's rules (outside a game)")
    @app_commands.choices(ruleset=[app_commands.Choice(name=n, value=n) for n in ruleset_names()])
    async def rule(self, interaction: discord.Interaction, case: app_commands.Range[str, 1, 60], ruleset: str | None = None):
        await answer(interaction, _service(interaction).views.rule, case, ruleset)

    @rule.autocomplete("case")
    async def rule_case(self, interaction: discord.Interaction, current: str):
        ruleset = getattr(interaction.namespace, "ruleset", None)
        pairs = await _service(interaction).views.autocomplete_rule(ctx_of(interaction), current, ruleset)
        return [app_commands.Choice(name=n, value=v) for n, v in pairs[:25]]


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(GameCog(bot))
