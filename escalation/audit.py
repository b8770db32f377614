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

from runtime.auditchain import ChainKey, Checkpoints, SqliteChain, command_key, report_file
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
    key = command_key(args.key_file or settings.escalation_audit_key_file)
    if key is None:
        return 1
    return report_file(args.path or settings.data.data_dir / FILE, key,
                       args.checkpoints or settings.escalation_audit_checkpoints)


if __name__ == "__main__":
    sys.exit(main())
