"""The whole mesh on loopback: `Ask` for a two-clinic listing next to a direct
ListAvailableSlots (the baseline), then the same Ask with one of the two clinics stopped
(after its breaker opened), and the cost of mutual TLS: the Ask of a mesh asked to run plaintext
is the baseline of the (default) mTLS one."""

import tempfile
from pathlib import Path

from rich.console import Console

from bench.stats import Result, measure, table
from deploy.local.mesh import start_mesh
from healthmesh.v1 import clinic_pb2, clinic_pb2_grpc, orchestrator_pb2, orchestrator_pb2_grpc

ASK = orchestrator_pb2.AskRequest(message="cardiology slots")


async def run(console: Console, requests: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        mesh = start_mesh(Path(tmp), ephemeral_ports=True, env={"HEALTHMESH_TRACE_FILE": "off"})
        try:
            healthy, baseline, down = await _measure(mesh, requests)
        finally:
            mesh.stop()
        plain = start_mesh(Path(tmp) / "plaintext", ephemeral_ports=True,
                           env={"HEALTHMESH_TRACE_FILE": "off", "HEALTHMESH_TRANSPORT": "plaintext"})
        try:
            plaintext = await _asks(plain, requests)
        finally:
            plain.stop()
    console.print(table("Ask (two-clinic listing) vs a direct ListAvailableSlots", healthy, baseline,
                        "direct", "target: Ask p50 within 3x the direct call"))
    healthy_by_conc = {r.concurrency: r for r in healthy if r.name.startswith("Ask")}
    console.print(table("Ask with clinic_c stopped (breaker open) vs healthy Ask", down, healthy_by_conc,
                        "healthy Ask", "target: p95 within 2x the healthy p95"))
    for r in down:
        base = healthy_by_conc[r.concurrency]
        console.print(f"  concurrency {r.concurrency}: p95 {r.pct(0.95):.2f} ms vs healthy "
                      f"{base.pct(0.95):.2f} ms → {r.pct(0.95) / base.pct(0.95):.2f}x")
    mtls = [r for r in healthy if r.name.startswith("Ask")]
    console.print(table("Ask over mutual TLS (the default) vs the same mesh in plaintext",
                        [*plaintext.values(), *mtls], plaintext,
                        "plaintext", "the cost of service identity on the Ask path"))


def ask_call(stub: orchestrator_pb2_grpc.OrchestratorServiceStub):
    async def ask(_: int) -> None:
        reply = await stub.Ask(ASK, timeout=10)
        assert reply.disposition in (orchestrator_pb2.DISPOSITION_ANSWERED,
                                     orchestrator_pb2.DISPOSITION_PARTIAL), reply.answer
    return ask


async def _asks(mesh, requests: int) -> dict[int, Result]:
    async with mesh.orchestrator.transport().aio_channel(mesh.orchestrator.address) as channel:
        ask = ask_call(orchestrator_pb2_grpc.OrchestratorServiceStub(channel))
        return {c: await measure("Ask, plaintext mesh", ask, concurrency=c, requests=requests // 2)
                for c in (1, 16)}


async def _measure(mesh, requests: int) -> tuple[list[Result], dict[int, Result], list[Result]]:
    clinic = mesh.clinics["clinic_a"]
    async with mesh.orchestrator.transport().aio_channel(mesh.orchestrator.address) as orch_channel, \
            clinic.transport().aio_channel(clinic.address) as clinic_channel:
        ask = ask_call(orchestrator_pb2_grpc.OrchestratorServiceStub(orch_channel))
        clinic = clinic_pb2_grpc.ClinicServiceStub(clinic_channel)
        listing = clinic_pb2.ListAvailableSlotsRequest(page_size=5)

        healthy: list[Result] = []
        baseline: dict[int, Result] = {}
        for concurrency in (1, 16):
            baseline[concurrency] = await measure("ListAvailableSlots (direct)",
                                                  lambda _: clinic.ListAvailableSlots(listing),
                                                  concurrency=concurrency, requests=requests)
            healthy += [baseline[concurrency],
                        await measure("Ask", ask, concurrency=concurrency, requests=requests // 2)]

        mesh.clinics["clinic_c"].stop()
        for i in range(10):  # trips the breaker
            await ask(i)
        down = [await measure("Ask, clinic_c down", ask, concurrency=c, requests=requests // 2)
                for c in (1, 16)]
    return healthy, baseline, down
