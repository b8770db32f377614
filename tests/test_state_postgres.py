"""Sessions and the audit chain on a real PostgreSQL server (tests.pgserver): the same chain as on
SQLite, one chain under concurrent threads and processes, tampering found, the verify CLI with
--url, sessions shared by two orchestrator replicas; and the SQLite default left as it was."""

import multiprocessing
from dataclasses import replace
from pathlib import Path

import grpc
import psycopg
import pytest

from deploy.local.processes import orchestrator_service, start_all, stop_all
from healthmesh.v1 import clinic_pb2, orchestrator_pb2, orchestrator_pb2_grpc
from orchestrator.privacy.audit import CHAIN, AuditLog, local_log
from orchestrator.privacy.seal import Seal
from orchestrator.recording import Journal
from orchestrator.sessions import Lifetimes, PostgresSessionStore, SlotRef, SqliteSessionStore
from orchestrator.state import open_state
from runtime import postgres, secretfile
from runtime.auditchain import ChainKey, Checkpoints, PostgresChain, SqliteChain
from runtime.config import ConfigError
from runtime.errors import NotFound
from runtime.settings import Settings
from tests.conftest import MARIA, run_mesh
from tests.test_audit import append_from_threads, appended_by_eight_threads, record, run_cli

ANSWERED = orchestrator_pb2.DISPOSITION_ANSWERED
NEEDS_INFO = orchestrator_pb2.DISPOSITION_NEEDS_INFO


KEY_HEX = "5e" * 32  # the replicas' shared audit and session keys in these tests
SEAL = Seal(KEY_HEX.encode())
LIFETIMES = Lifetimes(idle_s=1800, max_s=43200)


def pg_log(url: str, data_dir: Path | None = None) -> AuditLog:
    """The chain on PostgreSQL; with `data_dir`, its key file and checkpoints are there too, as
    the CLI finds them with HEALTHMESH_DATA_DIR."""
    if data_dir is None:
        return AuditLog(PostgresChain(postgres.connector(url), ChainKey(KEY_HEX.encode()), CHAIN))
    key_file = data_dir / "pki" / "audit.key"
    key_file.parent.mkdir(parents=True, exist_ok=True)
    key_file.write_text(KEY_HEX)
    key = ChainKey.load(key_file)
    return AuditLog(PostgresChain(postgres.connector(url), key, CHAIN,
                                  checkpoints=Checkpoints(data_dir / "audit-checkpoints.jsonl", key)))


def filled(url: str, n: int, data_dir: Path | None = None) -> AuditLog:
    log = pg_log(url, data_dir)
    for i in range(1, n + 1):
        log.append(record(i))
    return log


def tamper(url: str, *statements: tuple[str, tuple]) -> None:
    """Edits the database as an attacker with its owner's rights would: triggers disabled first."""
    with psycopg.connect(url) as conn:
        conn.execute("ALTER TABLE audit DISABLE TRIGGER USER")
        conn.execute("ALTER TABLE audit_head DISABLE TRIGGER USER")
        for sql, params in statements:
            conn.execute(sql, params)


def test_the_same_chain_as_on_sqlite(postgres_url: str, tmp_path: Path) -> None:
    stamped = [replace(record(i), time=f"2025-07-18T10:00:0{i}+00:00") for i in range(1, 4)]
    on_sqlite = AuditLog(SqliteChain(tmp_path / "audit.sqlite3", ChainKey(KEY_HEX.encode())))
    on_postgres = pg_log(postgres_url)
    assert [on_postgres.append(r) for r in stamped] == [on_sqlite.append(r) for r in stamped]
    assert list(on_postgres.records()) == list(on_sqlite.records())
    assert on_postgres.verify() == []


def test_eight_threads_keep_one_chain(postgres_url: str) -> None:
    pool = postgres.open_pool(postgres_url)
    try:
        appended_by_eight_threads(AuditLog(PostgresChain(pool.connection, ChainKey(KEY_HEX.encode()), CHAIN)),
                                  per_thread=20)
    finally:
        pool.close()


def append_in_process(url: str, name: str, count: int, start: "multiprocessing.synchronize.Event") -> None:
    start.wait()
    pool = postgres.open_pool(url)  # the schema is created by both processes at once
    log = AuditLog(PostgresChain(pool.connection, ChainKey(KEY_HEX.encode()), CHAIN))
    append_from_threads(log, name, 3, count)
    pool.close()


def test_two_processes_keep_one_chain(postgres_url: str) -> None:
    ctx = multiprocessing.get_context("spawn")
    start = ctx.Event()
    procs = [ctx.Process(target=append_in_process, args=(postgres_url, f"proc{p}", 20, start))
             for p in range(2)]
    for proc in procs:
        proc.start()
    start.set()
    for proc in procs:
        proc.join(timeout=120)
        assert proc.exitcode == 0

    rows = list(pg_log(postgres_url).records())
    assert [r["seq"] for r in rows] == list(range(1, 2 * 3 * 20 + 1))
    assert sorted((r["session_id"], r["trace_id"]) for r in rows) == sorted(
        (f"proc{p}-{t}", f"{i:032x}") for p in range(2) for t in range(3) for i in range(20))
    assert pg_log(postgres_url).verify() == []


@pytest.mark.parametrize(("statements", "problems"), [
    ([("UPDATE audit SET body = replace(body, 'answered', 'blocked') WHERE seq = 3", ())],
     ["record 3: hash mismatch (record edited or moved, or another key)"]),
    ([("DELETE FROM audit WHERE seq = 3", ())], ["record 3 missing (sequence jumps from 2 to 4)"]),
    ([("DELETE FROM audit WHERE seq = 5", ())],
     ["log truncated: the head is record 5 but the last record is 4"]),
    ([("UPDATE audit a SET prev_hash = b.prev_hash, hash = b.hash, body = b.body FROM audit b"
       " WHERE (a.seq, b.seq) IN ((2, 4), (4, 2))", ())],
     ["record 2: prev_hash is not the hash of record 1 (records deleted or reordered)",
      "record 2: hash mismatch (record edited or moved, or another key)",
      "record 3: prev_hash is not the hash of record 2 (records deleted or reordered)",
      "record 4: prev_hash is not the hash of record 3 (records deleted or reordered)",
      "record 4: hash mismatch (record edited or moved, or another key)",
      "record 5: prev_hash is not the hash of record 4 (records deleted or reordered)"]),
    ([("DELETE FROM audit_head", ())], ["head missing (head table emptied)"]),
], ids=["edited", "deleted", "truncated", "reordered", "head-deleted"])
def test_tampering_is_detected(postgres_url: str, statements: list, problems: list[str]) -> None:
    log = filled(postgres_url, 5)
    tamper(postgres_url, *statements)
    assert log.verify() == problems


def test_sql_cannot_update_delete_truncate_or_fork(postgres_url: str) -> None:
    filled(postgres_url, 3)
    refused = [
        ("UPDATE audit SET body = '{}' WHERE seq = 2", "append-only"),
        ("DELETE FROM audit WHERE seq = 3", "append-only"),
        ("TRUNCATE audit", "append-only"),
        (f"INSERT INTO audit VALUES (4, '{'0' * 64}', 'x', '{{}}')", "does not extend the head"),
        ("DELETE FROM audit_head", "cannot be deleted"),
        ("TRUNCATE audit_head", "cannot be deleted"),
        ("UPDATE audit_head SET seq = 2", "only advance"),
    ]
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        for sql, message in refused:
            with pytest.raises(psycopg.errors.RaiseException, match=message):
                conn.execute(sql)  # type: ignore[arg-type]
    assert pg_log(postgres_url).verify() == []


def test_cli_verifies_by_url_and_by_setting(postgres_url: str, tmp_path: Path) -> None:
    filled(postgres_url, 4, tmp_path)
    intact = run_cli("verify", "--url", postgres_url, data_dir=tmp_path)
    assert (intact.returncode, intact.stdout) == (0, "audit log intact: 4 records\n")

    tamper(postgres_url, ("DELETE FROM audit WHERE seq = 2", ()))
    broken = run_cli("verify", data_dir=tmp_path, HEALTHMESH_STATE_URL=postgres_url)
    assert (broken.returncode, broken.stdout) == (1, "record 2 missing (sequence jumps from 1 to 3)\n"
                                                     "record 2 missing, though checkpoint line 2 names it\n")


def test_cli_reads_an_empty_database_without_creating_the_chain(postgres_server, postgres_url: str,
                                                                tmp_path: Path) -> None:
    (tmp_path / "pki").mkdir()
    (tmp_path / "pki" / "audit.key").write_text(KEY_HEX)
    empty = run_cli("verify", "--url", postgres_url, data_dir=tmp_path)
    assert empty.returncode == 1
    assert empty.stdout.startswith(f"cannot read audit log at {postgres_url}: ")
    with psycopg.connect(postgres_url) as conn:
        assert conn.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").fetchone() == (0,)

    password = postgres_server.url.replace("postgres@", "postgres:secret@").rsplit("/", 1)[0] + "/nowhere"
    unknown = run_cli("verify", "--url", password, data_dir=tmp_path)
    assert unknown.returncode == 1
    assert "secret" not in unknown.stdout and "postgres:***@" in unknown.stdout


def test_sessions_are_shared_between_replicas(postgres_url: str) -> None:
    pools = [postgres.open_pool(postgres_url) for _ in range(2)]
    try:
        a, b = (PostgresSessionStore(pool.connection, SEAL, LIFETIMES) for pool in pools)
        session = a.load("")
        session.patient_name, session.patient_cpf = MARIA.full_name, MARIA.cpf
        session.shown_slots = [SlotRef("clinic_a", "Dr. Fernando", "2025-07-18", "10:00")]
        a.save(session)
        assert b.load(session.session_id) == session
        session.pending = "reschedule"
        b.save(session)
        assert a.load(session.session_id) == session
        with pytest.raises(NotFound, match="unknown session"):
            a.load("no-such-session")
    finally:
        for pool in pools:
            pool.close()


def test_state_url_must_name_postgresql(monkeypatch) -> None:
    monkeypatch.setenv("HEALTHMESH_STATE_URL", "mysql://root:secret@db/healthmesh")
    with pytest.raises(ConfigError, match="HEALTHMESH_STATE_URL must be a postgresql:// URL") as err:
        Settings.from_env()
    assert "secret" not in str(err.value)


def test_sqlite_stays_the_default(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv("HEALTHMESH_STATE_URL", raising=False)
    monkeypatch.setenv("HEALTHMESH_DATA_DIR", str(tmp_path))
    state = open_state(Settings.from_env())
    assert isinstance(state.sessions, SqliteSessionStore)
    assert isinstance(state.recorder, Journal)  # turns are kept through the journal (orchestrator.recording)
    session = state.sessions.load("")
    state.sessions.save(session)
    state.audit.append(record(1))
    seal = Seal(secretfile.load(tmp_path / "pki" / "session.key"))
    assert SqliteSessionStore(tmp_path / "orchestrator.sqlite3", seal, LIFETIMES).load(session.session_id) \
        == session
    assert local_log(tmp_path).verify() == []
    assert [r["trace_id"] for r in local_log(tmp_path).records()] == [f"{1:032x}"]
    state.close()


def test_replicas_on_postgresql_must_share_configured_keys(postgres_url: str, tmp_path: Path,
                                                          monkeypatch) -> None:
    monkeypatch.setenv("HEALTHMESH_STATE_URL", postgres_url)
    monkeypatch.setenv("HEALTHMESH_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("HEALTHMESH_AUDIT_KEY_FILE", raising=False)
    monkeypatch.delenv("HEALTHMESH_SESSION_KEY_FILE", raising=False)
    with pytest.raises(ConfigError, match="HEALTHMESH_AUDIT_KEY_FILE is required"):
        open_state(Settings.from_env())
    monkeypatch.setenv("HEALTHMESH_AUDIT_KEY_FILE", str(tmp_path / "audit.key"))  # given, not made
    with pytest.raises(ConfigError, match="HEALTHMESH_SESSION_KEY_FILE is required"):
        open_state(Settings.from_env())
    assert not (tmp_path / "pki").exists() and not (tmp_path / "audit.key").exists()


def ask(stub, message: str, session_id: str = "") -> orchestrator_pb2.AskResponse:
    return stub.Ask(orchestrator_pb2.AskRequest(session_id=session_id, message=message, patient=MARIA),
                    timeout=20)


def test_a_session_continues_on_another_orchestrator(postgres_url: str, tmp_path: Path) -> None:
    """Two orchestrators that share nothing but PostgreSQL (B has its own data directory and
    only A's mesh certificate): a listing on A is booked on B; a cancel asked on A is confirmed on B."""
    key_file = tmp_path / "shared" / "audit.key"  # keys both replicas share, as from a Secret
    key_file.parent.mkdir()
    key_file.write_text(KEY_HEX)
    (tmp_path / "shared" / "session.key").write_text("7a" * 32)
    mesh = run_mesh(tmp_path / "a", HEALTHMESH_STATE_URL=postgres_url,
                    HEALTHMESH_AUDIT_KEY_FILE=str(key_file),
                    HEALTHMESH_SESSION_KEY_FILE=str(tmp_path / "shared" / "session.key"))
    pki = tmp_path / "a" / "pki"
    second = orchestrator_service(tmp_path / "b" / "logs", {
        **mesh.mesh.orchestrator.env, "HEALTHMESH_DATA_DIR": str(tmp_path / "b"),
        "HEALTHMESH_TLS_CERT": str(pki / "orchestrator.crt"),
        "HEALTHMESH_TLS_KEY": str(pki / "orchestrator.key"), "HEALTHMESH_TLS_CA": str(pki / "ca.crt")})
    channel = None
    try:
        start_all([second])
        channel = grpc.insecure_channel(second.address)
        a, b = mesh.stub, orchestrator_pb2_grpc.OrchestratorServiceStub(channel)

        listing = ask(a, "quero ver horários de ortopedia")
        earliest = min(listing.slots, key=lambda s: (s.date, s.time))
        booked = ask(b, "quero o mais cedo", listing.session_id)
        assert booked.disposition == ANSWERED, booked.answer
        got = booked.appointment
        assert (got.clinic_id, got.doctor, got.date, got.time) == (
            earliest.clinic_id, earliest.doctor, earliest.date, earliest.time)
        clinic = mesh.clinic_stub(got.clinic_id)
        mine = clinic.ListAppointments(clinic_pb2.ListAppointmentsRequest(patient=MARIA)).appointments
        assert [a_.appointment_id for a_ in mine] == [got.appointment_id]

        # The cancel asked on A waits for a "sim", which B sends: the pending question is session state.
        asked = ask(a, "quero cancelar minha consulta", listing.session_id)
        assert asked.disposition == NEEDS_INFO and got.appointment_id in asked.answer, asked.answer
        assert clinic.ListAppointments(clinic_pb2.ListAppointmentsRequest(patient=MARIA)).appointments
        cancelled = ask(b, "sim", listing.session_id)
        assert cancelled.disposition == ANSWERED, cancelled.answer
        assert [(s.clinic_id, s.action) for s in cancelled.steps] == [(got.clinic_id, "cancel_appointment")]
        assert not clinic.ListAppointments(clinic_pb2.ListAppointmentsRequest(patient=MARIA)).appointments
    finally:
        if channel is not None:
            channel.close()
        stop_all([second])
        mesh.close()

    for data_dir in (tmp_path / "a", tmp_path / "b"):
        assert not (data_dir / "orchestrator.sqlite3").exists() and not (data_dir / "audit.sqlite3").exists()
    rows = list(pg_log(postgres_url).records())
    assert [r["session_id"] for r in rows] == [listing.session_id] * 4
    # A's checkpoints name the records A wrote; B's records are checked by the chain alone.
    verified = run_cli("verify", "--url", postgres_url, data_dir=tmp_path / "a",
                       HEALTHMESH_AUDIT_KEY_FILE=str(key_file))
    assert verified.stdout == "audit log intact: 4 records\n"
