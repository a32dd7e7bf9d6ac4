"""Configuration (TOML, read with tomllib). Every key is documented in
config.example.toml; a missing file means the built-in defaults."""
from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path


class ConfigError(ValueError):
    pass


@dataclass
class DiscordConfig:
    token: str = ""
    api_base: str = ""
    gateway_url: str = ""
    dev_guild_ids: list[int] = field(default_factory=list)
    sync_global: bool = True


@dataclass
class StorageConfig:
    path: str = "palantir.db"


@dataclass
class Config:
    discord: DiscordConfig = field(default_factory=DiscordConfig)
    storage: StorageConfig = field(default_factory=StorageConfig)
    log_level: str = "INFO"

    @property
    def token(self) -> str:
        return self.discord.token or os.environ.get("DISCORD_TOKEN", "")


def _take(section: dict, cls, name: str):
    obj = cls()
    for k, v in section.items():
        if not hasattr(obj, k):
            raise ConfigError(f"unknown key `{k}` in [{name}]")
        want = type(getattr(obj, k))
        if want is list and not isinstance(v, list) or want is not list and not isinstance(v, want):
            raise ConfigError(f"[{name}] {k} should be a {want.__name__}")
        setattr(obj, k, v)
    return obj


def load_config(path: str | None = None) -> Config:
    """``path`` or ``config.toml``; a missing default file gives the defaults."""
    p = Path(path or "config.toml")
    if not p.exists():
        if path:
            raise ConfigError(f"config file {path} not found")
        return Config()
    try:
        data = tomllib.loads(p.read_text())
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{p}: {e}") from None
    cfg = Config()
    for k, v in data.items():
        if k == "discord":
            cfg.discord = _take(v, DiscordConfig, "discord")
            cfg.discord.dev_guild_ids = [int(x) for x in cfg.discord.dev_guild_ids]
        elif k == "storage":
            cfg.storage = _take(v, StorageConfig, "storage")
        elif k == "logging":
            cfg.log_level = str(v.get("level", "INFO")).upper()
        else:
            raise ConfigError(f"unknown section [{k}]")
    return cfg
