"""The drug knowledge base on a held-out list of pairs labeled by public sources
(tests/eval/interactions_holdout.json, compiled without seeing the knowledge base): of the
pairs the source calls major or contraindicated, how many the DrugService reports as major or
contraindicated (recall), and of those it calls minor or none, how many it reports as major or
contraindicated (false alarms). A pair with a drug the knowledge base does not know counts as
not reported (a miss when the source calls it serious); the unknown names are listed."""

import json
import sqlite3
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from healthmesh.v1 import tools_pb2
from tools.drug_loader import load
from tools.drug_lookup import UnknownDrug
from tools.drug_service import DrugService

HOLDOUT_PATH = Path(__file__).with_name("interactions_holdout.json")
HOLDOUT2_PATH = Path(__file__).with_name("interactions_holdout2.json")
HOLDOUT3_PATH = Path(__file__).with_name("interactions_holdout3.json")
HOLDOUT4_PATH = Path(__file__).with_name("interactions_holdout4.json")
HOLDOUT5_PATH = Path(__file__).with_name("interactions_holdout5.json")
HOLDOUT6_PATH = Path(__file__).with_name("interactions_holdout6.json")
HOLDOUT7_PATH = Path(__file__).with_name("interactions_holdout7.json")
# The lists above were tuned on after their first runs (holdout3: 59.5%, then 76.0%; holdout4: 76.5% /
# 3.1% false alarms, then 81.0% / 5.4%; holdout5: 84.5% / 3.1%, then 85.5%; holdout6: 85.5% / 1.7%,
# then 87.5%; holdout7: 82.5% / 2.0%, then 83.5% / 2.0%): regression sets, not evidence. This one, an
# eighth seeded draw from DDInter (200 major, 41 minor: its Minor pool spent) and 89 minor or none pairs
# from a public scrape of drugs.com's checker, measured 86.0% / 0 of 130 on its first run. The holdout7
# round that followed (89.0% / 0 after it) surveyed every DDInter pair no list then held, these among
# them, for uncovered families: that later figure is not clean evidence, the first one is. The holdout8
# round then tuned on its misses (90.0% / 0 after it): it too is a regression set now.
HOLDOUT8_PATH = Path(__file__).with_name("interactions_holdout8.json")
# A second source, never tuned on: every pair both drugs of which the knowledge base knows, none in an
# earlier list, of the ONC high-priority list (Phansalkar 2012, as dbmi-pitt/public-PDDI-analysis holds it:
# "high priority", counted as major) and of a public scrape of drugs.com's checker (blood-pressure drugs:
# major, minor, none). First run, after the holdout7 round: 96.1% major found (ONC 95.5%, drugs.com
# 47/47), 0 of 47 false alarms; the same after the holdout8 round. The knowledge base cites the ONC list
# among its sources, so its part measures how fully that source's classes are held, not a source the
# knowledge base never read.
HOLDOUT9_PATH = Path(__file__).with_name("interactions_holdout9.json")
# Two sources the knowledge base never cited, as dbmi-pitt/public-PDDI-analysis holds them: the French ANSM
# interaction thesaurus (WorldVista's 2016 English translation: contraindication, "not recommended" as
# major, "take into account" as minor) and the Liverpool HIV charts (2017: "do not coadminister" as major,
# "no interaction expected" as none). First run, after PHI round 16 (the knowledge base as the previous
# session left it): 63.5% major found (ANSM 38/71, Liverpool 49/66), 14 of 113 false alarms (12.4%). Its own
# round then tuned on its misses (80.3%: ANSM 48/71, Liverpool 62/66; still 14 of 113): a regression set now.
# Most of what it still misses or alarms on is where ANSM's French level and the US labels disagree (README).
HOLDOUT10_PATH = Path(__file__).with_name("interactions_holdout10.json")
# Five more sources new to these lists (KEGG's "CI" from Japanese package inserts and NDF-RT "Critical",
# via dbmi-pitt/Merged-PDDI; OSCAR drugref and UCSF HIV InSite, via dbmi-pitt/public-PDDI-analysis;
# drugs.com levels annotated by Correia et al.). First run, before the holdout10 round: 58.7% major found
# (KEGG 57/126, NDF-RT 71/91), 9 of 118 false alarms (7.6%); 59.2% / 7.6% after that round. Its own round
# then tuned on its misses (61.9% / 7.6%): a regression set now. Most of what it still misses are Japanese
# package-insert contraindications the US and EU labels do not share (README).
HOLDOUT11_PATH = Path(__file__).with_name("interactions_holdout11.json")
# Two more (dbmi-pitt/public-PDDI-analysis): CredibleMeds' interaction listing, "usually avoid" as major (19
# pairs, all that were usable), and the ONC non-interruptive list (Phansalkar 2013) as minor (93). First run,
# before the holdout11 round: 31.6% major found (6 of 19), 7 of 93 false alarms (7.5%); the same after it.
# Its own round (label pair rules) then tuned on it (36.8%: 7 of 19; still 7 of 93): a regression set now.
# Most of what it misses is CredibleMeds' class-wide azole-statin row, which its own text explains by
# simvastatin and lovastatin CYP3A4 metabolism; the pravastatin, rosuvastatin and fluvastatin labels set no
# such limit (fluvastatin's caps the dose with fluconazole only).
HOLDOUT12_PATH = Path(__file__).with_name("interactions_holdout12.json")
# Two more groups of sources, new to these lists: the Canadian Paxlovid monograph's contraindications (24)
# with the NIH COVID-19 guidelines' "no clinically relevant interaction" box (16, none), and the AGS Beers
# Criteria's Table 5 (2019 and the rows new in 2023; 80 pairs, class rows expanded to their members). First
# run, before and after the holdout12 round: 76.0% major found (79 of 104), 0 of 16 false alarms. Its own
# round (the Paxlovid label's contraindicated classes; Beers' corticosteroid-NSAID "avoid", read as major)
# then tuned on it (100%: 104 of 104; still 0 of 16): a regression set now.
HOLDOUT13_PATH = Path(__file__).with_name("interactions_holdout13.json")
# One more, from the drugs' own labels and SmPCs (their contraindications, 82 serious: finerenone,
# ranolazine, riociguat, ivabradine, MAO inhibitors, triptans, …; their "no clinically relevant interaction"
# statements and studies, 51 minor or none). First run, before and after the holdout13 round: 89.0% major
# found (73 of 82), 1 of 51 false alarms (2.0%). Its own round (the Kerendia, Ranexa, Latuda, Vfend, Multaq
# and Nimotop labels' class contraindications) then tuned on it (100%: 82 of 82; still 1 of 51): a regression
# set now.
HOLDOUT14_PATH = Path(__file__).with_name("interactions_holdout14.json")
# One more the same way, from 29 other drugs' own labels and SmPCs (83 serious: moclobemide, linezolid,
# ketorolac, dabigatran, darunavir/cobicistat, sacubitril, itraconazole, vortioxetine, …; 51 minor or
# none from labels and published studies). First run, before and after the holdout14 round: 96.4% major
# found (80 of 83), 0 of 51 false alarms: the target met on a list the knowledge base was never tuned on.
HOLDOUT15_PATH = Path(__file__).with_name("interactions_holdout15.json")
# And another, from 35 more drugs' labels and SmPCs (87 serious: dronedarone, cobicistat, lopinavir,
# domperidone, levomilnacipran, lisdexamfetamine, vardenafil, …; 53 minor or none). First run, after the
# holdout14 round: 96.6% major found (84 of 87), 0 of 53 false alarms.
HOLDOUT16_PATH = Path(__file__).with_name("interactions_holdout16.json")
HELD_OUT = "held out"
_RETIRED = "tuning (held out until its first runs)"
PARTS = (("tuned on after its first run", HOLDOUT_PATH), ("tuning", HOLDOUT2_PATH), (_RETIRED, HOLDOUT3_PATH),
         (_RETIRED, HOLDOUT4_PATH), (_RETIRED, HOLDOUT5_PATH), (_RETIRED, HOLDOUT6_PATH),
         (_RETIRED, HOLDOUT7_PATH), (_RETIRED, HOLDOUT8_PATH), (HELD_OUT, HOLDOUT9_PATH),
         (_RETIRED, HOLDOUT10_PATH), (_RETIRED, HOLDOUT11_PATH), (_RETIRED, HOLDOUT12_PATH),
         (_RETIRED, HOLDOUT13_PATH), (_RETIRED, HOLDOUT14_PATH),
         (HELD_OUT, HOLDOUT15_PATH), (HELD_OUT, HOLDOUT16_PATH))
TARGET_RECALL, TARGET_FALSE_ALARMS = 0.90, 0.05
SERIOUS = {tools_pb2.INTERACTION_SEVERITY_MAJOR, tools_pb2.INTERACTION_SEVERITY_CONTRAINDICATED}


@dataclass
class InteractionScore:
    serious: int = 0
    serious_found: int = 0
    mild: int = 0
    false_alarms: int = 0
    unknown: list[str] = field(default_factory=list)  # drugs the knowledge base does not know
    missed: list[tuple[str, str]] = field(default_factory=list)
    alarmed: list[tuple[str, str]] = field(default_factory=list)

    @property
    def recall(self) -> float:
        return self.serious_found / self.serious if self.serious else 0.0

    @property
    def false_alarm_rate(self) -> float:
        return self.false_alarms / self.mild if self.mild else 0.0


def score(path: Path = HOLDOUT_PATH) -> InteractionScore:
    pairs = json.loads(path.read_text(encoding="utf-8"))["pairs"]
    result = InteractionScore()
    with tempfile.TemporaryDirectory() as tmp, ThreadPoolExecutor(1) as pool:
        db_path = Path(tmp) / "tools.sqlite3"
        with sqlite3.connect(db_path) as conn:
            load(conn)
        servicer = DrugService(db_path, pool)
        for pair in pairs:
            a, b = pair["drug_a"], pair["drug_b"]
            try:
                found = servicer._interactions([a, b])
                reported = max((i.severity for i in found.interactions), default=0)
            except UnknownDrug as err:
                result.unknown.append(err.name)
                reported = 0
            if pair["severity"] in ("major", "contraindicated"):
                result.serious += 1
                if reported in SERIOUS:
                    result.serious_found += 1
                else:
                    result.missed.append((a, b))
            else:
                result.mild += 1
                if reported in SERIOUS:
                    result.false_alarms += 1
                    result.alarmed.append((a, b))
    return result
