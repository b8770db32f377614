"""DrugService: drug safety facts and interactions over gRPC, the lookups run on the thread pool."""

import grpc

from healthmesh.v1 import tools_pb2, tools_pb2_grpc
from runtime.errors import InvalidArgument
from tools.drug_loader import fold
from tools.drug_lookup import DrugLookup

MAX_NAME_CHARS = 100
MIN_DRUGS, MAX_DRUGS = 2, 10


class DrugService(DrugLookup, tools_pb2_grpc.DrugServiceServicer):
    async def CheckDrugSafety(self, request: tools_pb2.CheckDrugSafetyRequest,
                              context: grpc.aio.ServicerContext) -> tools_pb2.CheckDrugSafetyResponse:
        name = _checked_name(request.drug_name, "drug_name")
        return await self._run(self._safety, name)

    async def CheckInteractions(self, request: tools_pb2.CheckInteractionsRequest,
                                context: grpc.aio.ServicerContext
                                ) -> tools_pb2.CheckInteractionsResponse:
        if not MIN_DRUGS <= len(request.drug_names) <= MAX_DRUGS:
            raise InvalidArgument("drug_names", f"must list {MIN_DRUGS} to {MAX_DRUGS} drugs")
        names = [_checked_name(n, f"drug_names[{i}]") for i, n in enumerate(request.drug_names)]
        return await self._run(self._interactions, names)


def _checked_name(raw: str, field: str) -> str:
    name = raw.strip()
    if not name:
        raise InvalidArgument(field, "is required")
    if len(name) > MAX_NAME_CHARS:
        raise InvalidArgument(field, f"must be at most {MAX_NAME_CHARS} characters")
    if not fold(name):
        raise InvalidArgument(field, "must contain letters")
    return name
