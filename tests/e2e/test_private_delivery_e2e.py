"""Every secret arrives (issue 25): players whose DMs are closed (Discord's 50007) play the scripted
hidden-information games over the fake Discord (Gondor's real cauldrons and secret pours, Field of
Celebrant's Eotheod chits, War of the Ring's hidden Fellowship and Nazgul searches). The same script is
played twice, once with every DM open and once with the secret holders' DMs closed: every private
message of the first run reaches its player in the second, in their private thread (only they, the
bot and the moderator in it), none reaches anyone else or the channel, and `/secret` answers with the
information itself and says where its copy went. Without Create Private Threads the secrets are held
and shown to their player alone at their next command, and the table is told once what to change."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.table import seated
from tests.e2e.test_e2e_discord import World
from tests.e2e.test_late_interactions_e2e import gondor_started
from tests.settle import settled

pytestmark = pytest.mark.heavy  # a long unit (5 s or more on one worker): handed out first under xdist (tests/conftest.py)

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"
PRIVATE_THREAD = 12
PROBE = "You hold **"


class ScriptWorld(World):
    """A world with a user per seat (the moderator's seat held by the server moderator, who creates the game)."""

    secret_answers: list

    async def seat_users(self, ruleset: str, closed: set[str]) -> dict[str, int]:
        self.secret_answers = []  # (seat, result) of each `/secret` in the script
        users = {}
        for seat in seated(ruleset).seats:
            if seat == "gm":
                users[seat] = self.mod
                continue
            uid = self.server.add_user(f"p-{seat}", guild_id=self.gid)
            self.server.users[uid].dms_open = seat not in closed
            users[seat] = uid
        return users


def _command(line: str) -> tuple[tuple[str, ...], dict]:
    words = line.split()
    head = words[0].lstrip("/")
    if head == "order":
        return ("order",), {"text": " ".join(words[1:])}
    if head in ("done", "secret"):
        return (head,), {}
    if head == "game":
        names, opts = ("game", words[1]), {}
        for w in words[2:]:
            k, _, v = w.partition(":")
            opts[k] = {"true": True, "false": False}.get(v, int(v) if v.isdigit() else v)
        return names, opts
    raise ValueError(f"no slash command for {line!r}")


async def play(w: ScriptWorld, ruleset: str, script: str, closed: set[str], *, options: str | None = None,
               until: int | None = None) -> dict[str, int]:
    """The console script ``script`` (its first ``until`` lines) as slash commands, every seat a user."""
    s = w.server
    users = await w.seat_users(ruleset, closed)
    w.service.table.seed_source = lambda: "local-7"  # the console's `--seed 7`, which the scripts were written for
    w.service.table.renderer = None  # text only: what is checked here is where private messages go
    r = await s.slash(w.mod, w.cid, "game", "new", options={"ruleset": ruleset, **({"options": options} if options else {})})
    assert not r.ephemeral, r.content
    for seat, uid in users.items():
        r = await s.slash(uid, w.cid, "game", "join", options={"seat": seat}, timeout=20)
        assert not r.ephemeral, (seat, r.content)
    r = await s.slash(w.mod, w.cid, "game", "start")
    assert not r.ephemeral, r.content
    seat = None
    for n, line in enumerate((SCRIPTS / script).read_text().splitlines()):
        if until is not None and n >= until:
            break
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("as "):
            seat = line[3:].strip()
            continue
        expect_error = line.startswith("!expect-error ")
        names, opts = _command(line.removeprefix("!expect-error "))
        r = await s.slash(users[seat], w.cid, *names, options=opts, timeout=20)
        if r.deferred and not r.messages:
            await r.wait_for_messages(1)
        if names == ("secret",):
            w.secret_answers.append((seat, r))
        if names == ("order",) or names == ("done",):
            refused = r.ephemeral and r.content.startswith(("Refused", "You ", "There is", "The game"))
            assert refused == expect_error, (n + 1, line, r.content)
    await settle(w)
    return users


async def settle(w) -> None:
    """Until nothing is in flight (DMs and threads are sent after an answer): ``tests/settle.py``."""
    await settled(w.server, w.bot)


def dm_texts(w, uid: int) -> list[str]:
    return [m.content for m in w.server.dms(uid) if m.content and not m.content.startswith(PROBE)]


def rooms(w) -> dict[int, list]:
    """Each private thread the bot opened, by its members, with its messages."""
    s = w.server
    return {c.id: c for c in s.channels.values() if c.type == PRIVATE_THREAD}


def unmention(text: str) -> str:
    return re.sub(r"^<@\d+> ", "", text)


async def closed_dms_run(tmp_path, ruleset, script, closed, **kw):
    """(DMs each seat got with every DM open, the closed world after the same script)."""
    async with ScriptWorld() as open_w:
        await open_w.start_bot(tmp_path / "open.db")
        users = await play(open_w, ruleset, script, set(), **kw)
        expected = {seat: dm_texts(open_w, uid) for seat, uid in users.items()}
        open_w.server.assert_clean()
    w = ScriptWorld()
    await w.__aenter__()
    await w.start_bot(tmp_path / "closed.db")
    users = await play(w, ruleset, script, closed, **kw)
    return expected, w, users


def check_delivered(w, users: dict[str, int], expected: dict[str, list[str]], closed: set[str]) -> dict[str, int]:
    """Every private message of the open run reached its closed seat in that seat's private thread; the thread holds only the seat's holder, the bot and the moderator; nobody else and not
    the channel read any of it. Returns each closed seat's thread."""
    s = w.server
    threads = {}
    for seat in closed:
        uid = users[seat]
        assert s.dms(uid) == []  # no DM ever reached them (the fake refuses with 50007)
        assert expected[seat], f"{seat} got no private message in the open run: nothing was checked"
        mine = [c for c in rooms(w).values() if uid in c.thread_members]
        assert len(mine) == 1, (seat, mine)
        room = mine[0]
        threads[seat] = room.id
        assert room.parent_id == w.cid and room.thread_members <= {s.bot_user_id, uid, users.get("gm")}
        got = [unmention(m.content) for m in s.messages(room.id)]
        # the same messages (a DM follows its command's answer, so two commands' DMs may interleave)
        assert sorted(got) == sorted(expected[seat]), seat
        secret_lines = {line for t in got for line in t.split("\n")[1:] if len(line) > 12}
        for other, ouid in users.items():
            if other in (seat, "gm"):
                continue
            seen = {line for m in s.all_visible_to(ouid) for line in (m.content or "").split("\n")}
            leaked = secret_lines & seen - {line for t in expected[other] for line in t.split("\n")}
            assert not leaked, (seat, other, leaked)
        public = "\n".join(m.content or "" for m in s.messages(w.cid))
        for t in got:
            assert t not in public
    # the table was not told anything: a private thread needs no change from anybody
    assert not any("cannot receive direct messages" in (m.content or "") for m in s.messages(w.cid))
    return threads


async def secret_answered_with_the_information(w, r, thread: int, must_contain: str) -> None:
    """A `/secret` of a closed seat: answered privately with the information itself; the copy's way named."""
    assert r.ephemeral and must_contain in r.content, r.content
    note = await w.server.wait_for(lambda: next((m for m in r.messages if "copy went" in (m.content or "")), None))
    assert note.ephemeral and f"<#{thread}>" in note.content and "DMs are closed" in note.content


async def test_gondor_westernesse_with_closed_dms_gets_the_cauldrons_and_the_secret_pours(tmp_path):
    """16.71 (which cauldrons are real) and 16.74 (the standing pour order, answered privately)."""
    expected, w, users = await closed_dms_run(tmp_path, "gondor", "gondor_game.txt", {"westernesse"})
    try:
        threads = check_delivered(w, users, expected, {"westernesse"})
        assert any("real cauldrons" in t for t in expected["westernesse"])
        assert w.server.channels[threads["westernesse"]].archived  # the game is over: its private thread closed
        # the pour orders were answered privately (a secret order): never in the channel as typed
        public = "\n".join(m.content or "" for m in w.server.messages(w.cid))
        assert "`pour (a secret standing order, 16.74)`" in public and not re.search(r"pour [A-Z]", public)
        w.server.assert_clean()
    finally:
        await w.__aexit__(None, None, None)


async def test_celebrant_both_sides_with_closed_dms_get_their_chits(tmp_path):
    """14.3: each side's Eotheod chit, told privately, and `/secret` in the script."""
    expected, w, users = await closed_dms_run(tmp_path, "celebrant", "celebrant_game.txt", {"westernesse", "shadow"})
    try:
        threads = check_delivered(w, users, expected, {"westernesse", "shadow"})
        assert len(w.secret_answers) == 2  # the script's own `/secret`s, one a side
        for seat, r in w.secret_answers:
            await secret_answered_with_the_information(w, r, threads[seat], "chit")
        w.server.assert_clean()
    finally:
        await w.__aexit__(None, None, None)


async def test_wotr_fellowship_and_searcher_with_closed_dms(tmp_path):
    """The Fellowship's hidden position and the Dark Power's search results (Hidden Movement) reach
    their seats' private threads; the moderator's seat reads them too, nobody else."""
    expected, w, users = await closed_dms_run(tmp_path, "wotr", "wotr_game.txt", {"fellowship", "dark-power"},
                                              options="turns=4")
    try:
        threads = check_delivered(w, users, expected, {"fellowship", "dark-power"})
        assert any("search" in t.lower() for t in expected["dark-power"])
        room = w.server.channels[threads["fellowship"]]
        assert w.mod in room.thread_members  # the moderator reads every seat's private information
        w.server.assert_clean()
    finally:
        await w.__aexit__(None, None, None)


async def test_no_private_threads_allowed_secrets_are_held_and_the_table_told_once(tmp_path):
    """Closed DMs and no Create Private Threads: the start's secret is held and shown to Westernesse
    alone, ephemerally, at their next command (once); the table is told once, plainly, what to
    change; `/game status` says where the private messages went; nothing is claimed sent."""
    async with World() as w:
        s = w.server
        s.users[w.bob].dms_open = False
        s.set_bot_permissions(w.gid, (1 << 51) - 1 & ~(1 << 3) & ~(1 << 36))  # no Create Private Threads
        await w.start_bot(tmp_path / "held.db")
        await w.cmd(w.alice, "game", "new", ruleset="gondor")
        await w.cmd(w.alice, "game", "join", seat="sauron")
        r = await w.cmd(w.bob, "game", "join", seat="westernesse")
        note = await s.wait_for(lambda: next((m for m in r.messages if m.ephemeral), None))
        assert "Create Private Threads" in note.content and "allow direct messages" in note.content
        await (await w.cmd(w.alice, "game", "start")).wait_for_messages(2)
        await settle(w)
        told = [m for m in s.messages(w.cid) if "cannot receive direct messages" in (m.content or "")]
        assert len(told) == 1 and told[0].pinged() == {w.bob} and "Create Private Threads" in told[0].content
        assert not any("cauldron" in (m.content or "").lower() and "real" in (m.content or "")
                       for m in s.messages(w.cid))
        r = await w.cmd(w.bob, "game", "status")
        held = await s.wait_for(lambda: next((m for m in r.messages if "real cauldrons" in (m.content or "")), None))
        assert held.ephemeral and "Held for you" in held.content
        assert "Westernesse" in r.content and "could not be sent" in r.content  # /game status: where they went
        r2 = await w.cmd(w.bob, "game", "log")
        await settle(w)
        assert not any("real cauldrons" in (m.content or "") for m in r2.messages)  # shown once
        r = await w.cmd(w.bob, "secret")
        assert r.ephemeral and "real cauldrons" in r.content
        note = await s.wait_for(lambda: next((m for m in r.messages if "only copy" in (m.content or "")), None))
        assert note.ephemeral
        for u in (w.alice, w.carol):
            assert not any("real cauldrons" in (m.content or "") for m in s.all_visible_to(u))
        assert len([m for m in s.messages(w.cid) if "cannot receive direct messages" in (m.content or "")]) == 1
        s.assert_clean()


async def test_a_substitute_with_closed_dms_takes_over_the_seats_private_thread(tmp_path):
    """`/game sub`: the seat's secrets go to its new holder by the private way; the seat's thread
    changes hands (the new holder added, the old one removed), so the old holder reads no more."""
    async with World() as w:
        s = w.server
        s.users[w.bob].dms_open = False
        s.users[w.carol].dms_open = False
        await gondor_started(w, tmp_path)
        room = await s.wait_for(lambda: next((c for c in rooms(w).values() if any(
            "real cauldrons" in (m.content or "") for m in s.messages(c.id))), None))
        assert room.thread_members == {s.bot_user_id, w.bob}
        r = await s.slash(w.alice, w.cid, "game", "sub", options={"seat": "westernesse", "user": w.carol})
        assert not r.ephemeral, r.content
        await s.wait_for(lambda: len([m for m in s.messages(room.id) if "real cauldrons" in (m.content or "")]) == 2)
        assert room.thread_members == {s.bot_user_id, w.carol} and len(rooms(w)) == 1
        last = [m for m in s.messages(room.id) if "real cauldrons" in (m.content or "")][-1]
        assert last.pinged() == {w.carol}
        s.assert_clean()
