"""Where what was just said came from, asked in any order of its three parts: a question of origin or
basis ("where", "de onde", "em qual documento", "qual a base", "what … base … on"), a verb of getting,
finding, coming, basing or writing ("got", "achou", "veio", "base", "escrito"), and what was said
referred back to ("that", "isso", "essa resposta", "o que vc falou"); or a source named with who used it
("the guideline you used"). A question about where to find something new ("where can I get a flu shot")
refers back to nothing and is no such question. Patterns match folded, typo-corrected text."""

import re

_ASKING = re.compile(
    r"(?<!\w)(?:where|where'd|wher|onde|what|which|qual|quais|em\s+que|de\s+que|baseado\s+em\s+que"
    r"|based\s+on\s+what)(?!\w)")
_GETTING = re.compile(
    r"(?<!\w)(?:(?:you|u|ya|voce|tu)\s+(?:get|find|read|see|take|hear)|got|found|came|(?:come|comes|coming)\s+from"
    r"|learn(?:ed|t)|took|base[ds]?|basis|basing|written|wrote|achou|tirou|tirad[oa]|pegou|veio|(?:vem|vindo)\s+de"
    r"|saiu|leu|viu|aprendeu|basea(?:do|da|ou)|baseia|embasa\w*|escrit[oa]|escreveu|consta|documentos?"
    r"|documents?)(?!\w)")
_BACK = re.compile(
    r"(?<!\w)(?:that|this|isso|isto|disso|disto|dessa|desta|essa|esta)\s+(?:info\w*|answer|resposta|advice"
    r"|recomenda\w*|recommendation|claim|dado|numero|number)(?!\w)"
    r"|(?<!\w)(?:o\s+)?(?:isso\s+)?que\s+(?:voce|tu)\s+(?:falou|disse|escreveu|respondeu)(?!\w)"
    r"|(?<!\w)what\s+(?:you|u)\s+(?:said|wrote|told\s+me|just\s+said)(?!\w)"
    # A demonstrative alone, not one before a noun of its own ("where did this pain come from").
    r"|(?<!\w)(?:that|this|isso|isto|it)(?!\w)(?!\s+(?!(?:come|came|comes|coming|from|ai|que|is|was|e|ta|esta"
    r"|foi|on|up|out)\b)[a-z]{3,})")
# A source of the answer as the thing asked for, named with who used it: "the guideline u used", "o estudo que
# você citou".
_USED = re.compile(
    r"(?<!\w)(?:guide?lines?|diretriz(?:es)?|stud(?:y|ies)|estudos?|papers?|artigos?|articles?|sources?|fontes?"
    r"|referenc\w*|documents?|documentos?)\s+(?:that\s+|que\s+)?(?:you|u|voce|tu)\s+(?:used|usou|cited|citou"
    r"|followed|seguiu|consulted|consultou|based|baseou|quoted|mentioned|mencionou)(?!\w)")


def asks_provenance(meant: str) -> bool:
    """Whether the message asks where the previous answer came from or what it was based on."""
    if _USED.search(meant):
        return True
    return bool(_ASKING.search(meant) and _GETTING.search(meant) and _BACK.search(meant))
