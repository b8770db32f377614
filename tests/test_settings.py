"""Settings: declared once, read once (malformed values name their variable), documented from the
declarations (the README tables, --help), and one list of specialties from the contracts."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from healthmesh.v1 import common_pb2
from runtime.config import ConfigError
from runtime.settings import README_BEGIN, README_END, Settings, markdown
from runtime.specialties import SPECIALTIES, SPECIALTY_ENUM

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for name in list(os.environ):
        if name.startswith(("HEALTHMESH_", "OTEL_", "BENCH_")):
            monkeypatch.delenv(name)
    return monkeypatch


def test_readme_tables_are_the_generated_ones() -> None:
    start, end = README.index(README_BEGIN), README.index(README_END) + len(README_END)
    assert README[start:end] == markdown(), "run `python -m runtime.settings --markdown` into the README"


def test_readme_points_only_inside_the_repository() -> None:
    assert "../" not in README
    assert not re.search(r"(?<![\w.:/])/(?:home|root|work|tmp|usr|etc)/", README)


def test_defaults(clean_env: pytest.MonkeyPatch) -> None:
    settings = Settings.from_env()
    assert settings.data.data_dir == Path("var")
    assert settings.trace_file == Path("var") / "traces.jsonl"
    assert settings.service.port_or(50060) == 50060
    assert settings.models.writers == frozenset({"cloud"})
    assert settings.cloud.base_url == "" and settings.clock.now is None
    assert settings.orchestrator.slot_replica
    clean_env.setenv("HEALTHMESH_TRACE_FILE", "OFF")
    clean_env.setenv("HEALTHMESH_PORT", " 0 ")
    clean_env.setenv("HEALTHMESH_WRITERS", "none")
    clean_env.setenv("HEALTHMESH_SLOT_REPLICA", "False")
    settings = Settings.from_env()
    assert settings.trace_file is None and settings.service.port_or(50060) == 0
    assert settings.models.writers == frozenset() and not settings.orchestrator.slot_replica


def test_the_metrics_port_follows_the_grpc_port_unless_set(clean_env: pytest.MonkeyPatch) -> None:
    assert Settings.from_env().metrics.port_for(50051) == 51051
    assert Settings.from_env().metrics.port_for(0) == 0  # an ephemeral gRPC port: an ephemeral one
    clean_env.setenv("HEALTHMESH_METRICS_PORT", "9464")
    assert Settings.from_env().metrics.port_for(50051) == 9464
    clean_env.setenv("HEALTHMESH_METRICS_PORT", "OFF")
    assert Settings.from_env().metrics.port_for(50051) is None


@pytest.mark.parametrize(("name", "value", "message"), [
    ("HEALTHMESH_PORT", "x", "HEALTHMESH_PORT must be an integer, got 'x'"),
    ("HEALTHMESH_FANOUT", "0", "HEALTHMESH_FANOUT must be >= 1, got 0"),
    ("HEALTHMESH_CALL_TIMEOUT_S", "0", "HEALTHMESH_CALL_TIMEOUT_S must be >= 0.01, got 0.0"),
    ("HEALTHMESH_WRITING_BUDGET_S", "soon", "HEALTHMESH_WRITING_BUDGET_S must be a number, got 'soon'"),
    ("HEALTHMESH_WRITERS", "local,gpt", "HEALTHMESH_WRITERS: unknown model 'gpt'"),
    ("HEALTHMESH_TIMEZONE", "Mars/Olympus", "HEALTHMESH_TIMEZONE: unknown time zone 'Mars/Olympus'"),
    ("HEALTHMESH_NOW", "tomorrow", "HEALTHMESH_NOW: 'tomorrow' is not an ISO date-time"),
    ("HEALTHMESH_CLOUD_BASE_URL", "ftp://x", "HEALTHMESH_CLOUD_BASE_URL must be an http(s) URL"),
    ("OTEL_TRACES_SAMPLER", "sometimes", "OTEL_TRACES_SAMPLER must be one of parentbased_traceidratio"),
    ("OTEL_TRACES_SAMPLER_ARG", "1.5", "OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1, got '1.5'"),
    ("OTEL_EXPORTER_OTLP_PROTOCOL", "http/json", "OTEL_EXPORTER_OTLP_PROTOCOL must be one of grpc, http/"),
    ("HEALTHMESH_ACCESS_LOG_SAMPLE", "all", "HEALTHMESH_ACCESS_LOG_SAMPLE must be a number from 0 to 1"),
    ("HEALTHMESH_METRICS_PORT", "none", 'HEALTHMESH_METRICS_PORT must be a port number or "off"'),
    ("HEALTHMESH_SLOT_REPLICA", "no", "HEALTHMESH_SLOT_REPLICA must be true or false, got 'no'"),
])
def test_malformed_values_name_their_variable(clean_env: pytest.MonkeyPatch, name: str, value: str,
                                              message: str) -> None:
    clean_env.setenv(name, value)
    with pytest.raises(ConfigError, match=re.escape(message)):
        Settings.from_env()


@pytest.mark.parametrize("program", ["orchestrator", "bench", "runtime.traceview"])
def test_help_prints_and_exits(program: str) -> None:
    done = subprocess.run([sys.executable, "-m", program, "--help"], capture_output=True, text=True,
                          timeout=120, cwd=ROOT, env={**os.environ, "HEALTHMESH_PORT": "not a port"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"usage: python -m {program}")
    assert "environment (unset or blank means the default" in done.stdout


def test_specialties_are_the_contracts_enum() -> None:
    assert SPECIALTIES == ("cardiology", "dermatology", "orthopedics")
    assert SPECIALTY_ENUM["dermatology"] == common_pb2.SPECIALTY_DERMATOLOGY
    assert len(SPECIALTY_ENUM) == len(common_pb2.Specialty.values()) - 1  # all but UNSPECIFIED
