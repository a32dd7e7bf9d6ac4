"""`/roll`: dice for any group, no game needed."""
from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.transports.discord_app import ctx_of, deliver


class DiceCog(commands.Cog):
    def __init__(self, bot: commands.Bot):
        self.bot = bot

    @app_commands.command(name="roll", description="Roll dice: 2d6+1, 4d6kh3, 1d20+5 attack; 2d6 damage, 3#1d20")
    @app_commands.describe(dice="Dice expression", reason="What the roll is for", private="Only you see it")
    async def roll(self, interaction: discord.Interaction, dice: app_commands.Range[str, 1, 200],
                   reason: app_commands.Range[str, 1, 200] | None = None, private: bool = False):
        svc = interaction.client.service
        await deliver(interaction, await svc.orders.roll(ctx_of(interaction), dice, reason, private), svc)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(DiceCog(bot))
