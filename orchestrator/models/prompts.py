"""Chat prompts for the models: short and literal, because the local SmolLM2-135M is tiny.

The instructions are in English and name the answer's language; the model only phrases: every
fact comes from the caller, and the verifier checks whatever comes back.
"""

_LANGUAGES = {"pt": "Portuguese", "en": "English"}

_REPHRASE = ("Rewrite the given answer in natural, friendly {language}. "
             "Keep every doctor, date, time, clinic and id exactly as written. "
             "Add nothing. Give no medical advice.")

_SUMMARY = ("Answer the question in {language}, in 2 or 3 sentences, using only the passages given. "
            "Copy every number exactly as written. Add nothing that the passages do not say. "
            "Do not diagnose. Do not give doses or treatment advice.")


def _language(code: str) -> str:
    try:
        return _LANGUAGES[code]
    except KeyError:
        raise ValueError(f"unsupported language {code!r}; expected one of {sorted(_LANGUAGES)}") from None


def rephrase_messages(answer: str, language: str) -> list[dict]:
    """Messages asking a model to rephrase the deterministic `answer` in `language` ("pt" or "en")."""
    return [
        {"role": "system", "content": _REPHRASE.format(language=_language(language))},
        {"role": "user", "content": answer},
    ]


def summary_messages(question: str, passages: list[str], language: str) -> list[dict]:
    """Messages asking for a short answer to `question` from guideline `passages` only; the
    caller appends the sources and the disclaimer."""
    numbered = "\n".join(f"[{i}] {p}" for i, p in enumerate(passages, 1))
    return [
        {"role": "system", "content": _SUMMARY.format(language=_language(language))},
        {"role": "user", "content": f"Passages:\n{numbered}\n\nQuestion: {question}"},
    ]
