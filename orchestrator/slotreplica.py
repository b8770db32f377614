"""A replica of one clinic's open slots, kept by the clinic's WatchSlots stream
(the default; HEALTHMESH_SLOT_REPLICA=false turns it off), so a listing is answered in-process instead of
by a round trip to every clinic of the specialty: what a listing costs no longer grows with the number
of clinics.

Freshness. The clinic publishes each booking, move and cancellation right after its commit and the
replica applies them in order. A booking is never confirmed from the replica: it goes to the clinic,
which checks the slot in its own transaction. A slot the clinic has told this orchestrator is taken
(it booked it, or refused it as taken) is hidden at once, without waiting for the stream, for
HIDE_S — longer than the stream takes to say the same — or until it cancels or moves that booking.
A replica out of sync (before its snapshot, or once its stream broke: a clinic that hangs or is cut
off is found by keepalive pings within about 5 s) answers nothing, and the listing goes to the
clinic as before; so does a request the replica would not answer exactly as the clinic does (a page
token, a doctor it does not know, a field the clinic would refuse)."""

import asyncio
import bisect
import datetime as dt
import logging
import time
from collections.abc import AsyncIterator, Callable

import grpc

from healthmesh.v1 import clinic_pb2, common_pb2
from runtime.doctors import match_doctors
from runtime.errors import NotFound
from runtime.listing import DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, Key, encode_token

log = logging.getLogger("orchestrator.slotreplica")

HIDE_S = 5.0
RECONNECT_S = (0.1, 5.0)  # first and longest wait before watching again


Watch = Callable[[clinic_pb2.WatchSlotsRequest], AsyncIterator[clinic_pb2.WatchSlotsResponse]]


class SlotReplica:
    def __init__(self, clinic_id: str, watch: Watch, now: Callable[[], dt.datetime],
                 reached: Callable[[], None] = lambda: None) -> None:
        self.clinic_id = clinic_id
        self._watch = watch  # the clinic stub's WatchSlots
        self._now = now
        self._reached = reached  # told of every snapshot: the clinic answered
        self.in_sync = asyncio.Event()  # set from the snapshot until the stream ends
        self._slots: dict[str, common_pb2.Slot] = {}
        self._at: dict[tuple[str, str, str], str] = {}  # (doctor, date, time) -> slot id
        self._order: list[Key] | None = None  # sorted keys, rebuilt after a change
        self._doctors: list[clinic_pb2.Doctor] = []
        self._hidden: dict[str, float] = {}  # slot id -> monotonic time it shows again

    async def follow(self) -> None:
        """Watches the clinic until cancelled, starting again (from a new snapshot) whenever the
        stream ends or breaks."""
        wait = RECONNECT_S[0]
        while True:
            try:
                async for message in self._watch(clinic_pb2.WatchSlotsRequest()):
                    self._apply(message)
                    wait = RECONNECT_S[0]
            except grpc.RpcError as err:
                log.debug("slot watch ended", extra={"clinic_id": self.clinic_id, "code": err.code().name})
            finally:
                self.in_sync.clear()
            await asyncio.sleep(wait)
            wait = min(wait * 2, RECONNECT_S[1])

    @property
    def synced(self) -> bool:
        return self.in_sync.is_set()

    def listing(self, request: clinic_pb2.ListAvailableSlotsRequest
                ) -> clinic_pb2.ListAvailableSlotsResponse | None:
        """The first page the clinic would answer, or None when only the clinic can answer."""
        size = request.page_size or DEFAULT_PAGE_SIZE
        first, last = request.from_date, request.to_date
        if (not self.synced or request.page_token or not 1 <= size <= MAX_PAGE_SIZE
                or not (_iso_date(first) and _iso_date(last)) or (first and last and first > last)):
            return None
        names = None
        if request.doctor.strip():
            try:
                names = {d.name for d in match_doctors(self._doctors, request.doctor.strip(), self.clinic_id)}
            except NotFound:
                return None  # the clinic says so, in its words
        now = self._now()
        today, hhmm = now.date().isoformat(), now.strftime("%H:%M")
        order = self._sorted()
        page: list[Key] = []
        clock = time.monotonic()
        for key in order[bisect.bisect_left(order, (max(first, today),)):]:
            date, at, doctor, slot_id = key
            if last and date > last:
                break
            if (date == today and at <= hhmm) or (names is not None and doctor not in names) \
                    or self._hidden.get(slot_id, 0.0) > clock:
                continue
            page.append(key)
            if len(page) > size:
                break
        more = len(page) > size
        return clinic_pb2.ListAvailableSlotsResponse(
            slots=[self._slots[key[3]] for key in page[:size]],
            next_page_token=encode_token(page[size - 1]) if more else "")

    def taken(self, doctor: str, date: str, time_: str) -> None:
        """The clinic told this orchestrator the slot at `doctor` (a name or a part of one, as a
        booking names it), `date` and `time_` is taken: hide it now."""
        until = time.monotonic() + HIDE_S
        for slot_id in self._slot_ids(doctor, date, time_):
            self._hidden[slot_id] = until

    def freed(self, doctor: str, date: str, time_: str) -> None:
        """The clinic told this orchestrator the appointment at that slot is cancelled or moved away:
        it is shown again as soon as the stream says it is open."""
        for slot_id in self._slot_ids(doctor, date, time_):
            self._hidden.pop(slot_id, None)

    def _slot_ids(self, doctor: str, date: str, time_: str) -> list[str]:
        try:
            names = [d.name for d in match_doctors(self._doctors, doctor, self.clinic_id)]
        except NotFound:
            return []
        return [slot_id for name in names if (slot_id := self._at.get((name, date, time_))) is not None]

    def _apply(self, message: clinic_pb2.WatchSlotsResponse) -> None:
        if message.snapshot:
            self._slots.clear()
            self._at.clear()
            self._doctors = list(message.doctors)
            self.in_sync.set()
            self._reached()
        for slot in message.open:
            self._slots[slot.slot_id] = slot
            self._at[(slot.doctor, slot.date, slot.time)] = slot.slot_id
        for slot_id in message.closed:
            self._slots.pop(slot_id, None)
        self._order = None
        clock = time.monotonic()
        self._hidden = {slot_id: until for slot_id, until in self._hidden.items() if until > clock}

    def _sorted(self) -> list[Key]:
        if self._order is None:
            self._order = sorted((s.date, s.time, s.doctor, s.slot_id) for s in self._slots.values())
        return self._order


def _iso_date(value: str) -> bool:
    """Empty, or a date in the exact form the clinic keeps."""
    if not value:
        return True
    try:
        return len(value) == 10 and dt.date.fromisoformat(value).isoformat() == value
    except ValueError:
        return False
