"""The clinic's slot feed: the watchers of WatchSlots, each sent the slots a write touched, as the
database has them after the write.

A change is read from the database when it is published, not carried from the write, so two
writes on one slot that publish out of commit order still leave a watcher with the last state.
A watcher subscribes before its snapshot is read, so no write falls between the two: one
committed after the snapshot publishes after it, one before at worst repeats what it holds.
A watcher that falls behind (its queue full) is ended; it reconnects and starts from a new
snapshot, so a slow reader never holds the clinic's memory."""

import asyncio
from collections.abc import AsyncIterator

from clinics.records import Appointment, Slot
from clinics.store import ClinicStore
from healthmesh.v1 import clinic_pb2, common_pb2

MAX_BEHIND = 1024  # changes queued for one watcher before it is ended

_END = clinic_pb2.WatchSlotsResponse()  # queued to end a watcher (never sent: a change has slots)


class SlotFeed:
    def __init__(self, clinic_id: str, db: ClinicStore) -> None:
        self.clinic_id = clinic_id
        self.db = db
        self._watchers: set[asyncio.Queue[clinic_pb2.WatchSlotsResponse]] = set()

    async def watch(self) -> AsyncIterator[clinic_pb2.WatchSlotsResponse]:
        """A snapshot of every open future slot, then each change, until the feed closes."""
        queue: asyncio.Queue[clinic_pb2.WatchSlotsResponse] = asyncio.Queue(MAX_BEHIND)
        self._watchers.add(queue)
        try:
            # On the loop, like a listing: nothing can publish between subscribing and this read.
            doctors = self.db.doctors()
            yield clinic_pb2.WatchSlotsResponse(
                snapshot=True, open=slot_messages(self.db.all_open_slots(), self.clinic_id),
                doctors=[clinic_pb2.Doctor(doctor_id=d.doctor_id, name=d.name) for d in doctors])
            while (change := await queue.get()) is not _END:
                yield change
        finally:
            self._watchers.discard(queue)

    def changed(self, touched: list[Appointment]) -> None:
        """Publishes the slots of `touched` appointments, after their write committed."""
        if not self._watchers:
            return
        opened, closed = self.db.slot_states(touched)
        change = clinic_pb2.WatchSlotsResponse(open=slot_messages(opened, self.clinic_id), closed=closed)
        for queue in list(self._watchers):
            try:
                queue.put_nowait(change)
            except asyncio.QueueFull:
                self._end(queue)

    def close(self) -> None:
        """Ends every watch, so a drain does not wait its grace out on streams that never end."""
        for queue in list(self._watchers):
            self._end(queue)

    def _end(self, queue: asyncio.Queue[clinic_pb2.WatchSlotsResponse]) -> None:
        self._watchers.discard(queue)
        while not queue.empty():
            queue.get_nowait()
        queue.put_nowait(_END)


def slot_messages(slots: list[Slot], clinic_id: str) -> list[common_pb2.Slot]:
    return [common_pb2.Slot(slot_id=s.slot_id, doctor=s.doctor, date=s.date, time=s.time, clinic_id=clinic_id)
            for s in slots]
