"""Sessions sealed at rest: a session holds the patient's name and CPF, the consult's messages and
the message a triage question is about, so its stored form is AES-256-GCM ciphertext under a key
kept apart from the database (runtime.secretfile), with the session id as associated data so a
row copied under another id does not open. Someone who reads the database file, its WAL or a
backup learns only session ids and timestamps."""

import json
import os
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

NONCE_BYTES = 12


class Unreadable(Exception):
    """A sealed session that does not open: another key, another id, or edited bytes."""


class Seal:
    def __init__(self, secret: bytes) -> None:
        # The file's secret is text of any length ≥ 32 bytes; HKDF turns it into an AES-256 key.
        key = HKDF(algorithm=hashes.SHA256(), length=32, salt=None,
                   info=b"healthmesh session seal v1").derive(secret)
        self._aead = AESGCM(key)

    def close(self, session_id: str, state: dict[str, Any]) -> bytes:
        nonce = os.urandom(NONCE_BYTES)
        return nonce + self._aead.encrypt(nonce, json.dumps(state).encode(), session_id.encode())

    def open(self, session_id: str, sealed: bytes) -> dict[str, Any]:
        try:
            plain = self._aead.decrypt(sealed[:NONCE_BYTES], sealed[NONCE_BYTES:], session_id.encode())
        except (InvalidTag, ValueError) as exc:
            raise Unreadable(session_id) from exc
        return json.loads(plain)
