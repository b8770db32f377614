"""The terminal chat shows each slot once, compactly, and never a raw gRPC status."""

import grpc
from rich.console import Console

from clients.chat import ChatClient, plain_error
from healthmesh.v1 import common_pb2, orchestrator_pb2


class _Refused(grpc.RpcError):
    def __init__(self, code: grpc.StatusCode, details: str) -> None:
        self._code, self._details = code, details

    def code(self) -> grpc.StatusCode:
        return self._code

    def details(self) -> str:
        return self._details


def test_slots_are_shown_once_in_a_row_per_doctor_and_day() -> None:
    slots = [common_pb2.Slot(clinic_id="clinic_b", doctor="Dra. Camila Ferreira", date="2026-11-30", time=t)
             for t in ("09:00", "10:00", "14:00")]
    answer = "\n".join(["Open slots in dermatology (first 3 per clinic):", "Clínica Pele (clinic_b):",
                        "- Mon 2026-11-30 — Dra. Camila Ferreira: 09:00 ← earliest, 10:00, 14:00",
                        "Earliest: Mon 2026-11-30 09:00 with Dra. Camila Ferreira at Clínica Pele."])
    console = Console(record=True, width=100)
    client = ChatClient.__new__(ChatClient)
    client.console = console
    client.show(orchestrator_pb2.AskResponse(answer=answer, slots=slots))
    shown = console.export_text()
    assert "— Dra. Camila" not in shown  # no line per slot
    assert shown.count("09:00 10:00 14:00") == 1
    assert "Earliest: Mon 2026-11-30 09:00" in shown


def test_a_refused_request_is_a_plain_sentence() -> None:
    err = _Refused(grpc.StatusCode.INVALID_ARGUMENT, "message: must be at most 2000 characters")
    text = plain_error(err)
    assert "INVALID_ARGUMENT" not in text and "must be at most" not in text
    assert "2000" in text
