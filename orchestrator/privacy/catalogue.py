"""Which PHI recognizers run, each behind a cheap test on the text that tells when running it is
worthwhile."""

import re
from collections.abc import Callable
from dataclasses import dataclass

from presidio_analyzer import LocalRecognizer
from presidio_analyzer.predefined_recognizers import IpRecognizer

from orchestrator.privacy import addresses, personal_details, recognizers, spoken_numbers

Gate = Callable[[str], bool]

_DIGIT = re.compile(r"\d")
_EIGHT_DIGITS = re.compile(r"(?:\d\D{0,4}){8}")
_DOMAIN_DOT = re.compile(r"\w\.[A-Za-z]{2}")
_YEAR = re.compile(r"\d{4}")
_IP_LIKE = re.compile(r"\d\.\d|[0-9A-Fa-f]:[0-9A-Fa-f:]|::")


def always(text: str) -> bool:
    return True


def _has_digit(text: str) -> bool:
    return _DIGIT.search(text) is not None


def _has_phone_digits(text: str) -> bool:
    return _EIGHT_DIGITS.search(text) is not None


def _has_year(text: str) -> bool:
    return _YEAR.search(text) is not None


def _has_at(text: str) -> bool:
    return "@" in text


def _has_domain(text: str) -> bool:
    return _DOMAIN_DOT.search(text) is not None


def _has_ip(text: str) -> bool:
    return _IP_LIKE.search(text) is not None


@dataclass(frozen=True)
class Entry:
    """A recognizer and a cheap test on the text that tells when running it is worthwhile
    (most chat messages hold no digit, no "@", no domain: their scans are skipped)."""
    recognizer: LocalRecognizer
    gate: Gate


def build() -> list[Entry]:
    return [
        # A CPF's eleven digits and an SSN's nine: runs the phone recognizer needs too.
        Entry(recognizers.CpfRecognizer(), _has_phone_digits),
        Entry(recognizers.rg(), _has_digit),
        Entry(recognizers.national_id_context(), _has_digit),
        Entry(recognizers.ssn(), _has_phone_digits),
        Entry(recognizers.PersonalPhoneRecognizer(), _has_phone_digits),
        Entry(recognizers.local_phone(), _has_digit),
        Entry(recognizers.trunk_phone(), recognizers.says_trunk),
        Entry(spoken_numbers.spoken_phone(), spoken_numbers.says_digits),
        Entry(recognizers.OfflineEmailRecognizer(), _has_at),
        Entry(recognizers.GluedWordsUrlRecognizer(), _has_domain),
        Entry(IpRecognizer(supported_entity="IP_ADDRESS"), _has_ip),
        Entry(recognizers.postal_code(), _has_digit),
        Entry(recognizers.postal_code_context(), _has_digit),
        Entry(recognizers.patient_id(), _has_digit),
        Entry(recognizers.record_id_context(), _has_digit),
        Entry(personal_details.birth_date(), _has_digit),
        Entry(personal_details.long_past_date(), _has_year),
        Entry(personal_details.birth_date_in_words(), personal_details.mentions_birth),
        # "noventa e dois anos" has no digit, but an age's word: the same gate as the apposed age.
        Entry(personal_details.age_over_89(), personal_details.mentions_age),
        Entry(personal_details.age_in_apposition(), personal_details.mentions_age),
        Entry(personal_details.street_address(), personal_details.numbers_a_house),
        Entry(personal_details.block_address(), _has_digit),
        Entry(addresses.UsAddressRecognizer(), _has_digit),
        Entry(personal_details.residence(), always),
    ]
