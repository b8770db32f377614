"""The audit log: one hash-chained record per Ask, appended to an SQLite file.

PHI contract: the caller hands over the message already redacted (every PHI span replaced by
its category, e.g. "<BR_CPF>") and only PHI *categories*, never values. This store does not
detect or redact anything; it keeps what it is given, forever, so nothing else may reach it.

Integrity: record n stores the hash of record n-1, and its own hash is SHA-256 over the
canonical JSON (sorted keys, no whitespace, UTF-8) of {seq, prev_hash, body}. Editing,
deleting or reordering records breaks the chain. Deleting records from the *tail* leaves a
valid shorter chain, so the head (last seq and hash) is kept in its own table, written in the
same transaction as the record; truncation then shows as a head mismatch. Someone who can
write the file can still truncate *and* rewrite the head, or rebuild the whole chain: only a
copy of the head kept elsewhere (another host, a signed log) proves against that.

Usage: python -m orchestrator.privacy.audit verify [--path P]   (default $HEALTHMESH_DATA_DIR/audit.sqlite3)
"""

import argparse
import hashlib
import json
import sqlite3
import sys
from collections.abc import Iterator
from contextlib import closing
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from runtime import sqlite
from runtime.settings import Settings

GENESIS = "0" * 64  # the prev_hash of record 1
STEP_FIELDS = frozenset({"step_id", "clinic_id", "action", "status", "attempts"})
VERDICT_FIELDS = frozenset({"safe", "notes"})

# The triggers guard against mistakes through SQL (and make the chain rules explicit in the
# file); they are no defence against someone who edits the file, which verify() catches.
SCHEMA = f"""
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


@dataclass(frozen=True)
class AuditRecord:
    """What one Ask leaves behind. `message_redacted` must already have every PHI span replaced
    by its category, and `phi_categories` holds category names only (see the module doc)."""

    session_id: str
    disposition: str
    route: str
    phi_categories: tuple[str, ...]
    steps: tuple[dict, ...]  # each exactly {step_id, clinic_id, action, status, attempts}
    verdict: dict  # exactly {safe: bool, notes: [str]}
    trace_id: str
    message_redacted: str
    time: str = ""  # UTC ISO 8601; filled at append when empty

    def body(self) -> dict[str, Any]:
        """The JSON body; fixed shapes so no free-form field can carry data past the contract."""
        for i, step in enumerate(self.steps):
            if set(step) != STEP_FIELDS:
                raise ValueError(f"steps[{i}]: expected fields {sorted(STEP_FIELDS)}, got {sorted(step)}")
        if set(self.verdict) != VERDICT_FIELDS:
            raise ValueError(f"verdict: expected fields {sorted(VERDICT_FIELDS)}, got {sorted(self.verdict)}")
        return json.loads(canonical(asdict(self)))  # tuples become lists, as verify() reads them back


def canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode("utf-8")


def record_hash(seq: int, prev_hash: str, body: dict[str, Any]) -> str:
    return hashlib.sha256(canonical({"seq": seq, "prev_hash": prev_hash, "body": body})).hexdigest()


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


class AuditLog:
    """Append-only, hash-chained audit records in SQLite; safe from many threads and processes."""

    def __init__(self, path: Path) -> None:
        self.path = path
        # FULL: a committed audit record survives a power cut (one fsync per Ask is cheap).
        self._db = sqlite.Database(path, synchronous="FULL")
        with closing(sqlite.connect(path)) as conn:
            # WAL lets verify() and readers run beside appenders.
            sqlite.enable_wal(conn)
            conn.executescript(SCHEMA)

    def append(self, record: AuditRecord) -> str:
        """Appends the record and returns its hash."""
        body = record.body()
        # IMMEDIATE takes the write lock before reading the head, so no two appenders (threads
        # or processes) can both extend the same head and fork the chain.
        with self._db.write() as conn:
            head_seq, head_hash = conn.execute("SELECT seq, hash FROM head").fetchone()
            seq = head_seq + 1
            # Stamped under the lock, so times never run backwards along the chain on one clock.
            body["time"] = body["time"] or utc_now()
            digest = record_hash(seq, head_hash, body)
            conn.execute("INSERT INTO audit (seq, prev_hash, hash, body) VALUES (?, ?, ?, ?)",
                         (seq, head_hash, digest, canonical(body).decode("utf-8")))
            conn.execute("UPDATE head SET seq = ?, hash = ?", (seq, digest))
        return digest

    def verify(self) -> list[str]:
        """Problems found in the chain and its head; [] when the log is intact."""
        return verify_file(self.path)[0]

    def records(self) -> Iterator[dict[str, Any]]:
        """Every record in chain order: its body plus seq, prev_hash and hash."""
        # A connection of its own: a consumer that stops early cannot leave the appender's
        # connection inside a read.
        with closing(sqlite.connect(self.path)) as conn:
            for seq, prev_hash, digest, body in conn.execute(
                    "SELECT seq, prev_hash, hash, body FROM audit ORDER BY seq"):
                yield {"seq": seq, "prev_hash": prev_hash, "hash": digest, **json.loads(body)}


def verify_file(path: Path) -> tuple[list[str], int]:
    """The problems in the log at `path` and how many records were checked. Reads only: the
    schema is not (re)created, so a verifier never repairs what it is meant to report."""
    with closing(sqlite.connect(path)) as conn:
        # One read transaction: the head and the rows come from the same snapshot, so a
        # concurrent append cannot look like a head mismatch.
        conn.execute("BEGIN")
        head = conn.execute("SELECT seq, hash FROM head").fetchone()
        rows = conn.execute("SELECT seq, prev_hash, hash, body FROM audit ORDER BY seq")
        problems, last, count = _check_chain(rows)
        conn.execute("COMMIT")
    return problems + _check_head(head, last), count


def _check_chain(rows: Iterator[tuple[int, str, str, str]]) -> tuple[list[str], tuple[int, str], int]:
    """Problems along the chain, the (seq, hash) of the last record, and the number of records."""
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
        if _rehash(seq, prev_hash, body) != digest:
            problems.append(f"record {seq}: hash mismatch (record edited or moved)")
        # Follow the stored hash: one edited record is reported once, not at every later record.
        last = (seq, digest)
        count += 1
    return problems, last, count


def _rehash(seq: int, prev_hash: str, body: str) -> str | None:
    try:
        return record_hash(seq, prev_hash, json.loads(body))
    except (ValueError, TypeError):  # not JSON any more: edited
        return None


def _check_head(head: tuple[int, str] | None, last: tuple[int, str]) -> list[str]:
    if head is None:
        return ["head missing (head table emptied)"]
    if head[0] > last[0]:
        return [f"log truncated: the head is record {head[0]} but the last record is {last[0]}"]
    if tuple(head) != last:
        return [f"head mismatch: the head is record {head[0]} ({head[1][:16]}…) "
                f"but the last record is {last[0]} ({last[1][:16]}…)"]
    return []


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m orchestrator.privacy.audit",
                                     description="Audit log tools.")
    commands = parser.add_subparsers(dest="command", required=True)
    verify = commands.add_parser("verify", help="check the hash chain and the head; exit 1 on any problem")
    verify.add_argument("--path", type=Path, help="audit database [$HEALTHMESH_DATA_DIR/audit.sqlite3]")
    args = parser.parse_args(argv)

    path = args.path or Settings.from_env().data.data_dir / "audit.sqlite3"
    # sqlite3 would create an empty file; a mistyped path must fail, not verify as intact.
    if not path.is_file():
        print(f"no audit log at {path}")
        return 1
    try:
        problems, count = verify_file(path)
    except sqlite3.DatabaseError as exc:
        print(f"cannot read audit log at {path}: {exc}")
        return 1
    for problem in problems:
        print(problem)
    if problems:
        return 1
    print(f"audit log intact: {count} records")
    return 0


if __name__ == "__main__":
    sys.exit(main())
