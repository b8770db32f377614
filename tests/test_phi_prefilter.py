"""The PHI detector's shortcuts find exactly what the scans they replace find: each pattern's prefilter
(tried only where a match can begin, skipped where none can) against the pattern's own scan, and the
lean run of Presidio's pattern recognizers against Presidio's, on the public-style messages and on
variants that stress case, spacing and non-ASCII text."""

import json
import re
from pathlib import Path

import pytest
from presidio_analyzer import PatternRecognizer

from orchestrator.privacy.pattern_scan import PatternScan
from orchestrator.privacy.phi import PhiDetector
from orchestrator.privacy.prefilter import prefilter
from orchestrator.privacy.recognizers import ContextRecognizer
from runtime.text.fold import strip_accents

EVAL = Path(__file__).parent / "eval"


def _variants(text: str) -> tuple[str, ...]:
    # Upper case, tabs for spaces, and a non-ASCII character (the prefilter's texts are ASCII only).
    return text, text.upper(), text.lower().replace(" ", "\t"), text + " \u017f\u212a"


@pytest.fixture(scope="module")
def texts() -> list[str]:
    messages = [m["text"] for name in ("phi_public.json", "phi_families.json")
                for m in json.loads((EVAL / name).read_text(encoding="utf-8"))["messages"]]
    return [variant for text in messages for variant in _variants(strip_accents(text))]


@pytest.fixture(scope="module")
def detector() -> PhiDetector:
    return PhiDetector()


def test_every_context_pattern_finds_the_same_matches_through_its_prefilter(detector, texts) -> None:
    tested = 0
    for entry in detector._entries:
        if not isinstance(entry.recognizer, ContextRecognizer):
            continue
        for pattern, _score, _needs, test in entry.recognizer._patterns:
            if test is None:
                continue
            tested += 1
            for text in texts:
                expected = [m.span() for m in pattern.finditer(text)]
                found = [m.span() for m in test.finditer(pattern, text)]
                assert found == expected, (pattern.pattern[:80], text)
                assert not (expected and test.rules_out(text))
    assert tested >= 20  # most context patterns have a prefilter


def test_presidio_recognizers_find_the_same_results_through_the_lean_scan(detector, texts) -> None:
    recognizers = [e.recognizer for e in detector._entries if isinstance(e.recognizer, PatternRecognizer)]
    assert len(recognizers) >= 10
    for recognizer in recognizers:
        scan = PatternScan(recognizer)
        for text in texts:
            presidio = PatternRecognizer.analyze(recognizer, text, recognizer.supported_entities)
            assert ({(r.entity_type, r.start, r.end, r.score) for r in scan(text)}
                    == {(r.entity_type, r.start, r.end, r.score) for r in presidio}), (recognizer.name, text)


@pytest.mark.parametrize(("regex", "text"), [
    (r"(?i)\bnome\s*:", "NOME: Ana"),
    (r"(?i)\u017fa", "SA"),  # the long s matches "s" case-blind
    (r"(?i)\u212aey", "key"),  # and the Kelvin sign "k"
    (r"(?-i:Pt)\.?\s+[A-Z]", "pt Ana, Pt Ana"),
    (r"\d{5}-\d{3}", "CEP 01310-100"),
    (r"(?<!\w)ab(?:cd)?", "xab ab abcd"),
    (r"\b(?:ab|ba)", "aba ba"),  # overlapping beginnings
])
def test_prefilter_keeps_every_match(regex: str, text: str) -> None:
    pattern, test = re.compile(regex), prefilter(regex)
    assert test is not None
    expected = [m.span() for m in pattern.finditer(text)]
    assert [m.span() for m in test.finditer(pattern, text)] == expected != []


def test_prefilter_rules_out_texts_without_a_beginning_punctuation_or_digit_run() -> None:
    assert prefilter(r"(?i)\bprontuario\s+\d+").rules_out("sem numero aqui")
    assert prefilter(r"\d{5}-\d{3}").rules_out("ligue 1234-5678")
    assert prefilter(r"\w+@\w+").rules_out("no address")
    assert prefilter(r"[A-Z][a-z]+") is None  # nothing to test: every capitalized word may match
