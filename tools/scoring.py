"""What every risk score shares: its published tiers, the response it builds, and the checks on
its inputs (each error names the field, as InvalidArgument does)."""

import math
from collections.abc import Mapping
from dataclasses import dataclass

from google.protobuf.internal.enum_type_wrapper import EnumTypeWrapper

from healthmesh.v1 import tools_pb2
from runtime.errors import InvalidArgument

LOW = tools_pb2.RISK_TIER_LOW
MODERATE = tools_pb2.RISK_TIER_MODERATE
HIGH = tools_pb2.RISK_TIER_HIGH

MIN_AGE, MAX_AGE = 18, 120


@dataclass(frozen=True)
class Tier:
    min_score: float  # lowest total (or tier basis) in this tier
    tier: int  # tools_pb2.RiskTier
    interpretation: str


@dataclass(frozen=True)
class Score:
    name: str
    max_score: float
    source: str
    convention: str
    tiers: tuple[Tier, ...]  # ascending min_score; the first starts at 0

    def respond(self, components: list[tuple[str, float]], tier_basis: float | None = None
                ) -> tools_pb2.ComputeRiskScoreResponse:
        """The response for these components; the tier is read from tier_basis when given."""
        total = sum(points for _, points in components)
        basis = total if tier_basis is None else tier_basis
        tier = next(t for t in reversed(self.tiers) if basis >= t.min_score)
        return tools_pb2.ComputeRiskScoreResponse(
            score_name=self.name, score=total, max_score=self.max_score, risk_tier=tier.tier,
            interpretation=tier.interpretation, source=self.source, convention=self.convention,
            components=[tools_pb2.ScoreComponent(name=n, points=p) for n, p in components],
        )


def int_in(value: int, field: str, low: int, high: int) -> int:
    if not low <= value <= high:
        raise InvalidArgument(field, f"must be between {low} and {high}, got {value}")
    return value


def float_in(value: float, field: str, low: float, high: float) -> float:
    if not math.isfinite(value):
        raise InvalidArgument(field, f"must be a finite number, got {value}")
    if not low <= value <= high:
        raise InvalidArgument(field, f"must be between {low:g} and {high:g}, got {value:g}")
    return value


def adult_age(value: int, field: str) -> int:
    return int_in(value, field, MIN_AGE, MAX_AGE)


def enum_points(value: int, field: str, points: Mapping[int, int], enum_type: EnumTypeWrapper) -> int:
    """Points of an enum input; UNSPECIFIED (0) and values unknown to this build are invalid."""
    if value in points:
        return points[value]
    if value == 0:
        raise InvalidArgument(field, "is required")
    names = ", ".join(enum_type.Name(v) for v in points)
    raise InvalidArgument(field, f"must be one of {names}, got {value}")


def band(value: float, bands: tuple[tuple[float, int], ...]) -> int:
    """Points of the first (threshold, points) band, highest threshold first, that value reaches."""
    return next((points for threshold, points in bands if value >= threshold), 0)
