"""Health-education questions told by their shape: a condition named (a disease, a risk factor, a body value
such as cholesterol or blood pressure) and asked about ("arritmia mata?", "does drinking water help with
gout", "fibrilação atrial é o que exatamente"), rather than phrasings listed one by one. Patterns match
folded text (lower case, no accents)."""

import re

# Conditions and measures a patient may ask about, Portuguese and English, singular or plural.
_CONDITION = (
    r"psoria\w*", r"eczemas?", r"dermatites?", r"dermatitis", r"acnes?", r"rosacea", r"melanomas?",
    r"vitiligo", r"urticaria", r"hives", r"herpes(?:\s+zoster)?", r"shingles", r"cobreiro", r"melasma",
    r"(?:skin\s+)?cancer(?:\s+de\s+pele)?", r"ceratose\w*", r"keratos\w*", r"micose\w*", r"fungal\s+\w+",
    r"gota", r"gout", r"artrites?", r"arthritis", r"artroses?", r"osteoartri\w+", r"osteoporos\w+",
    r"ciatica", r"sciatica", r"tendini\w+", r"tendinopat\w+", r"bursit\w+", r"fasci\w+", r"fascite\w*",
    r"hernias?(?:\s+de\s+disco)?", r"herniated\s+discs?", r"escoliose", r"scoliosis",
    r"carpal\s+tunnel", r"tunel\s+do\s+carpo", r"entorses?", r"sprains?", r"fractures?", r"fraturas?",
    r"lombalgia", r"low\s+back\s+pain", r"infartos?", r"heart\s+attacks?", r"heart\s+failure",
    r"insuficiencia\s+cardiaca", r"(?:atrial\s+)?fibrillation", r"fibrilacao(?:\s+atrial)?", r"afib",
    r"arrhythmias?", r"arritmias?", r"anginas?", r"strokes?", r"avc", r"derrame", r"hypertension",
    r"hipertensao", r"pressao\s+(?:alta|baixa|arterial)", r"(?:high|low)\s+blood\s+pressure",
    r"cholesterol", r"colesterol", r"ldl", r"hdl", r"triglicerides?", r"triglycerides?", r"diabetes",
    r"glicose", r"glucose", r"blood\s+sugar", r"acucar\s+no\s+sangue", r"(?:heart\s+)?murmurs?",
    r"sopro(?:\s+no\s+coracao)?", r"cardiomyopath\w+", r"cardiomiopatia", r"asthma", r"asma",
    r"enxaquecas?", r"migraines?", r"varizes", r"varicose\s+veins", r"caimbras?", r"cramps?",
    r"tireoide", r"thyroid", r"obesi\w+", r"anemia", r"trombose", r"thrombosis", r"embolia",
    r"embolism", r"pneumonia", r"sepse", r"sepsis", r"aterosclero\w+", r"atherosclero\w+",
)
CONDITION_WORDS = "(?:" + "|".join(_CONDITION) + ")"
CONDITION = re.compile(rf"(?<!\w){CONDITION_WORDS}(?!\w)")
# Asked: a question mark, a question word or auxiliary anywhere, or a judgement asked for without its mark
# ("varizes é perigoso").
_ASKED = re.compile(
    r"\?|(?<!\w)(?:what|whats|what's|why|how|which|who|when|does|do|is|are|can|could|should|will"
    r"|o\s+que|oq|que|qual|quais|quanto|quanta|quantos|como|por\s*que|porque|quando|quem|sera"
    r"|(?:e|eh)\s+(?:muito\s+)?(?:perigos[oa]|grave|seri[oa]|contagios[oa]|normal|comum|hereditari[oa]))(?!\w)"
)
# Told about oneself ("tenho gota e meu pé dói"): a consult or a diagnosis request, not a lesson.
_ONESELF = re.compile(r"(?<!\w)(?:i|i'm|im|i've|ive|my|eu|meu|minha|tenho|estou|to\s+com|sinto)(?!\w)")


def asks_about_condition(folded: str) -> bool:
    """A question about a condition that is not told as one's own."""
    return bool(CONDITION.search(folded) and _ASKED.search(folded) and not _ONESELF.search(folded))
