"""config.example.toml documents every key (the issue 16 keys among them) and loads as it is."""
import dataclasses
import tomllib
from pathlib import Path

from bot.config import Config, load_config

ROOT = Path(__file__).resolve().parents[2]


def test_the_example_config_loads_and_names_every_key():
    path = ROOT / "config.example.toml"
    cfg = load_config(str(path))
    assert cfg.discord.shard_filter() is None and cfg.render.workers == 0
    data = tomllib.loads(path.read_text())
    for section in ("discord", "storage", "deadlines", "render"):
        fields = {f.name for f in dataclasses.fields(getattr(Config(), section))} - {"backend", "token"}
        assert fields <= set(data[section]) | {"token"}, (section, fields - set(data[section]))
    for key in ("shard_ids", "shard_count"):
        assert key in data["discord"]
    assert "url" in data["storage"] and "path" in data["storage"]
    readme = (ROOT / "README.md").read_text()
    assert "### Running at scale" in readme and "palantir db copy" in readme and "shard_ids" in readme
