"""The one way this repository uses SQLite: a connection per thread, the WAL switch, explicit
write transactions, and one way to run blocking calls off the event loop.

sqlite3 connections belong to the thread that opened them, so a `Database` keeps one per
thread. Writable connections are in autocommit mode: every transaction is an explicit
`BEGIN IMMEDIATE` … `COMMIT` from `Database.write()`.
"""

import asyncio
import contextvars
import functools
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Executor
from contextlib import contextmanager
from pathlib import Path
from typing import Literal, TypeVar

T = TypeVar("T")

BUSY_TIMEOUT = 30.0  # seconds a connection waits for another's write lock
WAL_RETRY_SLEEP = 0.01


def connect(path: Path, *, read_only: bool = False) -> sqlite3.Connection:
    """A new connection, owned by the caller (close it)."""
    if read_only:
        # mode=ro never creates or writes the file. Such a file is not written while it is
        # served and only SELECTs run on it, so sqlite3's default locking settings are kept.
        return sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True)
    return sqlite3.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT)


def enable_wal(conn: sqlite3.Connection) -> None:
    """WAL lets readers run beside a writer; the mode persists in the file."""
    # Switching needs an exclusive lock, and when another process opens the fresh file at the
    # same time SQLite reports BUSY at once instead of calling its busy handler: wait here instead.
    deadline = time.monotonic() + BUSY_TIMEOUT
    while True:
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if exc.sqlite_errorname != "SQLITE_BUSY" or time.monotonic() > deadline:
                raise
            time.sleep(WAL_RETRY_SLEEP)


class Database:
    """One SQLite file and how to open it; each thread gets its own connection on first use.

    `wal` switches the file to WAL, `synchronous` sets the fsync level (NORMAL: a power cut may
    lose the last commits, never corrupt the file; FULL: a commit survives it), `foreign_keys`
    enforces REFERENCES, and `schema` (CREATE … IF NOT EXISTS statements) runs on every new
    connection, in that order.
    """

    def __init__(self, path: Path, *, read_only: bool = False, wal: bool = False,
                 synchronous: Literal["NORMAL", "FULL"] | None = None, foreign_keys: bool = False,
                 schema: str = "") -> None:
        self.path = path
        self.read_only = read_only
        self.wal = wal
        self.synchronous = synchronous
        self.foreign_keys = foreign_keys
        self.schema = schema
        self._local = threading.local()

    def connection(self) -> sqlite3.Connection:
        """The calling thread's connection."""
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = connect(self.path, read_only=self.read_only)
            if self.wal:
                enable_wal(conn)
            if self.synchronous:
                conn.execute(f"PRAGMA synchronous={self.synchronous}")
            if self.foreign_keys:
                conn.execute("PRAGMA foreign_keys=ON")
            if self.schema:
                conn.executescript(self.schema)
            self._local.conn = conn
        return conn

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """An IMMEDIATE transaction on the calling thread's connection: it takes the write lock
        up front, so a read-then-write inside it cannot interleave with another writer in any
        thread or process. Commits at the end; rolls back on any exception."""
        conn = self.connection()
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
            conn.execute("COMMIT")
        except BaseException:
            # Some errors (disk full, I/O) have already rolled back; a second ROLLBACK would
            # hide them behind "no transaction is active".
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    def close(self) -> None:
        """Closes the calling thread's connection; the next use opens a new one."""
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None


async def run(fn: Callable[..., T], *args: object, pool: Executor | None = None) -> T:
    """Runs a blocking SQLite (or PostgreSQL, runtime.postgres) call off the event loop (the
    write lock may be held by another process): on `pool` when the service sizes its own, else on
    asyncio's default executor, exactly as `asyncio.to_thread` does. The caller's context variables
    (request id, trace) go along."""
    call = functools.partial(contextvars.copy_context().run, fn, *args)
    return await asyncio.get_running_loop().run_in_executor(pool, call)
