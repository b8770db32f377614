"""Every sentence the orchestrator says, in Portuguese and English. Deterministic answers are
assembled from these; no raw upstream error ever reaches a user."""

import datetime as dt

SPECIALTY_NAME = {
    "en": {"cardiology": "cardiology", "dermatology": "dermatology", "orthopedics": "orthopedics"},
    "pt": {"cardiology": "cardiologia", "dermatology": "dermatologia", "orthopedics": "ortopedia"},
}
_WEEKDAY = {"en": ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"),
            "pt": ("seg", "ter", "qua", "qui", "sex", "sáb", "dom")}

TEXT: dict[str, dict[str, str]] = {
    "en": {
        "list_header": "Open slots in {specialty} ({scope}):",
        "scope_first": "first {n} per clinic",
        "scope_day": "on {day}",
        "scope_range": "from {start} to {end}",
        "scope_doctor": "with {doctor}",
        "clinic_header": "{clinic} ({clinic_id}):",
        "clinic_full": "{clinic} ({clinic_id}): every slot in this period is taken.",
        "earliest_mark": " ← earliest",
        "earliest": "Earliest: {when} with {doctor} at {clinic}.",
        "how_to_book": 'To book, say for example "the earliest one", or a doctor, day and time.',
        "none_open": "No open slots in {specialty} {period}.",
        "period_day": "for {day}",
        "period_range": "from {start} to {end}",
        "period_default": "in the next four weeks",
        "unreachable": "{clinic} ({clinic_id}) could not be reached right now; its information is not shown.",
        "booked": "Booked: {when} with {doctor} at {clinic} ({address}). Appointment {appointment_id} for {patient}.",
        "moved": "Moved: your appointment with {doctor} at {clinic} from {old} to {new}. Appointment {appointment_id}.",
        "cancelled": "Cancelled: {when} with {doctor} at {clinic}. Appointment {appointment_id}. The slot is open again.",
        "slot_taken": "That slot with {doctor} was just taken by someone else; ask for open slots to pick another.",
        "slot_missing": "{doctor} has no open slot at the day and time you asked; ask for open slots to see what is free.",
        "not_yours": "That appointment is not registered under your name and CPF, so I cannot change it.",
        "not_changeable": "That appointment can no longer be changed (it is past, cancelled or moved).",
        "appointment_missing": "I could not find that appointment at {clinic}.",
        "write_failed": "{clinic} could not complete the request right now; nothing was changed. Please try again.",
        "my_header": "Your upcoming appointments:",
        "my_line": "- {when} — {doctor}, {clinic} ({appointment_id})",
        "my_none": "You have no upcoming appointments.",
        "ask_identity": "To book, reschedule or cancel I need your full name and CPF.",
        "ask_specialty": "Which specialty? cardiology, dermatology or orthopedics.",
        "ask_slot": 'Which slot would you like? Say "the earliest one", or a doctor, day and time.',
        "ask_new_time": "To which day and time should I move your appointment?",
        "ask_which_appointment": "You have several upcoming appointments; which one? Name the doctor, day and time.",
        "ask_doctor": "Several doctors match {name}: {options}. Which one?",
        "no_appointment": "I found no upcoming appointment of yours to change.",
        "choice_missing": "I don't have that option in the slots I showed; ask for open slots first.",
        "greeting": "Hello! I can list open slots and book, reschedule or cancel appointments in cardiology, "
                    "dermatology and orthopedics. How can I help?",
        "help": "I can list open slots and book, reschedule or cancel appointments in cardiology, dermatology "
                "and orthopedics. What would you like to do?",
        "oos_diagnosis": "I can't diagnose or tell what condition someone has. A doctor can: I can list open "
                         "slots in cardiology, dermatology or orthopedics and book one for you.",
        "oos_dosage": "I can't advise on medicines or doses; please ask your doctor or pharmacist. I can book "
                      "an appointment for you.",
        "oos_other_patient": "I can't share information about other patients.",
        "oos_lab_or_image": "I can't interpret exams or images; a doctor will review them with you at an "
                            "appointment, which I can book.",
        "oos_unsupported_specialty": "{word} is not offered here. Available specialties: cardiology, "
                                     "dermatology and orthopedics.",
        "oos_other": "I can only help with appointments in cardiology, dermatology and orthopedics.",
        "oos_general_question": "I can't give a safe answer to that health question right now; a doctor can. "
                                "I can list open slots and book appointments in cardiology, dermatology and "
                                "orthopedics.",
        "disclaimer": "This is general information, not medical advice; a doctor can assess your case.",
        "blocked": "I can't send that answer: it did not pass the safety check. Please rephrase or try again.",
        "unverified": "I can't answer right now: the safety check is unavailable. If this is an emergency, "
                      "call your local emergency number (in Brazil, SAMU 192).",
    },
    "pt": {
        "list_header": "Horários disponíveis em {specialty} ({scope}):",
        "scope_first": "os {n} primeiros de cada clínica",
        "scope_day": "em {day}",
        "scope_range": "de {start} a {end}",
        "scope_doctor": "com {doctor}",
        "clinic_header": "{clinic} ({clinic_id}):",
        "clinic_full": "{clinic} ({clinic_id}): todos os horários deste período estão ocupados.",
        "earliest_mark": " ← mais cedo",
        "earliest": "Mais cedo: {when} com {doctor}, {clinic}.",
        "how_to_book": 'Para agendar, diga por exemplo "quero o mais cedo", ou o médico, o dia e a hora.',
        "none_open": "Não há horários disponíveis em {specialty} {period}.",
        "period_day": "para {day}",
        "period_range": "de {start} a {end}",
        "period_default": "nas próximas quatro semanas",
        "unreachable": "{clinic} ({clinic_id}) não respondeu agora; suas informações não aparecem.",
        "booked": "Agendado: {when} com {doctor}, {clinic} ({address}). Consulta {appointment_id} para {patient}.",
        "moved": "Remarcado: sua consulta com {doctor}, {clinic}, de {old} para {new}. Consulta {appointment_id}.",
        "cancelled": "Cancelado: {when} com {doctor}, {clinic}. Consulta {appointment_id}. O horário foi liberado.",
        "slot_taken": "Esse horário com {doctor} acabou de ser ocupado; peça os horários disponíveis para escolher outro.",
        "slot_missing": "{doctor} não tem horário livre no dia e hora pedidos; peça os horários disponíveis.",
        "not_yours": "Essa consulta não está registrada com o seu nome e CPF, então não posso alterá-la.",
        "not_changeable": "Essa consulta não pode mais ser alterada (já passou, foi cancelada ou remarcada).",
        "appointment_missing": "Não encontrei essa consulta em {clinic}.",
        "write_failed": "{clinic} não conseguiu concluir o pedido agora; nada foi alterado. Tente de novo.",
        "my_header": "Suas próximas consultas:",
        "my_line": "- {when} — {doctor}, {clinic} ({appointment_id})",
        "my_none": "Você não tem consultas marcadas.",
        "ask_identity": "Para agendar, remarcar ou cancelar preciso do seu nome completo e CPF.",
        "ask_specialty": "Qual especialidade? cardiologia, dermatologia ou ortopedia.",
        "ask_slot": 'Qual horário você quer? Diga "quero o mais cedo", ou o médico, o dia e a hora.',
        "ask_new_time": "Para qual dia e horário devo remarcar sua consulta?",
        "ask_which_appointment": "Você tem várias consultas marcadas; qual delas? Diga o médico, o dia e a hora.",
        "ask_doctor": "Vários médicos correspondem a {name}: {options}. Qual deles?",
        "no_appointment": "Não encontrei nenhuma consulta sua para alterar.",
        "choice_missing": "Não tenho essa opção nos horários que mostrei; peça os horários disponíveis antes.",
        "greeting": "Olá! Posso listar horários e agendar, remarcar ou cancelar consultas de cardiologia, "
                    "dermatologia e ortopedia. Como posso ajudar?",
        "help": "Posso listar horários e agendar, remarcar ou cancelar consultas de cardiologia, dermatologia "
                "e ortopedia. O que você gostaria de fazer?",
        "oos_diagnosis": "Não posso fazer diagnósticos nem dizer qual condição alguém tem. Um médico pode: "
                         "posso listar horários de cardiologia, dermatologia ou ortopedia e agendar para você.",
        "oos_dosage": "Não posso orientar sobre remédios ou doses; pergunte ao seu médico ou farmacêutico. "
                      "Posso agendar uma consulta para você.",
        "oos_other_patient": "Não posso compartilhar informações de outros pacientes.",
        "oos_lab_or_image": "Não posso interpretar exames ou imagens; um médico vai avaliá-los com você em uma "
                            "consulta, que posso agendar.",
        "oos_unsupported_specialty": "{word} não é oferecida aqui. Especialidades disponíveis: cardiologia, "
                                     "dermatologia e ortopedia.",
        "oos_other": "Só posso ajudar com consultas de cardiologia, dermatologia e ortopedia.",
        "oos_general_question": "Não consigo dar uma resposta segura a essa pergunta de saúde agora; um médico "
                                "pode. Posso listar horários e agendar consultas de cardiologia, dermatologia e "
                                "ortopedia.",
        "disclaimer": "Esta é uma informação geral, não um conselho médico; um médico pode avaliar o seu caso.",
        "blocked": "Não posso enviar essa resposta: ela não passou na verificação de segurança. Tente "
                   "reformular.",
        "unverified": "Não posso responder agora: a verificação de segurança está indisponível. Se for uma "
                      "emergência, ligue para o SAMU 192.",
    },
}


def say(language: str, key: str, **values: object) -> str:
    return TEXT[language][key].format(**values)


def day(date_iso: str, language: str) -> str:
    """Mon 2026-11-23 (en) / seg 23/11/2026 (pt)."""
    d = dt.date.fromisoformat(date_iso)
    weekday = _WEEKDAY[language][d.weekday()]
    return f"{weekday} {d.isoformat()}" if language == "en" else f"{weekday} {d:%d/%m/%Y}"


def when(date_iso: str, time: str, language: str) -> str:
    return f"{day(date_iso, language)} {time}"
