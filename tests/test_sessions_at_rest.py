"""PHI at rest: the orchestrator's session database holds no name, CPF or message text (sessions
are sealed with a key kept apart from it), sessions expire when idle and at an absolute lifetime,
expired ones are purged, and a sealed row does not open under another id or key."""

import sqlite3
import time
from dataclasses import replace
from pathlib import Path

import pytest

from orchestrator.privacy.seal import Seal
from orchestrator.sessions import ConsultState, Lifetimes, SqliteSessionStore
from runtime import secretfile
from runtime.errors import NotFound
from tests.conftest import MARIA, run_mesh

SEAL = Seal(b"s" * 32)


def database_bytes(data_dir: Path) -> bytes:
    """The database as a thief would copy it: the file and its WAL."""
    return b"".join(p.read_bytes() for p in data_dir.glob("orchestrator.sqlite3*"))


def test_the_session_database_holds_no_phi(tmp_path: Path) -> None:
    mesh = run_mesh(tmp_path)
    try:
        listing = mesh.ask("quero ver horários de cardiologia", patient=MARIA)
        mesh.ask("estou com dor no joelho direito há duas semanas depois de correr",
                 session_id=listing.session_id)
    finally:
        mesh.close()
    stored = database_bytes(tmp_path)
    assert stored, "no session database"
    digits = MARIA.cpf.replace(".", "").replace("-", "")
    for secret in (MARIA.full_name, MARIA.full_name.split()[0], MARIA.cpf, digits, "joelho", "cardiologia"):
        assert secret.encode() not in stored, secret
    key = (tmp_path / "pki" / "session.key").read_bytes().strip()
    assert key not in stored
    reopened = SqliteSessionStore(tmp_path / "orchestrator.sqlite3", Seal(secretfile.load(
        tmp_path / "pki" / "session.key")), Lifetimes(1800, 43200)).load(listing.session_id)
    assert (reopened.patient_name, reopened.patient_cpf) == (MARIA.full_name, digits)


def test_a_session_expires_when_idle_and_is_purged(tmp_path: Path) -> None:
    store = SqliteSessionStore(tmp_path / "s.sqlite3", SEAL, Lifetimes(idle_s=0.3, max_s=60, purge_every_s=0))
    idle, active = store.load(""), store.load("")
    store.save(idle)
    for _ in range(3):  # turns every 0.15 s keep one alive past the idle time
        time.sleep(0.15)
        store.save(active)
    assert store.load(active.session_id) == active
    with pytest.raises(NotFound):  # purged by the saves meanwhile: an unknown session now
        store.load(idle.session_id)
    with sqlite3.connect(tmp_path / "s.sqlite3") as db:
        assert db.execute("SELECT session_id FROM sealed_sessions").fetchall() == [(active.session_id,)]


def test_a_session_expires_at_its_absolute_lifetime_however_active(tmp_path: Path) -> None:
    store = SqliteSessionStore(tmp_path / "s.sqlite3", SEAL, Lifetimes(idle_s=60, max_s=0.4))
    session = store.load("")
    store.save(session)
    for _ in range(3):
        time.sleep(0.15)
        store.save(session)
    with pytest.raises(NotFound, match="expired"):
        store.load(session.session_id)


def test_a_sealed_row_does_not_open_under_another_id_or_key(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    store = SqliteSessionStore(path, SEAL, Lifetimes(1800, 43200))
    first = replace(store.load(""), patient_name="Ana Lima", patient_cpf="52998224725",
                    consult=ConsultState(texts=["dor no peito"]))
    second = store.load("")
    store.save(first)
    store.save(second)
    with sqlite3.connect(path) as db:  # an attacker swaps the sealed states between the rows
        db.execute("UPDATE sealed_sessions SET state = (SELECT state FROM sealed_sessions"
                   " WHERE session_id = ?) WHERE session_id = ?", (first.session_id, second.session_id))
    with pytest.raises(NotFound, match="expired"):
        store.load(second.session_id)
    other_key = SqliteSessionStore(path, Seal(b"o" * 32), Lifetimes(1800, 43200))
    with pytest.raises(NotFound, match="expired"):
        other_key.load(first.session_id)
    assert store.load(first.session_id) == first
