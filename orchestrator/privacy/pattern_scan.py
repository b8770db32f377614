"""Presidio's pattern recognizers without their per-pattern bookkeeping.

`PatternRecognizer.analyze` times each pattern with two clock reads, logs it and builds an explanation
object and a metadata dict for every match: per message and pattern, that costs about as much as the
scan itself, and the detector reads none of it. `scan` runs the same compiled patterns with the same
flags, validation, invalidation and de-duplication, so its results are the same spans and scores."""

from collections.abc import Callable

import regex
from presidio_analyzer import EntityRecognizer, LocalRecognizer, PatternRecognizer, RecognizerResult
from presidio_analyzer.pattern_recognizer import REGEX_TIMEOUT_SECONDS

Analyze = Callable[[str], list[RecognizerResult]]


def scan(recognizer: PatternRecognizer, text: str) -> list[RecognizerResult]:
    """What `recognizer.analyze(text, ...)` finds, by Presidio's own rules (`__analyze_patterns`)."""
    entity, flags, results = recognizer.supported_entities[0], recognizer.global_regex_flags, []
    for pattern in recognizer.patterns:
        compiled = pattern.compiled_regex
        if compiled is None or pattern.compiled_with_flags != flags:
            pattern.compiled_with_flags = flags
            compiled = pattern.compiled_regex = regex.compile(pattern.regex, flags=flags)
        try:
            for match in compiled.finditer(text, timeout=REGEX_TIMEOUT_SECONDS):
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
    """The recognizer's analysis of a text: `scan` where it is Presidio's pattern analysis unchanged."""
    if isinstance(recognizer, PatternRecognizer) and type(recognizer).analyze is PatternRecognizer.analyze:
        return lambda text: scan(recognizer, text)
    entities = recognizer.supported_entities
    return lambda text: recognizer.analyze(text, entities)
