"""Self-tests for the fake Discord: a real discord.py bot talks to it over loopback."""

from __future__ import annotations

import asyncio
import io
import logging
import struct
import zlib

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from bot.transports.endpoints import apply_api_base, apply_gateway, resolve_gateway
from tests.fakediscord import Attachment, FakeDiscord


def tiny_png() -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(b"\x00\xff\x00\x00")) + chunk(b"IEND", b""))


PNG = tiny_png()
FRUITS = [f"fruit-{i:02d}" for i in range(40)]


class ButtonView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=60)

    @discord.ui.button(label="Press", custom_id="press", style=discord.ButtonStyle.primary)
    async def press(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.edit_message(content=f"pressed by {interaction.user.name}", view=None)

    @discord.ui.button(label="Later", custom_id="later")
    async def later(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.defer()  # type 6: deferred update of the button's message
        await asyncio.sleep(0.05)
        await interaction.edit_original_response(content="updated later")

    @discord.ui.button(label="Reply", custom_id="reply")
    async def reply(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_message("private reply", ephemeral=True)


class Survey(discord.ui.Modal, title="Survey"):
    answer = discord.ui.TextInput(label="Favourite wizard", custom_id="answer")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"you said {self.answer.value}", ephemeral=True)


class MenuView(discord.ui.View):
    @discord.ui.select(custom_id="side", options=[discord.SelectOption(label="Free Peoples", value="free"),
                                                  discord.SelectOption(label="Shadow", value="shadow")])
    async def side(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.send_message(f"side {select.values[0]}", ephemeral=True)


class FakeBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default(), help_command=None,
                         guild_ready_timeout=0.05)
        self.http_errors: list[int] = []
        self.done: list[str] = []  # commands that keep working after answering report here
        ping = app_commands.Group(name="ping", description="Ping things")

        @ping.command(name="me", description="Answer pong")
        async def ping_me(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("pong", ephemeral=True)

        @ping.command(name="echo", description="Echo typed options")
        async def ping_echo(interaction: discord.Interaction, text: str, times: int, loud: bool = False,
                            who: discord.Member | None = None) -> None:
            out = " ".join([text.upper() if loud else text] * times)
            if who is not None:
                out += f" for {who.name} ({type(who).__name__})"
            await interaction.response.send_message(out)

        self.tree.add_command(ping)

        @self.tree.command(name="slow", description="Defer, then send a picture")
        async def slow(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            await asyncio.sleep(0.2)
            await interaction.followup.send("here is your map", file=discord.File(io.BytesIO(PNG), "map.png"))

        @self.tree.command(name="order", description="Pick a fruit")
        async def order(interaction: discord.Interaction, text: str) -> None:
            await interaction.response.send_message(f"ordered {text}")

        @order.autocomplete("text")
        async def order_complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
            return [app_commands.Choice(name=f, value=f) for f in FRUITS if current in f][:25]

        @self.tree.command(name="longchoice", description="Autocomplete with a 101-character choice")
        async def longchoice(interaction: discord.Interaction, text: str) -> None:
            await interaction.response.send_message(text)

        @longchoice.autocomplete("text")
        async def longchoice_complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
            return [app_commands.Choice(name="n" * 101, value="v")]

        @self.tree.command(name="toomany", description="Autocomplete with too many choices")
        async def toomany(interaction: discord.Interaction, text: str) -> None:
            await interaction.response.send_message(text)

        @toomany.autocomplete("text")
        async def toomany_complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
            return [app_commands.Choice(name=f, value=f) for f in FRUITS]

        @self.tree.command(name="buttons", description="Post buttons")
        async def buttons(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("choose", view=ButtonView())

        @self.tree.command(name="dm", description="DM me")
        async def dm(interaction: discord.Interaction) -> None:
            await interaction.user.send("a secret", file=discord.File(io.BytesIO(b"orders"), "orders.txt"))
            await interaction.response.send_message("check your DMs", ephemeral=True)

        @self.tree.command(name="long", description="Reply with 2001 characters")
        async def long(interaction: discord.Interaction) -> None:
            try:
                await interaction.response.send_message("x" * 2001)
            except discord.HTTPException as exc:
                self.http_errors.append(exc.code)
                await interaction.response.send_message("too long", ephemeral=True)

        @self.tree.command(name="sleepy", description="Sleep 3.5 s without deferring")
        async def sleepy(interaction: discord.Interaction) -> None:
            await asyncio.sleep(3.5)
            try:
                await interaction.response.send_message("too late")
            except discord.NotFound as exc:
                self.http_errors.append(exc.code)

        @self.tree.command(name="thread", description="Post and open a thread")
        async def thread(interaction: discord.Interaction) -> None:
            await interaction.response.defer(ephemeral=True)
            assert isinstance(interaction.channel, discord.TextChannel)
            post = await interaction.channel.send("game thread starter")
            th = await post.create_thread(name="game 1")
            await th.send("welcome to the game")
            await post.edit(content="game thread starter (open)")
            side = await interaction.channel.create_thread(name="side talk", type=discord.ChannelType.public_thread)
            await side.send("psst")
            await interaction.followup.send(f"thread {th.id}", ephemeral=True)

        @self.tree.command(name="mod", description="Moderators only")
        @app_commands.default_permissions(manage_guild=True)
        async def mod(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("hello moderator", ephemeral=True)

        @self.tree.command(name="upload", description="Inspect an uploaded file")
        async def upload(interaction: discord.Interaction, file: discord.Attachment, note: str = "") -> None:
            data = await file.read()
            await interaction.response.send_message(f"{file.filename}: {len(data)} bytes {note}".strip(),
                                                    file=discord.File(io.BytesIO(data[::-1]), "reversed.bin"))

        @self.tree.command(name="steps", description="Respond, edit, follow up, edit the followup")
        async def steps(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("step 1")
            await interaction.edit_original_response(content="step 1 (edited)")
            extra = await interaction.followup.send("step 2", ephemeral=True, wait=True)
            await extra.edit(content="step 2 (edited)")
            gone = await interaction.followup.send("step 3", wait=True)
            await gone.delete()
            original = await interaction.original_response()
            assert original.content == "step 1 (edited)"
            self.done.append("steps")

        @self.tree.command(name="survey", description="Open a modal")
        async def survey(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(Survey())

        @self.tree.command(name="menu", description="Post a select menu")
        async def menu(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("pick", view=MenuView(), ephemeral=True)

        @self.tree.context_menu(name="Inspect")
        async def inspect(interaction: discord.Interaction, member: discord.Member) -> None:
            await interaction.response.send_message(f"inspected {member.name}", ephemeral=True)

    async def setup_hook(self) -> None:
        await self.tree.sync()


class _ErrorLog(logging.Handler):
    """Collects ERROR records from discord.py and asyncio (e.g. "Ignoring exception in ...",
    "Unclosed client session", "Task was destroyed but it is pending")."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(f"{record.name}: {record.getMessage()}")


@pytest.fixture
async def env():
    errors = _ErrorLog()
    for name in ("discord", "asyncio"):
        logging.getLogger(name).addHandler(errors)
    server = FakeDiscord()
    await server.start()
    gid = server.add_guild("Middle-earth")
    cid = server.add_channel(gid, "general")
    alice = server.add_user("alice", guild_id=gid)
    mod = server.add_user("gandalf", guild_id=gid, manage_guild=True)

    apply_api_base(server.api_base)
    apply_gateway(await resolve_gateway(server.api_base, None, server.token))
    bot = FakeBot()
    bot.log_errors = errors.records
    task = asyncio.create_task(bot.start(server.token))
    try:
        await server.wait_ready(timeout=10)
        yield server, bot, gid, cid, alice, mod
    finally:
        await bot.close()
        await asyncio.wait_for(task, 10)
        await server.stop()
        apply_api_base(None)
        apply_gateway(None)
        for name in ("discord", "asyncio"):
            logging.getLogger(name).removeHandler(errors)
    assert errors.records == [], "discord.py/asyncio logged errors"
    assert server.internal_errors == []


async def test_endpoints_helpers():
    import discord
    import discord.gateway
    import discord.http

    assert await resolve_gateway(None, None, "t") is None
    assert await resolve_gateway("http://x/api/v10", "ws://y/gw", "t") == "ws://y/gw"
    async with FakeDiscord() as server:
        assert await resolve_gateway(server.api_base, None, server.token) == server.gateway_url
        assert server.authorizations == [f"Bot {server.token}"]
        with pytest.raises(discord.LoginFailure):  # another token is refused, as Discord does
            await resolve_gateway(server.api_base, None, "t")
    apply_api_base("http://proxy:1/api/v10/")
    apply_gateway("ws://proxy:1/gateway")
    try:
        assert discord.http.Route("GET", "/users/@me").url == "http://proxy:1/api/v10/users/@me"
        assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == "ws://proxy:1/gateway"
    finally:
        apply_api_base(None)
        apply_gateway(None)
    assert discord.http.Route("GET", "/x").url == "https://discord.com/api/v10/x"
    assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == "wss://gateway.discord.gg/"


async def test_login_and_sync(env):
    server, bot, gid, cid, alice, mod = env
    assert bot.user is not None and bot.user.id == server.bot_user_id
    assert {c["name"] for c in server.commands()} >= {"ping", "slow", "order", "buttons", "dm"}
    assert server.authorizations == [f"Bot {server.token}"]
    assert server.gateway_connections[0] == {"v": "10", "encoding": "json", "compress": "zlib-stream"}
    mod_cmd = next(c for c in server.commands() if c["name"] == "mod")
    assert mod_cmd["default_member_permissions"] == "32"  # manage_guild
    guild = bot.get_guild(gid)
    assert guild is not None and guild.get_channel(cid).name == "general"
    server.assert_clean()


async def test_slash_subcommand_ephemeral(env):
    server, bot, gid, cid, alice, mod = env
    result = await server.slash(alice, cid, "ping", "me")
    assert result.callback_type == 4
    assert result.content == "pong" and result.ephemeral
    assert server.messages(cid) == []  # ephemeral: not public
    assert [m.content for m in server.all_visible_to(alice)] == ["pong"]
    assert server.all_visible_to(mod) == []
    server.assert_clean()


async def test_slash_typed_options(env):
    server, bot, gid, cid, alice, mod = env
    result = await server.slash(alice, cid, "ping", "echo", options={"text": "hi", "times": 2, "loud": True, "who": mod})
    assert result.content == "HI HI for gandalf (Member)"
    assert not result.ephemeral
    assert [m.content for m in server.messages(cid)] == ["HI HI for gandalf (Member)"]
    with pytest.raises(ValueError):
        await server.slash(alice, cid, "ping", "echo", options={"text": "hi"})  # times is required
    with pytest.raises(ValueError):
        await server.slash(alice, cid, "ping", "echo", options={"text": "hi", "times": "2"})
    server.assert_clean()


async def test_deferred_followup_with_attachment(env):
    server, bot, gid, cid, alice, mod = env
    result = await server.slash(alice, cid, "slow")
    assert result.callback_type == 5
    msg = result.message
    assert msg.content == "here is your map"
    assert msg.attachments == [("map.png", PNG)]
    assert msg.attachments[0] == Attachment("map.png", PNG)
    assert server.messages(cid) == [msg]
    server.assert_clean()


async def test_autocomplete(env):
    server, bot, gid, cid, alice, mod = env
    choices = await server.autocomplete(alice, cid, "order", options={"text": "fruit-1"}, focused="text")
    assert [c["value"] for c in choices] == [f"fruit-1{i}" for i in range(10)]
    result = await server.slash(alice, cid, "order", options={"text": choices[0]["value"]})
    assert result.content == "ordered fruit-10"
    server.assert_clean()


async def test_autocomplete_too_many_choices_is_a_violation(env):
    server, bot, gid, cid, alice, mod = env
    server.ack_deadline = 0.5  # the failed answer means no answer: don't wait the full 3 s
    choices = await server.autocomplete(alice, cid, "toomany", options={"text": ""}, focused="text")
    assert choices == []
    choices = await server.autocomplete(alice, cid, "longchoice", options={"text": ""}, focused="text")
    assert choices == []
    # the 400 made the autocomplete fail, so the interaction also missed its deadline
    assert [v.kind for v in server.violations] == ["too_many_choices", "ack_timeout", "choice_too_long", "ack_timeout"]
    assert server.errors[0]["status"] == 400 and server.errors[0]["body"]["code"] == 50035
    assert len([r for r in bot.log_errors if "Ignoring exception in autocomplete" in r]) == 2
    bot.log_errors.clear()


async def test_dm(env):
    server, bot, gid, cid, alice, mod = env
    result = await server.slash(alice, cid, "dm")
    assert result.content == "check your DMs" and result.ephemeral
    dms = server.dms(alice)
    assert [m.content for m in dms] == ["a secret"]
    assert dms[0].attachments == [("orders.txt", b"orders")]
    assert server.dms(mod) == []
    assert [m.content for m in server.all_visible_to(alice)] == ["a secret", "check your DMs"]
    server.assert_clean()


async def test_button_click(env):
    server, bot, gid, cid, alice, mod = env
    result = await server.slash(alice, cid, "buttons")
    posted = result.message
    assert posted.custom_ids() == ["press", "later", "reply"]
    later = await server.click(alice, posted, "later")
    assert later.callback_type == 6 and later.messages == []
    assert await later.wait_for_messages(1, timeout=5) == [posted]
    assert posted.content == "updated later"
    reply = await server.click(mod, posted, "reply")
    assert reply.content == "private reply" and reply.ephemeral
    assert server.all_visible_to(mod)[-1].content == "private reply"
    assert "private reply" not in [m.content for m in server.all_visible_to(alice)]
    pressed = await server.click(alice, posted, "press")
    assert pressed.callback_type == 7
    assert posted.content == "pressed by alice" and posted.components == []
    assert [m.content for m in server.messages(cid)] == ["pressed by alice"]
    with pytest.raises(ValueError):
        await server.click(alice, posted, "press")  # the button is gone now
    server.assert_clean()


async def test_default_permissions(env):
    server, bot, gid, cid, alice, mod = env
    with pytest.raises(PermissionError):
        await server.slash(alice, cid, "mod")
    result = await server.slash(mod, cid, "mod")
    assert result.content == "hello moderator"
    server.assert_clean()


async def test_thread(env):
    server, bot, gid, cid, alice, mod = env
    result = await server.slash(alice, cid, "thread")
    thread_id = int(result.content.split()[1])
    assert result.ephemeral
    assert server.channels[thread_id].type == 11
    assert [m.content for m in server.messages(cid)] == ["game thread starter (open)"]
    assert [m.content for m in server.messages(thread_id)] == ["welcome to the game"]
    side = next(c for c in server.channels.values() if c.name == "side talk")
    assert side.type == 11 and side.parent_id == cid
    assert [m.content for m in server.messages(side.id)] == ["psst"]
    assert bot.get_channel(thread_id) is not None  # THREAD_CREATE reached discord.py
    server.assert_clean()


async def test_content_over_2000_is_a_violation(env):
    server, bot, gid, cid, alice, mod = env
    result = await server.slash(alice, cid, "long")
    assert result.content == "too long"
    assert bot.http_errors == [50035]
    assert [v.kind for v in server.violations] == ["content_too_long"]


async def test_ack_deadline(env):
    server, bot, gid, cid, alice, mod = env
    result = await server.slash(alice, cid, "sleepy")
    assert result.expired and not result.acknowledged and result.messages == []
    assert [v.kind for v in server.violations] == ["ack_timeout"]
    await server.wait_for(lambda: bot.http_errors)  # the bot's late answer got 404 Unknown interaction
    assert bot.http_errors == [10062]


async def test_double_ack_is_a_violation(env):
    server, bot, gid, cid, alice, mod = env
    errors: list[int] = []

    @bot.tree.command(name="twice", description="Answer twice", guild=discord.Object(gid))
    async def twice(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("one")
        # bypass discord.py's own InteractionResponded guard to hit the server
        interaction.response._response_type = None
        try:
            await interaction.response.send_message("two")
        except discord.HTTPException as exc:
            errors.append(exc.code)

    await bot.tree.sync(guild=discord.Object(gid))
    result = await server.slash(alice, cid, "twice")
    await server.wait_for(lambda: errors)
    assert result.content == "one" and errors == [40060]
    assert [v.kind for v in server.violations] == ["already_acknowledged"]


async def test_reconnect_and_resume(env):
    server, bot, gid, cid, alice, mod = env
    resumed = asyncio.Event()
    async def on_resumed() -> None:
        resumed.set()

    bot.add_listener(on_resumed, "on_resumed")
    seen: list[str] = []

    async def on_message(message: discord.Message) -> None:
        seen.append(message.content)

    bot.add_listener(on_message, "on_message")
    await server.drop_gateway()
    # a channel message sent while disconnected is replayed on RESUME
    await bot.get_channel(cid).send("while you were away")
    result = await server.slash(alice, cid, "ping", "me")
    assert result.content == "pong"
    await asyncio.wait_for(resumed.wait(), 5)
    assert seen == ["while you were away"]
    assert server.resume_count == 1 and server.identify_count == 1
    await server.drop_gateway(abrupt=True)
    result = await server.slash(alice, cid, "ping", "me")
    assert result.content == "pong"
    assert server.resume_count == 2
    server.assert_clean()


async def test_attachment_option(env):
    server, bot, gid, cid, alice, mod = env
    result = await server.slash(alice, cid, "upload", options={"file": ("army.csv", b"a,b\n1,2\n"), "note": "ok"})
    assert result.content == "army.csv: 8 bytes ok"
    assert result.message.attachments == [("reversed.bin", b"a,b\n1,2\n"[::-1])]  # multipart callback
    server.assert_clean()


async def test_edits_followups_and_deletes(env):
    server, bot, gid, cid, alice, mod = env
    result = await server.slash(alice, cid, "steps")
    await server.wait_for(lambda: bot.done == ["steps"])
    assert [m.content for m in result.messages] == ["step 1 (edited)", "step 2 (edited)"]
    assert [m.ephemeral for m in result.messages] == [False, True]
    assert [m.content for m in server.messages(cid)] == ["step 1 (edited)"]
    server.assert_clean()


async def test_modal_select_and_context_menu(env):
    server, bot, gid, cid, alice, mod = env
    opened = await server.slash(alice, cid, "survey")
    assert opened.callback_type == 9 and opened.modal["title"] == "Survey"
    submitted = await server.submit_modal(alice, opened, {"answer": "Radagast"})
    assert submitted.content == "you said Radagast"

    menu = await server.slash(alice, cid, "menu")
    picked = await server.select(alice, menu.message, "side", values=["shadow"])
    assert picked.content == "side shadow"
    with pytest.raises(ValueError):
        await server.select(alice, menu.message, "side", values=["orcs"])

    inspected = await server.user_command(mod, cid, "Inspect", alice)
    assert inspected.content == "inspected alice"
    server.assert_clean()


async def test_user_messages_history_and_late_members(env):
    server, bot, gid, cid, alice, mod = env
    seen: list[discord.Message] = []

    async def on_message(message: discord.Message) -> None:
        seen.append(message)

    bot.add_listener(on_message, "on_message")
    await server.post_message(alice, cid, "hello bot")
    await server.wait_for(lambda: seen)
    assert seen[0].author.id == alice and seen[0].content == ""  # no message-content intent
    history = [m async for m in bot.get_channel(cid).history(limit=10)]
    assert [m.content for m in history] == ["hello bot"]  # REST history is not blanked

    frodo = server.add_user("frodo", guild_id=gid)  # joins after the bot connected
    result = await server.slash(frodo, cid, "ping", "me")
    assert result.content == "pong"
    member = await bot.get_guild(gid).fetch_member(frodo)
    assert member.name == "frodo"
    server.assert_clean()


async def test_message_limits(env):
    server, bot, gid, cid, alice, mod = env
    channel = bot.get_channel(cid)
    await channel.send(embeds=[discord.Embed(title=str(i)) for i in range(10)])  # 10 is fine
    with pytest.raises(discord.HTTPException) as info:  # discord.py itself refuses 11: go raw
        await bot.http.request(discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=cid),
                               json={"embeds": [{"title": str(i)} for i in range(11)]})
    assert info.value.status == 400
    big = io.BytesIO(b"\0" * (10 * 1024 * 1024 + 1))
    with pytest.raises(discord.HTTPException) as info:
        await channel.send(file=discord.File(big, "huge.bin"))
    assert info.value.status == 413 and info.value.code == 40005
    with pytest.raises(discord.HTTPException) as info:
        await channel.send("y" * 2001)
    assert info.value.code == 50035
    assert [v.kind for v in server.violations] == ["too_many_embeds", "attachment_too_large", "content_too_long"]
    assert len(server.messages(cid)) == 1  # only the 10-embed message went through
    server.violations.clear()
    server.assert_clean()


async def test_fetches_and_late_channel(env):
    server, bot, gid, cid, alice, mod = env
    user = await bot.fetch_user(alice)
    assert user.name == "alice"
    channel = await bot.fetch_channel(cid)
    assert channel.name == "general"
    war_room = server.add_channel(gid, "war-room")  # created after the bot connected
    await server.wait_for(lambda: bot.get_channel(war_room))
    result = await server.slash(alice, war_room, "ping", "echo", options={"text": "here", "times": 1})
    assert [m.content for m in server.messages(war_room)] == ["here"] == [result.content]
    with pytest.raises(discord.NotFound):
        await bot.fetch_user(12345)
    assert server.errors[-1]["body"]["code"] == 10013
    server.assert_clean()


async def test_bot_restart_keeps_world(env):
    server, bot, gid, cid, alice, mod = env
    await server.slash(alice, cid, "ping", "echo", options={"text": "before", "times": 1})
    await bot.close()  # the fixture's close() later is a no-op
    second = FakeBot()
    task = asyncio.create_task(second.start(server.token))
    try:
        await server.wait_ready()
        result = await server.slash(alice, cid, "ping", "echo", options={"text": "after", "times": 1})
        assert result.content == "after"
        assert [m.content for m in server.messages(cid)] == ["before", "after"]
        assert server.identify_count == 2
    finally:
        await second.close()
        await asyncio.wait_for(task, 10)
    server.assert_clean()


async def test_unknown_routes_and_auth():
    import aiohttp

    async with FakeDiscord() as server, aiohttp.ClientSession() as http:
        auth = {"Authorization": f"Bot {server.token}"}
        async with http.get(f"{server.api_base}/users/@me", headers={"Authorization": "Bot abc"}) as resp:
            assert resp.status == 401  # another bot's token
        async with http.put(f"{server.api_base}/channels/1/messages", headers=auth) as resp:
            assert resp.status == 404 and resp.headers["Content-Type"] == "application/json"
            assert (await resp.json())["code"] == 0
        async with http.get(f"{server.api_base}/voice/regions", headers=auth) as resp:
            assert resp.status == 404
        async with http.get(f"{server.api_base}/users/@me") as resp:
            assert resp.status == 401
        assert server.unknown_routes == ["PUT /api/v10/channels/1/messages", "GET /api/v10/voice/regions"]
        with pytest.raises(AssertionError, match="unknown routes"):
            server.assert_clean()


async def test_late_delivery_counts_from_creation(env):
    """``delay``: the interaction's snowflake is that old and Discord's 3 s count from it, so a bot
    that sleeps 1 s after a 2.2 s-late delivery misses the deadline; the webhook of an interaction
    never acknowledged is then unknown (10015), and ``late_ok`` keeps the expected expiry clean."""
    server, bot, gid, cid, alice, mod = env
    created: list[float] = []

    @bot.tree.command(name="slowish", description="Sleep 1 s, then answer", guild=discord.Object(gid))
    async def slowish(interaction: discord.Interaction) -> None:
        created.append(discord.utils.utcnow().timestamp() - interaction.created_at.timestamp())
        await asyncio.sleep(1.0)
        try:
            await interaction.response.send_message("late")
        except discord.NotFound as exc:
            bot.http_errors.append(exc.code)
        try:
            await interaction.followup.send("by webhook")
        except discord.NotFound as exc:
            bot.http_errors.append(exc.code)

    await bot.tree.sync(guild=discord.Object(gid))
    await server.wait_for(lambda: any(c["name"] == "slowish" for c in server.commands(gid)))
    result = await server.slash(alice, cid, "slowish", delay=2.2, late_ok=True)
    assert result.expired and result.messages == []
    assert 2.1 <= created[0] < 2.9  # the bot sees how old the interaction is
    await server.wait_for(lambda: len(bot.http_errors) == 2)
    assert bot.http_errors == [10062, 10015]
    assert server.violations == []
    ok = await server.slash(alice, cid, "slowish", delay=0.5)  # 2.5 s left: in time
    assert ok.content == "late" and 1.4 <= ok.acknowledged_age < 2.5


async def test_settled_waits_for_work_still_in_flight(env):
    """``tests/settle.py``: a handler answers, then posts once more 0.3 s later; ``settled`` returns
    only after that post (the e2e tests count "nothing more" with it instead of sleeping a while)."""
    from tests.settle import settled

    server, bot, gid, cid, alice, mod = env

    @bot.tree.command(name="twice", description="Answer, then post again", guild=discord.Object(gid))
    async def twice(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("first")
        await asyncio.sleep(0.3)
        await interaction.channel.send("second")

    await bot.tree.sync(guild=discord.Object(gid))
    await server.wait_for(lambda: any(c["name"] == "twice" for c in server.commands(gid)))
    r = await server.slash(alice, cid, "twice")
    assert r.content == "first" and not any(m.content == "second" for m in server.messages(cid))
    await settled(server, bot)
    assert [m.content for m in server.messages(cid)][-2:] == ["first", "second"]


async def test_a_channels_overwrites_refuse_the_bots_posts_as_discord_does(env):
    """Issue 39: a permission overwrite on a channel (``set_channel_permissions``) reaches discord.py (its
    ``permissions_for`` reads it) and the fake refuses the bot's post there as Discord does: without Send
    Messages ``403 Missing Permissions`` (50013), without View Channel ``403 Missing Access`` (50001); the
    Administrator permission passes over both."""
    from tests.fakediscord.server import EVERYONE_PERMISSIONS, P_SEND_MESSAGES, P_VIEW_CHANNEL

    server, bot, gid, cid, alice, mod = env
    server.set_channel_permissions(cid, server.bot_user_id, deny=P_SEND_MESSAGES)
    await bot.get_channel(cid).send("an administrator passes over an overwrite")
    server.set_bot_permissions(gid, EVERYONE_PERMISSIONS)
    await server.wait_for(lambda: not (c := bot.get_channel(cid)).permissions_for(c.guild.me).send_messages)
    with pytest.raises(discord.Forbidden) as refused:
        await bot.get_channel(cid).send("not here")
    assert refused.value.code == 50013
    server.set_channel_permissions(cid, server.bot_user_id, deny=P_SEND_MESSAGES | P_VIEW_CHANNEL)
    await server.wait_for(lambda: not (c := bot.get_channel(cid)).permissions_for(c.guild.me).view_channel)
    with pytest.raises(discord.Forbidden) as refused:
        await bot.get_channel(cid).send("not here either")
    assert refused.value.code == 50001
    assert [m.content for m in server.messages(cid)] == ["an administrator passes over an overwrite"]
    assert not server.channel_permissions(cid, server.bot_user_id) & P_SEND_MESSAGES
    server.set_channel_permissions(cid, server.bot_user_id)  # the overwrite lifted
    await bot.get_channel(cid).send("back")
    assert [m.content for m in server.messages(cid)][-1] == "back"
