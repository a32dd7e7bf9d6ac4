"""Slash commands for games: thin translations to GameService calls."""
from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_app import ctx_of, defer, deliver, guarded
from engine.core import ruleset_names


def _service(interaction: discord.Interaction):
    return interaction.client.service


class GameCog(commands.Cog):
    def __init__(self, bot: commands.Bot):
        self.bot = bot

    game = app_commands.Group(name="game", description="Create, join and run a game in this channel",
                              guild_only=True)

    @game.command(name="new", description="Create a game in this channel")
    @app_commands.describe(ruleset="Which game", options="key=value pairs (variants, chart overrides)")
    @app_commands.choices(ruleset=[app_commands.Choice(name=n, value=n) for n in ruleset_names()])
    async def new(self, interaction: discord.Interaction, ruleset: str, options: str | None = None):
        svc = _service(interaction)
        await deliver(interaction, await guarded(interaction, svc.new_game(ctx_of(interaction), ruleset, options), False), svc)

    @game.command(name="join", description="Take a seat")
    @app_commands.describe(seat="The seat to take")
    async def join(self, interaction: discord.Interaction, seat: str):
        svc = _service(interaction)
        await deliver(interaction, await guarded(interaction, svc.join(ctx_of(interaction), seat), False), svc)

    @join.autocomplete("seat")
    async def join_seat(self, interaction: discord.Interaction, current: str):
        names = await _service(interaction).autocomplete_seat(ctx_of(interaction), current)
        return [app_commands.Choice(name=n, value=n) for n in names[:25]]

    @game.command(name="leave", description="Give up your seat (before the game starts)")
    async def leave(self, interaction: discord.Interaction):
        svc = _service(interaction)
        await deliver(interaction, await guarded(interaction, svc.leave(ctx_of(interaction)), False), svc)

    @game.command(name="start", description="Start once every seat is taken; publishes the dice commitment")
    async def start(self, interaction: discord.Interaction):
        svc = _service(interaction)
        await deliver(interaction, await guarded(interaction, svc.start(ctx_of(interaction)), False), svc)

    @game.command(name="status", description="Turn, phase, who must act, the tracks")
    async def status(self, interaction: discord.Interaction):
        svc = _service(interaction)
        await deliver(interaction, await guarded(interaction, svc.status(ctx_of(interaction))), svc)

    @game.command(name="map", description="The public map, or your own seat's view (private)")
    @app_commands.describe(around="Centre on this hex (XXYY)", mine="Your own seat's view, privately")
    async def map(self, interaction: discord.Interaction, around: str | None = None, mine: bool = False):
        svc = _service(interaction)
        await defer(interaction, mine)  # drawing can take a moment
        await deliver(interaction, await svc.map(ctx_of(interaction), around, mine), svc)

    @game.command(name="log", description="The public log, in order notation")
    @app_commands.describe(last="How many orders (default 20)")
    async def log(self, interaction: discord.Interaction, last: app_commands.Range[int, 1, 200] | None = None):
        svc = _service(interaction)
        await deliver(interaction, await guarded(interaction, svc.log(ctx_of(interaction), last)), svc)

    @game.command(name="export", description="The game as JSON (the dice seed only once it is over)")
    async def export(self, interaction: discord.Interaction):
        svc = _service(interaction)
        await deliver(interaction, await guarded(interaction, svc.export(ctx_of(interaction))), svc)

    @game.command(name="end", description="End the game (creator or Manage Server)")
    async def end(self, interaction: discord.Interaction):
        svc = _service(interaction)
        await deliver(interaction, await guarded(interaction, svc.end(ctx_of(interaction)), False), svc)

    # ----------------------------------------------------------- orders
    @app_commands.command(name="order", description="Give an order; autocomplete offers every legal one")
    @app_commands.describe(text="The order in notation, e.g. deploy OA1 2325", seat="If you hold several seats")
    @app_commands.guild_only()
    async def order(self, interaction: discord.Interaction, text: str, seat: str | None = None):
        svc = _service(interaction)
        await deliver(interaction, await guarded(interaction, svc.order(ctx_of(interaction), text, seat)), svc)

    @order.autocomplete("text")
    async def order_text(self, interaction: discord.Interaction, current: str):
        texts = await _service(interaction).autocomplete_order(ctx_of(interaction), current, limit=25)
        return [app_commands.Choice(name=t, value=t) for t in texts]

    @app_commands.command(name="done", description="End your part of the current phase")
    @app_commands.describe(seat="If you hold several seats")
    @app_commands.guild_only()
    async def done(self, interaction: discord.Interaction, seat: str | None = None):
        svc = _service(interaction)
        await deliver(interaction, await guarded(interaction, svc.done(ctx_of(interaction), seat)), svc)

    @app_commands.command(name="secret", description="Re-send your hidden information privately")
    @app_commands.guild_only()
    async def secret(self, interaction: discord.Interaction):
        svc = _service(interaction)
        await deliver(interaction, await guarded(interaction, svc.secret(ctx_of(interaction))), svc)

    @app_commands.command(name="help", description="How to play here")
    @app_commands.describe(topic="A ruleset")
    @app_commands.choices(topic=[app_commands.Choice(name=n, value=n) for n in ruleset_names()])
    async def help(self, interaction: discord.Interaction, topic: str | None = None):
        svc = _service(interaction)
        await deliver(interaction, await guarded(interaction, svc.help(ctx_of(interaction), topic)), svc)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(GameCog(bot))
