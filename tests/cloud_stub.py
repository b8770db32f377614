"""A real OpenAI-compatible "cloud" on loopback for tests: llama_cpp.server running a GGUF file,
behind a recording reverse proxy that keeps every request body it receives (so a test can
prove what was, or was not, sent) and answers 502 when the server behind it is down."""

import http.client
import json
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlparse

STARTUP_TIMEOUT_S = 60.0
# Per-connection headers a proxy must not forward (RFC 9110 7.6.1), the length it recomputes, and
# the ones http.server writes itself.
_NOT_FORWARDED = frozenset({"connection", "keep-alive", "proxy-connection", "transfer-encoding", "te",
                            "trailer", "upgrade", "host", "content-length", "server", "date"})


def free_port() -> int:
    """A loopback port with nothing listening (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_llama_server(model_path: Path, port: int) -> subprocess.Popen:
    """Starts `python -m llama_cpp.server` on 127.0.0.1:`port` and waits until GET /v1/models answers."""
    log = tempfile.TemporaryFile()
    proc = subprocess.Popen(
        [sys.executable, "-m", "llama_cpp.server", "--model", str(model_path), "--host", "127.0.0.1",
         "--port", str(port), "--n_threads", "1", "--n_ctx", "2048"],
        stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/models", timeout=1) as reply:
                if reply.status == 200:
                    log.close()
                    return proc
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.1)
    stop_process(proc)
    log.seek(0)
    tail = log.read()[-2000:].decode(errors="replace")
    log.close()
    raise RuntimeError(f"llama_cpp.server did not start on port {port}:\n{tail}")


def stop_process(proc: subprocess.Popen) -> None:
    """SIGTERM, then SIGKILL if it has not exited within 5 s."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


class RecordingProxy:
    """An HTTP reverse proxy on 127.0.0.1 to `upstream` ("http://127.0.0.1:PORT") that records
    every request body; `url` is its OpenAI-style base URL."""

    def __init__(self, upstream: str) -> None:
        target = urlparse(upstream)
        self.upstream_host = target.hostname or "127.0.0.1"
        self.upstream_port = target.port or 80
        self.bodies: list[bytes] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._thread = threading.Thread(target=self._server.serve_forever, name="recording-proxy",
                                        daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def start(self) -> "RecordingProxy":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()

    def _record(self, body: bytes) -> None:
        with self._lock:
            self.bodies.append(body)

    def _forward(self, method: str, path: str, headers: dict[str, str],
                 body: bytes) -> tuple[int, list[tuple[str, str]], bytes]:
        conn = http.client.HTTPConnection(self.upstream_host, self.upstream_port, timeout=60)
        try:
            conn.request(method, path, body=body or None, headers=headers)
            reply = conn.getresponse()
            return reply.status, reply.getheaders(), reply.read()
        except OSError:  # refused, reset, timed out: the upstream is down
            error = {"error": {"message": "upstream unavailable", "type": "bad_gateway"}}
            return 502, [("Content-Type", "application/json")], json.dumps(error).encode()
        finally:
            conn.close()

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def _relay(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                proxy._record(body)
                headers = {k: v for k, v in self.headers.items() if k.lower() not in _NOT_FORWARDED}
                status, reply_headers, reply_body = proxy._forward(self.command, self.path, headers, body)
                self.send_response(status)
                for key, value in reply_headers:
                    if key.lower() not in _NOT_FORWARDED:
                        self.send_header(key, value)
                self.send_header("Content-Length", str(len(reply_body)))
                self.end_headers()
                self.wfile.write(reply_body)

            do_GET = do_POST = _relay

            def log_message(self, format: str, *args: object) -> None:  # quiet test output
                pass

        return Handler
