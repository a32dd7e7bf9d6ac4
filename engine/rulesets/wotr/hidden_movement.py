"""Hidden Movement (seed:001, the experimental system) and Gondor's secret demand (AA.2).

The nine Fellowship characters move off the public map: their true hexes are known to the Fellowship and
the moderator (Gondor also knows Boromir's: he is "ultimately controlled by the Gondor player"). A move of
one of them reads `move (a hidden character)` in public, whoever's it is.

The Search Phase: `search <province>:<n> [<province>:<n> ...]` by a seat with Nazgul (the Dark Power;
Saruman or Gondor with the Nazgul they control), each ``n`` at most the seat's Nazgul in that province
(the Nazgul are pieces: engine/rulesets/wotr/nazgul.py). The Dark Power searches with two Nazgul on turn 1
and two more each turn up to nine (the rest stay in Gorgoroth and Nurn). For each province the bot rolls 2d6
in public; characters there are located (face down, to the searcher only) on clear or desert hexes when
the roll is at most the Nazgul there, on rough or marsh when the Nazgul exceed the roll by three or more,
on forest/rough or mountain by six or more, never on forest, citadel, town or tunnels. A located
character is spotted (face up, its identity) when a Nazgul or a Dark Power unit shares its hex, and any
hidden character sharing a hex with a Dark Power unit or Nazgul is spotted by the Dark Power (by Saruman or
Gondor with a Nazgul of theirs). Characters that ended in a
hex where they could not be located but passed through one where they would have been are reported to
the searcher: how many, and where. Results go privately to the searcher; the channel reads the roll.
Located and spotted marks last until the character moves (ruling, docs/wotr.md)."""
from __future__ import annotations

from engine.core import Event
from engine.dice import Dice
from engine.rulesets.wotr.common import S_HIDDEN, refuse, title, units_in
from engine.rulesets.wotr import aa_ring, dd_succession, lookup, nazgul, sequence

S_AA2 = "AA.2"
# by how much the Nazgul must exceed the roll to locate on each terrain (None: never)
LOCATE_MARGIN = {"clear": 0, "desert": 0, "rough": 3, "marsh": 3, "forest/rough": 6, "mountain": 6,
                 "forest": None, "citadel": None, "town": None, "tunnels": None}


# ------------------------------------------------------------------ who sees what
def _demand_in_force(rs, st) -> bool:
    """AA.2: Gondor's demand holds while the Ringbearer is a Fellowship character, not captured, and
        Boromir has not yet attempted to seize the Ring."""
    b = st["ring"]["bearer"]
    return bool(st["demand"] and b in st["chars"] and st["chars"][b]["side"] == "fellowship"
                and st["chars"][b]["seat"] == "fellowship" and st["chars"][b]["alive"]
                and b not in st["prisoners"]
                and not st["boromir_attempted"] and st["players"] in (4, 5))


def _p_demand(rs, st, seat, w):
    if len(w) != 1 or w[0] not in ("on", "off"):
        raise lookup._usage(rs, "demand")
    if seat != "gondor":
        raise refuse("the demand is Gondor's right (AA.2)", S_AA2)
    if st["boromir_attempted"]:
        raise refuse("Boromir has attempted to seize the Ring: the demand is over", S_AA2)
    if st["demand"] == (w[0] == "on"):
        raise refuse(f"the demand is already {w[0]}", S_AA2)
    return (w[0],)


def _a_demand(rs, st, seat, args, dice):
    st["demand"] = args[0] == "on"
    text = ("Gondor demands that Boromir move with the Ringbearer: the Fellowship moves him (AA.2)."
            if st["demand"] else "Gondor lifts its demand: Gondor moves Boromir again (AA.2).")
    return [Event(public="", private={"gondor": text, "fellowship": text}, section=S_AA2)]


# ------------------------------------------------------------------ hidden movement
def _p_reveal(rs, st, seat, w):
    """The Fellowship puts a hidden character on the public map for good (to lead an army, to be
        found by an ally): `reveal <character>`."""
    if len(w) != 1:
        raise lookup._usage(rs, "reveal")
    cid = lookup._char(rs, st, w[0])
    c = st["chars"][cid]
    if not c["hidden"] or not c["alive"] or seat != c["seat"] or seat not in ("fellowship", "gondor"):
        raise refuse("the Fellowship reveals one of its hidden characters (Gondor: Boromir, once he has "
                     "seized the Ring)", S_HIDDEN)
    return (cid,)


def _a_reveal(rs, st, seat, args, dice):
    c = st["chars"][args[0]]
    c["hidden"], c["located"], c["spotted"] = False, [], []
    return [Event(public=f"{title(seat)} reveals {c['name']} at {c['hex']}.", reveals=True)]


def _move_hidden(rs, st, seat, cid, path) -> list[Event]:
    c = st["chars"][cid]
    c["hex"] = path[-1]
    c["path"] = c["path"] + path
    c["located"], c["spotted"] = [], []
    bd = lookup._bd(rs, st)
    text = f"{c['name']} moves through {' '.join(path)} to {path[-1]}" + \
        f" ({bd.terrain[path[-1]]}, {bd.areas[bd.province_of[path[-1]]].name})."
    private = {c["seat"]: text}  # the Fellowship's own; Boromir's Gondor's too (AA.2), and only Gondor's
    if cid == "boromir":          # once he has seized the Ring and left
        private["gondor"] = text
    ev = [Event(public=f"{title(seat)} moves a hidden character.", private=private)]
    ev += nazgul._spot_all(rs, st)
    ev += aa_ring._try_transfer(rs, st) + dd_succession._check_king(rs, st)
    return ev


# ------------------------------------------------------------------ the Search Phase
def _p_search(rs, st, seat, w):
    if st["phase"] != "search" or seat not in rs.active_seats(st):
        raise refuse("searches are made in the Search Phase by a seat with Nazgul", S_HIDDEN)
    if not w:
        raise lookup._usage(rs, "search")
    plan: dict[str, int] = {}
    for word in w:
        prov, sep, n = word.lower().partition(":")
        if not sep or not n.isdigit() or int(n) < 1:
            raise lookup._usage(rs, "search")
        if prov not in lookup._bd(rs, st).areas:
            try:
                prov = lookup._bd(rs, st).parse_province(prov)
            except ValueError as e:
                raise refuse(str(e)) from None
        if prov in plan:
            raise refuse("name each province once")
        there = nazgul._nazgul_in(rs, st, seat, prov)
        if int(n) > there and not st.get("searches_anywhere"):  # a game begun before the pieces (upgrade_state)  # the Nazgul actually in the province search it
            raise refuse(f"{title(seat)} has {there} Nazgul in {lookup._bd(rs, st).areas[prov].name}, not {n}",
                         S_HIDDEN)
        plan[prov] = int(n)
    total = sum(plan.values())
    cap = nazgul._search_strength(rs, st, seat)
    if total > cap:
        raise refuse(f"{title(seat)} searches with {cap} Nazgul this turn, not {total}", S_HIDDEN)
    return tuple(f"{p}:{n}" for p, n in plan.items())


def _a_search(rs, st, seat, args, dice):
    d = Dice(st["dice"])
    public, private, fell = [], [], []
    for word in args:
        prov, _, n = word.partition(":")
        n = int(n)
        a, b = d.d6(f"search {prov}"), d.d6(f"search {prov}")
        roll = a + b
        name = lookup._bd(rs, st).areas[prov].name
        public.append(f"{name} with {n} Nazgul: {a}+{b}={roll}")
        margin = n - roll
        located, passed = [], []
        for cid, c in st["chars"].items():
            if not (c["hidden"] and c["alive"]):
                continue
            here = lookup._bd(rs, st).province_of[c["hex"]] == prov
            need = LOCATE_MARGIN[lookup._bd(rs, st).terrain[c["hex"]]]
            if here and need is not None and margin >= need:
                if seat not in c["located"]:
                    c["located"].append(seat)
                # "only spotted ... when a Nazgul or other Dark Power unit is in the same hex"
                dp_here = any(lookup._unit_seat(rs, st, u) == "dark-power" for u in units_in(st, c["hex"])) or \
                    any(n["hex"] == c["hex"] for n in st["nazgul"].values()) or \
                    any(d["alive"] and d["seat"] == "dark-power" and d["hex"] == c["hex"] for d in st["chars"].values())
                if dp_here and seat not in c["spotted"]:
                    c["spotted"].append(seat)
                located.append((cid, c["hex"], dp_here))
                continue
            hits = [h for h in c["path"] if lookup._bd(rs, st).province_of[h] == prov
                    and LOCATE_MARGIN[lookup._bd(rs, st).terrain[h]] is not None
                    and margin >= LOCATE_MARGIN[lookup._bd(rs, st).terrain[h]]]
            if hits:
                passed.append(sorted(set(hits)))
        if located:
            spots = [f"{st['chars'][cid]['name']} at {hx} (spotted)" for cid, hx, sp in located if sp]
            downs = sorted(hx for cid, hx, sp in located if not sp)
            parts = []
            if downs:
                parts.append(f"{len(downs)} character(s) located face down at {', '.join(downs)}")
            parts += spots
            private.append(f"{name}: " + "; ".join(parts) + ".")
            fell.append(f"{name}: the {title(seat)} locates " + ", ".join(
                f"{st['chars'][cid]['name']} ({hx})" for cid, hx, sp in located) + ".")
        else:
            private.append(f"{name}: nobody located.")
        if passed:
            where = sorted({h for hs in passed for h in hs})
            private.append(f"{name}: {len(passed)} character(s) would have been located where they passed: "
                           f"{', '.join(where)}.")
            fell.append(f"{name}: the {title(seat)} is told {len(passed)} character(s) passed through "
                        f"{', '.join(where)}.")
    st["done"].append(seat)
    st["searched"].append(seat)
    ev = [Event(public=f"{title(seat)} searches: " + "; ".join(public) + ". The results go to the "
                       f"{title(seat)} alone.", private={seat: "Search results: " + " ".join(private)},
                section=S_HIDDEN, rolls=d.rolls)]
    if fell and seat != "fellowship":
        ev[0].private["fellowship"] = " ".join(fell)
    if not rs.active_seats(st):
        ev += sequence._next_phase(rs, st)
    return ev
