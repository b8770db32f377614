"""Server reflection as both v1 and v1alpha.

grpcio-reflection (pinned) serves only `grpc.reflection.v1alpha`; newer clients (buf curl,
grpcurl ≥ 1.9, Postman) ask for `grpc.reflection.v1` first. v1 is the same protocol: its proto
differs from v1alpha only in the package name, so the messages are the same bytes on the wire.
The library's servicer therefore answers both methods, and the v1 descriptor (v1alpha's, renamed)
joins the pool so a client can describe the v1 service itself.
"""

from collections.abc import Sequence

import grpc
from google.protobuf import descriptor_pb2, descriptor_pool
from grpc_reflection.v1alpha import reflection, reflection_pb2
from grpc_reflection.v1alpha import reflection_pb2_grpc as v1alpha_grpc
from grpc_reflection.v1alpha._async import ReflectionServicer

V1ALPHA = "grpc.reflection.v1alpha"
V1 = "grpc.reflection.v1"
V1_SERVICE = f"{V1}.ServerReflection"
SERVICE_NAMES = (reflection.SERVICE_NAME, V1_SERVICE)


def _add_v1_descriptor(pool: descriptor_pool.DescriptorPool) -> None:
    proto = descriptor_pb2.FileDescriptorProto()
    reflection_pb2.DESCRIPTOR.CopyToProto(proto)
    proto.name = "grpc/reflection/v1/reflection.proto"
    proto.package = V1
    proto.ClearField("options")
    for message in proto.message_type:
        for field in message.field:
            if field.type_name:
                field.type_name = field.type_name.replace(f".{V1ALPHA}.", f".{V1}.")
    for method in proto.service[0].method:
        method.input_type = method.input_type.replace(f".{V1ALPHA}.", f".{V1}.")
        method.output_type = method.output_type.replace(f".{V1ALPHA}.", f".{V1}.")
    try:
        pool.FindFileByName(proto.name)
    except KeyError:
        pool.Add(proto)


def enable(server: grpc.aio.Server, service_names: Sequence[str]) -> None:
    """Serves reflection of `service_names` (and of itself) over v1 and v1alpha."""
    pool = descriptor_pool.Default()
    _add_v1_descriptor(pool)
    servicer = ReflectionServicer([*service_names, *SERVICE_NAMES], pool=pool)
    v1alpha_grpc.add_ServerReflectionServicer_to_server(servicer, server)
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(V1_SERVICE, {
        "ServerReflectionInfo": grpc.stream_stream_rpc_method_handler(
            servicer.ServerReflectionInfo,
            request_deserializer=reflection_pb2.ServerReflectionRequest.FromString,
            response_serializer=reflection_pb2.ServerReflectionResponse.SerializeToString),
    }),))
