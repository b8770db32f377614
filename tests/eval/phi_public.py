"""The PHI detector on labeled sets of chat messages in both languages (synthetic values in message
templates from public PII datasets and written fresh, a quarter with no PHI and hard negatives such as
doctors' and institutions' names). tests/eval/phi_public.json was built with the detector. Each
phi_holdoutN.json was written by someone who never read the detector nor the other sets' messages, and
measured first on the code of its day; most were tuned on after that and are tuning and regression sets
now, like the tuners' own name families (tests/eval/phi_families.json). The sets never tuned on are held
out: the evidence (`PARTS`; the comments below record each set's readings).
Measured: message recall (a message with PHI is found to hold PHI), per-category span recall (a labeled
span overlapped by a detected span of its category), span precision (detected spans that overlap a
labeled span) and the p50 time per message."""

import json
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from orchestrator.privacy.phi import PhiDetector

SET_PATH = Path(__file__).with_name("phi_public.json")
HOLDOUT_PATH = Path(__file__).with_name("phi_holdout.json")
HOLDOUT2_PATH = Path(__file__).with_name("phi_holdout2.json")
HOLDOUT3_PATH = Path(__file__).with_name("phi_holdout3.json")
# Each set with how it may be read now (first runs: holdout2 recall 95.3%, span precision 96.2%;
# holdout3 recall 92.4%, then 93.3% after the holdout2 round, span precision 95.6%).
# holdout4 (recall 86.6% first, with a crash on a run of name particles fixed; 89.9% after the holdout3
# round), holdout5 (94.4% first, 96.3% after the holdout4 round) and holdout6 (95.7%, then 96.1%) were
# tuned on after that, and so were holdout7 (95.7% before the holdout6 round and after it, span precision
# 97.6%; 99.6% after its own round) and holdout8 (96.0% before the holdout7 round, 96.9% after it, 99.1%
# after the round-12 name families, read with its failures).
# holdout9, a ninth writer's set: 96.1% before the holdout7 round and 96.5% after it (span precision 96.4%,
# then 97.5%), 97.0% / 97.6% after the round-12 name families; tuned on since (98.7% after its round).
# holdout10, a tenth writer's, never was: 97.3% / 99.2% before the round-12 name families, 97.8% / 99.2%
# after them, 98.2% / 99.2% after the holdout9 round; tuned on since (99.6% after its round). holdout11, an
# eleventh writer's: 96.6% / 98.7% after the round-12 name families, 96.6% / 99.0% after the holdout9 round,
# 97.4% / 99.1% after the holdout10 round; tuned on since (98.3% / 99.1% after its round). holdout12, a
# twelfth writer's: 97.1% / 100% after the holdout9 round, 97.6% / 100% after the holdout10 round and after
# round 15; tuned on since (100% / 100% after round 16). holdout13, a thirteenth writer's: 95.6% / 98.8%
# before round 15, 96.0% / 98.8% after it and after round 16 (names 162 of 171 spans); tuned on since (98.8% /
# 98.8% after round 17, names 169). holdout14, a fourteenth writer's, is the evidence: 99.1% / 98.7% after
# round 15 (names 265 of 279 spans), 99.1% / 98.7% after round 16 (names 267) and after round 17.
# holdout15, a fifteenth writer's: 94.8% / 99.2% before round 17 (names 178 of 197), 95.8% / 99.2% after it
# (names 179); tuned on since round 18 (99.1% / 99.3% after it, names 190). holdout16, a sixteenth writer's:
# 93.9% / 99.3% before round 18 (names 215 of 232), 95.3% / 99.3% after it (names 218); tuned on since round
# 19. holdout17, a seventeenth writer's: 94.4% / 99.2% before round 19 (names 181 of 192), 97.2% / 98.2% after
# it (names 188); tuned on since round 20 (100% / 98.3% after it, names 192). holdout14 read 100% / 97.6%
# after round 20 and 100% / 97.6% after round 21. holdout18, an eighteenth writer's: 97.7% / 98.8% before
# round 20 (names 196 of 206), 97.7% / 98.8% after it (names 197); tuned on since round 21 (100% / 98.8% after
# it, names 202 of 206, ages over 89, addresses and birth dates all found).
HOLDOUT4_PATH = Path(__file__).with_name("phi_holdout4.json")
HOLDOUT5_PATH = Path(__file__).with_name("phi_holdout5.json")
HOLDOUT6_PATH = Path(__file__).with_name("phi_holdout6.json")
HOLDOUT7_PATH = Path(__file__).with_name("phi_holdout7.json")
HOLDOUT8_PATH = Path(__file__).with_name("phi_holdout8.json")
HOLDOUT9_PATH = Path(__file__).with_name("phi_holdout9.json")
HOLDOUT10_PATH = Path(__file__).with_name("phi_holdout10.json")
HOLDOUT11_PATH = Path(__file__).with_name("phi_holdout11.json")
HOLDOUT12_PATH = Path(__file__).with_name("phi_holdout12.json")
HOLDOUT13_PATH = Path(__file__).with_name("phi_holdout13.json")
HOLDOUT14_PATH = Path(__file__).with_name("phi_holdout14.json")
HOLDOUT15_PATH = Path(__file__).with_name("phi_holdout15.json")
HOLDOUT16_PATH = Path(__file__).with_name("phi_holdout16.json")
HOLDOUT17_PATH = Path(__file__).with_name("phi_holdout17.json")
HOLDOUT18_PATH = Path(__file__).with_name("phi_holdout18.json")
# Four more writers' sets, written in parallel and each measured first on the main branch of its day, before
# round 21: holdout19 (names that are words emphasised) 95.4% / 97.1% (names 239 of 269), holdout20 99.1% /
# 97.8% (names 208 of 215; phones 45 of 51: numbers said digit by digit), holdout21 (two thirds one-item)
# 96.3% / 97.8% (names 217 of 232; with the spoken-number rule, which it has no use for), holdout22 97.2% /
# 97.4% (names 180 of 192; also with it). holdout20 read 100% with the spoken-number rule, written knowing
# its writer had used such numbers. After round 21: 96.8%, 100%, 96.3%, 97.2%. holdout19 (96.8% / 97.1%, names
# 242 of 269) and holdout21 (96.3% / 97.8%, names 218 of 232) tuned on since round 22: 98.1% / 97.3% (names
# 254; phones, ages over 89 and addresses all found) and 98.6% / 97.8% (names 225) after it.
HOLDOUT19_PATH = Path(__file__).with_name("phi_holdout19.json")
HOLDOUT20_PATH = Path(__file__).with_name("phi_holdout20.json")
HOLDOUT21_PATH = Path(__file__).with_name("phi_holdout21.json")
HOLDOUT22_PATH = Path(__file__).with_name("phi_holdout22.json")
# Two more, first measured after round 21: holdout23 (two thirds one-item) 97.7% / 96.9% (names 214 of 227,
# ages over 89 14 of 16), holdout24 (120 one-item, 96 medium) 99.1% / 97.3% (names 199 of 212, addresses 19
# of 23).
HOLDOUT23_PATH = Path(__file__).with_name("phi_holdout23.json")
HOLDOUT24_PATH = Path(__file__).with_name("phi_holdout24.json")
# After round 22 (which saw neither): holdout23 99.1%, holdout24 99.1%; holdout22 97.2%, holdout20 100%. And
# holdout25 (two thirds one-item), first measured then: 95.8% / 98.0% (names 208 of 225). holdout23 and
# holdout24 read 99.1% / 96.9% and 99.1% / 97.4% after round 23; tuned on since round 24.
HOLDOUT25_PATH = Path(__file__).with_name("phi_holdout25.json")
# holdout26 (108 one-item, 108 medium), first measured after round 22: 98.6% / 97.2% (names 215 of 220).
# holdout22 (97.2% / 97.4% before round 23) and holdout25 (95.8% / 98.0%) tuned on since round 23:
# 99.1% / 97.2% (names 183 of 192, postal codes all found) and 98.6% / 97.5% (names 215 of 225) after it.
HOLDOUT26_PATH = Path(__file__).with_name("phi_holdout26.json")
# Two more, first measured after round 22: holdout27 (two thirds one-item) 97.7% / 98.2% (names 234 of 241),
# holdout28 (half one-item) 99.1% / 97.6% (names 211 of 221, addresses 19 of 22).
HOLDOUT27_PATH = Path(__file__).with_name("phi_holdout27.json")
HOLDOUT28_PATH = Path(__file__).with_name("phi_holdout28.json")
# Two more, first measured after round 23: holdout29 (two thirds one-item, names that are words) 96.3% / 98.0%
# (names 202 of 215, ages over 89 15 of 19), holdout30 (half one-item) 99.5% / 97.0% (names 193 of 199).
HOLDOUT29_PATH = Path(__file__).with_name("phi_holdout29.json")
HOLDOUT30_PATH = Path(__file__).with_name("phi_holdout30.json")
# Two more, first measured after round 24: holdout31 (two thirds one-item) 97.7% / 95.5% (names 217 of 229,
# ages over 89 21 of 24), holdout32 (half one-item) 98.6% / 97.8% (names 199 of 210).
HOLDOUT31_PATH = Path(__file__).with_name("phi_holdout31.json")
HOLDOUT32_PATH = Path(__file__).with_name("phi_holdout32.json")
# Four more, first measured on the round-24 code: holdout33 (half one-item) 98.6% / 96.6%, holdout34 (two
# thirds one-item) 97.2% / 96.9%, holdout35 (half one-item, caregivers' scenarios) 97.2% / 97.7%, holdout36
# (two thirds one-item, how people text a clinic) 96.8% / 98.3%. Round 25 read the misses of holdout26..36 and
# tuned on them (first names no dictionary writes in lower case, greetings and thanks, kin before a name,
# staff where they work, hyphenated names): 99.1%, 99.5%, 99.5%, 99.5%, 99.5%, 99.1%, 99.5%, 98.6%, 98.1%,
# 98.1%, 99.1% after it; 99.5%, 99.5%, 99.5%, 99.5%, 99.5%, 99.1%, 99.5%, 98.6%, 98.1%, 99.1%, 99.1% after
# round 27.
HOLDOUT33_PATH = Path(__file__).with_name("phi_holdout33.json")
HOLDOUT34_PATH = Path(__file__).with_name("phi_holdout34.json")
HOLDOUT35_PATH = Path(__file__).with_name("phi_holdout35.json")
HOLDOUT36_PATH = Path(__file__).with_name("phi_holdout36.json")
# Four more, written during round 25 and never read: on the round-24 code holdout37 (half one-item) 97.7%
# / 98.5%, holdout38 (two thirds one-item) 99.5% / 97.3%, holdout39 (half one-item, caregivers' scenarios)
# 97.6% / 98.0%, holdout40 (two thirds one-item, how people text a clinic) 95.4% / 94.6%: 837 of 858, 97.6%.
# On the round-25 code: 98.6% / 98.6%, 100% / 97.1%, 98.6% / 97.8%, 99.1% / 94.8%: 850 of 858, 99.1%. Tuned on
# since round 26: 99.5%, 100%, 98.6%, 99.5% after it.
HOLDOUT37_PATH = Path(__file__).with_name("phi_holdout37.json")
HOLDOUT38_PATH = Path(__file__).with_name("phi_holdout38.json")
HOLDOUT39_PATH = Path(__file__).with_name("phi_holdout39.json")
HOLDOUT40_PATH = Path(__file__).with_name("phi_holdout40.json")
# Four more, first measured on the round-25 code: holdout41 (half one-item) 99.5% / 98.7%, holdout42 (two
# thirds one-item) 98.1% / 98.4%, holdout43 (half one-item, caregivers' scenarios) 99.0% / 95.1%, holdout44
# (two thirds one-item, how people text a clinic) 96.7% / 97.7%: 837 of 851, 98.4%. After round 26 (which
# never read them): 99.5%, 98.6%, 99.0%, 96.7%, 838 of 851. Tuned on since round 27: 99.5%, 99.0%, 99.0%,
# 98.1% after it.
HOLDOUT41_PATH = Path(__file__).with_name("phi_holdout41.json")
HOLDOUT42_PATH = Path(__file__).with_name("phi_holdout42.json")
HOLDOUT43_PATH = Path(__file__).with_name("phi_holdout43.json")
HOLDOUT44_PATH = Path(__file__).with_name("phi_holdout44.json")
# Four more, first measured on the round-26 code: holdout45 (half one-item) 95.8% / 96.6%, holdout46 (two
# thirds one-item) 99.0% / 96.9%, holdout47 (half one-item, caregivers' scenarios) 98.2% / 96.5%, holdout48
# (two thirds one-item, how people text a clinic) 97.2% / 97.6%: 831 of 852, 97.5%; the same after round 27.
# Tuned on since round 28: 96.7%, 99.5%, 99.1%, 98.1% after it.
HOLDOUT45_PATH = Path(__file__).with_name("phi_holdout45.json")
HOLDOUT46_PATH = Path(__file__).with_name("phi_holdout46.json")
HOLDOUT47_PATH = Path(__file__).with_name("phi_holdout47.json")
HOLDOUT48_PATH = Path(__file__).with_name("phi_holdout48.json")
# Four more, first measured on the round-27 code: holdout49 (half one-item) 98.6% / 96.7%, holdout50 (two
# thirds one-item) 100% / 97.3%, holdout51 (half one-item, caregivers' scenarios) 98.1% / 98.2%, holdout52
# (two thirds one-item, how people text a clinic) 98.1% / 97.3%: 838 of 849, 98.7%; the same after round 28.
# Tuned on since round 29: 98.6%, 100%, 99.5%, 98.6% after it.
HOLDOUT49_PATH = Path(__file__).with_name("phi_holdout49.json")
HOLDOUT50_PATH = Path(__file__).with_name("phi_holdout50.json")
HOLDOUT51_PATH = Path(__file__).with_name("phi_holdout51.json")
HOLDOUT52_PATH = Path(__file__).with_name("phi_holdout52.json")
# Four more, first measured on the round-28 code: holdout53 (half one-item) 99.5% / 95.7%, holdout54 (two
# thirds one-item) 99.0% / 96.1%, holdout55 (half one-item, caregivers' scenarios) 99.5% / 97.7%, holdout56
# (two thirds one-item, how people text a clinic) 97.6% / 96.3%: 831 of 840, 98.9%; the same after round 29.
HOLDOUT53_PATH = Path(__file__).with_name("phi_holdout53.json")
HOLDOUT54_PATH = Path(__file__).with_name("phi_holdout54.json")
HOLDOUT55_PATH = Path(__file__).with_name("phi_holdout55.json")
HOLDOUT56_PATH = Path(__file__).with_name("phi_holdout56.json")
# Four more, first measured on the round-29 code: holdout57 (half one-item) 98.6% / 97.6%, holdout58 (two
# thirds one-item) 98.7% / 97.4%, holdout59 (half one-item, caregivers' scenarios) 97.6% / 95.3%, holdout60
# (two thirds one-item, how people text a clinic) 97.6% / 94.9%: 838 of 854, 98.1%.
HOLDOUT57_PATH = Path(__file__).with_name("phi_holdout57.json")
HOLDOUT58_PATH = Path(__file__).with_name("phi_holdout58.json")
HOLDOUT59_PATH = Path(__file__).with_name("phi_holdout59.json")
HOLDOUT60_PATH = Path(__file__).with_name("phi_holdout60.json")
# Name families and open items written by the round-12 tuner (lower-case first names in every position,
# names that are words, Hawaiian addresses, ages in words) and a round-13 batch (record and member ids with
# letters, ages over 89 in every form, names in every position; 80.0% on its first run, 99.3% after its
# rules): tuning from its first run, never evidence. holdout9 read 98.7% after the round-13 rules.
# A round-14 batch (68 more): 85.5% first, 94.5% after its rules; holdout10 read 99.6% after them.
# A round-15 batch (67 more: relatives and roles, word names, lists, handoffs): 73.1% first, 98.1% after its
# rules, with the holdout11 round; holdout12 read 97.6% / 100% before and after them. A round-16 batch (78
# more: where a person works, who a relative is, relatives' titles, beds, signatures, particles, word
# surnames): 57.8% first, 89.1% after its rules. A round-17 batch (88 more: Chinese and Korean names, names
# that are words, unlisted names opening a message, subject lines, anyone's relative): 71.4% / 94.5% first,
# 92.9% / 97.2% after its rules. A round-18 batch (91 more, short one-item requests whose slot says a person
# is meant: "it's for tevita", "put it under bo", "need to move Yerlan to friday"): 71.6% / 100% first,
# 98.5% / 100% after its rules. A round-19 batch (75 more, short one-item messages whose name stands where no
# cue word is: a clause's subject, a word of the other language, two people joined, a name "she" refers to):
# 57.7% / 96.7% first, 94.2% / 96.4% after its rules. A round-20 batch (73 more, short one-item messages: a
# name joined to the writer, "kiri and i", "eu e a jussara"; after a person cue, "remind koa about",
# "patient: oyelaran"; a name "her" refers to next; in parentheses, "my son (ikaika)"; hyphens, initials,
# apostrophes; ages, links, addresses and ids in short forms; hard negatives): 84.7% / 96.4% first, 94.9% /
# 96.7% after its rules. A round-21 batch (96 short one-item messages, 68 with PHI: first names that are
# common words of the message's language, any frequency, in a person's place: a clause's agent before a
# person's verb, "grace forgot", "a rosa esqueceu"; a modal clash, "will is bringing"; the object of a person
# verb, "let hope know", "liga pra paz"; joined to a relative, "my wife and hope"; vocatives and sign-offs,
# "bjs, luz", "- jade"; hard negatives, "hope it helps", "will do", "a luz do consultório", "jade plant"):
# 41.2% / 90.6% first, 98.5% / 94.5% after its rules. A round-23 batch (90 short one-item messages, 66 with
# PHI: appositions around a role, who-is copulas, hyphenated first names, ZIPs and CEPs after a filler; hard
# negatives): 69.7% / 92.2% first, 90.9% / 93.9% after its rules.
# A round-24 batch (88 short one-item messages, 64 with PHI: a role before a name, 'rep Tanisha'; passed on
# from, 'fwd from Delphine -'; aliases, '(pref name Bobby)'; vocatives before a second person, 'Enzo, tua
# mae ligou'; rotas, 'Creusa seg/ter'; ages after 'y' or a named relative; claim and account ids; hard
# negatives): 82.8% / 95.5% first, 93.8% / 96.2% after its rules.
# A round-22 batch (86 short one-item messages, 63 with PHI: places only a person fills, a question's
# subject, after a role, before one in parentheses, a possessive's owner, lists after a colon; dashed 7-digit
# phones, age and sex without a comma, rural route boxes; hard negatives): 77.8% / 92.1% first, 87.3% / 94.1%
# after its rules.
FAMILIES_PATH = Path(__file__).with_name("phi_families.json")
HELD_OUT = "held out"
_RETIRED = "tuning (held out until its first run)"
PARTS = (("tuning", SET_PATH), *((_RETIRED, path) for path in (HOLDOUT_PATH, HOLDOUT2_PATH, HOLDOUT3_PATH,
                                                               HOLDOUT4_PATH, HOLDOUT5_PATH, HOLDOUT6_PATH,
                                                               HOLDOUT7_PATH, HOLDOUT8_PATH)),
         ("tuning", FAMILIES_PATH), (_RETIRED, HOLDOUT9_PATH), (_RETIRED, HOLDOUT10_PATH),
         (_RETIRED, HOLDOUT11_PATH), (_RETIRED, HOLDOUT12_PATH), (_RETIRED, HOLDOUT13_PATH),
         (HELD_OUT, HOLDOUT14_PATH), (_RETIRED, HOLDOUT15_PATH), (_RETIRED, HOLDOUT16_PATH),
         (_RETIRED, HOLDOUT17_PATH), (_RETIRED, HOLDOUT18_PATH), (_RETIRED, HOLDOUT19_PATH),
         (HELD_OUT, HOLDOUT20_PATH), (_RETIRED, HOLDOUT21_PATH), (_RETIRED, HOLDOUT22_PATH),
         (_RETIRED, HOLDOUT23_PATH), (_RETIRED, HOLDOUT24_PATH), (_RETIRED, HOLDOUT25_PATH),
         *((_RETIRED, path) for path in (HOLDOUT26_PATH, HOLDOUT27_PATH, HOLDOUT28_PATH, HOLDOUT29_PATH,
                                         HOLDOUT30_PATH, HOLDOUT31_PATH, HOLDOUT32_PATH, HOLDOUT33_PATH,
                                         HOLDOUT34_PATH, HOLDOUT35_PATH, HOLDOUT36_PATH, HOLDOUT37_PATH,
                                         HOLDOUT38_PATH, HOLDOUT39_PATH, HOLDOUT40_PATH, HOLDOUT41_PATH,
                                         HOLDOUT42_PATH, HOLDOUT43_PATH, HOLDOUT44_PATH, HOLDOUT45_PATH,
                                         HOLDOUT46_PATH, HOLDOUT47_PATH, HOLDOUT48_PATH, HOLDOUT49_PATH,
                                         HOLDOUT50_PATH, HOLDOUT51_PATH, HOLDOUT52_PATH)),
         *((HELD_OUT, path) for path in (HOLDOUT53_PATH, HOLDOUT54_PATH, HOLDOUT55_PATH, HOLDOUT56_PATH,
                                         HOLDOUT57_PATH, HOLDOUT58_PATH, HOLDOUT59_PATH, HOLDOUT60_PATH)))
TARGET_RECALL, TARGET_PRECISION, TARGET_P50_MS = 0.99, 0.85, 0.5


@dataclass
class PhiScore:
    with_phi: int = 0
    found: int = 0
    spans: Counter = field(default_factory=Counter)  # category -> labeled spans
    spans_found: Counter = field(default_factory=Counter)
    detected: int = 0
    detected_right: int = 0
    p50_ms: float = 0.0
    missed: list[str] = field(default_factory=list)  # message ids

    @property
    def message_recall(self) -> float:
        return self.found / self.with_phi if self.with_phi else 0.0

    @property
    def span_precision(self) -> float:
        return self.detected_right / self.detected if self.detected else 1.0

    def recall_of(self, category: str) -> float:
        return self.spans_found[category] / self.spans[category] if self.spans[category] else 0.0


def pooled(scores: list[PhiScore]) -> PhiScore:
    """The sets' scores as one set's: the target is on the held-out messages together, not on each few
    hundred alone (one miss moves a set of 216 by half a point). Its p50 is the slowest set's."""
    total = PhiScore()
    for s in scores:
        total.with_phi += s.with_phi
        total.found += s.found
        total.spans += s.spans
        total.spans_found += s.spans_found
        total.detected += s.detected
        total.detected_right += s.detected_right
        total.p50_ms = max(total.p50_ms, s.p50_ms)
        total.missed += s.missed
    return total


def score(path: Path = SET_PATH, detector: PhiDetector | None = None) -> PhiScore:
    detector = detector or PhiDetector()
    result, times = PhiScore(), []
    for message in json.loads(path.read_text(encoding="utf-8"))["messages"]:
        start = time.perf_counter()
        found = detector.detect(message["text"])
        times.append((time.perf_counter() - start) * 1000)
        labeled = message["spans"]
        if labeled:
            result.with_phi += 1
            result.found += found.found
            if not found.found:
                result.missed.append(message["id"])
        for span in labeled:
            result.spans[span["category"]] += 1
            result.spans_found[span["category"]] += any(
                s.category == span["category"] and s.start < span["end"] and span["start"] < s.end
                for s in found.spans)
        for s in found.spans:
            result.detected += 1
            result.detected_right += any(s.start < span["end"] and span["start"] < s.end for span in labeled)
    result.p50_ms = statistics.median(times) if times else 0.0
    return result
