"""The Eotheod chits are secret (14.3): until a chit is revealed, everything
the other seat can see (every public text, its own private texts, its view,
its legal actions and the texts of its refused orders) is identical whichever
chit was drawn. Checked at engine level over five Game-Turns of identical
play, both ways round, and through the bot's GameService (messages, DMs,
/secret, /game map, /game log, /game export)."""
import json
import random

from bot.service import Ctx, GameService
from bot.storage import Store
from engine.core import Game, OrderError
from engine.hexgrid import Hex
from engine.rulesets import get_ruleset
from engine.spi import c03_sequence

SEATS = ("shadow", "westernesse")
PROBES = ["entry NW", "ability CIR tactics", "swap GS1 GS2", "ability OC1 whip", "move EORL 0901",
          "move ER1 3501", "move BS1 2928", "deploy GS1 2014", "done", "fire GB1 at 0101"]


def setup_orders(g: Game) -> list[tuple[str, str]]:
    """A legal set-up: the Orcs on the eastern part of their hill, Gondor in
    lines around the central grove (leaders stacked with units)."""
    rs, st = g.ruleset, g.state
    out = []
    for seat, zone in (("shadow", "orcs"), ("westernesse", "gondor")):
        hexes = list(rs.zones[zone])
        if seat == "shadow":
            hexes.sort(key=lambda h: (-int(h[:2]), int(h[2:])))
        else:
            hexes.sort(key=lambda h: (abs(int(h[2:]) - 14) + abs(int(h[:2]) - 22), h))
        hexes = [h for h in hexes if rs.terrain(h) != "grove"]
        mine = [u for u, d in rs.units.items() if d.side == seat and d.setup != "reinforcement"
                and st["units"][u]["status"] == "pool"]
        combat = [u for u in mine if rs.units[u].is_combat]
        leaders = [u for u in mine if rs.units[u].is_leader]
        for u, h in zip(combat, hexes):
            out.append((seat, f"deploy {u} {h}"))
        for i, u in enumerate(leaders):
            out.append((seat, f"deploy {u} {hexes[i * 3]}"))
        out.append((seat, "done"))
    return out


def _pick(g: Game, seat: str, rnd: random.Random, count: int) -> str:
    rs, st = g.ruleset, g.state
    if c03_sequence.kind(rs, st) == "move" and not st["pending"]:
        if count > 6:
            return "done"
        mine = sorted(u for u, d in rs.units.items() if d.side == seat and st["units"][u]["status"] == "map")
        rnd.shuffle(mine)
        enemies = [Hex.parse(r["hex"]) for u, r in st["units"].items()
                   if r["status"] == "map" and rs.units[u].side != seat and rs.units[u].is_combat]
        for uid in mine[:5]:
            moves = [rs.format(a) for a in rs.legal_actions_for(st, seat, uid) if a.verb == "move"]
            if moves:
                return min(moves, key=lambda t: (min(Hex.parse(t.split()[-1]).distance(e) for e in enemies),
                                                 rnd.random()))
        return "done"
    offered = [rs.format(a) for a in g.legal_actions(seat)]
    if "done" in offered and (count > 8 or rnd.random() < 0.25):
        return "done"
    return rnd.choice([t for t in offered if t != "done"] or offered)


def _play_until_reveal(chits: dict, watcher: str, turns: int = 5, seed: int = 3, stop: bool = True,
                       watch: bool = True):
    """Identical play in a game with the given chits; what ``watcher`` sees,
    step by step, to the last order of Game-Turn ``turns`` (``stop``: before
    the order that would start the next turn, and with it the reveal)."""
    g = Game.new(get_ruleset("celebrant"), seed="secret-seed", fixture={"chits": chits})
    rs = g.ruleset
    seen = []
    rnd = random.Random(seed)

    def look(events):
        if not watch:
            return
        seen.append(("public", [e.public for e in events]))
        seen.append(("private", [e.private.get(watcher) for e in events]))
        seen.append(("rolls", [r for e in events for r in e.rolls]))
        v = g.view(watcher)
        seen.append(("view", json.dumps(v, sort_keys=True)))
        seen.append(("public-view", json.dumps(g.view(None), sort_keys=True)))
        seen.append(("legal", g.legal_texts(watcher, limit=25)))  # what autocomplete offers
        seen.append(("secret", rs.secret_text(g.state, watcher)))
        for p in PROBES:
            try:
                g.parse(watcher, p)
                seen.append(("probe", p, "ok"))
            except OrderError as e:
                seen.append(("probe", p, str(e)))

    for seat, o in setup_orders(g):
        look(g.play(seat, o)[1])
    count, phase = 0, None
    while g.state["turn"] <= turns:
        seat = g.active_seats()[0]
        text = _pick(g, seat, rnd, count)
        if stop and text == "done" and g.state["turn"] == turns and g.state["step"] == "F-westernesse":
            break
        _, events = g.play(seat, text)
        seen.append(("order", seat, text))
        look(events)
        now = (g.state["turn"], g.state["step"])
        count = 0 if now != phase else count + 1
        phase = now
    return seen, g


def test_14_3_shadow_sees_the_same_game_whichever_westernesse_chit_was_drawn():
    a, ga = _play_until_reveal({"westernesse": "6 NW", "shadow": "+1"}, "shadow")
    b, gb = _play_until_reveal({"westernesse": "7 SE (-2)", "shadow": "+1"}, "shadow")
    assert (ga.state["turn"], ga.state["step"]) == (5, "F-westernesse")
    assert not ga.state["cel"]["eotheod"]["revealed"]
    assert len(a) == len(b) > 500
    for x, y in zip(a, b):
        assert x == y
    # the games did differ, for Westernesse
    assert ga.ruleset.secret_text(ga.state, "westernesse") != gb.ruleset.secret_text(gb.state, "westernesse")


def test_14_3_westernesse_sees_the_same_game_whichever_shadow_chit_was_drawn():
    a, _ = _play_until_reveal({"westernesse": "6 NW", "shadow": "Eye of Sauron"}, "westernesse")
    b, _ = _play_until_reveal({"westernesse": "6 NW", "shadow": "+2 shift"}, "westernesse")
    assert len(a) == len(b) > 500
    for x, y in zip(a, b):
        assert x == y


def test_14_3_the_reveal_shows_both_chits_to_everyone():
    _, g = _play_until_reveal({"westernesse": "6 NW", "shadow": "+1"}, "shadow", turns=5, stop=False,
                              watch=False)
    v = g.view(None)
    assert v["chits"] == {"westernesse": "6 NW", "shadow": "+1"}
    assert v["eotheod"]["turn"] == 7 and v["eotheod"]["area"] == "NW"


# ----------------------------------------------------------- through the bot
SHADOW, WEST = 11, 22


async def _service_run(tmp_path, name, chits):
    store = await Store.open(str(tmp_path / f"{name}.db"))
    svc = GameService(store, seed_source=lambda: "same-seed", clock=lambda: 5.0, renderer=lambda v, m, a=None, **kw: b"")
    svc.table.fixtures[1] = {"chits": chits}
    seen_by_shadow: list = []
    seen_by_west: list = []
    n = 0

    async def do(user, fn, *args):
        nonlocal n
        n += 1
        out = await fn(Ctx(channel_id=1, user_id=user, guild_id=1, interaction_id=f"x{n}"), *args)
        if out.reply:
            if not out.ephemeral or user == SHADOW:
                seen_by_shadow.append(("reply", out.reply.text, out.reply.attachment))
            if not out.ephemeral or user == WEST:
                seen_by_west.append(("reply", out.reply.text))
        for p in out.public:
            seen_by_shadow.append(("public", p.text))
        if out.notice:
            seen_by_shadow.append(("notice", out.notice.text))
        for uid, posts in out.dms.items():
            for p in posts:
                (seen_by_shadow if uid == SHADOW else seen_by_west).append(("dm", p.text))
        return out

    await do(SHADOW, svc.lobby.new_game, "celebrant")
    await do(SHADOW, svc.lobby.join, "shadow")
    await do(WEST, svc.lobby.join, "westernesse")
    await do(SHADOW, svc.lobby.start)
    g = Game.new(get_ruleset("celebrant"), seed="x")
    for seat, o in setup_orders(g):
        await do(SHADOW if seat == "shadow" else WEST, svc.orders.order, o)
    await do(SHADOW, svc.views.secret)
    await do(WEST, svc.views.secret)
    await do(SHADOW, svc.views.map, None, True)
    for probe in ("entry NW", "ability EORL death-and-glory ER1 ER2", "move EORL 0901"):
        await do(SHADOW, svc.orders.order, probe)
    await do(SHADOW, svc.views.status)
    await do(SHADOW, svc.views.log, 200)
    await do(SHADOW, svc.archive.export)
    await store.close()
    return seen_by_shadow, seen_by_west


async def test_14_3_through_the_bot_shadow_messages_dms_log_and_export_are_identical(tmp_path):
    a_s, a_w = await _service_run(tmp_path, "a", {"westernesse": "5 NE", "shadow": "0"})
    b_s, b_w = await _service_run(tmp_path, "b", {"westernesse": "Chance", "shadow": "0"})
    assert len(a_s) == len(b_s) > 40
    for x, y in zip(a_s, b_s):
        assert x == y
    assert a_w != b_w
    assert any(t[0] == "dm" and "**5 NE**" in t[1] for t in a_w)
    assert any(t[0] == "dm" and "**0**" in t[1] for t in a_s)
    export = next(x[2] for x in a_s if x[0] == "reply" and x[2])
    assert "5 NE" not in export.decode() if isinstance(export, bytes) else "5 NE" not in export
