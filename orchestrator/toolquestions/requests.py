"""Deterministic reading of tool questions: risk scores, drug safety, drug interactions and
guideline questions, in Portuguese and English. Code extracts the arguments; whatever a score
needs and the message does not say is reported as missing, so the user is asked, never guessed.

One message may ask several things ("is warfarin safe with ibuprofen, and what do guidelines
say about anticoagulation in AF?"); each becomes one call, in the order asked.
"""

import re
from dataclasses import dataclass, field

from google.protobuf.message import Message

from healthmesh.v1 import tools_pb2
from orchestrator.planning.steps import Action
from orchestrator.toolquestions.criteria import Criterion
from orchestrator.toolquestions.score_reader import read_score
from runtime.text.fold import fold_latin


@dataclass(frozen=True)
class ToolCall:
    action: Action
    request: Message

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

_SCORES = (
    ("cha2ds2_vasc", _re(r"\bcha2?ds2?[- ]?vasc\b|\bchads[- ]?vasc\b")),
    ("heart", _re(r"\bheart\s+(?:score|escore|risk\s+score)\b|\b(?:escore|score)\s+heart\b")),
    ("wells_pe", _re(r"\bwells\b")),
    ("curb65", _re(r"\bcurb[- ]?65\b")),
    ("qsofa", _re(r"\bq[- ]?sofa\b")),
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
_GUIDELINE = (
    _re(r"\b(?:what do|what does|what do the|o que (?:as|a))\s*(?:the\s+)?(?:current\s+)?(?:guidelines?|diretrizes?)"
        r"\s+(?:say|recommend|dizem|diz|recomendam|recomenda)\s+(?:about|on|for|sobre|para|em)\s+(?P<q>[^?.;]+)"),
    _re(r"\b(?:guidelines?|diretrizes?|recommendations?|recomendacoes|recomendacao)\s+(?:on|for|about|sobre|para|de)\s+(?P<q>[^?.;]+)"),
)
_STOP_NAMES = frozenset("""the a an it this that my your his her them these those i you he she we they and with safe
together o a os as um uma meu minha seu sua ele ela isso este esta com junto e""".split())


def _names(raw: str) -> list[str]:
    parts = re.split(r"\s*(?:,|\+|\band\b|\be\b|\bwith\b|\bcom\b)\s*", raw)
    return list(dict.fromkeys(p for p in (part.strip() for part in parts) if p and p not in _STOP_NAMES))


def read(message: str) -> ToolTask:
    """The tool calls a message asks for (empty when it asks none)."""
    text = fold_latin(message)
    task = ToolTask()
    for score, pattern in _SCORES:
        # "HEART?" in capitals names the score; "heart" alone is an organ.
        if pattern.search(text) or (score == "heart" and re.search(r"\bHEART\b", message)):
            reading = read_score(score, message)
            task.score, task.readings = score, reading.read
            task.missing += reading.missing
            if not reading.missing:
                task.calls.append(ToolCall(Action.COMPUTE_SCORE, reading.request))
            break
    drugs_in_pairs: set[str] = set()
    for pattern in _INTERACTION:
        if m := pattern.search(text):
            names = _names(m["names"]) if "names" in pattern.groupindex else _names(f"{m['a']}, {m['b']}")
            if len(names) >= 2:
                drugs_in_pairs.update(names)
                task.calls.append(ToolCall(Action.CHECK_INTERACTIONS,
                                           tools_pb2.CheckInteractionsRequest(drug_names=names[:10])))
                break
    for pattern in _SAFETY:
        for m in pattern.finditer(text):
            name = m["name"]
            if name not in _STOP_NAMES and name not in drugs_in_pairs:
                task.calls.append(ToolCall(Action.CHECK_DRUG_SAFETY, tools_pb2.CheckDrugSafetyRequest(drug_name=name)))
    for pattern in _GUIDELINE:
        if m := pattern.search(text):
            # The user's own spelling when folding kept the offsets (it does for composed text).
            query = (message if len(message) == len(text) else text)[m.start("q"):m.end("q")].strip()
            query = re.split(r"\s+(?:and|e)\s+(?:is|what|can|e|é|o que|qual|quais)\b", query, flags=re.I)[0]
            task.calls.append(ToolCall(Action.SEARCH_GUIDELINES, tools_pb2.SearchGuidelinesRequest(query=query, top_k=3)))
            break
    task.calls = list({c.key: c for c in task.calls}.values())
    return task
