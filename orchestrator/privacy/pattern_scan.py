"""Presidio's pattern recognizers without their per-pattern bookkeeping.

`PatternRecognizer.analyze` times each pattern with two clock reads, logs it and builds an explanation
object and a metadata dict for every match: per message and pattern, that costs about as much as the
scan itself, and the detector reads none of it. `PatternScan` runs the same compiled patterns with the
same flags and time limit, validation, invalidation and de-duplication, so its results are the same
spans and scores; and it skips a pattern whose `prefilter` rules the message out (a scan with a time
limit costs a few microseconds even on a message it cannot match)."""

from collections.abc import Callable

import regex
from presidio_analyzer import EntityRecognizer, LocalRecognizer, PatternRecognizer, RecognizerResult
from presidio_analyzer.pattern_recognizer import REGEX_TIMEOUT_SECONDS

from orchestrator.privacy.prefilter import prefilter

Analyze = Callable[[str], list[RecognizerResult]]


class PatternScan:
    """What `recognizer.analyze(text, ...)` finds, by Presidio's own rules (`__analyze_patterns`)."""

    def __init__(self, recognizer: PatternRecognizer) -> None:
        self._recognizer = recognizer
        flags = recognizer.global_regex_flags
        for pattern in recognizer.patterns:  # compiled as Presidio's first call would
            if pattern.compiled_regex is None or pattern.compiled_with_flags != flags:
                pattern.compiled_with_flags = flags
                pattern.compiled_regex = regex.compile(pattern.regex, flags=flags)
        self._patterns = tuple((pattern, prefilter(pattern.regex, flags)) for pattern in recognizer.patterns)

    def __call__(self, text: str) -> list[RecognizerResult]:
        recognizer = self._recognizer
        entity, results = recognizer.supported_entities[0], []
        for pattern, test in self._patterns:
            if test is not None and test.rules_out(text):
                continue
            try:
                for match in pattern.compiled_regex.finditer(text, timeout=REGEX_TIMEOUT_SECONDS):
                    start, end = match.span()
                    if start == end:
                        continue
                    matched, score = text[start:end], pattern.score
                    validation = recognizer.validate_result(matched)
                    if validation is not None:
                        score = EntityRecognizer.MAX_SCORE if validation else EntityRecognizer.MIN_SCORE
                    if recognizer.invalidate_result(matched):
                        score = EntityRecognizer.MIN_SCORE
                    if score > EntityRecognizer.MIN_SCORE:
                        results.append(RecognizerResult(entity, start, end, score))
            except TimeoutError:  # Presidio skips a pattern that times out, and so does this
                continue
        return EntityRecognizer.remove_duplicates(results) if len(results) > 1 else results


def analyzer(recognizer: LocalRecognizer) -> Analyze:
    """The recognizer's analysis of a text: a `PatternScan` where it is Presidio's pattern analysis
    unchanged."""
    if isinstance(recognizer, PatternRecognizer) and type(recognizer).analyze is PatternRecognizer.analyze:
        return PatternScan(recognizer)
    entities = recognizer.supported_entities
    return lambda text: recognizer.analyze(text, entities)
