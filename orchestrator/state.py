"""Where the orchestrator keeps sessions and the audit chain: SQLite files in the data directory
(the embedded default, one orchestrator), or one PostgreSQL database named by HEALTHMESH_STATE_URL
that every replica shares, so any replica can take a session's next turn."""

import logging
from collections.abc import Callable
from dataclasses import dataclass

from orchestrator.privacy.audit import CHAIN, AuditLog
from orchestrator.privacy.seal import Seal
from orchestrator.recording import CommitFirst, Journal, Recorder
from orchestrator.sessions import Lifetimes, PostgresSessionStore, SessionStore, SqliteSessionStore
from runtime import postgres, secretfile
from runtime.auditchain import ChainKey, Checkpoints, PostgresChain, SqliteChain
from runtime.config import ConfigError
from runtime.settings import Settings

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class State:
    sessions: SessionStore
    audit: AuditLog
    recorder: Recorder  # how a turn is kept (orchestrator.recording)
    close: Callable[[], None]


def open_state(settings: Settings) -> State:
    """The stores for HEALTHMESH_STATE_URL; PostgreSQL is connected to before this returns, so a
    wrong URL stops the orchestrator at start. The audit and session keys are made on first start
    only for the embedded default: replicas sharing PostgreSQL must share them, so there they are
    required."""
    config, data_dir = settings.state, settings.data.data_dir
    url = config.url
    for name, configured in (("HEALTHMESH_AUDIT_KEY_FILE", config.audit_key_file),
                             ("HEALTHMESH_SESSION_KEY_FILE", config.session_key_file)):
        if url and configured is None:
            raise ConfigError(f"{name} is required with HEALTHMESH_STATE_URL: every replica must use "
                              "the same secret for the shared state")
    key = ChainKey.load(settings.audit_key_file, create=not url)
    checkpoints = Checkpoints(settings.audit_checkpoints, key)
    seal = Seal(secretfile.load(settings.session_key_file, create=not url))
    lifetimes = Lifetimes(config.session_idle_s, config.session_max_s)
    if not url:
        log.info("state", extra={"backend": "sqlite", "data_dir": str(data_dir)})
        chain = SqliteChain(data_dir / "audit.sqlite3", key, checkpoints=checkpoints,
                            sync_interval_s=config.audit_sync_ms / 1000)
        sessions = SqliteSessionStore(data_dir / "orchestrator.sqlite3", seal, lifetimes)
        journal = Journal(data_dir / "turns.journal", sessions, chain)

        def close() -> None:
            journal.close()
            chain.close()

        return State(sessions, AuditLog(chain), journal, close=close)
    # One small pool for both stores: session I/O runs one call at a time, and audit appends
    # serialise on the chain's head anyway.
    pool = postgres.open_pool(url)
    try:
        chain = PostgresChain(pool.connection, key, CHAIN, checkpoints=checkpoints)
        sessions, audit = PostgresSessionStore(pool.connection, seal, lifetimes), AuditLog(chain)
        state = State(sessions, audit, CommitFirst(sessions, audit), close=pool.close)
    except BaseException:
        pool.close()
        raise
    log.info("state", extra={"backend": "postgresql", "url": postgres.redacted(url)})
    return state
