"""Secret keys kept in files (the audit chain's, the sessions' seal): read one, or make one on
first start. A key file holds hex text, so a Kubernetes Secret or a vault can provide it as is;
it is written 0600, whole, under a private name and then linked into place, so a process starting
at the same moment sees no key or a complete one, and the first link wins."""

import os
import secrets
from pathlib import Path

MIN_BYTES = 32


def load(path: Path, *, create: bool = False) -> bytes:
    """The secret in `path` (at least MIN_BYTES); with `create`, a new random one first if missing."""
    if create and not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        draft = path.with_name(f".{path.name}.{secrets.token_hex(8)}")
        fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(secrets.token_hex(MIN_BYTES) + "\n")
        try:
            os.link(draft, path)
        except FileExistsError:
            pass
        finally:
            draft.unlink()
    secret = path.read_bytes().strip()
    if len(secret) < MIN_BYTES:
        raise ValueError(f"{path}: a key needs at least {MIN_BYTES} bytes, got {len(secret)}")
    return secret
