"""Where the orchestrator keeps sessions and the audit chain: SQLite files in the data directory
(the embedded default, one orchestrator), or one PostgreSQL database named by HEALTHMESH_STATE_URL
that every replica shares, so any replica can take a session's next turn."""

import logging
from collections.abc import Callable
from dataclasses import dataclass

from orchestrator.privacy.audit import CHAIN, AuditLog
from orchestrator.sessions import PostgresSessionStore, SessionStore, SqliteSessionStore
from runtime import postgres
from runtime.auditchain import ChainKey, Checkpoints, PostgresChain, SqliteChain
from runtime.config import ConfigError
from runtime.settings import Settings

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class State:
    sessions: SessionStore
    audit: AuditLog
    close: Callable[[], None]


def open_state(settings: Settings) -> State:
    """The stores for HEALTHMESH_STATE_URL; PostgreSQL is connected to before this returns, so a
    wrong URL stops the orchestrator at start. The audit key is made on first start only for the
    embedded default: replicas sharing a PostgreSQL chain must share one key, so it is required."""
    url, data_dir = settings.state.url, settings.data.data_dir
    if url and settings.state.audit_key_file is None:
        raise ConfigError("HEALTHMESH_AUDIT_KEY_FILE is required with HEALTHMESH_STATE_URL: every "
                          "replica must key the shared audit chain with the same secret")
    key = ChainKey.load(settings.audit_key_file, create=not url)
    checkpoints = Checkpoints(settings.audit_checkpoints, key)
    if not url:
        log.info("state", extra={"backend": "sqlite", "data_dir": str(data_dir)})
        return State(SqliteSessionStore(data_dir / "orchestrator.sqlite3"),
                     AuditLog(SqliteChain(data_dir / "audit.sqlite3", key, checkpoints=checkpoints)),
                     close=lambda: None)
    # One small pool for both stores: session I/O runs one call at a time, and audit appends
    # serialise on the chain's head anyway.
    pool = postgres.open_pool(url)
    try:
        chain = PostgresChain(pool.connection, key, CHAIN, checkpoints=checkpoints)
        state = State(PostgresSessionStore(pool.connection), AuditLog(chain), close=pool.close)
    except BaseException:
        pool.close()
        raise
    log.info("state", extra={"backend": "postgresql", "url": postgres.redacted(url)})
    return state
