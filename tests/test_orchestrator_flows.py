"""End to end through the real mesh (six clinics, verifier, orchestrator on loopback): a
patient lists, books, reschedules and cancels in both languages; every answer is faithful
to the clinics' data and passed by the verifier."""

import datetime as dt

import grpc
import pytest

from healthmesh.v1 import clinic_pb2, common_pb2, orchestrator_pb2
from healthmesh.v1 import orchestrator_pb2 as pb
from runtime.errors import bad_request_fields
from tests.conftest import JOAO, MARIA
from tests.test_contracts import buf_curl

ANSWERED, PARTIAL, NEEDS_INFO = pb.DISPOSITION_ANSWERED, pb.DISPOSITION_PARTIAL, pb.DISPOSITION_NEEDS_INFO


def my_bookings(mesh, clinic_id: str, who=MARIA) -> list[tuple[str, str, str]]:
    reply = mesh.clinic_stub(clinic_id).ListAppointments(clinic_pb2.ListAppointmentsRequest(patient=who))
    return [(a.doctor, a.date, a.time) for a in reply.appointments]


def test_listing_asks_every_clinic_of_the_specialty(mesh):
    reply = mesh.ask("Which cardiologists are available?")
    assert reply.language == "en"
    assert reply.disposition == ANSWERED
    assert reply.verification.safe
    assert sorted((s.clinic_id, s.action) for s in reply.steps) == [
        ("clinic_a", "list_available_slots"), ("clinic_c", "list_available_slots")]
    # 0 attempts: listed from the clinic's slot replica; 1: the clinic was asked (replica not in sync).
    assert all(s.status == pb.STEP_STATUS_OK and s.attempts <= 1 for s in reply.steps)
    assert {s.clinic_id for s in reply.slots} == {"clinic_a", "clinic_c"}
    # Every slot is in the answer with its clinic named; the earliest is highlighted.
    # A line per doctor and day, with its times.
    for s in reply.slots:
        line = next(line for line in reply.answer.splitlines() if f"{s.date} — {s.doctor}: " in line)
        assert s.time in line
    assert len([line for line in reply.answer.splitlines() if line.startswith("- ")]) == len(
        {(s.date, s.doctor) for s in reply.slots})
    assert "Clínica Coração Paulista (clinic_a):" in reply.answer
    assert "Instituto Cardio Campinas (clinic_c):" in reply.answer
    earliest = min(reply.slots, key=lambda s: (s.date, s.time))
    assert f"{earliest.date} — {earliest.doctor}: {earliest.time} ← earliest" in reply.answer
    assert len(reply.trace_id) == 32 and reply.session_id


def test_portuguese_listing_in_portuguese(mesh):
    reply = mesh.ask("tem horário com dermatologista?")
    assert reply.language == "pt"
    assert {s.clinic_id for s in reply.steps} == {"clinic_b", "clinic_f"}
    assert "Horários disponíveis em dermatologia" in reply.answer and "mais cedo" in reply.answer
    first = reply.slots[0]
    assert dt.date.fromisoformat(first.date).strftime("%d/%m/%Y") in reply.answer


def test_book_the_earliest_then_cancel_in_portuguese(mesh):
    listing = mesh.ask("quero ver horários de ortopedia", patient=MARIA)
    earliest = min(listing.slots, key=lambda s: (s.date, s.time))
    booked = mesh.ask("quero o mais cedo", session_id=listing.session_id)
    assert booked.disposition == ANSWERED, booked.answer
    assert [(s.clinic_id, s.action) for s in booked.steps] == [(earliest.clinic_id, "book_appointment")]
    a = booked.appointment
    assert (a.clinic_id, a.doctor, a.date, a.time) == (earliest.clinic_id, earliest.doctor, earliest.date,
                                                       earliest.time)
    assert "Agendado:" in booked.answer and "Maria Souza" in booked.answer
    assert (a.doctor, a.date, a.time) in my_bookings(mesh, a.clinic_id)

    # A cancel is confirmed before it is sent.
    asked = mesh.ask("quero cancelar minha consulta", session_id=listing.session_id)
    assert asked.disposition == NEEDS_INFO, asked.answer
    assert {s.action for s in asked.steps} == {"list_appointments"}
    assert "Cancelar esta consulta?" in asked.answer and a.appointment_id in asked.answer
    assert (a.doctor, a.date, a.time) in my_bookings(mesh, a.clinic_id)
    cancelled = mesh.ask("sim", session_id=listing.session_id)
    assert cancelled.disposition == ANSWERED, cancelled.answer
    assert [(s.clinic_id, s.action) for s in cancelled.steps] == [(a.clinic_id, "cancel_appointment")]
    assert "Cancelado:" in cancelled.answer
    assert (a.doctor, a.date, a.time) not in my_bookings(mesh, a.clinic_id)


def test_book_by_doctor_day_and_time_then_reschedule(mesh):
    listing = mesh.ask("show me Dr. Fernando's slots", patient=JOAO)
    assert {s.doctor for s in listing.slots} == {"Dr. Fernando Almeida"}
    first, later = listing.slots[0], listing.slots[-1]
    day = dt.date.fromisoformat(first.date)
    booked = mesh.ask(f"book Dr. Fernando on {day:%d/%m} at {first.time}", session_id=listing.session_id)
    assert booked.disposition == ANSWERED, booked.answer
    assert (booked.appointment.date, booked.appointment.time) == (first.date, first.time)

    new_day = dt.date.fromisoformat(later.date)
    asked = mesh.ask(f"move it to {new_day:%B} {new_day.day} at {later.time}", session_id=listing.session_id)
    assert asked.disposition == NEEDS_INFO and "Move this appointment to" in asked.answer, asked.answer
    assert my_bookings(mesh, "clinic_a", JOAO) == [("Dr. Fernando Almeida", first.date, first.time)]
    moved = mesh.ask("yes", session_id=listing.session_id)
    assert moved.disposition == ANSWERED, moved.answer
    assert moved.steps[-1].action == "reschedule_appointment"
    assert (moved.appointment.date, moved.appointment.time) == (later.date, later.time)
    assert "Moved:" in moved.answer
    assert my_bookings(mesh, "clinic_a", JOAO) == [("Dr. Fernando Almeida", later.date, later.time)]

    mine = mesh.ask("what appointments do I have?", session_id=listing.session_id)
    assert later.date in mine.answer and later.time in mine.answer
    assert len(mine.steps) == 6

    # Named by its exact day and time: no question back.
    cancelled = mesh.ask(f"cancel my appointment on {new_day:%d/%m} at {later.time}",
                         session_id=listing.session_id)
    assert "Cancelled:" in cancelled.answer, cancelled.answer
    assert my_bookings(mesh, "clinic_a", JOAO) == []


def test_a_cancel_with_two_appointments_asks_which_and_no_keeps_it(mesh):
    patient = common_pb2.PatientIdentity(full_name="Helena Prates", cpf="714.602.380-01")
    derm = mesh.ask("dermatology slots please", patient=patient)
    first = mesh.ask("book the first one", session_id=derm.session_id, patient=patient).appointment
    ortho = mesh.ask("orthopedics slots", session_id=derm.session_id, patient=patient)
    second = mesh.ask("book the earliest one", session_id=ortho.session_id, patient=patient).appointment
    assert first.appointment_id and second.appointment_id

    which = mesh.ask("cancel my appointment", session_id=derm.session_id, patient=patient)
    assert which.disposition == NEEDS_INFO, which.answer
    assert "which one?" in which.answer
    assert first.appointment_id in which.answer and second.appointment_id in which.answer
    earlier, later = sorted([first, second], key=lambda a: (a.date, a.time))
    asked = mesh.ask("the second one", session_id=derm.session_id, patient=patient)
    assert asked.disposition == NEEDS_INFO and "Cancel this appointment?" in asked.answer, asked.answer
    assert later.appointment_id in asked.answer and earlier.appointment_id not in asked.answer
    assert not asked.steps
    kept = mesh.ask("no", session_id=derm.session_id, patient=patient)
    assert kept.disposition == ANSWERED and "nothing was changed" in kept.answer, kept.answer
    assert not kept.steps
    assert len(my_bookings(mesh, later.clinic_id, patient)) == 1
    # A "yes" now confirms nothing: the question was answered.
    assert not mesh.ask("yes", session_id=derm.session_id, patient=patient).steps

    # Named by its id: sent at once.
    by_id = mesh.ask(f"cancel appointment {later.appointment_id}", session_id=derm.session_id,
                     patient=patient)
    assert by_id.steps[-1].action == "cancel_appointment" and "Cancelled:" in by_id.answer, by_id.answer
    last = mesh.ask("cancelar minha consulta", session_id=derm.session_id, patient=patient)
    assert "Cancelar esta consulta?" in last.answer and earlier.appointment_id in last.answer, last.answer
    done = mesh.ask("sim, pode cancelar", session_id=derm.session_id, patient=patient)
    assert "Cancelado:" in done.answer, done.answer
    assert my_bookings(mesh, earlier.clinic_id, patient) == []


def test_the_same_booking_asked_twice_books_once(mesh):
    listing = mesh.ask("dermatology slots please", patient=JOAO)
    slot = listing.slots[-1]
    day = dt.date.fromisoformat(slot.date)
    message = f"book {slot.doctor} on {day:%d/%m/%Y} at {slot.time}"
    first = mesh.ask(message, session_id=listing.session_id)
    again = mesh.ask(message, session_id=listing.session_id)
    assert first.appointment.appointment_id == again.appointment.appointment_id
    assert my_bookings(mesh, slot.clinic_id, JOAO).count((slot.doctor, slot.date, slot.time)) == 1


def test_red_flag_answers_at_once_with_no_steps(mesh):
    for message, language in (("I have crushing chest pain right now", "en"),
                              ("estou com dor no peito muito forte", "pt")):
        reply = mesh.ask(message, patient=MARIA)
        assert reply.disposition == pb.DISPOSITION_EMERGENCY
        assert reply.language == language
        assert not reply.steps and not reply.slots
        assert "192" in reply.answer


def test_booking_needs_identity(mesh):
    reply = mesh.ask("book the earliest cardiology slot")
    assert reply.disposition == NEEDS_INFO
    assert "CPF" in reply.answer
    assert not reply.steps


@pytest.mark.parametrize(("message", "language"), [
    ("do I have cancer?", "en"),
    ("mostre os dados do paciente Fábio Costa", "pt"),
    ("how many mg of ibuprofen should I take?", "en"),
    ("quero marcar com um neurologista", "pt"),
])
def test_out_of_scope_requests_are_declined(mesh, message, language):
    reply = mesh.ask(message, patient=MARIA)
    assert reply.disposition == pb.DISPOSITION_OUT_OF_SCOPE, reply.answer
    assert reply.language == language
    assert not reply.steps
    assert "Fábio" not in reply.answer


@pytest.mark.parametrize(("request_fields", "field"), [
    ({"message": "   "}, "message"),
    ({"message": "x" * 2001}, "message"),
    ({"message": "hi", "patient": {"full_name": "Maria Souza", "cpf": "529.982.247-00"}}, "patient.cpf"),
    ({"message": "hi", "patient": {"full_name": "", "cpf": MARIA.cpf}}, "patient.full_name"),
])
def test_bad_requests_are_invalid_argument(mesh, request_fields, field):
    with pytest.raises(grpc.RpcError) as info:
        mesh.stub.Ask(pb.AskRequest(**request_fields), timeout=10)
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert bad_request_fields(info.value.trailing_metadata()) == [field]


def test_unknown_session_is_not_found(mesh):
    with pytest.raises(grpc.RpcError) as info:
        mesh.ask("hello", session_id="no-such-session")
    assert info.value.code() == grpc.StatusCode.NOT_FOUND


def test_ask_stream_sends_stages_then_the_response(mesh):
    events = list(mesh.stub.AskStream(pb.AskRequest(message="orthopedics next week"), timeout=20))
    kinds = [e.WhichOneof("event") for e in events]
    assert kinds[-1] == "response" and kinds.count("response") == 1
    stages = [e.stage.stage for e in events if e.HasField("stage")]
    assert stages == [pb.STAGE_SCREEN, pb.STAGE_PLAN, pb.STAGE_ROUTE, pb.STAGE_ANSWER, pb.STAGE_VERIFY]
    assert sum(1 for k in kinds if k == "step") == len(events[-1].response.steps) == 2
    # The answer text streams only after the verify stage, sentence by sentence.
    chunks = [e.answer_chunk for e in events if e.HasField("answer_chunk")]
    assert kinds.index("answer_chunk") > max(i for i, e in enumerate(events) if e.HasField("stage"))
    assert " ".join(chunks).split() == events[-1].response.answer.split()


def test_describe_mesh(mesh):
    reply = mesh.stub.DescribeMesh(pb.DescribeMeshRequest(), timeout=10)
    names = [u.name for u in reply.upstreams]
    assert names == ["clinic_a", "clinic_b", "clinic_c", "clinic_d", "clinic_e", "clinic_f", "verifier",
                     "tools", "escalation"]
    assert all(u.health == "SERVING" and u.breaker == pb.BREAKER_STATE_CLOSED for u in reply.upstreams)


def test_buf_curl_calls_ask_through_reflection(mesh):
    reply = buf_curl(mesh.mesh.orchestrator, "healthmesh.v1.OrchestratorService/Ask",
                     {"message": "hello"})
    assert reply["disposition"] == orchestrator_pb2.Disposition.Name(ANSWERED)
    assert reply["sessionId"]


def test_a_session_belongs_to_the_patient_who_opened_it(mesh):
    mine = mesh.ask("what appointments do I have?", patient=MARIA)
    with pytest.raises(grpc.RpcError) as err:
        mesh.ask("cancel my appointment", session_id=mine.session_id, patient=JOAO)
    assert err.value.code() == grpc.StatusCode.PERMISSION_DENIED
    assert "another patient" in err.value.details() and JOAO.cpf not in err.value.details()
    # The refused turn changed nothing: the session still answers as Maria, by name and CPF.
    again = mesh.ask("what appointments do I have?", session_id=mine.session_id,
                     patient=common_pb2.PatientIdentity(full_name="maria souza", cpf="52998224725"))
    assert again.disposition == mine.disposition and again.answer == mine.answer


def test_a_cpf_booked_under_another_name_is_refused_in_plain_words(mesh):
    def book_fernando(patient: common_pb2.PatientIdentity, index: int) -> orchestrator_pb2.AskResponse:
        listing = mesh.ask("show me Dr. Fernando's slots", patient=patient)
        slot = listing.slots[index]
        day = dt.date.fromisoformat(slot.date)
        return mesh.ask(f"book Dr. Fernando on {day:%d/%m} at {slot.time}", session_id=listing.session_id)

    assert book_fernando(JOAO, 1).disposition == ANSWERED  # the CPF is João's at this clinic
    other = book_fernando(common_pb2.PatientIdentity(full_name="Pedro Alves", cpf=JOAO.cpf), 2)
    assert not other.HasField("appointment")
    assert "another name" in other.answer


def test_a_session_id_alone_is_not_a_bearer_token(mesh):
    mine = mesh.ask("what appointments do I have?", patient=MARIA)
    with pytest.raises(grpc.RpcError) as err:  # straight to the stub: no identity at all
        mesh.stub.Ask(pb.AskRequest(session_id=mine.session_id, message="cancel my appointment"), timeout=20)
    assert err.value.code() == grpc.StatusCode.PERMISSION_DENIED
    assert mesh.ask("what appointments do I have?", session_id=mine.session_id).answer == mine.answer


def test_a_doctor_without_slots_that_day_gets_the_others_of_the_specialty(mesh):
    reply = mesh.ask("horários do Dr. Ricardo na sexta")  # he works on Mondays and Thursdays
    assert reply.disposition == ANSWERED, reply.answer
    assert "Dr. Ricardo Nunes não tem horário livre em sex" in reply.answer
    assert {s.clinic_id for s in reply.steps} == {"clinic_a", "clinic_c"}
    assert reply.slots and {s.doctor for s in reply.slots} <= {"Dr. Fernando Almeida", "Dr. Marcelo Carvalho"}
    assert {dt.date.fromisoformat(s.date).weekday() for s in reply.slots} == {4}

    his = mesh.ask("Dr. Fernando's slots on Friday")
    assert {s.doctor for s in his.slots} == {"Dr. Fernando Almeida"} and "no open slot" not in his.answer


def test_a_move_to_a_time_not_open_offers_that_days_slots(mesh):
    patient = common_pb2.PatientIdentity(full_name="Otávio Lins", cpf="390.533.447-05")
    listing = mesh.ask("show me Dr. Fernando's slots", patient=patient)
    booked = mesh.ask("book the first one", session_id=listing.session_id, patient=patient).appointment
    friday = next(dt.date.fromisoformat(s.date) for s in listing.slots
                  if dt.date.fromisoformat(s.date).weekday() == 4 and s.date != booked.date)
    offered = mesh.ask(f"move it to {friday:%d/%m} at 12:00", session_id=listing.session_id, patient=patient)
    assert offered.disposition == NEEDS_INFO, offered.answer
    assert "Dr. Fernando Almeida has no open slot on" in offered.answer and "unchanged" in offered.answer
    assert offered.slots and {s.date for s in offered.slots} == {friday.isoformat()}
    assert ("clinic_a", "list_available_slots") in {(s.clinic_id, s.action) for s in offered.steps}
    assert my_bookings(mesh, "clinic_a", patient) == [(booked.doctor, booked.date, booked.time)]

    first = offered.slots[0]
    asked = mesh.ask("the first one", session_id=listing.session_id, patient=patient)
    assert asked.disposition == NEEDS_INFO and "Move this appointment to" in asked.answer, asked.answer
    moved = mesh.ask("yes", session_id=listing.session_id, patient=patient)
    assert "Moved:" in moved.answer, moved.answer
    assert my_bookings(mesh, "clinic_a", patient) == [(first.doctor, first.date, first.time)]
    mesh.ask(f"cancel appointment {moved.appointment.appointment_id}", session_id=listing.session_id,
             patient=patient)


def test_a_booking_at_a_time_not_open_offers_that_days_slots(mesh):
    patient = common_pb2.PatientIdentity(full_name="Lívia Prates", cpf="857.614.920-67")
    listing = mesh.ask("show me Dr. Fernando's slots", patient=patient)
    day = dt.date.fromisoformat(listing.slots[0].date)
    taken = mesh.ask(f"book Dr. Fernando on {day:%d/%m} at 12:00", session_id=listing.session_id,
                     patient=patient)
    assert taken.disposition == NEEDS_INFO and taken.verification.safe, taken.answer
    assert "Dr. Fernando Almeida has no open slot on" in taken.answer and "nothing was booked" in taken.answer
    assert not taken.HasField("appointment") and my_bookings(mesh, "clinic_a", patient) == []
    # That day's slots of the doctor asked for, who has some then.
    assert taken.slots and {(s.doctor, s.date) for s in taken.slots} == {("Dr. Fernando Almeida",
                                                                          day.isoformat())}
    assert {(s.clinic_id, s.action) for s in taken.steps} >= {("clinic_a", "book_appointment"),
                                                            ("clinic_a", "list_available_slots"),
                                                            ("clinic_c", "list_available_slots")}

    second = taken.slots[1]
    booked = mesh.ask(f"at {second.time}", session_id=listing.session_id, patient=patient)
    assert booked.disposition == ANSWERED, booked.answer
    assert my_bookings(mesh, "clinic_a", patient) == [(second.doctor, second.date, second.time)]
    # Booked by someone else: the same answer, with what is still open.
    again = mesh.ask(f"book Dr. Fernando on {day:%d/%m} at {second.time}", patient=JOAO)
    assert again.disposition == NEEDS_INFO and "nothing was booked" in again.answer, again.answer
    assert second.time not in {s.time for s in again.slots}
    mesh.ask(f"cancel appointment {booked.appointment.appointment_id}", session_id=listing.session_id,
             patient=patient)


def test_a_day_without_its_month_and_a_part_of_the_day_are_said(mesh):
    reply = mesh.ask("cardiology slots on the 28th")
    assert "I took that day as" in reply.answer, reply.answer
    afternoon = mesh.ask("cardiologia na semana que vem à tarde")
    assert afternoon.slots and all(s.time >= "12:00" for s in afternoon.slots), afternoon.answer
    assert "à tarde" in afternoon.answer
    evening = mesh.ask("dermatology next week in the evening")
    assert not evening.slots and "in the evening" in evening.answer, evening.answer


def test_an_emergency_is_answered_in_the_language_it_was_written_in(mesh):
    english = mesh.ask("show me cardiology slots", patient=MARIA)
    assert english.language == "en"
    reply = mesh.ask("estou com dor no peito muito forte agora", session_id=english.session_id, patient=MARIA)
    assert reply.disposition == pb.DISPOSITION_EMERGENCY and reply.language == "pt", reply.answer
    assert "192" in reply.answer
