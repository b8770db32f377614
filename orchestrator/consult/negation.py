"""Negation and the message's language in the consult: a cue right after a negation in the same
clause ("not itchy", "não estou grávida") does not count; in English "no" negates too ("no
fever"), in Portuguese it is "in the" ("dor no joelho")."""

import re

from runtime.text.language import detect_language

_CLAUSE_END = re.compile(r"[.,;:!?\n]")
_NEGATION_PT = r"nao|sem|nem|nenhum|nenhuma|nunca|jamais"
_NEGATION_EN = (r"not|without|never|don't|dont|doesn't|doesnt|didn't|didnt|isn't|isnt|aren't|haven't|hasn't|"
                r"nor|denies")
_NEGATED = {
    "pt": re.compile(rf"(?<![\w'])(?:{_NEGATION_PT}|{_NEGATION_EN})\s+(?:[\w'/-]+\s+){{0,2}}$"),
    "en": re.compile(rf"(?<![\w'])(?:no|{_NEGATION_PT}|{_NEGATION_EN})\s+(?:[\w'/-]+\s+){{0,2}}$"),
}


def negated(folded: str, start: int, language: str) -> bool:
    """Whether a negation opens the clause up to three words before `start`."""
    clause_start = max((m.end() for m in _CLAUSE_END.finditer(folded, 0, start)), default=0)
    return _NEGATED[language].search(folded[clause_start:start]) is not None


# Symptom words, for short messages the general detector cannot place ("dor no joelho": no word it knows).
_PT_HINTS = re.compile(r"\b(?:dor|dores|doi|doendo|coceira|coca|manchas?|inchaco|inchad[oa]s?|febre|tosse|"
                       r"tontura|cansaco|falta|pintas?|feridas?|sinto|ha|desde|piora|melhora|joelhos?|peito|"
                       r"costas|bracos?|pernas?|ombros?|tornozelos?|cabeca|barriga|pescoco)\b")
_EN_HINTS = re.compile(r"\b(?:pain|painful|hurts?|aches?|rash|itch\w*|fever|cough|swollen|swelling|since|"
                       r"worse|better|knees?|chest|back|arms?|legs?|shoulders?|ankles?|head|stomach|feel|"
                       r"feeling)\b")


def language_of(text: str, folded: str) -> str:
    """"pt" or "en", for deciding whether "no" is a negation."""
    symptoms = len(_PT_HINTS.findall(folded)), len(_EN_HINTS.findall(folded))
    return detect_language(text, hints=lambda _: symptoms)
