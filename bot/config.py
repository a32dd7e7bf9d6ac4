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
    # keep what is said in the private rooms (`/game table`) for the game's export, revealed once the
    # game is over; needs the Message Content privileged intent (the developer portal)
    keep_rooms: bool = False
    # sharding (issue 16): this process runs the shards `shard_ids` of `shard_count` (discord.py's
    # AutoShardedBot) and serves only their guilds, (guild_id >> 22) % shard_count; 0: no sharding
    shard_ids: list[int] = field(default_factory=list)
    shard_count: int = 0

    def shard_filter(self):
        """The guilds this process serves, or None (every guild: one process)."""
        if not self.shard_count:
            return None
        from bot.storage.base import ShardFilter

        return ShardFilter(tuple(self.shard_ids or range(self.shard_count)), self.shard_count)


@dataclass
class StorageConfig:
    # the backend: sqlite:///file.db (the default: `path` below) or postgresql://user@host/db,
    # which several processes (shards) share
    url: str = ""
    path: str = "palantir.db"  # the SQLite file when `url` is empty
    backend: str = ""  # older configs: "sqlite" (kept for compatibility; `url` chooses the backend)


@dataclass
class DeadlinesConfig:
    default_hours: float = 48.0  # a phase's time when /game new options set no `deadline=`; 0: none
    policy: str = "nag"  # at the deadline: nag | pass | pause (options: `policy=`)
    reminders: list[float] = field(default_factory=lambda: [12.0, 2.0])  # hours before (options: `remind=12+2`)
    poll_seconds: float = 30.0  # how often the scheduler looks for due timers (it also wakes on changes)

    def rules(self):
        from bot.deadlines import DeadlineRules

        return DeadlineRules(float(self.default_hours), self.policy, tuple(float(x) for x in self.reminders))


@dataclass
class RenderConfig:
    # map renders in this many worker processes, off the bot's event loop (issue 16); 0: in a
    # thread of the bot's own process
    workers: int = 0
    # built base maps are kept in this folder ("": ~/.cache/palantir/maps; "off": not kept on disk)
    cache_dir: str = ""


@dataclass
class Config:
    discord: DiscordConfig = field(default_factory=DiscordConfig)
    storage: StorageConfig = field(default_factory=StorageConfig)
    deadlines: DeadlinesConfig = field(default_factory=DeadlinesConfig)
    render: RenderConfig = field(default_factory=RenderConfig)
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
        if want is float and isinstance(v, int) and not isinstance(v, bool):
            v = float(v)
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
    except (OSError, UnicodeDecodeError) as e:  # a folder, no permission, not text (issue 39: one line)
        raise ConfigError(f"cannot read config file {p}: {getattr(e, 'strerror', None) or e}") from None
    cfg = Config()
    for k, v in data.items():
        if k == "discord":
            cfg.discord = _take(v, DiscordConfig, "discord")
            try:
                cfg.discord.dev_guild_ids = [int(x) for x in cfg.discord.dev_guild_ids]
            except (TypeError, ValueError):
                raise ConfigError("[discord] dev_guild_ids must be a list of server ids, e.g. [123456789]") from None
            d = cfg.discord
            if not all(isinstance(x, int) and not isinstance(x, bool) for x in d.shard_ids):
                raise ConfigError("[discord] shard_ids must be a list of shard numbers, e.g. [0, 1]")
            if d.shard_count < 0 or d.shard_ids and not d.shard_count:
                raise ConfigError("[discord] shard_ids needs shard_count (the total number of shards)")
            if any(not 0 <= x < d.shard_count for x in d.shard_ids) or len(set(d.shard_ids)) != len(d.shard_ids):
                raise ConfigError(f"[discord] shard_ids must be distinct numbers from 0 to {d.shard_count - 1}")
        elif k == "storage":
            cfg.storage = _take(v, StorageConfig, "storage")
            from bot.storage import parse_url

            if cfg.storage.url:
                try:
                    parse_url(cfg.storage.url)
                except ValueError as e:
                    raise ConfigError(f"[storage] url: {e}") from None
            if cfg.storage.backend not in ("", "sqlite"):
                raise ConfigError("[storage] backend is replaced by url: set url = \"postgresql://user@host/db\"")
        elif k == "deadlines":
            cfg.deadlines = _take(v, DeadlinesConfig, "deadlines")
            from bot.deadlines import MAX_HOURS, POLICIES

            d = cfg.deadlines
            if d.policy not in POLICIES:
                raise ConfigError(f"[deadlines] policy must be one of {', '.join(POLICIES)}")
            if not 0 <= d.default_hours <= MAX_HOURS:
                raise ConfigError(f"[deadlines] default_hours must be 0..{MAX_HOURS}")
            if not all(isinstance(x, (int, float)) and 0 < x <= MAX_HOURS for x in d.reminders):
                raise ConfigError("[deadlines] reminders must be hours before the deadline, e.g. [12, 2]")
            if d.poll_seconds <= 0:
                raise ConfigError("[deadlines] poll_seconds must be positive")
        elif k == "render":
            cfg.render = _take(v, RenderConfig, "render")
            if not 0 <= cfg.render.workers <= 64:
                raise ConfigError("[render] workers must be 0..64 (0: draw in a thread of the bot's process)")
        elif k == "logging":
            cfg.log_level = str(v.get("level", "INFO")).upper()
        else:
            raise ConfigError(f"unknown section [{k}]")
    return cfg
