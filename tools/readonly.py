"""What the knowledge-base services share: the read-only SQLite file, queried on the service's
thread pool, and the checks on the curated JSON it is built from."""

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from runtime import sqlite

T = TypeVar("T")


class PooledReader:
    def __init__(self, db_path: Path, pool: ThreadPoolExecutor) -> None:
        self.db = sqlite.Database(db_path, read_only=True)
        self.pool = pool

    async def _run(self, fn: Callable[..., T], *args: object) -> T:
        return await sqlite.run(fn, *args, pool=self.pool)


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
