"""Appointments and their handoff packets: what a patient has booked, and the rows booking,
moving and cancelling write (always inside the caller's write transaction)."""

import datetime as dt
import secrets
import sqlite3

from clinics.records import Appointment, AppointmentRef, Doctor, Handoff, Identity
from runtime.errors import FailedPrecondition, NotFound, PermissionDenied
from runtime.identity import same_name
from runtime.listing import is_past

_SELECT = (
    "SELECT a.appointment_id, d.name, s.date, s.time, a.status, a.patient_name, a.patient_cpf"
    " FROM appointments a JOIN slots s ON s.slot_id = a.slot_id"
    " JOIN doctors d ON d.doctor_id = s.doctor_id"
)


def upcoming(conn: sqlite3.Connection, who: Identity, now: dt.datetime) -> list[Appointment]:
    """The patient's future BOOKED appointments, soonest first."""
    rows = conn.execute(
        _SELECT + " WHERE a.patient_cpf = ? AND a.status = 'BOOKED'"
        " AND (s.date > ? OR (s.date = ? AND s.time > ?)) ORDER BY s.date, s.time",
        (who.cpf, now.date().isoformat(), now.date().isoformat(), now.strftime("%H:%M")),
    ).fetchall()
    return [Appointment(*r[:5]) for r in rows if same_name(r[5], who.full_name)]


def handoff(conn: sqlite3.Connection, appointment_id: str, clinic_id: str) -> Handoff:
    row = conn.execute(_SELECT + " WHERE a.appointment_id = ?", (appointment_id,)).fetchone()
    if row is None:
        raise NotFound(f"no appointment {appointment_id!r} at {clinic_id}")
    packet = conn.execute(
        "SELECT packet, created_at FROM handoff_packets WHERE appointment_id = ?",
        (appointment_id,),
    ).fetchone()
    if packet is None:
        raise NotFound(f"appointment {appointment_id!r} has no handoff packet")
    return Handoff(Appointment(*row[:5]), packet[0], packet[1])


def check_cpf_name(conn: sqlite3.Connection, who: Identity) -> None:
    """A CPF belongs to the name it was first booked under at this clinic: a write naming it with
    another name would make a second identity of someone else's CPF. The message leaves the
    stored name out (PHI)."""
    row = conn.execute(
        "SELECT patient_name FROM appointments WHERE patient_cpf = ? ORDER BY rowid LIMIT 1",
        (who.cpf,),
    ).fetchone()
    if row is not None and not same_name(row[0], who.full_name):
        raise PermissionDenied("this CPF is registered at this clinic under another name")


def insert_booking(conn: sqlite3.Connection, slot_id: str, who: Identity, id_prefix: str,
                   stamp: str) -> Appointment:
    appointment_id = f"{id_prefix}-APT-{secrets.token_hex(5).upper()}"
    try:
        conn.execute(
            "INSERT INTO appointments VALUES (?, ?, ?, ?, 'BOOKED', ?, ?)",
            (appointment_id, slot_id, who.full_name, who.cpf, stamp, stamp),
        )
    except sqlite3.IntegrityError:
        raise FailedPrecondition("the slot was just taken") from None
    row = conn.execute(_SELECT + " WHERE a.appointment_id = ?", (appointment_id,)).fetchone()
    return Appointment(*row[:5])


def owned_appointment(conn: sqlite3.Connection, ref: AppointmentRef, doctor: Doctor | None,
                      who: Identity, now: dt.datetime, clinic_id: str) -> Appointment:
    """The BOOKED future appointment `ref` names, provided it belongs to `who`. `doctor` is the
    one `ref.doctor` resolves to when `ref` has no id, else None."""
    if doctor is None:
        where, args = "a.appointment_id = ?", (ref.appointment_id,)
        label = ref.appointment_id
    else:
        where = "s.doctor_id = ? AND s.date = ? AND s.time = ? AND a.status = 'BOOKED'"
        args = (doctor.doctor_id, ref.date, ref.time)
        label = f"with {doctor.name} on {ref.date} at {ref.time}"
    row = conn.execute(_SELECT + f" WHERE {where}", args).fetchone()
    if row is None:
        raise NotFound(f"no appointment {label} at {clinic_id}")
    appointment = Appointment(*row[:5])
    name, cpf = row[5], row[6]
    if cpf != who.cpf or not same_name(name, who.full_name):
        raise PermissionDenied("the appointment belongs to another patient")
    if appointment.status != "BOOKED":
        raise FailedPrecondition(f"the appointment is already {appointment.status.lower()}")
    if is_past(now, appointment.date, appointment.time):
        raise FailedPrecondition("the appointment is in the past")
    return appointment


def set_status(conn: sqlite3.Connection, appointment_id: str, status: str, stamp: str) -> None:
    conn.execute(
        "UPDATE appointments SET status = ?, updated_at = ? WHERE appointment_id = ?",
        (status, stamp, appointment_id),
    )


def store_handoff(conn: sqlite3.Connection, appointment_id: str, packet: bytes, stamp: str) -> None:
    conn.execute("INSERT INTO handoff_packets VALUES (?, ?, ?)", (appointment_id, packet, stamp))


def copy_handoff(conn: sqlite3.Connection, from_id: str, to_id: str) -> None:
    """A moved consult keeps its handoff. Copied, not moved, so the original still shows it as
    history; created_at stays the time the packet was first stored."""
    conn.execute(
        "INSERT INTO handoff_packets (appointment_id, packet, created_at)"
        " SELECT ?, packet, created_at FROM handoff_packets WHERE appointment_id = ?",
        (to_id, from_id),
    )
