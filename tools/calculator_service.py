"""CalculatorService: the risk calculators over gRPC, pure arithmetic fast enough for the event loop."""

import grpc

from healthmesh.v1 import tools_pb2, tools_pb2_grpc
from tools.calculators import compute


class CalculatorService(tools_pb2_grpc.CalculatorServiceServicer):
    async def ComputeRiskScore(self, request: tools_pb2.ComputeRiskScoreRequest,
                               context: grpc.aio.ServicerContext) -> tools_pb2.ComputeRiskScoreResponse:
        return compute(request)
