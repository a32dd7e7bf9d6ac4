"""Boiling oil without a leak (16.71-16.74). Two games differ only in which
cauldrons are real. The same orders are given in both: carriers pick up oil
from a real and from a dummy cauldron, set standing orders, Sauron probes
(refused orders, odds, autocomplete, his own and the public map, moves next
to the carriers that hold *dummy* oil in both games). Everything Sauron can
observe is identical in the two games, byte for byte (the images too), until
a move puts a unit below the carrier whose oil is real in one game only: then,
and only then, the games differ (the pour)."""
import json

from engine.core import OrderError
from engine.rulesets.gondor import GONDOR
from render import render_view
from tests.spi_helpers import position

W, S = "westernesse", "sauron"

# GS1 on K1 in 1909 and GS2 on K4 in 1808, both level 1 by the Outer Wall;
# GS3 on K2 in 2008 (level 1). Sauron's OI1, OI2, OI3 outside.
UNITS = {"GS1": "1909", "K1": "1909", "GS2": "1808", "K4": "1808", "GS3": "2008", "K2": "2008",
         "OI1": "2012", "OI2": "1711", "OI3": "2110", "SC1": "2111", "OI4": "2111", "GAN": "1909", "NAZ": "2312"}

ORDERS = [
    (W, "pickup GS1 K1"), (W, "pickup GS2 K4"), (W, "pickup GS3 K2"),
    (W, "pour GS1 any"), (W, "pour GS2 towers"), (W, "pour GS3 any"),  # secret standing orders
    (S, "pickup OI1 K1"),            # Sauron may never use cauldrons: refused alike
    (S, "pour GS1 hold"),            # not his to order
    (W, "done"),                     # F -> G
    (W, "done"),                     # G -> H
    (S, "done"), (W, "done"),        # H -> turn 7
    (W, "done"), (S, "done"),        # A
    (S, "fireball SC1 at 2010"),     # Siege Phase: a fireball outside the walls
    (S, "done"),
    # C: Sauron's Movement Phase. GS3's oil is a dummy in both games (K2 is
    # dummy in both): its `any` order never fires, and nothing says so.
    (S, "move OI3 2109"),            # below GS3 (2008): nothing either way
    (S, "move OI1 2009"),            # below GS1 (K1): real in game A only  -> the games part here
]


def observe(g, seat_orders):
    """Everything Sauron can observe, order by order."""
    seen = []
    rs = GONDOR
    for seat, text in seat_orders:
        try:
            _, events = g.play(seat, text)
            out = ("ok", [(e.public, e.section, json.dumps(e.rolls), e.new_phase, e.reveals,
                           sorted(k for k in e.private if k == S)) for e in events])
        except OrderError as e:
            out = ("refused", str(e), getattr(e, "section", None)) if seat == S else ("refused",)
        st = g.state
        frame = {
            "order": (seat, text, out),
            "sauron_view": json.dumps(rs.view(st, S), sort_keys=True),
            "public_view": json.dumps(rs.view(st, None), sort_keys=True),
            "active": list(g.active_seats()),
            "dice": st["dice"]["counter"],
            "sauron_legal": g.legal_texts(S, "", None),
            "sauron_secret": rs.secret_text(st, S),
            "odds": _odds(g),
        }
        seen.append(frame)
    return seen


def _odds(g):
    try:
        return GONDOR.odds(g.state, S, "melee OI1 at 1909")
    except OrderError as e:
        return str(e)


def game(real):
    g = position(UNITS, step="F", turn=6)
    g.state["hidden"]["real_cauldrons"] = real
    return g


def test_sauron_sees_the_same_until_real_oil_is_poured():
    a, b = game(["K1", "K3", "K5"]), game(["K4", "K5", "K6"])
    seen_a, seen_b = observe(a, ORDERS[:-1]), observe(b, ORDERS[:-1])
    assert len(seen_a) == len(ORDERS) - 1
    assert seen_a[-1]["order"][2][0] == "ok"  # OI3 did move below GS3
    for x, y in zip(seen_a, seen_b):
        assert x == y
    # the images Sauron can ask for, byte for byte
    for seat in (S, None):
        assert render_view(GONDOR.view(a.state, seat), GONDOR.hexmap) == \
            render_view(GONDOR.view(b.state, seat), GONDOR.hexmap)
    # the refusals Sauron met carry no hint
    refusals = [f["order"][2] for f in seen_a if f["order"][0] == S and f["order"][2][0] == "refused"]
    assert refusals and not any("dummy" in r[1].lower() or "real" in r[1].lower() for r in refusals)
    # Westernesse's own view did differ all along
    assert GONDOR.view(a.state, W) != GONDOR.view(b.state, W)
    assert GONDOR.secret_text(a.state, W) != GONDOR.secret_text(b.state, W)
    # the next move comes below GS1, whose oil is real in game A only
    last_a, last_b = observe(a, ORDERS[-1:]), observe(b, ORDERS[-1:])
    assert last_a != last_b
    assert any("boiling oil" in e[0] for e in last_a[0]["order"][2][1])
    assert not any("oil" in e[0] for e in last_b[0]["order"][2][1])


def test_carrying_is_public_and_alike_the_standing_orders_are_secret():
    a = game(["K1", "K3", "K5"])
    for seat, text in ORDERS[:6]:
        a.play(seat, text)
    pub = GONDOR.view(a.state, S)
    carriers = {u["id"]: u for u in pub["units"] if u.get("carrying")}
    assert set(carriers) == {"GS1", "GS2", "GS3"}
    assert all(set(u) >= {"carrying", "oil_from"} and "oil_real" not in u for u in carriers.values())
    assert "pour" not in pub["siege"]
    assert GONDOR.view(a.state, W)["siege"]["pour"] == {"GS1": "any", "GS2": "towers", "GS3": "any"}
