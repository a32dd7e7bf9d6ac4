"""DD (succession and command in Gondor), GG (succession and command in Rohan) and the Restrictions on
Alliances (who may stack with whom, who may command whom), worked out from the state after every order.

Orders: `command <hex> <character|nazgul>` (a seat names the commander of its stack there, checked),
`paths` (the Fellowship: Aragorn has taken the Paths of the Dead, a base-game event), `challenge <yours>
<theirs>` (individual combat, declared: DD.3 Denethor never initiates it)."""
from __future__ import annotations

from engine.core import Event
from engine.rulesets.wotr.common import (FREE_RACES, GONDOR_HEIRS, ROHAN_LINE, S_ALLIANCE_R, S_MOB, alive, allied,
                                          hex_of, refuse, title, units_in)
from engine.rulesets.wotr import lookup, mobilization, nazgul

S_DD1, S_DD2, S_DD3, S_GG1, S_GG2 = "DD.1", "DD.2", "DD.3", "GG.1", "GG.2"
S_AA2 = "AA.2"


# ------------------------------------------------------------------ DD.1
def _eligible(rs, st, cid) -> bool:
    """DD.1: an heir rules only if in Minas Tirith or with a Gondorian army unit."""
    hx = hex_of(st, cid)
    if hx is None:
        return False
    if hx == lookup._bd(rs, st).places["minas-tirith"]:
        return True
    return any(st["units"][u]["nation"] == "gondor" for u in units_in(st, hx))


def _ruler(rs, st) -> str | None:
    """The ruler of Gondor now (DD.1): Denethor; else Boromir, Faramir, Imrahil, each only if eligible
        (Boromir takes it back once eligible); Aragorn once he is king (ruling: he stays king)."""
    if st["king"] == "aragorn" and alive(st, "aragorn"):
        return "aragorn"
    if alive(st, "denethor"):
        return "denethor"
    for cid in GONDOR_HEIRS:
        if alive(st, cid) and _eligible(rs, st, cid):
            return cid
    return None


def _check_king(rs, st) -> list[Event]:
    """DD.1: Denethor and Boromir dead, Aragorn through the Paths of the Dead and in Minas Tirith: he
        becomes ruler (king) of Gondor, moved by Gondor, and a game-long alliance of Gondor and the
        Fellowship takes effect."""
    if st["king"] or alive(st, "denethor") or alive(st, "boromir") or not st["paths"] or not alive(st, "aragorn"):
        return []
    if hex_of(st, "aragorn") != lookup._bd(rs, st).places["minas-tirith"]:
        return []
    st["king"] = "aragorn"
    a = st["chars"]["aragorn"]
    a["seat"], a["hidden"], a["located"], a["spotted"] = "gondor", False, [], []
    pair = ["fellowship", "gondor"]
    if pair not in st["alliances"]:
        st["alliances"].append(pair)
    st["permanent"].append(pair)
    return [Event(public="Aragorn, through the Paths of the Dead, comes to Minas Tirith: he is King of Gondor, "
                         "moved by Gondor; Gondor and the Fellowship are allied for the rest of the game.",
                  section=S_DD1, reveals=True)]


# ------------------------------------------------------------------ GG.1
def _king_of_rohan(rs, st) -> str | None:
    for cid in ROHAN_LINE:
        if alive(st, cid):
            return cid
    return None


# ------------------------------------------------------------------ DD.2, GG.2, restrictions
def _command_error(rs, st, seat, hx, cmd) -> str | None:
    """Why ``cmd`` may not command ``seat``'s stack in ``hx`` (None: it may)."""
    units = [u for u in units_in(st, hx) if lookup._unit_seat(rs, st, u) == seat]
    if not units:
        return "you have no army unit there"
    races = {st["units"][u]["race"] for u in units}
    nations = {st["units"][u]["nation"] for u in units}
    # only characters the seat may see: naming a hidden one is refused as if it were elsewhere
    here = [c for c, d in st["chars"].items() if d["alive"] and d["hex"] == hx and lookup._sees_char(rs, st, seat, c)]
    if cmd == "nazgul":
        if not any(st["nazgul"][n]["hex"] == hx for n in nazgul._nazgul_of(rs, st, seat)):
            return "you have no Nazgul there"
        if races & set(FREE_RACES):
            return "no elves, dwarves, men of Gondor, Rohan or the West may be commanded by a Nazgul (" + \
                S_ALLIANCE_R + ")"
        return None
    if cmd not in here:
        return f"{st['chars'][cmd]['name']} is not there"
    c = st["chars"][cmd]
    if c["side"] in ("fellowship", "gondor", "rohan") and "orc" in races and \
            not (st["ring"]["bearer"] == cmd and st["ring"]["wearing"]):
        return f"characters of the Fellowship, Gondor and Rohan may not command orcs unless wearing the Ring " \
               f"({S_ALLIANCE_R})"
    if "gondor" in nations:
        ruler = _ruler(rs, st)
        for must in ("denethor", "boromir"):
            if must in here:
                if cmd != must:
                    return f"a stack of Gondor units with {st['chars'][must]['name']} is commanded by him ({S_DD2})"
                return None
        if "faramir" in here:
            defer = ruler == "faramir" and allied(st, "gondor", "fellowship") and cmd in ("gandalf", "aragorn")
            if cmd != "faramir" and not defer:
                return f"a stack of Gondor units with Faramir is commanded by him (he may defer only to Gandalf or " \
                       f"Aragorn, as ruler allied with the Fellowship) ({S_DD2})"
            return None
    if "rohan" in nations:
        king = _king_of_rohan(rs, st)
        for must in ("theoden", "theodred"):
            if must in here:
                if cmd == must:
                    return None
                if _rohan_may_defer(rs, st, must, cmd, king):
                    return None
                return f"a stack of Rohan units with {st['chars'][must]['name']} is commanded by him ({S_GG2})"
        if cmd == "eowyn" and king != "eowyn":
            return f"Eowyn leads armies with her Morale only as Queen of Rohan ({S_GG1})"
    return None


def _stack_commanders(rs, st, seat_view) -> dict:
    """DD.2 and GG.2 worked out for every stack of Gondor or Rohan units: the character who must command
        it, where the rule names one (a seat's own choice by `command` otherwise). Only characters the
        viewer may see count (a hidden Boromir is not shown to the public)."""
    out = {}
    hexes = sorted({u["hex"] for u in st["units"].values() if u["sp"] > 0 and u["nation"] in ("gondor", "rohan")})
    for hx in hexes:
        nations = {st["units"][u]["nation"] for u in units_in(st, hx)}
        here = [c for c, d in st["chars"].items() if d["alive"] and d["hex"] == hx
                and lookup._sees_char(rs, st, seat_view, c)]
        must = None
        if "gondor" in nations:
            must = next((c for c in ("denethor", "boromir", "faramir") if c in here), None)
        if must is None and "rohan" in nations:
            must = next((c for c in ("theoden", "theodred") if c in here), None)
        chosen = next((v for k, v in st["commands"].items() if k.endswith(":" + hx)), None)
        if must or chosen:
            who = must or chosen
            out[hx] = "a Nazgul" if who == "nazgul" else st["chars"][who]["name"]
    return out


def _rohan_may_defer(rs, st, who, cmd, king) -> bool:
    """GG.2: allied with the Fellowship any Rohan character may defer to Gandalf; with Saruman to Saruman;
        with Gondor the King (Queen) to the ruler of Gondor and a lesser one to any Gondor character."""
    seat = st["chars"][who]["seat"]
    if cmd == "gandalf" and allied(st, seat, "fellowship") and seat != "fellowship":
        return True
    if cmd == "saruman" and allied(st, seat, "saruman"):
        return True
    if st["players"] == 5 and allied(st, "rohan", "gondor"):
        if who == king:
            return cmd == _ruler(rs, st)
        return st["chars"][cmd]["side"] == "gondor"
    return False


def _p_command(rs, st, seat, w):
    if len(w) != 2:
        raise lookup._usage(rs, "command")
    lookup._turn_of(rs, st, seat, "naming a commander")
    hx = lookup._hex(rs, st, w[0])
    cmd = "nazgul" if w[1].lower() == "nazgul" else lookup._char(rs, st, w[1])
    err = _command_error(rs, st, seat, hx, cmd)
    if err:
        raise refuse(err)
    return (hx, cmd)


def _a_command(rs, st, seat, args, dice):
    hx, cmd = args
    st["commands"][f"{seat}:{hx}"] = cmd
    who = "a Nazgul" if cmd == "nazgul" else st["chars"][cmd]["name"]
    return [Event(public=f"{title(seat)}'s stack at {hx} is commanded by {who}.")]


def _stack_error(rs, st, seat, movers: list[tuple[str, str]], hx) -> str | None:
    """Restrictions on Alliances: men of Rohan, Gondor or the West, elves and dwarves never stack with
        orcs, nor men of Rohan with Dunlendings or their Chief, except to fight them (a hex with a seat's
        pieces not allied with the mover's: a battle)."""
    here = [("u", u) for u in units_in(st, hx)] + [("c", c) for c, d in st["chars"].items()
                                                     if d["alive"] and d["hex"] == hx and not d["hidden"]]
    for kind, mid in movers:
        race = st["units"][mid]["race"] if kind == "u" else st["chars"][mid]["race"]
        for k2, oid in here:
            if oid == mid:
                continue
            orace = st["units"][oid]["race"] if k2 == "u" else st["chars"][oid]["race"]
            oseat = lookup._unit_seat(rs, st, oid) if k2 == "u" else st["chars"][oid]["seat"]
            if not allied(st, seat, oseat):
                continue  # to fight them
            pair = {race, orace}
            if "orc" in pair and pair & set(FREE_RACES):
                return f"men of Rohan, Gondor or the West, elves and dwarves never stack with orcs except to " \
                       f"fight them ({S_ALLIANCE_R})"
            if "man-rohan" in pair and ("dunlending" in pair or oid == "dunlending-chief" or mid == "dunlending-chief"):
                return f"men of Rohan never stack with Dunlendings except to fight them ({S_ALLIANCE_R})"
    return None


# ------------------------------------------------------------------ DD.3 and individual combat
def _p_challenge(rs, st, seat, w):
    if len(w) not in (2, 3) or (len(w) == 3 and w[2] != "sorcery"):
        raise lookup._usage(rs, "challenge")
    lookup._turn_of(rs, st, seat, "individual combat")
    a, b = lookup._char(rs, st, w[0]), lookup._char(rs, st, w[1])
    if st["chars"][a]["seat"] != seat:
        raise refuse(f"{st['chars'][a]['name']} is not yours")
    if a == "denethor":
        raise refuse("Denethor may never initiate individual combat", S_DD3)
    if hex_of(st, a) != hex_of(st, b) or st["chars"][b]["hidden"] and not lookup._sees_char(rs, st, seat, b):
        raise refuse("individual combat is between characters in the same hex")
    if a == "faramir" and not mobilization._mobilized(rs, st, "gondor"):
        if lookup._bd(rs, st).province_of[hex_of(st, a)] not in ("south-ithilien", "north-ithilien"):
            raise refuse("before Gondor mobilizes, Faramir fights only in Ithilien", S_MOB)
    if len(w) == 3 and "sorcery" not in st["chars"][a].get("ratings", {}):
        raise refuse(f"{st['chars'][a]['name']} has no Sorcery Rating: only a sorcerer declares `sorcery`", S_AA2)
    return (a, b, "sorcery") if len(w) == 3 else (a, b)


def _a_challenge(rs, st, seat, args, dice):
    a, b = args[:2]
    sorcery = len(args) == 3
    ev = [Event(public=f"{st['chars'][a]['name']} challenges {st['chars'][b]['name']} to individual combat"
                       f"{', using sorcery' if sorcery else ''} (the base game's G rules: the table resolves it).")]
    r = st["ring"]
    if b == "boromir" and r["bearer"] == "boromir" and st["chars"]["boromir"]["seat"] == "gondor":
        # AA.2 (a): Boromir, having seized the Ring, must put it on only against a character with a Sorcery
        # Rating whose player will use sorcery in this combat (declared with the challenge)
        if sorcery and not r["wearing"]:
            r["wearing"] = True
            ev.append(Event(public="Boromir must put on the Ring against sorcery: he wears it (AA.2 a).",
                            section=S_AA2))
        elif not sorcery and not r["wearing"]:
            ev.append(Event(public="No sorcery: Boromir need not put on the Ring (AA.2 a).", section=S_AA2))
    return ev


def _p_paths(rs, st, seat, w):
    if w or seat != "fellowship":
        raise refuse("`paths`: the Fellowship records that Aragorn has taken the Paths of the Dead")
    if st["paths"] or not alive(st, "aragorn"):
        raise refuse("Aragorn has taken the Paths already, or is dead")
    lookup._turn_of(rs, st, seat, "the Paths of the Dead")
    return ()


def _a_paths(rs, st, seat, args, dice):
    st["paths"] = True
    return [Event(public="Aragorn takes the Paths of the Dead.")] + _check_king(rs, st)
