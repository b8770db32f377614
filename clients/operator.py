"""The operator's side of escalation, in the terminal: `python -m clients.chat --operator [--name N]`.

It dials the escalation service (HEALTHMESH_ESCALATION_TARGET) as the mesh's `operator` identity: the
certificate `make up` leaves in $HEALTHMESH_DATA_DIR/pki, or HEALTHMESH_TLS_CERT/_KEY/_CA.

  list [all]               open cases, most urgent first (all: claimed and resolved too)
  show <case>              a case's packet and notes
  claim <case>             take it (again: keep holding it; a silent claim returns to the queue)
  note <case> <text>       add a note
  resolve <case> <text>    close a case you hold, saying how
  quit
"""

import grpc
from rich.console import Console
from rich.table import Table

from healthmesh.v1 import escalation_pb2 as pb
from healthmesh.v1 import escalation_pb2_grpc
from runtime.settings import Settings
from runtime.transport import Transport

EVERY_STATE = [pb.CASE_STATE_OPEN, pb.CASE_STATE_CLAIMED, pb.CASE_STATE_RESOLVED]


def _name(enum: type, value: int, prefix: str) -> str:
    return enum.Name(value).removeprefix(prefix).lower().replace("_", " ")


class OperatorConsole:
    def __init__(self, stub: escalation_pb2_grpc.EscalationServiceStub, console: Console, name: str) -> None:
        self.stub = stub
        self.console = console
        self.name = name

    def run(self, line: str) -> None:
        """One command line."""
        command, _, rest = line.partition(" ")
        case_id, _, text = rest.strip().partition(" ")
        if command == "list":
            self.list(rest.strip() == "all")
        elif command == "show" and case_id:
            self.show(case_id)
        elif command == "claim" and case_id:
            case = self.stub.ClaimCase(pb.ClaimCaseRequest(case_id=case_id, operator=self.name), timeout=10)
            self.console.print(f"{case_id} claimed by {case.escalation_case.claimed_by}")
        elif command == "note" and text:
            self.stub.AddNote(pb.AddNoteRequest(case_id=case_id, operator=self.name, text=text), timeout=10)
            self.console.print(f"note added to {case_id}")
        elif command == "resolve" and text:
            self.stub.ResolveCase(pb.ResolveCaseRequest(case_id=case_id, operator=self.name, resolution=text),
                                  timeout=10)
            self.console.print(f"{case_id} resolved")
        else:
            self.console.print(__doc__.split("\n\n", 2)[2], highlight=False, markup=False)

    def list(self, every: bool) -> None:
        table = Table(show_edge=False)
        for column in ("case", "urgency", "reason", "state", "opened", "held by", "suggested"):
            table.add_column(column)
        token = ""
        while True:
            page = self.stub.ListCases(pb.ListCasesRequest(states=EVERY_STATE if every else [],
                                                           page_token=token), timeout=10)
            for c in page.cases:
                table.add_row(c.case_id, _name(pb.CaseUrgency, c.urgency, "CASE_URGENCY_"),
                              _name(pb.EscalationReason, c.reason, "ESCALATION_REASON_"),
                              _name(pb.CaseState, c.state, "CASE_STATE_"), c.created_at, c.claimed_by,
                              " ".join(filter(None, (c.suggested_specialty, c.suggested_clinic_id))))
            if not (token := page.next_page_token):
                break
        self.console.print(table)

    def show(self, case_id: str) -> None:
        reply = self.stub.GetCase(pb.GetCaseRequest(case_id=case_id, operator=self.name), timeout=10)
        c, packet = reply.escalation_case, reply.packet
        lines = [" · ".join([c.case_id, _name(pb.EscalationReason, c.reason, "ESCALATION_REASON_"),
                             _name(pb.CaseUrgency, c.urgency, "CASE_URGENCY_"),
                             _name(pb.CaseState, c.state, "CASE_STATE_")]),
                 f"patient: {packet.patient.full_name} {packet.patient.cpf}" if packet.patient.cpf
                 else "patient: not identified (they quote the case id)",
                 f"summary: {packet.summary}", *(f"- {d}" for d in packet.details)]
        if packet.HasField("handoff"):
            soap = packet.handoff
            lines += [f"S: {s}" for s in soap.subjective] + [f"O: {o}" for o in soap.objective]
        lines += [f"note by {n.author} at {n.created_at}: {n.text}" for n in reply.notes]
        if c.resolution:
            lines.append(f"resolved by {c.resolved_by} at {c.resolved_at}: {c.resolution}")
        self.console.print("\n".join(lines), highlight=False, markup=False)


def operate(target: str, name: str) -> int:
    """The interactive operator mode."""
    settings = Settings.from_env()
    console = Console()
    transport = Transport.from_settings(settings.transport, settings.data.data_dir, "operator")
    console.print(f"[bold]healthmesh operator[/bold] {name} at {target}. 'help' lists the commands.")
    with transport.channel(target, server="escalation") as channel:
        operator = OperatorConsole(escalation_pb2_grpc.EscalationServiceStub(channel), console, name)
        while True:
            try:
                line = console.input("[bold magenta]operator>[/] ").strip()
            except EOFError:
                return 0
            if line in {"quit", "exit"}:
                return 0
            try:
                operator.run(line)
            except grpc.RpcError as err:
                console.print(f"[red]{err.code().name}: {err.details()}[/red]")
