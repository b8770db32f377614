"""Prints one trace from the JSON-lines span file as an indented waterfall:
`make trace ID=<trace_id>` (or `python -m runtime.traceview <trace_id> [file]`)."""

import json
import os
import sys
from pathlib import Path

BAR_WIDTH = 40


def load(path: Path, trace_id: str) -> list[dict]:
    spans = []
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            if trace_id in line:
                span = json.loads(line)
                if span["trace_id"] == trace_id:
                    spans.append(span)
    return spans


def waterfall(spans: list[dict]) -> list[str]:
    ids = {s["span_id"] for s in spans}
    children: dict[str | None, list[dict]] = {}
    for s in spans:
        parent = s["parent_id"] if s["parent_id"] in ids else None
        children.setdefault(parent, []).append(s)
    for group in children.values():
        group.sort(key=lambda s: s["start_ns"])
    start = min(s["start_ns"] for s in spans)
    total = max(s["end_ns"] for s in spans) - start or 1
    out = [f"trace {spans[0]['trace_id']}  {total / 1e6:.2f} ms  {len(spans)} spans"]

    def walk(span: dict, depth: int) -> None:
        offset = round((span["start_ns"] - start) / total * BAR_WIDTH)
        width = max(1, round((span["end_ns"] - span["start_ns"]) / total * BAR_WIDTH))
        bar = " " * offset + "█" * width
        status = "" if span["status"] in ("UNSET", "OK") else f"  [{span['status']}]"
        attrs = {k.removeprefix("healthmesh."): v for k, v in span["attributes"].items()
                 if k.startswith("healthmesh.") or k == "rpc.grpc.status_code"}
        detail = "  " + " ".join(f"{k}={v}" for k, v in attrs.items()) if attrs else ""
        label = f"{'  ' * depth}{span['name']} ({span['service']})"
        out.append(f"{label:<72} {bar:<{BAR_WIDTH}} {(span['end_ns'] - span['start_ns']) / 1e6:8.2f} ms"
                   f"{status}{detail}")
        for child in children.get(span["span_id"], []):
            walk(child, depth + 1)

    for root in children.get(None, []):
        walk(root, 0)
    return out


def main() -> int:
    if len(sys.argv) < 2 or not sys.argv[1]:
        print("usage: make trace ID=<trace_id>", file=sys.stderr)
        return 2
    default = Path(os.environ.get("HEALTHMESH_DATA_DIR", "./var")) / "traces.jsonl"
    path = Path(sys.argv[2]) if len(sys.argv) > 2 else Path(
        os.environ.get("HEALTHMESH_TRACE_FILE", "") or default)
    spans = load(path, sys.argv[1].strip().lower())
    if not spans:
        print(f"no spans of trace {sys.argv[1]} in {path}", file=sys.stderr)
        return 1
    print("\n".join(waterfall(spans)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
