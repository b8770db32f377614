"""Deterministic synthetic data for each clinic, relative to today.

Doctors and patients are fixed per clinic; slots cover the weekdays of the next four weeks
and are topped up on every start, so a clinic never runs dry. All people are fictional. The six
clinics of deploy/registry.json have hand-written doctors; any other clinic id in a registry gets
doctors drawn from its id, the same on every start, so the number of clinics is the registry's.
"""

import datetime as dt
import random
from dataclasses import dataclass

from runtime.specialties import SPECIALTIES

SLOT_WEEKS = 4

# CARD, DERM, ORTH: the first four letters of the specialty.
ID_PREFIX = {specialty: specialty[:4].upper() for specialty in SPECIALTIES}


@dataclass(frozen=True)
class SeedDoctor:
    name: str
    weekdays: tuple[int, ...]  # Monday = 0
    times: tuple[str, ...]


@dataclass(frozen=True)
class SeedPatient:
    full_name: str
    age: int
    condition: str
    medications: tuple[str, ...]
    allergies: tuple[str, ...]


DOCTORS: dict[str, tuple[SeedDoctor, ...]] = {
    "clinic_a": (
        SeedDoctor("Dr. Fernando Almeida", (0, 2, 4), ("09:00", "10:00", "11:00", "14:00")),
        SeedDoctor("Dra. Beatriz Souza", (1, 3), ("08:30", "10:30", "15:00", "16:00")),
        SeedDoctor("Dr. Ricardo Nunes", (0, 3), ("13:00", "14:30", "16:30")),
    ),
    "clinic_b": (
        SeedDoctor("Dra. Camila Ferreira", (0, 1, 3), ("09:00", "10:00", "14:00", "15:00")),
        SeedDoctor("Dr. Eduardo Lima", (2, 4), ("08:00", "11:00", "16:00")),
    ),
    "clinic_c": (
        SeedDoctor("Dr. Marcelo Carvalho", (1, 2, 4), ("09:30", "10:30", "14:00")),
        SeedDoctor("Dra. Juliana Prado", (0, 3), ("08:00", "09:00", "15:30", "17:00")),
    ),
    "clinic_d": (
        SeedDoctor("Dr. Paulo Mendes", (0, 2), ("08:00", "09:00", "10:00", "15:00")),
        SeedDoctor("Dra. Renata Oliveira", (1, 3, 4), ("11:00", "13:30", "14:30")),
        SeedDoctor("Dr. Thiago Barros", (2, 4), ("16:00", "17:00")),
    ),
    "clinic_e": (
        SeedDoctor("Dra. Larissa Gomes", (0, 1, 4), ("09:00", "10:00", "11:00")),
        SeedDoctor("Dr. André Teixeira", (2, 3), ("14:00", "15:00", "16:00")),
    ),
    "clinic_f": (
        SeedDoctor("Dra. Patrícia Rocha", (0, 2, 4), ("08:30", "09:30", "13:00")),
        SeedDoctor("Dr. Gustavo Martins", (1, 3), ("10:00", "11:00", "14:00", "15:00")),
        SeedDoctor("Dra. Helena Castro", (1, 4), ("16:00", "17:00")),
    ),
}

# For clinics beyond the hand-written ones: (title, first name), surnames, weekly patterns, hours.
_DOCTOR_FIRST = (("Dr.", "Rafael"), ("Dra.", "Sofia"), ("Dr.", "Vinícius"), ("Dra.", "Aline"),
                 ("Dr.", "Leonardo"), ("Dra.", "Fernanda"), ("Dr.", "Otávio"), ("Dra.", "Priscila"),
                 ("Dr.", "Henrique"), ("Dra.", "Tatiana"), ("Dr.", "Caio"), ("Dra.", "Vanessa"))
_DOCTOR_LAST = ("Azevedo", "Batista", "Campos", "Duarte", "Esteves", "Fonseca", "Guimarães", "Lacerda",
                "Macedo", "Nogueira", "Queiroz", "Rezende", "Siqueira", "Toledo")
_WEEKDAYS = ((0, 2, 4), (1, 3), (0, 3), (2, 4), (0, 1, 4), (1, 2))
_TIMES = (("08:00", "09:00", "10:00"), ("13:00", "14:00", "15:30"), ("09:30", "11:00", "16:00"),
          ("08:30", "10:30", "14:30", "17:00"))

_FIRST = ("Ana", "Bruno", "Carla", "Diego", "Elisa", "Fábio", "Gabriela", "Hugo", "Isabela",
          "João", "Karina", "Lucas", "Mariana", "Nelson", "Olívia", "Pedro", "Raquel", "Sérgio")
_LAST = ("Silva", "Santos", "Pereira", "Costa", "Ribeiro", "Araújo", "Moreira", "Cardoso",
         "Dias", "Freitas", "Vieira", "Monteiro", "Ramos", "Pinto")

_CONDITIONS: dict[str, tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...]] = {
    "cardiology": (
        ("hypertension", ("losartan 50 mg daily",), ("penicillin",)),
        ("atrial fibrillation", ("apixaban 5 mg twice daily", "metoprolol 50 mg daily"), ()),
        ("heart failure with reduced ejection fraction",
         ("sacubitril/valsartan 49/51 mg twice daily", "furosemide 40 mg daily"), ("sulfa",)),
        ("coronary artery disease", ("aspirin 100 mg daily", "atorvastatin 40 mg daily"), ()),
        ("hypercholesterolemia", ("rosuvastatin 10 mg daily",), ("iodine contrast",)),
        ("mitral valve prolapse", (), ()),
        ("supraventricular tachycardia", ("diltiazem 120 mg daily",), ("latex",)),
        ("hypertrophic cardiomyopathy", ("bisoprolol 5 mg daily",), ()),
    ),
    "dermatology": (
        ("psoriasis", ("calcipotriol/betamethasone gel",), ()),
        ("atopic dermatitis", ("tacrolimus 0.1% ointment",), ("nickel",)),
        ("acne vulgaris", ("adapalene 0.1% gel", "doxycycline 100 mg daily"), ()),
        ("rosacea", ("ivermectin 1% cream",), ("fragrance mix",)),
        ("seborrheic dermatitis", ("ketoconazole 2% shampoo",), ()),
        ("vitiligo", ("tacrolimus 0.1% ointment",), ()),
        ("actinic keratosis", ("5-fluorouracil 5% cream",), ("penicillin",)),
        ("chronic urticaria", ("cetirizine 10 mg daily",), ("aspirin",)),
    ),
    "orthopedics": (
        ("knee osteoarthritis", ("paracetamol 750 mg as needed",), ()),
        ("lumbar disc herniation", ("physiotherapy program",), ("dipyrone",)),
        ("rotator cuff tendinopathy", ("ibuprofen 400 mg as needed",), ()),
        ("ankle sprain follow-up", (), ("latex",)),
        ("carpal tunnel syndrome", ("wrist splint at night",), ()),
        ("plantar fasciitis", ("stretching program",), ("codeine",)),
        ("osteoporosis", ("alendronate 70 mg weekly", "calcium and vitamin D"), ()),
        ("hip replacement follow-up", ("rivaroxaban 10 mg daily",), ()),
    ),
}


def doctors(clinic_id: str) -> tuple[SeedDoctor, ...]:
    """The clinic's doctors: hand-written for the registry's six, drawn from the id otherwise."""
    if clinic_id in DOCTORS:
        return DOCTORS[clinic_id]
    draw = random.Random(f"healthmesh-seed:{clinic_id}")  # a str seed is hashed stably across runs
    firsts = draw.sample(_DOCTOR_FIRST, 3)
    return tuple(SeedDoctor(f"{title} {first} {draw.choice(_DOCTOR_LAST)}", draw.choice(_WEEKDAYS),
                            draw.choice(_TIMES))
                 for title, first in firsts[:draw.choice((2, 3))])


def id_prefix(clinic_id: str, specialty: str) -> str:
    """e.g. CARD-A for clinic_a (cardiology)."""
    return f"{ID_PREFIX[specialty]}-{clinic_id.rsplit('_', 1)[1].upper()}"


def patients(clinic_id: str, specialty: str) -> list[tuple[str, SeedPatient]]:
    prefix = id_prefix(clinic_id, specialty)
    offset = ord(clinic_id[-1]) - ord("a")
    result = []
    for i, (condition, meds, allergies) in enumerate(_CONDITIONS[specialty]):
        name = f"{_FIRST[(i * 5 + offset * 3) % len(_FIRST)]} {_LAST[(i * 3 + offset) % len(_LAST)]}"
        age = 24 + (i * 11 + offset * 7) % 60
        result.append((f"{prefix}{i + 1:03d}", SeedPatient(name, age, condition, meds, allergies)))
    return result


def doctor_id(clinic_id: str, specialty: str, index: int) -> str:
    return f"{id_prefix(clinic_id, specialty)}-DR{index + 1:02d}"


def slot_rows(clinic_id: str, specialty: str, today: dt.date) -> list[tuple[str, str, str, str]]:
    """(slot_id, doctor_id, date, time) for every working slot from today for four weeks."""
    rows = []
    for offset in range(SLOT_WEEKS * 7):
        day = today + dt.timedelta(days=offset)
        for index, doctor in enumerate(doctors(clinic_id)):
            if day.weekday() not in doctor.weekdays:
                continue
            did = doctor_id(clinic_id, specialty, index)
            for time in doctor.times:
                slot_id = f"{did}-{day:%Y%m%d}-{time.replace(':', '')}"
                rows.append((slot_id, did, day.isoformat(), time))
    return rows
