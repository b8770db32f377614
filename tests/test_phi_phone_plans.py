"""The phone recognizer's shortcut finds exactly what python-phonenumbers' matcher finds: region by
region, on the public-style messages and on generated number shapes (national and international
prefixes, country codes written without a plus, groups, extensions, letters either side), in the
recognizer's regions and in regions that share a country code with others."""

import json
import random
from pathlib import Path

import pytest
from phonenumbers import Leniency, PhoneNumberMatcher

from orchestrator.privacy.phone_plans import region_matches
from orchestrator.privacy.recognizers import _REGIONS

EVAL = Path(__file__).parent / "eval"
# Beside the recognizer's own: small plans (NU: four digits), codes shared by several regions (CA, JM
# with the US; VA with Italy; GG with Britain), a national prefix of 8 (RU).
REGIONS = (*_REGIONS, "AT", "NU", "JM", "VA", "GG", "RU", "CN", "NL")


def _shapes(count: int) -> list[str]:
    rng = random.Random(13)
    codes = ["55", "1", "44", "351", "34", "39", "49", "33", "61", "91", "353", "81", "54", "52", "7"]
    trunks = ["", "", "0", "00", "011", "0xx", "+", "(", "90", "001", "010", "8"]
    separators = [" ", "-", ".", "", "", " ", "/", ") ", " (", " - "]
    shapes = []
    for _ in range(count):
        sizes = [rng.randint(1, 6) for _ in range(rng.randint(1, 6))]
        groups = [str(rng.randrange(10 ** n)).zfill(n) for n in sizes]
        if rng.random() < 0.5:
            groups[0] = rng.choice(codes) + groups[0]
        number = rng.choice(trunks) + "".join(g + rng.choice(separators) for g in groups[:-1]) + groups[-1]
        before, after = rng.choice(["", " ", "a", "$", "tel "]), rng.choice(["", " ", ".", "x", " ext 5"])
        shapes.append(before + number + after)
    return shapes


def _texts() -> list[str]:
    messages = json.loads((EVAL / "phi_public.json").read_text(encoding="utf-8"))["messages"]
    # A country code without its plus and the national prefix written twice: parse strips it twice.
    stripped_twice = ["55 00 21 98765-4321", "5500 21 98765-4321", "44 00 20 7946 0958", "1 1 415 555 0100"]
    with_digits = [m["text"] for m in messages if any(c.isdigit() for c in m["text"])]
    return with_digits + stripped_twice + _shapes(1500)


@pytest.mark.parametrize(("leniency", "texts"),
                         [(Leniency.VALID, _texts()), (Leniency.POSSIBLE, _shapes(300))],
                         ids=["valid", "possible"])
def test_each_region_finds_what_the_phone_library_finds(leniency: int, texts: list[str]) -> None:
    found = 0
    for text in texts:
        expected = [[(m.start, m.end, m.number) for m in PhoneNumberMatcher(text, r, leniency=leniency)]
                    for r in REGIONS]
        assert [[(m.start, m.end, m.number) for m in matches]
                for matches in region_matches(text, REGIONS, leniency)] == expected, text
        found += sum(map(len, expected))
    assert found > len(texts)  # numbers of many regions, not only misses
