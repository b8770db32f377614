"""The symptom consult: history questions, the specialist council, the recommendation and the
SOAP handoff packet that travels with the booking.

The red-flag screen has already run on every consult message (the turn does it first). Then:
history questions for the fields still missing, at most two rounds; then the council (one
agent per specialty offered plus general practice, in parallel) and its consensus judge; the
answer recommends a specialty and how soon, "consistent with", never a diagnosis, and offers
the slots of that specialty's clinics. A booking made while the recommendation stands carries
the handoff packet, which the clinic stores in the booking's own transaction.
"""

import re
from dataclasses import asdict

from healthmesh.v1 import clinic_pb2, common_pb2, orchestrator_pb2
from orchestrator import council
from orchestrator.history import History, extract
from orchestrator.language import fold
from orchestrator.phrases import SPECIALTY_NAME, say, when
from orchestrator.sessions import ConsultState, Session, SlotRef
from orchestrator.understand import Intent, Understanding

MAX_ROUNDS = 2
ADULT_AGE = 18
STAGE = {"history": orchestrator_pb2.CONSULT_STAGE_HISTORY,
         "recommended": orchestrator_pb2.CONSULT_STAGE_RECOMMENDED,
         "booked": orchestrator_pb2.CONSULT_STAGE_BOOKED}

# A symptom in the first person: "I've had a rash", "my knee hurts", "estou com dor", "sinto palpitações".
_SYMPTOM = re.compile(
    r"(?<!\w)(?:pain|painful|hurts?|hurting|ache|aching|sore|rash|itch\w*|spots?|mole|lump|swell\w*"
    r"|swollen|palpitations?|racing heart|heart (?:racing|pounding)|short of breath|breathless\w*|dizz\w*"
    r"|fatigue|tired"
    r"|fever|cough\w*|acne|pimples?|hair loss|sprain\w*|twisted|stiff\w*|numb\w*|tingling|bruis\w*|blisters?"
    r"|dor|doi|doendo|dores|coceira|cocando|mancha\w*|pinta\w*|caroco|incha\w*|palpitac\w*|falta de ar"
    r"|cansaco|cansad[oa]|tontura|tont[oa]|febre|tosse|espinhas?|queda de cabelo|torci|torcao|rigidez"
    r"|formigamento|dormencia|manchas?|feridas?|bolhas?|vermelh\w+|descama\w*|ardencia|queimacao)(?!\w)")
_FIRST_PERSON = re.compile(
    r"(?<!\w)(?:i|i'm|i've|im|ive|my|me|estou|to|tou|tenho|sinto|sentindo|meu|minha|meus|minhas|eu|comecei"
    r"|started|been having|have had|have been)(?!\w)")
_CONSULT_INTENTS = (Intent.UNKNOWN, Intent.GENERAL_QUESTION, Intent.GREETING)
# Turns that leave the consult's questions for something else.
_OTHER_TASKS = (Intent.BOOK, Intent.RESCHEDULE, Intent.CANCEL, Intent.MY_APPOINTMENTS)


def opens_consult(message: str, u: Understanding) -> bool:
    """A first-person symptom with no other task asked ("I've had a rash on my arm for two weeks")."""
    folded = fold(message)
    return (u.intent in _CONSULT_INTENTS and not u.specialty and bool(_SYMPTOM.search(folded))
            and bool(_FIRST_PERSON.search(folded)))


def answers_questions(session: Session, u: Understanding) -> bool:
    """While history questions are open, a reply is taken as the answer unless it asks another task."""
    c = session.consult
    return (c is not None and c.stage == "history" and u.intent not in _OTHER_TASKS
            and not (u.intent == Intent.LIST and u.specialty))


def wants_slots(session: Session, u: Understanding) -> bool:
    """A "yes" (or "list the slots") right after the recommendation."""
    c = session.consult
    return (c is not None and c.stage == "recommended" and session.pending == "consult_slots"
            and c.specialty in council.SPECIALTIES
            and (u.confirmation is True or (u.intent == Intent.LIST and not u.specialty)))


def history_of(state: ConsultState) -> History:
    facts = extract(state.texts[0])
    for text in state.texts[1:]:
        facts = facts.merged(extract(text))
    return facts


def questions(state: ConsultState, lang: str) -> str | None:
    """The next round of questions, or None when the council can run."""
    facts = history_of(state)
    missing = [f"q_{f}" for f in facts.missing()] + ["q_age"] * (facts.age is None)
    if not missing or state.rounds >= MAX_ROUNDS:
        return None
    state.rounds += 1
    intro = "consult_intro" if state.rounds == 1 else "consult_more"
    return "\n".join([say(lang, intro), *(f"- {say(lang, key)}" for key in missing)])


async def assess(state: ConsultState, offered: list[str]) -> None:
    """Runs the council and records its consensus and the policy flags on the state."""
    facts = history_of(state)
    case = council.Case(text="\n".join(state.texts), history=facts)
    proposals = await council.convene(council.default_agents(offered), case)
    verdict = council.judge(proposals)
    state.stage = "recommended"
    state.specialty, state.urgency = verdict.specialty, verdict.urgency
    state.confidence, state.low_confidence = verdict.confidence, verdict.low_confidence
    state.proposals = [asdict(p) for p in verdict.proposals]
    state.flags = (["pregnancy"] * facts.pregnant
                   + ["minor_needs_guardian"] * (facts.age is not None and facts.age < ADULT_AGE))


def recommendation(state: ConsultState, lang: str) -> tuple[str, bool]:
    """The recommendation text, and whether it offers slots."""
    names = SPECIALTY_NAME[lang]
    lines = [say(lang, "consult_result", specialty=names[state.specialty],
                 how_soon=say(lang, f"urgency_{state.urgency}"))]
    if state.low_confidence:
        lines.append(say(lang, "consult_low_confidence"))
    votes = ", ".join(f"{names[p['agent']]} → {names[p['specialty']]} ({p['confidence']:.2f})"
                      for p in state.proposals)
    if votes:
        lines.append(say(lang, "consult_votes", votes=votes))
    lines += [say(lang, f"flag_{'minor' if f.startswith('minor') else f}") for f in state.flags]
    offer = state.urgency < 4 and state.specialty in council.SPECIALTIES
    if offer:
        lines.append(say(lang, "consult_offer", specialty=names[state.specialty]))
    elif state.urgency < 4:
        lines.append(say(lang, "consult_gp"))
    return "\n".join(lines), offer


def handoff_packet(state: ConsultState, slot: SlotRef, clinic: str, lang: str) -> clinic_pb2.HandoffPacket:
    facts = history_of(state)
    subjective = [f"Chief complaint: {state.texts[0]}", *facts.lines("en")]
    if facts.age is not None:
        subjective.append(f"Age: {facts.age}")
    return clinic_pb2.HandoffPacket(
        subjective=subjective,
        objective=state.objective,
        assessment_specialty=state.specialty,
        assessment_urgency=state.urgency,
        assessment_confidence=state.confidence,
        proposals=[common_pb2.SpecialtyProposal(**p) for p in state.proposals],
        plan=f"Appointment with {slot.doctor} on {when(slot.date, slot.time, 'en')} at {clinic}",
        flags=state.flags,
        language=lang,
    )


def summary(state: ConsultState | None) -> orchestrator_pb2.Consult | None:
    if state is None:
        return None
    return orchestrator_pb2.Consult(
        stage=STAGE[state.stage], specialty=state.specialty, urgency=state.urgency,
        confidence=state.confidence, low_confidence=state.low_confidence,
        proposals=[common_pb2.SpecialtyProposal(**p) for p in state.proposals], flags=state.flags)
