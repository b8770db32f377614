"""What a clinic's database holds, as the values its store returns and takes."""

from dataclasses import dataclass


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
