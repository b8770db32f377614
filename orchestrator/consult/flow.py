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
from collections.abc import Callable
from dataclasses import asdict

from healthmesh.v1 import clinic_pb2, common_pb2, orchestrator_pb2
from orchestrator.answering.phrases import SPECIALTY_NAME, say, when
from orchestrator.consult import council
from orchestrator.consult.history import History, extract
from orchestrator.context import RequestContext
from orchestrator.sessions import ConsultState, Session, SlotRef
from orchestrator.understanding.understand import (
    Intent,
    OutOfScope,
    Understanding,
    asks_for_slots,
    without_off_topic,
)
from runtime.specialties import SPECIALTIES
from runtime.text.fold import fold_latin

MAX_ROUNDS = 2
ADULT_AGE = 18
STAGE = {"history": orchestrator_pb2.CONSULT_STAGE_HISTORY,
         "recommended": orchestrator_pb2.CONSULT_STAGE_RECOMMENDED,
         "booked": orchestrator_pb2.CONSULT_STAGE_BOOKED}

# A symptom or a worry about one's body: "I've had a rash", "my knee hurts", "estou com dor",
# "minha pressão tá 15 por 9", "apareceu uma falha no cabelo".
_SYMPTOM = re.compile(
    r"(?<!\w)(?:pain|painful|hurts?|hurting|ache|aching|sore|rash|itch\w*|spots?|moles?|lumps?|bumps?"
    r"|swell\w*"
    r"|swollen|palpitations?|racing|skipping beats?|pounding|flutter\w*|tight\w*|murmur|blood pressure"
    r"|short of breath|breathless\w*|dizz\w*|faint\w*|fatigue|tired|exhausted|fever|cough\w*|acne|pimples?"
    r"|hair loss|bald\w*|toenails?|fingernails?|nails?|sprain\w*|twisted|injur\w*|fell|stiff\w*|numb\w*"
    r"|tingling|bruis\w*"
    r"|blisters?|wound|cut myself|discomfort|bloat\w*|nause\w*|burn|burns|burning|stings?|stinging|headaches?"
    r"|migraine"
    r"|dor|doi|doem|doendo|dores|coceira|cocando|coca|cocam|mancha\w*|pinta\w*|caroco|incha\w*|palpitac\w*"
    r"|disparad\w*|disparar|acelerad\w*|batendo forte|aperto|pressao|sopro|falta de ar|cansaco|cansad[oa]"
    r"|sono|tontura|tont[oa]|desmai\w*|febre|tosse|espinhas?|cabelo|careca|unhas?|torci|torceu|torcao"
    r"|machuc\w*|cai|rigidez|formigamento|formiga\w*|dormencia|dorment\w*|feridas?|bolhas?|vermelh\w+"
    r"|descama\w*|ardencia|arde|queimacao|enjoo|nausea|estufad[oa]|dor de cabeca|enxaqueca"
    # Complaints said without a pain word (Symptom2Disease, Semigran 2015 vignettes).
    r"|veins?|varicose|varizes|veias|blood vessels|cramp\w*|caimbras?|scal(?:y|es|ing)|flak\w*|peel\w*"
    r"|crack\w*|fissures?|crust\w*|ooz\w*|sensitive skin|dry skin|skin|pele|thirst\w*|sede|urinat\w*|urin\w*"
    r"|vomit\w*|diarrh\w*|diarreia|vomito|spinning|vertigo|vertigem|toothache|dor de dente|lightheaded"
    r"|unsteady|weak\w*|fraqueza|sneez\w*|espirr\w*|wheez\w*|chiado|temperature|temperatura|hives|urticaria"
    r"|races|dispara|skips?|flutters?|scabs?|grind\w*|clicks?|twinge|frieira|herpes|casquinha|falsea\w*"
    r"|travad[oa]|disparar"
    r"|hairs?|nails?"
    # Breathlessness said without "short of breath": "fico sem fôlego", "I get winded on the stairs".
    r"|sem folego|perco o folego|perd\w+ o folego|folego curto|ofegante|out of breath|winded"
    r"|can't catch my breath|cant catch my breath"
    # Pain said by its idiom: "my back is killing me", "tá me matando", "hurts like hell".
    r"|killing me|kills me|murdering me|acting up|playing up|me matando|me mata|me matar"
    # A joint that locks or gives way: "minha coluna trava quando acordo", "my knee keeps giving out".
    r"|trava|travando|travou|locks up|locking up|locked up|giving out|gives out|gave out|gives way"
    r"|giving way)(?!\w)")
_FIRST_PERSON = re.compile(
    r"(?<!\w)(?:i|i'm|i've|im|ive|my|me|estou|to com|tenho|sinto|sentindo|meu|minha|meus|minhas|eu"
    r"|comecei|ando|started|been having|have had|have been)(?!\w)")
_QUESTION = re.compile(
    r"\?|^\W*(?:what|which|how|why|is|are|does|can|o que|qual|quais|como|por que|porque)\b")
# Turns that leave the consult's questions for something else.
_OTHER_TASKS = (Intent.BOOK, Intent.RESCHEDULE, Intent.CANCEL, Intent.MY_APPOINTMENTS)


def opens_consult(message: str, u: Understanding) -> bool:
    """A symptom told as one's own ("I've had a rash on my arm for two weeks", "dor no quadril
    quando ando") with no other task asked; a general question ("what causes acne?") is not one,
    nor is a message that names the specialty wanted ("sem dor no peito, só um check-up com
    cardiologista"): the consult exists to find it."""
    folded = fold_latin(message)
    if (not _SYMPTOM.search(without_off_topic(folded)) or u.specialty or u.intent in _OTHER_TASKS
            or asks_for_slots(folded)):
        return False
    if u.intent == Intent.GENERAL_QUESTION and not _FIRST_PERSON.search(folded):  # "difference between …"
        return False
    if u.out_of_scope not in (None, OutOfScope.OTHER):  # "OTHER" also catches "after football"
        return False
    return bool(_FIRST_PERSON.search(folded)) or not _QUESTION.search(folded)


def answers_questions(session: Session, u: Understanding, message: str) -> bool:
    """While history questions are open, a reply is taken as the answer unless it asks another
    task (a booking, or slots: "quais horários de cardiologia?")."""
    c = session.consult
    return (c is not None and c.stage == "history" and u.intent not in _OTHER_TASKS
            and not asks_for_slots(fold_latin(message)))


def wants_slots(session: Session, u: Understanding) -> bool:
    """A "yes" (or "list the slots") right after the recommendation."""
    c = session.consult
    return (c is not None and c.stage == "recommended" and session.pending == "consult_slots"
            and c.specialty in SPECIALTIES
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


async def assess(ctx: RequestContext, state: ConsultState, offered: list[str]) -> None:
    """Runs the council and records its consensus and the policy flags on the state."""
    facts = history_of(state)
    case = council.Case(text="\n".join(state.texts), history=facts)
    proposals = await council.convene(ctx, council.default_agents(offered), case)
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
    lines += [say(lang, f"flag_{'minor' if f.startswith('minor') else f}") for f in state.flags]
    offer = state.urgency < 4 and state.specialty in SPECIALTIES
    if offer:
        lines.append(say(lang, "consult_offer", specialty=names[state.specialty]))
    elif state.urgency < 4:
        lines.append(say(lang, "consult_gp"))
    return "\n".join(lines), offer


def handoff_packet(state: ConsultState, slot: SlotRef, clinic: str, lang: str) -> clinic_pb2.HandoffPacket:
    plan = f"Appointment with {slot.doctor} on {when(slot.date, slot.time, 'en')} at {clinic}"
    return soap(state, plan, lang)


def soap(state: ConsultState, plan: str, lang: str,
         redact: Callable[[str], str] = str) -> clinic_pb2.HandoffPacket:
    """The consult as a SOAP packet for `plan`; `redact` rewrites the patient's own words (an escalated
    case carries them with PHI replaced by its category)."""
    facts = history_of(state)
    subjective = [redact(line) for line in (f"Chief complaint: {state.texts[0]}", *facts.lines("en"))]
    if facts.age is not None:
        subjective.append(f"Age: {facts.age}")
    return clinic_pb2.HandoffPacket(
        subjective=subjective,
        objective=state.objective,
        assessment_specialty=state.specialty,
        assessment_urgency=state.urgency,
        assessment_confidence=state.confidence,
        proposals=[common_pb2.SpecialtyProposal(**p) for p in state.proposals],
        plan=plan,
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
