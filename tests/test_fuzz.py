"""Seeded fuzzing of every RPC of every service: messages built from the descriptors with hostile
values (huge, empty, odd Unicode, digits that are not ASCII, extreme numbers, unknown enum values,
nested page tokens), and valid messages with their bytes mutated. Every answer is a documented
status with a bounded message, never UNKNOWN or INTERNAL, and no traceback reaches a log.

A failure prints the seed, the method and the case number, so it replays exactly."""

import base64
import os
import random
from collections.abc import Iterator

import grpc
import pytest
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message
from google.protobuf.message_factory import GetMessageClass

from runtime import authz
from tests.conftest import caller_of
from tests.test_bad_bytes import SERVICES, call_raw

SEED = int(os.environ.get("HEALTHMESH_FUZZ_SEED", "20261124"))
CASES = int(os.environ.get("HEALTHMESH_FUZZ_CASES", "120"))  # per RPC: ~2,400 requests in all
MAX_DETAILS = 300
DOCUMENTED = {grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.NOT_FOUND,
              grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.PERMISSION_DENIED,
              grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.ALREADY_EXISTS,
              grpc.StatusCode.RESOURCE_EXHAUSTED}

STRINGS = [
    "", " ", "a", "clinic_a", "Dr. Ricardo Almeida", "529.982.247-25", "52998224725", "²²²²²²²²²²³",
    "١٢٣٤٥٦٧٨٩٠١", "0" * 11, "2026-12-01", "1999-02-30", "09:00", "25:61", "cardiology", "warfarin",
    "ibuprofen", "heart", "CHA2DS2-VASc", "ç" * 5000, "x" * 70_000, "\x00\x01\x02", "\u202e\u200b",
    "🫀" * 50, "'; DROP TABLE slots; --", "{\"a\": " * 50, "eyJ", "..", "%s%n", "Maria da Silva",
]
TOKENS = [base64.urlsafe_b64encode(p.encode()).decode() for p in
          ("[" * 600, '["x"]', '{"a": 1}', "null", '[1e999, "09:00", "Dr. X", "s1"]', "\"\\ud800\"")]
# Plausible values by field name, so requests also get past validation into the handlers.
PLAUSIBLE = {
    "doctor": ["Dr. Fernando Almeida", "Dra. Beatriz Souza", "Dr. Ricardo Nunes"],
    "time": ["09:00", "10:00", "14:30"], "date": ["2026-12-02", "2026-12-07", "2027-01-04"],
    "clinic_id": ["clinic_a", "clinic_c"], "language": ["en", "pt-BR", "pt"],
    "specialty": ["cardiology", "dermatology"], "cpf": ["52998224725", "529.982.247-25"],
    "name": ["Maria da Silva", "João Souza"], "message": [
        "list cardiology slots", "book the first one", "is warfarin safe with ibuprofen?",
        "CHA2DS2-VASc for a 70 year old with hypertension", "tenho dor no peito e falta de ar",
        "quero cancelar minha consulta", "my CPF is 529.982.247-25"],
    "query": ["atrial fibrillation anticoagulation", "eczema"], "medications": ["warfarin", "ibuprofen"],
    "score_name": ["HEART", "CHA2DS2-VASc", "CURB-65", "qSOFA", "Wells PE"],
    "idempotency_key": ["k-1", "k-2"], "session_id": [""], "slot_id": [""],
}
INTS = [0, 1, -1, 2, 7, 100, 2**31 - 1, -(2**31), 2**63 - 1, -(2**63)]
FLOATS = [0.0, -1.0, 1e-9, 37.5, 1e308, float("inf"), float("-inf"), float("nan")]


def scalar(rng: random.Random, field: FieldDescriptor) -> object:
    kind = field.type
    if kind == FieldDescriptor.TYPE_STRING:
        if "token" in field.name and rng.random() < 0.5:
            return rng.choice(TOKENS)
        plausible = [v for key, values in PLAUSIBLE.items() if key in field.name for v in values]
        return rng.choice(plausible) if plausible and rng.random() < 0.8 else rng.choice(STRINGS)
    if kind == FieldDescriptor.TYPE_BYTES:
        return rng.randbytes(rng.choice([0, 1, 16, 300]))
    if kind == FieldDescriptor.TYPE_BOOL:
        return rng.random() < 0.5
    if kind in (FieldDescriptor.TYPE_DOUBLE, FieldDescriptor.TYPE_FLOAT):
        value = rng.choice(FLOATS)
        return value if kind == FieldDescriptor.TYPE_DOUBLE or abs(value) < 1e38 or value != value else 0.0
    if kind == FieldDescriptor.TYPE_ENUM:
        known = [v.number for v in field.enum_type.values]
        return rng.choice([*known, 99, -5])  # open enums carry unknown numbers
    bits = 32 if field.cpp_type in (FieldDescriptor.CPPTYPE_INT32, FieldDescriptor.CPPTYPE_UINT32) else 64
    unsigned = field.cpp_type in (FieldDescriptor.CPPTYPE_UINT32, FieldDescriptor.CPPTYPE_UINT64)
    low, high = (0, 2**bits - 1) if unsigned else (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1)
    return min(max(rng.choice(INTS), low), high)


def build(rng: random.Random, descriptor: Descriptor, depth: int = 0) -> Message:
    message = GetMessageClass(descriptor)()
    for field in descriptor.fields:
        if rng.random() < 0.2:
            continue  # left unset
        if field.type == FieldDescriptor.TYPE_MESSAGE:
            if depth > 3 or field.message_type.GetOptions().map_entry:
                continue
            if field.is_repeated:
                for _ in range(rng.choice([0, 1, 3, 40])):
                    getattr(message, field.name).add().CopyFrom(build(rng, field.message_type, depth + 1))
            else:
                getattr(message, field.name).CopyFrom(build(rng, field.message_type, depth + 1))
        elif field.is_repeated:
            getattr(message, field.name).extend(scalar(rng, field) for _ in range(rng.choice([0, 1, 5, 200])))
        else:
            setattr(message, field.name, scalar(rng, field))
    return message


def mutate(rng: random.Random, raw: bytes) -> bytes:
    data = bytearray(raw or b"\x0a\x00")
    for _ in range(rng.randint(1, 4)):
        choice = rng.random()
        position = rng.randrange(len(data))
        if choice < 0.5:
            data[position] ^= 1 << rng.randrange(8)
        elif choice < 0.75:
            del data[position:position + rng.randint(1, 8)]
            data = data or bytearray(b"\x80")
        else:
            data[position:position] = rng.randbytes(rng.randint(1, 8))
    return bytes(data)


def cases(rng: random.Random, descriptor: Descriptor) -> Iterator[bytes]:
    for number in range(CASES):
        raw = build(rng, descriptor).SerializeToString()
        yield mutate(rng, raw) if number % 4 == 3 else raw


@pytest.mark.parametrize("target", sorted(SERVICES))
def test_every_rpc_answers_any_request_with_a_documented_bounded_status(mesh, target):
    svc = mesh.mesh.clinics["clinic_a"] if target == "clinics" else getattr(mesh.mesh, target)
    rng = random.Random(f"{SEED}:{target}")
    failures: list[str] = []
    channels = {who: svc.channel(who) for who in (authz.ORCHESTRATOR, authz.OPERATOR)}
    with channels[authz.ORCHESTRATOR], channels[authz.OPERATOR]:
        for service in SERVICES[target]:
            for method in service.methods:
                path = f"/{service.full_name}/{method.name}"
                for number, raw in enumerate(cases(rng, method.input_type)):
                    err = call_raw(channels[caller_of(path)], path, method.server_streaming, raw)
                    if err is None:
                        continue
                    details = err.details() or ""
                    if err.code() not in DOCUMENTED or len(details) > MAX_DETAILS:
                        failures.append(f"{path} case {number} (seed {SEED}): {err.code().name} "
                                        f"{details[:200]!r}")
    assert not failures, "\n".join(failures[:20])
    log = svc.log_path.read_text(encoding="utf-8")
    assert "Traceback" not in log
