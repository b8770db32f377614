"""The queue as OpenTelemetry metrics: how many cases wait for an operator and how long the oldest has
waited, per urgency (the only attribute: no case id, session or patient ever labels a metric)."""

from collections.abc import Iterable

from opentelemetry import metrics
from opentelemetry.metrics import CallbackOptions, Observation

from escalation.store import CaseStore
from healthmesh.v1 import escalation_pb2 as pb


def _label(urgency: int) -> dict[str, str]:
    return {"urgency": pb.CaseUrgency.Name(urgency).removeprefix("CASE_URGENCY_").lower()}


def observe(store: CaseStore, meter: metrics.Meter | None = None) -> None:
    """Registers the gauges; the meter provider reads the store at each collection."""
    meter = meter or metrics.get_meter("healthmesh.escalation")

    def size(_: CallbackOptions) -> Iterable[Observation]:
        return [Observation(count, _label(urgency)) for urgency, count, _ in store.queue()]

    def oldest(_: CallbackOptions) -> Iterable[Observation]:
        return [Observation(round(age, 3), _label(urgency)) for urgency, _, age in store.queue()]

    meter.create_observable_gauge("healthmesh.escalation.queue_size", callbacks=[size], unit="{case}",
                                  description="open cases waiting for an operator, by urgency")
    meter.create_observable_gauge("healthmesh.escalation.oldest_open_age", callbacks=[oldest], unit="s",
                                  description="how long the oldest open case has waited, by urgency")
