"""History facts from a patient's own words, in Portuguese or English: onset, provocation, quality,
region, severity and timing (the OPQRST questions), plus age and pregnancy.

Deterministic and fast: precompiled regular expressions over folded text (`fold_latin` keeps the
length, so every span maps back to the patient's original spelling, which is what a field holds).
A cue right after a negation in the same clause ("not itchy", "não estou grávida") does not count
(see `negation`).

A reply that is only a number answers the question it fits: 0 to 10 is a severity, 11 to 120 an age.
"""

import re
from dataclasses import dataclass, fields, replace

from orchestrator.consult.negation import language_of, negated
from orchestrator.consult.onset import SPAN, find_onset
from runtime.text.fold import fold_latin

FIELDS = ("onset", "provocation", "quality", "region", "severity", "timing")

_LABELS = {
    "en": {"onset": "Onset", "provocation": "Provocation/palliation", "quality": "Quality",
           "region": "Region", "severity": "Severity", "timing": "Timing"},
    "pt": {"onset": "Início", "provocation": "Fatores de piora/melhora", "quality": "Característica",
           "region": "Local", "severity": "Intensidade", "timing": "Padrão temporal"},
}


@dataclass(frozen=True)
class History:
    onset: str | None = None  # the phrase as written: "2 weeks", "há 3 dias", "since yesterday"
    provocation: str | None = None  # "worse when climbing stairs", "piora ao deitar"
    quality: str | None = None  # up to three descriptors: "itchy, scaly"
    region: str | None = None  # "left forearm", "joelho direito"
    severity: int | None = None  # 0 to 10
    timing: str | None = None  # "at night", "comes and goes", "de manhã"
    age: int | None = None
    pregnant: bool = False

    def missing(self) -> tuple[str, ...]:
        """The OPQRST fields not found yet, in FIELDS order."""
        return tuple(name for name in FIELDS if getattr(self, name) is None)

    def merged(self, other: "History") -> "History":
        """This history with `other`'s facts filling its gaps; a later answer never erases an earlier one."""
        filled = {f.name: getattr(other, f.name) for f in fields(self)
                  if f.name != "pregnant" and getattr(self, f.name) is None}
        return replace(self, **filled, pregnant=self.pregnant or other.pregnant)

    def lines(self, language: str) -> list[str]:
        """"Onset: 2 weeks" / "Início: há 2 semanas", one per field found, in FIELDS order."""
        labels = _LABELS["pt" if language == "pt" else "en"]
        values = {name: getattr(self, name) for name in FIELDS}
        if self.severity is not None:
            values["severity"] = f"{self.severity}/10"
        return [f"{labels[name]}: {value}" for name, value in values.items() if value is not None]


def _compile(*fragments: str) -> re.Pattern[str]:
    return re.compile(r"(?<![\w'])(?:" + "|".join(fragments) + r")(?![\w'])")


# --- provocation ---------------------------------------------------------------------------------------

# A clause: up to the next punctuation or conjunction.
_CLAUSE = r"[^,.;!?\n]{1,60}?(?=\s+(?:and|but|so|e|mas|porem|entao)\s|\s*[,.;!?\n]|\s*$)"
# "worse at night", "piora de manhã" say when (timing), not what provokes it.
_NOT_A_TIME = r"(?!(?:the\s+)?(?:night|noite|mornings?|manha|evenings?|afternoons?|tarde|madrugada)\b)"
_CLAUSE_REST = r"[^,.;!?\n]{0,40}?(?=\s+(?:and|but|so|e|mas|porem|entao)\s|\s*[,.;!?\n]|\s*$)"
_SUBJECT = r"(?:(?!(?:and|but|e|mas)\s)[\w']+\s+){1,3}?"
_PROVOCATION = re.compile(
    r"(?<![\w'])(?P<p>"
    r"(?:(?:gets?|getting|is|feels?|becomes?|goes|much|even|a\s+lot|way)\s+)?(?:worse|better|worst)"
    r"\s+(?:when|with|after|if|on|by|during|while|at|in|from|whenever|before)\s+" + _NOT_A_TIME + _CLAUSE +
    r"|(?:worsens?|worsening|improves?|improving|eases?|hurts?\s+more|aches?\s+more|itch(?:es)?\s+more|"
    r"flares?\s+(?:up\s+)?|is\s+relieved|relieved|aggravated|triggered|brought\s+on|helped|goes\s+away|"
    r"hurts?|aches?|itch(?:es)?|stings?|burns?|throbs?)\s+(?:when|with|after|before|if|by|during|while|whenever|"
    r"every\s+time)\s+" + _CLAUSE +
    r"|" + _SUBJECT + r"(?:makes?|made)\s+(?:it|them|the\s+\w+|things)\s+(?:worse|better)"
    r"|(?:rest|resting|ice|heat|painkillers?|ibuprofen|paracetamol|tylenol|stretching|moving|cream|"
    r"moisturi[sz]er|sitting(?:\s+down)?|lying\s+down|nothing|medication)\s+(?:helps?|helped|relieves?|"
    r"eases?|seems\s+to\s+help|(?:makes?|made)\s+it\s+(?:worse|better))"
    r"|(?:piora|melhora|pioram|melhoram|aumenta|alivia|aliviam|passa|diminui|fica\s+pior|fica\s+melhor|"
    r"doi\s+mais|coca\s+mais|arde\s+mais|agrava|piorando|melhorando|doi|coca|arde|lateja|incha)\s+"
    r"(?:quando|com|ao|aos|a|depois\s+d[eoa]s?|antes\s+d[eoa]s?|apos|se|no|na|nos|nas|em|durante|de|pela|"
    r"pelo|enquanto|"
    r"sempre\s+que|toda\s+vez\s+que)\s+" + _NOT_A_TIME + _CLAUSE +
    r"|(?:(?:com|o|a)\s+)?(?:repouso|gelo|descanso|calor|compressa|remedio|analgesico|pomada|creme|"
    r"alongamento|nada|dipirona|paracetamol|ibuprofeno)\s+(?:melhora|ajuda|alivia|resolve|piora|passa)"
    # An activity that brings it on: "tightness when I walk uphill", "dor ao subir escada".
    r"|(?:when|whenever|every\s+time|while|after)\s+i(?:'m)?\s+(?:walk|climb|run|exercis|lift|bend|sit|stand|"
    r"lie|lay|move|eat|breath|cough|press|touch|kneel|squat|twist|turn|type|play|work|carry|shower|"
    r"go\s+(?:up|down))\w*" + _CLAUSE_REST +
    r"|(?:quando|sempre\s+que)\s+(?:eu\s+)?(?:ando|subo|desco|corro|caminho|deito|levanto|abaixo|sento|"
    r"respiro|tusso|como|aperto|mexo|dobro|agacho|ajoelho|carrego|pego|fico|faco)" + _CLAUSE_REST +
    r"|ao\s+(?:subir|descer|andar|caminhar|correr|deitar|levantar|abaixar|sentar|respirar|tossir|comer|"
    r"apertar|mexer|dobrar|agachar|ajoelhar|carregar|pegar|pisar|virar)" + _CLAUSE_REST +
    r")"
)


def _provocation(original: str, folded: str, language: str) -> str | None:
    for match in _PROVOCATION.finditer(folded):
        if not negated(folded, match.start(), language):
            return original[match.start("p"):match.end("p")].strip()
    return None


# --- quality, region, timing ---------------------------------------------------------------------------

_QUALITY = _compile(
    r"sharp", r"stabbing", r"shooting", r"dull", r"aching", r"achy", r"burning", r"throbbing", r"pulsating",
    r"pulsing", r"pounding", r"squeezing", r"crushing", r"tight(?:ness)?", r"heaviness", r"cramp(?:ing|y|s)?",
    r"itchy", r"itching", r"itches", r"scaly", r"flaky", r"peeling", r"dry", r"cracked", r"red", r"raised",
    r"bumpy", r"blistering", r"oozing", r"weeping", r"crusty", r"swollen", r"stiff", r"tender", r"tingling",
    r"numb", r"electric", r"fluttering", r"racing", r"skipping", r"irregular", r"stinging", r"raw",
    r"pressure(?=\s+(?:in|on)\s+(?:my|the)\s+chest)", r"(?<=chest\s)pressure", r"pressure-like",
    r"pontadas?", r"fisgadas?", r"aguda", r"(?:em\s+)?facada", r"surda", r"queimacao", r"queimando",
    r"ardencia", r"ardendo", r"arde", r"latejante", r"latejando", r"lateja", r"pulsatil", r"pulsando",
    r"aperto", r"sensacao\s+de\s+peso", r"peso(?=\s+n[oa]s?\s+(?:peito|pernas?))", r"sensacao\s+de\s+pressao",
    r"coceira", r"cocando", r"coca", r"comichao", r"descamacao", r"descamando", r"descascando", r"seca",
    r"ressecad[ao]", r"rachad[ao]", r"vermelh(?:[ao]s?|idao)", r"elevad[ao]", r"com\s+pus", r"purulent[ao]",
    r"crostas?", r"inchad[ao]s?", r"inchaco", r"rigid(?:[ao]|ez)", r"travad[ao]", r"sensivel", r"dolorid[ao]",
    r"formigamento", r"formigando", r"dormencia", r"dormente", r"(?:tipo\s+)?choque", r"acelerado",
    r"disparado", r"descompassado", r"colica", r"caibra",
)
_SIDE_EN = r"(?:(?:left|right|lower|upper|both|inner|outer)\s+)?"
_SIDE_PT = (r"(?:\s+(?:direit[oa]s?|esquerd[oa]s?|(?:do\s+)?lado\s+(?:direito|esquerdo)"
            r"|d[oa]s?\s+dois\s+lados|superior|inferior))?")
_REGION = _compile(
    r"(?:lower|upper|mid(?:dle)?)\s+back", r"(?<=my\s)back", r"(?<=the\s)back(?!\s+of)",
    r"back(?=\s+(?:pain|ache|hurts|spasms?))", r"backache",
    _SIDE_EN + r"(?:head|scalp|forehead|face|cheeks?|jaw|chin|nose|ears?|eyes?|eyelids?|lips?|mouth|neck|"
    r"throat|shoulders?|armpits?|upper\s+arms?|arms?|elbows?|forearms?|wrists?|hands?|palms?|fingers?|thumbs?|"
    r"knuckles?|nails?|chest|breasts?|ribs?|stomach|belly|abdomen|tummy|waist|hips?|groin|buttocks?|thighs?|"
    r"knees?|legs?|shins?|calf|calves|ankles?|feet|foot|heels?|toes?|soles?|spine|tailbone|torso)",
    r"(?:(?:couro\s+cabeludo|cabeca|testa|rosto|bochechas?|mandibula|queixo|nariz|orelhas?|olhos?|palpebras?|"
    r"labios?|boca|pescoco|nuca|garganta|ombros?|axilas?|bracos?|cotovelos?|antebracos?|punhos?|maos?|"
    r"palmas?|dedos?|polegar|unhas?|peito|torax|mamas?|seios?|costelas?|barriga|abdome[nm]?|estomago|costas|"
    r"(?:regiao\s+)?lombar|coluna|cintura|quadril|virilha|nadegas?|bumbum|coxas?|joelhos?|pernas?|canelas?|"
    r"panturrilhas?|batata\s+da\s+perna|tornozelos?|calcanhar(?:es)?|dedao|planta\s+do\s+pe)"
    r"|(?<=n[oa]\s)pulso|(?<=d[oa]\s)pulso|(?<=n[oa]s\s)pes|(?<=n[oa]\s)pe|(?<=d[oa]\s)pes?|(?<=d[oa]s\s)pes"
    r"|(?<=meu\s)pe"
    r"|(?<=meus\s)pes)" + _SIDE_PT,
)
_REGION_GENERIC = _compile(
    r"all\s+over(?:\s+my\s+body)?", r"(?:whole|entire)\s+body", r"skin", r"corpo\s+(?:todo|inteiro)",
    r"(?:pelo|no)\s+corpo(?:\s+(?:todo|inteiro))?", r"pele",
)
_TIMING = _compile(
    r"constant(?:ly)?", r"all\s+the\s+time", r"all\s+day(?:\s+long)?", r"continuous(?:ly)?", r"non-?stop",
    r"comes\s+and\s+goes", r"on\s+and\s+off", r"off\s+and\s+on", r"intermittent(?:ly)?", r"sometimes",
    r"now\s+and\s+then", r"every\s+(?:day|night|morning|evening|few\s+(?:days|hours|weeks))", r"daily",
    r"(?:at|during\s+the)\s+night(?:time)?", r"at\s+nighttime", r"overnight",
    r"in\s+the\s+(?:morning|evening|afternoon)s?", r"mornings", r"when\s+i\s+wake\s+up", r"on\s+waking",
    r"after\s+(?:meals|eating)", r"on\s+exertion", r"at\s+rest", r"(?:in\s+)?(?:episodes|attacks|bouts)",
    r"(?:once|twice|\d+\s+times)\s+(?:a|per)\s+(?:day|week|month)", r"random(?:ly)?",
    r"constante(?:mente)?", r"o\s+tempo\s+todo", r"o\s+dia\s+(?:todo|inteiro)", r"sem\s+parar",
    r"continu[ao]", r"vai\s+e\s+volta", r"vem\s+e\s+vai", r"(?:aparece|some)\s+e\s+(?:some|volta|aparece)",
    r"as\s+vezes", r"de\s+vez\s+em\s+quando", r"intermitente", r"(?:a|de|durante\s+a)\s+noite",
    r"(?:de|a)\s+madrugada", r"(?:de|pela)\s+manha", r"(?:a|de)\s+tarde", r"ao\s+acordar", r"quando\s+acordo",
    r"aos?\s+esforcos?", r"em\s+repouso", r"depois\s+(?:de|das)\s+(?:comer|refeicoes)",
    r"apos\s+(?:as\s+)?refeicoes", r"todo\s+dia", r"todos\s+os\s+dias", r"toda\s+(?:noite|manha)",
    r"diariamente", r"(?:em\s+)?crises",
    r"(?:uma|duas|tres|\d+)\s+vez(?:es)?\s+(?:por|na|ao)\s+(?:dia|semana|mes)",
)


def _phrases(pattern: re.Pattern[str], original: str, folded: str, language: str, limit: int) -> str | None:
    """Up to `limit` distinct non-negated matches, in text order, as written."""
    found: list[str] = []
    for match in pattern.finditer(folded):
        phrase = original[match.start():match.end()]
        if not negated(folded, match.start(), language) and phrase.lower() not in (f.lower() for f in found):
            found.append(phrase)
            if len(found) == limit:
                break
    return ", ".join(found) or None


def _region(original: str, folded: str, language: str) -> str | None:
    return (_phrases(_REGION, original, folded, language, 1)
            or _phrases(_REGION_GENERIC, original, folded, language, 1))


# --- severity, age, pregnancy --------------------------------------------------------------------------

_SEVERITY_NUMBER = (
    # Not a date ("desde 7/10") nor a span ("2 em 10 dias").
    re.compile(r"(?<![\w/.])(?<!em\s)(?<!on\s)(?<!dia\s)(?<!day\s)(?<!desde\s)(?<!since\s)"
               r"(?P<n>\d{1,2}(?:[.,]5)?)\s*(?:/|out\s+of|de|em|over|sobre)\s*10"
               r"(?![\d/]|\s*(?:dias?|days?|semanas?|weeks?|anos?|years?|meses|months?|horas?|hours?)\b)"),
    re.compile(r"(?<![\w'])(?:nota|grau|level|nivel|score|severity|intensidade|rate\s+it|rated\s+it|daria|"
               r"dou)\s+(?:(?:a|an|um|uma|of|de|is|e|about|around|like|at|as|:)\s+){0,2}(?P<n>\d{1,2})"
               r"(?![\d/:.,]\d|\s*(?:%|[a-z]))"),
    re.compile(r"(?<![\w'])(?:(?:it'?s|it\s+is|i'?d\s+say|say|e|tipo|uns)\s+(?:(?:about|around|like)\s+)?"
               r"(?:a\s+|um\s+)?|(?:about|around|like)\s+a\s+)"
               r"(?P<n>\d{1,2})(?=\s*(?:$|[,;!?)\n]|\.(?!\d)|(?:and|e|but|mas)\s))"),
)
_SEVERITY_WORDS = (
    (9, _compile(r"unbearable", r"excruciating", r"worst\s+pain", r"agoni[sz]ing", r"insuportave(?:l|is)",
                 r"pior\s+dor")),
    (8, _compile(r"severe", r"strong(?!\s+(?:heart|beat|smell|pulse))", r"intense",
                 r"(?:really|very|so)\s+bad",
                 r"awful", r"(?<!batendo\s)(?<!bate\s)(?<!batimento\s)fortes?", r"muito\s+forte",
                 r"intens[ao]s?", r"muito\s+ruim", r"horrivel", r"terrivel", r"terrible")),
    (5, _compile(r"moderate", r"moderad[ao]", r"medium", r"media", r"mediana", r"razoavel")),
    (3, _compile(r"mild", r"slight", r"minor", r"leves?", r"(?<=dor\s)fraca", r"fraquinha", r"pouca\s+dor",
                 r"not\s+(?:too|that|very|so)\s+bad", r"nada\s+demais", r"bearable", r"suportavel")),
)
_ONLY_A_NUMBER = re.compile(r"^\W*(?P<n>\d{1,3})\W*$")


def _severity(folded: str, language: str) -> int | None:
    for pattern in _SEVERITY_NUMBER:
        for match in pattern.finditer(folded):
            value = float(match["n"].replace(",", "."))
            if value <= 10:
                return int(value + 0.5)
    levels = [level for level, pattern in _SEVERITY_WORDS
              if any(not negated(folded, m.start(), language) for m in pattern.finditer(folded))]
    return max(levels, default=None)


_NOT_YEARS = (r"(?![\d/:.,%]\d|\s*(?:weeks?|wks?|days?|months?|hours?|minutes?|semanas?|dias?|meses|horas?|"
              r"kg|lbs?|pounds?|cm|ft|feet|foot|times|x\b|th\b|st\b|nd\b|rd\b|am\b|pm\b|h\b|%|/|out\s+of))")
_AGE = (
    re.compile(r"(?<!\w)(?P<a>\d{1,3})\s*-?\s*(?:years?|yrs?|y)\s*-?\s*old(?!\w)"
               r"|(?<!\w)(?P<b>\d{1,3})\s*(?:y/?o|y\.o\.)(?!\w)"),
    re.compile(rf"(?<![\w'])(?:i'?m|i\s+am)\s+(?:a\s+|only\s+)?(?P<a>\d{{1,3}})(?!\d){_NOT_YEARS}"),
    re.compile(r"(?<![\w'])(?:aged?|age:|idade:?)\s*(?P<a>\d{1,3})(?!\d)"),
    re.compile(r"(?<![\w'])(?:tenho|com|(?:homem|mulher|rapaz|moca|menin[oa]|paciente|senhora?|garot[oa]|jovem|"
               r"idos[oa]|adolescente|estudante)\s+de)\s+(?P<a>\d{1,3})\s+anos(?!\s+de\s+(?!idade))(?!\w)"
               r"|(?<![\w'])tenho\s+(?P<b>\d{1,3})(?=\s*(?:$|[,;.!?\n]|e\s|and\s))"
               r"|(?<!\w)(?P<c>\d{1,3})\s+anos\s+de\s+idade(?!\w)"),
    re.compile(r"^\W*(?P<a>\d{1,3})\s+(?:anos|years(?:\s+old)?)\W*$"),
)
_PREGNANT = _compile(
    r"pregnan(?:t|cy)", r"expecting\s+a\s+baby", r"gravid[ao]", r"gravidez", r"gestante", r"gestacao",
    r"esperando\s+(?:um\s+)?bebe",
)
_PREGNANCY_WEEKS = re.compile(
    rf"(?<!\w)(?:{SPAN})\s+(?:pregnant|of\s+pregnancy|de\s+(?:gestacao|gravidez))(?!\w)"
    rf"|(?<!\w)(?:gravida|gestante)\s+de\s+(?:{SPAN})(?!\w)"
)


def _age(folded: str) -> tuple[int | None, re.Match[str] | None]:
    for pattern in _AGE:
        for match in pattern.finditer(folded):
            value = int(next(v for v in match.groupdict().values() if v))
            if value <= 120:
                return value, match
    return None, None


def _blank(text: str, match: re.Match[str] | None) -> str:
    if match is None:
        return text
    return text[:match.start()] + " " * (match.end() - match.start()) + text[match.end():]


def extract(text: str) -> History:
    folded = fold_latin(text)
    language = language_of(text, folded)
    if (only := _ONLY_A_NUMBER.match(folded)) and int(only["n"]) <= 10:
        return History(severity=int(only["n"]))
    if only and int(only["n"]) <= 120:
        return History(age=int(only["n"]))
    age, age_match = _age(folded)
    # Neither an age nor "20 weeks pregnant" is an onset.
    for_onset = _blank(folded, age_match)
    for weeks in _PREGNANCY_WEEKS.finditer(for_onset):
        for_onset = _blank(for_onset, weeks)
    return History(
        onset=find_onset(text, for_onset),
        provocation=_provocation(text, folded, language),
        quality=_phrases(_QUALITY, text, folded, language, 3),
        region=_region(text, folded, language),
        severity=_severity(folded, language),
        timing=_phrases(_TIMING, text, folded, language, 2),
        age=age,
        pregnant=any(not negated(folded, m.start(), language) for m in _PREGNANT.finditer(folded)),
    )
