"""Idempotency keys: a retried write returns the answer the first attempt stored, written in the
same transaction as the write itself, so a retry sees both or neither."""

import datetime as dt
import hashlib
import json
import sqlite3
from collections.abc import Callable
from dataclasses import asdict
from typing import TypeVar

from clinics.records import Identity
from runtime.errors import AlreadyExists

T = TypeVar("T")


def replay_or_run(conn: sqlite3.Connection, key: str, fingerprint: str,
                  run: Callable[[sqlite3.Connection], T], now: Callable[[], dt.datetime]) -> T:
    """The stored answer for `key`, or `run`'s answer stored under it; inside the caller's write
    transaction. An empty key runs every time."""
    if key:
        row = conn.execute(
            "SELECT fingerprint, response FROM idempotency WHERE key = ?", (key,)
        ).fetchone()
        if row is not None:
            if row[0] != fingerprint:
                raise AlreadyExists("idempotency_key was already used for a different request")
            return json.loads(row[1])
    result = run(conn)
    if key:
        conn.execute(
            "INSERT INTO idempotency VALUES (?, ?, ?, ?)",
            (key, fingerprint, json.dumps(result), now().isoformat()),
        )
    return result


def fingerprint(*parts: object) -> str:
    """What a request asked for, so a key reused for another request is caught."""
    flat = [asdict(p) if isinstance(p, Identity) else p for p in parts]
    return hashlib.sha256(json.dumps(flat, sort_keys=True).encode()).hexdigest()
