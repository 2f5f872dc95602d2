"""Service settings, read from the environment (``SISEPAI_*``) and overridden by ``sisepai serve`` flags."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from sisepai.engine.environment import environment, home
from sisepai.ledger.roster import DEFAULT_TABLE


def _default_db() -> str:
    """The ledger beside the decks and the certificate: ``engine.environment.home()/ledger.sqlite``."""
    return str(home() / "ledger.sqlite")


def _names(value: str) -> tuple[str, ...]:
    return tuple(v for v in value.split(",") if v)


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
        """The settings from ``SISEPAI_*`` variables (:data:`ENVIRONMENT`; an empty one is unset,
        so its field keeps the default written above), then ``overrides`` that are not None."""
        given = environment().service
        values = {name: parse(given[var]) for name, (var, parse) in ENVIRONMENT.items() if var in given}
        s = cls(**values)
        for k, v in overrides.items():
            if v is not None:
                setattr(s, k, v)
        return s

    @property
    def local_only(self) -> bool:
        """Only this machine reaches the service: it listens on loopback and no reverse proxy
        forwards to it (``--allow-host``: a request from loopback may then come from anyone)."""
        return self.host in ("127.0.0.1", "localhost", "::1") and not self.allowed_hosts


ENVIRONMENT: dict[str, tuple[str, Callable[[str], Any]]] = {
    "host": ("SISEPAI_HOST", str), "port": ("SISEPAI_PORT", int), "db": ("SISEPAI_DB", str),
    "token": ("SISEPAI_TOKEN", str), "max_upload_mb": ("SISEPAI_MAX_UPLOAD_MB", float),
    "cors_origins": ("SISEPAI_CORS_ORIGINS", _names), "load_model": ("SISEPAI_LOAD_MODEL", lambda v: v != "0"),
    "detector": ("SISEPAI_DETECTOR", str), "reader": ("SISEPAI_READER", str), "deck": ("SISEPAI_DECK", str),
    "allowed_hosts": ("SISEPAI_ALLOWED_HOSTS", _names), "workers": ("SISEPAI_WORKERS", int),
    "table": ("SISEPAI_TABLE", str),
}
"""Each setting the environment may give: its variable and how its text is read."""
