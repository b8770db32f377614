"""Where the orchestrator keeps its state (HEALTHMESH_STATE_URL): a session's save and load and an
audit append, on the SQLite files (the default, the baseline) and on a PostgreSQL server on
loopback (tests.pgserver, the same server binaries the tests use), each called as the orchestrator
calls it: one blocking call at a time, through a pool for PostgreSQL."""

import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from rich.console import Console
from rich.table import Table

from bench.stats import Result
from orchestrator.privacy.audit import AuditLog, AuditRecord
from orchestrator.sessions import Session, SlotRef
from orchestrator.state import State, open_state
from runtime.settings import Settings
from tests.pgserver import PostgresServer, Unavailable


def session() -> Session:
    """A session as a listing leaves it: a patient and five slots shown."""
    s = Session(session_id="bench-session", language="pt", patient_name="Maria Souza",
                patient_cpf="529.982.247-25", specialty="cardiology")
    s.shown_slots = [SlotRef("clinic_a", "Dr. Fernando Lima", "2025-07-18", f"1{i}:00") for i in range(5)]
    return s


RECORD = AuditRecord(session_id="bench-session", disposition="DISPOSITION_ANSWERED", route="MODEL_ROUTE_NONE",
                     phi_categories=("PERSON", "BR_CPF"),
                     steps=({"step_id": "s1", "clinic_id": "clinic_a", "action": "list_available_slots",
                             "status": "STEP_STATUS_OK", "attempts": 1},),
                     verdict={"safe": True, "notes": []}, trace_id="0" * 32,
                     message_redacted="quero ver horários de cardiologia, sou <PERSON>")


def timed(name: str, fn: Callable[[], object], requests: int, warmup: int = 20) -> Result:
    for _ in range(warmup):
        fn()
    latencies = []
    start = time.perf_counter()
    for _ in range(requests):
        t = time.perf_counter()
        fn()
        latencies.append((time.perf_counter() - t) * 1000)
    return Result(name, 1, latencies, time.perf_counter() - start)


def settings(data_dir: Path, url: str) -> Settings:
    """This process's settings with the data directory and state URL under test (and the keys the
    SQLite run made, which PostgreSQL needs configured)."""
    base = Settings.from_env()
    keys = data_dir / "pki"
    return replace(base, data=replace(base.data, data_dir=data_dir),
                   state=replace(base.state, url=url, audit_key_file=keys / "audit.key" if url else None,
                                 session_key_file=keys / "session.key" if url else None))


def operations(state: State, requests: int) -> list[Result]:
    s = session()
    state.sessions.save(s)
    audit: AuditLog = state.audit
    try:
        return [timed("session save", lambda: state.sessions.save(s), requests),
                timed("session load", lambda: state.sessions.load(s.session_id), requests),
                timed("audit append", lambda: audit.append(RECORD), requests)]
    finally:
        state.close()


def run(console: Console, requests: int) -> None:
    try:
        server = PostgresServer().start()
    except Unavailable as reason:
        console.print(f"State backends: skipped ({reason})")
        return
    try:
        with tempfile.TemporaryDirectory() as tmp:
            sqlite = operations(open_state(settings(Path(tmp), "")), requests)
            postgres = operations(open_state(settings(Path(tmp), server.database())), requests)
    finally:
        server.stop()
    out = Table(title="Orchestrator state: SQLite files (default) vs PostgreSQL on loopback",
                caption="one call at a time; audit appends are durable on both (fsync / synchronous_commit), "
                        "session saves on neither (WAL NORMAL / synchronous_commit off)")
    for column in ("operation", "n", "SQLite p50 ms", "SQLite p95 ms", "PostgreSQL p50 ms",
                   "PostgreSQL p95 ms", "p50 / SQLite"):
        out.add_column(column, justify="left" if column == "operation" else "right")
    for lite, pg in zip(sqlite, postgres, strict=True):
        out.add_row(lite.name, str(len(lite.latencies_ms)), f"{lite.p50:.3f}", f"{lite.pct(0.95):.3f}",
                    f"{pg.p50:.3f}", f"{pg.pct(0.95):.3f}", f"{pg.p50 / lite.p50:.2f}x")
    console.print(out)
