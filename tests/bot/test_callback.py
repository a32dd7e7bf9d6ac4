"""bot/transports/callback.py (issues 25, 39, 43): an interaction's first answer is one POST that does not ask
Discord for the message back, through discord.py's webhook adapter and aiohttp (issue 43: no hand-written HTTP
client). Its guarantees: a 2xx is done and discord.py told so; a 404 is ``discord.NotFound`` (the 3 s ran out);
any other refusal stands; an answer a server closes its kept connection after, or frames however it may, still
gets its POST through once; a POST written whose answer was lost is sent once more, Discord's refusal of that
one as "already acknowledged" counting as done; nothing is counted as answered when no connection could be
made; and a late interaction's acknowledgement is written before its work's first step runs (issue 39)."""
from __future__ import annotations

import datetime
import json
import socket
import threading
from types import SimpleNamespace

import aiohttp
import discord
import pytest
from discord.http import Route

from bot.event_loop import Backlog
from bot.transports import callback, discord_app
from tests.e2e.test_e2e_discord import World


class Server:
    """A bare HTTP server on loopback, in threads of its own (it reads while the test's event loop is blocked),
    that answers each request with the next scripted reply: bytes to write, or "close" (read the request,
    answer nothing, close), or a 1-tuple (answer, then close). Past the script, ``204 No Content``.
    ``received`` is set at each request read whole."""

    def __init__(self, replies: list | None = None):
        self.replies = list(replies or [])
        self.requests: list[bytes] = []
        self.connections = 0
        self.received = threading.Event()
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.open: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def close(self) -> None:
        for c in [self.sock, *self.open]:
            try:
                c.shutdown(socket.SHUT_RDWR)  # (wakes the thread that waits on it)
            except OSError:
                pass
            c.close()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:  # closed
                return
            self.connections += 1
            self.open.append(conn)
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        buf = b""
        try:
            while True:
                while b"\r\n\r\n" not in buf:
                    data = conn.recv(65536)
                    if not data:
                        return
                    buf += data
                head, _, buf = buf.partition(b"\r\n\r\n")
                n = int(next(line.split(b":")[1] for line in head.split(b"\r\n")
                             if line.lower().startswith(b"content-length:")))
                while len(buf) < n:
                    buf += conn.recv(65536)
                self.requests.append(head + b"\r\n\r\n" + buf[:n])
                buf = buf[n:]
                reply = self.replies.pop(0) if self.replies else NO_CONTENT
                self.received.set()
                if reply == "close":
                    return
                conn.sendall(reply[0] if isinstance(reply, tuple) else reply)
                if isinstance(reply, tuple):
                    return
        except OSError:
            return
        finally:
            conn.close()


NO_CONTENT = b"HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n"


def error(status: str, code: int, message: str = "no") -> bytes:
    body = json.dumps({"message": message, "code": code}).encode()
    return b"HTTP/1.1 %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s" % (
        status.encode(), len(body), body)


@pytest.fixture
async def server(monkeypatch):
    s = Server()
    monkeypatch.setattr(Route, "BASE", f"http://127.0.0.1:{s.port}/api/v10")  # where discord.py's routes go
    yield s
    s.close()


@pytest.fixture
async def session():
    async with aiohttp.ClientSession(trace_configs=[callback.TRACE]) as s:  # as the bot's (its ``http_trace``)
        yield s


def interaction(session, iid: int = 77, age: float = 0.0, backlog=None):
    """What callback.py (and ``guarded``) read of an interaction: its id and token, the client's session and
    proxy, whether it was answered and how, its age and its bot's backlog."""
    return SimpleNamespace(
        id=iid, token=f"tok{iid}", _session=session, type=discord.InteractionType.application_command,
        created_at=datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(seconds=age), extras={},
        response=_Response(),
        client=SimpleNamespace(http=SimpleNamespace(proxy=None, proxy_auth=None), backlog=backlog or Backlog()))


class _Response:
    """discord.py's ``InteractionResponse`` as callback.py uses it: answered once ``_response_type`` is set."""

    def __init__(self):
        self._response_type = None

    def is_done(self) -> bool:
        return self._response_type is not None


async def test_a_204_is_done_without_asking_for_the_message_back(server, session):
    """Issue 25/43: one POST of the callback, no ``with_response``, the answer's JSON; discord.py told it is
    answered."""
    i = interaction(session, 1)
    await callback.send(i, ephemeral=True, content="hi")
    assert i.response._response_type == discord.InteractionResponseType.channel_message
    (request,) = server.requests
    assert request.startswith(b"POST /api/v10/interactions/1/tok1/callback HTTP/1.1\r\n")
    head, _, body = request.partition(b"\r\n\r\n")
    assert b"content-type: application/json" in head.lower()
    assert json.loads(body) == {"type": 4, "data": {"content": "hi", "flags": callback.EPHEMERAL}}
    d = interaction(session, 2)
    await callback.defer(d, ephemeral=False)
    assert d.response._response_type == discord.InteractionResponseType.deferred_channel_message
    assert json.loads(server.requests[1].partition(b"\r\n\r\n")[2]) == {"type": 5, "data": {}}
    with pytest.raises(discord.InteractionResponded):  # a second answer is not sent
        await callback.send(i, ephemeral=True, content="again")
    assert len(server.requests) == 2


async def test_a_404_is_not_found_and_a_refusal_by_length_or_chunks_stands(server, session):
    """Issue 25/43: Discord's "Unknown interaction" is ``discord.NotFound`` (its 3 s ran out), a refusal framed by
    length or in chunks is read whole and stands; neither counts as answered, neither is sent twice."""
    err = json.dumps({"message": "Invalid Form Body", "code": 50035}).encode()
    chunked = (b"HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
               b"5\r\n" + err[:5] + b"\r\n" + f"{len(err) - 5:x}".encode() + b"\r\n" + err[5:] + b"\r\n0\r\n\r\n")
    server.replies = [error("404 Not Found", 10062, "Unknown interaction"), chunked]
    i = interaction(session, 1)
    with pytest.raises(discord.NotFound) as e:
        await callback.send(i, ephemeral=False, content="hi")
    assert e.value.code == 10062 and i.response._response_type is None
    with pytest.raises(discord.HTTPException) as e:
        await callback.send(i, ephemeral=False, content="hi")
    assert e.value.code == 50035 and i.response._response_type is None
    assert len(server.requests) == 2


@pytest.mark.parametrize("first", [(NO_CONTENT,), b"HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n"],
                         ids=["closed-after", "connection-close"])
async def test_a_connection_the_server_closed_after_an_answer_does_not_lose_the_next(server, session, first):
    """Issue 25/43: a kept connection the server closes (an idle timeout, ``Connection: close``): the next answer
    still goes through, once."""
    server.replies = [first, NO_CONTENT]
    a, b = interaction(session, 1), interaction(session, 2)
    await callback.send(a, ephemeral=False, content="one")
    await callback.send(b, ephemeral=False, content="two")
    assert a.response.is_done() and b.response.is_done()
    contents = [json.loads(r.partition(b"\r\n\r\n")[2])["data"]["content"] for r in server.requests]
    assert contents == ["one", "two"] and server.connections == 2


@pytest.mark.parametrize("lost", ["close", b"SPDY/3 whatever\r\n\r\n"], ids=["cut", "malformed"])
@pytest.mark.parametrize("second, outcome", [
    (NO_CONTENT, "done"),  # the first never reached Discord: the second is the answer
    (error("400 Bad Request", callback.ALREADY_ACKNOWLEDGED), "done"),  # the first was taken
    (error("400 Bad Request", 50035), discord.HTTPException),  # any other refusal stands
    (error("404 Not Found", 10062), discord.NotFound),
], ids=["not-taken", "taken", "refused", "expired"])
async def test_a_post_whose_answer_was_lost_is_sent_once_more_and_already_acknowledged_counts_as_done(
        server, session, lost, second, outcome):
    """Issue 25/43: a request written and never answered (a cut connection, a malformed answer) may have been
    taken: sent once more, and Discord's refusal of that one as already acknowledged (40060) means done."""
    server.replies = [lost, second]
    i = interaction(session)
    if outcome == "done":
        await callback.send(i, ephemeral=False, content="hi")
        assert i.response._response_type == discord.InteractionResponseType.channel_message
    else:
        with pytest.raises(outcome):
            await callback.send(i, ephemeral=False, content="hi")
        assert i.response._response_type is None
    assert len(server.requests) == 2


async def test_already_acknowledged_on_a_first_post_is_a_real_second_answer_and_stands(server, session):
    """Issue 25/43: 40060 counts as done only after a POST of ours whose answer was lost; refused outright, someone
    else answered this interaction first: the refusal stands, and nothing is sent again."""
    server.replies = [error("400 Bad Request", callback.ALREADY_ACKNOWLEDGED)]
    i = interaction(session)
    with pytest.raises(discord.HTTPException) as e:
        await callback.send(i, ephemeral=False, content="hi")
    assert e.value.code == callback.ALREADY_ACKNOWLEDGED and i.response._response_type is None
    assert len(server.requests) == 1


async def test_no_server_means_nothing_was_sent_nor_counted_answered(monkeypatch, session):
    """Issue 25/43: a connection that cannot be made sent nothing: an error, not answered, not tried twice."""
    s = Server()
    s.close()  # the server is gone: the connection is refused
    monkeypatch.setattr(Route, "BASE", f"http://127.0.0.1:{s.port}/api/v10")
    adapter, calls = callback.async_context.get(), []

    class Counting:  # discord.py's webhook adapter, its requests counted
        def get(self):
            return self

        async def request(self, *a, **kw):
            calls.append(1)
            return await adapter.request(*a, **kw)

    monkeypatch.setattr(callback, "async_context", Counting())
    i = interaction(session)
    with pytest.raises(aiohttp.ClientConnectorError):
        await callback.send(i, ephemeral=False, content="hi")
    assert i.response._response_type is None and s.requests == [] and len(calls) == 1


@pytest.mark.parametrize("kept", [True, False], ids=["kept-connection", "new-connection"])
async def test_a_late_acknowledgement_is_written_before_its_works_first_step(server, session, kept):
    """Issue 39/43: on a loop running late an interaction is acknowledged at once, its request written before
    its work's first step runs, so a work that blocks the loop does not hold the acknowledgement back; on a
    connection kept from an earlier answer, or on a new one when none is free (a burst: the lean client kept two
    spare). The work here blocks the loop until the server (in threads of its own) has read the request, or
    30 s: aiohttp writes a request's body from a task of its own, which must run before the work's."""
    if kept:
        await callback.send(interaction(session, 1), ephemeral=False, content="an earlier answer")
        server.received.clear()
    i = interaction(session, 2, backlog=SimpleNamespace(lag=lambda: 1.5, unacked=0, busy_lag=5.0))

    async def work():
        return server.received.wait(30)  # blocks the loop: nothing of the bot runs meanwhile

    assert await discord_app.guarded(i, work()) is True
    assert i.response._response_type == discord.InteractionResponseType.deferred_channel_message
    assert json.loads(server.requests[-1].partition(b"\r\n\r\n")[2])["type"] == callback.DEFERRED_CHANNEL_MESSAGE
    assert server.connections == 1


async def test_a_bot_answers_through_discord_py_over_the_fake_discord(tmp_path):
    """Issue 43: the real bot's answers go through discord.py to the fake Discord, within its limits, not asked back."""
    async with World() as w:
        await w.start_bot(tmp_path / "answers.db")
        r = await w.cmd(w.alice, "roll", dice="2d6")
        assert "2d6" in r.content and r.callback_type == callback.CHANNEL_MESSAGE and r.asked_back is False
        r = await w.cmd(w.bob, "roll", dice="1d20")
        assert "1d20" in r.content and r.asked_back is False
        w.server.assert_clean()
