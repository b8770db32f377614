"""Keeping a turn with the embedded state (orchestrator.recording.Journal) on real SQLite files: a kept
turn is read back at once and is in the stores after the commit; a process killed right after keeping
a turn, before any commit, loses nothing, and the next start commits it once; the journal holds no PHI;
one orchestrator per data directory."""

import asyncio
import multiprocessing
import os
import signal
import sqlite3
import time
from contextlib import ExitStack, closing
from dataclasses import replace
from pathlib import Path

import pytest

from orchestrator.privacy.seal import Seal
from orchestrator.recording import Journal, _Entry
from orchestrator.sessions import Lifetimes, Session, SqliteSessionStore
from runtime.auditchain import ChainKey, SqliteChain
from runtime.config import ConfigError
from tests.test_audit import record

SEAL = Seal(b"s" * 32)
CPF = "52998224725"


def stores(directory: Path) -> tuple[SqliteSessionStore, SqliteChain]:
    key = ChainKey.load(directory / "audit.key", create=True)
    chain = directory / "audit.sqlite3"
    return (SqliteSessionStore(directory / "orchestrator.sqlite3", SEAL, Lifetimes(1800, 43200)),
            SqliteChain(chain, key, create=not chain.exists()))


def opened(directory: Path, **options: int) -> tuple[Journal, SqliteSessionStore, SqliteChain]:
    sessions, chain = stores(directory)
    return Journal(directory / "turns.journal", sessions, chain, **options), sessions, chain


def turn(sessions: SqliteSessionStore, session_id: str = "") -> Session:
    session = sessions.load("")
    return replace(session, session_id=session_id or session.session_id, language="pt",
                   patient_name="Ana Lima", patient_cpf=CPF)


def write_locked(directory: Path, stack: ExitStack) -> None:
    """Holds both stores' write locks, as a long writer in another process would: no commit can happen."""
    for name in ("orchestrator.sqlite3", "audit.sqlite3"):
        conn = stack.enter_context(closing(sqlite3.connect(directory / name, isolation_level=None)))
        conn.execute("BEGIN IMMEDIATE")


def session_ids(chain: SqliteChain) -> list[str]:
    return [r["session_id"] for r in chain.records()]


def test_a_kept_turn_is_read_back_at_once_and_is_in_the_stores_after_its_commit(tmp_path: Path) -> None:
    journal, sessions, chain = opened(tmp_path)
    session = turn(sessions)
    asyncio.run(journal.keep(session, record(1, session.session_id)))
    assert asyncio.run(journal.load(session.session_id)) == session
    journal.close()
    assert sessions.load(session.session_id) == session
    assert session_ids(chain) == [session.session_id]
    assert (tmp_path / "turns.journal").stat().st_size == 0  # nothing left to commit


def keep_and_die(directory: str) -> None:
    """Keeps one turn while both stores are locked, so nothing can be committed, then dies by
    SIGKILL at once: only the journal can have kept it."""
    with ExitStack() as stack:
        write_locked(Path(directory), stack)
        journal, sessions, _ = opened(Path(directory))
        asyncio.run(journal.keep(turn(sessions, "killed"), record(1, "killed")))
        os.kill(os.getpid(), signal.SIGKILL)


def test_a_turn_kept_by_a_process_killed_right_after_is_committed_once_at_the_next_start(
        tmp_path: Path) -> None:
    stores(tmp_path)  # the files and their schemas
    child = multiprocessing.get_context("spawn").Process(target=keep_and_die, args=(str(tmp_path),))
    child.start()
    child.join(30)
    assert child.exitcode == -signal.SIGKILL
    sessions, chain = stores(tmp_path)
    assert session_ids(chain) == []
    for _ in range(2):  # the second start finds nothing left to add
        journal, sessions, chain = opened(tmp_path)
        journal.close()
        assert session_ids(chain) == ["killed"]
        assert chain.verify() == []
        assert sessions.load("killed").patient_cpf == CPF


def test_a_start_adds_no_record_the_chain_already_has(tmp_path: Path) -> None:
    journal, sessions, chain = opened(tmp_path)
    first, second = turn(sessions), turn(sessions)
    for n, session in enumerate((first, second), 1):
        asyncio.run(journal.keep(session, record(n, session.session_id)))
    journal.close()
    # As if killed after that commit but before the file was emptied, with a third turn not
    # committed and a fourth being written (no newline yet).
    third, fourth = turn(sessions), turn(sessions)
    bodies = [*chain.tail(2), *({**record(n, s.session_id).body(), "time": "2031-01-01T00:00:00"}
                                for n, s in ((3, third), (4, fourth)))]
    entries = [_Entry(s.session_id, sessions.seal(s), body)
               for s, body in zip((first, second, third, fourth), bodies, strict=True)]
    lines = b"".join(entry.line() for entry in entries)
    (tmp_path / "turns.journal").write_bytes(lines[:-5])
    journal, sessions, chain = opened(tmp_path)
    journal.close()
    assert session_ids(chain) == [first.session_id, second.session_id, third.session_id]
    assert chain.verify() == []
    assert sessions.load(third.session_id) == third


def test_a_journal_compacted_under_load_loses_no_turn(tmp_path: Path) -> None:
    stores(tmp_path)
    with ExitStack() as stack:
        write_locked(tmp_path, stack)
        # Every commit that leaves turns waiting compacts the file.
        journal, sessions, chain = opened(tmp_path, compact_bytes=1)
        kept = [turn(sessions) for _ in range(3)]
        asyncio.run(journal.keep(kept[0], record(1, kept[0].session_id)))
        time.sleep(0.3)  # the writer took the first alone and waits for the lock
        for n, session in enumerate(kept[1:], 2):
            asyncio.run(journal.keep(session, record(n, session.session_id)))
        inode = (tmp_path / "turns.journal").stat().st_ino
    journal.close()
    assert (tmp_path / "turns.journal").stat().st_ino != inode  # rewritten with the two left waiting
    assert session_ids(chain) == [s.session_id for s in kept]
    assert [sessions.load(s.session_id) for s in kept] == kept


def test_the_journal_holds_no_phi(tmp_path: Path) -> None:
    stores(tmp_path)
    with ExitStack() as stack:
        write_locked(tmp_path, stack)  # the turn stays in the journal while it is read
        journal, sessions, _ = opened(tmp_path)
        session = turn(sessions)
        asyncio.run(journal.keep(session, record(1, session.session_id)))
        stored = (tmp_path / "turns.journal").read_bytes()
    journal.close()
    assert session.session_id.encode() in stored
    for secret in ("Ana Lima", CPF):  # (a short name could occur by chance in the sealed bytes' base64)
        assert secret.encode() not in stored, secret
    assert sessions.load(session.session_id) == session


def test_a_second_orchestrator_on_the_same_data_directory_is_refused(tmp_path: Path) -> None:
    journal, _, _ = opened(tmp_path)
    try:
        with pytest.raises(ConfigError, match="another orchestrator is using this data directory"):
            opened(tmp_path)
    finally:
        journal.close()
    opened(tmp_path)[0].close()  # free again once the first has stopped
