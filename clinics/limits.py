"""How long each string of a ClinicService request may be. Checked before anything else runs, so
an oversized value is never parsed, looked up, stored or echoed back in an error."""

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from runtime.errors import InvalidArgument

# Doctor queries and patient names; runtime.identity also caps a collapsed name at 200.
MAX_NAME_CHARS = 200
# Appointment and patient ids, idempotency keys (the orchestrator's keys are 32 hex digits).
MAX_ID_CHARS = 128
# SearchPatients text, matched against ids and conditions.
MAX_QUERY_CHARS = 200
MAX_DATE_CHARS = len("YYYY-MM-DD")
MAX_TIME_CHARS = len("HH:MM")
# "123.456.789-09" is 14; the rest leaves room for spaces around the punctuation.
MAX_CPF_CHARS = 20
# Our own tokens are about 130 (base64 of date, time, doctor name and slot id).
MAX_PAGE_TOKEN_CHARS = 512
# The serialized HandoffPacket: its strings are bounded by this total instead of one by one.
MAX_HANDOFF_BYTES = 32 * 1024

# Every string of every request, by its path from the request (as InvalidArgument names it).
FIELD_LIMITS: dict[str, int] = {
    "patient_id": MAX_ID_CHARS,
    "appointment_id": MAX_ID_CHARS,
    "idempotency_key": MAX_ID_CHARS,
    "query": MAX_QUERY_CHARS,
    "doctor": MAX_NAME_CHARS,
    "new_doctor": MAX_NAME_CHARS,
    "date": MAX_DATE_CHARS,
    "from_date": MAX_DATE_CHARS,
    "to_date": MAX_DATE_CHARS,
    "new_date": MAX_DATE_CHARS,
    "time": MAX_TIME_CHARS,
    "new_time": MAX_TIME_CHARS,
    "page_token": MAX_PAGE_TOKEN_CHARS,
    "patient.full_name": MAX_NAME_CHARS,
    "patient.cpf": MAX_CPF_CHARS,
}
# Message fields bounded as a whole elsewhere (ClinicService._handoff checks MAX_HANDOFF_BYTES).
BOUNDED_AS_A_WHOLE = frozenset({"handoff"})


def check_lengths(request: Message, prefix: str = "") -> None:
    """Raises InvalidArgument naming the first string of `request` over its limit; the message
    gives the lengths, never the value."""
    for field, value in request.ListFields():  # set fields only: empty strings cost nothing
        path = prefix + field.name
        if path in BOUNDED_AS_A_WHOLE:
            continue
        if field.message_type is not None:
            check_lengths(value, path + ".")
            continue
        if field.type != FieldDescriptor.TYPE_STRING:
            continue
        limit = FIELD_LIMITS[path]  # a string without a limit is a bug (tests/test_clinic_limits.py)
        if len(value) > limit:
            raise InvalidArgument(path, f"is {len(value)} characters long; at most {limit} are accepted")
