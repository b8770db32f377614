"""`make up`: starts every clinic of the registry, waits until each health check says
SERVING, prints the services table, and on Ctrl-C/SIGTERM stops them all gracefully.

Environment: HEALTHMESH_REGISTRY, HEALTHMESH_DATA_DIR (default ./var; logs go to
<data dir>/logs) and anything the services themselves read.
"""

import os
import signal
import sys
import threading
from pathlib import Path

from rich.console import Console
from rich.table import Table

from deploy.local.processes import Service, StartError, clinic_service, start_all, stop_all
from runtime import registry
from runtime.config import env_str


def services_table(services: list[Service], clinics: dict[str, registry.ClinicEntry]) -> Table:
    table = Table(title="healthmesh — services")
    for column in ("service", "specialty", "address", "health", "log"):
        table.add_column(column)
    for svc in services:
        entry = clinics.get(svc.name)
        table.add_row(svc.name, entry.specialty if entry else "-", svc.address, "SERVING",
                      str(svc.log_path))
    return table


def main() -> int:
    console = Console()
    clinics = registry.load(Path(env_str("HEALTHMESH_REGISTRY", str(registry.DEFAULT_PATH))))
    log_dir = Path(env_str("HEALTHMESH_DATA_DIR", "./var")) / "logs"
    services = [clinic_service(cid, log_dir, {}) for cid in clinics]
    try:
        start_all(services)
    except StartError as err:
        console.print(f"[red]healthmesh failed to start:[/red] {err}", markup=True,
                      highlight=False)
        return 1
    console.print(services_table(services, clinics))
    console.print("Press Ctrl-C to stop.")

    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    while not stop.wait(0.5):
        dead = [s for s in services if s.proc is not None and s.proc.poll() is not None]
        if dead:
            console.print(f"[red]{dead[0].name} exited unexpectedly[/red]\n{dead[0].log_tail()}")
            break
    console.print("stopping…")
    stop_all(services)
    return 0 if stop.is_set() else 1


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
