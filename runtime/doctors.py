"""Naming a doctor: one rule for a clinic's own requests and for the orchestrator's replica of its
slots, so a doctor filter means the same wherever a listing is answered."""

from collections.abc import Sequence
from typing import Protocol, TypeVar

from runtime.errors import NotFound
from runtime.text.fold import fold_words as fold


class Named(Protocol):
    @property
    def doctor_id(self) -> str: ...
    @property
    def name(self) -> str: ...


D = TypeVar("D", bound=Named)


def match_doctors(doctors: Sequence[D], query: str, clinic_id: str) -> list[D]:
    """Doctors named by id, by full name, or by a part of the name."""
    needle = _strip_title(fold(query))
    for exact in (
        [d for d in doctors if d.doctor_id.casefold() == query.strip().casefold()],
        [d for d in doctors if _strip_title(fold(d.name)) == needle],
    ):
        if exact:
            return exact
    partial = [d for d in doctors if needle and needle in _strip_title(fold(d.name))]
    if not partial:
        raise NotFound(f"no doctor matching {query!r} at {clinic_id}")
    return partial


def _strip_title(name: str) -> str:
    for title in ("dr. ", "dra. ", "dr ", "dra "):
        if name.startswith(title):
            return name[len(title):]
    return name
