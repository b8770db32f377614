"""A terminal client of the orchestrator.

  python -m clients.chat                      # interactive chat (asks name and CPF first)
  python -m clients.chat ask "message" [--name N --cpf C] [--session S]   # one turn
  python -m clients.chat --operator [--name N]  # an operator working the escalated cases
"""

import argparse
import os
import re
import sys
import time
from collections.abc import Callable, Iterable

import grpc
import jwt
from rich.console import Console
from rich.table import Table

from clients.operator import operate
from healthmesh.v1 import common_pb2, orchestrator_pb2, orchestrator_pb2_grpc
from runtime import pki
from runtime.config import help_text
from runtime.errors import InvalidArgument
from runtime.identity import normalize_cpf, normalize_name
from runtime.settings import ClientSettings, OrchestratorSettings, Settings
from runtime.specialties import SPECIALTIES

DISPOSITION_LABEL = {
    orchestrator_pb2.DISPOSITION_ANSWERED: ("answered", "green"),
    orchestrator_pb2.DISPOSITION_PARTIAL: ("partial: some clinics did not answer", "yellow"),
    orchestrator_pb2.DISPOSITION_NEEDS_INFO: ("needs info", "cyan"),
    orchestrator_pb2.DISPOSITION_EMERGENCY: ("EMERGENCY", "bold red"),
    orchestrator_pb2.DISPOSITION_BLOCKED: ("blocked by the safety check", "red"),
    orchestrator_pb2.DISPOSITION_OUT_OF_SCOPE: ("out of scope", "magenta"),
}
TOKEN_LIFETIME_S = 900
STAGE_LABEL = {orchestrator_pb2.STAGE_SCREEN: "screening", orchestrator_pb2.STAGE_PLAN: "planning",
               orchestrator_pb2.STAGE_ROUTE: "asking clinics", orchestrator_pb2.STAGE_ANSWER: "answering",
               orchestrator_pb2.STAGE_VERIFY: "verifying", orchestrator_pb2.STAGE_MODEL: "model"}


def dev_token(patient: common_pb2.PatientIdentity, settings: Settings,
              lifetime_s: int = TOKEN_LIFETIME_S) -> str | None:
    """A short-lived token for `patient`, signed with the development edge's key when this machine
    runs the mesh (`make run`); None elsewhere, where the request names the patient."""
    private, _ = pki.edge_dev_key(settings.data.data_dir / "pki")
    if not private.exists():
        return None
    now = int(time.time())
    claims = {"sub": patient.cpf, "name": patient.full_name, "aud": settings.edge.audience, "iat": now,
              "exp": now + lifetime_s}
    return jwt.encode(claims, private.read_bytes(), algorithm="ES256")


class ChatClient:
    def __init__(self, channel: grpc.Channel, console: Console, deadline_s: float = 15.0) -> None:
        self.stub = orchestrator_pb2_grpc.OrchestratorServiceStub(channel)
        self.console = console
        self.deadline_s = deadline_s
        self.session_id = ""
        self.settings = Settings.from_env()

    def ask(self, message: str, patient: common_pb2.PatientIdentity | None) -> orchestrator_pb2.AskResponse:
        """One turn; the patient travels as a signed token when there is a development key."""
        token = dev_token(patient, self.settings) if patient is not None else None
        metadata = [("authorization", f"Bearer {token}")] if token else []
        request = orchestrator_pb2.AskRequest(session_id=self.session_id, message=message,
                                              patient=None if token else patient)
        response = None
        with self.console.status("…") as status:
            for event in self.stub.AskStream(request, timeout=self.deadline_s, metadata=metadata):
                if event.HasField("stage"):
                    stage = event.stage.stage
                    model = f": {event.stage.detail}" if stage == orchestrator_pb2.STAGE_MODEL else ""
                    status.update(f"{STAGE_LABEL.get(stage, '')}{model} "
                                  f"({event.stage.elapsed_ms:.0f} ms)")
                elif event.HasField("step"):
                    status.update(f"{event.step.clinic_id}: {event.step.message}")
                elif event.HasField("response"):
                    response = event.response
        if response is None:
            raise RuntimeError("the stream ended without a response")
        self.session_id = response.session_id
        return response

    def show(self, response: orchestrator_pb2.AskResponse) -> None:
        """The answer with its slots once: a compact table (a row per doctor and day), not a line each."""
        label, color = DISPOSITION_LABEL.get(response.disposition, ("?", "white"))
        text = response.answer
        if response.slots:
            text = "\n".join(line for line in text.splitlines() if not _SLOT_LINE.match(line))
        self.console.print(text, highlight=False, markup=False)
        if response.slots:
            self.console.print(slot_table(response.slots))
        self.console.print(f"[{color}]{label}[/] · trace {response.trace_id or '-'}", highlight=False)


# A doctor's day in the answer ("- Mon 2026-11-30 — Dr. …: 09:00, 10:00"): the table shows it instead.
_SLOT_LINE = re.compile(r"^- \w{3} [\d/-]{10} — .+: \d\d:\d\d")


def slot_table(slots: Iterable[common_pb2.Slot]) -> Table:
    rows: dict[tuple[str, str, str], list[str]] = {}
    for s in slots:
        rows.setdefault((s.date, s.clinic_id, s.doctor), []).append(s.time)
    table = Table(show_edge=False)
    for column in ("date", "clinic", "doctor", "times"):
        table.add_column(column)
    for (date, clinic_id, doctor), times in sorted(rows.items()):
        table.add_row(date, clinic_id, doctor, " ".join(sorted(times)))
    return table


# What a patient reads instead of a refused request's raw status.
PLAIN_ERROR = {
    grpc.StatusCode.INVALID_ARGUMENT: "That message could not be sent: it is empty or too long (at most "
                                      "2000 characters). / Não foi possível enviar: a mensagem está vazia ou "
                                      "é longa demais (até 2000 caracteres).",
    grpc.StatusCode.RESOURCE_EXHAUSTED: "Too many requests right now; please wait a moment and try again. / "
                                        "Muitos pedidos agora; aguarde um pouco e tente de novo.",
    grpc.StatusCode.NOT_FOUND: "This conversation expired; a new one starts with your next message. / "
                               "Esta conversa expirou; uma nova começa com a sua próxima mensagem.",
}


def plain_error(err: grpc.RpcError) -> str:
    return PLAIN_ERROR.get(err.code(), "The assistant could not answer right now; please try again. / "
                                       "O assistente não conseguiu responder agora; tente de novo.")


def ask_identity(console: Console) -> common_pb2.PatientIdentity:
    """Asks each field until it is valid: a bad CPF asks for the CPF again, not the name."""
    name = _ask_valid(console, "Your full name: ", normalize_name)
    cpf = _ask_valid(console, "Your CPF: ", normalize_cpf)
    return common_pb2.PatientIdentity(full_name=name, cpf=cpf)


def _ask_valid(console: Console, prompt: str, normalize: Callable[[str], str]) -> str:
    while True:
        try:
            return normalize(console.input(prompt))
        except InvalidArgument as err:
            console.print(f"[red]{err.field.split('.')[-1]}: {err.problem}[/red]")


def chat(target: str) -> int:
    console = Console()
    console.print(f"[bold]healthmesh[/bold] — {', '.join(SPECIALTIES)}. "
                  "Ctrl-D or 'quit' ends. Em português ou in English.")
    try:
        patient = ask_identity(console)
    except EOFError:
        return 0
    with grpc.insecure_channel(target) as channel:
        client = ChatClient(channel, console)
        while True:
            try:
                message = console.input("[bold cyan]you>[/] ").strip()
            except EOFError:
                return 0
            if message.lower() in {"quit", "exit", "sair"}:
                return 0
            if not message:
                continue
            try:
                client.show(client.ask(message, patient))
            except grpc.RpcError as err:
                if err.code() == grpc.StatusCode.NOT_FOUND:
                    client.session_id = ""
                console.print(plain_error(err), style="red", highlight=False, markup=False)


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m clients.chat", description=__doc__,
                                     epilog=help_text(ClientSettings, OrchestratorSettings),
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--target", help="the orchestrator [HEALTHMESH_ORCHESTRATOR_TARGET]; with "
                                         "--operator, the escalation service [HEALTHMESH_ESCALATION_TARGET]")
    parser.add_argument("--operator", action="store_true", help="work the escalated cases, as an operator")
    parser.add_argument("--name", dest="operator_name", default="",
                        help="with --operator: who you are, recorded with each action [$USER]")
    sub = parser.add_subparsers(dest="command")
    one = sub.add_parser("ask", help="one turn")
    one.add_argument("message")
    one.add_argument("--name", default="")
    one.add_argument("--cpf", default="")
    one.add_argument("--session", default="")
    args = parser.parse_args()
    settings = Settings.from_env()
    if args.operator:
        return operate(args.target or settings.orchestrator.escalation_target,
                       args.operator_name or os.environ.get("USER", "") or "operator")
    target = args.target or settings.clients.orchestrator_target
    if args.command != "ask":
        return chat(target)
    console = Console()
    patient = common_pb2.PatientIdentity(full_name=args.name, cpf=args.cpf) if args.cpf else None
    with grpc.insecure_channel(target) as channel:
        client = ChatClient(channel, console)
        client.session_id = args.session
        try:
            response = client.ask(args.message, patient)
        except grpc.RpcError as err:
            console.print(plain_error(err), style="red", highlight=False, markup=False)
            return 1
        client.show(response)
        console.print(f"session {response.session_id}", style="dim")
    return 0


if __name__ == "__main__":
    sys.exit(main())
