"""Starts the whole mesh on this machine (clinics, verifier, tools, escalation, orchestrator), waits
until every health check says SERVING and prints the services table. Each service is bound at its
address: a clinic at its registry target, the others at HEALTHMESH_ORCHESTRATOR_TARGET,
_VERIFIER_TARGET, _TOOLS_TARGET and _ESCALATION_TARGET. A service that exits is restarted there,
with backoff, while the others keep serving; one that keeps crashing is reported with its log and
left stopped.

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
from deploy.local.processes import Service, StartError
from deploy.local.supervisor import State, Status, Supervisor
from runtime import pki, registry
from runtime.config import help_text
from runtime.settings import DataSettings, LauncherSettings, Settings

STYLE = {State.SERVING: "green", State.RESTARTING: "yellow", State.CRASH_LOOPING: "bold red"}


def services_table(mesh: LocalMesh, supervisor: Supervisor) -> Table:
    clinics = registry.load(mesh.registry_path)
    table = Table(title="healthmesh — services")
    for column in ("service", "role", "address", "state", "restarts", "log"):
        table.add_column(column)
    for svc in mesh.services:
        role = clinics[svc.name].specialty if svc.name in clinics else svc.name
        status = supervisor.status[svc.name]
        state = f"[{STYLE[status.state]}]{status.state.value}[/]"
        table.add_row(svc.name, role, svc.address, state, str(status.restarts), str(svc.log_path))
    return table


def report(console: Console, svc: Service, status: Status) -> None:
    """One line per change; a crash loop with the log tail that shows why."""
    if status.state is State.RESTARTING:
        console.print(f"[yellow]{svc.name} went down ({status.last_exit}); restarting it on {svc.address}[/]")
    elif status.state is State.SERVING:
        console.print(f"[green]{svc.name} is serving again on {svc.address} (restarts: {status.restarts})[/]")
    else:
        console.print(f"[bold red]{svc.name} keeps crashing ({status.last_exit}, {status.restarts} "
                      f"restarts): left stopped, the rest keep serving.[/] Its log, {svc.log_path}:\n"
                      f"{svc.log_tail()}",
                      highlight=False)


def wait_for_signal(console: Console) -> None:
    """Blocks until Ctrl-C/SIGTERM."""
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    console.print("Press Ctrl-C to stop.")
    while not stop.wait(0.5):
        pass


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m deploy.local", description=__doc__,
                                     epilog=help_text(DataSettings, LauncherSettings),
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--chat", action="store_true", help="open the chat once the mesh is up")
    args = parser.parse_args()
    settings = Settings.from_env()
    data = settings.data
    console = Console()
    with console.status("starting the mesh…"):
        try:
            mesh = start_mesh(data.data_dir, ephemeral_ports=False, registry_path=data.registry,
                              timeout=settings.launcher.start_timeout_s, service_addresses={
                                  "orchestrator": settings.clients.orchestrator_target,
                                  "verifier": settings.orchestrator.verifier_target,
                                  "tools": settings.orchestrator.tools_target,
                                  "escalation": settings.orchestrator.escalation_target})
        except StartError as err:
            console.print(f"[red]healthmesh failed to start:[/red] {err}", highlight=False)
            return 1

    def changed(svc: Service, status: Status) -> None:
        report(console, svc, status)
        if not args.chat:  # the chat's screen is not redrawn under the patient's typing
            console.print(services_table(mesh, supervisor))

    supervisor = Supervisor(mesh.services, settings.launcher, changed)
    console.print(services_table(mesh, supervisor))
    if mesh.verifier.mtls:  # an identity for people calling services by reflection (buf curl, grpcurl)
        pki.ensure_local(mesh.verifier.pki_dir, ["operator"])
        console.print(f"mutual TLS between services; an operator certificate is in {mesh.verifier.pki_dir} "
                      "(escalated cases: python -m clients.chat --operator)")
    supervisor.start()
    try:
        if args.chat:
            return chat.chat(mesh.orchestrator.address)
        wait_for_signal(console)
        return 0
    finally:
        console.print("stopping…")
        supervisor.stop()
        mesh.stop()


if __name__ == "__main__":
    sys.exit(main())
