"""gRPC face of the calculators: pure arithmetic, fast enough to run on the event loop."""

import grpc

from healthmesh.v1 import tools_pb2, tools_pb2_grpc
from tools.calculators import compute


class CalculatorServicer(tools_pb2_grpc.CalculatorServiceServicer):
    async def ComputeRiskScore(self, request: tools_pb2.ComputeRiskScoreRequest,
                               context: grpc.aio.ServicerContext) -> tools_pb2.ComputeRiskScoreResponse:
        return compute(request)
