"""`/help` for a game on the Standard Rules, by topic: ``orders`` (every order of the game's ORDERS
table with its usage, an example made of the game's own counters and its case), ``phases`` (the
sequence of play, from ``sequence.toml``), ``setup`` and ``secrets`` (a game's own words, in its
hooks: ``help_general``, ``help_setup``, ``help_secrets``, ``order_examples``, ``orders_notes``).
"""
from __future__ import annotations
from engine.spi import c02_units

# what a step of each kind is for: the orders typed in it (a game adds its own kinds' orders)
KIND_VERBS = {"setup": ("deploy",), "magic": ("cast",), "move": ("move", "form", "disband"),
              "combat": ("fire", "duel", "melee", "advance", "retreat"), "rally": ("rally",)}
TOPICS = {"orders": "orders", "notation": "orders", "order": "orders", "phases": "phases", "phase": "phases",
          "sequence": "phases", "turn": "phases", "setup": "setup", "set-up": "setup", "deploy": "setup",
          "secrets": "secrets", "secret": "secrets", "hidden": "secrets", "combat": "orders"}


def help_topics(rs) -> tuple[str, ...]:
    return ("orders", "phases", "setup", "secrets", *(v for v in rs.orders if v != "done"))


def help(rs, topic: str | None = None) -> str:
    word = (topic or "").strip().lower()
    t = TOPICS.get(word)
    if t is None and word in rs.orders and word != "done":
        return f"{order_line(rs, word)}\n\n{help_orders(rs)}"
    if t == "orders":
        return help_orders(rs)
    if t == "phases":
        return help_phases(rs)
    if t == "setup":
        return help_setup(rs)
    if t == "secrets":
        return help_secrets(rs)
    return rs.hooks.help_general(rs) + "\n`/help topic:orders`, `/help topic:phases`, `/help topic:setup`, " \
                                 "`/help topic:secrets`."


def order_line(rs, verb: str) -> str:
    o = rs.orders[verb]
    form = o.usage.split(", e.g.")[0].split(" (")[0]
    ex = rs.hooks.order_examples.get(verb)
    if verb not in rs.hooks.order_examples and ", e.g. " in o.usage:
        ex = o.usage.split(", e.g. ")[1].strip("`")
    tail = f" e.g. `{ex}`" if ex else ""
    return f"{form}{tail} ({', '.join(o.cases)})"


def help_orders(rs) -> str:
    lines = [f"**{rs.title}: the orders** (`/order text:`; autocomplete offers every legal one):"]
    # an order the game never uses (no magic in Field of Celebrant) has the example None
    lines += [f"- {order_line(rs, v)}" for v in rs.orders
              if v != "done" and not (v in rs.hooks.order_examples and rs.hooks.order_examples[v] is None)]
    lines.append("- `/done` ends your part of a phase (3.0).")
    if rs.hooks.orders_notes:
        lines.append(rs.hooks.orders_notes)
    return "\n".join(lines)


def help_phases(rs) -> str:
    seq = rs.sequence
    night = seq.get("night_turns", [])
    nights = f"; night on turns {night[0]}-{night[-1]} ({seq.get('length_section', '12.0')})" if night else ""
    lines = [f"**{rs.title}: the sequence of play** — {seq['turns']} Game-Turns{nights}."]
    setups = seq.get("setup", [])
    if setups:
        lines.append("Set-up (13.0): " + ", then ".join(f"{s['title']} ({s['section']})" for s in setups)
                     + ": `deploy`, then `/done`.")
    lines.append("Each Game-Turn:")
    for s in seq["step"]:
        verbs = [v for v in rs.hooks.kind_verbs.get(s["kind"], KIND_VERBS.get(s["kind"], ())) if v in rs.orders]
        who = " and ".join(c02_units.title_of(rs, x) for x in s["seats"]) or "nobody"
        orders = f": {', '.join(f'`{v}`' for v in verbs)}" if verbs else ""
        acts = "acts" if len(s["seats"]) == 1 else "act"
        lines.append(f"- {s['id'].split('-')[0]}. {s['title']} ({s['section']}): {who} {acts}{orders}")
    lines.append("A phase ends when every seat that acts in it has typed `/done`; "
                 "`/game status` says whose turn it is.")
    return "\n".join(lines)


def help_setup(rs) -> str:
    if not rs.sequence.get("setup"):  # no set-up step: the game begins at Game-Turn 1 (issue 43)
        return f"**{rs.title}: set-up**\nNo set-up step: the game begins at Game-Turn 1 with every counter on the map."
    text = rs.hooks.setup_help or "Set-up (13.0): `deploy <unit> [<unit>...] <hex>`, then `/done`."
    if rs.printed_setups:
        recon = " (reconstructed, see the game's docs)" if rs.printed_setup_reconstructed else ""
        text += ("\n`deploy printed` places your side's whole printed set-up" + recon + "; then adjust unit "
                 f"by unit with `deploy <unit> <hex>` and end with `/done`. `/game new ruleset:{rs.name} "
                 "options:setup=printed` starts a game with both sides placed.")
    return f"**{rs.title}: set-up**\n{text}"


def help_secrets(rs) -> str:
    return f"**{rs.title}: hidden information**\n{rs.hooks.secrets_help}"
