"""How oob.toml and setup.toml were first written (reconstructed; docs/sauron.md).
Run: python -m engine.rulesets.sauron.data.make_oob  (writes both files beside it)."""
from pathlib import Path

HERE = Path(__file__).parent

# (prefix or id, count, side, type, name, ratings, setup, arrives, section, tags, extra fields)
UNITS = [
    # --- Sauron: on the map at the start (facts 3, 9.2: goblins under Gorgol in front, wargs on the road)
    ("GA", 6, "sauron", "archer", "Goblin Archers", "Ee-2-Y", "front", None, "13.1", ["orc", "goblin"]),
    ("WG", 4, "sauron", "cavalry", "Warg Riders", "D-2-Y", "front", None, "13.1", ["warg"]),
    ("GOR", 1, "sauron", "leader", "Gorgol", None, "front", None, "13.1", ["mordor"]),
    # --- Sauron: through the Gates from turn 1, all by turn 12 (facts 3)
    ("RW", 1, "sauron", "leader", "The Ringwraith", None, "reinforcement", 1, "14.1", ["mordor"]),
    ("OI", 4, "sauron", "infantry", "Orcs", "D-2-Y", "reinforcement", 1, "14.1", ["orc"]),
    ("OJ", 4, "sauron", "infantry", "Orcs", "D-2-Y", "reinforcement", 2, "14.1", ["orc"]),
    ("TR", 2, "sauron", "troll", "Trolls", "B-4-Y", "reinforcement", 3, "14.1", ["troll"]),
    ("SL", 4, "sauron", "infantry", "Slaves", "E-1-Z", "reinforcement", 3, "14.1", ["slave"]),
    ("SAU", 1, "sauron", "leader", "Sauron", None, "reinforcement", 4, "14.1", ["mordor"], {"magic": 45}),
    ("OK", 4, "sauron", "infantry", "Orcs", "D-2-Y", "reinforcement", 5, "14.1", ["orc"]),
    ("GB", 2, "sauron", "archer", "Goblin Archers", "Ee-2-Y", "reinforcement", 5, "14.1", ["orc", "goblin"]),
    ("TS", 2, "sauron", "troll", "Trolls", "B-4-Y", "reinforcement", 6, "14.1", ["troll"]),
    ("SM", 4, "sauron", "infantry", "Slaves", "E-1-Z", "reinforcement", 6, "14.1", ["slave"]),
    ("OL", 4, "sauron", "infantry", "Orcs", "D-2-Y", "reinforcement", 8, "14.1", ["orc"]),
    ("SN", 4, "sauron", "infantry", "Slaves", "E-1-Z", "reinforcement", 10, "14.1", ["slave"]),
    ("TT", 2, "sauron", "troll", "Trolls", "B-4-Y", "reinforcement", 12, "14.1", ["troll"]),
    ("OM", 2, "sauron", "infantry", "Orcs", "D-2-Y", "reinforcement", 12, "14.1", ["orc"]),
    # --- the Beast, summoned by Sauron's spell (17.1x; facts 1.13: Armor 4, Morale X, MA 4; 17.11: melee C)
    ("BEA", 1, "sauron", "troll", "The Beast", "C-4-X", "summoned", None, "17.11", ["beast"], {"movement": 4}),
    # --- the expanded game's three catapults (seed 004, Expanded Game, Setup: "The Sauron player can place 3
    # catapults ... in the mountains surrounding the path just inside the gates"); out of the first part.
    # Siege equipment as in Gondor; at troops missile e, range 2 ([ERR] 7.12, facts 1.6); ratings reconstructed
    ("CT", 3, "sauron", "catapult", "Catapult", "e-1-Z", "forts", None, "Expanded Game", ["catapult"]),
    # --- the Last Alliance on the map: Men and Dwarves (facts 3, 9.2)
    ("ELE", 1, "westernesse", "leader", "Elendil", None, "alliance", None, "13.2", ["men"]),
    ("ISI", 1, "westernesse", "leader", "Isildur", None, "alliance", None, "13.2", ["men"]),
    ("ANA", 1, "westernesse", "leader", "Anarion", None, "alliance", None, "13.2", ["men"]),
    ("BAL", 1, "westernesse", "leader", "Baldrim", None, "alliance", None, "13.2", ["dwarves"]),
    ("NC", 6, "westernesse", "cavalry", "Numenorean Cavalry", "B-3-X", "alliance", None, "13.2", ["men"]),
    ("MI", 8, "westernesse", "infantry", "Men of Westernesse", "C-3-X", "alliance", None, "13.2", ["men"]),
    ("MB", 4, "westernesse", "archer", "Bowmen", "e-2-Y", "alliance", None, "13.2", ["men"]),
    ("DW", 6, "westernesse", "infantry", "Dwarves", "C-4-W", "alliance", None, "13.2", ["dwarves"]),
    # --- the Elves, turn 2, along the West edge (facts 3, 9.2)
    ("GIL", 1, "westernesse", "leader", "Gil-galad", None, "reinforcement", 2, "14.2", ["elves"]),
    ("CIR", 1, "westernesse", "leader", "Cirdan", None, "reinforcement", 2, "14.2", ["elves"]),
    ("EI", 8, "westernesse", "infantry", "Elves", "B-3-W", "reinforcement", 2, "14.2", ["elves"]),
    ("EA", 4, "westernesse", "archer", "Elf Archers", "Be-2-X", "reinforcement", 2, "14.2", ["elves"]),
    # --- 14.3: the six spare counters, by agreement (options: extra=)
    ("MX", 1, "westernesse", "infantry", "Men (spare)", "B-3-W", "reinforcement", 3, "14.3", ["men", "extra"]),
    ("EX", 5, "westernesse", "archer", "Elf Archers (spare)", "e-2-X", "reinforcement", 3, "14.3",
     ["elves", "extra"]),
]

START = {
    "GOR": "1414", **{f"GA{i}": f"{11 + i:02d}14" for i in range(1, 7)},
    **{f"WG{i}": f"15{15 + i:02d}" for i in range(1, 5)},
    "ISI": "2206", **{f"NC{i}": f"{19 + i:02d}06" for i in range(1, 7)},
    "ANA": "0606", **{f"MI{i}": f"{4 + i:02d}06" for i in range(1, 5)},
    **{f"MB{i}": f"{4 + i:02d}05" for i in range(1, 5)},
    "BAL": "1407", **{f"DW{i}": f"{11 + i:02d}07" for i in range(1, 7)},
    "ELE": "1305", **{f"MI{i}": f"{7 + i:02d}05" for i in range(5, 9)},
}


def toml_value(v) -> str:
    if isinstance(v, str):
        return f'"{v}"'
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    return str(v)


def main() -> None:
    out = ["# SPI *Sauron* orders of battle (facts.md 3, 9.2; seed 004 14.3), reconstructed: the exclusive",
           "# rules' counter mix and schedule are not available. 52 Sauron counters (with the Beast) and 48",
           "# Alliance counters (Narsil, Aiglos and the Ring are items, not counters). Written by make_oob.py.",
           "# `setup`: front (Sauron, before the Gates), alliance (the Alliance's half of Dagorlad) or reinforcement; the Beast is summoned (17.1x);",
           "# forts: the expanded game's catapults, in the mountains beside the gate path (out of the first part)",
           "# (`arrives` = the Game-Turn from which it may enter: Sauron through the Gates, the Alliance on the West edge).",
           "reconstructed = true",
           'reason = "The printed counter mix, ratings and arrival schedule of SPI Sauron are not available; '
           'unit types, the Men and Dwarves on the map, the Elves on turn 2, Sauron through the Gates from turn 1 '
           'and all by turn 12, and the 14.3 spares follow what is known of the game and the variant rules."', ""]
    for row in UNITS:
        key, n, side, typ, name, ratings, setup, arrives, section, tags = row[:10]
        extra = row[10] if len(row) > 10 else {}
        out.append("[[unit]]")
        out.append(f'{"id" if typ == "leader" or len(key) == 3 and n == 1 else "prefix"} = "{key}"')
        if not (typ == "leader" or len(key) == 3 and n == 1):
            out.append(f"count = {n}")
        fields = {"side": side, "type": typ, "name": name}
        if ratings:
            fields["ratings"] = ratings
        fields["setup"] = setup
        if arrives is not None:
            fields["arrives"] = arrives
        fields["section"] = section
        fields["tags"] = tags
        fields.update(extra)
        out += [f"{k} = {toml_value(v)}" for k, v in fields.items()]
        out.append("")
    (HERE / "oob.toml").write_text("\n".join(out))
    s = ["# Default starting hexes (reconstructed from the replay's description, facts.md 9.2): each side may",
         "# re-place its counters within its set-up zone before it is done (13.0).",
         "reconstructed = true",
         'reason = "The printed set-up is not available; the replay describes goblins in front, wargs on the road, '
         'Isildur\'s cavalry on one wing, Anarion\'s foot and bowmen on the other, the Dwarves in the centre and '
         'Elendil behind them."', "", "[start]"]
    s += [f'{k} = "{v}"' for k, v in START.items()]
    (HERE / "setup.toml").write_text("\n".join(s) + "\n")


if __name__ == "__main__":
    main()
