"""Prints one trace from the JSON-lines span file as an indented waterfall:
`make trace ID=<trace_id>` (or `python -m runtime.traceview <trace_id> [file]`)."""

import argparse
import json
import sys
from pathlib import Path

from runtime.config import help_text
from runtime.settings import DataSettings, Settings, TracingSettings

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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m runtime.traceview", description=__doc__,
                                     epilog=help_text(DataSettings, TracingSettings),
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("trace_id", nargs="?", default="", help="the trace id an answer carries")
    parser.add_argument("file", nargs="?", type=Path, help="span file [the configured trace file]")
    args = parser.parse_args(argv)
    if not args.trace_id:  # `make trace` without ID= passes an empty id
        print("usage: make trace ID=<trace_id>", file=sys.stderr)
        return 2
    path = args.file or Settings.from_env().trace_file
    if path is None:
        print("HEALTHMESH_TRACE_FILE is off; name the span file", file=sys.stderr)
        return 2
    spans = load(path, args.trace_id.strip().lower())
    if not spans:
        print(f"no spans of trace {args.trace_id} in {path}", file=sys.stderr)
        return 1
    print("\n".join(waterfall(spans)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
