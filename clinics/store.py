"""One clinic's SQLite database: doctors, slots, appointments, patients, idempotency keys and
the SOAP handoff packets booked with consults.

Safety under concurrency lives in the database, not in process memory: every write runs in
a `BEGIN IMMEDIATE` transaction (one writer at a time across threads *and* processes) and a
partial unique index allows at most one BOOKED appointment per slot. Idempotency records are
written in the same transaction as the booking they describe, so a retry sees either both
or neither. A handoff packet is written in its booking's transaction too. Every write first
checks, in its transaction, that the CPF is used with the name it belongs to here.
"""

import datetime as dt
import hashlib
import json
import sqlite3
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path

from clinics import appointments, idempotency, schema, seed, slots
from clinics.records import Appointment, AppointmentRef, Doctor, Handoff, Identity, Patient, Slot
from runtime import sqlite
from runtime.doctors import match_doctors
from runtime.errors import NotFound
from runtime.text.fold import fold_words as fold


class ClinicStore:
    """Thread-safe access to one clinic's database file (one connection per thread)."""

    def __init__(self, path: Path, clinic_id: str, specialty: str,
                 now: Callable[[], dt.datetime]) -> None:
        self.clinic_id = clinic_id
        self.specialty = specialty
        self._now = now
        self._db = sqlite.Database(path, wal=True, synchronous="NORMAL", foreign_keys=True)

    def close(self) -> None:
        self._db.close()

    def initialize(self) -> None:
        """Creates the schema, seeds doctors and patients once, and tops up slots so the next
        four weeks are always bookable. Safe to run on every start."""
        self._db.connection().executescript(schema.SCHEMA)
        with self._db.write() as conn:
            schema.seed_rows(conn, self.clinic_id, self.specialty, self._now().date())

    # -- reads ----------------------------------------------------------------------------------

    def doctors(self) -> list[Doctor]:
        return slots.all_doctors(self._db.connection())

    def patient_summaries(self, query: str = "") -> list[tuple[str, str]]:
        rows = self._db.connection().execute(
            "SELECT patient_id, condition FROM patients ORDER BY patient_id"
        ).fetchall()
        needle = fold(query)
        return [r for r in rows if not needle or needle in fold(r[0]) or needle in fold(r[1])]

    def patient(self, patient_id: str) -> Patient:
        row = self._db.connection().execute(
            "SELECT * FROM patients WHERE patient_id = ?", (patient_id,)
        ).fetchone()
        if row is None:
            raise NotFound(f"no patient {patient_id!r} at {self.clinic_id}")
        pid, name, age, condition, meds, allergies = row
        return Patient(pid, name, age, condition, json.loads(meds), json.loads(allergies))

    def open_slots(self, doctor: str, from_date: str, to_date: str, limit: int,
                   after: tuple[str, str, str, str] | None) -> tuple[list[Slot], bool]:
        """Open future slots of the doctors `doctor` names (everyone's when empty); see
        slots.open_slots."""
        now = self._now()
        doctor_ids = [d.doctor_id for d in self._match_doctors(doctor)] if doctor else []
        return slots.open_slots(self._db.connection(), now, doctor_ids, from_date, to_date, limit, after)

    def all_open_slots(self) -> list[Slot]:
        """Every open future slot, for a watcher's snapshot."""
        return slots.open_slots(self._db.connection(), self._now(), [], "", "", None, None)[0]

    def slot_states(self, touched: list[Appointment]) -> tuple[list[Slot], list[str]]:
        """The slots of `touched` appointments as they are now: the open ones, and the ids of the rest."""
        keys = [(a.doctor, a.date, a.time) for a in touched]
        return slots.slot_states(self._db.connection(), self._now(), keys)

    def appointments_of(self, who: Identity) -> list[Appointment]:
        return appointments.upcoming(self._db.connection(), who, self._now())

    def handoff(self, appointment_id: str) -> Handoff:
        return appointments.handoff(self._db.connection(), appointment_id, self.clinic_id)

    # -- writes ---------------------------------------------------------------------------------

    def book(self, doctor: str, date: str, time: str, who: Identity,
             idempotency_key: str = "", handoff: bytes | None = None) -> Appointment:
        """Books the slot; `handoff` (a serialized HandoffPacket) is stored with the booking, in
        its transaction."""
        def run(conn: sqlite3.Connection) -> dict:
            appointments.check_cpf_name(conn, who)
            slot_id = self._open_slot(conn, doctor, date, time)
            booked = self._insert_booking(conn, slot_id, who)
            if handoff is not None:
                appointments.store_handoff(conn, booked.appointment_id, handoff, self._now().isoformat())
            return asdict(booked)

        parts: list[object] = ["book", self._resolve_doctor(doctor).doctor_id, date, time, who]
        if handoff is not None:
            # Only when there is a packet, so a packet-less booking keeps the fingerprint it had
            # before packets existed (keys stored by an older clinic still match their retries).
            parts.append(hashlib.sha256(handoff).hexdigest())
        return Appointment(**self._idempotent(idempotency_key, idempotency.fingerprint(*parts), run))

    def reschedule(self, ref: AppointmentRef, new_doctor: str, new_date: str, new_time: str,
                   who: Identity, idempotency_key: str = "") -> tuple[Appointment, Appointment]:
        def run(conn: sqlite3.Connection) -> dict:
            appointments.check_cpf_name(conn, who)
            original = self._owned_appointment(conn, ref, who)
            # First half: free the original slot; second half: take the new one. Both run in
            # one transaction, so a failure or crash in between leaves the original booked.
            self._set_status(conn, original.appointment_id, "RESCHEDULED")
            slot_id = self._open_slot(conn, new_doctor or original.doctor, new_date, new_time)
            booked = self._insert_booking(conn, slot_id, who)
            appointments.copy_handoff(conn, original.appointment_id, booked.appointment_id)
            moved = Appointment(**{**asdict(original), "status": "RESCHEDULED"})
            return {"original": asdict(moved), "appointment": asdict(booked)}

        fingerprint = idempotency.fingerprint("reschedule", *asdict(ref).values(), new_doctor, new_date,
                                              new_time, who)
        result = self._idempotent(idempotency_key, fingerprint, run)
        return Appointment(**result["original"]), Appointment(**result["appointment"])

    def cancel(self, ref: AppointmentRef, who: Identity, idempotency_key: str = "") -> Appointment:
        def run(conn: sqlite3.Connection) -> dict:
            appointments.check_cpf_name(conn, who)
            original = self._owned_appointment(conn, ref, who)
            self._set_status(conn, original.appointment_id, "CANCELLED")
            return {**asdict(original), "status": "CANCELLED"}

        fingerprint = idempotency.fingerprint("cancel", *asdict(ref).values(), who)
        return Appointment(**self._idempotent(idempotency_key, fingerprint, run))

    # -- helpers: this clinic's ids and clock around the slot and appointment steps ---------------

    def _idempotent(self, key: str, fingerprint: str, run: Callable[[sqlite3.Connection], dict]) -> dict:
        with self._db.write() as conn:
            return idempotency.replay_or_run(conn, key, fingerprint, run, self._now)

    def _match_doctors(self, query: str) -> list[Doctor]:
        return match_doctors(self.doctors(), query, self.clinic_id)

    def _resolve_doctor(self, query: str) -> Doctor:
        return slots.resolve_doctor(self.doctors(), query, self.clinic_id)

    def _open_slot(self, conn: sqlite3.Connection, doctor: str, date: str, time: str) -> str:
        return slots.bookable_slot(conn, self._resolve_doctor(doctor), date, time, self._now())

    def _insert_booking(self, conn: sqlite3.Connection, slot_id: str, who: Identity) -> Appointment:
        prefix = seed.id_prefix(self.clinic_id, self.specialty)
        return appointments.insert_booking(conn, slot_id, who, prefix, self._now().isoformat())

    def _owned_appointment(self, conn: sqlite3.Connection, ref: AppointmentRef,
                           who: Identity) -> Appointment:
        doctor = None if ref.appointment_id else self._resolve_doctor(ref.doctor)
        return appointments.owned_appointment(conn, ref, doctor, who, self._now(), self.clinic_id)

    def _set_status(self, conn: sqlite3.Connection, appointment_id: str, status: str) -> None:
        appointments.set_status(conn, appointment_id, status, self._now().isoformat())
