"""The verifier on the labeled faithfulness set (tests/eval/faithfulness.json): each pair is a
deterministic answer and a candidate text (a real output of the bundled model, a hand-written
paraphrase or an adversarial variant), labeled faithful or not by people. Every candidate goes
through the whole answer audit as a model's rephrasing; "accepted" means the verifier found it
safe. Target: no unfaithful text accepted; the share of faithful texts rejected is reported."""

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from clinics.seed import DOCTORS
from healthmesh.v1 import common_pb2, verifier_pb2
from runtime import registry
from verifier.rules import verify

SET_PATH = Path(__file__).with_name("faithfulness.json")
# Written after the verifier was tuned on SET_PATH, from other conversations: the evidence.
HOLDOUT_PATH = Path(__file__).with_name("faithfulness_holdout.json")


@dataclass
class FaithfulnessScore:
    pairs: int = 0
    unfaithful: int = 0
    faithful: int = 0
    unfaithful_accepted: list[str] = field(default_factory=list)  # pair ids
    faithful_rejected: list[str] = field(default_factory=list)
    by_kind: Counter = field(default_factory=Counter)  # (kind, label, verdict) counts

    @property
    def false_rejection_rate(self) -> float:
        return len(self.faithful_rejected) / self.faithful if self.faithful else 0.0


def score(path: Path = SET_PATH) -> FaithfulnessScore:
    data = json.loads(path.read_text(encoding="utf-8"))
    entries = registry.load(registry.DEFAULT_PATH).values()
    doctors = [d.name for seeded in DOCTORS.values() for d in seeded]
    clinics, addresses = [c.name for c in entries], [c.address for c in entries]
    references = {r["id"]: r for r in data["references"]}
    result = FaithfulnessScore()
    for i, pair in enumerate(data["pairs"]):
        ref = references[pair["ref"]]
        evidence = verifier_pb2.Evidence(
            slots=[common_pb2.Slot(date=e["date"], time=e["time"], doctor=e["doctor"])
                   for e in ref["evidence"]],
            doctors=doctors, clinics=clinics, facts=addresses)
        verdict = verify(verifier_pb2.VerifyAnswerRequest(
            user_query=ref["message"], answer=pair["text"], evidence=evidence, language=ref["lang"],
            current_patient=common_pb2.PatientIdentity(full_name=ref["patient"]),
            origin=verifier_pb2.ANSWER_ORIGIN_REPHRASING, reference_answer=ref["reference"]))
        pair_id = f"{pair['ref']}#{i}"
        result.pairs += 1
        if pair["faithful"]:
            result.faithful += 1
            if not verdict.safe:
                result.faithful_rejected.append(pair_id)
        else:
            result.unfaithful += 1
            if verdict.safe:
                result.unfaithful_accepted.append(pair_id)
        result.by_kind[(pair["kind"], pair["faithful"], verdict.safe)] += 1
    return result
