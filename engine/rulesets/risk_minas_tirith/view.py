"""What the players see (seed:002, all sections; rulings in docs/risk-minas-tirith.md):
the per-seat view for the map and the status line, the phase title, the secret text (none:
hands are face up, seed 2. Draw Reinforcement cards), the help text, and the exact odds of a
proposed attack (Ranged Attack; Ground Attack; How to do Battle; Retreat)."""
from __future__ import annotations

import itertools
from fractions import Fraction

from engine.core import Action, IllegalOrder, InvalidOrder, State, clone
from engine.display import load as load_display
from engine.rulesets.risk_minas_tirith.common import (
    DATA, SEATS, TITLES, COLORS, CODES, _plural,
)
from engine.rulesets.risk_minas_tirith import attack, common, forces, losses, retreat, turn

DISPLAY = load_display(DATA / "display.json")  # how the board and its armies are drawn (engine/display.py)


# The view, the phase title, help and odds.


def format(rs, action: Action) -> str:
    return str(action)


def phase_title(rs, state: State) -> str:
    ph = {"die": "choose an Action die", "cards": "Reinforcement cards", "actions": "Actions"}[state["phase"]]
    extra = f", {_plural(state['actions'], 'Action point')} left" if state["phase"] == "actions" else ""
    rt = retreat._pending_retreat(state)
    if rt and not state["over"]:
        head = rt["queue"][0]
        opts = " or ".join(f"`retreat {' '.join(o)}`" for o in head["options"][:4])
        extra += (f"; {TITLES[head['side']]} chooses where the force in {forces._name(rs, head['area'])} retreats: "
                  f"{opts}" + (" ..." if len(head["options"]) > 4 else ""))
    return f"Round {state['round']}, turn {state['turn_in_round']} of 3: {TITLES[state['active']]}, {ph}{extra}"


def view(rs, state: State, seat: str | None) -> dict:
    own = seat if seat in SEATS else None
    areas = {}
    units = []
    for aid in rs.board.ids:
        rec = state["areas"][aid]
        side = forces._side_of(state, aid)
        areas[aid] = {"side": side, "units": dict(rec["u"]) if side else {},
                      "leaders": [{"id": x, "name": forces._lname(rs, x), "color": forces.leader_color(rs, x)}
                                  for x in rec["leaders"]],
                      "fired": state["fired"].get(aid, 0), "tower": aid in state["towers"]}
        for t, n in rec["u"].items():
            units.append({"id": f"{aid}:{CODES[t]}", "side": side, "type": t, "count": n, "hex": aid,
                          "area": aid})
        for x in rec["leaders"]:
            units.append({"id": x, "side": side, "type": "leader", "name": forces._lname(rs, x), "hex": aid,
                          "area": aid})
    hands = {}
    for s in SEATS:
        hands[s] = {
            "reinforcement": [dict(id=c, **rs.reinforcement_cards[c]) for c in state["hands"][s]["reinf"]],
            "minas_tirith": [{"id": c, "name": forces._mt(rs, state, c)["name"], "kind": forces._mt(rs, state, c)["kind"],
                              "on_card": dict(state["hosts"].get(c, {}))} for c in state["hands"][s]["mt"]],
        }
    pts = turn.points(rs, state)
    v = {
        "ruleset": rs.name, "title": "LOTR Risk: Minas Tirith", "board": "area", "seat": own,
        "turn": state["turn"], "turns": "until the last Reinforcement card", "night": False,
        "round": state["round"], "turn_in_round": state["turn_in_round"], "roller": state["roller"],
        "phase": state["phase"], "phase_title": phase_title(rs, state), "active": rs.active_seats(state),
        "done": [], "action_dice": list(state["action_dice"]), "die": state["die"], "actions": state["actions"],
        "sides": {s: {"title": TITLES[s], "color": COLORS[s]} for s in SEATS},
        "display": DISPLAY,  # how the board and its armies are drawn (engine/display.py)
        "areas": areas, "units": units, "hands": hands,
        "decks": {"reinforcement": len(state["hidden"]["reinf_deck"]),
                  "minas_tirith": len(state["hidden"]["mt_deck"])},
        "discards": {"reinforcement": list(state["reinf_discard"]), "minas_tirith": list(state["mt_discard"])},
        "lost": clone(state["lost"]), "gate_broken": state["gate_broken"], "towers": list(state["towers"]),
        "flags": dict(state["flags"]), "pending": clone(state["pending"]),
        # standing loss priorities are public (nothing here is secret); the seat's own one first
        "loss_priority": {s: [CODES[t] for t in losses.loss_priority(rs, state, s) if t in rs.cards["forces"][s]]
                          for s in SEATS},
        "own_loss_priority": ([CODES[t] for t in losses.loss_priority(rs, state, own)
                               if t in rs.cards["forces"][own]] if own else None),
        "points": pts,
        "tracks": [{"name": "Good points", "side": "good", "points": pts["good"], "level": None},
                   {"name": "Evil points", "side": "evil", "points": pts["evil"], "level": None},
                   {"name": "Reinforcement cards left", "side": None,
                    "points": len(state["hidden"]["reinf_deck"]), "level": 66}]
        + [{"name": f"{TITLES[s]} loses first", "side": s,
            "points": " ".join(CODES[t] for t in losses.loss_priority(rs, state, s) if t in rs.cards["forces"][s]),
            "level": None} for s in SEATS],
        "over": clone(state["over"]),
    }
    return v


def secret_text(rs, state: State, seat: str) -> str | None:
    return None  # hands are face up (seed, Draw Reinforcement cards); only the deck order is hidden

HELP_TOPICS = {"orders": "orders", "order": "orders", "notation": "orders", "cards": "orders",
               "actions": "orders", "losses": "orders", "retreat": "orders", "phases": "phases",
               "phase": "phases", "turn": "phases", "sequence": "phases", "setup": "setup", "set-up": "setup",
               "secrets": "secrets", "secret": "secrets", "hidden": "secrets"}


def help_topics(rs) -> tuple[str, ...]:
    return ("orders", "phases", "setup", "secrets", "cards", "actions", "losses", "retreat")


def help(rs, topic: str | None = None) -> str:
    t = HELP_TOPICS.get((topic or "").strip().lower())
    if t == "orders":
        return (
            "**LOTR Risk: Minas Tirith: the orders** (`/order text:`; autocomplete offers every legal one):\n"
            "- Select an Action die: `take 4` (Taking your turn, 1-2).\n"
            "- Cards: `exchange inf1 inf4 wild1` (three of a kind; with your shield add `special draw`, "
            "`special take <card>` or `special place inf at <area>`: Special Exchange), `keep mt3` (a Minas "
            "Tirith card), `reinforce cav3 on theoden`, `play gandalf at city`, `done` to start your Actions.\n"
            "- Actions: `move 2inf 1cav faramir from causeway to grond` (cavalry: `move 3cav from causeway via rammas-e to fort-w`), "
            "`attack 3 from fort-e at osgiliath-w`, `fire 2 from wall-n at pelennor-n`, `fire catapult from "
            "wall-gate at causeway`, `advance 2cav from grond to causeway` (free), `enter theoden at druadan`, "
            "`trade mumak at pelennor-n`, `ram grond`, `strike fell-beasts at wall-n`, `done`.\n"
            "- Losses: `losses inf arc cav` sets your standing loss priority (first lost first; `losses default` "
            "= cheapest first), at any time; every loss follows it.\n"
            "- Retreat: when more than one Territory toward your end qualifies, you are asked: `retreat <area> "
            "[<area> ...]`, the whole path, one area per 6.\n"
            "Types: inf arc cav hor(se archers) tro(ll) mum(ak). `/odds text:attack 3 from fort-e at osgiliath-w` "
            "gives exact odds first.")
    if t == "phases":
        return (
            "**LOTR Risk: Minas Tirith: the sequence of play** (Gameplay; Taking your turn)\n"
            "The game is played in rounds of three turns. The side that rolls the three Action dice alternates: "
            "Good in round 1 (Good, Evil, Good), Evil in round 2 (Evil, Good, Evil), and so on.\n"
            "Each turn has four phases: 1. select an Action die (`take <die>`); 2. draw Reinforcement cards "
            "(6 minus the die: a 6 draws none, a 1 draws five); 3. exchange and play cards (`exchange`, `keep`, "
            "`reinforce`, `play`; seven or more cards must be exchanged), `done`; 4. as many Actions as the "
            "die shows (`move`, `attack`, `fire`, ...), `done`.\n"
            "Good wins at once when two Evil Leaders are lost, Evil when an Evil battalion occupies Minas "
            "Tirith; otherwise the game ends when the last Reinforcement card is drawn, and the higher points "
            "win (Winning the game). `/game status` shows whose turn and phase it is.")
    if t == "setup":
        return (
            "**LOTR Risk: Minas Tirith: set-up** (Set up)\n"
            "Nothing to type: the bot places both sides' starting battalions and leaders as the board shows "
            "(the seed's placement, reconstructed where its picture is missing: docs/risk-minas-tirith.md), "
            "shuffles the Reinforcement and Minas Tirith decks with the game's dice, and Good rolls the first "
            "Action dice. `/game new options:mt_cards=...` chooses the Minas Tirith deck.")
    if t == "secrets":
        return (
            "**LOTR Risk: Minas Tirith: hidden information**\n"
            "Only the order of the two face-down decks is hidden, from both sides alike: cards drawn are kept "
            "face up (Draw Reinforcement cards), so no seat has secrets and `/secret` has nothing to send. The "
            "decks were shuffled with the game's dice, whose seed is committed at `/game start` and published "
            "with `/game export` at the end.")
    return (
        "**LOTR Risk: Minas Tirith** (Hasbro 2003). Seats `good`, `evil`. Three turns a round; the rolling side "
        "alternates. Each turn: `take <die>`, then card plays, `done`, then Actions, `done`. Board and Minas "
        "Tirith cards are reconstructed: docs/risk-minas-tirith.md.\n"
        "Its headline rules: **the action dice** (`take <die>`), **reinforcement and Minas Tirith cards**, "
        "**ranged and ground attacks** with retreats, leaders, banners and siege towers, and points at the end.\n"
        "`/help topic:orders`, `/help topic:phases`, `/help topic:setup`, `/help topic:secrets`.")


def odds_table(rs, state: State, seat: str, text: str) -> dict:
    """Exact outcome probabilities of a proposed ground or ranged attack."""
    action = common._parse(rs, state, seat, text)
    if seat not in SEATS:
        raise IllegalOrder(f"`{seat}` is not a seat in this game (good, evil)")
    if action.verb == "attack":
        attack._check_attack(rs, state, seat, action.args, ignore_turn=True)
        return _odds_ground(rs, state, seat, action)
    if action.verb == "fire":
        attack._check_fire(rs, state, seat, action.args, ignore_turn=True)
        return _odds_fire(rs, state, seat, action)
    raise InvalidOrder("odds are for `attack <n> from <area> at <area>` and `fire <n> from <area> at <area>`")


def _odds_fire(rs, state, seat, action) -> dict:
    n, src, dst = action.args[0], action.args[2], action.args[4]
    if n == "catapult":
        k, banner = 1, False
    else:
        k, banner = attack.fire_dice(rs, state, seat, int(n), dst)
    cap = forces._bn(state, dst)
    dist: dict[tuple, Fraction] = {}
    for h in range(k + 1):
        p = Fraction(_comb(k, h)) * Fraction(1, 6) ** h * Fraction(5, 6) ** (k - h)
        key = (0, min(h, cap))
        dist[key] = dist.get(key, 0) + p
    mods = ["Banner of Gondor: Evil rolls one die per two archer battalions"] if banner else []
    return {"kind": "fire", "dice": (k, 0), "dice_losses": dict(dist), "final": {(0, h, ""): p for (_, h), p in
                                                                                dist.items()},
            "modifiers": mods, "src": src, "dst": dst, "seat": seat}


def _comb(n, k):
    from math import comb
    return comb(n, k)


def _odds_ground(rs, state, seat, action) -> dict:
    n, src, dst = int(action.args[0]), action.args[2], action.args[4]
    nd = attack.defence_dice(rs, state, dst)
    am, dm, why = attack.modifiers(rs, state, seat, src, dst)
    total = 6 ** (n + nd)
    groups: dict[tuple, list] = {}
    for roll in itertools.product(range(1, 7), repeat=n + nd):
        att, dfn = list(roll[:n]), list(roll[n:])
        A, D = sorted(att, reverse=True), sorted(dfn, reverse=True)
        A[0] += am
        D[0] += dm
        al = sum(1 for x, y in zip(A, D) if x <= y)
        dl = sum(1 for x, y in zip(A, D) if x > y)
        key = (al, dl, att.count(6), dfn.count(6))
        if key in groups:
            groups[key][0] += 1
        else:
            groups[key] = [1, att, dfn]
    dice_losses: dict[tuple, Fraction] = {}
    final: dict[tuple, Fraction] = {}
    assumed = False
    for (al, dl, _, _), (cnt, att, dfn) in groups.items():
        p = Fraction(cnt, total)
        dice_losses[(al, dl)] = dice_losses.get((al, dl), 0) + p
        work = {"areas": clone(state["areas"]), "lost": clone(state["lost"]), "towers": list(state["towers"]),
                "flags": dict(state["flags"]), "fired": dict(state["fired"]), "gate_broken": state["gate_broken"],
                "loss_priority": clone(state.get("loss_priority") or {})}
        # where the owner chooses a retreat path, assume the first listed: fewest battalions lost
        r = attack.resolve_ground(rs, work, seat, n, src, dst, att, dfn, choose=lambda paths: paths[0])
        assumed = assumed or r["assumed"]
        aL = sum(v for k, v in r["a_lost"].items() if k != "leaders")
        dL = sum(v for k, v in r["d_lost"].items() if k != "leaders")
        note = []
        for rt in r["retreats"]:
            extra = sum(v for k, v in rt["lost"].items() if k != "leaders")
            if rt["side"] == seat:
                aL += extra
            else:
                dL += extra
            steps = len(rt["path"]) - 1
            who = "you" if rt["side"] == seat else "they"
            if steps:
                note.append(f"{who} retreat {steps}")
            if extra:
                note.append(f"{who} blocked")
        if r["advance"]:
            note.append("cleared")
        key = (aL, dL, ", ".join(note))
        final[key] = final.get(key, 0) + p
    return {"kind": "attack", "dice": (n, nd), "dice_losses": dice_losses, "final": final, "modifiers": why,
            "src": src, "dst": dst, "seat": seat, "bonus": (am, dm), "assumed_retreat": assumed}


def odds(rs, state: State, seat: str, text: str) -> str:
    t = odds_table(rs, state, seat, text)
    src, dst = forces._name(rs, t["src"]), forces._name(rs, t["dst"])
    total = 6 ** sum(t["dice"])

    def frac(p: Fraction) -> str:  # over the number of dice combinations, unreduced
        return f"{p * total}/{total} ({float(p):.1%})"
    lines = []
    if t["kind"] == "fire":
        lines.append(f"**Ranged attack** {src} → {dst}: {_plural(t['dice'][0], 'die')}, a hit on each 6 "
                     "(no defence; no retreat).")
        for (_, h), p in sorted(t["dice_losses"].items()):
            lines.append(f"- they lose {h}: {frac(p)}")
    else:
        a, d = t["dice"]
        lines.append(f"**Ground attack** {src} → {dst}: {a} attacking {'die' if a == 1 else 'dice'} vs "
                     f"{d} defending.")
        lines.append("Dice (highest against highest, ties to the defender):")
        for (al, dl), p in sorted(t["dice_losses"].items()):
            lines.append(f"- you lose {al}, they lose {dl}: {frac(p)}")
        if len(t["final"]) != len(t["dice_losses"]) or any(k[2] for k in t["final"]):
            lines.append("With retreats (each Good 6, or Evil 6 with the Lord of the Nazgul, moves the other "
                         "force one Territory toward its end or costs a battalion if blocked):")
            items = sorted(t["final"].items(), key=lambda kv: (-kv[1], kv[0]))
            for (al, dl, note), p in items[:12]:
                lines.append(f"- you lose {al}, they lose {dl}{'; ' + note if note else ''}: {frac(p)}")
            if len(items) > 12:
                rest = sum(p for _, p in items[12:])
                lines.append(f"- {len(items) - 12} rarer outcomes: {float(rest):.1%}")
            if t.get("assumed_retreat"):
                lines.append("Assumed: where a retreating force's owner may choose between paths that lose "
                             "different numbers of battalions, the path losing fewest (the first one offered).")
    lines.append("Modifiers: " + ("; ".join(t["modifiers"]) if t["modifiers"] else "none") + ".")
    out = "\n".join(lines)
    return out[:1790]
