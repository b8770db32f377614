"""JSON logs on stderr, one object per line, tagged with the service and request id."""

import contextvars
import logging
import sys

from pythonjsonlogger.json import JsonFormatter

request_id: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="")


class _ContextFilter(logging.Filter):
    def __init__(self, service: str) -> None:
        super().__init__()
        self.service = service

    def filter(self, record: logging.LogRecord) -> bool:
        record.service = self.service
        rid = request_id.get()
        if rid:
            record.request_id = rid
        return True


def configure(service: str, level: str = "INFO") -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(
        JsonFormatter(
            "%(asctime)s %(levelname)s %(name)s %(message)s",
            rename_fields={"asctime": "time", "levelname": "level", "name": "logger"},
        )
    )
    handler.addFilter(_ContextFilter(service))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    # Lifecycle lines (serving, draining, stopped) are always written: launchers read the
    # "serving" line to learn the bound port.
    logging.getLogger("server").setLevel(logging.INFO)
