"""The nine Nazgul as pieces on the map (Hidden Movement, AA.1, ETPR W.2 as the seed cites it).

Each Nazgul (`naz1` ... `naz9`) has a hex and a controlling seat: the Dark Power's at the start, in
Gorgoroth and Nurn; Gondor's once `nazgul control` succeeds (AA.1), Saruman's once `nazgul gain` records
W.2 (the ETPR's procedure is not available: the table's ruling). Their controller moves them in its player
turn (`move naz3 E0720 W1814`; the base game's F.5 movement is not checked) and they stand on the public map.

"The Dark Power player may only search with two Nazgul the first turn, and two more are added each turn
until all nine have been added. The unused Nazgul must remain within Mordor (Gorgoroth and Nurn)": the
Nazgul in play are two on turn 1, +2 a turn up to nine, less those Saruman and Gondor control; the Dark
Power may have that many outside Gorgoroth and Nurn, and search with that many in all. A search names
provinces with Nazgul in them: the number searching a province is at most the Nazgul the searching seat
has there. A Nazgul in a hidden character's hex spots it for its controller ("Such characters are only
spotted ... when a Nazgul or other Dark Power unit is in the same hex"): the seats searching this turn,
each one's searching strength, and the spotting after every move are here."""
from __future__ import annotations

from engine.core import Event
from engine.rulesets.wotr.common import S_HIDDEN, refuse, title
from engine.rulesets.wotr import lookup

NAZGUL = tuple(f"naz{i}" for i in range(1, 10))
MORDOR = ("gorgoroth", "nurn")


def _nazgul_of(rs, st, seat) -> list[str]:
    return [n for n in NAZGUL if st["nazgul"][n]["seat"] == seat]


def _nazgul_count(rs, st, seat) -> int:
    return len(_nazgul_of(rs, st, seat))


def _nazgul_in(rs, st, seat, province) -> int:
    b = lookup._bd(rs, st)
    return sum(1 for n in _nazgul_of(rs, st, seat) if b.province_of[st["nazgul"][n]["hex"]] == province)


def _in_mordor(rs, st, hx) -> bool:
    return lookup._bd(rs, st).province_of[hx] in MORDOR


def _dark_power_in_play(rs, st) -> int:
    """Hidden Movement: two Nazgul on turn 1, two more each turn up to nine, less those others control."""
    added = min(9, 2 * st["turn"])
    others = len(NAZGUL) - _nazgul_count(rs, st, "dark-power")
    return max(0, min(_nazgul_count(rs, st, "dark-power"), added - others))


def _nazgul_move_error(rs, st, nid, path) -> str | None:
    n = st["nazgul"][nid]
    if n["seat"] != "dark-power" or _in_mordor(rs, st, path[-1]) or not _in_mordor(rs, st, n["hex"]):
        return None
    out = sum(1 for x in _nazgul_of(rs, st, "dark-power") if not _in_mordor(rs, st, st["nazgul"][x]["hex"]))
    cap = _dark_power_in_play(rs, st)
    if out + 1 > cap:
        return (f"the Dark Power has {cap} Nazgul in play on turn {st['turn']} (two on the first turn, two more "
                f"each turn), {out} of them out of Mordor: the unused stay in Gorgoroth and Nurn")
    return None


def _nazgul_word(rs, st, seat, w, default_seat) -> str:
    """The Nazgul named (``naz3``) or, none named, the first of ``default_seat``'s."""
    if w:
        nid = w.lower()
        if nid not in NAZGUL:
            raise refuse(f"no Nazgul `{w[:10]}`; Nazgul: naz1 ... naz9")
        if st["nazgul"][nid]["seat"] != default_seat:
            raise refuse(f"{nid} is not {title(default_seat)}'s")
        return nid
    mine = _nazgul_of(rs, st, default_seat)
    if not mine:
        raise refuse(f"{title(default_seat)} controls no Nazgul")
    return mine[0]


def _nazgul_to(rs, st, nid, seat) -> None:
    st["nazgul"][nid]["seat"] = seat


def _a_move_nazgul(rs, st, seat, nid, path) -> list[Event]:
    st["nazgul"][nid]["hex"] = path[-1]
    ev = [Event(public=f"{title(seat)} moves {st['nazgul'][nid]['name']} to {path[-1]}.")]
    return ev + _spot_all(rs, st)


def _spotters(rs, st) -> dict[str, set[str]]:
    """The hexes where each seat spots a hidden character: the Dark Power's units, characters and
        Nazgul; Saruman's and Gondor's Nazgul."""
    out = {s: {st["nazgul"][n]["hex"] for n in _nazgul_of(rs, st, s)} for s in ("dark-power", "saruman", "gondor")}
    out["dark-power"] |= {u["hex"] for uid, u in st["units"].items()
                          if u["sp"] > 0 and lookup._unit_seat(rs, st, uid) == "dark-power"}
    out["dark-power"] |= {c["hex"] for c in st["chars"].values() if c["alive"] and c["seat"] == "dark-power"}
    return out


def _nazgul_views(rs, st) -> list[dict]:
    return [{"id": nid, "name": n["name"], "hex": n["hex"], "kind": "nazgul", "seat": n["seat"], "face": "up"}
            for nid, n in st["nazgul"].items()]


def _spot_all(rs, st) -> list[Event]:
    """J.1 as the seed has it: a hidden character sharing a hex with a Dark Power unit (army, character
        or Nazgul) is spotted by the Dark Power, and one sharing a hex with a Nazgul Saruman or Gondor
        controls by that seat; the spotter is told privately (the Fellowship informs it secretly)."""
    ev = []
    for seat, hexes in _spotters(rs, st).items():
        found = []
        for cid, c in st["chars"].items():
            if c["hidden"] and c["alive"] and c["hex"] in hexes and seat not in c["spotted"] \
                    and not lookup._sees_char(rs, st, seat, cid):
                c["spotted"].append(seat)
                found.append(f"{c['name']} at {c['hex']}")
        if found:
            what = "a Dark Power unit or Nazgul" if seat == "dark-power" else "your Nazgul"
            ev.append(Event(public="", private={seat: f"Spotted ({what} shares the hex): " + ", ".join(found) + ".",
                                                "fellowship": f"The {title(seat)} spots " + ", ".join(found) + "."},
                            section=S_HIDDEN))
    return ev


def _search_strength(rs, st, seat) -> int:
    """How many Nazgul ``seat`` may search with this turn: the Dark Power two on turn 1 and two more
        each turn up to nine (less those others control); Saruman and Gondor the Nazgul they control."""
    if seat == "dark-power":
        return _dark_power_in_play(rs, st)
    return _nazgul_count(rs, st, seat) if seat in ("saruman", "gondor") else 0


def _searchers(rs, st) -> list[str]:
    return [s for s in lookup._acting_order(rs, st) if _search_strength(rs, st, s) > 0]
