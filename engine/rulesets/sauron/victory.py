"""Victory (reconstructed: the original's victory point schedule is not available, facts.md 9.4; the
seed's expanded game says its own victory conditions are "still needed"). Data: charts.toml [victory].

At the end of Game-Turn 18 each side scores the demoralization points its enemy has suffered, +25 if
the enemy army is demoralized, Westernesse +30 if Sauron is dead, Sauron +30 if Elendil and Gil-galad
are both dead. More points wins; twice the loser's points and a margin of 40 or more is decisive.
Anything less is marginal (or a draw on equal points): "neither player achieves a decisive victory",
and the group may play the expanded game (docs/sauron.md).
"""
from __future__ import annotations

from engine.core import State
from engine.spi import c02_units


def victory_points(rs, state: State) -> dict[str, int]:
    v = rs.raw(state)["victory"]
    pts = {}
    for seat in ("sauron", "westernesse"):
        enemy = c02_units.enemy(rs, seat)
        p = max(rs.hooks.dem_total(rs, state, enemy), 0)
        if rs.hooks.demoralized(rs, state, enemy):
            p += v["demoralized"]
        pts[seat] = p
    if state["units"]["SAU"]["status"] == "eliminated":
        pts["westernesse"] += v["sauron_dead"]
    if all(state["units"][x]["status"] == "eliminated" for x in ("ELE", "GIL")):
        pts["sauron"] += v["kings_dead"]
    return pts


def result_why(rs, state: State, over: dict) -> str:
    pts = over.get("points")
    if not isinstance(pts, dict) or "sauron" not in pts:
        return ""
    kind = "a Decisive Victory" if over.get("decisive") else "a Marginal Victory"
    w = over.get("winner")
    if not w:
        return f"victory points {pts['sauron']} each"
    return f"{kind}, {pts[w]} victory points to {pts[c02_units.enemy(rs, w)]}"


def final_result(rs, state: State) -> dict:
    v = rs.raw(state)["victory"]
    pts = victory_points(rs, state)
    s, w = pts["sauron"], pts["westernesse"]
    tally = f"Victory points: Sauron {s}, Westernesse {w}"
    if s == w:
        return {"winner": None, "summary": f"The eighteen Game-Turns are over. {tally}: a draw; neither side "
                                           "wins decisively: the expanded game may follow.",
                "section": "victory", "points": pts, "decisive": False}
    win = "sauron" if s > w else "westernesse"
    hi, lo = max(s, w), min(s, w)
    decisive = hi >= v["decisive_ratio"] * lo and hi - lo >= v["decisive_margin"]
    kind = "Decisive Victory" if decisive else "Marginal Victory"
    more = "" if decisive else "; neither side wins decisively: the expanded game may follow"
    return {"winner": win, "summary": f"The eighteen Game-Turns are over. {tally}: {kind} for "
                                      f"{c02_units.title_of(rs, win)}{more}.",
            "section": "victory", "points": pts, "decisive": decisive}
