"""The answer audit: rules R1 to R4 over one answer and its evidence, in rule order. A model's
text is also read against what it rephrases or summarizes (verifier.rephrasing)."""

import unicodedata

from healthmesh.v1 import verifier_pb2
from verifier.faithful import unfaithful
from verifier.privacy import privacy_leaks
from verifier.rephrasing import unfaithful_rephrasing, ungrounded_summary
from verifier.scope import out_of_scope
from verifier.treatment import unsupported_treatment


def verify(request: verifier_pb2.VerifyAnswerRequest) -> verifier_pb2.VerifyAnswerResponse:
    """Deterministic verdict: the same request always gives the same violations."""
    # Composed form, so "não" typed as "na" + combining tilde reads like "não".
    answer, evidence = unicodedata.normalize("NFC", request.answer), request.evidence
    findings = [
        (verifier_pb2.RULE_R1_UNSUPPORTED_TREATMENT, unsupported_treatment(answer, list(evidence.facts))),
        (verifier_pb2.RULE_R2_PRIVACY, privacy_leaks(answer, evidence, request.current_patient)),
        (verifier_pb2.RULE_R3_OUT_OF_SCOPE, out_of_scope(answer)),
        (verifier_pb2.RULE_R4_UNFAITHFUL,
         unfaithful(answer, evidence, request.user_query) + _model_text(request)),
    ]
    violations = [verifier_pb2.Violation(rule=rule, note=note) for rule, notes in findings for note in notes]
    return verifier_pb2.VerifyAnswerResponse(safe=not violations, violations=violations)


def _model_text(request: verifier_pb2.VerifyAnswerRequest) -> list[str]:
    answer = unicodedata.normalize("NFC", request.answer)
    if request.origin == verifier_pb2.ANSWER_ORIGIN_REPHRASING:
        reference = unicodedata.normalize("NFC", request.reference_answer)
        return unfaithful_rephrasing(answer, reference, request.evidence, request.language)
    if request.origin == verifier_pb2.ANSWER_ORIGIN_SUMMARY:
        return ungrounded_summary(answer, request.evidence.facts, request.user_query, request.language)
    return []
