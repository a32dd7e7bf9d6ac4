"""`palantir verify`: a finished game's export re-runs to the same dice,
rolls and states; a tampered export is caught; no seed before the end."""
import json
import subprocess
import sys

from bot.cli import main
from bot.service import Ctx, GameService
from bot.storage import Store
from engine.rulesets import get_ruleset
from tests import pbp_helpers  # noqa: F401
from tests.gondor_helpers import SAURON_SETUP

_ids = iter(range(1, 10**9))


def ctx(user, mod=False):
    return Ctx(channel_id=3, user_id=user, guild_id=1, interaction_id=f"v{next(_ids)}", is_moderator=mod)


async def finished_export(tmp_path, ruleset="tiny-pbp", orders=(), name="v.db"):
    store = await Store.open(str(tmp_path / name))
    svc = GameService(store, renderer=None, seed_source=lambda: "verify-seed-42", clock=lambda: 1.0)
    seats = list(get_ruleset(ruleset).seats)
    await svc.lobby.new_game(ctx(1), ruleset, "deadline=12")
    await svc.lobby.join(ctx(1), seats[0])
    await svc.lobby.join(ctx(2), seats[1])
    await svc.lobby.start(ctx(1))
    before = json.loads((await svc.archive.export(ctx(1))).reply.attachment)
    for user, text in orders:
        if text == "UNDO":
            out = await svc.undo.undo(ctx(user, mod=True))
        else:
            out = await svc.orders.order(ctx(user), text)
        assert out.ok, (text, out.reply.text)
    assert (await svc.lobby.end(ctx(1))).ok
    data = json.loads((await svc.archive.export(ctx(1))).reply.attachment)
    await store.close()
    return before, data


def run_verify(tmp_path, data, capsys):
    p = tmp_path / "export.json"
    p.write_text(json.dumps(data))
    code = main(["verify", str(p)])
    return code, capsys.readouterr().out


async def test_a_finished_game_with_dice_and_undo_verifies(tmp_path, capsys):
    orders = [(1, "roll"), (1, "roll"), (1, "UNDO"), (1, "note x"), (1, "done"), (2, "peek"), (2, "roll"),
              (2, "done"), (1, "roll")]
    before, data = await finished_export(tmp_path, orders=orders)
    assert before["seed"] is None and "digest" not in json.dumps(before["log"])  # nothing to check a guess against
    assert data["seed"] == "verify-seed-42" and data["options"]["deadline"] == "12"
    assert [e["kind"] for e in data["log"]].count("undo") == 1
    code, out = run_verify(tmp_path, data, capsys)
    assert code == 0, out
    assert "VERIFIED" in out and "8 orders, 1 undos, 4 rolls" in out


async def test_tampering_is_caught(tmp_path, capsys):
    _, data = await finished_export(tmp_path, orders=[(1, "roll"), (1, "note a"), (1, "done")])
    bad = json.loads(json.dumps(data))
    bad["log"][0]["rolls"] = [6 if data["log"][0]["rolls"][0] != 6 else 1]  # a better roll claimed
    code, out = run_verify(tmp_path, bad, capsys)
    assert code == 1 and "MISMATCH #1" in out and "rolls" in out
    bad = json.loads(json.dumps(data))
    bad["seed"] = "another-seed"
    code, out = run_verify(tmp_path, bad, capsys)
    assert code == 1 and "commitment" in out
    bad = json.loads(json.dumps(data))
    bad["log"][1]["order"] = "note b"  # a different order
    code, out = run_verify(tmp_path, bad, capsys)
    assert code == 1 and "MISMATCH #2" in out
    bad = json.loads(json.dumps(data))
    bad["log"][1]["dice"] = [bad["log"][1]["dice"][0] + 1, bad["log"][1]["dice"][1] + 1]
    code, out = run_verify(tmp_path, bad, capsys)
    assert code == 1 and "dice drawn" in out
    bad = json.loads(json.dumps(data))
    bad["seed"] = None
    code, out = run_verify(tmp_path, bad, capsys)
    assert code == 1 and "no seed" in out


async def test_a_gondor_game_verifies_through_the_command_line(tmp_path):
    _, data = await finished_export(tmp_path, "gondor", [(1, o) for o in SAURON_SETUP[:5]] + [(1, "deploy OA1 0524")],
                                    name="g.db")
    p = tmp_path / "g.json"
    p.write_text(json.dumps(data))
    r = subprocess.run([sys.executable, "-m", "bot.cli", "verify", str(p)], capture_output=True, text=True,
                       cwd=str(__import__("pathlib").Path(__file__).resolve().parents[2]), timeout=60)
    assert r.returncode == 0 and "VERIFIED" in r.stdout, r.stdout + r.stderr
