"""The ways in: Discord (``discord_app``: the bot, its scheduler and ``deliver``; ``endpoints``:
which REST and gateway servers it talks to) and the local console (``console``: a game in the
terminal, no token needed). Each turns a command into a ``GameService`` call and its ``Outcome``
into messages."""
