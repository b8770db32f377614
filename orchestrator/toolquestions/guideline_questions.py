"""Guideline questions, read broadly: any mention of a guideline, protocol, consensus, recommendation or
screening schedule ("diretriz", "what do doctors recommend for", "recomendado para", "rastreamento"),
or of a body that issues guidelines (ESC, AHA, ACC, NICE, SBC, USPSTF, WHO/OMS, ADA, KDIGO, GOLD, GINA,
Ministério da Saúde, CDC …) asked with a clinical topic. A plain factual question names none of these and
stays a general question. A published clinical decision rule ("ottawa ankle rules") is one by its name
alone. Scheduling, and a question about the previous answer's sources ("which
guideline is that answer based on?"), are not guideline questions.

Bodies whose names are also ordinary words (WHO, NICE, GOLD, ADA, AHA) count in capitals, or lower case
right next to a guideline word or after "according to" / "segundo" / "the".
"""

import re

_GUIDE = r"(?:guide?lines?|guidlines?|diretriz(?:es)?|diretrizes)"
_NOUN = (rf"(?:{_GUIDE}|guidance|protocol(?:o|os|s)?|consensus|consenso|recommendations?|recomendac(?:ao|oes)"
         r"|screening|rastreamento|rastreio|standard\s+of\s+care|conduta\s+recomendada|best\s+practices?"
         # What the evidence on a topic says: "what's the evidence on aspirin for primary prevention".
         r"|evidence\s+(?:on|for|about)|evidencias?\s+(?:sobre|cientificas?\s+sobre)"
         # Who is to be screened: "who should be screened for osteoporosis", "quem deve ser rastreado".
         r"|(?:be|get|getting|ser|fazer)\s+(?:screened|rastread[oa]s?))")
# A published clinical decision rule names its own topic: "ottawa ankle rules", "regra de Ottawa".
_DECISION_RULE = re.compile(
    r"(?<![\w-])(?:(?:ottawa|canadian|nexus|pecarn|centor|perc)(?:\s+[\w-]+){0,2}?\s+(?:rules?|criteria)"
    r"|(?:regras?|criterios?)\s+(?:d[eao]s?\s+)?(?:ottawa|canadense|nexus|pecarn|centor|perc))(?![\w-])")
_BODIES = (r"esc|acc|uspstf|oms|kdigo|gina|cdc|aaos|aad|acp|acr|acog|sbc|sbd|sbem|sbp|sbr|idsa|eular|easd|ats"
           r"|ers|ministerio\s+da\s+saude|american\s+heart\s+association|american\s+diabetes\s+association"
           r"|world\s+health\s+organi[sz]ation|organizacao\s+mundial\s+da\s+saude"
           # Named in full: "sociedade brasileira de cardiologia", "the (US preventive services) task force".
           r"|sociedade\s+(?:brasileira|europeia|americana)\s+de\s+\w+|(?:american|european)\s+(?:society|college"
           r"|academy)\s+of\s+\w+|(?:preventive\s+services\s+)?task\s+force")
_WORD_BODIES = r"who|nice|gold|ada|aha"  # also ordinary words
_BODY = re.compile(rf"(?<![\w-])(?:{_BODIES})(?![\w-])")
_WORD_BODY_CAPS = re.compile(rf"(?<![\w-])(?:{_WORD_BODIES.upper()})(?![\w-])")
_WORD_BODY_NEXT_TO_GUIDE = re.compile(
    rf"(?<![\w-])(?:(?:according\s+to|per|segundo|de\s+acordo\s+com|conforme|the)\s+(?:{_WORD_BODIES})"
    rf"|(?:{_WORD_BODIES})\s+(?:{_NOUN}|recommend\w*|recomenda\w*|says?|diz|advises?))(?![\w-])")
_NOUN_RE = re.compile(rf"(?<![\w-]){_NOUN}(?![\w-])")
# Recommended, as a state ("is X recommended for", "meta recomendada") or said by those who issue advice
# ("what do doctors recommend for", "os médicos recomendam"); never the assistant asked to recommend a
# film or a doctor ("recommend a good movie", "me recomenda um dermatologista").
_RECOMMENDED = re.compile(
    r"(?<![\w-])(?:recommended|recomendad[oa]s?|recomendavel|advised"
    r"|(?:doctors|physicians|experts|specialists|cardiologists|dermatologists|orthopedists|medicos|especialistas"
    r"|cardiologistas|dermatologistas|ortopedistas)\s+(?:\w+\s+)?(?:recommend|advise|recomendam|indicam|orientam)"
    r")(?![\w-])")
# Not a guideline question: booking words, and the sources of the answer just given.
_SCHEDULING = re.compile(
    r"(?<![\w-])(?:consultas?|appointments?|appts?|horarios?|slots?|vagas?|book\w*|marcar|agend\w*|reserv\w*"
    r"|cancel\w*|desmarc\w*|remarc\w*|reschedul\w*|dr|dra)(?![\w-])")
_ABOUT_THE_ANSWER = re.compile(
    r"(?<![\w-])(?:based|basead[oa]s?|baseou|baseia|se\s+basear|answer|resposta|origem|\[\d{1,2}\])(?![\w-])"
    r"|\[\d{1,2}\]"
    # Where the answer came from: "essa informação saiu de qual diretriz?", "which guideline did you use?".
    r"|(?<![\w-])(?:saiu|veio|vem|tirad[oa]|came|comes|taken)\s+(?:de|from|da|do)\s+(?:qual|que|which|what)(?![\w-])"
    r"|(?<![\w-])(?:voce|vc|you)\s+(?:usou|used|use|citou|cited|cite|consultou|consulted|consult|seguiu|followed|follow)(?![\w-])"
    # "de onde veio esse dado, which guideline?", "which guideline says that?".
    r"|(?<![\w-])(?:de\s+onde|where(?:'s|\s+is|\s+does|\s+did)\s+(?:\w+\s+){0,2}from)(?![\w-])"
    r"|(?<![\w-])(?:says?|said|diz|dizem|disse|afirma)\s+(?:that|this|so|isso|isto)(?![\w-])")
# The cue word itself defined: "what is a clinical guideline", "o que é um protocolo clínico?".
_DEFINED = re.compile(
    rf"^\W*(?:what\s+(?:is|are)|what's|whats|define|o\s+que\s+(?:e|eh|sao|significa))\s+(?:an?\s+|uma?\s+)?"
    rf"(?:(?:clinical|medical|clinic[oa]s?|medic[oa]s?)\s+)?{_NOUN}(?:\s+(?:clinic[oa]s?|medic[oa]s?))?\W*$")
# What is left once the cue words are gone must still name a topic: a word of four letters or more that
# is no question or function word ("what are the current guidelines?" names none; "acne", "asma" do).
_TOPIC_WORD = re.compile(r"[a-z]{4,}")
_NO_TOPIC = frozenset("""which where there these those about current latest recent newest sobre quais atuais
atual recentes segundo according what when does have from with that this them they your sera qual onde
quem como pela pelo pelas pelos para essa esse isso esta este mais menos tudo todo toda sobre segundo
please favor tell show give""".split())


def asks_guideline(message: str, folded: str) -> bool:
    """Whether the message asks what guidelines say (a cue and a topic, not scheduling nor sources)."""
    cue = (_NOUN_RE.search(folded) or _BODY.search(folded) or _RECOMMENDED.search(folded)
           or _WORD_BODY_NEXT_TO_GUIDE.search(folded) or _WORD_BODY_CAPS.search(message))
    if _SCHEDULING.search(folded) or _ABOUT_THE_ANSWER.search(folded) or _DEFINED.search(folded):
        return False
    if _DECISION_RULE.search(folded):
        return True
    if cue is None:
        return False
    rest = folded[:cue.start()] + " " + folded[cue.end():]
    return any(word not in _NO_TOPIC for word in _TOPIC_WORD.findall(rest))
