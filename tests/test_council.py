"""The specialist council: the consensus judge's exact rules, convening agents in parallel (failures and
timeouts left out), and the rule-based agents reaching the right specialty and urgency on clear cases."""

import asyncio
import time

import pytest

from orchestrator.consult.council import (
    Case,
    Consensus,
    GeneralPracticeAgent,
    Proposal,
    SpecialistAgent,
    convene,
    default_agents,
    judge,
)
from orchestrator.consult.history import extract
from orchestrator.context import RequestContext
from runtime.specialties import SPECIALTIES

GP = "general_practice"


def vote(specialty: str, urgency: int = 2, confidence: float = 0.9, agent: str = "cardiology") -> Proposal:
    return Proposal(agent=agent, specialty=specialty, urgency=urgency, confidence=confidence,
                    rationale="test")


# --- the judge ---------------------------------------------------------------------------------------------


def test_plurality_wins() -> None:
    verdict = judge([vote("dermatology"), vote("dermatology"), vote("orthopedics"), vote(GP)])
    assert (verdict.specialty, verdict.low_confidence) == ("dermatology", False)


def test_a_tie_for_the_most_votes_goes_to_general_practice() -> None:
    verdict = judge([vote("dermatology"), vote("dermatology"), vote("orthopedics"), vote("orthopedics")])
    assert verdict.specialty == GP
    assert verdict.low_confidence is False  # the tie, not the confidence, decided


def test_urgency_is_the_confidence_weighted_mean_rounded_half_up() -> None:
    # (2·0.6 + 4·0.2) / 0.8 = 2.5 exactly: rounds up to 3 (Python's round() would give 2).
    assert judge([vote("cardiology", 2, 0.6), vote("cardiology", 4, 0.2)]).urgency == 3
    # (1·0.9 + 4·0.3) / 1.2 = 1.75 -> 2; the plain mean would be 2.5 -> 3.
    assert judge([vote("cardiology", 1, 0.9), vote("cardiology", 4, 0.3)]).urgency == 2
    # (2·0.8 + 3·0.7) / 1.5 = 2.47 -> 2.
    assert judge([vote("cardiology", 2, 0.8), vote("cardiology", 3, 0.7)]).urgency == 2


def test_urgency_is_the_plain_mean_when_every_confidence_is_zero() -> None:
    verdict = judge([vote("cardiology", 1, 0.0), vote("cardiology", 4, 0.0)])
    assert verdict.urgency == 3  # 2.5 rounded half up
    assert verdict.confidence == 0.0


def test_urgency_is_clamped_to_one_to_four() -> None:
    assert judge([vote("cardiology", 7)]).urgency == 4
    assert judge([vote("cardiology", 0)]).urgency == 1


def test_mean_confidence_below_070_means_general_practice() -> None:
    verdict = judge([vote("orthopedics", confidence=0.8), vote("orthopedics", confidence=0.55),
                     vote("orthopedics", confidence=0.7)])
    assert verdict.confidence == pytest.approx(0.6833, abs=1e-4)
    assert (verdict.specialty, verdict.low_confidence) == (GP, True)


def test_mean_confidence_of_exactly_070_is_not_low() -> None:
    verdict = judge([vote("orthopedics", confidence=0.6), vote("orthopedics", confidence=0.8)])
    assert (verdict.specialty, verdict.low_confidence) == ("orthopedics", False)


def test_no_proposals() -> None:
    assert judge([]) == Consensus(GP, 2, 0.0, True, ())


def test_the_consensus_keeps_every_proposal_in_order() -> None:
    proposals = [vote("cardiology", agent="cardiology"), vote(GP, agent=GP)]
    assert judge(proposals).proposals == tuple(proposals)


# --- convening -------------------------------------------------------------------------------------------


class Sleeper:
    """Sleeps, records when it ran, and proposes; or raises when told to."""

    def __init__(self, name: str, seconds: float, fail: bool = False) -> None:
        self.name, self.seconds, self.fail = name, seconds, fail
        self.started = self.ended = 0.0

    def assess(self, case: Case) -> Proposal:
        self.started = time.monotonic()
        time.sleep(self.seconds)
        self.ended = time.monotonic()
        if self.fail:
            raise RuntimeError("agent broke")
        return vote(GP, agent=self.name)


CASE = Case("I have a rash", extract("I have a rash"))


def turn(seconds: float = 30.0) -> RequestContext:
    return RequestContext.with_timeout(seconds)


def test_agents_run_concurrently() -> None:
    first, second = Sleeper("cardiology", 0.2), Sleeper("dermatology", 0.2)
    proposals = asyncio.run(convene(turn(), [first, second], CASE))
    assert [p.agent for p in proposals] == ["cardiology", "dermatology"]
    assert second.started < first.ended and first.started < second.ended  # they overlapped


def test_concurrency_bounds_how_many_run_at_once() -> None:
    first, second = Sleeper("cardiology", 0.1), Sleeper("dermatology", 0.1)
    asyncio.run(convene(turn(), [first, second], CASE, concurrency=1))
    assert second.started >= first.ended or first.started >= second.ended


def test_proposals_come_back_in_agent_order_not_finishing_order() -> None:
    slow, fast = Sleeper("orthopedics", 0.15), Sleeper("cardiology", 0.0)
    proposals = asyncio.run(convene(turn(), [slow, fast], CASE))
    assert fast.ended < slow.ended
    assert [p.agent for p in proposals] == ["orthopedics", "cardiology"]


def test_a_failing_agent_is_left_out() -> None:
    agents = [Sleeper("cardiology", 0.0), Sleeper("dermatology", 0.0, fail=True), Sleeper(GP, 0.0)]
    assert [p.agent for p in asyncio.run(convene(turn(), agents, CASE))] == ["cardiology", GP]


def test_an_agent_over_the_timeout_is_left_out() -> None:
    agents = [Sleeper("cardiology", 0.0), Sleeper("orthopedics", 0.3)]
    # asyncio.run waits for the abandoned worker thread before returning, so nothing outlives the test.
    proposals = asyncio.run(convene(turn(), agents, CASE, timeout_s=0.05))
    assert [p.agent for p in proposals] == ["cardiology"]


def test_no_agent_runs_past_the_turns_deadline() -> None:
    agents = [Sleeper("cardiology", 0.0), Sleeper("orthopedics", 0.3)]
    proposals = asyncio.run(convene(turn(0.1), agents, CASE, timeout_s=5.0))
    assert [p.agent for p in proposals] == ["cardiology"]


def test_every_agent_failing_gives_an_empty_council() -> None:
    agents = [Sleeper("cardiology", 0.0, fail=True)]
    assert judge(asyncio.run(convene(turn(), agents, CASE))) == Consensus(GP, 2, 0.0, True, ())


def test_default_agents_one_per_offered_specialty_then_general_practice() -> None:
    names = [a.name for a in default_agents(["orthopedics", "neurology", "cardiology"])]
    assert names == ["cardiology", "orthopedics", GP]
    assert [a.name for a in default_agents(SPECIALTIES)] == [*SPECIALTIES, GP]


# --- the agents on cases ---------------------------------------------------------------------------------


def council(text: str, offered: tuple[str, ...] = SPECIALTIES) -> Consensus:
    case = Case(text, extract(text))
    return judge(asyncio.run(convene(turn(), default_agents(offered), case)))


CLEAR = {
    "dermatology": [
        "I've had an itchy rash on my left forearm for two weeks, worse at night",
        "Tenho uma mancha vermelha na pele do braço que coça muito há 10 dias",
        "a mole on my back has changed colour and bleeds sometimes",
        "minha pinta nas costas cresceu e está sangrando",
        "I get acne on my face and back, it's been years, mild",
        "estou com muitas espinhas no rosto há meses",
        "My scalp is flaky and itchy, dandruff everywhere for a month",
        "pele seca e descamando nas mãos, com coceira, piora no frio",
        "I have hives all over my body since yesterday, very itchy",
        "apareceram bolhas e manchas vermelhas na perna, coçando",
        "my hair is falling out in patches, bald spot on my scalp",
        "tenho uma verruga no dedo que não sai há 3 meses",
        "psoríase: placas descamando no couro cabeludo e cotovelos",
        "olá, tenho uma ferida na perna que não cicatriza há 2 meses",
    ],
    "orthopedics": [
        "estou com dor no joelho direito há 3 dias, piora ao subir escada",
        "I twisted my ankle playing football yesterday and it's swollen, hurts when I walk",
        "lower back pain for a week after lifting heavy boxes, 6/10",
        "dor nas costas, na região lombar, que irradia para a perna",
        "my shoulder hurts when I lift my arm, stiff in the morning",
        "torci o tornozelo jogando vôlei, está inchado e dói",
        "I fell off my bike and my wrist hurts a lot, 7/10",
        "dor no quadril ao caminhar há 2 meses",
        "my knees are stiff and ache, worse on stairs, for years",
        "caí da escada e não consigo pisar com o pé direito",
        "neck pain and stiffness since I woke up, hurts to turn my head",
        "dor no cotovelo depois de jogar tênis",
        "My back has been killing me since I moved furniture on Saturday",
        "bati o joelho no futebol e está inchado",
    ],
    "cardiology": [
        "I get palpitations, my heart races for a few minutes, comes and goes",
        "sinto palpitações e o coração disparado à noite",
        "I get short of breath when I climb stairs and my ankles are swollen",
        "falta de ar ao esforço e pernas inchadas há duas semanas",
        "chest tightness when I walk uphill, goes away with rest",
        "aperto no peito quando subo escada, melhora com repouso",
        "my blood pressure readings have been around 160/100 this week",
        "minha pressão está alta, deu 15 por 10 ontem",
        "my heart skips beats and I feel dizzy sometimes",
        "batedeira no coração e tontura, às vezes",
        "I wake up at night short of breath and need extra pillows",
        "my heart feels like it's fluttering and skipping, mostly at night",
        "fico sem fôlego ao subir escadas e meus tornozelos estão inchados",
    ],
}


@pytest.mark.parametrize(("specialty", "text"),
                         [(specialty, text) for specialty, texts in CLEAR.items() for text in texts])
def test_clear_cases_reach_their_specialty(specialty: str, text: str) -> None:
    verdict = council(text)
    assert verdict.specialty == specialty
    assert not verdict.low_confidence
    assert verdict.confidence >= 0.70


@pytest.mark.parametrize("text", [
    "I don't feel well",
    "não estou me sentindo bem",
    "I have pain",
    "my knee hurts, I have a rash on my chest and palpitations",  # three systems
    "I have a fever and feel tired, with a cough",  # systemic
    "estou com febre, dor no corpo e tosse há 2 dias",
])
def test_vague_spread_or_systemic_complaints_go_to_general_practice(text: str) -> None:
    assert council(text).specialty == GP


def test_vague_complaints_are_low_confidence() -> None:
    for text in ("I don't feel well", "my knee hurts, I have a rash on my chest and palpitations"):
        verdict = council(text)
        assert verdict.low_confidence and verdict.confidence < 0.70


def test_a_specialty_not_offered_is_never_voted_for() -> None:
    verdict = council("I get palpitations, my heart races for a few minutes", offered=("dermatology",))
    assert all(p.specialty in ("dermatology", GP) for p in verdict.proposals)
    assert verdict.specialty == GP


def test_a_specialist_refers_with_less_confidence_than_the_owner() -> None:
    text = "itchy red rash on my arm for two weeks"
    case = Case(text, extract(text))
    own = SpecialistAgent("dermatology", SPECIALTIES).assess(case)
    referral = SpecialistAgent("cardiology", SPECIALTIES).assess(case)
    assert own.specialty == referral.specialty == "dermatology"
    assert referral.confidence < own.confidence


def test_general_practice_votes_a_specialty_only_when_it_dominates() -> None:
    def gp(text: str) -> str:
        return GeneralPracticeAgent(SPECIALTIES).assess(Case(text, extract(text))).specialty

    assert gp("I twisted my ankle and it's swollen, hurts when I walk") == "orthopedics"
    assert gp("knee pain and an itchy rash") == GP


def test_negated_cues_do_not_count() -> None:
    verdict = council("I have an itchy rash on my arm, no fever, no chest pain, no palpitations")
    assert verdict.specialty == "dermatology"
    assert all("fever" not in p.rationale and "chest pain" not in p.rationale for p in verdict.proposals)


@pytest.mark.parametrize(("text", "urgency"), [
    ("crushing chest pain spreading to my left arm and I'm sweating", 4),
    ("dor no peito que vai para o braço esquerdo, suando frio", 4),
    ("a mole on my back has changed colour and bleeds", 3),
    ("I get short of breath and my ankles are swollen", 3),
    ("caí e não consigo pisar com o pé direito", 3),
    ("fever and a red hot swollen area on my leg that's spreading", 3),
    ("febre e uma área vermelha e quente na perna, espalhando", 3),
    ("knee pain 9/10 since this morning", 3),
    ("dor forte no joelho", 3),  # "forte" is severity 8
    ("my blood pressure was 190/125 this morning", 3),
    ("chest tightness when I walk uphill", 3),
    ("the rash is spreading fast", 3),
    ("itchy rash on my arm for a week", 2),
    ("my knee hurts when I run, 5/10, for 3 days", 2),
    ("I've had acne on my face for years, mild", 1),
    ("tenho uma verruga no dedo há 3 meses", 1),
    ("my knees ache a bit on stairs, 3/10, for 3 weeks", 1),
    ("ferida na perna que não cicatriza há 3 meses", 2),  # long-standing, but a warning sign
])
def test_urgency(text: str, urgency: int) -> None:
    assert council(text).urgency == urgency


def test_rationales_name_cues_not_the_patients_words() -> None:
    text = ("Sou a Joaquina Bezerra, CPF 529.982.247-25, tenho coceira e manchas vermelhas no braço "
            "há 2 semanas")
    verdict = council(text)
    assert verdict.specialty == "dermatology"
    for proposal in verdict.proposals:
        assert "itch" in proposal.rationale and "spots" in proposal.rationale
        for word in ("Joaquina", "Bezerra", "529", "coceira", "manchas", "braço"):
            assert word not in proposal.rationale


def test_the_same_case_gives_the_same_verdict() -> None:
    text = "dor no joelho direito há 3 dias, piora ao subir escada"
    assert council(text) == council(text)
