"""The specialties clinics offer. The contracts' `Specialty` enum (common.proto) is the one list;
everything else that enumerates specialties derives from it."""

from healthmesh.v1 import common_pb2

# "cardiology" -> SPECIALTY_CARDIOLOGY, in the enum's order; UNSPECIFIED is no specialty.
SPECIALTY_ENUM: dict[str, int] = {
    name.removeprefix("SPECIALTY_").lower(): number
    for name, number in common_pb2.Specialty.items()
    if number != common_pb2.SPECIALTY_UNSPECIFIED
}
SPECIALTIES: tuple[str, ...] = tuple(SPECIALTY_ENUM)
