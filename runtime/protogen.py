"""Generates Python messages, gRPC stubs and .pyi stubs from protos/ (used by `make gen`).

Output is deterministic, so a test can regenerate into a temporary directory and compare.
"""

import sys
from importlib import resources
from pathlib import Path

from grpc_tools import protoc


def generate(proto_root: Path, out_dir: Path) -> None:
    protos = sorted(str(p.relative_to(proto_root)) for p in proto_root.rglob("*.proto"))
    if not protos:
        raise SystemExit(f"no .proto files under {proto_root}")
    out_dir.mkdir(parents=True, exist_ok=True)
    well_known = str(resources.files("grpc_tools") / "_proto")
    args = [
        "protoc",
        f"-I{proto_root}",
        f"-I{well_known}",
        f"--python_out={out_dir}",
        f"--pyi_out={out_dir}",
        f"--grpc_python_out={out_dir}",
        *protos,
    ]
    if protoc.main(args) != 0:
        raise SystemExit("protoc failed")
    # protoc writes no package markers; add them so `healthmesh.v1` imports as a package.
    for package_dir in {(out_dir / p).parent for p in protos}:
        while package_dir != out_dir:
            (package_dir / "__init__.py").touch()
            package_dir = package_dir.parent


if __name__ == "__main__":
    generate(Path(sys.argv[1]), Path(sys.argv[2]))
