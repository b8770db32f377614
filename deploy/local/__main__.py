"""Starts the whole mesh on this machine (clinics, verifier, orchestrator), waits until every
health check says SERVING and prints the services table.

  python -m deploy.local          # `make up`: runs until Ctrl-C/SIGTERM, then stops all gracefully
  python -m deploy.local --chat   # `make run`: the same, with the chat in this terminal

Logs go to <HEALTHMESH_DATA_DIR>/logs, the mesh's local CA and certificates (made on first start) to
<HEALTHMESH_DATA_DIR>/pki; the services read the rest of the environment themselves.
"""

import argparse
import signal
import sys
import threading

from rich.console import Console
from rich.table import Table

from clients import chat
from deploy.local.mesh import LocalMesh, start_mesh
from deploy.local.processes import StartError
from runtime import pki, registry
from runtime.config import help_text
from runtime.settings import DataSettings, Settings


def services_table(mesh: LocalMesh) -> Table:
    clinics = registry.load(mesh.registry_path)
    table = Table(title="healthmesh — services")
    for column in ("service", "role", "address", "health", "log"):
        table.add_column(column)
    for svc in mesh.services:
        role = clinics[svc.name].specialty if svc.name in clinics else svc.name
        table.add_row(svc.name, role, svc.address, "SERVING", str(svc.log_path))
    return table


def wait_for_signal(console: Console, mesh: LocalMesh) -> bool:
    """Blocks until Ctrl-C/SIGTERM (True) or until a service dies (False)."""
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    console.print("Press Ctrl-C to stop.")
    while not stop.wait(0.5):
        dead = [s for s in mesh.services if s.proc is not None and s.proc.poll() is not None]
        if dead:
            console.print(f"[red]{dead[0].name} exited unexpectedly[/red]\n{dead[0].log_tail()}")
            return False
    return True


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m deploy.local", description=__doc__,
                                     epilog=help_text(DataSettings),
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--chat", action="store_true", help="open the chat once the mesh is up")
    args = parser.parse_args()
    data = Settings.from_env().data
    console = Console()
    with console.status("starting the mesh…"):
        try:
            mesh = start_mesh(data.data_dir, ephemeral_ports=False, registry_path=data.registry)
        except StartError as err:
            console.print(f"[red]healthmesh failed to start:[/red] {err}", highlight=False)
            return 1
    console.print(services_table(mesh))
    if mesh.verifier.mtls:  # an identity for people calling services by reflection (buf curl, grpcurl)
        pki.ensure_local(mesh.verifier.pki_dir, ["operator"])
        console.print(f"mutual TLS between services; an operator certificate is in {mesh.verifier.pki_dir}")
    try:
        if args.chat:
            return chat.chat(mesh.orchestrator.address)
        return 0 if wait_for_signal(console, mesh) else 1
    finally:
        console.print("stopping…")
        mesh.stop()


if __name__ == "__main__":
    sys.exit(main())
