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
spotted ... when a Nazgul or other Dark Power unit is in the same hex")."""
from __future__ import annotations

from engine.core import Event
from engine.rulesets.wotr.common import refuse, title

NAZGUL = tuple(f"naz{i}" for i in range(1, 10))
MORDOR = ("gorgoroth", "nurn")


def _nazgul_of(self, st, seat) -> list[str]:
    return [n for n in NAZGUL if st["nazgul"][n]["seat"] == seat]


def _nazgul_count(self, st, seat) -> int:
    return len(self._nazgul_of(st, seat))


def _nazgul_in(self, st, seat, province) -> int:
    b = self._bd(st)
    return sum(1 for n in self._nazgul_of(st, seat) if b.province_of[st["nazgul"][n]["hex"]] == province)


def _in_mordor(self, st, hx) -> bool:
    return self._bd(st).province_of[hx] in MORDOR


def _dark_power_in_play(self, st) -> int:
    """Hidden Movement: two Nazgul on turn 1, two more each turn up to nine, less those others control."""
    added = min(9, 2 * st["turn"])
    others = len(NAZGUL) - self._nazgul_count(st, "dark-power")
    return max(0, min(self._nazgul_count(st, "dark-power"), added - others))


def _nazgul_move_error(self, st, nid, path) -> str | None:
    n = st["nazgul"][nid]
    if n["seat"] != "dark-power" or self._in_mordor(st, path[-1]) or not self._in_mordor(st, n["hex"]):
        return None
    out = sum(1 for x in self._nazgul_of(st, "dark-power") if not self._in_mordor(st, st["nazgul"][x]["hex"]))
    cap = self._dark_power_in_play(st)
    if out + 1 > cap:
        return (f"the Dark Power has {cap} Nazgul in play on turn {st['turn']} (two on the first turn, two more "
                f"each turn), {out} of them out of Mordor: the unused stay in Gorgoroth and Nurn")
    return None


def _nazgul_word(self, st, seat, w, default_seat) -> str:
    """The Nazgul named (``naz3``) or, none named, the first of ``default_seat``'s."""
    if w:
        nid = w.lower()
        if nid not in NAZGUL:
            raise refuse(f"no Nazgul `{w[:10]}`; Nazgul: naz1 ... naz9")
        if st["nazgul"][nid]["seat"] != default_seat:
            raise refuse(f"{nid} is not {title(default_seat)}'s")
        return nid
    mine = self._nazgul_of(st, default_seat)
    if not mine:
        raise refuse(f"{title(default_seat)} controls no Nazgul")
    return mine[0]


def _nazgul_to(self, st, nid, seat) -> None:
    st["nazgul"][nid]["seat"] = seat


def _a_move_nazgul(self, st, seat, nid, path) -> list[Event]:
    st["nazgul"][nid]["hex"] = path[-1]
    ev = [Event(public=f"{title(seat)} moves {st['nazgul'][nid]['name']} to {path[-1]}.")]
    return ev + self._spot_all(st)


def _spotters(self, st) -> dict[str, set[str]]:
    """The hexes where each seat spots a hidden character: the Dark Power's units, characters and
        Nazgul; Saruman's and Gondor's Nazgul."""
    out = {s: {st["nazgul"][n]["hex"] for n in self._nazgul_of(st, s)} for s in ("dark-power", "saruman", "gondor")}
    out["dark-power"] |= {u["hex"] for uid, u in st["units"].items()
                          if u["sp"] > 0 and self._unit_seat(st, uid) == "dark-power"}
    out["dark-power"] |= {c["hex"] for c in st["chars"].values() if c["alive"] and c["seat"] == "dark-power"}
    return out


def _nazgul_views(self, st) -> list[dict]:
    return [{"id": nid, "name": n["name"], "hex": n["hex"], "kind": "nazgul", "seat": n["seat"], "face": "up"}
            for nid, n in st["nazgul"].items()]

