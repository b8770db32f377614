"""Deterministic understanding of one user message: language, intent, scope and the entities a plan needs.

Pure and fast (regular expressions, precompiled; dateparser only sees a date fragment when there is one).
A model may rephrase answers, but what the user asked for is decided here, by code.

Intent precedence, first match wins:
 1. out of scope: another patient's data, a diagnosis, a dosage, a lab result or image to interpret;
 2. a specialty no clinic offers (unless an offered one is named too);
 3. clearly not healthcare (weather, football, code …) unless a specialty, doctor or care word is present;
    anyone's private contact details, whoever is named;
 4. reschedule; cancel ("cancel and book another" is a reschedule); "I can't make it" without a cancel verb
    is a reschedule;
 5. my appointments: a reference to one's own booking with a question about it (own_bookings), or a
    listed phrasing; a change asked about as done ("was it cancelled?") is no cancel or reschedule;
 6. a question about which slots exist ("quais horários", "which times can I book");
 7. book: a booking verb, or a weak cue ("quero o …", "I want the …") with a slot reference or a doctor;
 8. list words ("horários", "available", "vagas");
 9. a bare slot reference ("o das 10h", "Dr. Fernando on the 18th at 10", "the second one"): book, or list
    when asked as a question or on a past day;
10. a message asking nothing (chitchat: emoji, thanks, "ok"); a health-education question ("o que é
    psoríase?", or any question about a condition not told as one's own: conditions);
11. a specialty, doctor or date alone: list; then a greeting or words to the assistant itself; otherwise
    unknown.
A cue right after a negation ("não quero cancelar", "don't book") does not count.

Slot references: "the earliest" / "first available" / "o primeiro horário" set `earliest`; "the first one" /
"o primeiro" / "option 1" set `choice=1`. A message that is only a digit ("2") is a choice.
"""

import datetime as dt
import enum
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from orchestrator.understanding import (
    chitchat,
    conditions,
    errands,
    lexicon,
    own_bookings,
    provenance,
    times,
    typos,
    when,
)
from orchestrator.understanding.doctors import TITLES, doctors_named, name_words_of
from runtime.text.calendar_words import PT_WEEKDAYS
from runtime.text.fold import fold_latin
from runtime.text.language import ENGLISH_WORDS, PORTUGUESE_WORDS, detect_language


class Intent(enum.StrEnum):
    LIST = "list"
    BOOK = "book"
    RESCHEDULE = "reschedule"
    CANCEL = "cancel"
    MY_APPOINTMENTS = "my_appointments"
    SOURCES = "sources"  # the sources of the previous answer
    GREETING = "greeting"
    GENERAL_QUESTION = "general_question"
    OUT_OF_SCOPE = "out_of_scope"
    UNKNOWN = "unknown"


class OutOfScope(enum.StrEnum):
    DIAGNOSIS = "diagnosis"
    DOSAGE = "dosage"
    OTHER_PATIENT = "other_patient"
    LAB_OR_IMAGE = "lab_or_image"
    UNSUPPORTED_SPECIALTY = "unsupported_specialty"
    OTHER = "other"


@dataclass(frozen=True)
class Understanding:
    language: str  # "pt" or "en"
    intent: Intent
    out_of_scope: OutOfScope | None
    specialty: str | None  # "cardiology" | "dermatology" | "orthopedics"
    unsupported_specialty: str | None  # the word the user wrote, lower case, e.g. "neurologista"
    doctors: tuple[str, ...]  # full names from known_doctors, in the order mentioned
    date: dt.date | None
    date_range: tuple[dt.date, dt.date] | None  # inclusive
    time: str | None  # "HH:MM"
    earliest: bool
    choice: int | None  # 1-based position in the options last shown
    refers_to_previous: bool
    confirmation: bool | None = None  # a leading "sim" / "ok" / "yes" (True) or a bare "não" / "no" (False)
    appointment_id: str | None = None  # an appointment named by its id, upper case
    source: int | None = None  # the citation asked for ("show source [1]")
    date_past: bool = False  # the date is before today (said so, never moved to next year)
    date_guessed: bool = False  # the date's month or year was not written: the answer says which it chose
    part_of_day: str | None = None  # "morning" | "afternoon" | "evening", asked without a clock time


def _compile(fragments: Iterable[str]) -> re.Pattern[str]:
    # Lookarounds rather than \b so fragments may start or end with punctuation ("?", "'s").
    return re.compile(r"(?<!\w)(?:" + "|".join(fragments) + r")(?!\w)")


_SPECIALTIES = {name: _compile(words) for name, words in lexicon.SPECIALTIES.items()}
_UNSUPPORTED = _compile(lexicon.UNSUPPORTED_SPECIALTIES)
_OUT_OF_SCOPE = (
    (OutOfScope.OTHER_PATIENT, _compile(lexicon.OTHER_PATIENT)),
    (OutOfScope.DIAGNOSIS, _compile(lexicon.DIAGNOSIS)),
    (OutOfScope.DOSAGE, _compile(lexicon.DOSAGE)),
    (OutOfScope.LAB_OR_IMAGE, _compile(lexicon.LAB_OR_IMAGE)),
)
_POSSESSIVE = _compile([lexicon.POSSESSIVE_EN])
_DATA_OF_NAME = _compile(
    [lexicon.OF_NAME_PT + r"(?P<name>[^\W\d_]+)", lexicon.OF_NAME_EN + r"(?P<name_en>[^\W\d_]+)"]
)
_NOT_HEALTHCARE = _compile(lexicon.NOT_HEALTHCARE)
_PRIVATE_CONTACT = _compile(lexicon.PRIVATE_CONTACT)
_MEDICAL_PAPERWORK = _compile(lexicon.MEDICAL_PAPERWORK)
_HEALTHCARE_CONTEXT = _compile(lexicon.HEALTHCARE_CONTEXT)
_CANCEL = _compile(lexicon.CANCEL)
_RESCHEDULE = _compile(lexicon.RESCHEDULE)
_CANNOT_GO = _compile(lexicon.CANNOT_GO)
_BOOK = _compile(lexicon.BOOK)
_BOOKED_BEFORE = _compile(lexicon.BOOKED_BEFORE)
_BOOK_WEAK = _compile(lexicon.BOOK_WEAK)
_MY_APPOINTMENTS = _compile(lexicon.MY_APPOINTMENTS)
_LIST_QUESTION = _compile(lexicon.LIST_QUESTION)
_LIST = _compile(lexicon.LIST)
_GENERAL = _compile(lexicon.GENERAL_QUESTION)
_GREETING = _compile(lexicon.GREETING)
# Greetings may come first: "hi, how are you doing?", "e aí, tudo certo?".
_SMALLTALK = re.compile(r"^\W*(?:(?:" + "|".join(lexicon.GREETING) + r")(?:\s+there)?\W+)*(?:"
                        + "|".join(lexicon.SMALLTALK) + r")\W*$")
_EARLIEST = _compile(lexicon.EARLIEST)
_REFERS = _compile(lexicon.REFERS_TO_PREVIOUS)
_SOURCES = _compile(lexicon.SOURCES)
_SOURCE_NUMBER = re.compile(lexicon.SOURCE_NUMBER)
_APPOINTMENT_ID = _compile([lexicon.APPOINTMENT_ID])
_QUESTION = re.compile(
    r"\?|^\W*(?:what|when|which|where|how|is|are|do|does|can|could|qual|quais|quando|que|onde|como|tem|ha|existe)\b"
)

_YES, _NO = "|".join(lexicon.YES), "|".join(lexicon.NO)
_CONFIRMATION = re.compile(
    rf"^\W*(?:(?P<yes>(?:{_YES})(?:[\s,.!;]+(?:{_YES}))*)|(?P<no>(?:{_NO})(?:[\s,.!;]+(?:{_NO}))*))"
    r"(?:\s*[,.!;]|\s+(?:please|por\s+favor|obrigad[oa]|thanks?|thank\s+you)\b|\s*$)"
)

# Ordinals: "option 2", "o 2º", "2nd one"; "the second", "a segunda opção", "quero a segunda".
_CHOICE_NUMBER = re.compile(
    r"(?<!\w)(?:option|opcao|item|numero|number|n[º°o]\.?|#)\s*(?P<n>\d{1,2})(?!\d)"
    rf"|(?<!\w)(?P<n2>\d{{1,2}})\s*(?:º|ª|°|st|nd|rd|th)?\s+{lexicon.OPTION_NOUNS}(?!\w)"
    r"|(?<!\w)(?:o|a)\s+(?P<n3>\d{1,2})\s*[ºª°](?!\w)"
    # "marca o 2nd": English suffix, Portuguese article ("a 2nd opinion" is no choice).
    r"|(?<!\w)o\s+(?P<n4>\d{1,2})(?:st|nd|rd|th)(?!\w)"
)
_CHOICE_WORD = re.compile(
    rf"(?<!\w)(?:(?P<verb>{lexicon.CHOOSING_VERBS})\s+)?(?:(?P<article>the|o|a)\s+)?"
    rf"(?P<word>{'|'.join(lexicon.ORDINALS)})(?P<noun>\s+{lexicon.OPTION_NOUNS})?"
    r"(?P<booking>\s+(?:appointment|booking|visit|consultation|consulta|agendamento|marcacao|reserva))?(?!\w)"
    r"(?!\s*-?\s*feira|\s+que\s+vem|\s+(?:vez|vezes|time|times|semana|week|mes|month|dia|day|ano|year|half|metade)\b)"
)
_WEEKDAY_ORDINALS = frozenset(lexicon.ORDINALS).intersection(PT_WEEKDAYS)  # "segunda", "quarta" …
_ENGLISH_ORDINALS = frozenset({"first", "second", "third", "fourth", "fifth", "sixth"})
_NEGATION = re.compile(r"(?<!\w)(?:nao|nunca|don't|dont|do\s+not|never|no\s+need\s+to)\s+(?:\w+\s+){0,2}$")
# Before a change asked about as done: "did it get", "was my derm appointment", "foi", "has it been".
_ASKED_AS_DONE = re.compile(
    r"(?:(?:did|was|were|has|have|is)\s+(?:it|that|this|they|(?:my|the)\s+(?:\w+\s+){0,2}?\w+)\s+(?:get|been)?"
    r"|got|gotten|been|foi|foram|ficou|esta)\s*$")
# Between a verb and its object: "confirma [pra mim] a consulta …", "confirm [for me] the appointment …".
_OBJECT_GAP = re.compile(
    r"(?:\s+(?:me|pra\s+mim|para\s+mim|for\s+me|please|por\s+favor|o|a|os|as|the|my|meu|minha))*\s+")
_ONLY_A_DIGIT = re.compile(r"^\W*(?P<n>[1-9])\W*$")
# "what is eczema, is it serious?": the "it" of a diagnosis question is the condition named, not the user.
_ASKS_ABOUT_NAMED = re.compile(
    r"(?<!\w)(?:what\s+(?:is|are)|what's|o\s+que\s+(?:e|sao)|tell\s+me\s+about|(?:me\s+)?fal[ae]\s+sobre)\s+"
    r"(?!(?:this|that|it|these|those|isso|isto|esse|essa|este|esta|my|meu|minha|wrong|happening)\b)[a-z]{3,}"
)
_NEXT_WORD = re.compile(r"\s+(?P<word>[^\W\d_]{3,})(?!\w)")
_PRONOUN = re.compile(r"(?<!\w)(?:it|isso|ele|ela)(?!\w)")
# "… é grave?" with no subject of its own, like a pronoun, is about the condition just named.
_NO_SUBJECT = re.compile(r"(?:e|eh|sera|seria)\s")



def warm_up() -> None:
    """Load dateparser's language data now, so the first request is as fast as the rest."""
    when.warm_up()


def asks_for_slots(folded: str) -> bool:
    """Whether a (folded) message asks about slots or availability."""
    return bool(_LIST.search(folded) or _LIST_QUESTION.search(folded))


def without_off_topic(folded: str) -> str:
    """A (folded) message with its clearly-not-healthcare phrases blanked: the "corte" of "corte de cabelo"
    is no cut, while "after football my knee hurts" keeps its knee."""
    return _NOT_HEALTHCARE.sub(lambda m: " " * len(m.group()), folded)


def asks_sources(message: str) -> bool:
    """Whether a message asks for the previous answer's sources ("what's your source for that
    recommendation" is no guideline question)."""
    folded = fold_latin(message)
    return _Facts(folded, None, (), False, False, False).has(_SOURCES) or provenance.asks_provenance(
        typos.corrected(folded))


def understand(
    message: str, *, today: dt.date, known_doctors: Sequence[str], previous_language: str | None = None
) -> Understanding:
    folded = fold_latin(message)
    meant = typos.corrected(folded)
    doctors = doctors_named(message, folded, tuple(known_doctors))
    appointment = _APPOINTMENT_ID.search(folded)
    source = _SOURCE_NUMBER.search(folded)
    # The id's hex digits and a source's number ("the 2nd source") are not a date or a time.
    unnumbered = folded
    for named in (appointment, source):
        unnumbered = when.blank(unnumbered, *named.span()) if named else unnumbered
    found_time = times.find_time(unnumbered)
    choice, rest = _choice(found_time.text)
    dates = when.find_dates(rest, today)
    specialty = _specialty(meant)
    unsupported = _UNSUPPORTED.search(folded)
    earliest = bool(_EARLIEST.search(folded))
    facts = _Facts(
        folded=meant,
        specialty=specialty,
        doctors=doctors,
        dated=dates.date is not None or dates.date_range is not None,
        slot_reference=choice is not None or earliest or found_time.time is not None,
        past=dates.date is not None and dates.date < today,
    )
    out_of_scope = _clinical_out_of_scope(message, folded, tuple(known_doctors))
    if out_of_scope is None and unsupported and specialty is None:
        out_of_scope = OutOfScope.UNSUPPORTED_SPECIALTY
    # Off topic asked about ("wats the wether like"), not remarked on ("its raining here again ugh").
    off_topic = (_NOT_HEALTHCARE.search(meant) and not (specialty or doctors)
                 and not _HEALTHCARE_CONTEXT.search(folded) and not errands.health_topic(meant)
                 and not chitchat.chit_chat(meant, _GREETING))
    not_ours = off_topic or _PRIVATE_CONTACT.search(folded) or _MEDICAL_PAPERWORK.search(folded)
    if out_of_scope is None and not_ours:
        out_of_scope = OutOfScope.OTHER
    intent = Intent.OUT_OF_SCOPE if out_of_scope else _intent(facts)
    if _asks_what_we_do_not_do(intent, meant):
        intent, out_of_scope = Intent.OUT_OF_SCOPE, OutOfScope.OTHER
    elif intent == Intent.UNKNOWN and errands.health_question(meant):
        intent = Intent.GENERAL_QUESTION
    return Understanding(
        language=detect_language(message, previous_language),
        intent=intent,
        out_of_scope=out_of_scope,
        specialty=specialty,
        unsupported_specialty=message[unsupported.start():unsupported.end()].lower() if unsupported else None,
        doctors=doctors,
        date=dates.date,
        date_range=dates.date_range,
        time=found_time.time,
        earliest=earliest,
        choice=choice,
        refers_to_previous=bool(_REFERS.search(folded)),
        confirmation=_confirmation(folded),
        appointment_id=appointment.group().upper() if appointment else None,
        source=_source_number(folded),
        date_past=dates.date is not None and dates.date < today,
        date_guessed=dates.guessed,
        part_of_day=None if found_time.time else when.part_of_day(rest),
    )


@dataclass(frozen=True)
class _Facts:
    folded: str
    specialty: str | None
    doctors: tuple[str, ...]
    dated: bool
    slot_reference: bool  # a choice, "the earliest" or a time
    past: bool  # the date named is before today

    def has(self, pattern: re.Pattern[str]) -> bool:
        """A match not negated just before ("não quero cancelar", "don't book")."""
        return any(not _NEGATION.search(self.folded, 0, m.start()) for m in pattern.finditer(self.folded))

    def orders(self, pattern: re.Pattern[str]) -> bool:
        """Like `has`, but a change asked about as done ("did it get cancelled?", "foi remarcada?") is a
        question about the booking, not an order."""
        return any(not _NEGATION.search(self.folded, 0, m.start())
                   and not _ASKED_AS_DONE.search(self.folded, 0, m.start())
                   for m in pattern.finditer(self.folded))

    def books_anew(self, *, besides: Sequence[range] = ()) -> bool:
        """A booking verb that asks for a booking, not one naming the booking made ("a consulta que eu
        marquei", "the appointment I booked") nor one inside `besides`, nor one whose object is the booking
        made ("me confirma o horário que eu peguei" asks about it)."""
        booked = [range(m.start(), m.end()) for m in _BOOKED_BEFORE.finditer(self.folded)]
        made = booked + list(besides)  # "book my check-up" is a new booking: only `booked` is an object made
        return any(not _NEGATION.search(self.folded, 0, m.start()) and not any(m.start() in r for r in made)
                   and not any(_OBJECT_GAP.fullmatch(self.folded, m.end(), r.start) for r in booked)
                   for m in _BOOK.finditer(self.folded))


def _intent(f: _Facts) -> Intent:
    context = bool(f.specialty or f.doctors or f.dated)
    if f.orders(_RESCHEDULE) or (f.orders(_CANCEL) and f.books_anew()):
        return Intent.RESCHEDULE
    if f.orders(_CANCEL):
        return Intent.CANCEL
    if f.has(_CANNOT_GO):
        return Intent.RESCHEDULE
    if f.has(_SOURCES) or _SOURCE_NUMBER.search(f.folded) or provenance.asks_provenance(f.folded):
        return Intent.SOURCES
    if f.has(_MY_APPOINTMENTS) or (own_bookings.asks_about_own(f.folded)
                                   and not f.books_anew(besides=own_bookings.reference_spans(f.folded))):
        return Intent.MY_APPOINTMENTS
    if f.has(_LIST_QUESTION):
        return Intent.LIST
    if f.has(_MY_APPOINTMENTS):
        return Intent.MY_APPOINTMENTS
    if f.has(_BOOK) or (f.has(_BOOK_WEAK) and (f.slot_reference or f.doctors)):
        return Intent.BOOK
    if f.has(_LIST):
        return Intent.LIST
    if f.slot_reference:  # a bare time on a past day ("cardiologia ontem às 10") asks about that day
        return Intent.LIST if f.has(_QUESTION) or f.past else Intent.BOOK
    if _SMALLTALK.match(f.folded) or chitchat.no_request(f.folded, _GREETING):
        return Intent.GREETING
    if chitchat.about_the_assistant(f.folded) and not errands.health_topic(f.folded):
        return Intent.GREETING
    if not context and chitchat.chit_chat(f.folded, _GREETING):
        return Intent.GREETING
    if f.has(_GENERAL) or conditions.asks_about_condition(f.folded):
        return Intent.GENERAL_QUESTION
    if context:
        return Intent.LIST
    if (f.has(_GREETING) or chitchat.to_the_assistant(f.folded)) and not errands.health_question(f.folded):
        return Intent.GREETING
    return Intent.UNKNOWN


def _asks_what_we_do_not_do(intent: Intent, meant: str) -> bool:
    """Entertainment whatever its topic, or an errand outside health; a bare question outside it only when
    nothing else was read ("what's a 15% tip" may read as a general question: its topic decides)."""
    if intent in (Intent.UNKNOWN, Intent.GREETING, Intent.GENERAL_QUESTION) and errands.amusement(meant):
        return True
    return intent in (Intent.UNKNOWN, Intent.GENERAL_QUESTION) and errands.errand(
        meant, asked_as_question=intent == Intent.UNKNOWN)


def _source_number(folded: str) -> int | None:
    if m := _SOURCE_NUMBER.search(folded):
        word = m["w"] or m["w2"]
        return lexicon.SOURCE_NUMBERS[word] if word else int(m["n"] or m["n2"] or m["n3"] or m["n4"])
    return None


def _specialty(folded: str) -> str | None:
    """The first offered specialty the message names."""
    found = [(m.start(), name) for name, pattern in _SPECIALTIES.items() if (m := pattern.search(folded))]
    return min(found)[1] if found else None


def _clinical_out_of_scope(message: str, folded: str, known_doctors: tuple[str, ...]) -> OutOfScope | None:
    for kind, pattern in _OUT_OF_SCOPE:
        if (m := pattern.search(folded)) and not (
                kind == OutOfScope.DIAGNOSIS and (_PRONOUN.search(m.group()) or _NO_SUBJECT.match(m.group()))
                and _ASKS_ABOUT_NAMED.search(folded, 0, m.start())):
            return kind
    if _names_someone_else(message, folded, known_doctors):
        return OutOfScope.OTHER_PATIENT
    return None


def _names_someone_else(message: str, folded: str, known_doctors: tuple[str, ...]) -> bool:
    """"Fábio Costa's record", "dados do João": someone's data, when that someone is not a doctor."""
    doctor_words = name_words_of(known_doctors)
    for match in _POSSESSIVE.finditer(folded):
        name = match.group(1)
        if name not in lexicon.NOT_A_PERSON and name not in doctor_words:
            return True
    for match in _DATA_OF_NAME.finditer(folded):
        group = "name" if match.group("name") else "name_en"
        start, end = match.span(group)
        name = folded[start:end]
        # Written lower case, a name still shows by a surname after it ("consultas da maria silva").
        surname = _NEXT_WORD.match(folded, end)
        named = message[start].isupper() or (surname is not None and _a_name(surname["word"], doctor_words))
        if named and _a_name(name, doctor_words):
            return True
    return False


def _a_name(word: str, doctor_words: frozenset[str]) -> bool:
    """Not a doctor's name, a title, a dictionary word or a specialty."""
    return (word not in doctor_words and word not in TITLES and word not in lexicon.NOT_A_PERSON
            and word not in PORTUGUESE_WORDS and word not in ENGLISH_WORDS and _specialty(word) is None)


def _choice(text: str) -> tuple[int | None, str]:
    """The option picked from a list, and `text` with it blanked (so "segunda opção" is not a Monday)."""
    if digit := _ONLY_A_DIGIT.match(text):
        return int(digit["n"]), text
    if number := _CHOICE_NUMBER.search(text):
        value = int(number["n"] or number["n2"] or number["n3"] or number["n4"])
        return (value or None), _blank(text, number)
    for match in _CHOICE_WORD.finditer(text):
        if _is_ordinal(match, alone=match.group().strip() == text.strip(" .!?")):
            return lexicon.ORDINALS[match["word"]], _blank(text, match)
    return None, text


def _is_ordinal(match: re.Match[str], *, alone: bool) -> bool:
    """Whether an ordinal word picks an option; `alone`: it is the whole message ("second")."""
    word, article, noun = match["word"], match["article"], match["noun"]
    if match["booking"]:  # "the second appointment" is one listed; "a second appointment" is another one
        return article == "the" or (article in ("o", "a") and word not in _ENGLISH_ORDINALS)
    if word in ("primeiro", "primeira") and noun and noun.strip() in ("horario", "vaga"):
        return False  # "o primeiro horário" is the earliest, not the first option shown
    if word in _WEEKDAY_ORDINALS:  # "segunda" is also Monday
        return bool(noun) or (article == "a" and match["verb"] is not None)
    if word in _ENGLISH_ORDINALS:
        return alone or bool(noun) or article == "the"
    return alone or bool(noun) or article in ("o", "a")


def _blank(text: str, match: re.Match[str]) -> str:
    return text[:match.start()] + " " * (match.end() - match.start()) + text[match.end():]


def yes_or_no(message: str) -> bool | None:
    """A reply that starts with yes (True) or no (False); None when it says neither."""
    return _confirmation(fold_latin(message))


def _confirmation(folded: str) -> bool | None:
    match = _CONFIRMATION.match(folded)
    if match is None:
        return None
    return match["yes"] is not None
