"""Where the orchestrator keeps sessions and the audit chain: SQLite files in the data directory
(the embedded default, one orchestrator), or one PostgreSQL database named by HEALTHMESH_STATE_URL
that every replica shares, so any replica can take a session's next turn."""

import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from orchestrator.privacy.audit import CHAIN, AuditLog
from orchestrator.sessions import PostgresSessionStore, SessionStore, SqliteSessionStore
from runtime import postgres
from runtime.auditchain import PostgresChain

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class State:
    sessions: SessionStore
    audit: AuditLog
    close: Callable[[], None]


def open_state(url: str, data_dir: Path) -> State:
    """The stores for HEALTHMESH_STATE_URL (`url`); PostgreSQL is connected to before this
    returns, so a wrong URL stops the orchestrator at start."""
    if not url:
        log.info("state", extra={"backend": "sqlite", "data_dir": str(data_dir)})
        return State(SqliteSessionStore(data_dir / "orchestrator.sqlite3"),
                     AuditLog(data_dir / "audit.sqlite3"), close=lambda: None)
    # One small pool for both stores: session I/O runs one call at a time, and audit appends
    # serialise on the chain's head anyway.
    pool = postgres.open_pool(url)
    try:
        state = State(PostgresSessionStore(pool.connection), AuditLog(PostgresChain(pool.connection, CHAIN)),
                      close=pool.close)
    except BaseException:
        pool.close()
        raise
    log.info("state", extra={"backend": "postgresql", "url": postgres.redacted(url)})
    return state
