"""Deterministic reading of tool questions: risk scores, drug safety, drug interactions and
guideline questions, in Portuguese and English. Code extracts the arguments; whatever a score
needs and the message does not say is reported as missing, so the user is asked, never guessed.

One message may ask several things ("is warfarin safe with ibuprofen, and what do guidelines
say about anticoagulation in AF?"); each becomes one call, in the order asked.

Drugs are the knowledge base's names (brands and misspellings too, drug_names.py): two of them
in a question make an interaction question in any form ("can I take ibuprofen while I'm on
warfarin?", "eliquis + advil?"), one makes a safety question, or a side-effects one when it asks
for those. A question about an amount (a dose, mg, how many) is none: it stays out of scope.
"""

import re
from dataclasses import dataclass, field

from google.protobuf.message import Message

from healthmesh.v1 import tools_pb2
from orchestrator.planning.steps import Action
from orchestrator.toolquestions.criteria import Criterion
from orchestrator.toolquestions.drug_names import Mention, drug_names
from orchestrator.toolquestions.guideline_questions import asks_guideline
from orchestrator.toolquestions.score_reader import read_score
from orchestrator.understanding.understand import asks_sources
from runtime.text.fold import fold_latin


@dataclass(frozen=True)
class ToolCall:
    action: Action
    request: Message
    topic: str = ""  # "side_effects": a safety check asked as a side-effects question

    @property
    def key(self) -> tuple[str, bytes]:
        """Identity for de-duplication: the same tool with the same arguments."""
        return self.action.value, self.request.SerializeToString(deterministic=True)


@dataclass
class ToolTask:
    calls: list[ToolCall] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)  # "<score>.<field>" the user must give
    score: str = ""  # the score asked for, when one is
    readings: list[Criterion] = field(default_factory=list)  # what was read for it, and from which words

    def __bool__(self) -> bool:
        return bool(self.calls or self.missing)


def _re(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


# -- scores ---------------------------------------------------------------------------------------

_STROKE_RISK = r"\b(?:risco|risk|chance)\s+(?:de|of|for)\s+(?:an?\s+|ter\s+(?:um\s+)?)?(?:avc|derrame|stroke)\b"
_AF = r"\b(?:fibrilacao\s+atrial|atrial\s+fibrillation|a-?fib|fa)\b"
_SCORES = (
    # The stroke risk score of atrial fibrillation, named in lay words too.
    ("cha2ds2_vasc", _re(r"\bcha2?ds2?[- ]?vasc\b|\bchads[- ]?vasc\b|\bstroke\s+risk\s+(?:score|escore)\b"
                         r"|\b(?:escore|score|pontuacao)\s+de\s+risco\s+(?:de|para)\s+(?:avc|derrame)\b"
                         # Someone's stroke risk with atrial fibrillation is what the score estimates.
                         rf"|{_STROKE_RISK}(?=.*{_AF})|{_AF}(?=.*{_STROKE_RISK})")),
    # "calcular heart, paciente 52 anos": a verb of computing makes "heart" the score, not the organ.
    ("heart", _re(r"\bheart\s+(?:score|escore|risk\s+score)\b|\b(?:escore|score)\s+heart\b"
                  r"|\b(?:calcul\w*|comput\w*|calc)\s+(?:o\s+|a\s+|the\s+)?heart\b")),
    ("wells_pe", _re(r"\bwells\b")),
    ("curb65", _re(r"\bcurb[- ]?65\b")),
    ("qsofa", _re(r"\bq(?:uick)?[- ]?sofa\b")),
)

# -- drugs and guidelines --------------------------------------------------------------------------

_NAME = r"[a-z][a-z0-9-]{2,30}"
_NAMES = rf"{_NAME}(?:\s*(?:,|\+|and|e|with|com)\s*{_NAME})*"
_INTERACTION = (
    _re(rf"\b(?:interactions?|interacoes|interacao|interage)\s+(?:between|among|of|entre|de|da|do)\s+(?P<names>{_NAMES})"),
    _re(rf"\b(?:is|are|e)\s+(?P<a>{_NAME})\s+(?:safe|seguro|segura)\s+(?:to take\s+|de tomar\s+)?(?:together\s+)?"
        rf"(?:with|along with|combined with|com|junto com)\s+(?P<b>{_NAME})"),
    _re(rf"\b(?:can i take|can you take|can he take|can she take|posso tomar|pode tomar|e seguro tomar|e seguro usar)\s+"
        rf"(?P<a>{_NAME})\s+(?:together\s+)?(?:with|and|along with|com|e|junto com)\s+(?P<b>{_NAME})"),
    _re(rf"\b(?P<a>{_NAME})\s+(?:\+|interacts? with|interage com|junto com)\s+(?P<b>{_NAME})"),
)
_SAFETY = (
    _re(rf"\b(?:boxed warnings?|black box(?: warning)?|tarja preta|alerta(?: de tarja)?|contraindications?|contraindicacoes"
        rf"|contraindicacao|safety|seguranca|warnings?|cautions?|precaucoes|adverte\w*)\s+(?:for|of|on|about|do|da|de|sobre|para)\s+"
        rf"(?:o\s+|a\s+)?(?P<name>{_NAME})"),
    _re(rf"\b(?:is|e)\s+(?:o\s+|a\s+)?(?P<name>{_NAME})\s+(?:safe|seguro|segura)\b(?!\s+(?:with|com|together|junto))"),
    _re(rf"\b(?P<name>{_NAME})\s+(?:boxed warning|safety|seguranca|contraindications?|contraindicacoes)\b"),
)
# "guidlines" is a common misspelling; the bodies whose guidelines the knowledge base holds speak for them
# ("what does NICE say about …").
_GUIDE = r"(?:guide?lines?|diretriz(?:es)?)"
_ISSUER = rf"(?:{_GUIDE}|esc|aha|acc|nice|uspstf|who|oms|aad|ada|acp|aaos|cdc|sbc|acr)"
# "the ESC 2024 guideline", "o guideline da AHA", "as diretrizes atuais": who speaks, in any order.
_BODY = (rf"(?:(?:{_GUIDE}|guidance)\s+(?:d[aeo]s?|of\s+the|from\s+the|from)\s+)?{_ISSUER}(?:\s+\d{{4}})?"
         rf"(?:\s+{_GUIDE})?(?:\s+(?:atuais|atual|current|latest|mais\s+recentes?))?")
_ABOUT = r"(?:about|on|for|regarding|in|sobre|para|pra|em|a respeito de|de|no|na)"
_GUIDELINE = (
    _re(rf"\b(?:what do|what does|o que (?:as|a|os|o))\s*(?:the\s+)?(?:current\s+)?{_BODY}"
        r"\s+(?:says?|recommends?|advises?|dizem|diz|recomendam|recomenda|falam|fala)\s+"
        rf"(?:{_ABOUT})\s+(?P<q>[^?.;]+)"),
    _re(rf"\b(?:according to|segundo|de acordo com)\s+(?:the\s+|as\s+|a\s+)?(?:current\s+|atuais\s+)?"
        rf"(?:{_GUIDE}|guidance)\s*,?\s+(?P<q>[^?.;]+)"),
    _re(rf"\b(?:{_GUIDE}|guidance|recommendations?|recomendacoes|recomendacao)"
        rf"(?:\s+(?:atuais|atual|current|latest|mais\s+recentes?))?"
        rf"(?:\s+(?:d[aeo]s?|of\s+the|from\s+the)\s+{_BODY})?\s+(?:on|for|about|sobre|para|pra|de)\s+"
        r"(?P<q>[^?.;]+)"),
    _re(rf"^\W*(?P<q>[^?.;]+?)\s+(?:per|according to|in|segundo|pelas|nas|de acordo com)\s+(?:the\s+|as\s+)?"
        rf"(?:current\s+)?{_GUIDE}\b"),
)
# Asking about a drug, in any question form; an amount is dosage advice, out of scope.
_ASKS = _re(r"\?|^\W*(?:what|which|who|how|is|are|can|could|should|may|does|do|will|would|any|tell|qual|quais|quem|como|o que"
            r"|e|pode|posso|devo|tem|ha)\b|\b(?:safe\w*|segur\w*|side\w*|effects?|efeitos?|advers\w*|reac\w+|risks?"
            r"|riscos?|warnings?|alert\w*|tarja|contraindica\w*|precau\w*|cuidados?|cautions?|dangerous|perigos\w*"
            r"|faz mal|interac\w*|interact\w*|interag\w*|interfer\w*|mix|misturar|combin\w*|together|junto\w*"
            r"|brand|marcas?|advert\w*|avisos?"
            r"|know about|saber sobre)\b|\+"
            # A question tag at the end: "… quer tomar dipirona, pode?", "… with advil, ok?".
            r"|\b(?:pode|posso|da|can i|ok|okay|tudo bem|faz mal)\W*$"
            # "da pra usar viagra com …", "im on lipitor can i take …": asked mid-sentence or casually.
            r"|^\W*(?:da|rola|tranquilo|de boa)\s+(?:pra|para|usar|tomar)\b"
            r"|\b(?:can|could|should|may)\s+(?:i|you|he|she|we)\s+(?:take|use|have|mix|combine)\b"
            r"|\b(?:i'?m|i am|estou|to|tou)\s+(?:on|taking|tomando|usando)\b"
            r"|\b(?:sabe\s+se|know\s+if|wonder(?:ing)?\s+if)\b"
            # Asked without a question mark: "amamentando posso usar fluoxetina", "da problema tomar X com Y".
            r"|\b(?:posso|pode|podemos|can\s+i|can\s+we)\s+(?:usar|tomar|use|take)\b"
            r"|\b(?:da|tem|have|has|any)\s+(?:algum\s+)?(?:problemas?|problems?|issues?|perigo)\b"
            # Either-or tags: "ibuprofeno pode ou dá ruim", "pode ou não", "ok or bad idea".
            r"|\b(?:da|dar|deu)\s+ruim\b|\bbad\s+idea\b|\b(?:pode|ok|okay)\s+ou\s+nao\b|\bok\s+or\b"
            # The question word last, as Portuguese speech puts it: "atorvastatina causa o que".
            r"|\b(?:o\s+que|oq|what|qual|quais|como)\W*$")
_DOSE = _re(r"\b(?:dos(?:e|es|age|agem|ing)|posologia|\d+\s*(?:mg|ml|g)|how (?:many|much|often)|quant[oa]s?"
            r"|de quanto em quanto|forget|esquec\w*|overdose"
            # Asking for a prescription is; telling what the doctor prescribed ("meu médico receitou X") is not.
            r"|prescri(?!bed|beu|beram)\w*|receit(?!ou|aram|ad[oa])\w*)\b")
# What a drug may do to the body, said as a verb and a body function.
_EFFECT_VERB = (r"(?:tira\w*|mexe\w*|atrapalha\w*|resseca\w*|irrita\w*|baix[ao]\w*|sobe\w*|aumenta\w*|altera\w*"
                r"|afeta\w*|estraga\w*|upset\w*|mess(?:es)?|affect\w*|wreck\w*|turns?|changes?|raises?|lowers?|dr(?:y|ies)"
                r"|do(?:es)?\s+to|faz(?:\s+(?:a\s+gente|me|voce|vc))?)")
_FUNCTION = (r"(?:sono|sleep|fome|apetite|appetite|libido|sex\w*|memor\w*|vision|visao|vista|eyes?|olhos?|humor|mood"
             r"|stomach|estomago|barriga|digest\w*|pele|skin|tendons?|tendoes|potassio|potassium|sodio|sodium"
             r"|pee|urine|urina\w*|xixi|cabelo|hair|weight|peso|sugar|acucar|glicose|pressao|blood\s+pressure"
             r"|heart\s+rate|batimentos?|intestino|bowels?|dormir|engordar|emagrecer|boca|mouth|labios?|lips?"
             r"|garganta|throat|nariz|nose)\b")
_SIDE_EFFECTS = _re(r"\b(?:side[\s-]?(?:e\w*|fx)|adverse|efeitos?\s+(?:colatera\w*|advers\w*|secundari\w*|indesej\w*"
                    r"|ruins?|negativos?|nocivos?)|efeito\s+colateral|(?:unwanted|undesirable|bad|negative)\s+effects?"
                    # "quais os efeitos?", "what effects does it have", and what a drug does to the body.
                    r"|(?:quais|que)\s+(?:sao\s+)?(?:os\s+)?efeitos|what\s+effects|engorda\w*|emagrece\w*"
                    r"|weight\s+gain|gain\s+weight|hair\s+loss|queda\s+de\s+cabelo"
                    r"|(?:quais|que)\s+(?:sao\s+)?(?:os\s+)?riscos|what\s+are\s+the\s+risks"
                    r"|reac(?:ao|oes)|reactions?|cause[sd]?|causing|causa[mr]?|provoca\w*|risks?\s+of"
                    # The risks of being on it: "what risks come with taking X", "riscos em tomar X".
                    r"|risks?\s+(?:(?:that\s+)?comes?\s+with|associated\s+with|involved\s+in|in|with)\s+(?:taking|using"
                    r"|being\s+on)|riscos?\s+(?:em|ao)\s+(?:tomar|usar)"
                    # Harm in general is a side effect; harm to an organ or a condition ("faz mal pro fígado",
                    # "bad for the kidneys") asks whether it is safe for that, a safety question.
                    r"|faz\s+mal(?!\s+(?:pr[oa]s?|para|a|ao|aos|as|em|no|na)\s)"
                    r"|riscos?\s+d[aeo]|makes?\s+(?:me|you|u|ur|my|your|people|him|her|them)"
                    r"|gives?\s+(?:me|you|u|people|him|her|them)|downsides?|keeps?\s+(?:me|you|u|him|her)\s+up"
                    # A change to a body function: "tira o sono", "mess with my vision", "baixa o potássio".
                    rf"|{_EFFECT_VERB}\s+(?:\S+\s+){{0,3}}?{_FUNCTION}"
                    # A complaint put down to it: "is that from it?", "será que é por causa dele?".
                    r"|(?:is|was)\s+(?:that|this|it)\s+(?:from|because\s+of|due\s+to)\b|por\s+causa\s+d"
                    # What it can do to an organ, said with a verb: "can terbinafine hurt your liver",
                    # "pode prejudicar o fígado" (asked as "bad for"/"faz mal pro", it is a safety question).
                    r"|(?:hurt|damage|harm|injure|affect|mess\s+up)s?\s+(?:your|my|the|his|her|their)"
                    r"|(?:danific|prejudic|les|lesion|afet|atac)(?:a|ar|am)\s+(?:o|a|os|as|meu|minha|seu|sua)\s)\b")
# "a sinvastatina dá dor muscular?": what a drug gives, said right after its name.
_GIVES = _re(r"\S+\s+(?:pode\s+)?(?:da|dao|dar|deixa)\b(?!\s+(?:pra|para)\b)"
             # A symptom within a few words after the name, not as its purpose ("anlodipino incha o pé?",
             # "lisinopril cough?"; not "ibuprofeno pra dor de cabeça").
             r"|\S+(?:\s+(?!(?:pra|para|for|contra|against|treat\w*|trat\w*)\b)\S+){0,3}?\s+"
             r"(?:incha\w*|swell\w*|tontura|dizz\w*|sonolen\w*|drows\w*|sleepy|insonia|insomnia|enjoo\w*"
             r"|nause\w*|tosse|cough\w*|coceira|itch\w*|rash|diarr\w*|constipa\w*|prisao\s+de\s+ventre"
             r"|dor\s+de\s+cabeca|headaches?|dor\s+muscular|muscle\s+(?:pain|aches?))\b")
_STOP_NAMES = frozenset("""the a an it this that my your his her them these those i you he she we they and with safe
together o a os as um uma meu minha seu sua ele ela isso este esta com junto e""".split())


# A question about the score itself, not a patient's: "what is the CHA2DS2-VASc score used for", "pra que serve
# o escore HEART", "como funciona o CURB-65" (a general question, once no patient fact is read).
_ABOUT_THE_SCORE = _re(r"\b(?:used\s+for|(?:pra|para)\s+que\s+serve|serve\s+(?:pra|para)\s+(?:que|o\s+que)"
                       r"|como\s+funciona|how\s+does\s+(?:\S+\s+){1,3}?work|what\s+does\s+(?:\S+\s+){1,3}?"
                       r"(?:measure|assess|mean|predict)|o\s+que\s+(?:\S+\s+){1,3}?(?:mede|avalia|significa|preve))\b")


@dataclass(frozen=True)
class _Topic:
    """Where a guideline question's topic lies in the message."""
    start: int
    end: int
    broad: bool  # read from a cue anywhere (the whole message), not from "what do guidelines say about …"


def _names(raw: str) -> list[str]:
    parts = re.split(r"\s*(?:,|\+|\band\b|\be\b|\bwith\b|\bcom\b)\s*", raw)
    return list(dict.fromkeys(p for p in (part.strip() for part in parts) if p and p not in _STOP_NAMES))


def read(message: str) -> ToolTask:
    """The tool calls a message asks for (empty when it asks none)."""
    text = fold_latin(message)
    task = ToolTask()
    guideline = None if asks_sources(message) else _guideline(message, text)
    for score, pattern in _SCORES:
        # "HEART?" in capitals names the score; "heart" alone is an organ.
        if (named := pattern.search(text)) or (score == "heart" and re.search(r"\bHEART\b", message)):
            reading = read_score(score, _without(named, message, text))
            if not any(c.words for c in reading.read) and _ABOUT_THE_SCORE.search(text):
                break  # what the score is for, asked of no patient
            if reading.missing and guideline and named and guideline.start <= named.start() < guideline.end:
                break  # "do guidelines anticoagulate at CHA2DS2-VASc 1?": the score is the topic
            task.score, task.readings = score, reading.read
            task.missing += reading.missing
            if not reading.missing:
                task.calls.append(ToolCall(Action.COMPUTE_SCORE, reading.request))
            break
    drugs = [] if task.score else _drugs_asked(text, guideline)
    if len(drugs) >= 2:
        task.calls.append(ToolCall(Action.CHECK_INTERACTIONS,
                                   tools_pb2.CheckInteractionsRequest(drug_names=[d.name for d in drugs[:10]])))
    elif drugs:
        task.calls.append(ToolCall(Action.CHECK_DRUG_SAFETY, tools_pb2.CheckDrugSafetyRequest(drug_name=drugs[0].name),
                                   topic="side_effects" if _asks_side_effects(text, drugs[0]) else ""))
    drugs_in_pairs: set[str] = {d.name for d in drugs}
    for pattern in [] if drugs else _INTERACTION:
        if m := pattern.search(text):
            names = _names(m["names"]) if "names" in pattern.groupindex else _names(f"{m['a']}, {m['b']}")
            if len(names) >= 2:
                drugs_in_pairs.update(names)
                task.calls.append(ToolCall(Action.CHECK_INTERACTIONS,
                                           tools_pb2.CheckInteractionsRequest(drug_names=names[:10])))
                break
    for pattern in [] if drugs else _SAFETY:
        for m in pattern.finditer(text):
            name = m["name"]
            if name not in _STOP_NAMES and name not in drugs_in_pairs:
                task.calls.append(ToolCall(Action.CHECK_DRUG_SAFETY, tools_pb2.CheckDrugSafetyRequest(drug_name=name)))
    if guideline and not (task.score and guideline.broad):
        # The user's own spelling when folding kept the offsets (it does for composed text).
        query = (message if len(message) == len(text) else text)[guideline.start:guideline.end].strip()
        query = re.split(r"\s+(?:and|e)\s+(?:is|what|can|e|é|o que|qual|quais)\b", query, flags=re.I)[0]
        task.calls.append(ToolCall(Action.SEARCH_GUIDELINES, tools_pb2.SearchGuidelinesRequest(query=query, top_k=3)))
    task.calls = list({c.key: c for c in task.calls}.values())
    return task


def _without(named: re.Match[str] | None, message: str, text: str) -> str:
    """The message with the score's name blanked: the "stroke" of "stroke risk score" is no prior stroke."""
    if named is None:
        return message
    source = message if len(message) == len(text) else text
    return source[:named.start()] + " " * (named.end() - named.start()) + source[named.end():]


def _only_names(text: str, mentions: list[Mention]) -> bool:
    """Two or more drug names and nothing else but words joining them."""
    if len(mentions) < 2:
        return False
    rest = text
    for m in mentions:
        name = re.match(r"\S+", text[m.start:])
        rest = rest[:m.start] + " " * (name.end() if name else 0) + rest[m.start + (name.end() if name else 0):]
    return re.fullmatch(r"(?:\W|\b(?:com|with|and|e|x|vs|versus|mais|plus|junto|together)\b)*", rest) is not None


def _asks_side_effects(text: str, drug: Mention) -> bool:
    return bool(_SIDE_EFFECTS.search(text) or _GIVES.match(text, drug.start))


def _guideline(message: str, text: str) -> _Topic | None:
    """Where a guideline question's topic is: the words after "what do guidelines say about" when asked
    so, else the whole message when it reads as one (guideline_questions.py)."""
    if m := next((m for p in _GUIDELINE if (m := p.search(text))), None):
        return _Topic(m.start("q"), m.end("q"), broad=False)
    if asks_guideline(message, text):
        return _Topic(0, len(text), broad=True)
    return None


def _drugs_asked(text: str, guideline: _Topic | None) -> list[Mention]:
    """The knowledge base's drugs a question asks about (none in a guideline's topic, none when an
    amount is asked)."""
    if _DOSE.search(text):
        return []
    mentions = drug_names().find(text)
    # "o metoprolol deixa a pessoa cansada": what a drug does, said plainly, asks about it; so does a bare
    # pair ("viagra com nitroglicerina").
    if not _ASKS.search(text) and not any(_GIVES.match(text, m.start) for m in mentions) \
            and not _only_names(text, mentions):
        return []
    if guideline is not None:
        mentions = [m for m in mentions if not guideline.start <= m.start < guideline.end]
    return mentions
