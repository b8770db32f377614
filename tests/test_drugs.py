"""DrugService over a real knowledge base built from tools/data/drugs.json in a temporary
SQLite file: name resolution, safety facts, interactions, unknown drugs and validation."""

import asyncio
import json
import sqlite3
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from google.rpc import error_details_pb2

from healthmesh.v1 import tools_pb2
from runtime.errors import InvalidArgument
from tools.drug_loader import DEFAULT_CLASSES, DEFAULT_DATA, load
from tools.drug_lookup import UnknownDrug
from tools.drug_service import DrugService

MAJOR = tools_pb2.INTERACTION_SEVERITY_MAJOR
MODERATE = tools_pb2.INTERACTION_SEVERITY_MODERATE
CONTRAINDICATED = tools_pb2.INTERACTION_SEVERITY_CONTRAINDICATED


@pytest.fixture
def servicer(tmp_path: Path) -> Iterator[DrugService]:
    db_path = tmp_path / "tools.sqlite3"
    conn = sqlite3.connect(db_path)
    load(conn)
    conn.close()
    with ThreadPoolExecutor(2) as pool:
        yield DrugService(db_path, pool)


def safety(svc: DrugService, name: str) -> tools_pb2.CheckDrugSafetyResponse:
    return asyncio.run(svc.CheckDrugSafety(tools_pb2.CheckDrugSafetyRequest(drug_name=name), None))


def interactions(svc: DrugService, *names: str) -> tools_pb2.CheckInteractionsResponse:
    return asyncio.run(svc.CheckInteractions(tools_pb2.CheckInteractionsRequest(drug_names=names), None))


def pairs(response: tools_pb2.CheckInteractionsResponse) -> list[tuple[str, str, int]]:
    return [(i.drug_a, i.drug_b, i.severity) for i in response.interactions]


@pytest.mark.parametrize(("names", "generic"), [
    (["warfarin", "Coumadin", "Marevan", "varfarina", "  WARFARIN SODIUM. "], "warfarin"),
    (["acetaminophen", "paracetamol", "Tylenol"], "acetaminophen"),
    (["dipyrone", "dipirona", "metamizol", "Novalgina"], "dipyrone"),
    (["ibuprofen", "ibuprofeno", "Advil"], "ibuprofen"),
    (["amiodarone", "amiodarona", "Cordarone"], "amiodarone"),
    (["tramadol", "cloridrato de tramadol", "Tramadol HCl"], "tramadol"),
    (["metoprolol", "toprol xl", "Toprol-XL"], "metoprolol"),
    (["isotretinoin", "Isotretinoína", "Roacutan"], "isotretinoin"),
])
def test_generic_brand_and_portuguese_names_resolve_to_one_drug(
        servicer: DrugService, names: list[str], generic: str) -> None:
    answers = [safety(servicer, name) for name in names]
    assert {a.generic_name for a in answers} == {generic}
    assert all(a == answers[0] for a in answers)


def test_safety_facts_come_with_source_and_section(servicer: DrugService) -> None:
    warfarin = safety(servicer, "Coumadin")
    assert warfarin.drug_class == "vitamin K antagonist anticoagulant"
    assert list(warfarin.brand_names) == ["Coumadin", "Jantoven", "Marevan"]
    assert "bleeding" in warfarin.boxed_warnings[0].text
    assert warfarin.boxed_warnings[0].section == "Boxed Warning"
    assert any("Pregnancy" in c.text for c in warfarin.contraindications)
    for item in [*warfarin.boxed_warnings, *warfarin.contraindications, *warfarin.major_cautions]:
        assert "Coumadin" in item.source
        assert item.section


@pytest.mark.parametrize("drug", ["amiodarone", "warfarin", "isotretinoin", "methotrexate", "metformin",
                                  "lisinopril", "ibuprofen", "apixaban", "fluoxetine", "tramadol"])
def test_boxed_warning_for_drugs_whose_label_has_one(servicer: DrugService, drug: str) -> None:
    boxed = safety(servicer, drug).boxed_warnings
    assert boxed
    assert all(b.section == "Boxed Warning" for b in boxed)


@pytest.mark.parametrize("drug", ["atorvastatin", "omeprazole", "digoxin", "acetaminophen"])
def test_no_boxed_warning_where_the_label_has_none(servicer: DrugService, drug: str) -> None:
    answer = safety(servicer, drug)
    assert not answer.boxed_warnings
    assert answer.contraindications and answer.major_cautions


def test_warfarin_with_ibuprofen_is_major(servicer: DrugService) -> None:
    answer = interactions(servicer, "Coumadin", "ibuprofeno")
    assert list(answer.generic_names) == ["warfarin", "ibuprofen"]
    [pair] = answer.interactions
    assert (pair.drug_a, pair.drug_b, pair.severity) == ("ibuprofen", "warfarin", MAJOR)
    assert "bleeding" in pair.mechanism
    assert "Monitor" in pair.management
    assert "FDA label" in pair.source


def test_prednisone_with_ibuprofen_is_major_as_beers_says_avoid(servicer: DrugService) -> None:
    # The labels name the bleeding risk; Beers Table 5 says to avoid the pair in older adults.
    [pair] = servicer._interactions(["prednisone", "Advil"]).interactions
    assert pair.severity == MAJOR and "Avoid" in pair.management
    assert "FDA label" in pair.source and "Beers" in pair.source


def test_every_known_pair_among_three_drugs_most_severe_first(servicer: DrugService) -> None:
    answer = interactions(servicer, "warfarin", "Zocor", "claritromicina")
    assert list(answer.generic_names) == ["warfarin", "simvastatin", "clarithromycin"]
    assert pairs(answer) == [
        ("clarithromycin", "simvastatin", CONTRAINDICATED),
        ("clarithromycin", "warfarin", MAJOR),
        ("simvastatin", "warfarin", MODERATE),
    ]


def test_severity_comes_before_name_order(servicer: DrugService) -> None:
    answer = interactions(servicer, "Viagra", "anlodipino", "Nitrostat")
    assert list(answer.generic_names) == ["sildenafil", "amlodipine", "nitroglycerin"]
    assert pairs(answer) == [
        ("nitroglycerin", "sildenafil", CONTRAINDICATED),
        ("amlodipine", "sildenafil", tools_pb2.INTERACTION_SEVERITY_MINOR),
    ]


def test_pairs_of_equal_severity_are_ordered_by_name(servicer: DrugService) -> None:
    answer = interactions(servicer, "ibuprofen", "warfarin", "AAS")
    assert pairs(answer) == [
        ("aspirin", "ibuprofen", MAJOR),
        ("aspirin", "warfarin", MAJOR),
        ("ibuprofen", "warfarin", MAJOR),
    ]


def test_no_known_interaction_gives_an_empty_list(servicer: DrugService) -> None:
    answer = interactions(servicer, "metformin", "doxiciclina")
    assert list(answer.generic_names) == ["metformin", "doxycycline"]
    assert not answer.interactions


@pytest.mark.parametrize(("name", "suggestion"), [
    ("warfarn", "warfarin"),
    ("ibuprofn", "ibuprofen"),
    ("amiodarna", "amiodarone"),
    ("Xarelton", "rivaroxaban"),
])
def test_unknown_drug_suggests_the_close_generic_name(
        servicer: DrugService, name: str, suggestion: str) -> None:
    with pytest.raises(UnknownDrug) as caught:
        safety(servicer, name)
    err = caught.value
    assert err.name == name
    assert err.suggestions[0] == suggestion
    assert len(err.suggestions) <= 3
    assert err.message.startswith(f'unknown drug "{name}"; did you mean: {suggestion}')
    [info] = err.details()
    assert isinstance(info, error_details_pb2.ErrorInfo)
    assert info.reason == "UNKNOWN_DRUG"
    assert info.metadata["drug_name"] == name
    assert info.metadata["suggestions"].split(",") == err.suggestions


def test_nothing_close_gives_no_suggestion(servicer: DrugService) -> None:
    with pytest.raises(UnknownDrug) as caught:
        safety(servicer, "qqqqzzzz")
    assert caught.value.suggestions == []
    assert caught.value.message == 'unknown drug "qqqqzzzz"'


def test_interactions_report_the_first_unknown_drug(servicer: DrugService) -> None:
    with pytest.raises(UnknownDrug) as caught:
        interactions(servicer, "warfarin", "Coumadin", "warfarn", "xyzzy")
    assert caught.value.name == "warfarn"


@pytest.mark.parametrize("name", ["", "   ", "x" * 101, "?!"])
def test_drug_name_validation_names_the_field(servicer: DrugService, name: str) -> None:
    with pytest.raises(InvalidArgument) as caught:
        safety(servicer, name)
    assert caught.value.field == "drug_name"


@pytest.mark.parametrize(("names", "field"), [
    (["warfarin"], "drug_names"),
    (["aspirin"] * 11, "drug_names"),
    (["warfarin", " "], "drug_names[1]"),
    (["warfarin", "aspirin", "y" * 101], "drug_names[2]"),
])
def test_drug_names_validation_names_the_field(servicer: DrugService, names: list[str], field: str) -> None:
    with pytest.raises(InvalidArgument) as caught:
        interactions(servicer, *names)
    assert caught.value.field == field


def test_two_names_for_the_same_drug_are_rejected(servicer: DrugService) -> None:
    with pytest.raises(InvalidArgument) as caught:
        interactions(servicer, "warfarin", "aspirin", "Marevan")
    assert caught.value.field == "drug_names"
    assert "same drug" in caught.value.problem
    assert "Marevan" in caught.value.problem


def test_concurrent_calls_share_the_pool(servicer: DrugService) -> None:
    async def many() -> list[str]:
        calls = [servicer.CheckDrugSafety(tools_pb2.CheckDrugSafetyRequest(drug_name=n), None)
                 for n in ["varfarina", "paracetamol", "Plavix"] * 10]
        return [r.generic_name for r in await asyncio.gather(*calls)]

    assert asyncio.run(many()) == ["warfarin", "acetaminophen", "clopidogrel"] * 10


def test_knowledge_base_is_broad_and_sourced() -> None:
    data = json.loads(DEFAULT_DATA.read_text(encoding="utf-8"))
    conn = sqlite3.connect(":memory:")
    load(conn)
    assert conn.execute("SELECT count(*) FROM drugs").fetchone()[0] >= 30
    assert conn.execute("SELECT count(*) FROM interactions").fetchone()[0] >= 40
    assert conn.execute("SELECT count(*) FROM safety_items WHERE source = '' OR section = ''"
                        ).fetchone()[0] == 0
    assert all(p["source"] and p["mechanism"] and p["management"] for p in data["interactions"])
    severities = {r[0] for r in conn.execute("SELECT DISTINCT severity FROM interactions")}
    assert severities == {"minor", "moderate", "major", "contraindicated"}


def _write(tmp_path: Path, edit: dict) -> Path:
    data = json.loads(DEFAULT_DATA.read_text(encoding="utf-8"))
    data["interactions"][0].update(edit)
    path = tmp_path / "drugs.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize(("edit", "named"), [
    ({"drug_b": "warfarn"}, "warfarn"),
    ({"severity": "severe"}, "severe"),
    ({"drug_b": "warfarin", "drug_a": "warfarin"}, "itself"),
    ({"source": " "}, "source"),
])
def test_bad_data_is_rejected_and_leaves_the_loaded_tables(tmp_path: Path, edit: dict, named: str) -> None:
    conn = sqlite3.connect(":memory:")
    load(conn)
    with pytest.raises(ValueError, match=named):
        load(conn, _write(tmp_path, edit))
    assert conn.execute("SELECT count(*) FROM interactions").fetchone()[0] >= 40


def test_a_pair_listed_twice_is_rejected(tmp_path: Path) -> None:
    data = json.loads(DEFAULT_DATA.read_text(encoding="utf-8"))
    first = data["interactions"][0]
    data["interactions"].append({**first, "drug_a": first["drug_b"], "drug_b": first["drug_a"]})
    path = tmp_path / "drugs.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ValueError, match="listed twice"):
        load(sqlite3.connect(":memory:"), path)


# ---- classes -----------------------------------------------------------------------------------


def test_a_pair_without_its_own_rule_is_read_by_class(servicer: DrugService) -> None:
    reply = servicer._interactions(["apixaban", "rivaroxaban"])
    assert [i.severity for i in reply.interactions] == [MAJOR]
    assert reply.interactions[0].mechanism.startswith("By class (anticoagulant + anticoagulant)")
    assert reply.interactions[0].source
    reply = servicer._interactions(["phenelzine", "fluoxetine"])
    assert reply.interactions[0].severity == CONTRAINDICATED


def test_a_pairs_own_rule_overrides_its_classes(servicer: DrugService) -> None:
    reply = servicer._interactions(["warfarin", "ibuprofen"])
    assert len(reply.interactions) == 1 and not reply.interactions[0].mechanism.startswith("By class")


def test_a_drug_known_only_by_class_says_it_has_no_label_facts(servicer: DrugService) -> None:
    reply = servicer._safety("Nardil")
    assert reply.generic_name == "phenelzine" and not reply.label_facts and not reply.boxed_warnings
    assert servicer._safety("warfarin").label_facts


def test_the_classes_file_is_sourced_and_broad() -> None:
    conn = sqlite3.connect(":memory:")
    load(conn)
    assert conn.execute("SELECT count(*) FROM drugs").fetchone()[0] >= 200
    assert conn.execute("SELECT count(*) FROM class_rules").fetchone()[0] >= 60
    assert conn.execute("SELECT count(*) FROM class_rules WHERE source = ''").fetchone()[0] == 0


def test_a_class_rule_with_an_unknown_class_is_rejected(tmp_path: Path) -> None:
    data = json.loads(DEFAULT_CLASSES.read_text(encoding="utf-8"))
    data["class_rules"][0]["class_b"] = "no_such_class"
    path = tmp_path / "drug_classes.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ValueError, match="no_such_class"):
        load(sqlite3.connect(":memory:"), classes_path=path)


def test_inducers_flag_only_the_azoles_cleared_by_cyp3a4(servicer: DrugService) -> None:
    [found] = servicer._interactions(["phenobarbital", "itraconazole"]).interactions
    assert found.severity == MAJOR and "cyp3a4 dependent azole" in found.mechanism
    # Fluconazole is cleared by the kidney: an inducer barely changes it.
    found_all = servicer._interactions(["phenobarbital", "fluconazole"]).interactions
    assert all(i.severity < MAJOR for i in found_all)


@pytest.mark.parametrize(("a", "b", "severity", "classes", "word"), [
    ("citalopram", "quetiapine", MAJOR, "qt_possible_risk + qt_prolonging", "QT"),
    ("ciprofloxacin", "hydrocortisone", MAJOR, "corticosteroid + fluoroquinolone", "tendon"),
    ("itraconazole", "dexamethasone", MAJOR,
     "cyp3a4_sensitive_corticosteroid + strong_cyp3a4_inhibitor", "CYP3A4"),
    ("diltiazem", "ivabradine", MAJOR,
     "cyp3a4_moderate_inhibitor_limit + moderate_cyp3a4_inhibitor", "CYP3A4"),
    ("rifabutin", "ciclosporin", MAJOR, "calcineurin_inhibitor + moderate_cyp3a4_inducer", "induction"),
    ("riociguat", "theophylline", CONTRAINDICATED,
     "nonspecific_pde_inhibitor + sgc_stimulator", "hypotension"),
    ("tizanidine", "famotidine", MAJOR, "cyp1a2_inhibitor_other + tizanidine", "CYP1A2"),
    ("bupropion", "theophylline", MAJOR,
     "seizure_threshold_lowering + seizure_threshold_lowering_other", "seizure"),
    ("salmeterol", "itraconazole", MAJOR, "cyp3a4_strong_inhibitor_limit + strong_cyp3a4_inhibitor", "QT"),
    ("oxycodone", "risperidone", MAJOR, "antipsychotic + opioid", "respiratory depression"),
    ("sertraline", "quetiapine", MODERATE, "qt_possible_risk + qt_possible_risk", "QT"),
    ("itraconazole", "sotalol", MAJOR, "qt_possible_risk + qt_prolonging", "QT"),
    ("itraconazole", "vilazodone", MAJOR,
     "cyp3a4_strong_inhibitor_limit + strong_cyp3a4_inhibitor", "CYP3A4"),
    ("erythromycin", "sildenafil", MAJOR,
     "cyp3a4_moderate_inhibitor_limit + moderate_cyp3a4_inhibitor", "CYP3A4"),
    ("clarithromycin", "tramadol", MAJOR, "cyp3a4_opioid + strong_cyp3a4_inhibitor", "respiratory"),
    ("efavirenz", "voriconazole", MAJOR, "cyp3a4_dependent_azole + moderate_cyp3a4_inducer", "induction"),
    ("carbamazepine", "rilpivirine", MAJOR, "cyp3a4_inducer_avoid + strong_cyp3a4_inducer", "induction"),
    ("diltiazem", "colchicine", MAJOR, "colchicine + moderate_cyp3a4_inhibitor", "dose"),
    ("paroxetine", "aripiprazole", MAJOR, "cyp2d6_dose_sensitive + strong_cyp2d6_inhibitor", "CYP2D6"),
    ("duloxetine", "thioridazine", MAJOR, "cyp2d6_inhibitor_other + cyp2d6_qt_substrate", "CYP2D6"),
    ("esomeprazole", "citalopram", MAJOR, "cyp2c19_sensitive + strong_cyp2c19_inhibitor", "QT"),
    ("verapamil", "dabigatran", MAJOR, "pgp_doac + pgp_inhibitor", "P-glycoprotein"),
    ("furosemide", "ziprasidone", MAJOR, "potassium_depleting + qt_contraindicated", "torsades"),
    ("clozapine", "azathioprine", MAJOR, "clozapine + myelosuppressant", "agranulocytosis"),
    ("darunavir", "rosuvastatin", MAJOR, "hiv_protease_inhibitor + statin_pi_dose_cap", "10 mg"),
    ("dihydroergotamine", "pseudoephedrine", MAJOR,
     "ergot + vasoconstrictor_sympathomimetic", "vasoconstriction"),
    ("levofloxacin", "repaglinide", MAJOR, "fluoroquinolone + meglitinide", "dysglycaemia"),
    ("ritonavir", "disulfiram", MAJOR, "alcohol_containing_formulation + disulfiram", "ethanol"),
    ("atazanavir", "famotidine", MAJOR, "acid_dependent_absorption + h2_blocker", "absorption"),
    ("topiramate", "oxybutynin", MODERATE,
     "carbonic_anhydrase_inhibitor + strong_anticholinergic", "hyperthermia"),
    ("bupropion", "escitalopram", MAJOR,
     "seizure_threshold_lowering + seizure_threshold_lowering_other", "seizure"),
    ("azathioprine", "mercaptopurine", MAJOR, "thiopurine + thiopurine", "prodrug"),
    ("phenelzine", "methyldopa", CONTRAINDICATED, "maoi + methyldopa", "hypertensive crisis"),
    ("fluconazole", "phenytoin", MAJOR, "cyp2c9_inhibitor + hydantoin", "phenytoin levels"),
    ("ivabradine", "haloperidol", MAJOR, "bradycardic_qt_avoid + qt_prolonging", "heart-rate"),
    ("ivabradine", "promethazine", MAJOR, "bradycardic_qt_avoid + qt_possible_risk", "QT"),
    ("chloroquine", "norfloxacin", MAJOR, "qt_possible_risk + qt_prolonging", "QT"),
    ("ketoconazole", "solifenacin", MAJOR,
     "cyp3a4_strong_inhibitor_limit + strong_cyp3a4_inhibitor", "solifenacin"),
    ("gemfibrozil", "loperamide", MAJOR, "cyp2c8_substrate + gemfibrozil", "loperamide"),
    ("clozapine", "irinotecan", MAJOR, "clozapine + myelosuppressant", "agranulocytosis"),
    ("bupropion", "aminophylline", MAJOR,
     "seizure_threshold_lowering + seizure_threshold_lowering_other", "seizure"),
    ("nelfinavir", "omeprazole", MAJOR, "ppi + ppi_dependent_absorption", "nelfinavir"),
    ("tamsulosin", "ketoconazole", MAJOR,
     "cyp3a4_strong_inhibitor_limit + strong_cyp3a4_inhibitor", "CYP3A4"),
    ("phentermine", "fluoxetine", MAJOR, "ssri + sympathomimetic_anorectic", "not recommended"),
    ("venlafaxine", "phentermine", MAJOR, "snri + sympathomimetic_anorectic", "serotonergic"),
    ("clozapine", "rifampicin", MAJOR, "clozapine + strong_cyp3a4_inducer", "not recommended"),
    ("cimetidine", "citalopram", MAJOR, "cyp2c19_inhibitor_other + cyp2c19_qt_dose_cap", "20 mg"),
    ("cimetidine", "fentanyl", MAJOR, "cyp3a4_opioid + weak_cyp3a4_inhibitor", "boxed warning"),
    ("dexamethasone", "methadone", MAJOR, "cyp3a4_opioid + weak_cyp3a4_inducer", "induction"),
    ("ibuprofen", "ciclosporin", MAJOR, "calcineurin_inhibitor + nsaid", "nephrotoxicity"),
    ("amiloride", "ciclosporin", MAJOR, "calcineurin_inhibitor + potassium_sparing", "hyperkalaemia"),
    ("topiramate", "lorazepam", MAJOR, "carbonic_anhydrase_inhibitor + cns_depressant", "CNS depression"),
    ("enzalutamide", "sotalol", MAJOR, "qt_possible_risk + qt_prolonging", "QT"),
    ("clozapine", "albendazole", MAJOR, "clozapine + myelosuppressant", "agranulocytosis"),
    ("ketoconazole", "quinidine", CONTRAINDICATED,
     "cyp3a4_contraindicated_substrate + strong_cyp3a4_inhibitor", "CYP3A4"),
    ("clarithromycin", "nimodipine", CONTRAINDICATED,
     "cyp3a4_contraindicated_substrate + strong_cyp3a4_inhibitor", "CYP3A4"),
    ("rifampicin", "ivabradine", MAJOR,
     "cyp3a4_contraindicated_substrate + strong_cyp3a4_inducer", "induction"),
    ("carbamazepine", "nifedipine", MAJOR, "cyp3a4_inducer_avoid + strong_cyp3a4_inducer", "nifedipine"),
    ("potassium chloride", "disopyramide", MAJOR,
     "potassium_supplement + strong_anticholinergic", "ulceration"),
    ("atomoxetine", "haloperidol", MAJOR, "qt_possible_risk + qt_prolonging", "Torsades"),
    ("itraconazole", "riociguat", MAJOR, "sgc_stimulator + strong_cyp3a4_inhibitor", "hypotension"),
    ("bupropion", "metoclopramide", MAJOR,
     "cyp2d6_dose_sensitive + strong_cyp2d6_inhibitor", "metoclopramide"),
    ("bupropion", "amfetamine", MAJOR, "cyp2d6_dose_sensitive + strong_cyp2d6_inhibitor", "serotonin"),
    ("clarithromycin", "levomilnacipran", MAJOR,
     "cyp3a4_strong_inhibitor_limit + strong_cyp3a4_inhibitor", "levomilnacipran"),
    ("clozapine", "thiamazole", MAJOR, "clozapine + myelosuppressant", "agranulocytosis"),
    ("clozapine", "ticlopidine", MAJOR, "clozapine + myelosuppressant", "agranulocytosis"),
    ("diltiazem", "erythromycin", MAJOR, "erythromycin + nondihydropyridine_ccb", "sudden cardiac death"),
    ("erythromycin", "cobicistat", MAJOR, "erythromycin + strong_cyp3a4_inhibitor", "QT"),
    ("tacrolimus", "aciclovir", MAJOR, "calcineurin_inhibitor + cni_nephrotoxic", "nephrotoxicity"),
    ("co-trimoxazole", "ciclosporin", MAJOR, "calcineurin_inhibitor + cni_nephrotoxic", "co-trimoxazole"),
    ("gemfibrozil", "irinotecan", MAJOR, "irinotecan + strong_ugt1a1_inhibitor", "SN-38"),
    ("aliskiren", "ciclosporin", MAJOR, "aliskiren + aliskiren_avoid_pgp_inhibitor", "P-glycoprotein"),
    ("ciclosporin", "diltiazem", MAJOR, "cyp3a4_dose_sensitive + moderate_cyp3a4_inhibitor", "narrow-margin"),
    ("bupropion", "cyclobenzaprine", MAJOR,
     "seizure_threshold_lowering + seizure_threshold_lowering_other", "seizure"),
    ("tramadol", "phentermine", MAJOR,
     "seizure_threshold_lowering + seizure_threshold_lowering_other", "seizure"),
    ("bupropion", "donepezil", MAJOR,
     "seizure_threshold_lowering + seizure_threshold_lowering_other", "seizure"),
    ("chloroquine", "rilpivirine", MAJOR, "qt_possible_risk + qt_prolonging", "QT"),
    ("desipramine", "hydroxychloroquine", MAJOR, "qt_possible_risk + qt_prolonging", "QT"),
    ("morphine", "ramelteon", MAJOR, "cns_depressant + opioid", "respiratory depression"),
    ("hydrocodone", "ranolazine", MAJOR, "cyp3a4_opioid + weak_cyp3a4_inhibitor", "boxed warning"),
    ("doxepin", "fentanyl", MAJOR, "cns_depressant + opioid", "respiratory depression"),
    ("linezolid", "levodopa", CONTRAINDICATED, "levodopa + nonselective_maoi", "hypertensive crisis"),
    ("levodopa", "phenelzine", CONTRAINDICATED, "levodopa + nonselective_maoi", "MAO-B"),
    ("ketoconazole", "domperidone", CONTRAINDICATED,
     "smpc_strong_cyp3a4_inhibitor_contraindicated + strong_cyp3a4_inhibitor", "QT"),
    ("ritonavir", "lercanidipine", CONTRAINDICATED,
     "smpc_strong_cyp3a4_inhibitor_contraindicated + strong_cyp3a4_inhibitor", "hypotension"),
    ("darunavir", "amiodarone", MAJOR, "hiv_protease_inhibitor + ritonavir_contraindicated_antiarrhythmic",
     "arrhythmias"),
    ("atazanavir", "flecainide", MAJOR, "hiv_protease_inhibitor + ritonavir_contraindicated_antiarrhythmic",
     "antiarrhythmic"),
    ("rifampicin", "midazolam", MAJOR, "strong_cyp3a4_inducer + strong_inducer_sensitive_substrate", "80%"),
    ("phenytoin", "aprepitant", MAJOR, "strong_cyp3a4_inducer + strong_inducer_sensitive_substrate",
     "loss of effect"),
    ("efavirenz", "triazolam", CONTRAINDICATED, "efavirenz + efavirenz_contraindicated", "sedation"),
    ("efavirenz", "dihydroergotamine", CONTRAINDICATED, "efavirenz + efavirenz_contraindicated", "ergotism"),
    ("aliskiren", "quinidine", MAJOR, "aliskiren + aliskiren_avoid_pgp_inhibitor", "P-glycoprotein"),
    ("itraconazole", "buspirone", MAJOR, "cyp3a4_strong_inhibitor_limit + strong_cyp3a4_inhibitor", "CYP3A4"),
    ("miconazole", "simvastatin", CONTRAINDICATED, "cyp3a4_statin + miconazole_oral", "rhabdomyolysis"),
    ("Daktarin", "triazolam", CONTRAINDICATED, "miconazole_contraindicated + miconazole_oral", "sedation"),
    ("miconazole", "pimozide", CONTRAINDICATED, "miconazole_contraindicated + miconazole_oral", "torsades"),
    ("miconazole", "methylergometrine", CONTRAINDICATED, "ergot + miconazole_oral", "ergotism"),
    ("carbamazepine", "tadalafil", MAJOR, "strong_cyp3a4_inducer + strong_inducer_avoid", "pulmonary"),
    ("ezetimibe", "gemfibrozil", MAJOR, "ezetimibe + fibrate_other_than_fenofibrate", "cholelithiasis"),
    ("Paxlovid", "amiodarone", CONTRAINDICATED,
     "nirmatrelvir_ritonavir + ritonavir_contraindicated_antiarrhythmic", "arrhythmias"),
    ("Paxlovid", "St John's wort", CONTRAINDICATED,
     "nirmatrelvir_ritonavir + strong_cyp3a4_inducer", "resistance"),
    ("prednisolone", "naproxen", MAJOR, "nsaid + systemic_corticosteroid", "Beers"),
    ("Kerendia", "itraconazole", CONTRAINDICATED,
     "cyp3a4_contraindicated_substrate + strong_cyp3a4_inhibitor", "hyperkalaemia"),
    ("finerenone", "efavirenz", MAJOR, "cyp3a4_inducer_avoid + moderate_cyp3a4_inducer", "finerenone"),
    ("ranolazine", "rifabutin", CONTRAINDICATED, "cyp3a_inducer_contraindicated + moderate_cyp3a4_inducer",
     "antianginal"),
    ("ranolazine", "carbamazepine", CONTRAINDICATED, "cyp3a_inducer_contraindicated + strong_cyp3a4_inducer",
     "Ranexa"),
    ("Latuda", "rifampicin", CONTRAINDICATED, "strong_cyp3a4_inducer + strong_inducer_contraindicated",
     "a fifth"),
    ("Multaq", "erythromycin", CONTRAINDICATED, "qt_contraindicated + qt_prolonging", "QT"),
])
def test_class_rules_by_mechanism(servicer: DrugService, a: str, b: str, severity: int, classes: str,
                                  word: str) -> None:
    [found] = servicer._interactions([a, b]).interactions
    assert found.severity == severity
    assert found.mechanism.startswith(f"By class ({classes.replace('_', ' ')})") and word in found.mechanism
    assert "https://" in found.source


@pytest.mark.parametrize(("a", "b"), [
    ("erythromycin", "amlodipine"),  # the cohort's CYP3A4 inhibitors were azoles, diltiazem and verapamil
    ("irinotecan", "fenofibrate"),  # gemfibrozil inhibits UGT1A1; other fibrates are not named
    ("aliskiren", "tacrolimus"),  # the aliskiren label names ciclosporin, not tacrolimus
    ("levodopa", "rasagiline"),  # the levodopa labels contraindicate nonselective MAOIs, not MAO-B inhibitors
    ("levodopa", "moclobemide"),  # selective MAO-A: no significant pressor reaction in a levodopa study
    ("nelfinavir", "thioridazine"),  # the thioridazine label names CYP2D6 inhibitors, not CYP3A4 ones
    ("fluconazole", "lercanidipine"),  # the lercanidipine SmPC contraindicates strong CYP3A4 inhibitors
    ("efavirenz", "alprazolam"),  # the efavirenz SmPC names midazolam and triazolam only
    ("miconazole", "alprazolam"),  # the miconazole oral gel SmPC asks caution with alprazolam, not avoidance
    ("miconazole", "atorvastatin"),  # the SmPC names simvastatin and lovastatin
    ("sildenafil", "rifampicin"),  # the avoid-inducers advice is Adcirca's (tadalafil), not sildenafil's
    ("tadalafil", "rifabutin"),  # a moderate inducer: the Adcirca label names potent ones
    ("ezetimibe", "fenofibrate"),  # studied and approved together
    ("budesonide", "ibuprofen"),  # Beers' corticosteroid row is for oral or parenteral ones
    ("lurasidone", "oxcarbazepine"),  # Latuda: a moderate inducer may call for a higher dose
    ("finerenone", "diltiazem"),  # Kerendia: monitor potassium with moderate inhibitors
])
def test_class_rules_stop_where_their_sources_stop(servicer: DrugService, a: str, b: str) -> None:
    assert all(i.severity < MAJOR for i in servicer._interactions([a, b]).interactions)


@pytest.mark.parametrize(("a", "b", "word", "source"), [
    ("fluconazole", "fluvastatin", "20 mg twice daily", "Lescol"),  # a dose cap, by the statin's label
    ("Calan", "quinidine", "hypertrophic cardiomyopathy", "verapamil"),
    ("Norvir", "voriconazole", "400 mg", "Norvir"),
    ("Pradaxa", "tacrolimus", "Not recommended", "Pradaxa"),
    ("Paxlovid", "voriconazole", "Do not combine", "PAXLOVID"),
])
def test_a_labels_pair_rule_between_drugs_known_only_by_class(
        servicer: DrugService, a: str, b: str, word: str, source: str) -> None:
    [found] = servicer._interactions([a, b]).interactions
    assert found.severity == MAJOR and not found.mechanism.startswith("By class")
    assert word in found.management and source in found.source and "https://" in found.source


def test_the_vfend_label_contraindicates_the_inducers_it_names(servicer: DrugService) -> None:
    for inducer in ("rifampicin", "carbamazepine", "phenobarbital", "St John's wort", "rifabutin"):
        [found] = servicer._interactions(["voriconazole", inducer]).interactions
        assert found.severity == CONTRAINDICATED and "VFEND" in found.source
    # Phenytoin is not among them: the label raises the voriconazole dose instead.
    [found] = servicer._interactions(["voriconazole", "phenytoin"]).interactions
    assert found.severity == MAJOR


def test_the_nimotop_label_contraindicates_the_inducers_it_names(servicer: DrugService) -> None:
    for inducer in ("rifampicin", "phenobarbital", "phenytoin", "carbamazepine"):
        [found] = servicer._interactions(["Nimotop", inducer]).interactions
        assert found.severity == CONTRAINDICATED and "NIMOTOP" in found.source
    # St John's wort is a strong inducer the label does not name: the class rule's major stands.
    [found] = servicer._interactions(["nimodipine", "St John's wort"]).interactions
    assert found.severity == MAJOR


def test_pair_rules_stop_at_the_pair_their_label_names(servicer: DrugService) -> None:
    # The Lescol label caps the dose with fluconazole only; CredibleMeds' class-wide azole-statin row
    # is not a label's statement about pravastatin or rosuvastatin.
    for azole, statin in (("itraconazole", "fluvastatin"), ("ketoconazole", "pravastatin"),
                          ("voriconazole", "rosuvastatin")):
        assert all(i.severity < MAJOR for i in servicer._interactions([azole, statin]).interactions)


@pytest.mark.parametrize(("rule", "named"), [
    ({"drug_a": "no such drug"}, "unknown drug"),
    ({"source": "no_such_source"}, "unknown source"),
    ({"drug_a": "warfarin", "drug_b": "ibuprofen"}, "listed twice"),  # drugs.json's own pair
])
def test_a_bad_pair_rule_in_the_classes_file_is_rejected(tmp_path: Path, rule: dict, named: str) -> None:
    data = json.loads(DEFAULT_CLASSES.read_text(encoding="utf-8"))
    data["pair_rules"].append({**data["pair_rules"][0], **rule})
    path = tmp_path / "drug_classes.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ValueError, match=named):
        load(sqlite3.connect(":memory:"), classes_path=path)


def test_nelfinavir_is_limited_by_ppis_not_h2_blockers(servicer: DrugService) -> None:
    # Its label advises against omeprazole but sets no H2-receptor antagonist limit (atazanavir's does).
    found = servicer._interactions(["nelfinavir", "famotidine"]).interactions
    assert all(i.severity < MAJOR for i in found)
