"""One clinic's SQLite database: doctors, slots, appointments, patients, idempotency keys and
the SOAP handoff packets booked with consults.

Safety under concurrency lives in the database, not in process memory: every write runs in
a `BEGIN IMMEDIATE` transaction (one writer at a time across threads *and* processes) and a
partial unique index allows at most one BOOKED appointment per slot. Idempotency records are
written in the same transaction as the booking they describe, so a retry sees either both
or neither. A handoff packet is written in its booking's transaction too.
"""

import datetime as dt
import hashlib
import json
import secrets
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TypeVar

from clinics import seed
from runtime.errors import (
    AlreadyExists,
    FailedPrecondition,
    InvalidArgument,
    NotFound,
    PermissionDenied,
)
from runtime.text.fold import fold_words as fold

SCHEMA = """
CREATE TABLE IF NOT EXISTS doctors (
  doctor_id TEXT PRIMARY KEY,
  name TEXT NOT NULL UNIQUE
);
CREATE TABLE IF NOT EXISTS slots (
  slot_id TEXT PRIMARY KEY,
  doctor_id TEXT NOT NULL REFERENCES doctors(doctor_id),
  date TEXT NOT NULL,
  time TEXT NOT NULL,
  UNIQUE (doctor_id, date, time)
);
CREATE INDEX IF NOT EXISTS slots_by_when ON slots(date, time);
CREATE TABLE IF NOT EXISTS appointments (
  appointment_id TEXT PRIMARY KEY,
  slot_id TEXT NOT NULL REFERENCES slots(slot_id),
  patient_name TEXT NOT NULL,
  patient_cpf TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('BOOKED', 'CANCELLED', 'RESCHEDULED')),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
-- The rule that makes double booking impossible, whoever writes.
CREATE UNIQUE INDEX IF NOT EXISTS one_booking_per_slot
  ON appointments(slot_id) WHERE status = 'BOOKED';
CREATE INDEX IF NOT EXISTS appointments_by_cpf ON appointments(patient_cpf);
CREATE TABLE IF NOT EXISTS patients (
  patient_id TEXT PRIMARY KEY,
  full_name TEXT NOT NULL,
  age INTEGER NOT NULL,
  condition TEXT NOT NULL,
  medications TEXT NOT NULL,
  allergies TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS idempotency (
  key TEXT PRIMARY KEY,
  fingerprint TEXT NOT NULL,
  response TEXT NOT NULL,
  created_at TEXT NOT NULL
);
-- The packet is the serialized HandoffPacket protobuf, not JSON: it is exactly what the caller
-- sent (doubles bit for bit, fields newer than this clinic kept as unknown fields), its length
-- is the size the 32 KiB limit is checked on, and the clinic never queries inside it.
-- Rows are never deleted: a cancelled or rescheduled appointment keeps its packet as history.
CREATE TABLE IF NOT EXISTS handoff_packets (
  appointment_id TEXT PRIMARY KEY REFERENCES appointments(appointment_id),
  packet BLOB NOT NULL,
  created_at TEXT NOT NULL
);
"""


@dataclass(frozen=True)
class Doctor:
    doctor_id: str
    name: str


@dataclass(frozen=True)
class Slot:
    slot_id: str
    doctor: str
    date: str
    time: str


@dataclass(frozen=True)
class Appointment:
    appointment_id: str
    doctor: str
    date: str
    time: str
    status: str


@dataclass(frozen=True)
class Handoff:
    """A stored handoff packet (serialized HandoffPacket) and the appointment it belongs to."""

    appointment: Appointment
    packet: bytes
    created_at: str


@dataclass(frozen=True)
class Patient:
    patient_id: str
    full_name: str
    age: int
    condition: str
    medications: list[str]
    allergies: list[str]


@dataclass(frozen=True)
class Identity:
    """A validated patient identity (name collapsed, CPF as 11 digits)."""

    full_name: str
    cpf: str


@dataclass(frozen=True)
class AppointmentRef:
    """Names an existing appointment: by id, or by the doctor, date and time it holds."""

    appointment_id: str = ""
    doctor: str = ""
    date: str = ""
    time: str = ""


T = TypeVar("T")


class ClinicStore:
    """Thread-safe access to one clinic's database file (one connection per thread)."""

    def __init__(self, path: Path, clinic_id: str, specialty: str,
                 now: Callable[[], dt.datetime]) -> None:
        self.path = path
        self.clinic_id = clinic_id
        self.specialty = specialty
        self._now = now
        self._local = threading.local()

    # -- connection and transactions -------------------------------------------------------

    def _conn(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.path, isolation_level=None, timeout=30.0,
                                   check_same_thread=True)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=ON")
            self._local.conn = conn
        return conn

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """An IMMEDIATE transaction: takes the write lock up front, so a check-then-insert
        inside it cannot interleave with another writer in any thread or process."""
        conn = self._conn()
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    def close(self) -> None:
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None

    # -- setup --------------------------------------------------------------------------------

    def initialize(self) -> None:
        """Creates the schema, seeds doctors and patients once, and tops up slots so the next
        four weeks are always bookable. Safe to run on every start."""
        conn = self._conn()
        conn.executescript(SCHEMA)
        with self._write() as conn:
            for index, doctor in enumerate(seed.DOCTORS[self.clinic_id]):
                conn.execute(
                    "INSERT OR IGNORE INTO doctors VALUES (?, ?)",
                    (seed.doctor_id(self.clinic_id, self.specialty, index), doctor.name),
                )
            for patient_id, p in seed.patients(self.clinic_id, self.specialty):
                conn.execute(
                    "INSERT OR IGNORE INTO patients VALUES (?, ?, ?, ?, ?, ?)",
                    (patient_id, p.full_name, p.age, p.condition,
                     json.dumps(p.medications), json.dumps(p.allergies)),
                )
            conn.executemany(
                "INSERT OR IGNORE INTO slots VALUES (?, ?, ?, ?)",
                seed.slot_rows(self.clinic_id, self.specialty, self._now().date()),
            )

    # -- reads ----------------------------------------------------------------------------------

    def doctors(self) -> list[Doctor]:
        rows = self._conn().execute("SELECT doctor_id, name FROM doctors ORDER BY name")
        return [Doctor(*row) for row in rows]

    def patient_summaries(self, query: str = "") -> list[tuple[str, str]]:
        rows = self._conn().execute(
            "SELECT patient_id, condition FROM patients ORDER BY patient_id"
        ).fetchall()
        needle = fold(query)
        return [r for r in rows if not needle or needle in fold(r[0]) or needle in fold(r[1])]

    def patient(self, patient_id: str) -> Patient:
        row = self._conn().execute(
            "SELECT * FROM patients WHERE patient_id = ?", (patient_id,)
        ).fetchone()
        if row is None:
            raise NotFound(f"no patient {patient_id!r} at {self.clinic_id}")
        pid, name, age, condition, meds, allergies = row
        return Patient(pid, name, age, condition, json.loads(meds), json.loads(allergies))

    def open_slots(self, doctor: str, from_date: str, to_date: str, limit: int,
                   after: tuple[str, str, str, str] | None) -> tuple[list[Slot], bool]:
        """Open future slots in (date, time, doctor, slot_id) order, after the keyset
        `after`; returns up to `limit` of them and whether more follow."""
        now = self._now()
        sql = [
            "SELECT s.slot_id, d.name, s.date, s.time FROM slots s",
            "JOIN doctors d ON d.doctor_id = s.doctor_id",
            "WHERE (s.date > :today OR (s.date = :today AND s.time > :now))",
            "AND s.date >= :from AND s.date <= :to",
            "AND NOT EXISTS (SELECT 1 FROM appointments a",
            "                WHERE a.slot_id = s.slot_id AND a.status = 'BOOKED')",
        ]
        params: dict[str, object] = {
            "today": now.date().isoformat(), "now": now.strftime("%H:%M"),
            "from": from_date or "0000-00-00", "to": to_date or "9999-99-99",
            "limit": limit + 1,
        }
        if doctor:
            ids = {f"d{i}": d.doctor_id for i, d in enumerate(self._match_doctors(doctor))}
            sql.append(f"AND s.doctor_id IN ({', '.join(':' + name for name in ids)})")
            params.update(ids)
        if after is not None:
            sql.append("AND (s.date, s.time, d.name, s.slot_id) > (:ad, :at, :an, :as)")
            params.update(dict(zip(("ad", "at", "an", "as"), after, strict=True)))
        sql.append("ORDER BY s.date, s.time, d.name, s.slot_id LIMIT :limit")
        rows = self._conn().execute(" ".join(sql), params).fetchall()
        return [Slot(*row) for row in rows[:limit]], len(rows) > limit

    def appointments_of(self, who: Identity) -> list[Appointment]:
        now = self._now()
        rows = self._conn().execute(
            _APPOINTMENT_SELECT + " WHERE a.patient_cpf = ? AND a.status = 'BOOKED'"
            " AND (s.date > ? OR (s.date = ? AND s.time > ?)) ORDER BY s.date, s.time",
            (who.cpf, now.date().isoformat(), now.date().isoformat(), now.strftime("%H:%M")),
        ).fetchall()
        return [Appointment(*r[:5]) for r in rows if fold(r[5]) == fold(who.full_name)]

    def handoff(self, appointment_id: str) -> Handoff:
        conn = self._conn()
        row = conn.execute(_APPOINTMENT_SELECT + " WHERE a.appointment_id = ?",
                           (appointment_id,)).fetchone()
        if row is None:
            raise NotFound(f"no appointment {appointment_id!r} at {self.clinic_id}")
        packet = conn.execute(
            "SELECT packet, created_at FROM handoff_packets WHERE appointment_id = ?",
            (appointment_id,),
        ).fetchone()
        if packet is None:
            raise NotFound(f"appointment {appointment_id!r} has no handoff packet")
        return Handoff(Appointment(*row[:5]), packet[0], packet[1])

    # -- writes ---------------------------------------------------------------------------------

    def book(self, doctor: str, date: str, time: str, who: Identity,
             idempotency_key: str = "", handoff: bytes | None = None) -> Appointment:
        """Books the slot; `handoff` (a serialized HandoffPacket) is stored with the booking, in
        its transaction."""
        def run(conn: sqlite3.Connection) -> dict:
            slot_id = self._open_slot(conn, doctor, date, time)
            booked = self._insert_booking(conn, slot_id, who)
            if handoff is not None:
                conn.execute("INSERT INTO handoff_packets VALUES (?, ?, ?)",
                             (booked.appointment_id, handoff, self._now().isoformat()))
            return asdict(booked)

        parts: list[object] = ["book", self._resolve_doctor(doctor).doctor_id, date, time, who]
        if handoff is not None:
            # Only when there is a packet, so a packet-less booking keeps the fingerprint it had
            # before packets existed (keys stored by an older clinic still match their retries).
            parts.append(hashlib.sha256(handoff).hexdigest())
        return Appointment(**self._idempotent(idempotency_key, _fingerprint(*parts), run))

    def reschedule(self, ref: AppointmentRef, new_doctor: str, new_date: str, new_time: str,
                   who: Identity, idempotency_key: str = "") -> tuple[Appointment, Appointment]:
        def run(conn: sqlite3.Connection) -> dict:
            original = self._owned_appointment(conn, ref, who)
            # First half: free the original slot; second half: take the new one. Both run in
            # one transaction, so a failure or crash in between leaves the original booked.
            self._set_status(conn, original.appointment_id, "RESCHEDULED")
            slot_id = self._open_slot(conn, new_doctor or original.doctor, new_date, new_time)
            booked = self._insert_booking(conn, slot_id, who)
            # A moved consult keeps its handoff. Copied, not moved, so the original still shows
            # it as history; created_at stays the time the packet was first stored.
            conn.execute(
                "INSERT INTO handoff_packets (appointment_id, packet, created_at)"
                " SELECT ?, packet, created_at FROM handoff_packets WHERE appointment_id = ?",
                (booked.appointment_id, original.appointment_id),
            )
            moved = Appointment(**{**asdict(original), "status": "RESCHEDULED"})
            return {"original": asdict(moved), "appointment": asdict(booked)}

        fingerprint = _fingerprint("reschedule", *asdict(ref).values(), new_doctor, new_date,
                                   new_time, who)
        result = self._idempotent(idempotency_key, fingerprint, run)
        return Appointment(**result["original"]), Appointment(**result["appointment"])

    def cancel(self, ref: AppointmentRef, who: Identity, idempotency_key: str = "") -> Appointment:
        def run(conn: sqlite3.Connection) -> dict:
            original = self._owned_appointment(conn, ref, who)
            self._set_status(conn, original.appointment_id, "CANCELLED")
            return {**asdict(original), "status": "CANCELLED"}

        fingerprint = _fingerprint("cancel", *asdict(ref).values(), who)
        return Appointment(**self._idempotent(idempotency_key, fingerprint, run))

    # -- helpers --------------------------------------------------------------------------------

    def _idempotent(self, key: str, fingerprint: str,
                    run: Callable[[sqlite3.Connection], T]) -> T:
        with self._write() as conn:
            if key:
                row = conn.execute(
                    "SELECT fingerprint, response FROM idempotency WHERE key = ?", (key,)
                ).fetchone()
                if row is not None:
                    if row[0] != fingerprint:
                        raise AlreadyExists(
                            "idempotency_key was already used for a different request"
                        )
                    return json.loads(row[1])
            result = run(conn)
            if key:
                conn.execute(
                    "INSERT INTO idempotency VALUES (?, ?, ?, ?)",
                    (key, fingerprint, json.dumps(result), self._now().isoformat()),
                )
            return result

    def _match_doctors(self, query: str) -> list[Doctor]:
        """Doctors named by id, by full name, or by a part of the name."""
        doctors = self.doctors()
        needle = _strip_title(fold(query))
        for exact in (
            [d for d in doctors if d.doctor_id.casefold() == query.strip().casefold()],
            [d for d in doctors if _strip_title(fold(d.name)) == needle],
        ):
            if exact:
                return exact
        partial = [d for d in doctors if needle and needle in _strip_title(fold(d.name))]
        if not partial:
            raise NotFound(f"no doctor matching {query!r} at {self.clinic_id}")
        return partial

    def _resolve_doctor(self, query: str) -> Doctor:
        matches = self._match_doctors(query)
        if len(matches) > 1:
            names = ", ".join(d.name for d in matches)
            raise InvalidArgument("doctor", f"{query!r} matches several doctors: {names}")
        return matches[0]

    def _open_slot(self, conn: sqlite3.Connection, doctor: str, date: str, time: str) -> str:
        doc = self._resolve_doctor(doctor)
        row = conn.execute(
            "SELECT slot_id FROM slots WHERE doctor_id = ? AND date = ? AND time = ?",
            (doc.doctor_id, date, time),
        ).fetchone()
        if row is None:
            raise NotFound(f"{doc.name} has no slot on {date} at {time}")
        if self._is_past(date, time):
            raise FailedPrecondition(f"the slot on {date} at {time} is in the past")
        taken = conn.execute(
            "SELECT 1 FROM appointments WHERE slot_id = ? AND status = 'BOOKED'", (row[0],)
        ).fetchone()
        if taken:
            raise FailedPrecondition(f"the slot with {doc.name} on {date} at {time} is taken")
        return row[0]

    def _insert_booking(self, conn: sqlite3.Connection, slot_id: str,
                        who: Identity) -> Appointment:
        appointment_id = f"{seed.id_prefix(self.clinic_id, self.specialty)}-APT-" \
                         f"{secrets.token_hex(5).upper()}"
        stamp = self._now().isoformat()
        try:
            conn.execute(
                "INSERT INTO appointments VALUES (?, ?, ?, ?, 'BOOKED', ?, ?)",
                (appointment_id, slot_id, who.full_name, who.cpf, stamp, stamp),
            )
        except sqlite3.IntegrityError:
            raise FailedPrecondition("the slot was just taken") from None
        return self._appointment(conn, "a.appointment_id = ?", (appointment_id,))

    def _owned_appointment(self, conn: sqlite3.Connection, ref: AppointmentRef,
                           who: Identity) -> Appointment:
        if ref.appointment_id:
            where, args = "a.appointment_id = ?", (ref.appointment_id,)
            label = ref.appointment_id
        else:
            doc = self._resolve_doctor(ref.doctor)
            where = "s.doctor_id = ? AND s.date = ? AND s.time = ? AND a.status = 'BOOKED'"
            args = (doc.doctor_id, ref.date, ref.time)
            label = f"with {doc.name} on {ref.date} at {ref.time}"
        row = conn.execute(_APPOINTMENT_SELECT + f" WHERE {where}", args).fetchone()
        if row is None:
            raise NotFound(f"no appointment {label} at {self.clinic_id}")
        appointment = Appointment(*row[:5])
        name, cpf = row[5], row[6]
        if cpf != who.cpf or fold(name) != fold(who.full_name):
            raise PermissionDenied("the appointment belongs to another patient")
        if appointment.status != "BOOKED":
            raise FailedPrecondition(f"the appointment is already {appointment.status.lower()}")
        if self._is_past(appointment.date, appointment.time):
            raise FailedPrecondition("the appointment is in the past")
        return appointment

    def _set_status(self, conn: sqlite3.Connection, appointment_id: str, status: str) -> None:
        conn.execute(
            "UPDATE appointments SET status = ?, updated_at = ? WHERE appointment_id = ?",
            (status, self._now().isoformat(), appointment_id),
        )

    def _appointment(self, conn: sqlite3.Connection, where: str, args: tuple) -> Appointment:
        row = conn.execute(_APPOINTMENT_SELECT + f" WHERE {where}", args).fetchone()
        return Appointment(*row[:5])

    def _is_past(self, date: str, time: str) -> bool:
        return f"{date} {time}" <= self._now().strftime("%Y-%m-%d %H:%M")


_APPOINTMENT_SELECT = (
    "SELECT a.appointment_id, d.name, s.date, s.time, a.status, a.patient_name, a.patient_cpf"
    " FROM appointments a JOIN slots s ON s.slot_id = a.slot_id"
    " JOIN doctors d ON d.doctor_id = s.doctor_id"
)


def _strip_title(name: str) -> str:
    for title in ("dr. ", "dra. ", "dr ", "dra "):
        if name.startswith(title):
            return name[len(title):]
    return name


def _fingerprint(*parts: object) -> str:
    flat = [asdict(p) if isinstance(p, Identity) else p for p in parts]
    return hashlib.sha256(json.dumps(flat, sort_keys=True).encode()).hexdigest()
