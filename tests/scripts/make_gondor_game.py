"""Write `gondor_game.txt`: a complete game of Gondor for the console
(`palantir local gondor --seed 7 --script tests/scripts/gondor_game.txt`),
from set-up to the victory decision of 20.1.

The orders are chosen by two simple, deterministic players (not a strong
game, but a siege with every exclusive rule in it): Sauron marches on the
Main Gate, pushes siege towers and catapults to the walls, operates Grond,
breaches, throws heads and fireballs, sets ladders and climbs; Westernesse
holds the Outer Wall with oil carriers, fireballs the siege kit, rallies, and
brings Rohan and Aragorn's host in. Run it again after a rules change:

    .venv/bin/python tests/scripts/make_gondor_game.py

The console gives the game the seed "local-7"; this script plays the same
seed through the engine, so every order it writes is legal when replayed."""
from __future__ import annotations

import sys
from pathlib import Path
from engine.spi import c04_movement

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from engine.core import Game  # noqa: E402
from engine.hexgrid import Hex, distance  # noqa: E402
from engine.rulesets import get_ruleset
from engine.spi import c03_sequence
from engine.spi import c05_stacking

SEED = 7
OUT = Path(__file__).with_name("gondor_game.txt")

SAURON_SETUP = [
    # catapults and siege towers each with an orc to push them (16.11), on the road
    "SC1 1923", "OI1 1923", "SC2 2123", "OI2 2123", "SC3 1723", "OI3 1723",
    "ST1 1823", "OI4 1823", "ST2 2023", "OI5 2023", "ST3 2223", "OI6 2223",
    "OA1 1624", "OA2 1824", "OA3 2024", "OA4 2224", "OI7 1524", "OI8 2324", "OI9 1924",
    "LO1 1424", "LO2 1425", "LO3 1725", "LO4 2124", "LO5 2424", "LO6 1325", "LO7 2525", "LO8 1825", "LO9 2025",
    "NAZ 1923", "GOT 2123",
]
WEST_SETUP = [
    # oil by the Outer Wall: cauldrons in level 1 with a spearman on each
    "K1 1909", "GS1 1909", "K2 2008", "GS2 2008", "K3 1808", "GS3 1808",
    "K4 2108", "GS4 2108", "K5 1908", "K6 1907",
    "GA1 1908", "GB1 2007", "GX1 1807", "GK1 1905", "GL1 1906",
    "WC1 1907", "WC2 1806", "WC3 2006", "GAN 1908", "IMR 1908",
]

GATE = Hex.parse("1910")


class Scribe:
    def __init__(self):
        self.g = Game.new(get_ruleset("gondor"), seed=f"local-{SEED}")
        self.lines: list[str] = []
        self.seat = None

    def play(self, seat: str, text: str, note: str | None = None) -> None:
        if seat != self.seat:
            self.lines.append(f"as {seat}")
            self.seat = seat
        if note:
            self.lines.append(f"# {note}")
        self.g.play(seat, text)
        self.lines.append("/done" if text == "done" else f"/order {text}")

    def legal(self, seat: str, prefix: str = "") -> list[str]:
        return self.g.legal_texts(seat, prefix, None)


CATAPULT_SPOTS = ["2208", "2010", "1810", "2110"]
TOWER_SPOTS = ["1809", "2009", "2109", "1709"]
GROND_SPOTS = ["1910"]
RESERVED = set(CATAPULT_SPOTS + TOWER_SPOTS + GROND_SPOTS)


def goals(rs, uid: str, kit: list[str]) -> list[Hex]:
    types = {rs.units[k].type for k in kit}
    if "grond" in types:
        spots = GROND_SPOTS
    elif "siege_tower" in types:
        spots = TOWER_SPOTS
    elif "catapult" in types:
        spots = CATAPULT_SPOTS
    else:
        m = rs.hexmap
        spots = [str(h) for h in m.hexes if m.level(h) == 0 and str(h) not in RESERVED
                 and m.hexes[h].terrain != "mountain" and any(m.level(n) == 1 for n in h.neighbours())]
    return [Hex.parse(x) for x in spots]


def sauron_move(s: Scribe) -> None:
    g, rs = s.g, s.g.ruleset
    st = g.state
    occ = c05_stacking.occupancy(rs, st)
    movers = []
    for uid in sorted(st["units"]):
        d = rs.units[uid]
        r = st["units"][uid]
        if d.side != "sauron" or not d.is_combat:
            continue
        if r["status"] not in ("map", "reinforcement") or c04_movement._mover_kind(rs, st, "sauron", uid) != "move":
            continue
        kit = [x for x in occ.get(r["hex"], ()) if rs.units[x].is_siege] if r["hex"] else []
        if r["status"] == "reinforcement" and uid.startswith("TR") and st["units"]["GRD"]["status"] == "reinforcement":
            kit = ["GRD"]
        if r["status"] == "reinforcement" and uid.startswith("UH") and st["units"]["ST4"]["status"] == "reinforcement":
            kit = ["ST4"]
        movers.append((0 if kit else 1, uid, kit))
    for _, uid, kit in sorted(movers):
        if uid in st["ph"]["moved"] or any(k in st["ph"]["moved"] for k in kit):
            continue
        r = st["units"][uid]
        opts = [t for t in s.legal("sauron", f"move {uid}") if t.startswith(f"move {uid} ")]
        if kit:
            ends = {t.split()[-1] for t in opts}
            both = []
            for hx in sorted(ends):
                t = f"move {uid} {' '.join(kit)} {hx}"
                try:
                    g.parse("sauron", t)
                    both.append(t)
                except Exception:
                    pass
            opts = both
        if not opts:
            continue
        m = rs.hexmap
        climb = [t for t in opts if m.level(Hex.parse(t.split()[-1])) > 0 and not kit]
        if climb:  # up a ladder, a tower or through a breach: into the city
            s.play("sauron", max(climb, key=lambda t: (m.level(Hex.parse(t.split()[-1])), t)))
            continue
        aim = goals(rs, uid, kit)
        mine = {str(h) for h in aim} if kit else set()
        # keep each piece of the siege kit's places free for it
        opts = [t for t in opts if t.split()[-1] not in RESERVED - mine]
        if not opts:
            continue
        here = Hex.parse(r["hex"]) if r["hex"] else None

        def far(h):
            return min(distance(h, a) for a in aim)
        best = min(opts, key=lambda t: (far(Hex.parse(t.split()[-1])), t))
        if here is not None and far(Hex.parse(best.split()[-1])) >= far(here):
            continue
        s.play("sauron", best)
    for t in s.legal("sauron", "ladder "):
        if t.startswith("ladder ") and len([m for m in st["markers"] if m.get("type") == "ladder"]) < 3:
            s.play("sauron", t, "a ladder against the wall, to climb next turn (16.43)")
            break


def west_move(s: Scribe) -> None:
    g, rs = s.g, s.g.ruleset
    st = g.state
    for t in s.legal("westernesse", "pickup "):
        if t.startswith("pickup ") and not st["units"][t.split()[1]].get("oil_from"):
            s.play("westernesse", t)
            # arm every carrier alike, real or dummy: the order is secret (16.74)
            s.play("westernesse", f"pour {t.split()[1]} any")
    # the relief: Rohan and Aragorn head for the enemy
    for uid in sorted(st["units"]):
        d = rs.units[uid]
        if d.side != "westernesse" or d.setup != "reinforcement" or uid in st["ph"]["moved"]:
            continue
        if st["units"][uid]["status"] not in ("map", "reinforcement"):
            continue
        opts = [t for t in s.legal("westernesse", f"move {uid}") if t.startswith(f"move {uid} ")]
        enemies = [Hex.parse(r["hex"]) for u, r in st["units"].items()
                   if r["status"] == "map" and rs.units[u].side == "sauron" and rs.units[u].is_combat]
        if opts and enemies:
            best = min(opts, key=lambda t: (min(Hex.parse(t.split()[-1]).distance(e) for e in enemies), t))
            s.play("westernesse", best)


def combat(s: Scribe, seat: str) -> None:
    for _ in range(40):
        opts = [t for t in s.legal(seat) if t.split()[0] in ("fire", "melee", "duel", "advance", "retreat")]
        if not opts:
            return
        pick = next((t for t in opts if t.startswith("retreat ")), None) or \
            next((t for t in opts if t.startswith("advance ")), None) or opts[0]
        s.play(seat, pick)


def siege(s: Scribe, seat: str) -> None:
    st = s.g.state
    for _ in range(8):
        if seat not in s.g.active_seats():
            return
        opts = s.legal(seat)
        pick = next((t for t in opts if t.startswith("advance ")), None)
        pick = pick or next((t for t in opts if t.startswith("breach GRD ")), None)
        if st["turn"] % 2:  # odd turns: walls first; even turns: heads first
            pick = pick or next((t for t in opts if t.startswith("breach ")), None)
        if pick is None and seat == "sauron" and st["siege"]["heads_left"] > 0:
            heads = [t for t in opts if t.startswith("head ")]
            occupied = {r["hex"] for u, r in st["units"].items() if r["status"] == "map"
                        and s.g.ruleset.units[u].side == "westernesse" and s.g.ruleset.units[u].is_combat}
            pick = next((t for t in heads if t.split()[-1] in occupied), None)
        pick = pick or next((t for t in opts if t.startswith("breach ")), None)
        if pick is None:
            kit = {r["hex"] for u, r in st["units"].items() if r["status"] == "map"
                   and s.g.ruleset.units[u].side != seat and s.g.ruleset.units[u].type == "siege_tower"}
            pick = next((t for t in opts if t.startswith("fireball ") and t.split()[-1] in kit), None)
        if pick is None and seat == "westernesse" and st["turn"] % 3 == 0:
            # every third turn, a fireball on Sauron's troops outside the walls: no casualties (16.65), but a
            # fire there costs 3 MP more to cross (16.67) until the next Siege Phase (16.66)
            foes = {r["hex"] for u, r in st["units"].items() if r["status"] == "map"
                    and s.g.ruleset.units[u].side == "sauron" and s.g.ruleset.units[u].is_combat
                    and not s.g.ruleset.hexmap.in_city(Hex.parse(r["hex"]))}
            pick = next((t for t in opts if t.startswith("fireball ") and t.split()[-1] in foes), None)
        if pick is None:
            break
        s.play(seat, pick)
    if seat in s.g.active_seats():
        s.play(seat, "done")


def magic(s: Scribe, seat: str) -> None:
    g, st = s.g, s.g.state
    opts = s.legal(seat, "cast ")
    order = ["operate-grond", "reveal-aragorn", "fear", "break-darkness"]
    for spell in order:
        full = [t for t in opts if f" {spell} " in t]
        if full:
            s.play(seat, max(full, key=lambda t: int(t.split()[3])))
            break
    else:
        # the Nazgul Lord goes to Grond, to operate it (17.13)
        if seat == "sauron" and not st.get("grond_active") and st["units"]["GRD"]["status"] == "map" \
                and st["units"]["NAZ"]["status"] == "map":
            grd = Hex.parse(st["units"]["GRD"]["hex"])
            moves = [t for t in s.legal(seat, "move NAZ") if t.startswith("move NAZ ")]
            if moves and distance(Hex.parse(st["units"]["NAZ"]["hex"]), grd) > 2:
                s.play(seat, min(moves, key=lambda t: (distance(Hex.parse(t.split()[-1]), grd), t)))
    if seat in g.active_seats():
        s.play(seat, "done")


def rally(s: Scribe, seat: str) -> None:
    for _ in range(20):
        opts = [t for t in s.legal(seat, "rally ") if t.startswith("rally ")]
        if not opts:
            break
        s.play(seat, opts[0])
    if seat in s.g.active_seats():
        s.play(seat, "done")


def main() -> None:
    s = Scribe()
    g = s.g
    s.lines.append("# Sauron sets up first (13.1), then Westernesse (13.2, 16.71).")
    for x in SAURON_SETUP:
        s.play("sauron", f"deploy {x}")
    s.play("sauron", "done")
    for x in WEST_SETUP:
        s.play("westernesse", f"deploy {x}")
    s.play("westernesse", "done")
    turn = 0
    guard = 0
    while not g.result():
        guard += 1
        assert guard < 3000
        st = g.state
        if st["turn"] != turn:
            turn = st["turn"]
            s.lines.append(f"# ---- Game-Turn {turn} ----")
            s.lines.append("/game status")
        if st["pending"]:
            p = st["pending"][0]
            s.play(p["seat"], f"retreat {p['unit']} {p['options'][0]}")
            continue
        seat = g.active_seats()[0]
        kind = c03_sequence.kind(g.ruleset, st)
        if kind == "magic":
            magic(s, seat)
        elif kind == "siege":
            siege(s, seat)
        elif kind == "move":
            sauron_move(s) if seat == "sauron" else west_move(s)
            if seat in g.active_seats() and not st["pending"]:
                s.play(seat, "done")
        elif kind == "combat":
            combat(s, seat)
            if seat in g.active_seats() and not g.state["pending"]:
                s.play(seat, "done")
        elif kind == "rally":
            rally(s, seat)
        else:
            s.play(seat, "done")
    s.lines.append("/game status")
    s.lines.append("/game map")
    head = [
        "# A complete game of Gondor (seed:000) through the console, run in CI (tests/e2e/test_gondor_console.py):",
        f"# `palantir local gondor --seed {SEED} --script tests/scripts/gondor_game.txt`.",
        "# Written by tests/scripts/make_gondor_game.py (two simple deterministic players); it ends in the",
        f"# victory decision of 20.1: {g.result().summary[:300]}",
    ]
    OUT.write_text("\n".join(head + s.lines) + "\n")
    print(f"{len(s.lines)} lines; {g.result().summary}")


if __name__ == "__main__":
    main()
