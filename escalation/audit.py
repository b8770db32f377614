"""The escalation service's audit chain: one hash-chained record per case change and per operator
action (created, listed, claimed, read, noted, resolved, returned to the queue), in
`$HEALTHMESH_DATA_DIR/escalation-audit.sqlite3`, keyed by its own secret
(HEALTHMESH_ESCALATION_AUDIT_KEY_FILE) and checkpointed apart from the database; what the chain
proves is described in runtime.auditchain.

A record names the case, the operator, the caller's SPIFFE id and the state it left; never the packet,
and of a note or a resolution only its SHA-256 (the text may name the patient).

Usage: python -m escalation.audit verify [--path P] [--key-file K] [--checkpoints C]
"""

import argparse
import sys
from pathlib import Path

from runtime.auditchain import ChainKey, Checkpoints, SqliteChain, report
from runtime.settings import Settings

FILE = "escalation-audit.sqlite3"


def open_chain(settings: Settings) -> SqliteChain:
    """The chain the service appends to, its key made on first start when the default is used."""
    key = ChainKey.load(settings.escalation_audit_key_file, create=settings.escalation.audit_key_file is None)
    return SqliteChain(settings.data.data_dir / FILE, key,
                       checkpoints=Checkpoints(settings.escalation_audit_checkpoints, key))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m escalation.audit", description="Escalation audit tools.")
    commands = parser.add_subparsers(dest="command", required=True)
    verify = commands.add_parser("verify", help="check the chain, its head and its checkpoints; "
                                                "exit 1 on any problem")
    verify.add_argument("--path", type=Path, help=f"the chain [$HEALTHMESH_DATA_DIR/{FILE}]")
    verify.add_argument("--key-file", type=Path, help="its key [$HEALTHMESH_ESCALATION_AUDIT_KEY_FILE]")
    verify.add_argument("--checkpoints", type=Path,
                        help="its checkpoints [$HEALTHMESH_ESCALATION_AUDIT_CHECKPOINTS]")
    args = parser.parse_args(argv)
    settings = Settings.from_env()
    key_file = args.key_file or settings.escalation_audit_key_file
    try:
        key = ChainKey.load(key_file)
    except (OSError, ValueError) as exc:
        print(f"cannot read the audit key at {key_file}: {exc}")
        return 1
    path = args.path or settings.data.data_dir / FILE
    if not path.is_file():  # sqlite3 would create an empty file, which verifies as intact
        print(f"no audit log at {path}")
        return 1
    checkpoints = Checkpoints(args.checkpoints or settings.escalation_audit_checkpoints, key)
    return report(str(path), SqliteChain(path, key, checkpoints=checkpoints, create=False))


if __name__ == "__main__":
    sys.exit(main())
