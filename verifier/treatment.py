"""R1: no dosage or treatment instruction unless the evidence facts carry it.

A dosage is a number with a unit ("500 mg", "10 gotas", "0.1% cream") or a frequency
("twice daily", "2x ao dia", "de 8 em 8 horas"); it is supported when the same text (case,
accents and spacing aside) is in a fact. A treatment instruction is a verb such as take,
tome, apply or aplique followed closely by a drug or remedy, "start/stop taking", or a dose
change; it is supported when its drug (or, for a dose change, the whole phrase) is in a
fact. Saying the doctor will discuss treatment is not an instruction.
"""

import re

from verifier.text import after_boundary, compact, fold, mask_identifiers, words

_UNIT = (r"(?:mg|mcg|μg|ug|g|ml|ui|iu|units?|unidades?|gotas?|drops?|comprimidos?|capsulas?"
         r"|capsules?|tablets?|pills?|puffs?|jatos?|sache?s?|sachets?|ampolas?|doses?)")
# Split in two so each starts with a plain character class or word, which the regex engine
# can skip ahead to (see verifier.text); after_boundary checks where a match starts.
_DOSAGE_NUMBER = re.compile(
    r"\d+(?:[.,]\d+)?(?:"
    rf"(?:\s*/\s*\d+(?:[.,]\d+)?)?\s*{_UNIT}\b"
    r"|\s*%\s*(?:cream|creme|gel|ointment|pomada|lotion|locao|solution|solucao|shampoo|xampu)\b"
    r"|\s*(?:times|x)\s+(?:a\s+|per\s+|ao\s+|por\s+)?(?:day|daily|week|weekly|dia|semana)\b"
    r"|\s+vez(?:es)?\s+(?:ao|por|a|na)\s+(?:dia|semana)\b"
    r"|\s*/\s*\d+\s*h\b)"
)
_DOSAGE_WORDS = re.compile(
    r"(?:once|twice|thrice|three times|four times)\s+(?:a\s+|per\s+)?(?:day|daily|week|weekly)\b"
    r"|(?:uma|duas|tres|quatro)\s+vez(?:es)?\s+(?:ao|por|a|na)\s+(?:dia|semana)\b"
    r"|(?:de|every|a cada)\s+\d+\s+(?:em\s+\d+\s+h(?:oras)?|hours|horas)\b"
)
_DRUG = (
    r"(?:paracetamol|acetaminophen|tylenol|ibuprof[ea]no?|dipirona|dipyrone|novalgina|aspirina?|aas"
    r"|losartana?|apixabana?|metoprolol|furosemid[ae]|atorvastatina?|rosuvastatina?|diltiazem"
    r"|bisoprolol|calcipotriol|betamet(?:h)?asona?|betamethasone|tacrolimus|adapalen[eo]|doxiciclina"
    r"|doxycycline|ivermectina?|cetoconazol|ketoconazole|fluorouracil|cetirizina?|codeina|codeine"
    r"|alendronat[eo]|rivaroxabana?|amoxicilina|amoxicillin|omeprazol[e]?|dexametasona|dexamethasone"
    r"|prednison[ae]|prednisolon[ae]|hidrocortisona|hydrocortisone|nitroglycerin|nitroglicerina"
    r"|warfarina?|clopidogrel|metformina?|sildenafila?|diclofenac[oa]?|naproxeno?|nimesulida|loratadina?"
    r"|insulina?|morfina|morphine|tramadol|antibiotic\w*|antibiotico\w*|anti-?inflamat\w+"
    r"|anti-?inflammator\w+|analges\w+|painkillers?|antihistamin\w*|anti-?alergic\w*|corticoid\w*"
    r"|steroids?|\w+(?:pril|sartan|olol|statin|azole|cillin|mycin|cycline|prazole|xaban|dipine|semide"
    r"|profen|fenac)"
    r"|medications?|medicines?|medicamentos?|remedios?|meds|pills?|comprimidos?|tablets?|capsulas?"
    r"|cream|creme|pomada|ointment|gel|drops|gotas|lotion|locao|injection|injecao|ice|gelo"
    r"|compress(?:es)?|compressas?|sunscreen|protetor solar)\b"
)
_INSTRUCTION = re.compile(
    r"\b(?:take|taking|tome|tomar|toma|tomando|use|usar|usando|using|apply|applying|aplique|aplicar"
    r"|passe|passar|try|experimente|administer|administre|i recommend|we recommend|recomendo"
    r"|recomendamos|sugiro|i prescribe|prescrevo|receito|start|comece|inicie|iniciar)\b"
    rf"(?:\s+[\w'-]+){{0,3}}?\s+(?P<drug>{_DRUG})"
    r"|\b(?:start|stop|keep|continue|quit)\s+(?:taking|using)\b(?:(?:\s+[\w'-]+){0,3}?\s+(?P<drug2>"
    rf"{_DRUG}))?"
    r"|\b(?:comece|continue|pare|parar|deixe|comecar)\s+(?:a\s+|de\s+)?(?:tomar|usar)\b(?:(?:\s+[\w'-]+)"
    rf"{{0,3}}?\s+(?P<drug3>{_DRUG}))?"
)
_DOSE_CHANGE = re.compile(
    r"\b(?:increase|reduce|decrease|double|lower|raise|halve|adjust|change|skip)\s+(?:your\s+|the\s+|a\s+)?"
    r"(?:dose|dosage|medication|meds)\b"
    r"|\b(?:aumente|aumentar|diminua|diminuir|reduza|reduzir|dobre|dobrar|ajuste|pule|pular)\s+"
    r"(?:a\s+|sua\s+|seu\s+|o\s+)?(?:dose|dosagem|medicacao|remedio)\b"
)


# Words without which a pattern cannot match: a set lookup spares most answers the scans.
_DOSAGE_TRIGGERS = frozenset("""
mg mcg ug g ml ui iu unit units unidade unidades gota gotas drop drops comprimido comprimidos
capsula capsulas capsule capsules tablet tablets pill pills puff puffs jato jatos sache saches sachet
sachets ampola ampolas dose doses times x vez vezes h once twice thrice three four uma duas tres quatro
every cada de cream creme gel ointment pomada lotion locao solution solucao shampoo xampu""".split())
_INSTRUCTION_TRIGGERS = frozenset("""
take taking tome tomar toma tomando use usar usando using apply applying aplique aplicar passe passar
try experimente administer administre recommend recomendo recomendamos sugiro prescribe prescrevo
receito start comece inicie iniciar stop keep continue quit pare parar deixe comecar""".split())
_DOSE_CHANGE_TRIGGERS = frozenset("dose dosage medication meds dosagem medicacao remedio".split())


def unsupported_treatment(answer: str, facts: list[str]) -> list[str]:
    """Notes for every R1 finding (dosage or instruction) not backed by a fact."""
    text = " ".join(fold(mask_identifiers(answer)).split())
    evidence = compact(" | ".join(facts))
    notes = []
    present = words(text)
    dosages = []
    if not present.isdisjoint(_DOSAGE_TRIGGERS):
        dosages = [*after_boundary(text, _DOSAGE_NUMBER.finditer(text), ".,/"),
                   *after_boundary(text, _DOSAGE_WORDS.finditer(text))]
    for m in dosages:
        if compact(m.group(0)) not in evidence:
            notes.append(f"R1: a dosage ({m.group(0)}) that is not in the evidence")
    instructions = _INSTRUCTION.finditer(text) if not present.isdisjoint(_INSTRUCTION_TRIGGERS) else ()
    for m in instructions:
        drug = m["drug"] or m["drug2"] or m["drug3"]
        if not drug:
            notes.append("R1: an instruction to start or stop a medication that is not in the evidence")
        elif compact(drug) not in evidence:
            notes.append(f"R1: a treatment instruction ({drug}) that is not in the evidence")
    changes = _DOSE_CHANGE.finditer(text) if not present.isdisjoint(_DOSE_CHANGE_TRIGGERS) else ()
    for m in changes:
        if compact(m.group(0)) not in evidence:
            notes.append(f"R1: a dose change ({m.group(0)}) that is not in the evidence")
    return list(dict.fromkeys(notes))
