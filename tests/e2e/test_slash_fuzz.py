"""Hypothesis fuzz of slash-command options through the real discord.py
client and the fake Discord: no unhandled exception reaches Discord, every
refusal is private, and a refusal leaves the game (state digest and log)
unchanged. PALANTIR_SLASH_FUZZ=<n> runs more examples (default 30)."""
import asyncio
import os

from hypothesis import HealthCheck, given, settings, strategies as st

from engine.core import state_digest
from tests.e2e.test_e2e_discord import World

EXAMPLES = int(os.environ.get("PALANTIR_SLASH_FUZZ", "30"))
junk = st.text(min_size=1, max_size=40).filter(lambda s: s.strip() != "")
hexy = st.from_regex(r"\A[0-9]{2,4}(/[a-z]{1,2})?\Z")
notation = st.one_of(junk, st.builds(lambda u, h: f"deploy {u} {h}", st.sampled_from(["OA1", "GS1", "ZZ9", "NAZ", ""]), hexy))
when = st.one_of(junk, st.from_regex(r"\A[0-9]{1,2}:[0-9]{2}\Z"))
zone = st.one_of(junk, st.sampled_from(["Europe/London", "America/New_York", "UTC", "../x", "Etc/GMT+3"]))
date = st.one_of(junk, st.from_regex(r"\A20[0-9]{2}-[01][0-9]-[0-3][0-9]\Z"))

COMMANDS = st.one_of(
    st.tuples(st.just(("order",)), st.fixed_dictionaries({"text": notation})),
    st.tuples(st.just(("odds",)), st.fixed_dictionaries({"text": notation})),
    st.tuples(st.just(("rule",)), st.fixed_dictionaries({"case": junk})),  # issue 42
    st.tuples(st.just(("game", "extend")), st.fixed_dictionaries({"hours": st.integers(1, 720)})),
    st.tuples(st.just(("game", "pause")), st.just({})),
    st.tuples(st.just(("game", "undo")), st.just({})),
    st.tuples(st.just(("game", "replay")), st.fixed_dictionaries({"since": st.one_of(junk.map(lambda s: s[:40]), st.just("turn 99"))})),
    st.tuples(st.just(("game", "join")), st.fixed_dictionaries({"seat": junk})),
    st.tuples(st.just(("game", "map")), st.fixed_dictionaries({"around": junk})),
    st.tuples(st.just(("me", "quiet")), st.fixed_dictionaries({"from": when.map(lambda s: s[:5]), "to": when.map(lambda s: s[:5]),
                                                              "tz": zone.map(lambda s: s[:64])})),
    st.tuples(st.just(("me", "away")), st.fixed_dictionaries({"until": date.map(lambda s: s[:20])})),
    st.tuples(st.just(("roll",)), st.fixed_dictionaries({"dice": junk})),
)


def test_fuzzed_slash_options_are_refused_privately_and_change_nothing(tmp_path):
    loop = asyncio.new_event_loop()
    w = World()
    run = loop.run_until_complete
    seen = {"private": 0, "public": 0, "client-refused": 0}

    async def setup():
        await w.__aenter__()
        await w.start_bot(tmp_path / "fuzz.db")
        await w.cmd(w.alice, "game", "new", ruleset="gondor", options="deadline=24")
        await w.cmd(w.alice, "game", "join", seat="sauron")
        await w.cmd(w.bob, "game", "join", seat="westernesse")
        await (await w.cmd(w.alice, "game", "start")).wait_for_messages(2)

    async def snapshot():
        row = await w.store.latest_game(w.cid)
        return row.seq, state_digest((await w.service.table.load(row)).state)

    async def one(user_key, names, opts):
        user = getattr(w, user_key)
        before = await snapshot()
        try:
            r = await w.server.slash(user, w.cid, *names, options=opts, timeout=20)
        except ValueError:
            seen["client-refused"] += 1
            return  # the Discord client itself would not send it (e.g. out of range): nothing to check
        msgs = await r.wait_for_messages(1)
        seen["private" if r.ephemeral else "public"] += 1
        assert not w.server.internal_errors and not w.server.errors, (names, opts, w.server.errors)
        assert not any("went wrong" in (m.content or "") for m in msgs), (names, opts, msgs)
        if r.ephemeral and names != ("me", "quiet") and names != ("me", "away"):
            after = await snapshot()
            refused = names[0] in ("order", "game") and names[-1] not in ("map", "replay")
            if refused:
                assert after == before, (names, opts, r.content)

    run(setup())
    try:
        @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
        @given(user=st.sampled_from(["alice", "bob", "carol"]), cmd=COMMANDS)
        def case(user, cmd):
            names, opts = cmd
            run(one(user, names, opts))

        case()
        print("slash fuzz:", seen)
        assert seen["private"] >= EXAMPLES // 3  # most fuzzed input is refused, privately
        v = [x for x in w.server.violations]
        assert not v and not w.server.unknown_routes, v
    finally:
        run(w.__aexit__(None, None, None))
        left = asyncio.all_tasks(loop)  # whatever the client left waiting: cancel it before closing the loop
        for t in left:
            t.cancel()
        if left:  # (gather() of nothing would make its future on another loop)
            run(asyncio.gather(*left, return_exceptions=True))
        run(loop.shutdown_asyncgens())
        loop.close()
