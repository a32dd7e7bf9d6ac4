"""`/help` for a game on the Standard Rules, by topic: ``orders`` (every order of the game's ORDERS
table with its usage, an example made of the game's own counters and its case), ``phases`` (the
sequence of play, from ``sequence.toml``), ``setup`` and ``secrets`` (a game's own words, in its
hooks: ``help_general``, ``help_setup``, ``help_secrets``, ``order_examples``, ``orders_notes``).
"""
from __future__ import annotations

# what a step of each kind is for: the orders typed in it (a game adds its own kinds' orders)
KIND_VERBS = {"setup": ("deploy",), "magic": ("cast",), "move": ("move", "form", "disband"),
              "combat": ("fire", "duel", "melee", "advance", "retreat"), "rally": ("rally",)}
TOPICS = {"orders": "orders", "notation": "orders", "order": "orders", "phases": "phases", "phase": "phases",
          "sequence": "phases", "turn": "phases", "setup": "setup", "set-up": "setup", "deploy": "setup",
          "secrets": "secrets", "secret": "secrets", "hidden": "secrets", "combat": "orders"}


def help_topics(self) -> tuple[str, ...]:
    return ("orders", "phases", "setup", "secrets", *(v for v in self.orders if v != "done"))


def help(self, topic: str | None = None) -> str:
    word = (topic or "").strip().lower()
    t = TOPICS.get(word)
    if t is None and word in self.orders and word != "done":
        return f"{order_line(self, word)}\n\n{help_orders(self)}"
    if t == "orders":
        return help_orders(self)
    if t == "phases":
        return help_phases(self)
    if t == "setup":
        return help_setup(self)
    if t == "secrets":
        return help_secrets(self)
    return self.help_general() + "\n`/help topic:orders`, `/help topic:phases`, `/help topic:setup`, " \
                                 "`/help topic:secrets`."


def order_line(self, verb: str) -> str:
    o = self.orders[verb]
    form = o.usage.split(", e.g.")[0].split(" (")[0]
    ex = self.order_examples.get(verb)
    if verb not in self.order_examples and ", e.g. " in o.usage:
        ex = o.usage.split(", e.g. ")[1].strip("`")
    tail = f" e.g. `{ex}`" if ex else ""
    return f"{form}{tail} ({', '.join(o.cases)})"


def help_orders(self) -> str:
    lines = [f"**{self.title}: the orders** (`/order text:`; autocomplete offers every legal one):"]
    # an order the game never uses (no magic in Field of Celebrant) has the example None
    lines += [f"- {order_line(self, v)}" for v in self.orders
              if v != "done" and not (v in self.order_examples and self.order_examples[v] is None)]
    lines.append("- `/done` ends your part of a phase (3.0).")
    if self.orders_notes:
        lines.append(self.orders_notes)
    return "\n".join(lines)


def help_phases(self) -> str:
    seq = self.sequence
    night = seq.get("night_turns", [])
    nights = f"; night on turns {night[0]}-{night[-1]} ({seq.get('length_section', '12.0')})" if night else ""
    lines = [f"**{self.title}: the sequence of play** — {seq['turns']} Game-Turns{nights}."]
    setups = seq.get("setup", [])
    if setups:
        lines.append("Set-up (13.0): " + ", then ".join(f"{s['title']} ({s['section']})" for s in setups)
                     + ": `deploy`, then `/done`.")
    lines.append("Each Game-Turn:")
    for s in seq["step"]:
        verbs = [v for v in self.kind_verbs.get(s["kind"], KIND_VERBS.get(s["kind"], ())) if v in self.orders]
        who = " and ".join(self.title_of(x) for x in s["seats"]) or "nobody"
        orders = f": {', '.join(f'`{v}`' for v in verbs)}" if verbs else ""
        acts = "acts" if len(s["seats"]) == 1 else "act"
        lines.append(f"- {s['id'].split('-')[0]}. {s['title']} ({s['section']}): {who} {acts}{orders}")
    lines.append("A phase ends when every seat that acts in it has typed `/done`; "
                 "`/game status` says whose turn it is.")
    return "\n".join(lines)


def help_setup(self) -> str:
    text = self.setup_help or "Set-up (13.0): `deploy <unit> [<unit>...] <hex>`, then `/done`."
    if self.printed_setups:
        recon = " (reconstructed, see the game's docs)" if self.printed_setup_reconstructed else ""
        text += ("\n`deploy printed` places your side's whole printed set-up" + recon + "; then adjust unit "
                 f"by unit with `deploy <unit> <hex>` and end with `/done`. `/game new ruleset:{self.name} "
                 "options:setup=printed` starts a game with both sides placed.")
    return f"**{self.title}: set-up**\n{text}"


def help_secrets(self) -> str:
    return f"**{self.title}: hidden information**\n{self.secrets_help}"
