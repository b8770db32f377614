"""Reading tool questions: which tool, with which arguments, and what is missing (asked back,
never guessed)."""

import pytest

from healthmesh.v1 import tools_pb2
from orchestrator.planning.steps import Action
from orchestrator.toolquestions.requests import read


def calls(message: str) -> list[tuple[str, object]]:
    return [(c.action.value, c.request) for c in read(message).calls]


@pytest.mark.parametrize("message, names", [
    ("is warfarin safe with ibuprofen?", ["warfarin", "ibuprofen"]),
    ("Can I take Marevan with aspirin?", ["marevan", "aspirin"]),
    ("quais as interações entre varfarina e ibuprofeno?", ["varfarina", "ibuprofeno"]),
    ("posso tomar dipirona com losartana?", ["dipirona", "losartana"]),
    ("interactions between warfarin, amiodarone and simvastatin", ["warfarin", "amiodarone", "simvastatin"]),
])
def test_interaction_questions_name_every_drug(message, names):
    assert calls(message) == [("check_interactions", tools_pb2.CheckInteractionsRequest(drug_names=names))]


@pytest.mark.parametrize("message, name", [
    ("boxed warning for amiodarone", "amiodarone"),
    ("what are the contraindications of isotretinoin?", "isotretinoin"),
    ("is methotrexate safe?", "methotrexate"),
    ("contraindicações da isotretinoína", "isotretinoina"),
])
def test_safety_questions(message, name):
    assert calls(message) == [("check_drug_safety", tools_pb2.CheckDrugSafetyRequest(drug_name=name))]


def test_guideline_question_keeps_the_topic():
    [(action, request)] = calls("What do guidelines say about anticoagulation in AF?")
    assert action == "search_guidelines" and request.query == "anticoagulation in AF"  # as written
    [(_, pt)] = calls("o que as diretrizes dizem sobre dor lombar?")
    assert pt.query == "dor lombar"


@pytest.mark.parametrize("message, query", [
    ("what does NICE say about knee osteoarthritis?", "knee osteoarthritis"),
    ("what does the USPSTF recommend about colorectal cancer screening?", "colorectal cancer screening"),
    ("guidlines on atrial fibrilation", "atrial fibrilation"),
    ("recommended treatment for psoriasis per the guidelines", "recommended treatment for psoriasis"),
    ("what do the ACC guidelines recommend for statins", "statins"),
    ("what does the NICE 2023 guideline say on low back pain?", "low back pain"),
    ("o que a SBC recomenda pra hipertensão?", "hipertensão"),
    ("o que o guideline do ESC diz sobre fibrilação atrial", "fibrilação atrial"),
    ("qual a recomendação das diretrizes para tratar acne?", "tratar acne"),
    ("tem diretriz pra gota?", "gota"),
    ("current recommendations for knee osteoarthritis", "knee osteoarthritis"),
    ("diretrizes atuais sobre dermatite atópica", "dermatite atópica"),
])
def test_guidelines_asked_of_their_authors_or_misspelled(message, query):
    [(action, request)] = calls(message)
    assert action == "search_guidelines" and request.query == query


@pytest.mark.parametrize("message, topic", [
    ("does atorvastatin cause muscle pain?", "side_effects"),
    ("a sinvastatina dá dor muscular?", "side_effects"),
    ("can doxycycline make me sick?", "side_effects"),
    ("a metformina dá pra tomar em jejum?", ""),
    ("contraindicações da varfarina", ""),
    ("reações da sinvastatina", "side_effects"),
    ("any reactions to ibuprofen?", "side_effects"),
])
def test_what_a_drug_causes_is_a_side_effects_question(message, topic):
    [call] = read(message).calls
    assert call.action == Action.CHECK_DRUG_SAFETY and call.topic == topic


def test_two_questions_in_one_message_are_two_calls_in_order():
    task = read("Is warfarin safe with ibuprofen, and what do guidelines say about anticoagulation in AF?")
    assert [c.action for c in task.calls] == [Action.CHECK_INTERACTIONS, Action.SEARCH_GUIDELINES]


def test_cha2ds2_vasc_arguments_with_negation():
    task = read("CHA2DS2-VASc for a 72-year-old woman with hypertension, no diabetes, prior stroke")
    inputs = task.calls[0].request.cha2ds2_vasc
    assert (inputs.age, inputs.sex) == (72, tools_pb2.SEX_FEMALE)
    assert inputs.hypertension and inputs.stroke_tia_thromboembolism
    assert not inputs.diabetes and not inputs.congestive_heart_failure


@pytest.mark.parametrize("message", [
    "my mother is seventy-five, has hypertension and AF, what is her stroke risk score?",
    "escore de risco de AVC: mulher de 75 anos, hipertensa, com fibrilação atrial",
])
def test_a_stroke_risk_score_in_lay_words_is_cha2ds2_vasc_without_a_prior_stroke(message):
    task = read(message)
    inputs = task.calls[0].request.cha2ds2_vasc
    assert task.score == "cha2ds2_vasc" and (inputs.age, inputs.sex) == (75, tools_pb2.SEX_FEMALE)
    assert inputs.hypertension and not inputs.stroke_tia_thromboembolism  # the score's name is no history


def test_heart_score_reads_each_component():
    task = read("HEART score: 58-year-old man, highly suspicious history, ST depression on the ECG, "
                "troponin 2x the limit, hypertension, diabetes and smoker")
    h = task.calls[0].request.heart
    assert h.history == tools_pb2.HEART_HISTORY_HIGHLY_SUSPICIOUS
    assert h.ecg == tools_pb2.HEART_ECG_SIGNIFICANT_ST_DEVIATION
    assert h.troponin == tools_pb2.HEART_TROPONIN_ONE_TO_THREE_TIMES
    assert (h.age, h.risk_factor_count) == (58, 3)


def test_missing_score_inputs_are_asked_not_guessed():
    task = read("HEART score for my patient, 61 years old")
    assert task.calls == [] and task.score == "heart"
    assert task.missing == ["heart.history", "heart.ecg", "heart.troponin"]
    assert read("CURB-65 please").missing == ["curb65.urea_mmol_per_l", "curb65.respiratory_rate",
                                              "curb65.blood_pressure", "curb65.age"]


def test_curb65_and_qsofa_numbers():
    curb = read("CURB-65: 70 year old, confused, urea 8.5, RR 32, BP 85/50").calls[0].request.curb65
    assert (curb.confusion, curb.urea_mmol_per_l, curb.respiratory_rate) == (True, 8.5, 32)
    assert (curb.systolic_bp, curb.diastolic_bp, curb.age) == (85, 50, 70)
    qsofa = read("qSOFA with RR 24 and SBP 95, alert").calls[0].request.qsofa
    assert (qsofa.respiratory_rate, qsofa.systolic_bp, qsofa.altered_mentation) == (24, 95, False)


@pytest.mark.parametrize("message", [
    "quais os horários de cardiologia?", "I've had a rash on my arm for two weeks", "cancel my appointment",
    "hello", "is it safe to book on Friday?", "it is red and scaly and worse at night",
    "the pain is sharp and worse with exercise",
])
def test_other_messages_ask_no_tool(message):
    assert not read(message)


@pytest.mark.parametrize("message", [
    "what do cardiologists recommend after a heart attack",
    "o que os médicos recomendam pra quem tem pressão alta",
    "is a colonoscopy recommended at 45?",
    "meta de colesterol recomendada pela SBC",
    "KDIGO on blood pressure in kidney disease",
    "GOLD 2024 inhaler choice for COPD",
    "o ministerio da saude recomenda vacina de gripe pra idosos?",
    "protocolo de dor toracica no pronto socorro",
    "consenso brasileiro sobre psoriase",
    "when should women start mammogram screening",
    "does the WHO advise against sugary drinks",
    "nice guidance on knee osteoarthritis",
    "ESC: aspirin in primary prevention?",
    "as diretrizes indicam anticoagular com chads-vasc 1?",
])
def test_any_guideline_cue_with_a_clinical_topic_is_a_guideline_question(message):
    assert [c.action for c in read(message).calls] == [Action.SEARCH_GUIDELINES]


@pytest.mark.parametrize("message", [
    "what is atrial fibrillation?", "have a nice day", "Who is at risk for gout?", "recommend a good movie",
    "which guideline is that answer based on?", "marcar rastreamento de cancer de pele com dermatologista",
    "gold earrings gave me a rash",
])
def test_plain_questions_and_other_tasks_are_no_guideline_question(message):
    assert Action.SEARCH_GUIDELINES not in [c.action for c in read(message).calls]


@pytest.mark.parametrize("message, topic", [
    ("sertralina engorda?", "side_effects"),
    ("quais os efeitos da amiodarona", "side_effects"),
    ("does prednisone cause weight gain", "side_effects"),
])
def test_what_a_drug_does_to_the_body_is_a_side_effects_question(message, topic):
    assert [c.topic for c in read(message).calls] == [topic]


@pytest.mark.parametrize("message", [
    "minha mae toma xarelto e quer usar ibuprofeno, pode?",
    "on warfarin and want some advil ok?",
])
def test_two_drugs_with_a_question_tag_are_an_interaction_question(message):
    assert [c.action for c in read(message).calls] == [Action.CHECK_INTERACTIONS]


def test_a_common_word_typed_without_accents_is_no_misspelled_drug():
    assert not read("o que e pressao alta?")


@pytest.mark.parametrize("message, topic", [
    ("anlodipino incha o pé?", "side_effects"), ("lisinopril cough?", "side_effects"),
    ("o omeprazol faz mal?", "side_effects"),
    # Harm to an organ is whether it is safe for it; a symptom as the purpose is no side effect.
    ("tylenol faz mal pro figado?", ""), ("ibuprofeno e bom pra dor de cabeca?", ""),
])
def test_a_symptom_after_the_drug_is_a_side_effect_an_organ_harmed_is_safety(message, topic):
    assert [c.topic for c in read(message).calls] == [topic]


@pytest.mark.parametrize("message, action", [
    ("clopidogrel e omeprazol interagem", Action.CHECK_INTERACTIONS),
    ("xarelto e aspirina interferem?", Action.CHECK_INTERACTIONS),
    ("o xarelto tem alguma advertencia importante", Action.CHECK_DRUG_SAFETY),
])
def test_drug_questions_without_a_question_mark(message, action):
    assert [c.action for c in read(message).calls] == [action]


@pytest.mark.parametrize("message", [
    "ottawa ankle rules", "regra de ottawa para tornozelo", "qual a conduta recomendada pra acne pela AAD",
    "diretriz de asma",
])
def test_decision_rules_and_four_letter_topics_are_guideline_questions(message):
    assert [c.action for c in read(message).calls] == [Action.SEARCH_GUIDELINES]


def test_a_persons_noun_then_a_number_is_the_age():
    assert [c.value for c in read("heart score pra um homem de 55").readings if c.name == "age"] == ["55"]


@pytest.mark.parametrize("message", [
    "side fx of metformin", "efeitos indesejados da sinvastatina", "unwanted effects of doxycycline?",
    # What a drug does to an organ, said with a verb, is a side effect ("faz mal pro fígado" stays safety).
    "can terbinafine hurt your liver", "a amiodarona pode prejudicar a tireoide?",
])
def test_side_effects_in_chat_words_and_harm_done_by_a_verb(message):
    assert [c.topic for c in read(message).calls] == ["side_effects"]


@pytest.mark.parametrize("message", [
    "da pra usar viagra com nitroglicerina", "rola tomar ibuprofeno com losartana",
    "im on lipitor can i take clarithromycin for my chest infection",
    "i'm taking warfarin, can i have aspirin",
])
def test_two_drugs_asked_casually_or_mid_sentence_are_an_interaction_question(message):
    assert [c.action for c in read(message).calls] == [Action.CHECK_INTERACTIONS]


def test_a_misspelling_clearly_closest_to_one_drug_is_that_drug():
    calls = read("reacoes adversas da predinisona").calls
    assert [c.request.drug_name for c in calls] == ["prednisona"]


def test_quick_sofa_spelled_out_is_qsofa():
    assert read("calculate quick sofa").score == "qsofa"


@pytest.mark.parametrize("message", [
    "essa informação saiu de qual diretriz?", "which guideline did you follow?", "qual diretriz vc usou?",
    "de onde veio esse dado, which guideline?", "which guideline says that?", "qual diretriz diz isso",
])
def test_where_the_answer_came_from_is_no_guideline_question(message):
    assert not read(message)


@pytest.mark.parametrize("message", [
    "fluoxetina tira o sono?", "can digoxin mess with my vision", "will meloxicam upset my stomach",
    "o metoprolol deixa a pessoa cansada", "can norvasc make my ankles puffy",
    "a furosemida baixa o potassio?", "what does escitalopram do to your sleep",
    "vc sabe se a losartana da tosse", "will prednisone keep me up",
    "any downsides to taking atorvastatin", "cant sleep since starting sertraline, is that from it?",
    "is it normal that metoprolol makes me tired", "lasix faz urinar muito?",
])
def test_an_effect_on_a_body_function_is_a_side_effects_question(message):
    [call] = read(message).calls
    assert call.action == Action.CHECK_DRUG_SAFETY and call.topic == "side_effects"


@pytest.mark.parametrize("message", [
    "amamentando posso usar dipirona?", "is ibuprofen bad for the kidneys", "gravida pode tomar paracetamol?",
    "amamentando posso usar fluoxetina", "gravida pode tomar paracetamol",
])
def test_safety_for_a_condition_or_an_organ_is_no_side_effects_question(message):
    [call] = read(message).calls
    assert call.action == Action.CHECK_DRUG_SAFETY and call.topic == ""


@pytest.mark.parametrize("message", [
    "da problema tomar losartana com ibuprofeno?", "da problema tomar omeprazol com clopidogrel",
    "tem problema tomar sertralina e tramadol", "any issue taking clopidogrel with omeprazole",
])
def test_trouble_taking_two_drugs_together_is_an_interaction_question(message):
    assert [c.action for c in read(message).calls] == [Action.CHECK_INTERACTIONS]


@pytest.mark.parametrize("message", [
    "what's your source for that recommendation", "which guideline is that recommendation based on",
])
def test_a_sources_follow_up_naming_a_recommendation_asks_no_guideline(message):
    assert read(message).calls == []


@pytest.mark.parametrize("message, age", [
    ("chads vasc do meu avo de 70, ja teve AVC", "70"), ("curb-65 for my grandpa hes 79, BUN high", "79"),
    ("cha2ds2-vasc, male 71, prior stroke", "71"), ("heart score for my mom shes 61", "61"),
])
def test_an_age_after_a_person_or_he_s_is_read(message, age):
    assert [c.value for c in read(message).readings if c.name == "age"] == [age]


@pytest.mark.parametrize("message", [
    "qual a meta de LDL segundo a sociedade brasileira de cardiologia",
    "what does the preventive services task force say about mammograms",
    "european society of cardiology advice on statins", "american college of physicians on back pain",
])
def test_guideline_bodies_named_in_full_ask_guidelines(message):
    assert [action for action, _ in calls(message)] == ["search_guidelines"]


@pytest.mark.parametrize("message", ["calcular heart, paciente 60 anos", "compute the HEART for my dad, 70",
                                     "calcula o heart dele"])
def test_a_verb_of_computing_makes_heart_the_score(message):
    assert read(message).score == "heart"


def test_heart_the_organ_is_no_score():
    assert not read("what does the heart do").score


@pytest.mark.parametrize("message", [
    "risks that come with using warfarin", "what are the risks involved in taking ibuprofen",
    "quais os riscos em tomar metformina",
])
def test_the_risks_of_being_on_a_drug_are_its_side_effects(message):
    assert [c.topic for c in read(message).calls] == ["side_effects"]


@pytest.mark.parametrize("message", [
    "who should get screened for colon cancer", "quem deve ser rastreado para diabetes",
])
def test_who_is_to_be_screened_is_a_guideline_question(message):
    assert [c.action for c in read(message).calls] == [Action.SEARCH_GUIDELINES]


@pytest.mark.parametrize("message", [
    "what is the curb-65 used for", "para que serve o chads-vasc?", "como funciona o escore heart",
    "what does the qsofa measure",
])
def test_what_a_score_is_for_asked_of_no_patient_computes_nothing(message):
    task = read(message)
    assert (task.score, task.calls, task.missing) == ("", [], [])


def test_a_score_asked_for_a_patient_still_computes_or_asks() -> None:
    assert read("what is the curb-65 for my dad, 80, confused").score == "curb65"
    assert read("what is my heart score").missing


@pytest.mark.parametrize("message", [
    "what's the risk of a stroke for my grandma, 80, she has atrial fibrillation",
    "meu pai tem fibrilacao atrial e 70 anos, qual a chance de ter avc?",
])
def test_the_stroke_risk_of_someone_with_af_is_the_cha2ds2_vasc(message):
    assert read(message).score == "cha2ds2_vasc"


@pytest.mark.parametrize("message", ["a cardiologista receitou atorvastatina, quais os efeitos colaterais?",
                                     "i got prescribed metformin, what side effects does it have?"])
def test_a_drug_the_doctor_prescribed_is_asked_about_not_dosed(message):
    assert [c.topic for c in read(message).calls] == ["side_effects"]


@pytest.mark.parametrize("message", ["me receita amoxicilina",
                                     "can you write me a prescription for ibuprofen"])
def test_asking_for_a_prescription_asks_no_tool(message):
    assert not read(message)


@pytest.mark.parametrize("message", ["tomo xarelto, dipirona pode ou nao", "uso varfarina, aspirina da ruim",
                                     "on eliquis, advil ok or bad idea"])
def test_either_or_tags_make_an_interaction_question(message):
    assert [c.action for c in read(message).calls] == [Action.CHECK_INTERACTIONS]


def test_a_bare_pair_of_drugs_asks_their_interaction():
    assert [c.action for c in read("varfarina e ibuprofeno").calls] == [Action.CHECK_INTERACTIONS]


def test_a_question_word_at_the_end_asks_about_the_drug():
    assert [c.topic for c in read("metformina da o que").calls] == ["side_effects"]


@pytest.mark.parametrize(("message", "age"), [("chads2vasc for a woman in her 70s, 73 to be precise", 73),
                                              ("cha2ds2-vasc do meu vô, 84, hipertenso", 84)])
def test_an_age_refined_from_a_decade_or_after_a_grandparent(message, age):
    assert [c.value for c in read(message).readings if c.name == "age"] == [str(age)]


def test_defining_a_guideline_is_no_guideline_search():
    assert not read("what is a medical protocol")
