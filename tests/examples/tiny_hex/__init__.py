"""The smallest complete game (issue 43; docs/architecture.md, "Adding a ruleset"): a hex game on SPI's
Standard Rules in one folder, this file and four data files (`data/`: the map, the counters, where they
start, the sequence of play). It has no set-up step, so it starts at Game-Turn 1 and plays the four
turns its sequence asks for. Kept working by tests/engine/test_registry_games.py, which registers it as a
sixth built-in game for a run of the suite's game tests (``PALANTIR_EXTRA_BUILTIN``, tests/conftest.py)."""
from dataclasses import replace
from pathlib import Path

from engine import options as game_options
from engine.core import State
from engine.spi.standard import StandardRules
from engine.spi import c02_units


class TinyHex(StandardRules):
    name = "tiny-hex"
    title = "Tiny Hex"
    seats = ("red", "blue")
    side_titles = {"red": "Red", "blue": "Blue"}
    side_colors = {"red": "#b0302a", "blue": "#2a4fb0"}
    data_dir = Path(__file__).parent / "data"
    ruleset_charts_text = ""  # the Standard Rules' charts as they are
    hooks = replace(StandardRules.hooks,  # its extension points (engine/spi/hooks.py: Hooks): help's examples
                    order_examples={"move": "move R1 0202", "melee": "melee R1 at 0305", "advance": "advance R1 0305",
                                    "retreat": "retreat B1 0404", "form": "form wedge R1 R2 RL",
                                    "disband": "disband R1 0202"})

    def new_game(self, options: dict[str, str], seed: str, fixture: dict | None = None) -> State:
        state = self.base_state(game_options.read(self.options, options, self), seed)
        for uid, u in self.units.items():
            state["units"][uid] = c02_units.unit_record(self, u)
        for places in self.printed_setups.values():  # data/setup_printed.toml: every counter's hex
            for uid, hx in places.items():
                state["units"][uid].update(status="map", hex=hx)
        state["dem"] = {s: 0 for s in self.seats}
        return state

    def view(self, state: State, seat: str | None) -> dict:
        own = seat if seat in self.seats else None
        return {**self.view_head(state, own, self.title),
                "units": [self.unit_view(state, u, own) for u in self.units if c02_units.on_map(self, state, u)],
                "markers": list(state["markers"]), "gates": {}, "notes": [], "over": state["over"],
                "pending": [{"seat": p["seat"], "unit": p["unit"], "options": list(p["options"])}
                            for p in state["pending"]]}


TINY_HEX = TinyHex()
