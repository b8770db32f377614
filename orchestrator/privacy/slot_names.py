"""Names in the slots of a scheduling request, where the words around a slot say a person fills it: who an
appointment is for ("it's for tevita", "appointment is for al", "marcar pra tiao"), whose name it is under
("put it under bo", "em nome de Nayara"), who is asked for, moved or seen ("need to move Yerlan to friday",
"is dr. Okafor seeing Chidi today?", "Can ash come in at 3?"), whose record it is ("a ficha e da Txai"), who
greets or signs ("oi, e a lu, …", "ass: Potira"). Such a slot takes a word no list holds, two-letter
nicknames too ("bo", "ty", "ju"), unless it is what else fills the slot: a pronoun, a relative, a day, a
specialty, a title, a common word that is no listed first name, an acronym. Text is read with accents
stripped, like every recognizer."""

import re
from collections.abc import Iterable

from presidio_analyzer import RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts

from orchestrator.privacy.gazetteer import Gazetteer, common_words, drug_words, gazetteer, word_set
from orchestrator.privacy.message_words import bare_words
from orchestrator.privacy.recognizers import ContextRecognizer

# What else fills a person's slot, beyond the detector's stop words and the drug names the knowledge base
# knows ("move tylenol to night"): pronouns and quantities ("book it for someone", "is it for both"), times,
# the short names of places, specialties and tests ("for er", "for derm"), what a visit is for ("for strep").
_SLOT_STOP = frozenset("""me us it him her them you yourself myself someone somebody anyone anybody everyone
    everybody nobody none nenhum nenhuma both all each either one two three four five six ten now later soon
    asap then there
    tonight morning afternoon evening night noon week weekend month year am pm er ed ob gp pt ct mri ent icu
    tb hiv std sti uti iv ekg ecg eeg ps ubs upa sus mim nos eles elas voce vc voces ninguem alguem todos
    ambos hora horas semana mes ano cedo tarde noite manha
    derm cardio ortho peds neuro gyn obgyn psych onco uro gastro endo rheum pulm ophtho eye eyes pedi dermato
    gineco oftalmo otorrino nutri fisio psico pediatra orto neuro endocrino pneumo reumato hemato
    real strep checkup check-up physical sedation anesthesia anestesia ultrasound xray x-ray labs bloodwork
    tdap mmr hpv rsv covid flu shingles pneumonia dengue zika gripe preventivo papanicolau mamografia
    hemograma ultrassom ultrassonografia raio-x eletro ecocardiograma endoscopia colonoscopia""".split())
# The words a name's slot ends at: the message's or the clause's end, or when or how it is wanted.
_ENDS = (r"\s*(?:[,.!?;:)]|$)|\s+(?i:today|tomorrow|tonight|this|next|on|at|please|pls|plz|asap|too|"
         r"instead|not|by|hoje|amanha|por|pfv|pf|tambem|nao|as|dia|semana|depois)\b")
_END = rf"(?={_ENDS})"
# A name, and maybe the word after it (a surname, or a word the slot's end follows: "for ren tomorrow?").
_SLOT = r"(?P<phi>[A-Za-z]+(?:-[A-Za-z]+)?(?:\s+[A-Za-z]+(?:-[A-Za-z]+)?)?)"


def _either(words: frozenset[str]) -> str:
    return "|".join(re.escape(word) for word in sorted(words, key=len, reverse=True))


# Each slot has the words a message must hold for it, one of each set (a word-set test before any scan).
# Who it is for: "it's for tevita", "appointment is for al", "checking in for Liesel", "e pra caua".
_FOR_WHAT = word_set("""appointment appointments appt appts booking slot spot opening openings vaga consulta
    horario wait waitlist in it's its is that's one it book schedule marcar marca marque agendar agenda agende
    remarcar encaixar encaixa e eh so room time space available good free reminder reserved reserve ficou fica
    reservar reserva""")
_FOR_WORDS = word_set("for pra para pro")
_FOR = rf"(?i:\b(?:{_either(_FOR_WHAT)})\s+(?:{_either(_FOR_WORDS)})\s+(?:(?:o|a)\s+)?){_SLOT}{_END}"
# Whose name it is under or who it is: "put it under bo", "no nome da Ieda", "pra quem: Yasmin", "the patient
# is Meseret", "name on file is berenice", "ass: Potira", "contact: Kalani Kahananui, …".
_UNDER_WORDS = word_set("""under nome quem whom who ass assinado signed name contact contato waitlist waiting
    espera patient paciente kid child baby boy girl menino menina crianca bebe""")
_UNDER = (r"(?i:\b(?:under(?:\s+the\s+name(?:\s+of)?)?|in\s+the\s+name\s+of|(?:em|no)\s+nome\s+d[aeo]|"
          r"(?:pra|para)\s+quem|for\s+whom|who\s+for|ass|assinado|signed|contact|contato|"
          r"waitlist|waiting\s+list|lista\s+de\s+espera|name\s+on\s+(?:file|record|the\s+[a-z]+)(?:\s+is)?|"
          # the patient or the child: "the kid is Kekoa", "a paciente e a Jandira"
          r"(?:the\s+)?(?:patient|kid|child|baby|boy|girl)\s+is|(?:o|a)\s+(?:paciente|menino|menina|crianca|bebe)\s+e)"
          r"\b\s*[:\-]?\s*(?:(?:o|a)\s+)?)"
          rf"{_SLOT}{_END}")
# Sent something or asked for: "send the reminder to kofi", "fala com a Cotinha por favor", "ask for Teodoro".
_SENDING = word_set("send sent text texted forward forwarded give gave pass hand handed email mail")
_SENT = rf"(?i:\b(?:{_either(_SENDING)})\b(?:\s+[\w']+){{0,3}}?\s+to\s+){_SLOT}{_END}"
_ASKING_FOR = word_set("fala falar fale speak speaking talk talking ask asking chama chamar chame")
_ASKED_FOR = (rf"(?i:\b(?:{_either(_ASKING_FOR)})\s+(?:com|with|to|for|pel[oa])\s+(?:(?:o|a)\s+)?)"
              rf"{_SLOT}{_END}")
# Moved, added, brought, taken or seen: "need to move Yerlan to friday", "we took flor to the er", "pls add
# sunny to the waitlist", "we'll bring ty at 10", "vou levar o davi amanha", "can the nurse call back
# siosaia?", "is dr. Okafor seeing Chidi today?".
_MOVING = word_set("move moving reschedule rescheduling switch bump push add adding put register enroll "
                   "bring bringing brought take taking took see seeing saw leva levar levei levou levamos "
                   "trouxe trazer")
_MOVING_TWO = word_set("sign call calling check checking squeeze fit")  # "sign up", "call back", "fit in"
_MOVED = (rf"(?i:\b(?:{_either(_MOVING)}|sign\s+up|call\s+back|calling\s+back|check\s+on|checking\s+on|"
          r"squeeze\s+in|fit\s+in)\s+(?:(?:o|a)\s+)?)"
          rf"{_SLOT}(?=\s+(?i:to|at|on|in|for|into)\b|{_ENDS})")
# Asked whether the person can come: "Can ash come in at 3?", "could ife still make it".
_ASKING = word_set("can could will would should may")
_COMING_WORDS = word_set("come make seen attend stay")
_COMING = (rf"(?i:\b(?:{_either(_ASKING)})\s+)"
           rf"{_SLOT}(?=\s+(?i:(?:still\s+)?(?:come|make\s+it|be\s+seen|get\s+seen|get\s+in|attend|stay))\b)")
# Whose record, exam or visit: "o exame da Mel saiu?", "a ficha e da Txai", "o retorno do lino".
_RECORDS = word_set("""horario consulta exame exames vacina vacinas retorno ficha cadastro receita agendamento
    atestado laudo carteirinha prontuario resultado resultados dados""")
_WHOSE = rf"(?i:\b(?:{_either(_RECORDS)})\s+(?:e\s+)?d[oa]\s+){_SLOT}"
# Who greets, then who writes: "oi, e a lu, minha vo…", "bom dia, sou o ju".
_GREETINGS = word_set("oi ola bom boa")
_GREETING = (r"(?i:\b(?:oi|ola|bom\s+dia|boa\s+tarde|boa\s+noite)[\s,!]+(?:e|eh|sou)\s+(?:a|o)\s+)"
             rf"{_SLOT}{_END}")
# Who signs after a dash, closing the message: "… thank you for caring for my father. \u2014 Marie-Claude".
_DASH = "[\u2014\u2013]"
_DASHED = rf"{_DASH}\s*{_SLOT}(?=\s*$)"
# Who a message is passed on from: "forwarded from Dolly:", "fwd from Delphine -", "recado do Edivaldo: …".
_FROM_WHAT = word_set("forwarded fwd fw msg message text note mensagem recado encaminhado")
_FROM = (rf"(?i:\b(?:{_either(_FROM_WHAT)})\s+(?:from|de|d[oa])\s+){_SLOT}"
         r"(?=\s*(?:[-:,.!?;)\u2014\u2013]|$))")
# What else a person is called: "(pref name Vivian)", "goes by Lana", "aka Kasia", "(chamam de Leo)"; gated by
# a cue's last word, which an opening parenthesis does not touch.
_ALIAS_WORDS = word_set("by name aka nickname apelido de como as")
_ALIAS = (r"(?i:\b(?:goes\s+by|go\s+by|pref(?:erred)?\.?\s+name(?:\s+is)?|aka|nickname|apelido|"
          rf"cham(?:a|am|ad[oa])\s+de|conhecid[oa]\s+como|known\s+as)\s*:?\s+){_SLOT}{_END}")
# Who is spoken to, opening the message before a second person: "Caio, teu pai ligou", "Priyanka, can you…".
_YOU = word_set("your you tua teu tu voce vc sua seu can could pode podes")
_VOCATIVE = rf"^\s*(?P<phi>[A-Za-z]+(?:-[A-Za-z]+)?)(?=,\s+(?i:{_either(_YOU)})\b)"
# Who works which days, in a rota: "Neide seg/qua, Tati qui/sex", "Jojo thu-fri".
_DAY = r"(?:mon|tue|wed|thu|fri|sat|sun|seg|ter|qua|qui|sex|sab|dom)[a-z]*"
# Its gate, a range's end found from its slash or dash, a fast scan (the rota's pattern checks the first day).
_DAYS_FROM = re.compile(r"[/\-]\s?(?i:mon|tue|wed|thu|fri|sat|sun|seg|ter|qua|qui|sex|sab|dom)")
_ROTA = rf"\b(?P<phi>[A-Za-z]+)(?=\s+(?i:{_DAY})\s*[/\-]\s*(?i:{_DAY})\b)"
# Each slot, whether its words say a person only with a name in it (a listed first name or a capitalized word
# no list holds: "o exame da tireoide" is no one's), and the word sets its message must meet.
_SLOTS = ((_FOR, False, (_FOR_WHAT, _FOR_WORDS)), (_UNDER, False, (_UNDER_WORDS,)),
          (_MOVED, False, (_MOVING | _MOVING_TWO,)), (_COMING, False, (_ASKING, _COMING_WORDS)),
          (_WHOSE, True, (_RECORDS, word_set("do da"))),
          (_GREETING, False, (_GREETINGS, word_set("e eh sou"))),
          (_SENT, False, (_SENDING,)), (_ASKED_FOR, False, (_ASKING_FOR,)), (_DASHED, False, ()),
          (_FROM, False, (_FROM_WHAT,)), (_ALIAS, False, (_ALIAS_WORDS,)), (_VOCATIVE, True, (_YOU,)),
          (_ROTA, False, ()))
# Who the carers, visitors or contacts are, listed after a colon: "caregivers: rosa (mornings), Paz (nights)";
# each item's first word, what is in parentheses left out.
_LISTERS = word_set("""caregivers carers cuidadores cuidadoras contacts contatos visitors visitas
    acompanhantes responsaveis""")
_LIST = re.compile(rf"(?i:\b(?:{_either(_LISTERS)})\s*:\s*)(?P<items>[^.;\n]+)")
_ITEM = re.compile(r"(?:^|,|\band\b|\be\b|&)\s*(?P<phi>[A-Za-z]+(?:-[A-Za-z]+)?)")
_ASIDE = re.compile(r"\([^)]*\)")
_FIRST_WORDS = frozenset().union(*(gates[0] for _, _, gates in _SLOTS if gates), _LISTERS)


def names_a_slot(text: str) -> bool:
    """The slot-name recognizer's gate, a word-set test: a slot's first cue word, or a dash (a signature)."""
    return (not _FIRST_WORDS.isdisjoint(bare_words(text)) or "\u2014" in text or "\u2013" in text
            or _DAYS_FROM.search(text) is not None)


class SlotNames(ContextRecognizer):
    """Names in a scheduling request's slots (module docstring): any word that is not what else fills it."""

    def __init__(self, stop_words: Iterable[str], names: Gazetteer | None = None) -> None:
        self._names = names or gazetteer()
        self._common = common_words()
        self._stop = frozenset(stop_words) | _SLOT_STOP
        self._drugs = drug_words()
        self._slots = tuple((weak, gates) for _, weak, gates in _SLOTS)
        needs = {_DASHED: _DASH, _ROTA: _DAYS_FROM.pattern}
        super().__init__("NAME", "SlotName", [(slot, 0.6, *([needs[slot]] if slot in needs else []))
                                              for slot, _, _ in _SLOTS])

    def analyze(self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None,
                ) -> list[RecognizerResult]:
        results, words = [], bare_words(text)
        for (pattern, _, needs, test), (weak, gates) in zip(self._patterns, self._slots, strict=True):
            if any(gate.isdisjoint(words) for gate in gates):
                continue
            if needs is not None and not needs.search(text):
                continue
            for match in (pattern.finditer(text) if test is None else test.finditer(pattern, text)):
                first, *then = match.group("phi").split()
                if not self._fills(first, weak):
                    continue
                end = match.start("phi") + len(first)
                if then and self._fills(then[0], weak, surname=True):
                    end = match.end("phi")
                results.append(RecognizerResult("NAME", match.start("phi"), end, 0.6))
        if not _LISTERS.isdisjoint(words):
            results += self._listed(text)
        return results

    def _listed(self, text: str) -> list[RecognizerResult]:
        results = []
        for listing in _LIST.finditer(text):
            start = listing.start("items")
            items = _ASIDE.sub(lambda aside: " " * len(aside.group()), listing.group("items"))
            results += [RecognizerResult("NAME", start + item.start("phi"), start + item.end("phi"), 0.6)
                        for item in _ITEM.finditer(items) if self._fills(item.group("phi"), weak=False)]
        return results

    def _fills(self, word: str, weak: bool, surname: bool = False) -> bool:
        """A person's name in the slot: no stop word or acronym ("ID", "ER"); then a listed first name (or
        last, after one), a word no common list holds (capitalized, in a weak slot) or a two-letter nickname
        ("bo", "ju")."""
        parts = word.lower().split("-")
        if any(part in self._stop for part in parts) or (word.isupper() and len(word) > 1):
            return False
        if all(part in self._names.first or (surname and part in self._names.last) for part in parts):
            return True  # "pra quem: Yasmin", a brand too
        if any(part in self._drugs for part in parts):
            return False
        if weak:
            return word[0].isupper() and not any(part in self._common for part in parts)
        return len(word) == 2 or not any(part in self._common for part in parts)
