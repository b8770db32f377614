"""`host:port` addresses as gRPC writes them: an IPv6 host in brackets ("[::1]:50051")."""

from runtime.config import ConfigError


def split(address: str) -> tuple[str, int]:
    """("10.0.0.5", 50051) for "10.0.0.5:50051", ("::1", 50051) for "[::1]:50051"."""
    host, sep, port = address.rpartition(":")
    if not sep or not host or not port.isdigit() or int(port) > 65535:
        raise ConfigError(f"{address!r} is not a host:port address")
    return host.removeprefix("[").removesuffix("]"), int(port)


def join(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
