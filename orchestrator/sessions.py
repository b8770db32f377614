"""Server-side sessions: the patient's identity, the language and what later turns resolve against
(the slots last shown, the appointment last touched, a pending question, a consult in progress).
No transcript is kept: nothing reads one. Stored sealed (orchestrator.privacy.seal), one row per
session, in SQLite (one orchestrator) or in PostgreSQL (shared by every replica, so a session's
next turn may land on any of them). A session expires after `idle_s` without a turn or `max_s`
after it began, whichever comes first; expired rows are purged as later sessions are saved."""

import logging
import secrets
import threading
import time
from abc import ABC, abstractmethod
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from orchestrator.privacy.seal import Seal, Unreadable
from runtime import postgres, sqlite
from runtime.errors import NotFound

log = logging.getLogger(__name__)


SQLITE_SCHEMA = """
CREATE TABLE IF NOT EXISTS sealed_sessions (
  session_id TEXT PRIMARY KEY,
  state BLOB NOT NULL,
  created_at REAL NOT NULL,
  updated_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS sealed_sessions_updated ON sealed_sessions (updated_at);
"""
POSTGRES_SCHEMA = """
CREATE TABLE IF NOT EXISTS sealed_sessions (
  session_id TEXT PRIMARY KEY,
  state BYTEA NOT NULL,
  created_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX IF NOT EXISTS sealed_sessions_updated ON sealed_sessions (updated_at);
"""


@dataclass(frozen=True)
class Lifetimes:
    idle_s: float
    max_s: float
    purge_every_s: float = 60.0  # at most one purge of expired sessions per store this often


@dataclass
class SlotRef:
    clinic_id: str
    doctor: str
    date: str
    time: str


@dataclass
class AppointmentRef:
    clinic_id: str
    appointment_id: str
    doctor: str
    date: str
    time: str


@dataclass
class PendingChange:
    """A cancel or a move the patient asked for, not sent yet: it waits for her "yes" (`appointment`
    set) or for which of `options` she means (`appointment` None). It lives for one turn."""

    action: str  # "cancel" | "reschedule"
    appointment: AppointmentRef | None = None
    new_date: str = ""  # of a move
    new_time: str = ""
    new_doctor: str = ""
    options: list[AppointmentRef] = field(default_factory=list)


@dataclass
class ConsultState:
    """A symptom consult in progress: what the patient said, and the council's verdict."""

    stage: str = "history"  # history | recommended | booked
    rounds: int = 0  # rounds of history questions asked
    texts: list[str] = field(default_factory=list)  # the patient's consult messages
    specialty: str = ""
    urgency: int = 0
    confidence: float = 0.0
    low_confidence: bool = False
    proposals: list[dict] = field(default_factory=list)
    flags: list[str] = field(default_factory=list)
    objective: list[str] = field(default_factory=list)  # tool results gathered during the consult


@dataclass
class TriageState:
    """A deciding question asked before anything else (the verifier's screen chose it), and the
    message that raised it, answered once the question is."""

    rule_id: str
    question: str
    emergency_if_yes: bool
    emergency_message: str
    message: str
    asked: int = 1


@dataclass
class Session:
    session_id: str
    language: str = ""
    patient_name: str = ""
    patient_cpf: str = ""
    specialty: str = ""
    shown_slots: list[SlotRef] = field(default_factory=list)
    appointment: AppointmentRef | None = None
    pending: str = ""  # intent waiting for details (e.g. "reschedule" needs a new date)
    booking_epoch: int = 0  # bumped when an appointment is cancelled or moved
    consult: ConsultState | None = None
    phi_seen: bool = False  # a message of this session held PHI: later model calls stay local
    triage: TriageState | None = None
    citations: list[dict[str, str | int]] = field(default_factory=list)  # of the last cited answer
    change: PendingChange | None = None  # a cancel or move waiting for a yes, or for which one

    @property
    def has_patient(self) -> bool:
        return bool(self.patient_cpf)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Session":
        data = dict(data)
        data["shown_slots"] = [SlotRef(**s) for s in data.get("shown_slots", [])]
        if data.get("appointment"):
            data["appointment"] = AppointmentRef(**data["appointment"])
        if data.get("consult"):
            data["consult"] = ConsultState(**data["consult"])
        if data.get("triage"):
            data["triage"] = TriageState(**data["triage"])
        if data.get("change"):
            change = dict(data["change"])
            if change.get("appointment"):
                change["appointment"] = AppointmentRef(**change["appointment"])
            change["options"] = [AppointmentRef(**a) for a in change.get("options", [])]
            data["change"] = PendingChange(**change)
        return cls(**data)


EXPIRED = "session_id: the session expired; send an empty session_id to start a new one"


class SessionStore(ABC):
    """Blocking calls; async callers go through runtime.sqlite.run, whichever the backend."""

    def __init__(self, seal: Seal, lifetimes: Lifetimes) -> None:
        self._seal = seal
        self.lifetimes = lifetimes
        self._purged_at = 0.0
        self._purge_lock = threading.Lock()

    def load(self, session_id: str) -> Session:
        """The session with that id; an empty id creates a new one."""
        if not session_id:
            return Session(session_id=secrets.token_urlsafe(12))
        row = self._read(session_id)
        if row is None:
            raise NotFound("session_id: unknown session; send an empty session_id to start one")
        sealed, age_s, idle_s = row
        if idle_s > self.lifetimes.idle_s or age_s > self.lifetimes.max_s:
            self._delete(session_id)
            raise NotFound(EXPIRED)
        return self.unseal(session_id, sealed)

    def save(self, session: Session) -> None:
        self.save_sealed(session.session_id, self.seal(session))

    def seal(self, session: Session) -> bytes:
        """The session as it is stored: encrypted and bound to its id."""
        return self._seal.close(session.session_id, asdict(session))

    def unseal(self, session_id: str, sealed: bytes) -> Session:
        try:
            return Session.from_dict(self._seal.open(session_id, sealed))
        except Unreadable:  # another key (rotated), or bytes edited: the session is gone
            log.warning("session unreadable", extra={"session_id": session_id})
            raise NotFound(EXPIRED) from None

    def save_sealed(self, session_id: str, sealed: bytes) -> None:
        self._write(session_id, sealed)
        now = time.monotonic()
        with self._purge_lock:
            due = now - self._purged_at >= self.lifetimes.purge_every_s
            if due:
                self._purged_at = now
        if due:
            self._purge(self.lifetimes)

    @abstractmethod
    def _read(self, session_id: str) -> tuple[bytes, float, float] | None:
        """The sealed state, seconds since it began and seconds since its last turn."""

    @abstractmethod
    def _write(self, session_id: str, sealed: bytes) -> None: ...

    @abstractmethod
    def _delete(self, session_id: str) -> None: ...

    @abstractmethod
    def _purge(self, lifetimes: Lifetimes) -> None:
        """Deletes every expired session."""


class SqliteSessionStore(SessionStore):
    def __init__(self, path: Path, seal: Seal, lifetimes: Lifetimes) -> None:
        super().__init__(seal, lifetimes)
        # WAL + NORMAL: a commit is atomic without an fsync per turn; a power cut may lose the
        # last turns of a conversation, never corrupt it.
        self._db = sqlite.Database(path, wal=True, synchronous="NORMAL", schema=SQLITE_SCHEMA)

    def _read(self, session_id: str) -> tuple[bytes, float, float] | None:
        row = self._db.connection().execute(
            "SELECT state, created_at, updated_at FROM sealed_sessions WHERE session_id = ?",
            (session_id,)).fetchone()
        if row is None:
            return None
        now = time.time()
        return row[0], now - row[1], now - row[2]

    def _write(self, session_id: str, sealed: bytes) -> None:
        now = time.time()
        self._db.connection().execute(
            "INSERT INTO sealed_sessions VALUES (?, ?, ?, ?) ON CONFLICT(session_id) DO UPDATE"
            " SET state = excluded.state, updated_at = excluded.updated_at",
            (session_id, sealed, now, now),
        )

    def _delete(self, session_id: str) -> None:
        self._db.connection().execute("DELETE FROM sealed_sessions WHERE session_id = ?", (session_id,))

    def _purge(self, lifetimes: Lifetimes) -> None:
        now = time.time()
        self._db.connection().execute(
            "DELETE FROM sealed_sessions WHERE updated_at < ? OR created_at < ?",
            (now - lifetimes.idle_s, now - lifetimes.max_s))


class PostgresSessionStore(SessionStore):
    def __init__(self, connect: postgres.Connect, seal: Seal, lifetimes: Lifetimes) -> None:
        super().__init__(seal, lifetimes)
        self._connect = connect
        postgres.ensure_schema(connect, "healthmesh.sessions", POSTGRES_SCHEMA)

    def _read(self, session_id: str) -> tuple[bytes, float, float] | None:
        with self._connect() as conn:
            row = conn.execute(
                "SELECT state, extract(epoch FROM now() - created_at)::float8,"
                " extract(epoch FROM now() - updated_at)::float8 FROM sealed_sessions WHERE session_id = %s",
                (session_id,)).fetchone()
        return None if row is None else (bytes(row[0]), row[1], row[2])

    def _write(self, session_id: str, sealed: bytes) -> None:
        with self._connect() as conn:
            # As SQLite's NORMAL: the commit returns before its WAL is flushed (other replicas see
            # it at once); a crash of the server may lose the last turns, never corrupt them.
            conn.execute("SET LOCAL synchronous_commit = off")
            conn.execute(
                "INSERT INTO sealed_sessions VALUES (%s, %s, now(), now()) ON CONFLICT (session_id) DO UPDATE"
                " SET state = excluded.state, updated_at = excluded.updated_at",
                (session_id, sealed))

    def _delete(self, session_id: str) -> None:
        with self._connect() as conn:
            conn.execute("DELETE FROM sealed_sessions WHERE session_id = %s", (session_id,))

    def _purge(self, lifetimes: Lifetimes) -> None:
        with self._connect() as conn:
            conn.execute("DELETE FROM sealed_sessions WHERE updated_at < now() - make_interval(secs => %s)"
                         " OR created_at < now() - make_interval(secs => %s)",
                         (lifetimes.idle_s, lifetimes.max_s))
