"""Deterministic answers from tool results: clinician-facing reports with numbered citations.

Every statement comes from a tool result and cites its source as [n], listed under the answer;
the same lines go to the verifier as evidence facts, so R1 accepts a dose or treatment only
when the knowledge base stated it. Failed tools are named by their report label, never by an
internal tool name or a raw error.
"""

from dataclasses import dataclass, field

from healthmesh.v1 import orchestrator_pb2, tools_pb2
from orchestrator.answering.phrases import say
from orchestrator.planning.steps import Action, StepStatus
from orchestrator.toolquestions.criteria import Criterion
from orchestrator.toolquestions.loop import Ask, LoopResult

LABEL = {
    "en": {Action.COMPUTE_SCORE: "Risk Score Report", Action.CHECK_DRUG_SAFETY: "Drug Safety Report",
           Action.CHECK_INTERACTIONS: "Drug Interaction Report",
           Action.SEARCH_GUIDELINES: "Guideline Evidence summary"},
    "pt": {Action.COMPUTE_SCORE: "Relatório de Escore de Risco",
           Action.CHECK_DRUG_SAFETY: "Relatório de Segurança do Medicamento",
           Action.CHECK_INTERACTIONS: "Relatório de Interações Medicamentosas",
           Action.SEARCH_GUIDELINES: "resumo de Evidência de Diretrizes"},
}
TIER = {
    "en": {tools_pb2.RISK_TIER_LOW: "low risk", tools_pb2.RISK_TIER_MODERATE: "moderate risk",
           tools_pb2.RISK_TIER_HIGH: "high risk"},
    "pt": {tools_pb2.RISK_TIER_LOW: "risco baixo", tools_pb2.RISK_TIER_MODERATE: "risco moderado",
           tools_pb2.RISK_TIER_HIGH: "risco alto"},
}
SEVERITY = {
    "en": {tools_pb2.INTERACTION_SEVERITY_MINOR: "minor", tools_pb2.INTERACTION_SEVERITY_MODERATE: "moderate",
           tools_pb2.INTERACTION_SEVERITY_MAJOR: "MAJOR",
           tools_pb2.INTERACTION_SEVERITY_CONTRAINDICATED: "CONTRAINDICATED"},
    "pt": {tools_pb2.INTERACTION_SEVERITY_MINOR: "leve", tools_pb2.INTERACTION_SEVERITY_MODERATE: "moderada",
           tools_pb2.INTERACTION_SEVERITY_MAJOR: "GRAVE",
           tools_pb2.INTERACTION_SEVERITY_CONTRAINDICATED: "CONTRAINDICADA"},
}
SCORE_FIELD = {
    "en": {"age": "age", "sex": "sex", "history": "history (slightly, moderately or highly suspicious)",
           "ecg": "ECG (normal, non-specific repolarization or ST deviation)",
           "troponin": "troponin (normal, 1-3x or >3x the normal limit)", "urea_mmol_per_l": "urea (mmol/L)",
           "respiratory_rate": "respiratory rate", "blood_pressure": "blood pressure (e.g. BP 120/80)",
           "systolic_bp": "systolic blood pressure"},
    "pt": {"age": "idade", "sex": "sexo", "history": "história (pouco, moderadamente ou muito suspeita)",
           "ecg": "ECG (normal, repolarização inespecífica ou desnivelamento de ST)",
           "troponin": "troponina (normal, 1-3x ou >3x o limite)",
           "urea_mmol_per_l": "ureia (mmol/L)",
           "respiratory_rate": "frequência respiratória",
           "blood_pressure": "pressão arterial (ex.: PA 120/80)",
           "systolic_bp": "pressão sistólica"},
}
_HEADINGS = ("boxed_warnings", "contraindications", "major_cautions", "sources", "quoted_english")
SCORE_NAME = {"heart": "HEART score", "cha2ds2_vasc": "CHA2DS2-VASc", "wells_pe": "Wells score (PE)",
              "curb65": "CURB-65", "qsofa": "qSOFA"}


@dataclass
class Report:
    text: str
    disposition: str
    facts: list[str] = field(default_factory=list)
    citations: list[orchestrator_pb2.Citation] = field(default_factory=list)
    objective: list[str] = field(default_factory=list)  # one PHI-free line per result, for a SOAP packet


class _Writer:
    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.lines: list[str] = []
        self.facts: list[str] = []
        self.citations: list[orchestrator_pb2.Citation] = []
        self.objective: list[str] = []

    def cite(self, source: str, section: str, reference: str) -> str:
        self.facts += [source, section]
        for c in self.citations:
            if (c.source, c.section, c.reference) == (source, section, reference):
                return f"[{c.index}]"
        index = len(self.citations) + 1
        self.citations.append(orchestrator_pb2.Citation(index=index, source=source, section=section,
                                                        reference=reference))
        return f"[{index}]"

    def fact(self, text: str) -> str:
        self.facts.append(text)
        return text

    # -- one section per tool result -----------------------------------------------------------

    def score(self, r: tools_pb2.ComputeRiskScoreResponse, readings: list[Criterion]) -> None:
        self.facts += [r.score_name, *(c.name for c in r.components)]
        ref = self.cite(r.source, r.score_name, r.score_name)
        points = ", ".join(f"{c.name} {_num(c.points)}" for c in r.components)
        head = say(self.lang, "report_score", name=r.score_name, score=_num(r.score), max=_num(r.max_score),
                   tier=TIER[self.lang].get(r.risk_tier, "?"))
        self.lines += [f"{head} {ref}", say(self.lang, "components", components=points)]
        if readings:  # what was read from the message, so a clinician can check it
            read = "; ".join(f"{c.name} {c.value}" + (f' ("{c.words}")' if c.words else "") for c in readings)
            self.lines.append(say(self.lang, "score_read", read=self.fact(read)))
        self.lines.append(say(self.lang, "interpretation", text=self.fact(r.interpretation)))
        if r.convention:
            self.lines.append(say(self.lang, "convention", text=self.fact(r.convention)))
        self.objective.append(f"{r.score_name}: {_num(r.score)}/{_num(r.max_score)} "
                              f"({TIER['en'].get(r.risk_tier, '?')})")

    def safety(self, r: tools_pb2.CheckDrugSafetyResponse) -> None:
        self.facts += [r.generic_name, r.drug_class, *r.brand_names]
        details = [say(self.lang, "drug_class", drug_class=r.drug_class)] if r.drug_class else []
        if r.brand_names:
            details.append(say(self.lang, "brands", brands=", ".join(r.brand_names)))
        self.lines.append(say(self.lang, "report_safety", drug=r.generic_name, details="; ".join(details)))
        if not r.label_facts:  # known by name and class only: say so, never "no boxed warning"
            self.lines.append(say(self.lang, "no_label_facts"))
            self.objective.append(f"Drug safety checked: {r.generic_name} (no label facts)")
            return
        for key, items in (("boxed_warnings", r.boxed_warnings), ("contraindications", r.contraindications),
                           ("major_cautions", r.major_cautions)):
            if not items:
                if key == "boxed_warnings":
                    self.lines.append(say(self.lang, "no_boxed_warning"))
                continue
            self.lines.append(say(self.lang, key))
            self.lines += [f"- {self.fact(i.text)} {self.cite(i.source, i.section, r.generic_name)}"
                           for i in items]
        self.objective.append(f"Drug safety checked: {r.generic_name}")

    def interactions(self, r: tools_pb2.CheckInteractionsResponse) -> None:
        self.facts += r.generic_names
        self.lines.append(say(self.lang, "report_interactions", drugs=", ".join(r.generic_names)))
        for i in r.interactions:
            ref = self.cite(i.source, f"{i.drug_a} + {i.drug_b}", f"{i.drug_a}+{i.drug_b}")
            line = say(self.lang, "interaction_line", a=i.drug_a, b=i.drug_b,
                       severity=SEVERITY[self.lang].get(i.severity, "?"), mechanism=self.fact(i.mechanism),
                       management=self.fact(i.management))
            self.lines.append(f"{line} {ref}")
        if not r.interactions:
            self.lines.append(say(self.lang, "no_interaction"))
        self.objective.append(f"Interactions checked: {', '.join(r.generic_names)} "
                              f"({len(r.interactions)} found)")

    def guidelines(self, query: str, r: tools_pb2.SearchGuidelinesResponse) -> None:
        self.facts.append(query)
        self.lines.append(say(self.lang, "report_guidelines", query=query, confidence=f"{r.confidence:.2f}"))
        if r.passages and self.lang != "en":  # the knowledge base is in English: quoted as such
            self.lines.append(say(self.lang, "quoted_english"))
        for p in r.passages:
            snippet = self.fact(p.snippet) if self.lang == "en" else f"“{self.fact(p.snippet)}”"
            self.lines.append(f"- {snippet} {self.cite(p.source, p.section, p.chunk_id)}")
        for c in r.conflicts:
            self.lines.append(say(self.lang, "conflict", topic=c.topic, note=self.fact(c.note)))
        if not r.passages:
            self.lines.append(say(self.lang, "no_passage"))


def tool_report(loop: LoopResult, lang: str, readings: list[Criterion] = ()) -> Report:
    """The answer to a tool question from the loop's results."""
    if loop.ask is not None:
        return Report(_ask_text(loop.ask, lang), "needs_info")
    w = _Writer(lang)
    # The report's own headings are not people's names, for the privacy rule.
    w.facts += [*LABEL[lang].values(), *(say(lang, key) for key in _HEADINGS)]
    failed = []
    for result in loop.results:
        if result.status != StepStatus.OK:
            failed.append(result)
            continue
        if w.lines:
            w.lines.append("")
        action, reply = result.step.action, result.reply
        if action == Action.COMPUTE_SCORE:
            w.score(reply, list(readings))
        elif action == Action.CHECK_DRUG_SAFETY:
            w.safety(reply)
        elif action == Action.CHECK_INTERACTIONS:
            w.interactions(reply)
        else:
            w.guidelines(result.step.request.query, reply)
    lines = list(w.lines)
    lines += [say(lang, "tool_failed", label=LABEL[lang][r.step.action]) for r in failed]
    if loop.dropped:
        lines.append(say(lang, "tool_skipped", n=loop.dropped))
    if w.lines:
        lines.append(say(lang, "for_clinicians"))
    if w.citations:
        lines += ["", say(lang, "sources")]
        lines += [f"[{c.index}] {c.source} — {c.section}" for c in w.citations]
    disposition = "partial" if failed or loop.dropped else "answered"
    return Report("\n".join(lines), disposition, w.facts, w.citations, w.objective)


def missing_inputs(score: str, missing: list[str], lang: str) -> str:
    fields = [SCORE_FIELD[lang].get(m.split(".", 1)[1], m) for m in missing]
    return say(lang, "ask_score_inputs", name=SCORE_NAME.get(score, score), fields=", ".join(fields))


def _ask_text(ask: Ask, lang: str) -> str:
    if ask.kind == "unknown_drug":
        options = say(lang, "did_you_mean", options=", ".join(ask.suggestions)) if ask.suggestions else ""
        return say(lang, "ask_drug", name=ask.subject, suggestions=options)
    return say(lang, "ask_tool_input", field=ask.subject)


def _num(value: float) -> str:
    return f"{value:g}"
