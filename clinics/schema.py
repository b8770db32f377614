"""A clinic database's tables, and the synthetic rows (clinics.seed) it starts with."""

import datetime as dt
import json
import sqlite3

from clinics import seed

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


def seed_rows(conn: sqlite3.Connection, clinic_id: str, specialty: str, today: dt.date) -> None:
    """Seeds doctors and patients once and tops up slots so the four weeks from `today` are
    bookable; run inside a write transaction."""
    for index, doctor in enumerate(seed.doctors(clinic_id)):
        conn.execute(
            "INSERT OR IGNORE INTO doctors VALUES (?, ?)",
            (seed.doctor_id(clinic_id, specialty, index), doctor.name),
        )
    for patient_id, p in seed.patients(clinic_id, specialty):
        conn.execute(
            "INSERT OR IGNORE INTO patients VALUES (?, ?, ?, ?, ?, ?)",
            (patient_id, p.full_name, p.age, p.condition,
             json.dumps(p.medications), json.dumps(p.allergies)),
        )
    conn.executemany("INSERT OR IGNORE INTO slots VALUES (?, ?, ?, ?)",
                     seed.slot_rows(clinic_id, specialty, today))
