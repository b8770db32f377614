"""The tools' knowledge base: one SQLite file built from the curated JSON at start-up.

It is built into a temporary file and renamed into place, so a reader never sees a half-built
base and a crash mid-build leaves the previous file intact. The services then open it read-only.
"""

import os
import sqlite3
from pathlib import Path

from tools import drug_loader, guideline_loader


def build(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.{os.getpid()}.building")
    partial.unlink(missing_ok=True)
    conn = sqlite3.connect(partial)
    try:
        guideline_loader.load(conn)
        drug_loader.load(conn)
        conn.execute("PRAGMA optimize")
    finally:
        conn.close()
    os.replace(partial, path)
    return path
