"""The one way this repository uses PostgreSQL (psycopg 3, blocking): a small connection pool per
process, a transaction per call, and schema creation that concurrent replicas may run at once.

Calls block, like SQLite calls: async callers run them off the event loop with
`runtime.sqlite.run`, so both backends are called the same way.
"""

from collections.abc import Callable
from contextlib import AbstractContextManager
from urllib.parse import urlsplit, urlunsplit

import psycopg
from psycopg_pool import ConnectionPool, PoolTimeout

SCHEMES = ("postgresql", "postgres")
CONNECT_TIMEOUT_S = 10.0

# A factory of connections whose context commits on success and rolls back on error:
# `ConnectionPool.connection` in a service, `psycopg.connect` bound to a URL in a one-shot CLI.
Connect = Callable[[], AbstractContextManager[psycopg.Connection]]


def is_postgres(url: str) -> bool:
    return urlsplit(url).scheme in SCHEMES


def redacted(url: str) -> str:
    """The URL without its password, for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.rsplit("@", 1)
    return urlunsplit(parts._replace(netloc=f"{parts.username}:***@{netloc[1]}"))


def open_pool(url: str, *, max_size: int = 4) -> ConnectionPool:
    """A pool that is connected before this returns, so a wrong URL stops the process at start;
    each connection is checked when taken, so a restarted server is reconnected to."""
    pool = ConnectionPool(url, min_size=1, max_size=max_size, open=True, name="healthmesh",
                          check=ConnectionPool.check_connection,
                          kwargs={"connect_timeout": int(CONNECT_TIMEOUT_S)})
    try:
        pool.wait(timeout=CONNECT_TIMEOUT_S)
    except PoolTimeout:
        pool.close()
        raise ConnectionError(f"cannot connect to PostgreSQL at {redacted(url)} "
                              f"within {CONNECT_TIMEOUT_S:.0f} s") from None
    return pool


def connector(url: str) -> Connect:
    """Connections opened one at a time: for a one-shot command, where a pool is overhead."""
    return lambda: psycopg.connect(url, connect_timeout=int(CONNECT_TIMEOUT_S))


def ensure_schema(connect: Connect, key: str, statements: str) -> None:
    """Runs CREATE … IF NOT EXISTS `statements` under a transaction-scoped advisory lock named
    `key`: replicas starting together would otherwise race in the catalog and fail."""
    with connect() as conn:
        conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (key,))
        conn.execute(statements)  # type: ignore[arg-type]  # fixed text, no parameters
