"""Keeps a running mesh's services up, as a platform would: a service that exits is restarted on
its address after a backoff (doubling with each restart in the crash-loop window), while the others
keep serving; one that exits again after `crash_loop_restarts` restarts within the window is
reported crash-looping and left stopped, never retried forever.

`tick()` looks once (tests drive it step by step); `start()` runs it in a thread until `stop()`.
Every change of a service's state is passed to `on_change`.
"""

import enum
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from deploy.local.processes import Service, StartError
from runtime.settings import LauncherSettings


class State(enum.Enum):
    SERVING = "serving"
    RESTARTING = "restarting"  # waiting for its backoff, or started and not yet SERVING
    CRASH_LOOPING = "crash-looping"  # left stopped


@dataclass
class Status:
    state: State = State.SERVING
    restarts: int = 0
    last_exit: str = ""  # why it last went down: "exit code 1", "killed by signal 9", …
    restart_at: float = 0.0  # monotonic time of the pending restart
    started_at: float = 0.0  # monotonic time of the last restart
    exits: list[float] = field(default_factory=list)  # monotonic times of the exits


class Supervisor:
    def __init__(self, services: Iterable[Service], settings: LauncherSettings,
                 on_change: Callable[[Service, Status], None] = lambda svc, status: None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.services = list(services)
        self.settings = settings
        self.status = {svc.name: Status() for svc in self.services}
        self._on_change = on_change
        self._clock = clock
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def tick(self) -> None:
        for svc in self.services:
            status = self.status[svc.name]
            if status.state is State.SERVING:
                if svc.proc is not None and svc.proc.poll() is not None:
                    self._exited(svc, status, _why(svc.proc.returncode))
            elif status.state is State.RESTARTING:
                self._advance(svc, status)

    def _exited(self, svc: Service, status: Status, why: str) -> None:
        now = self._clock()
        window = self.settings.crash_loop_window_s
        status.exits = [t for t in status.exits if now - t < window] + [now]
        status.last_exit = why
        recent = len(status.exits) - 1  # restarts already made for the exits in the window
        if recent >= self.settings.crash_loop_restarts:
            svc.kill()  # no-op for an exited process; closes its log
            status.state = State.CRASH_LOOPING
        else:
            backoff = min(self.settings.restart_backoff_s * 2 ** recent, self.settings.restart_backoff_max_s)
            status.state, status.restart_at, svc.proc = State.RESTARTING, now + backoff, None
        self._on_change(svc, status)

    def _advance(self, svc: Service, status: Status) -> None:
        """A service waiting to restart: start it when its backoff is over, then watch it come up."""
        now = self._clock()
        if svc.proc is None:
            if now >= status.restart_at:
                status.restarts += 1
                status.started_at = now
                svc.restart(f"restart {status.restarts} by the launcher after {status.last_exit}")
            return
        try:
            serving = svc.healthy()
        except StartError:
            self._exited(svc, status, _why(svc.proc.returncode))
            return
        if serving:
            status.state = State.SERVING
            self._on_change(svc, status)
        elif now - status.started_at > self.settings.start_timeout_s:
            svc.kill()
            self._exited(svc, status, f"not SERVING within {self.settings.start_timeout_s:g} s")

    def start(self, interval: float = 0.2) -> None:
        def run() -> None:
            while not self._stop.wait(interval):
                self.tick()

        self._thread = threading.Thread(target=run, name="supervisor", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stops supervising (before the services are stopped, so none is restarted meanwhile)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()


def _why(returncode: int | None) -> str:
    if returncode is not None and returncode < 0:
        return f"killed by signal {-returncode}"
    return f"exit code {returncode}"
