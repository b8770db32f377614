"""`python -m tests.eval.faithfulness_harvest OUT.json [holdout]`: raw material of the faithfulness sets.

Runs conversations in both languages against a fresh mesh with rephrasing off, keeps every
deterministic answer short enough to be offered to a model, and asks the bundled local model
(SmolLM2-135M) to rephrase each with the orchestrator's own prompt. The output holds, per
answer, the evidence its slots and appointments came from and the model's real text; people
then label the texts and add paraphrases and adversarial variants (tests/eval/faithfulness.json;
the held-out set, from other conversations, was written after the checker was tuned on the first).
"""

import asyncio
import json
import sys
import tempfile
from pathlib import Path

from healthmesh.v1 import orchestrator_pb2
from orchestrator.context import RequestContext
from orchestrator.models.local import LocalModel, default_model_path
from orchestrator.models.prompts import rephrase_messages
from tests.conftest import JOAO, MARIA, run_mesh
from verifier.datetimes import find_dates, find_times
from verifier.text import TITLED_DOCTOR, find_all, fold, mask_identifiers, segments

REPHRASE_MAX_CHARS = 400  # the orchestrator's default
CONVERSATIONS = [
    ("en", MARIA, ["hello", "what can you do?", "cardiology slots", "I'll take the earliest one",
                   "my appointments", "move it to the next day at 14:00", "cancel my appointment",
                   "my appointments"]),
    ("pt", JOAO, ["oi", "quais os horários de dermatologia?", "quero o primeiro", "minhas consultas",
                  "cancele minha consulta", "minhas consultas"]),
    ("pt", None, ["quais os horários de neurologia?", "quero marcar com um oftalmologista", "obrigado",
                  "quero marcar uma consulta", "horários de ortopedia amanhã", "quero remarcar"]),
    ("en", None, ["neurology slots please", "I want to see an eye doctor", "book orthopedics",
                  "cancel my appointment", "dermatology slots tomorrow", "what is my diagnosis?"]),
    ("en", MARIA, ["book Dr. Fernando on 2026-11-20 at 10:00", "orthopedics slots next week",
                   "the first one", "move it to Friday at 14:00", "cancel it"]),
    ("pt", MARIA, ["horários de cardiologia na sexta", "quero o segundo", "mude para segunda às 10h",
                   "quero cancelar", "quais os meus agendamentos?"]),
    ("pt", None, ["horários de cardiologia no domingo", "quero ver um pediatra",
                  "qual o meu diagnóstico?", "qual a dose de dipirona?", "me fale sobre o paciente João",
                  "quero cancelar minha consulta"]),
    ("en", None, ["cardiology slots on Sunday", "can I see a psychiatrist?",
                  "how much ibuprofen should I take?", "tell me about patient Maria",
                  "what does my x-ray show?", "thanks"]),
    ("en", JOAO, ["dermatology slots with Dr. Camila on Saturday", "my appointments",
                  "cancel my appointment", "book orthopedics on Sunday at 10:00"]),
    ("pt", JOAO, ["quero marcar ortopedia no sábado às 9h", "minhas consultas", "remarque para amanhã"]),
]
HOLDOUT = [
    ("en", JOAO, ["hi there", "orthopedics slots", "I'll take the earliest one", "show my appointments",
                  "reschedule it to the day after at 11:00", "cancel that appointment",
                  "show my appointments"]),
    ("pt", MARIA, ["bom dia", "horários de ortopedia", "quero o primeiro horário",
                   "ver minhas consultas", "desmarque a consulta", "ver minhas consultas"]),
    ("pt", None, ["tem urologista?", "quero uma consulta de neurologia",
                  "qual remédio devo tomar para dor?", "o que mostra meu exame de sangue?",
                  "dermatologia no domingo", "quero desmarcar"]),
    ("en", None, ["do you have a pediatrician?", "I need a gynecologist", "what dose of aspirin?",
                  "read my ECG", "orthopedics on Saturday", "reschedule my appointment", "thank you"]),
    ("en", MARIA, ["book Dr. Paulo on Sunday at 09:00", "dermatology slots", "the second one",
                   "move it to Saturday at 10:00", "cancel it"]),
]


def evidence_of(answer: str) -> list[dict]:
    """The slots and appointments a deterministic answer states (each date/time pair of a line with
    the doctor that line names): the answer is faithful by construction, so its pairs are evidence."""
    items = []
    text = mask_identifiers(answer)
    for start, end in segments(text):
        part = text[start:end]
        folded = fold(part)
        dates = find_dates(folded, set())
        doctors = [m[0] for m in find_all(TITLED_DOCTOR, part)]
        for t in find_times(folded, part):
            before = [d for d in dates if d.start < t.start] or dates
            if before:
                items.append(
                    {"date": before[-1].iso, "time": t.hhmm, "doctor": doctors[0] if doctors else ""}
                )
    return items


async def rephrase(model: LocalModel, text: str, lang: str) -> str:
    try:
        completion = await model.chat(
            RequestContext.with_timeout(20.0),
            rephrase_messages(text, lang),
            max_tokens=min(400, len(text) // 3 + 48),
        )
    except Exception as err:  # a timed-out rephrasing is simply not in the set
        return f"<{type(err).__name__}>"
    return completion.text


def main(out: Path, conversations: list) -> None:
    answers = []
    with tempfile.TemporaryDirectory(prefix="healthmesh-harvest-") as tmp:
        mesh = run_mesh(Path(tmp))
        try:
            for lang, patient, turns in conversations:
                session = ""
                for message in turns:
                    r = mesh.ask(message, session_id=session, patient=patient)
                    session = r.session_id
                    if len(r.answer) <= REPHRASE_MAX_CHARS and r.disposition not in (
                        orchestrator_pb2.DISPOSITION_EMERGENCY,
                        orchestrator_pb2.DISPOSITION_BLOCKED,
                    ):
                        answers.append(
                            {
                                "lang": r.language or lang,
                                "message": message,
                                "reference": r.answer,
                                "patient": patient.full_name if patient else "",
                                "evidence": evidence_of(r.answer),
                            }
                        )
        finally:
            mesh.close()
    model = LocalModel(default_model_path(), threads=2)
    unique = list({a["reference"]: a for a in answers}.values())
    for a in unique:
        a["model_output"] = asyncio.run(rephrase(model, a["reference"], a["lang"]))
    model.close()
    out.write_text(json.dumps(unique, ensure_ascii=False, indent=1), encoding="utf-8")
    print(f"{len(unique)} answers written to {out}")


if __name__ == "__main__":
    main(Path(sys.argv[1]), HOLDOUT if sys.argv[2:] == ["holdout"] else CONVERSATIONS)
