"""Service settings, read from the environment (``SISEPAI_*``) and overridden by ``sisepai serve`` flags."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from .store import DEFAULT_TABLE


def _default_db() -> str:
    return str(Path(os.environ.get("XDG_DATA_HOME", Path.home() / ".local" / "share")) / "sisepai" / "ledger.sqlite")


@dataclass
class Settings:
    host: str = "127.0.0.1"
    port: int = 8000
    db: str = field(default_factory=_default_db)
    token: str | None = None
    max_upload_mb: float = 10.0
    cors_origins: tuple[str, ...] = ()
    load_model: bool = True
    detector: str | None = None
    reader: str | None = None
    deck: str | None = None
    """The enrolled deck read by default (``sisepai serve --deck NAME``, ``SISEPAI_DECK``)."""
    allowed_hosts: tuple[str, ...] = ()
    """Host names besides localhost and IP addresses the page may be opened by (``--allow-host``)."""
    workers: int | None = None
    """Recognition workers (default: half the cores); ``queue`` more requests may wait."""
    queue: int = 2
    table: str = DEFAULT_TABLE
    """The table (room) the page starts on (``--table``, ``SISEPAI_TABLE``)."""
    live_idle_s: float = 30.0
    """A live stream that sends nothing for this many seconds is closed (its slot freed)."""

    @classmethod
    def from_env(cls, **overrides) -> "Settings":
        env = os.environ
        s = cls(
            host=env.get("SISEPAI_HOST", "127.0.0.1"),
            port=int(env.get("SISEPAI_PORT", "8000")),
            db=env.get("SISEPAI_DB", _default_db()),
            token=env.get("SISEPAI_TOKEN") or None,
            max_upload_mb=float(env.get("SISEPAI_MAX_UPLOAD_MB", "10")),
            cors_origins=tuple(o for o in env.get("SISEPAI_CORS_ORIGINS", "").split(",") if o),
            load_model=env.get("SISEPAI_LOAD_MODEL", "1") != "0",
            detector=env.get("SISEPAI_DETECTOR") or None,
            reader=env.get("SISEPAI_READER") or None,
            deck=env.get("SISEPAI_DECK") or None,
            allowed_hosts=tuple(h for h in env.get("SISEPAI_ALLOWED_HOSTS", "").split(",") if h),
            workers=int(env["SISEPAI_WORKERS"]) if env.get("SISEPAI_WORKERS") else None,
            table=env.get("SISEPAI_TABLE") or DEFAULT_TABLE,
        )
        for k, v in overrides.items():
            if v is not None:
                setattr(s, k, v)
        return s

    @property
    def local_only(self) -> bool:
        """Only this machine reaches the service: it listens on loopback and no reverse proxy
        forwards to it (``--allow-host``: a request from loopback may then come from anyone)."""
        return self.host in ("127.0.0.1", "localhost", "::1") and not self.allowed_hosts
