"""An append-only hash chain of JSON records, in SQLite or PostgreSQL: `append(body)` → its hash,
`verify()` → the problems found ([] when intact), `records()` → every record in chain order.

Record n stores the hash of record n-1, and its own hash is HMAC-SHA256, under a key kept outside
the database, over the canonical JSON (sorted keys, no whitespace, UTF-8) of {seq, prev_hash,
body}: editing, deleting or reordering records breaks the chain, and without the key nobody can
re-hash an edited chain into a valid one. Deleting records from the *tail* leaves a valid shorter
chain, so the head (last seq and hash) is kept in its own table, written in the same transaction as
the record; and each appended head is also written, MACed, to a checkpoint file apart from the
database, so truncating the chain *and* rewriting its head shows too: a checkpoint names a record
the chain no longer has, or has with another hash. The body's `time` (UTC ISO 8601) is stamped
under the append lock when empty, so times never run backwards along the chain on one clock.

Storage: SQLite holds one chain per file (tables `audit` and `head`); PostgreSQL holds any number
of chains in one database, each in tables named after it (`<name>`, `<name>_head`). Both refuse
updates, deletes and records that do not extend the head with triggers: they guard against
mistakes through SQL and make the chain rules explicit; an edit past them is what verify() finds.
Bodies are stored as the exact canonical text that was hashed (never JSONB, which reorders keys).
"""

import hashlib
import hmac
import json
import os
import re
import sqlite3
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future
from contextlib import AbstractContextManager, closing, contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psycopg

from runtime import postgres, secretfile, sqlite

GENESIS = "0" * 64  # the prev_hash of record 1

Head = tuple[int, str]  # (seq, hash) of the last record; (0, GENESIS) when empty
Row = tuple[int, str, str, str]  # seq, prev_hash, hash, body (canonical JSON)
Insert = Callable[[int, str, str, str], None]


def canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode("utf-8")


class ChainKey:
    """The secret behind every MAC of a chain and its checkpoints. It lives in a file apart from the
    database (runtime.secretfile; a Kubernetes Secret in a cluster), never in it or its backups."""

    def __init__(self, secret: bytes) -> None:
        if len(secret) < secretfile.MIN_BYTES:
            raise ValueError(f"an audit key needs at least {secretfile.MIN_BYTES} bytes, got {len(secret)}")
        self._secret = secret

    @classmethod
    def load(cls, path: Path, *, create: bool = False) -> "ChainKey":
        """The key in `path`; with `create`, a new random one is written there first if missing."""
        return cls(secretfile.load(path, create=create))

    def mac(self, purpose: str, payload: bytes) -> str:
        """HMAC-SHA256 of `payload`, separated by `purpose` so a record's MAC never serves as a
        checkpoint's."""
        return hmac.new(self._secret, purpose.encode() + b"\0" + payload, hashlib.sha256).hexdigest()


def record_hash(key: ChainKey, seq: int, prev_hash: str, body: dict[str, Any]) -> str:
    return key.mac("record", canonical({"seq": seq, "prev_hash": prev_hash, "body": body}))


class Checkpoints:
    """An append-only file of the chain's heads, one JSON line per append: {seq, hash, time, mac}.
    Lines are written with O_APPEND in one write each, so processes sharing the file never mix
    them; each line stands alone, so a line lost in a crash only leaves its record unchecked."""

    def __init__(self, path: Path, key: ChainKey) -> None:
        self.path = path
        self._key = key
        self._fd: int | None = None
        self._lock = threading.Lock()

    def open(self) -> None:
        """Creates the file if missing; called before an append commits, so a chain with records
        always has its file and a missing one means it was removed."""
        with self._lock:
            if self._fd is None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)

    def write(self, seq: int, digest: str) -> None:
        entry = {"seq": seq, "hash": digest, "time": utc_now()}
        line = canonical({**entry, "mac": self._key.mac("checkpoint", canonical(entry))}) + b"\n"
        self.open()
        os.write(self._fd, line)

    def read(self) -> list[bytes] | None:
        """The complete lines written so far (None: no file). Read before the chain's snapshot,
        every line names a record the snapshot holds: a checkpoint is written after its record's
        commit. A last line without its newline is still being written and is left out."""
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return None
        return data[:data.rfind(b"\n") + 1].splitlines()

    def check(self, lines: list[bytes] | None, hashes: dict[int, str], last: Head) -> list[str]:
        """Problems between the checkpoint `lines` and the chain's record hashes by seq."""
        if lines is None:
            return [f"checkpoints missing at {self.path}"] if last[0] else []
        problems: list[str] = []
        for number, raw in enumerate(lines, start=1):
            try:
                entry = json.loads(raw)
                seq, digest, mac = int(entry["seq"]), str(entry["hash"]), str(entry.pop("mac"))
            except (ValueError, KeyError, TypeError):
                problems.append(f"checkpoint line {number}: unreadable")
                continue
            if not hmac.compare_digest(mac, self._key.mac("checkpoint", canonical(entry))):
                problems.append(f"checkpoint line {number}: MAC mismatch (forged, edited or another key)")
            elif seq > last[0]:
                problems.append(f"log truncated: checkpoint line {number} names record {seq} "
                                f"but the last record is {last[0]}")
            elif seq not in hashes:
                problems.append(f"record {seq} missing, though checkpoint line {number} names it")
            elif hashes[seq] != digest:
                problems.append(f"record {seq}: differs from checkpoint line {number} (rewritten)")
        return problems


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


class HashChain(ABC):
    """The chain's rules; a subclass stores it. Safe from many threads and processes."""

    def __init__(self, key: ChainKey, checkpoints: Checkpoints | None) -> None:
        self._key = key
        self.checkpoints = checkpoints
        # Group commit: appends that arrive while one is being written wait, and the next writer
        # commits them all in one transaction (one fsync), so concurrent Asks share the cost.
        self._lock = threading.Lock()
        self._waiting: list[tuple[dict[str, Any], Future[str]]] = []
        self._leading = False

    def append(self, body: dict[str, Any]) -> str:
        """Appends the body (any JSON object) and returns its record's hash once it is committed."""
        return self.append_all([body])[0]

    def append_all(self, bodies: Sequence[dict[str, Any]]) -> list[str]:
        """Appends the bodies in their order and returns their hashes once they are committed."""
        bodies = [json.loads(canonical(body)) for body in bodies]  # tuples become lists, as records() reads
        if self.checkpoints is not None:
            self.checkpoints.open()
        done: list[Future[str]] = [Future() for _ in bodies]
        with self._lock:
            self._waiting.extend(zip(bodies, done, strict=True))
            lead, self._leading = not self._leading, True
        if lead:  # this thread writes every batch until none is waiting; the others just wait
            self._lead()
        return [d.result() for d in done]

    def _lead(self) -> None:
        while True:
            with self._lock:
                batch, self._waiting = self._waiting, []
                if not batch:
                    self._leading = False
                    return
            try:
                digests = self._commit([body for body, _ in batch])
            except BaseException as exc:  # the batch's appenders each get the error
                for _, done in batch:
                    done.set_exception(exc)
            else:
                for (_, done), digest in zip(batch, digests, strict=True):
                    done.set_result(digest)

    def _commit(self, bodies: list[dict[str, Any]]) -> list[str]:
        # The head is read under the backend's write lock, so no two appenders (threads or
        # processes) can both extend the same head and fork the chain.
        appended: list[tuple[int, str]] = []
        with self._extend() as (head, insert):
            seq, prev = head
            for body in bodies:
                seq += 1
                body["time"] = body.get("time") or utc_now()
                digest = record_hash(self._key, seq, prev, body)
                insert(seq, prev, digest, canonical(body).decode("utf-8"))
                appended.append((seq, digest))
                prev = digest
        if self.checkpoints is not None:  # after the commit: a checkpoint never names a lost record
            for seq, digest in appended:
                self.checkpoints.write(seq, digest)
        return [digest for _, digest in appended]

    def verify(self) -> list[str]:
        """Problems found in the chain and its head; [] when intact."""
        return self.check()[0]

    def close(self) -> None:  # noqa: B027 - most stores hold nothing to release
        """Makes what is committed durable and releases what the chain holds."""

    def check(self) -> tuple[list[str], int]:
        """The problems found and how many records were checked."""
        # One snapshot: the head and the rows agree, so a concurrent append cannot look like a
        # head mismatch.
        written = self.checkpoints.read() if self.checkpoints is not None else None
        hashes: dict[int, str] = {}
        with self._snapshot() as (head, rows):
            problems, last, count = _check_chain(self._key, rows, hashes)
        problems += _check_head(head, last)
        if self.checkpoints is not None:
            problems += self.checkpoints.check(written, hashes, last)
        return problems, count

    def records(self) -> Iterator[dict[str, Any]]:
        """Every record in chain order: its body plus seq, prev_hash and hash."""
        for seq, prev_hash, digest, body in self._rows():
            yield {"seq": seq, "prev_hash": prev_hash, "hash": digest, **json.loads(body)}

    @abstractmethod
    def _extend(self) -> AbstractContextManager[tuple[Head, Insert]]:
        """A write transaction holding the chain's lock: the head, and how to insert the next
        record (which also advances the head). Commits at exit; rolls back on error."""

    @abstractmethod
    def _snapshot(self) -> AbstractContextManager[tuple[Head | None, Iterable[Row]]]:
        """The head (None when its row is gone) and every row by seq, from one consistent read."""

    @abstractmethod
    def _rows(self) -> Iterable[Row]:
        """Every row by seq."""


def report(where: str, chain: HashChain) -> int:
    """What a verify command prints: each problem, or the count of intact records; its exit code."""
    try:
        problems, count = chain.check()
    except (sqlite3.DatabaseError, psycopg.Error) as exc:
        print(f"cannot read audit log at {where}: {str(exc).splitlines()[0]}")
        return 1
    for problem in problems:
        print(problem)
    if problems:
        return 1
    print(f"audit log intact: {count} records")
    return 0


def command_key(key_file: Path) -> ChainKey | None:
    """A verify command's key; None after printing why it could not be read."""
    try:
        return ChainKey.load(key_file)
    except (OSError, ValueError) as exc:
        print(f"cannot read the audit key at {key_file}: {exc}")
        return None


def report_file(path: Path, key: ChainKey, checkpoints: Path) -> int:
    """`report` on an SQLite chain; a missing file is a failure, not an empty chain (sqlite3 would
    create the file, and an empty chain verifies as intact)."""
    if not path.is_file():
        print(f"no audit log at {path}")
        return 1
    return report(str(path), SqliteChain(path, key, checkpoints=Checkpoints(checkpoints, key), create=False))


def _check_chain(key: ChainKey, rows: Iterable[Row], hashes: dict[int, str]) -> tuple[list[str], Head, int]:
    """Problems along the chain, the (seq, hash) of the last record, and the number of records;
    fills `hashes` (seq → stored hash) for the checkpoints."""
    problems: list[str] = []
    last = (0, GENESIS)
    count = 0
    for seq, prev_hash, digest, body in rows:
        if seq != last[0] + 1:
            gap = f"record {seq - 1}" if seq - last[0] == 2 else f"records {last[0] + 1}..{seq - 1}"
            problems.append(f"{gap} missing (sequence jumps from {last[0]} to {seq})")
        elif prev_hash != last[1]:
            problems.append(f"record {seq}: prev_hash is not the hash of record {last[0]} "
                            "(records deleted or reordered)")
        if _rehash(key, seq, prev_hash, body) != digest:
            problems.append(f"record {seq}: hash mismatch (record edited or moved, or another key)")
        hashes[seq] = digest
        # Follow the stored hash: one edited record is reported once, not at every later record.
        last = (seq, digest)
        count += 1
    return problems, last, count


def _rehash(key: ChainKey, seq: int, prev_hash: str, body: str) -> str | None:
    try:
        return record_hash(key, seq, prev_hash, json.loads(body))
    except (ValueError, TypeError):  # not JSON any more: edited
        return None


def _check_head(head: Head | None, last: Head) -> list[str]:
    if head is None:
        return ["head missing (head table emptied)"]
    if head[0] > last[0]:
        return [f"log truncated: the head is record {head[0]} but the last record is {last[0]}"]
    if tuple(head) != last:
        return [f"head mismatch: the head is record {head[0]} ({head[1][:16]}…) "
                f"but the last record is {last[0]} ({last[1][:16]}…)"]
    return []


SQLITE_SCHEMA = f"""
BEGIN IMMEDIATE;
CREATE TABLE IF NOT EXISTS audit (
  seq INTEGER PRIMARY KEY,
  prev_hash TEXT NOT NULL,
  hash TEXT NOT NULL,
  body TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS head (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  seq INTEGER NOT NULL,
  hash TEXT NOT NULL
);
INSERT OR IGNORE INTO head VALUES (1, 0, '{GENESIS}');
CREATE TRIGGER IF NOT EXISTS audit_no_update BEFORE UPDATE ON audit
BEGIN SELECT RAISE(ABORT, 'audit log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS audit_no_delete BEFORE DELETE ON audit
BEGIN SELECT RAISE(ABORT, 'audit log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS audit_extends_head BEFORE INSERT ON audit
WHEN NEW.seq <> (SELECT seq FROM head) + 1 OR NEW.prev_hash <> (SELECT hash FROM head)
BEGIN SELECT RAISE(ABORT, 'audit record does not extend the head'); END;
CREATE TRIGGER IF NOT EXISTS head_no_delete BEFORE DELETE ON head
BEGIN SELECT RAISE(ABORT, 'audit head cannot be deleted'); END;
CREATE TRIGGER IF NOT EXISTS head_follows_audit BEFORE UPDATE ON head
WHEN NEW.seq <> OLD.seq + 1 OR NEW.hash IS NOT (SELECT hash FROM audit WHERE seq = NEW.seq)
BEGIN SELECT RAISE(ABORT, 'audit head may only advance to the newest record'); END;
COMMIT;
"""


class WalSyncer:
    """Makes a WAL file's commits survive a power cut within `interval_s` of being made, with one
    fsync per interval shared by every commit in it, on a thread of its own. The commits it is
    told of were already written to the WAL with synchronous=NORMAL, so they survive the process
    dying at once (kill -9): the OS holds them."""

    def __init__(self, wal: Path, interval_s: float) -> None:
        self._wal = wal
        self._interval_s = interval_s
        self._dirty = threading.Event()
        self._closed = False
        self.syncs = 0  # fsyncs done, for operators and tests
        self._thread = threading.Thread(target=self._run, name=f"sync {wal.name}", daemon=True)
        self._thread.start()

    def committed(self) -> None:
        self._dirty.set()

    def _run(self) -> None:
        while not self._closed:
            self._dirty.wait()
            time.sleep(self._interval_s)  # the commits of this interval share the next fsync
            self._dirty.clear()
            self.sync()

    def sync(self) -> None:
        try:  # opened anew: SQLite may delete the WAL when a checkpoint empties it (then it synced it)
            fd = os.open(self._wal, os.O_RDONLY)
        except FileNotFoundError:
            return
        try:
            os.fsync(fd)
            self.syncs += 1
        finally:
            os.close(fd)

    def close(self) -> None:
        self._closed = True
        self._dirty.set()
        self._thread.join()


class SqliteChain(HashChain):
    """The chain in one SQLite file (WAL, so verify() and readers run beside appenders).
    `create=False` opens an existing file as it is, so a verifier never repairs what it reports.

    `sync_interval_s` 0: each commit is fsynced before append() returns (synchronous=FULL). Above
    0: append() returns once the record is in the WAL, which survives the process dying, and a
    WalSyncer fsyncs it within that interval, so a power cut loses at most that interval's records."""

    def __init__(self, path: Path, key: ChainKey, *, checkpoints: Checkpoints | None = None,
                 create: bool = True, sync_interval_s: float = 0.0) -> None:
        super().__init__(key, checkpoints)
        self.path = path
        self._db = sqlite.Database(path, synchronous="NORMAL" if sync_interval_s > 0 else "FULL")
        self._syncer = WalSyncer(Path(f"{path}-wal"), sync_interval_s) if sync_interval_s > 0 else None
        if create:
            with closing(sqlite.connect(path)) as conn:
                sqlite.enable_wal(conn)
                conn.executescript(SQLITE_SCHEMA)

    def _commit(self, bodies: list[dict[str, Any]]) -> list[str]:
        digests = super()._commit(bodies)
        if self._syncer is not None:
            self._syncer.committed()
        return digests

    @property
    def wal_syncs(self) -> int:
        """The WAL fsyncs the syncer has done (0 when each commit is fsynced by SQLite)."""
        return self._syncer.syncs if self._syncer is not None else 0

    def close(self) -> None:
        """Syncs what is committed and stops the syncer."""
        if self._syncer is not None:
            self._syncer.close()

    @contextmanager
    def _extend(self) -> Iterator[tuple[Head, Insert]]:
        with self._db.write() as conn:  # BEGIN IMMEDIATE: the write lock before the head is read
            def insert(seq: int, prev_hash: str, digest: str, body: str) -> None:
                conn.execute("INSERT INTO audit (seq, prev_hash, hash, body) VALUES (?, ?, ?, ?)",
                             (seq, prev_hash, digest, body))
                conn.execute("UPDATE head SET seq = ?, hash = ?", (seq, digest))

            yield conn.execute("SELECT seq, hash FROM head").fetchone(), insert

    @contextmanager
    def _snapshot(self) -> Iterator[tuple[Head | None, Iterable[Row]]]:
        with closing(sqlite.connect(self.path)) as conn:
            conn.execute("BEGIN")  # one read transaction: one snapshot of the WAL
            head = conn.execute("SELECT seq, hash FROM head").fetchone()
            yield head, conn.execute("SELECT seq, prev_hash, hash, body FROM audit ORDER BY seq")
            conn.execute("COMMIT")

    def tail(self, count: int) -> list[dict[str, Any]]:
        """The bodies of the last `count` records, oldest first."""
        with closing(sqlite.connect(self.path)) as conn:
            rows = conn.execute("SELECT body FROM audit ORDER BY seq DESC LIMIT ?", (count,)).fetchall()
        return [json.loads(body) for body, in reversed(rows)]

    def _rows(self) -> Iterator[Row]:
        # A connection of its own: a consumer that stops early cannot leave the appender's
        # connection inside a read.
        with closing(sqlite.connect(self.path)) as conn:
            yield from conn.execute("SELECT seq, prev_hash, hash, body FROM audit ORDER BY seq")


NAME = re.compile(r"[a-z][a-z0-9_]{0,40}")


def _postgres_schema(name: str) -> str:
    """The tables and the triggers equivalent to SQLite's, plus TRUNCATE, which bypasses row
    triggers in PostgreSQL. Needs PostgreSQL 14 or newer (CREATE OR REPLACE TRIGGER)."""
    head = f"{name}_head"
    return f"""
CREATE TABLE IF NOT EXISTS {name} (
  seq BIGINT PRIMARY KEY,
  prev_hash TEXT NOT NULL,
  hash TEXT NOT NULL,
  body TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS {head} (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  seq BIGINT NOT NULL,
  hash TEXT NOT NULL
);
INSERT INTO {head} VALUES (1, 0, '{GENESIS}') ON CONFLICT (id) DO NOTHING;
CREATE OR REPLACE FUNCTION {name}_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION '{name} log is append-only'; END $$;
CREATE OR REPLACE FUNCTION {name}_extends_head() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.seq <> (SELECT seq FROM {head}) + 1 OR NEW.prev_hash <> (SELECT hash FROM {head}) THEN
    RAISE EXCEPTION '{name} record does not extend the head';
  END IF;
  RETURN NEW;
END $$;
CREATE OR REPLACE FUNCTION {head}_kept() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION '{name} head cannot be deleted'; END $$;
CREATE OR REPLACE FUNCTION {head}_follows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.seq <> OLD.seq + 1 OR NEW.hash IS DISTINCT FROM (SELECT hash FROM {name} WHERE seq = NEW.seq) THEN
    RAISE EXCEPTION '{name} head may only advance to the newest record';
  END IF;
  RETURN NEW;
END $$;
CREATE OR REPLACE TRIGGER {name}_no_change BEFORE UPDATE OR DELETE ON {name}
  FOR EACH ROW EXECUTE FUNCTION {name}_append_only();
CREATE OR REPLACE TRIGGER {name}_no_truncate BEFORE TRUNCATE ON {name}
  FOR EACH STATEMENT EXECUTE FUNCTION {name}_append_only();
CREATE OR REPLACE TRIGGER {name}_extends_head BEFORE INSERT ON {name}
  FOR EACH ROW EXECUTE FUNCTION {name}_extends_head();
CREATE OR REPLACE TRIGGER {head}_no_delete BEFORE DELETE ON {head}
  FOR EACH ROW EXECUTE FUNCTION {head}_kept();
CREATE OR REPLACE TRIGGER {head}_no_truncate BEFORE TRUNCATE ON {head}
  FOR EACH STATEMENT EXECUTE FUNCTION {head}_kept();
CREATE OR REPLACE TRIGGER {head}_follows BEFORE UPDATE ON {head}
  FOR EACH ROW EXECUTE FUNCTION {head}_follows();
"""


class PostgresChain(HashChain):
    """The chain named `name` in a PostgreSQL database, through `connect` (a pool's
    `connection`, or `runtime.postgres.connector(url)`). Appends serialise on a row lock of the
    head (SELECT … FOR UPDATE), held to the end of the append's transaction, across processes
    and hosts. `create=False` reads the database as it is."""

    def __init__(self, connect: postgres.Connect, key: ChainKey, name: str = "audit", *,
                 checkpoints: Checkpoints | None = None, create: bool = True) -> None:
        super().__init__(key, checkpoints)
        if not NAME.fullmatch(name):
            raise ValueError(f"chain name must match {NAME.pattern}, got {name!r}")
        self._connect = connect
        self._table, self._head = name, f"{name}_head"
        self._select = f"SELECT seq, prev_hash, hash, body FROM {name} ORDER BY seq"
        if create:
            postgres.ensure_schema(connect, f"healthmesh.chain.{name}", _postgres_schema(name))

    @contextmanager
    def _extend(self) -> Iterator[tuple[Head, Insert]]:
        with self._connect() as conn:
            head = conn.execute(f"SELECT seq, hash FROM {self._head} WHERE id = 1 FOR UPDATE").fetchone()

            def insert(seq: int, prev_hash: str, digest: str, body: str) -> None:
                conn.execute(f"INSERT INTO {self._table} (seq, prev_hash, hash, body)"
                             " VALUES (%s, %s, %s, %s)", (seq, prev_hash, digest, body))
                conn.execute(f"UPDATE {self._head} SET seq = %s, hash = %s WHERE id = 1", (seq, digest))

            yield head, insert

    @contextmanager
    def _snapshot(self) -> Iterator[tuple[Head | None, Iterable[Row]]]:
        with self._connect() as conn:
            conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            head = conn.execute(f"SELECT seq, hash FROM {self._head} WHERE id = 1").fetchone()
            yield head, conn.execute(self._select)

    def _rows(self) -> list[Row]:
        # Fetched whole: the connection goes back to the pool before the caller iterates.
        with self._connect() as conn:
            return conn.execute(self._select).fetchall()
