"""Server-side sessions in SQLite: the patient's identity, the language, the turn history and
what later turns resolve against (the slots last shown, the appointment last touched, a
pending question)."""

import json
import secrets
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from runtime import sqlite
from runtime.errors import NotFound

MAX_HISTORY = 20  # turns kept per session

SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
  session_id TEXT PRIMARY KEY,
  state TEXT NOT NULL,
  updated_at REAL NOT NULL
);
"""


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
    history: list[dict[str, str]] = field(default_factory=list)
    consult: ConsultState | None = None
    phi_seen: bool = False  # a message of this session held PHI: later model calls stay local
    triage: TriageState | None = None
    citations: list[dict[str, str | int]] = field(default_factory=list)  # of the last cited answer

    @property
    def has_patient(self) -> bool:
        return bool(self.patient_cpf)

    def remember(self, role: str, text: str) -> None:
        self.history = [*self.history, {"role": role, "text": text}][-MAX_HISTORY:]

    @classmethod
    def from_json(cls, raw: str) -> "Session":
        data = json.loads(raw)
        data["shown_slots"] = [SlotRef(**s) for s in data.get("shown_slots", [])]
        if data.get("appointment"):
            data["appointment"] = AppointmentRef(**data["appointment"])
        if data.get("consult"):
            data["consult"] = ConsultState(**data["consult"])
        if data.get("triage"):
            data["triage"] = TriageState(**data["triage"])
        return cls(**data)


class SessionStore:
    """Blocking SQLite access; async callers go through runtime.sqlite.run."""

    def __init__(self, path: Path) -> None:
        # WAL + NORMAL: a commit is atomic without an fsync per turn; a power cut may lose the
        # last turns of a conversation, never corrupt it.
        self._db = sqlite.Database(path, wal=True, synchronous="NORMAL", schema=SCHEMA)

    def load(self, session_id: str) -> Session:
        """The session with that id; an empty id creates a new one."""
        if not session_id:
            return Session(session_id=secrets.token_urlsafe(12))
        row = self._db.connection().execute(
            "SELECT state FROM sessions WHERE session_id = ?", (session_id,)).fetchone()
        if row is None:
            raise NotFound("session_id: unknown session; send an empty session_id to start one")
        return Session.from_json(row[0])

    def save(self, session: Session) -> None:
        self._db.connection().execute(
            "INSERT INTO sessions VALUES (?, ?, ?) ON CONFLICT(session_id) DO UPDATE"
            " SET state = excluded.state, updated_at = excluded.updated_at",
            (session.session_id, json.dumps(asdict(session)), time.time()),
        )
