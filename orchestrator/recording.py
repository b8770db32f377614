"""Step 8 of a turn, keeping it: its session (which the session's next turn reads) and its audit
record (which an answered turn must have, even when the process is killed right after replying).

`Journal`, with the embedded SQLite state: both go into a journal file in one append before the
reply; once written, the kernel holds them, so killing the process cannot lose them. A writer thread
then commits them to their stores after the reply, in batches, and a turn of the same session
meanwhile reads its state from the journal. At start, whatever the journal holds that the stores
lack is committed. The journal holds what the stores hold: sealed sessions and redacted records.

`CommitFirst`, with PostgreSQL: replicas share the state and a session's next turn may land on
another replica, so both are committed before the reply.
"""

import asyncio
import base64
import errno
import fcntl
import json
import logging
import os
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from orchestrator.privacy.audit import AuditLog, AuditRecord
from orchestrator.sessions import Session, SessionStore
from runtime import sqlite
from runtime.auditchain import SqliteChain, canonical, utc_now
from runtime.config import ConfigError

log = logging.getLogger(__name__)

RETRY_S = 1.0  # a failed commit is tried again after this, the same batch in the same order
COMPACT_BYTES = 1 << 20  # past this, the file is rewritten to hold only what is not committed yet


class Recorder(Protocol):
    async def load(self, session_id: str) -> Session:
        """The session with that id (NotFound when unknown or expired); an empty id starts one."""

    async def keep(self, session: Session, record: AuditRecord) -> None:
        """Returns once neither can be lost by the process dying."""

    def close(self) -> None:
        """Commits what is still waiting; called once serving has stopped."""


class CommitFirst:
    """Both committed before the reply, in one trip off the event loop, one turn at a time."""

    def __init__(self, sessions: SessionStore, audit: AuditLog) -> None:
        self._sessions = sessions
        self._audit = audit
        self._io = asyncio.Semaphore(1)

    async def load(self, session_id: str) -> Session:
        if not session_id:
            return self._sessions.load("")
        async with self._io:
            return await sqlite.run(self._sessions.load, session_id)

    async def keep(self, session: Session, record: AuditRecord) -> None:
        async with self._io:
            await sqlite.run(self._commit, session, record)

    def _commit(self, session: Session, record: AuditRecord) -> None:
        """The session, then the audit record whatever the save did. An append that fails is
        logged loudly but does not undo a turn whose bookings already happened."""
        try:
            self._sessions.save(session)
        finally:
            try:
                self._audit.append(record)
            except Exception:
                log.exception("audit append failed", extra={"trace_id": record.trace_id})

    def close(self) -> None:
        pass  # nothing waits


@dataclass(frozen=True)
class _Entry:
    session_id: str
    sealed: bytes
    record: dict[str, Any]  # the audit record's body, its time set

    def line(self) -> bytes:
        return canonical({"session_id": self.session_id, "sealed": base64.b64encode(self.sealed).decode(),
                          "record": self.record}) + b"\n"

    @classmethod
    def parse(cls, line: bytes) -> "_Entry":
        data = json.loads(line)
        return cls(data["session_id"], base64.b64decode(data["sealed"]), data["record"])


class Journal:
    """The journal file of one orchestrator's data directory (a second orchestrator on the same
    directory is refused at start) and the thread that commits it."""

    def __init__(self, path: Path, sessions: SessionStore, chain: SqliteChain, *,
                 compact_bytes: int = COMPACT_BYTES) -> None:
        self.path = path
        self._compact_bytes = compact_bytes
        self._sessions = sessions
        self._chain = chain
        self._fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(self._fd)
            raise ConfigError(f"{path}: another orchestrator is using this data directory") from None
        self._lock = threading.Condition()
        self._waiting: list[_Entry] = []  # journaled, not committed yet, in order
        self._latest: dict[str, _Entry] = {}  # per session, its newest state among them
        self._size = 0  # bytes in the file
        self._closing = False
        self._recover()
        self._writer = threading.Thread(target=self._run, name="journal writer", daemon=True)
        self._writer.start()

    async def load(self, session_id: str) -> Session:
        entry = self._latest.get(session_id)
        if entry is not None:  # its last turn is not committed yet
            return self._sessions.unseal(session_id, entry.sealed)
        if not session_id:
            return self._sessions.load("")
        return await sqlite.run(self._sessions.load, session_id)

    async def keep(self, session: Session, record: AuditRecord) -> None:
        body = record.body()
        body["time"] = body["time"] or utc_now()  # the record's time is when its turn ended
        entry = _Entry(session.session_id, self._sessions.seal(session), body)
        line = entry.line()
        with self._lock:
            # One append to the page cache, on the loop: cheaper than a trip to a thread.
            if os.write(self._fd, line) != len(line):  # a full disk: no half line is left behind
                os.ftruncate(self._fd, self._size)
                raise OSError(errno.ENOSPC, f"{self.path}: the turn could not be journaled")
            self._size += len(line)
            self._waiting.append(entry)
            self._latest[entry.session_id] = entry
            self._lock.notify()

    def close(self) -> None:
        with self._lock:
            self._closing = True
            self._lock.notify()
        self._writer.join()
        os.close(self._fd)  # releases the lock on the file

    def _run(self) -> None:
        while True:
            with self._lock:
                while not self._waiting and not self._closing:
                    self._lock.wait()
                if not self._waiting:
                    return
                batch = list(self._waiting)
            while not self._commit(batch):
                if self._closing:
                    return  # the journal keeps them; the next start commits them
                time.sleep(RETRY_S)
            with self._lock:
                del self._waiting[:len(batch)]
                for entry in batch:
                    if self._latest.get(entry.session_id) is entry:
                        del self._latest[entry.session_id]
                if not self._waiting:
                    os.ftruncate(self._fd, 0)
                    self._size = 0
                elif self._size > self._compact_bytes:
                    self._rewrite(self._waiting)

    def _commit(self, entries: Sequence[_Entry]) -> bool:
        try:
            for entry in entries:
                self._sessions.save_sealed(entry.session_id, entry.sealed)
            self._chain.append_all([entry.record for entry in entries])
            return True
        except Exception:
            log.exception("journal commit failed; retrying", extra={"entries": len(entries)})
            return False

    def _rewrite(self, entries: Sequence[_Entry]) -> None:
        """The file holds only `entries` afterwards. A new file takes the old one's place in one
        rename, locked before it does, so a crash at any point leaves one whole journal."""
        fd = os.open(f"{self.path}.new", os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC, 0o600)
        fcntl.flock(fd, fcntl.LOCK_EX)
        lines = b"".join(entry.line() for entry in entries)
        os.write(fd, lines)
        os.replace(f"{self.path}.new", self.path)
        os.close(self._fd)
        self._fd, self._size = fd, len(lines)

    def _recover(self) -> None:
        """Commits what the file holds that the stores lack, then empties it. A last line without
        its newline was being written when the process died: its turn was never answered."""
        data = os.pread(self._fd, os.fstat(self._fd).st_size, 0)
        lines = data[:data.rfind(b"\n") + 1].splitlines()
        if lines:
            entries = []
            for number, line in enumerate(lines, 1):
                try:
                    entries.append(_Entry.parse(line))
                except (ValueError, KeyError, TypeError) as exc:
                    raise ConfigError(f"{self.path}: line {number} is not a journal entry ({exc})") from None
            records = [json.loads(canonical(entry.record)) for entry in entries]
            done = _committed(self._chain.tail(len(records)), records)
            for entry in entries:  # in order, so each session ends at its newest state
                self._sessions.save_sealed(entry.session_id, entry.sealed)
            self._chain.append_all(records[done:])
            log.warning("journal recovered",
                        extra={"entries": len(entries), "records_added": len(records) - done})
        os.ftruncate(self._fd, 0)


def _committed(tail: list[dict[str, Any]], records: list[dict[str, Any]]) -> int:
    """How many of `records` (in order) the chain's `tail` already ends with: a crash can fall
    between a batch's commit and the file being emptied."""
    for count in range(min(len(tail), len(records)), 0, -1):
        if tail[len(tail) - count:] == records[:count]:
            return count
    return 0
