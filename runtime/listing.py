"""The ListAvailableSlots contract, shared by its two answerers (a clinic, from its database, and the
orchestrator's replica of the clinic's slots): page sizes, the page token, and what "future" means."""

import base64
import binascii
import datetime as dt
import json

from runtime.errors import InvalidArgument

DEFAULT_PAGE_SIZE = 50
MAX_PAGE_SIZE = 500

Key = tuple[str, str, str, str]  # (date, time, doctor's name, slot id): the listing's order


def encode_token(last: Key) -> str:
    return base64.urlsafe_b64encode(json.dumps(list(last)).encode()).decode()


def decode_token(token: str) -> Key | None:
    if not token:
        return None
    try:
        values = json.loads(base64.urlsafe_b64decode(token.encode()))
        if isinstance(values, list) and len(values) == 4 and all(isinstance(v, str) for v in values):
            for value in values:
                value.encode()  # a lone surrogate ("\\ud800" in the JSON) is no text SQLite can bind
            return values[0], values[1], values[2], values[3]
    except (binascii.Error, ValueError, RecursionError):  # UnicodeError is a ValueError
        pass
    raise InvalidArgument("page_token", "is not a token returned by this service")


def is_past(now: dt.datetime, date: str, time: str) -> bool:
    return f"{date} {time}" <= now.strftime("%Y-%m-%d %H:%M")
