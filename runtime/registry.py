"""The registry of clinics (deploy/registry.json): id, name, specialty, street address and
gRPC target, any `host:port` (the address the orchestrator dials; the launcher binds the clinic
there). Clinics read their own entry; the orchestrator reads them all."""

import json
from dataclasses import dataclass
from pathlib import Path

from runtime import addresses
from runtime.config import ConfigError
from runtime.specialties import SPECIALTIES

DEFAULT_PATH = Path(__file__).resolve().parent.parent / "deploy" / "registry.json"


@dataclass(frozen=True)
class ClinicEntry:
    id: str
    name: str
    specialty: str
    address: str
    target: str

    @property
    def host(self) -> str:
        return addresses.split(self.target)[0]

    @property
    def port(self) -> int:
        return addresses.split(self.target)[1]


def load(path: Path = DEFAULT_PATH) -> dict[str, ClinicEntry]:
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        entries = [ClinicEntry(**item) for item in raw["clinics"]]
    except (OSError, ValueError, KeyError, TypeError) as err:
        raise ConfigError(f"cannot read clinic registry {path}: {err}") from None
    for entry in entries:
        if entry.specialty not in SPECIALTIES:
            raise ConfigError(f"{path}: {entry.id} has unknown specialty {entry.specialty!r}")
        try:
            addresses.split(entry.target)
        except ConfigError as err:
            raise ConfigError(f"{path}: {entry.id}: target {err}") from None
    return {entry.id: entry for entry in entries}
