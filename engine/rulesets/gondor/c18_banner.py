"""18.0 The Banner of the King: unfurled when Aragorn is revealed (17.23), carried by a Westernesse
leader, moving with him, falling when he falls, and what it gives (movement, rally).
"""
from __future__ import annotations

from engine.core import Event, IllegalOrder, State
from engine.hexgrid import distance
from engine.spi.common import _phrase
from engine.spi.standard import StandardRules

from .common import BANNER
from engine.rulesets.gondor import c20_victory
from engine.spi import c03_sequence


# ----------------------------------------------------------- 18.x Banner
def _banner_unfurled(rs, state: State) -> bool:
    return BANNER in state["units"] and state["units"][BANNER]["status"] == "map"


def _west_leaders_in(rs, state: State, hx: str | None) -> list[str]:
    return sorted(x for x, r in state["units"].items() if r["status"] == "map" and r["hex"] == hx
                  and rs.units[x].is_leader and rs.units[x].side == "westernesse")


def movement_allowance(rs, state: State, uid: str, ma: float) -> float:
    """18.13: the Banner moves with a leader's allowance (an entry of Gondor's ``MOVEMENT_ALLOWANCE``)."""
    if uid == BANNER:
        return rs.charts_for(state)["movement"]["leader"]
    return ma


def check_move_end(rs, state: State, seat: str, uids: list[str], dest: str, occ) -> None:
    rest = [u for u in uids if u != BANNER]
    StandardRules.hooks.check_move_end(rs, state, seat, rest or uids, dest, occ)
    if BANNER in uids:
        with_ = [x for x in occ.get(dest, ()) if x not in uids and rs.units[x].is_leader
                 and rs.units[x].side == "westernesse"] + [x for x in rest if rs.units[x].is_leader]
        if not with_:
            raise IllegalOrder("the Banner of the King must end its move stacked with a Westernesse leader",
                               "18.13")


def after_move(rs, state: State, seat: str, uids: list[str], trail: list[str]) -> list[Event]:
    events: list[Event] = []
    if any(rs.units[u].is_combat for u in uids):  # 20.1: occupy or pass through
        road = state.setdefault("road", {h: None for h in rs._road_hexes_20_1})
        for hx in trail:
            if hx in road:
                road[hx] = seat
    # 18.13 (ruling): the Banner goes with the last leader to leave its hex
    if (_banner_unfurled(rs, state) and BANNER not in uids and len(trail) > 1
            and any(rs.units[u].is_leader for u in uids) and state["units"][BANNER]["hex"] == trail[0]
            and not _west_leaders_in(rs, state, trail[0])):
        state["units"][BANNER]["hex"] = trail[-1]
        events.append(Event(public=f"The Banner of the King goes with {_phrase(uids)} to {trail[-1]} (18.13).",
                            section="18.13"))
    return events


def after_retreat(rs, state: State, uids: list[str], here: str, hx: str) -> list[str]:
    """18.13: the Banner goes with its leader's retreat (an entry of Gondor's ``AFTER_RETREAT``)."""
    if _banner_follows(rs, state, here, hx):
        return ["the Banner of the King goes with its leader (18.13)"]
    return []


def _displace_leader(rs, state: State, ldr: str) -> list[str]:
    here = state["units"][ldr]["hex"]
    lines = StandardRules.hooks._displace_leader(rs, state, ldr)
    if _banner_follows(rs, state, here, state["units"][ldr]["hex"]):
        lines.append(f"the Banner of the King goes with {ldr} (18.13)")
    return lines


def _banner_follows(rs, state: State, here: str | None, hx: str | None) -> bool:
    if (_banner_unfurled(rs, state) and here and hx and here != hx and state["units"][BANNER]["hex"] == here
            and not _west_leaders_in(rs, state, here) and _west_leaders_in(rs, state, hx)):
        state["units"][BANNER]["hex"] = hx
        return True
    return False


def _leader_loss(rs, state: State, ldr: str, points: int) -> str:
    here = state["units"][ldr]["hex"]
    text = StandardRules.hooks._leader_loss(rs, state, ldr, points)
    lines = _banner_falls(rs, state, here)
    return text + ("; " + "; ".join(lines) if lines else "")


def on_eliminate(rs, state: State, uid: str, here: str | None) -> None:
    """18.13: the Banner falls with the last leader of its hex (an entry of Gondor's ``ON_ELIMINATE``)."""
    if rs.units[uid].is_leader:
        _banner_falls(rs, state, here)


def _banner_falls(rs, state: State, here: str | None) -> list[str]:
    """18.14: the Banner is eliminated with the leader stacked with it."""
    if (_banner_unfurled(rs, state) and here and state["units"][BANNER]["hex"] == here
            and not _west_leaders_in(rs, state, here)):
        state["units"][BANNER]["status"] = "eliminated"
        state["units"][BANNER]["hex"] = None
        state["effects"] = [e for e in state["effects"] if not e.get("banner")]
        return ["the Banner of the King falls with its leader (18.14)"]
    return []


def _banner_sanity(rs, state: State) -> list[str]:
    """However a leader died (a siege weapon, say), the Banner does not
        stay alone on the map (18.14)."""
    if _banner_unfurled(rs, state):
        return _banner_falls(rs, state, state["units"][BANNER]["hex"])
    return []


def _banner_step(rs, state: State) -> list[Event]:
    events: list[Event] = []
    if not _banner_unfurled(rs, state):
        return events
    if not any(e.get("banner") for e in state["effects"]):  # its three Game-Turns are over
        state["units"][BANNER]["status"] = "reinforcement"  # back off the map
        state["units"][BANNER]["hex"] = None
        events.append(Event(public="The Banner of the King is furled: its three Game-Turns are over (17.23).",
                            section="17.23"))
        return events
    if c03_sequence.kind(rs, state) != "rally":
        return events
    ch = c20_victory._cmd(rs, state, "banner")
    bh = state["units"][BANNER]["hex"]
    if any(e.get("no_rally") and e.get("side") == "westernesse" for e in state["effects"]):
        stop = next(e for e in state["effects"] if e.get("no_rally") and e.get("side") == "westernesse")
        events.append(Event(public=f"The Banner of the King rallies no one this turn: no Westernesse unit may be "
                                   f"rallied while {stop['title']} lasts ({stop['section']}, 18.22).",
                            section="18.22"))
        return events
    near = sorted((distance(bh, r["hex"]), uid) for uid, r in state["units"].items()
                  if r["status"] == "map" and r.get("disrupted") and rs.units[uid].side == "westernesse"
                  and rs.units[uid].is_combat and distance(bh, r["hex"]) <= ch["range"])
    chosen = [uid for _, uid in near[:ch["auto_rally"]]]
    for uid in chosen:
        state["units"][uid]["disrupted"] = False
    if chosen:
        events.append(Event(public=f"The Banner of the King in {bh}: {_phrase(chosen)} "
                                   f"{'is' if len(chosen) == 1 else 'are'} rallied automatically (18.22).",
                            section="18.22"))
    return events


def check_rally_extra(rs, state: State, seat: str, leader: str, uid: str) -> None:
    StandardRules.hooks.check_rally_extra(rs, state, seat, leader, uid)
    if seat == "sauron" and _banner_unfurled(rs, state):
        r = c20_victory._cmd(rs, state, "banner")["range"]
        d = distance(state["units"][BANNER]["hex"], state["units"][uid]["hex"])
        if d <= r:
            raise IllegalOrder(f"{uid} is {d} hexes from the Banner of the King: no Sauron unit within {r} hexes "
                               "of it may be rallied", "18.21")
