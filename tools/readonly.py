"""What the knowledge-base services share: the read-only SQLite file, queried on a thread pool
with one connection per pool thread, and the checks on the curated JSON it is built from."""

import asyncio
import functools
import sqlite3
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")


class PooledReader:
    def __init__(self, db_path: Path, pool: ThreadPoolExecutor) -> None:
        self.db_path = db_path
        self.pool = pool
        self._local = threading.local()

    async def _run(self, fn: Callable[..., T], *args: object) -> T:
        # SQLite calls block; they run on the pool and never stall the event loop.
        return await asyncio.get_running_loop().run_in_executor(self.pool, functools.partial(fn, *args))

    def _conn(self) -> sqlite3.Connection:
        # sqlite3 connections belong to the thread that made them; each pool thread keeps one.
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(f"{Path(self.db_path).resolve().as_uri()}?mode=ro", uri=True)
            self._local.conn = conn
        return conn


def json_list(obj: Any, key: str, where: str) -> list[Any]:
    value = obj.get(key) if isinstance(obj, dict) else None
    if not isinstance(value, list):
        raise ValueError(f"{where}: {key} must be a list")
    return value


def json_text(obj: Any, key: str, where: str) -> str:
    value = obj.get(key) if isinstance(obj, dict) else None
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{where}: {key} must be a non-empty string")
    return value.strip()
