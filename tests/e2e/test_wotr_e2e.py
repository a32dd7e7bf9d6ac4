"""War of the Ring's secrets over the fake Discord (issue 15, Proof): two five-player games that differ only
in where the Fellowship walks read byte-identically for every other seat and a spectator until a search
locates someone; a search's results reach only the searcher (and the Fellowship and the moderator);
Boromir's secret demand (AA.2) reaches only Gondor, the Fellowship and the moderator; the Nazgul, public
pieces, fly and search where they are in both games alike."""
import re

import pytest

from tests.e2e.test_e2e_discord import World
from tests.settle import settled

pytestmark = pytest.mark.heavy  # a long unit (5 s or more on one worker): handed out first under xdist (tests/conftest.py)

SEATS = ("fellowship", "dark-power", "saruman", "gondor", "rohan")


class WotrWorld(World):
    """The World's alice, bob, carol and mod, and three more: five players, a moderator, a spectator."""

    async def __aenter__(self):
        await super().__aenter__()
        s = self.server
        self.dave = s.add_user("dave", guild_id=self.gid)
        self.erin = s.add_user("erin", guild_id=self.gid)
        self.frank = s.add_user("frank", guild_id=self.gid)  # a spectator
        self.by_seat = {"fellowship": self.alice, "dark-power": self.bob, "saruman": self.carol,
                        "gondor": self.dave, "rohan": self.erin, "gm": self.mod}
        self.names = {self.alice: "alice", self.bob: "bob", self.carol: "carol", self.mod: "mod",
                      self.dave: "dave", self.erin: "erin", self.frank: "frank"}
        return self


def seen_by(w, user):
    out = []
    for m in w.server.all_visible_to(user):
        text = re.sub(r"\d{15,}", lambda x: w.names.get(int(x.group()), "ID"), m.content or "")
        out.append((text, tuple(a.data for a in m.attachments)))
    return out


def texts(w, user) -> str:
    return "\n".join(t for t, _ in seen_by(w, user))


def channel_text(w) -> str:
    return "\n".join(m.content or "" for m in w.server.messages(w.cid))


async def state(w):
    row = await w.store.live_game(w.cid)
    return (await w.service.table.load(row)).state, (await w.service.table.load(row)).active_seats()


async def act(w, seat, text, secret=None):
    """Play an order; ``secret`` True/False: its answer must be private/public (None: either)."""
    r = await w.cmd(w.by_seat[seat], "order", text=text)
    assert f"`{text}`" in r.content and "refused" not in r.content.lower(), (seat, text, r.content)
    assert secret is None or r.ephemeral == secret, (seat, text, r.content)
    await settled(w.server, w.bot)  # the phase's notice, posted after the answer, comes before the next order
    return r


async def advance(w, phase, seat, search=None):
    """`done` / `draw none` until ``phase`` comes with ``seat`` to act (``search`` is the Dark Power's
    search order when its Search Phase comes on the way)."""
    for _ in range(60):
        st, active = await state(w)
        if st["phase"] == phase and seat in active:
            return
        s = active[0]
        if st["phase"] == "search" and s == "dark-power" and search:
            await act(w, s, search)
        else:
            await act(w, s, "draw none" if st["phase"] == "events" else "done")
    raise AssertionError(f"never reached {phase} {seat}")


async def opened(w, db):
    await w.start_bot(db)
    r = await w.cmd(w.mod, "game", "new", ruleset="wotr")
    assert not r.ephemeral and "`rohan` (optional)" in r.content, r.content
    for seat, uid in w.by_seat.items():
        assert not (await w.cmd(uid, "game", "join", seat=seat)).ephemeral, seat
    r = await w.cmd(w.mod, "game", "start")
    assert not r.ephemeral, r.content
    await r.wait_for_messages(2)
    await settled(w.server, w.bot)  # every seat's hidden information sent by DM before the first order (else a race)


async def walk(w, path):
    """Turn 1: Gondor makes its demand, then Frodo and Sam walk ``path`` in the Fellowship's player turn."""
    await advance(w, "ring", "gondor")
    await act(w, "gondor", "demand on", secret=True)  # answered privately
    await advance(w, "turn", "fellowship")
    for cid in ("frodo", "sam"):
        await act(w, "fellowship", f"move {cid} {' '.join(path)}")
    await act(w, "fellowship", "done")
    # the Dark Power's Nazgul fly, the same in both games: public pieces on the map (Hidden Movement)
    await advance(w, "turn", "dark-power")
    await act(w, "dark-power", "move naz1 E0720", secret=False)
    await act(w, "dark-power", "move naz6 E1130 E0821", secret=False)
    # on to turn 2's Search Phase: a search far away, which finds nobody in either game
    await advance(w, "search", "dark-power")
    await act(w, "dark-power", "search gorgoroth:2 dagorlad:1 nurn:1")  # where its Nazgul are
    await settled(w.server, w.bot)


OTHERS = ("bob", "carol", "dave", "erin", "frank")  # dark-power, saruman, gondor, rohan, a spectator


async def test_two_games_differing_only_in_the_fellowships_walk_read_the_same(tmp_path, monkeypatch):
    seen = []
    for k, path in enumerate((["W1911", "W1814"], ["W2109"])):
        async with WotrWorld() as w:
            await opened(w, tmp_path / f"w{k}.db")
            await walk(w, path)
            seen.append({n: seen_by(w, getattr(w, n)) for n in OTHERS + ("alice", "mod")})
            if k == 0:
                await located_and_told_only_to_the_searcher(w, monkeypatch)
                demand_reached_only_gondor_fellowship_and_moderator(w)
            w.server.assert_clean()
    a, b = seen
    for n in OTHERS:  # every message and every image byte (in any order: Discord promises none across posts)
        x, y = sorted(a[n]), sorted(b[n])
        first = next((i for i, (p, q) in enumerate(zip(x, y)) if p != q), None)
        assert x == y, (n, first, first is not None and (x[first][0], y[first][0]))
    assert a["alice"] != b["alice"] and a["mod"] != b["mod"]  # the Fellowship and the moderator know
    assert any(d[:4] == b"\x89PNG" for _, atts in a["frank"] for d in atts)


async def located_and_told_only_to_the_searcher(w, monkeypatch):
    """Game A's Frodo and Sam stand at W1814 (clear, Hollin): the Dark Power's next search, on low dice, finds
    them; the results go to the Dark Power (and the Fellowship and the moderator), never the channel."""
    import engine.rulesets.wotr.hidden_movement as h

    class Low(h.Dice):
        def randint(self, lo, hi, label=""):
            self.rolls.append({"n": -1, "sides": hi - lo + 1, "value": lo, "label": label})
            return lo

    before = {n: len(seen_by(w, getattr(w, n))) for n in ("carol", "dave", "erin", "frank")}
    await advance(w, "turn", "dark-power")  # two Nazgul fly to Hollin (W2016, a mountain hex beside Frodo's)
    for nid in ("naz1", "naz2"):
        await act(w, "dark-power", f"move {nid} W2016")
    await advance(w, "search", "dark-power")
    monkeypatch.setattr(h, "Dice", Low)
    r = await act(w, "dark-power", "search hollin:2")
    monkeypatch.undo()
    await settled(w.server, w.bot)
    st, _ = await state(w)
    assert "dark-power" in st["chars"]["frodo"]["located"]
    bob = "\n".join(m.content or "" for m in w.server.dms(w.bob))
    assert "2 character(s) located face down at W1814, W1814" in bob, bob
    assert "W1814" in "\n".join(m.content or "" for m in w.server.dms(w.alice))  # the Fellowship is told
    assert "W1814" in "\n".join(m.content or "" for m in w.server.dms(w.mod))
    assert "W1814" not in channel_text(w) and "located face down" not in channel_text(w)
    assert "The results go to the Dark Power alone" in channel_text(w), r.content
    for n in ("carol", "dave", "erin", "frank"):
        new = "\n".join(t for t, _ in seen_by(w, getattr(w, n))[before[n]:])
        assert "W1814" not in new and "located face down" not in new and "Search results" not in new, n


def demand_reached_only_gondor_fellowship_and_moderator(w):
    def dm(u):
        return "\n".join(m.content or "" for m in w.server.dms(u)).lower()

    for u in (w.dave, w.alice, w.mod):
        assert "demand" in dm(u), w.names[u]
    for u in (w.bob, w.carol, w.erin, w.frank):
        assert "demand" not in texts(w, u).lower(), w.names[u]
    assert "demand" not in channel_text(w).lower()
    assert "(a secret order)" in channel_text(w)
