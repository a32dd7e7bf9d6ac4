"""What each seat sees (the only read path), the secrets by DM, and the help."""
from __future__ import annotations

from engine.rulesets.wotr.common import order, title
from engine.rulesets.wotr import aa_ring, dd_succession, hidden_movement, lookup, nazgul

# the colour the map draws each seat's pieces in (a declaration for the renderer, which knows no game)
SEAT_COLORS = {"fellowship": "#2e7d32", "dark-power": "#1e1e1e", "saruman": "#787882", "gondor": "#284696",
               "rohan": "#aa8214"}

def _piece_views(rs, st, seat) -> list[dict]:
    out = []
    for uid, u in st["units"].items():
        if u["sp"] > 0:
            out.append({"id": uid, "name": u["name"], "hex": u["hex"], "kind": "army", "sp": u["sp"],
                        "seat": lookup._unit_seat(rs, st, uid), "nation": u["nation"], "face": "up"})
    downs = []
    for cid, c in st["chars"].items():
        if not c["alive"]:
            continue
        if lookup._sees_char(rs, st, seat, cid):
            p = {"id": cid, "name": c["name"], "hex": c["hex"], "kind": "character", "seat": c["seat"], "face": "up"}
            if c["hidden"]:
                p["hidden"] = True
            if c.get("ratings"):
                p["ratings"] = dict(c["ratings"])
            out.append(p)
        elif seat in c["located"]:
            downs.append(c["hex"])
    for i, hx in enumerate(sorted(downs), 1):  # face down: the hex only, numbered in hex order
        out.append({"id": f"?{i}", "name": "?", "hex": hx, "kind": "character", "seat": "fellowship", "face": "down"})
    out += nazgul._nazgul_views(rs, st)  # the nine Nazgul: public pieces (Hidden Movement)
    for p in out:
        p["province"] = lookup._bd(rs, st).province_of[p["hex"]]
    return out


def _areas_view(rs, pieces) -> dict:
    areas: dict = {}
    for p in pieces:
        a = areas.setdefault(p["province"], {"units": {}, "leaders": []})
        if p["kind"] == "army":
            a["units"][p["seat"]] = a["units"].get(p["seat"], 0) + p["sp"]
        else:
            a["leaders"].append({"name": p["name"] if p["face"] == "up" else "?", "seat": p["seat"]})
    return areas


def _view(rs, st, seat) -> dict:
    pieces = _piece_views(rs, st, seat)
    ruler = dd_succession._ruler(rs, st)
    king = dd_succession._king_of_rohan(rs, st)
    bearer = st["ring"]["bearer"]
    items = {}
    for item, h in st["items"].items():
        if h is None:
            items[item] = "undealt"
        elif h.startswith("@"):
            items[item] = h[1:]
        elif st["chars"][h]["hidden"] and not lookup._sees_char(rs, st, seat, h):
            items[item] = st["chars"][h]["name"]
        else:
            items[item] = st["chars"][h]["name"]
    v = {"board": "provinces", "title": f"War of the Ring ({st['players']} players"
         + (", All Out War)" if st["scenario"] == "all-out-war" else ")"),
         "turn": st["turn"], "phase": st["phase"], "phase_title": lookup._phase_title(rs, st),
         "active": rs.active_seats(st), "order": list(order(st)), "players": st["players"],
         "scenario": st["scenario"], "last_turn": st["last_turn"],
         # what the map draws each seat in (a declaration for the renderer)
         "sides": {s: {"title": title(s), "color": SEAT_COLORS[s]} for s in SEAT_COLORS},
         "pieces": pieces, "areas": _areas_view(rs, pieces),
         "ring": {"bearer": st["chars"][bearer]["name"] if bearer else None, "wearing": st["ring"]["wearing"],
                  "holder": title(aa_ring._ring_seat(rs, st)), "transfer_failures": st["ring"]["failures"],
                  "gondor_had": st["ring"]["gondor_had"], "seizure_pending": st["ring"]["seizure"] is not None},
         "ruler_of_gondor": st["chars"][ruler]["name"] if ruler else None,
         "king_of_rohan": st["chars"][king]["name"] if king else None,
         "palantir": st["chars"][st["palantir"]]["name"] if st["palantir"] else None,
         "gondor_eliminated": st["gondor_out"], "boromir_attempted": st["boromir_attempted"],
         "nazgul": {s: nazgul._nazgul_count(rs, st, s) for s in ("dark-power", "saruman", "gondor")}, "search_with": {s: nazgul._search_strength(rs, st, s) for s in order(st)},
         "mobilized": {k: v for k, v in st["mobilized"].items()}, "control": dict(st["control"]),
         "continuous": dict(st["held"]), "rohan_attacked_by_gondor": st["rohan_attacked"],
         "alliances": [list(p) for p in st["alliances"]], "offers": [list(p) for p in st["offers"]],
         "played": [dict(p) for p in st["played"]], "hand_sizes": {s: len(h) for s, h in st["hands"].items()},
         "items": items, "shadow_points_lost": st["shadow_lost"], "claims": list(st["claims"]),
         "dead": sorted(c["name"] for c in st["chars"].values() if not c["alive"]),
         "layout": lookup._bd(rs, st).layout() if st.get("map") else None,
         "wraiths": list(st["wraiths"]), "commanders": dd_succession._stack_commanders(rs, st, seat), "over": st["over"]}
    # the map's header lines (a declaration: the renderer draws notes, it knows no Ring)
    facts = [f"Ringbearer: {v['ring']['bearer']}" + (" (wearing the Ring)" if v["ring"]["wearing"] else "")
             if v["ring"]["bearer"] else "",
             f"Ruler of Gondor: {v['ruler_of_gondor']}" if v["ruler_of_gondor"] else "",
             f"King of Rohan: {v['king_of_rohan']}" if v["king_of_rohan"] else ""]
    # the whole board's side panel lines (a declaration too)
    v["panel"] = [f"Ringbearer: {v['ring']['bearer']}" + (" (wearing)" if v["ring"]["wearing"] else ""),
                  f"Ruler of Gondor: {v['ruler_of_gondor']}", f"King of Rohan: {v['king_of_rohan']}"]
    v["notes"] = [" · ".join(f for f in facts if f),
                  "Armies: strength points in the seat's colour; characters and Nazgul: counters (N3: Nazgul 3)"]
    if seat in rs.seats or seat == "gm":
        v["seat"] = seat
        if seat in st["hands"]:
            v["hand"] = list(st["hands"][seat])
        if seat in ("gondor", "fellowship", "gm"):
            v["demand"] = hidden_movement._demand_in_force(rs, st)
        v["barters"] = [dict(b) for b in st["barters"] if seat in (b["from"], b["to"], "gm")]
    return v


def view(rs, st, seat):
    return _view(rs, st, seat)


def full_view(rs, st, views=None):  # (the moderator's view, taken whole: ``views`` are not used)
    v = _view(rs, st, "gm")
    v["hands"] = {s: list(h) for s, h in st["hands"].items()}
    return v


def phase_key(rs, st):
    import json
    return json.dumps([st["turn"], st["phase"], st["at"]])


def secret_text(rs, st, seat):
    lines = []
    if seat == "fellowship" or seat == "gm":
        lines.append("The hidden Fellowship: " + ", ".join(
            f"{c['name']} {c['hex']} ({lookup._bd(rs, st).terrain[c['hex']]}"
            + (f", {title(c['seat'])}'s" if c["seat"] != "fellowship" else "") + ")" for cid, c in st["chars"].items()
            if c["hidden"] and c["alive"] and (seat == "gm" or c["seat"] == "fellowship")) + ".")
    if seat == "gondor" and st["chars"]["boromir"]["hidden"] and st["chars"]["boromir"]["alive"]:
        lines.append(f"Boromir is at {st['chars']['boromir']['hex']}.")
    if seat in ("gondor", "fellowship", "gm"):  # (Gondor's and the Fellowship's: the moderator reads it once)
        lines.append("Gondor's demand (AA.2) is " + ("in force: the Fellowship moves Boromir." if
                                                      hidden_movement._demand_in_force(rs, st) else "not in force."))
    if seat in st["hands"] and st["hands"][seat]:
        lines.append("Event Cards in hand: " + ", ".join(st["hands"][seat]) + ".")
    if seat == "gm":
        for s, h in st["hands"].items():
            if h:
                lines.append(f"{title(s)} holds Event Cards {', '.join(h)}.")
        for s in rs.seats:  # what each searcher knows of the hidden characters
            lines += _found_lines(st, s, f"{title(s)}: ")
    elif seat != "fellowship":
        lines += _found_lines(st, seat, "")
    return "\n".join(lines) or None


def _found_lines(st, seat, who: str) -> list[str]:
    """The hidden characters ``seat`` has spotted, and the hexes where it located one face down."""
    lines = []
    seen = [c for c in st["chars"].values() if c["hidden"] and c["alive"] and seat in c["spotted"]]
    if seen:
        lines.append(who + "Spotted: " + ", ".join(f"{c['name']} at {c['hex']}" for c in seen) + ".")
    down = sorted(c["hex"] for c in st["chars"].values() if c["hidden"] and c["alive"] and seat in c["located"]
                  and seat not in c["spotted"])
    if down:
        lines.append(who + "Located face down: " + ", ".join(down) + ".")
    return lines


def moderator_secret_text(rs, st):
    """The moderator's reading (the ``gm`` seat's text above): every hidden character, Gondor's demand once
    (the merge of the seats' texts said it twice, once as Gondor's and once as the Fellowship's: issue 39),
    every hand, what each searcher found."""
    return rs.secret_text(st, "gm") or ""


# /help: an example for every order (each runs in a fresh game at some moment, tests/test_wotr_help.py) and
# the part of the seed (or the base game, at the table) it belongs to
ORDER_HELP = {
    "move": ("move naz1 E0720", "F, hidden"), "attack": ("attack E0127", "base game"),
    "lose": ("lose gon-mt 2", "table"), "kill": ("kill gothmog", "table"), "capture": ("capture minas-tirith", "victory"),
    "claim": ("claim", "victory"), "challenge": ("challenge gandalf aragorn sorcery", "G, AA.2 a, DD.3"),
    "command": ("command E0228 denethor", "DD.2, GG.2"), "mobilize": ("mobilize gondor", "Mobilization"),
    "draw": ("draw 075", "Sequence"), "event": ("event 075", "AA.2, BB.1"), "nullify": ("nullify 093", "BB.4"),
    "search": ("search gorgoroth:1", "hidden"), "demand": ("demand on", "AA.2"),
    "ring": ("ring on", "AA"), "nazgul": ("nazgul control", "AA.1"), "seizure": ("seizure held", "AA.2"),
    "seize": ("seize denethor", "AA.1, M.3"), "prisoner": ("prisoner frodo on", "AA.2 b"),
    "wraith": ("wraith denethor", "DD.1"), "palantir": ("palantir faramir", "AA.1"), "paths": ("paths", "DD.1"),
    "reveal": ("reveal aragorn", "hidden"), "mind-battle": ("mind-battle sauron", "CC.1"),
    "ally": ("ally fellowship", "CC.2"), "dissolve": ("dissolve fellowship", "CC.2"),
    "barter": ("barter fellowship Anduril for 2 sp", "BB.2"), "agree": ("agree b1", "BB.2"),
    "item": ("item sting frodo", "magic"), "use": ("use athelas aragorn", "magic"),
    "resolve": ("resolve combat 3-1", "charts"),
}
TOPIC_WORDS = {"orders": "orders", "order": "orders", "notation": "orders", "phases": "phases", "phase": "phases",
               "sequence": "phases", "turn": "phases", "setup": "setup", "set-up": "setup", "secrets": "secrets",
               "secret": "secrets", "hidden": "secrets"}


def help_topics(rs):
    from engine.rulesets.wotr import USAGE
    return ("orders", "phases", "setup", "secrets", "ring", "search", "charts", *(v for v in USAGE if v != "done"))


def help_order_line(rs, verb) -> str:
    from engine.rulesets.wotr import USAGE
    ex, sec = ORDER_HELP.get(verb, (None, None))
    return f"`{USAGE[verb]}`" + (f" e.g. `{ex}`" if ex and ex != USAGE[verb] else "") + (f" ({sec})" if sec else "")


def help_orders(rs) -> str:
    from engine.rulesets.wotr import USAGE
    lines = ["**War of the Ring: the orders** (`/order text:`; `!<text>` declares anything else for a ruling):"]
    lines += [f"- {help_order_line(rs, v)}" for v in USAGE if v != "done"]
    lines.append("- `/done` ends your part of a phase.")
    return "\n".join(lines)


def help(rs, topic=None):
    from engine.rulesets.wotr import USAGE
    t = TOPIC_WORDS.get((topic or "").strip().lower(), (topic or "").strip().lower())
    if t == "orders":
        return help_orders(rs)
    if t in USAGE and t not in ("done", "ring", "search"):  # (`ring` and `search` are topics of their own)
        return help_order_line(rs, t)
    if t == "phases":
        return ("**War of the Ring: the sequence of play** (seed: Sequence of Play): each game-turn a Ring Phase (every seat, `done`), "
                "an Events Phase (each seat draws in turn: `draw <nnn>` or `draw none`), a Search Phase (seats "
                "with Nazgul: `search <province>:<n> ...` or `done`) and the player turns, four players "
                "Saruman-Fellowship-Gondor-Dark Power, five players Saruman-Fellowship-Rohan-Gondor-Dark Power.")
    if t == "setup":
        return ("**War of the Ring: set-up**\n"
                "`/game new ruleset:wotr options: players=4|5 scenario=all-out-war magic=historical turns=12 "
                "seizure=secret|public` "
                "(and `charts:` a group's own file: map, characters, forces, cards, charts; docs/wotr.md). "
                "Played in assist mode by default (the base game's rules are the table's). The map and forces are "
                "reconstructions (docs/wotr.md).")
    if t == "secrets":
        return ("**War of the Ring: hidden information**\nThe nine Fellowship characters move hidden (the "
                "Fellowship and the moderator see them; Gondor sees Boromir); the public reads \"move (a hidden "
                "character)\". Gondor's demand (`demand on|off`, AA.2) is known to Gondor, the Fellowship and the "
                "moderator. Search results go to the searcher alone. Event Cards in hand are private. When Boromir "
                "seizes the Ring the public is not told where (the hex goes to Gondor and the Fellowship; Boromir "
                "stays hidden, Gondor's, until Gondor reveals him with `reveal boromir`), unless the game was made "
                "with `options: seizure=public`. `/secret` re-sends what your seat may see.")
    if t == "ring":
        return ("**The Ring** (AA, DD.1, EE): `ring on|off` (Ring Phase), `ring to <character>`, `nazgul control` "
                "(Gondor's ruler in Minas Tirith with the Palantir wearing the Ring: 1-4, heirs at -1), "
                "`event 075` (Boromir with the Ringbearer), `seize <character>` (M.3; never a Rohan character), `seizure held|lost|roll` (the Ringbearer's seat; `roll`: one die, 1-3 held, 4-6 seized; "
                "Boromir, having seized it, must put it on only against a sorcerer using sorcery, declared as "
                "`challenge <yours> boromir sorcery`, AA.2 a), "
                "`prisoner <c> on|off`, `mind-battle sauron|saruman`, "
                "`nullify 093`, `wraith <character>`, `palantir <character>`.")
    if t == "charts":
        return ("**Charts** (the base game's, reconstructed: data/charts.toml; a group's own file replaces them): "
                "`resolve combat 3-1` (army combat, odds columns 1-3 to 6-1), `resolve individual +1` (individual "
                "combat, Combat Rating difference -3 to +3), `resolve search 2` (the ordinary Search Table, "
                "strength 1-6), each with an optional die modifier (`resolve combat 2-1 -1`). The dice are the "
                "game's, logged; the result is advice: the table records it with `lose`, `kill`, `move`.")
    if t == "search":
        return ("**Search** (Hidden Movement): `search gorgoroth:1 nurn:1`: each province with at most the Nazgul "
                "you have in it (the Dark Power two on turn 1, two more a turn). 2d6 per province; clear/desert "
                "located at roll <= Nazgul, rough/marsh when the Nazgul exceed the roll by 3, forest/rough and "
                "mountain by 6, never forest, citadel, town, tunnels. The nine Nazgul are pieces (`naz1` ... "
                "`naz9`, on the public map): their seat moves them (`move naz1 E0720`); the unused stay in "
                "Gorgoroth and Nurn; one in a hidden character's hex spots it.")
    return ("**War of the Ring for four and five players** (Don Lowry's variant of SPI's game; docs/wotr.md). "
            "Seats: Fellowship, Dark Power, Saruman, Gondor and (five players) Rohan. Its headline rules: **the Ring "
            "in Gondor's hands** (AA: Denethor may wear it and try to control a Nazgul; Boromir may seize it with "
            "Event 075 and carry it to Denethor in Minas Tirith, AA.2 c); **Gondor's secret demand** "
            "that Boromir stay with the Ringbearer (AA.2); **hidden movement** of the nine Fellowship characters, "
            "found by Nazgul searches province by province; **succession and command** in Gondor and Rohan "
            "(DD, GG); alliances, barter and mind battles (CC, FF); All Out War (`scenario=all-out-war`). Played in "
            "assist mode: the base game's rules and charts are the table's (`resolve`, declarations with `!`).\n"
            "Topics: `/help topic:orders` (every order with an example), `/help topic:phases`, "
            "`/help topic:setup`, `/help topic:secrets`, `/help topic:ring`, `/help topic:search`, "
            "`/help topic:charts`, or an order's verb (`/help topic:move`).")
