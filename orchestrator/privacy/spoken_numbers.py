"""Phone numbers said digit by digit, as voice-to-text writes them: "five five five oh one four two",
"nove nove oito sete um dois tres quatro". Six digit words in a row ("double five" is one) are a number
nobody writes for anything else in a chat with a clinic."""

from orchestrator.privacy.message_words import lower
from orchestrator.privacy.recognizers import ContextRecognizer

_DIGIT = (r"(?:zero|oh|one|two|three|four|five|six|seven|eight|nine"
          r"|um|uma|dois|duas|tres|quatro|cinco|seis|meia|sete|oito|nove)")
_REPEAT = r"(?:(?:double|triple)\s+)?"  # "double five" is two fives
# Digits each spoken number has at least one of: the gate's literals, tested before any regex runs.
_TELLING = ("zero", "five", "nine", "seven", "eight", "three", "four", "cinco", "oito", "nove", "sete",
            "quatro", "seis", "dois", "tres")


def says_digits(text: str) -> bool:
    """The spoken-phone recognizer's gate: a digit word that only a number uses, anywhere in the text."""
    folded = lower(text)
    return any(word in folded for word in _TELLING)


def spoken_phone() -> ContextRecognizer:
    return ContextRecognizer("PHONE", "SpokenPhone", [
        (rf"(?i)(?<!\w)(?P<phi>{_REPEAT}{_DIGIT}(?:[\s,.\-]+{_REPEAT}{_DIGIT}){{5,}})(?!\w)", 0.6)])
