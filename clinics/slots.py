"""Doctors and their slots: naming a doctor (runtime.doctors), listing open slots, checking one can be
booked."""

import datetime as dt
import sqlite3

from clinics.records import Doctor, Slot
from runtime.doctors import match_doctors
from runtime.errors import FailedPrecondition, InvalidArgument, NotFound
from runtime.listing import is_past


def all_doctors(conn: sqlite3.Connection) -> list[Doctor]:
    return [Doctor(*row) for row in conn.execute("SELECT doctor_id, name FROM doctors ORDER BY name")]


def resolve_doctor(doctors: list[Doctor], query: str, clinic_id: str) -> Doctor:
    """The one doctor `query` names."""
    matches = match_doctors(doctors, query, clinic_id)
    if len(matches) > 1:
        names = ", ".join(d.name for d in matches)
        raise InvalidArgument("doctor", f"{query!r} matches several doctors: {names}")
    return matches[0]


def open_slots(conn: sqlite3.Connection, now: dt.datetime, doctor_ids: list[str], from_date: str,
               to_date: str, limit: int | None, after: tuple[str, str, str, str] | None
               ) -> tuple[list[Slot], bool]:
    """Open future slots (of `doctor_ids`, or of everyone when empty) in (date, time, doctor,
    slot_id) order, after the keyset `after`; returns up to `limit` of them (all when None) and
    whether more follow."""
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
        "limit": -1 if limit is None else limit + 1,  # SQLite: a negative LIMIT is none
    }
    if doctor_ids:
        ids = {f"d{i}": doctor_id for i, doctor_id in enumerate(doctor_ids)}
        sql.append(f"AND s.doctor_id IN ({', '.join(':' + name for name in ids)})")
        params.update(ids)
    if after is not None:
        sql.append("AND (s.date, s.time, d.name, s.slot_id) > (:ad, :at, :an, :as)")
        params.update(dict(zip(("ad", "at", "an", "as"), after, strict=True)))
    sql.append("ORDER BY s.date, s.time, d.name, s.slot_id LIMIT :limit")
    rows = conn.execute(" ".join(sql), params).fetchall()
    if limit is None:
        return [Slot(*row) for row in rows], False
    return [Slot(*row) for row in rows[:limit]], len(rows) > limit


def slot_states(conn: sqlite3.Connection, now: dt.datetime, keys: list[tuple[str, str, str]]
                ) -> tuple[list[Slot], list[str]]:
    """The slots at (doctor name, date, time) `keys` as the database has them now: the open future
    ones, and the ids of the others (taken or past)."""
    opened: list[Slot] = []
    closed: list[str] = []
    for doctor, date, time in keys:
        row = conn.execute(
            "SELECT s.slot_id, d.name, s.date, s.time, EXISTS (SELECT 1 FROM appointments a"
            " WHERE a.slot_id = s.slot_id AND a.status = 'BOOKED') FROM slots s"
            " JOIN doctors d ON d.doctor_id = s.doctor_id WHERE d.name = ? AND s.date = ? AND s.time = ?",
            (doctor, date, time)).fetchone()
        if row is None:
            continue
        if row[4] or is_past(now, date, time):
            closed.append(row[0])
        else:
            opened.append(Slot(*row[:4]))
    return opened, closed


def bookable_slot(conn: sqlite3.Connection, doc: Doctor, date: str, time: str, now: dt.datetime) -> str:
    """The id of the doctor's slot at that date and time, if it is in the future and free."""
    row = conn.execute(
        "SELECT slot_id FROM slots WHERE doctor_id = ? AND date = ? AND time = ?",
        (doc.doctor_id, date, time),
    ).fetchone()
    if row is None:
        raise NotFound(f"{doc.name} has no slot on {date} at {time}")
    if is_past(now, date, time):
        raise FailedPrecondition(f"the slot on {date} at {time} is in the past")
    taken = conn.execute(
        "SELECT 1 FROM appointments WHERE slot_id = ? AND status = 'BOOKED'", (row[0],)
    ).fetchone()
    if taken:
        raise FailedPrecondition(f"the slot with {doc.name} on {date} at {time} is taken")
    return row[0]

