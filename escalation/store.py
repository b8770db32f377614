"""The case queue in one SQLite file (`$HEALTHMESH_DATA_DIR/escalation.sqlite3`, WAL, fsync on commit)
and its state machine: open → claimed → resolved, a silent claim back to open.

Every change runs in one `BEGIN IMMEDIATE` transaction that also appends its record to the audit chain
(escalation.audit), so a change is committed only once its record is; a record whose change then
failed to commit is the rare opposite, and says more, never less. Triggers refuse what the state
machine forbids (a resolved case changed, a jump from open to resolved), and a unique index makes
creation idempotent per (session, reason).
"""

import hashlib
import secrets
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from healthmesh.v1 import escalation_pb2 as pb
from runtime import sqlite
from runtime.auditchain import HashChain
from runtime.errors import FailedPrecondition, NotFound

OPEN, CLAIMED, RESOLVED = pb.CASE_STATE_OPEN, pb.CASE_STATE_CLAIMED, pb.CASE_STATE_RESOLVED

SCHEMA = f"""
CREATE TABLE IF NOT EXISTS cases (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  case_id TEXT NOT NULL UNIQUE,
  session_id TEXT NOT NULL,
  reason INTEGER NOT NULL,
  urgency INTEGER NOT NULL,
  state INTEGER NOT NULL,
  packet BLOB NOT NULL,
  suggested_specialty TEXT NOT NULL,
  suggested_clinic_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  created_s REAL NOT NULL,
  claimed_by TEXT NOT NULL DEFAULT '',
  claimed_at TEXT NOT NULL DEFAULT '',
  active_s REAL NOT NULL DEFAULT 0,
  resolved_by TEXT NOT NULL DEFAULT '',
  resolved_at TEXT NOT NULL DEFAULT '',
  resolution TEXT NOT NULL DEFAULT '',
  returned INTEGER NOT NULL DEFAULT 0,
  UNIQUE (session_id, reason)
);
CREATE INDEX IF NOT EXISTS cases_queue ON cases (state, urgency DESC, seq);
CREATE TABLE IF NOT EXISTS notes (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  case_id TEXT NOT NULL REFERENCES cases (case_id),
  author TEXT NOT NULL,
  text TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE TRIGGER IF NOT EXISTS cases_resolved_final BEFORE UPDATE ON cases WHEN OLD.state = {RESOLVED}
BEGIN SELECT RAISE(ABORT, 'a resolved case is final'); END;
CREATE TRIGGER IF NOT EXISTS cases_state_machine BEFORE UPDATE OF state ON cases
WHEN NOT ((OLD.state = {OPEN} AND NEW.state = {CLAIMED}) OR OLD.state = {CLAIMED})
BEGIN SELECT RAISE(ABORT, 'only a claimed case may be resolved or released'); END;
CREATE TRIGGER IF NOT EXISTS cases_no_delete BEFORE DELETE ON cases
BEGIN SELECT RAISE(ABORT, 'cases are kept'); END;
"""

COLUMNS = ("case_id, session_id, reason, urgency, state, suggested_specialty, suggested_clinic_id, "
           "created_at, claimed_by, claimed_at, resolved_by, resolved_at, resolution, returned")
SYSTEM = "escalation"  # who releases a silent claim


@dataclass(frozen=True)
class Actor:
    """Who acts: the person named in the request (or the mesh account) and the caller's SPIFFE id."""

    operator: str
    caller: str


@dataclass(frozen=True)
class Page:
    """Where the next page starts: after (urgency, seq) in queue order."""

    urgency: int
    seq: int


def utc_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _case(row: sqlite3.Row | tuple) -> pb.EscalationCase:
    return pb.EscalationCase(**dict(zip(COLUMNS.split(", "), row, strict=True)))


class CaseStore:
    """The queue; every method is blocking (run it off the event loop) and safe from many threads."""

    def __init__(self, path: Path, chain: HashChain, claim_timeout_s: float) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite.Database(path, wal=True, synchronous="FULL", foreign_keys=True, schema=SCHEMA)
        self._db.connection()  # the schema, before the first call
        self.chain = chain
        self.claim_timeout_s = claim_timeout_s

    def _audit(self, action: str, actor: Actor, case: pb.EscalationCase, **extra: Any) -> None:
        self.chain.append({"action": action, "case_id": case.case_id, "operator": actor.operator,
                           "caller": actor.caller, "state": pb.CaseState.Name(case.state), **extra})

    def _get(self, conn: sqlite3.Connection, case_id: str) -> pb.EscalationCase:
        row = conn.execute(f"SELECT {COLUMNS} FROM cases WHERE case_id = ?", (case_id,)).fetchone()
        if row is None:
            raise NotFound(f"no case {case_id}")
        return _case(row)

    def _release_silent(self, conn: sqlite3.Connection) -> int:
        """Claims whose holder has not acted for claim_timeout_s go back to the queue."""
        silent = conn.execute(f"SELECT {COLUMNS} FROM cases WHERE state = ? AND active_s < ?",
                              (CLAIMED, time.time() - self.claim_timeout_s)).fetchall()
        for row in silent:
            case = _case(row)
            conn.execute("UPDATE cases SET state = ?, claimed_by = '', claimed_at = '', active_s = 0, "
                         "returned = returned + 1 WHERE case_id = ?", (OPEN, case.case_id))
            case.state = OPEN
            self._audit("returned", Actor(SYSTEM, ""), case, silent_operator=case.claimed_by)
        return len(silent)

    def release_silent(self) -> int:
        with self._db.write() as conn:
            return self._release_silent(conn)

    def create(self, request: pb.CreateCaseRequest, actor: Actor) -> tuple[pb.EscalationCase, bool]:
        """The new case, or the one already opened for this session and reason (False)."""
        with self._db.write() as conn:
            row = conn.execute(f"SELECT {COLUMNS} FROM cases WHERE session_id = ? AND reason = ?",
                               (request.session_id, request.reason)).fetchone()
            if row is not None:
                return _case(row), False
            case_id = f"esc-{secrets.token_hex(5)}"
            conn.execute(
                "INSERT INTO cases (case_id, session_id, reason, urgency, state, packet, "
                "suggested_specialty, suggested_clinic_id, created_at, created_s) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (case_id, request.session_id, request.reason, request.urgency, OPEN,
                 request.packet.SerializeToString(deterministic=True), request.suggested_specialty,
                 request.suggested_clinic_id, utc_iso(), time.time()))
            case = self._get(conn, case_id)
            self._audit("created", actor, case, reason=pb.EscalationReason.Name(case.reason),
                        urgency=pb.CaseUrgency.Name(case.urgency))
            return case, True

    def page(self, states: list[int], page_size: int, after: Page | None,
             actor: Actor) -> tuple[list[pb.EscalationCase], Page | None]:
        """One page of cases in `states`, most urgent first, oldest first within an urgency."""
        with self._db.write() as conn:
            self._release_silent(conn)
            marks = ", ".join("?" * len(states))
            where, args = f"state IN ({marks})", list(states)
            if after is not None:
                where += " AND (urgency < ? OR (urgency = ? AND seq > ?))"
                args += [after.urgency, after.urgency, after.seq]
            rows = conn.execute(f"SELECT {COLUMNS}, seq FROM cases WHERE {where} "
                                "ORDER BY urgency DESC, seq LIMIT ?", (*args, page_size + 1)).fetchall()
            cases = [_case(row[:-1]) for row in rows[:page_size]]
            self.chain.append({"action": "listed", "operator": actor.operator, "caller": actor.caller,
                               "states": [pb.CaseState.Name(s) for s in states],
                               "case_ids": [c.case_id for c in cases]})
        more = len(rows) > page_size
        last = rows[page_size - 1] if more else None
        return cases, Page(last[3], last[-1]) if last is not None else None

    def claim(self, case_id: str, actor: Actor) -> pb.EscalationCase:
        with self._db.write() as conn:
            self._release_silent(conn)
            case = self._get(conn, case_id)
            if case.state == RESOLVED:
                raise FailedPrecondition(f"case {case_id} is resolved")
            if case.state == CLAIMED and case.claimed_by != actor.operator:
                raise FailedPrecondition(f"case {case_id} is claimed by {case.claimed_by}")
            if case.state == OPEN:
                conn.execute("UPDATE cases SET state = ?, claimed_by = ?, claimed_at = ?, active_s = ? "
                             "WHERE case_id = ?", (CLAIMED, actor.operator, utc_iso(), time.time(), case_id))
            else:
                self._touch(conn, case, actor)
            case = self._get(conn, case_id)
            self._audit("claimed", actor, case)
            return case

    def get(self, case_id: str, actor: Actor) -> tuple[pb.EscalationCase, pb.CasePacket, list[pb.CaseNote]]:
        """The case, its packet and its notes; reading it is an operator action, audited."""
        with self._db.write() as conn:
            self._release_silent(conn)
            case = self._get(conn, case_id)
            self._touch(conn, case, actor)
            packet = pb.CasePacket.FromString(
                conn.execute("SELECT packet FROM cases WHERE case_id = ?", (case_id,)).fetchone()[0])
            notes = [pb.CaseNote(author=a, text=t, created_at=c) for a, t, c in conn.execute(
                "SELECT author, text, created_at FROM notes WHERE case_id = ? ORDER BY id", (case_id,))]
            self._audit("read", actor, case)
            return case, packet, notes

    def note(self, case_id: str, text: str, actor: Actor) -> pb.CaseNote:
        with self._db.write() as conn:
            self._release_silent(conn)
            case = self._get(conn, case_id)
            if case.state == RESOLVED:
                raise FailedPrecondition(f"case {case_id} is resolved")
            note = pb.CaseNote(author=actor.operator, text=text, created_at=utc_iso())
            conn.execute("INSERT INTO notes (case_id, author, text, created_at) VALUES (?, ?, ?, ?)",
                         (case_id, note.author, note.text, note.created_at))
            self._touch(conn, case, actor)
            # The note's text may name the patient: the chain keeps its digest, which proves it unchanged.
            self._audit("noted", actor, case, text_sha256=hashlib.sha256(text.encode()).hexdigest())
            return note

    def resolve(self, case_id: str, resolution: str, actor: Actor) -> pb.EscalationCase:
        with self._db.write() as conn:
            self._release_silent(conn)
            case = self._get(conn, case_id)
            if case.state != CLAIMED or case.claimed_by != actor.operator:
                held = f"claimed by {case.claimed_by}" if case.state == CLAIMED else \
                    pb.CaseState.Name(case.state).removeprefix("CASE_STATE_").lower()
                raise FailedPrecondition(f"case {case_id} is {held}: claim it before resolving it")
            conn.execute("UPDATE cases SET state = ?, resolved_by = ?, resolved_at = ?, resolution = ? "
                         "WHERE case_id = ?", (RESOLVED, actor.operator, utc_iso(), resolution, case_id))
            case = self._get(conn, case_id)
            self._audit("resolved", actor, case,
                        resolution_sha256=hashlib.sha256(resolution.encode()).hexdigest())
            return case

    def _touch(self, conn: sqlite3.Connection, case: pb.EscalationCase, actor: Actor) -> None:
        """The holder acting on a case keeps the claim alive."""
        if case.state == CLAIMED and case.claimed_by == actor.operator:
            conn.execute("UPDATE cases SET active_s = ? WHERE case_id = ?", (time.time(), case.case_id))

    def queue(self) -> Iterator[tuple[int, int, float]]:
        """Open cases per urgency: (urgency, how many, age of the oldest in seconds)."""
        now = time.time()
        for urgency, count, oldest in self._db.connection().execute(
                "SELECT urgency, COUNT(*), MIN(created_s) FROM cases WHERE state = ? GROUP BY urgency",
                (OPEN,)):
            yield urgency, count, now - oldest

    def close(self) -> None:
        self._db.close()
