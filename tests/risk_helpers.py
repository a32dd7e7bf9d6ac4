"""Shared set-ups for the LOTR Risk: Minas Tirith tests."""
from engine.core import Game
from engine.rulesets import get_ruleset

RS = get_ruleset("risk-minas-tirith")


def empty_game(seed="t", **opts) -> Game:
    g = Game.new(get_ruleset("risk-minas-tirith"), options=opts, seed=seed)
    for rec in g.state["areas"].values():
        rec.update(side=None, u={}, leaders=[])
    return g


def put(g: Game, area: str, side: str, leaders=(), **units) -> None:
    rec = g.state["areas"][area]
    rec["side"] = side
    rec["u"] = {k.replace("_", "-"): v for k, v in units.items() if v}
    rec["leaders"] = list(leaders)


def actions_phase(g: Game, seat: str, actions: int = 6) -> None:
    s = g.state
    s["active"], s["phase"], s["actions"], s["die"] = seat, "actions", actions, 6


def cards_phase(g: Game, seat: str, reinf=(), mt=()) -> None:
    s = g.state
    s["active"], s["phase"], s["actions"], s["die"] = seat, "cards", 3, 3
    for c in reinf:
        s["hidden"]["reinf_deck"].remove(c)
    s["hands"][seat]["reinf"] = list(reinf)
    for c in mt:
        if c in s["hidden"]["mt_deck"]:
            s["hidden"]["mt_deck"].remove(c)
    s["hands"][seat]["mt"] = list(mt)
