"""The specialist cue lexicons: the sides the council weighs and, for each, its weighted pt/en cues.

The sides are the offered specialties (cardiology, dermatology, orthopedics) and general practice
for systemic complaints (fever, fatigue, cough, stomach …). Cues match the folded text, and one
right after a negation ("no fever", "sem falta de ar") is not found; some cues count only beside
another cue of their side (`alone=False`: exertion means something next to breathlessness, not
next to a knee).
"""

import re
from collections.abc import Mapping
from dataclasses import dataclass

from orchestrator.consult.negation import negated
from runtime.specialties import SPECIALTIES

GENERAL = "general_practice"
SIDES = (*SPECIALTIES, GENERAL)


@dataclass(frozen=True)
class _Cue:
    label: str  # English, shown in rationales
    pattern: re.Pattern[str]
    weight: float
    alone: bool  # False: counts only beside another cue of the same side


def _cue(label: str, weight: float, *fragments: str, alone: bool = True) -> _Cue:
    pattern = re.compile(r"(?<![\w'])(?:" + "|".join(fragments) + r")(?![\w'])")
    return _Cue(label, pattern, weight, alone)


def found(pattern: re.Pattern[str], folded: str, language: str) -> bool:
    """Whether the pattern matches the folded text other than right after a negation."""
    return any(not negated(folded, m.start(), language) for m in pattern.finditer(folded))


# Swelling is left out: swollen legs or ankles on both sides point to the heart as much as to the joints.
_PAIN = (r"(?:pain|painful|aches?|aching|hurts?|hurting|sore|stiff|killing\s+me|dor|dores|doi|doem|doendo|"
         r"dolorid[oa]|rigid[oa]|travad[oa])")
_JOINT = (r"(?:knees?|shoulders?|hips?|ankles?|wrists?|elbows?|joints?|joelhos?|ombros?|quadril|tornozelos?|"
          r"punhos?|cotovelos?|articulac\w+|juntas?)")
_LIMB = (r"(?:neck|arms?|legs?|hands?|fingers?|thumbs?|feet|foot|heels?|toes?|thighs?|calf|calves|spine|"
         r"(?:lower\s+|upper\s+)?back|pescoco|nuca|bracos?|pernas?|maos?|dedos?|pes|pe|calcanhar|coxas?|panturrilhas?|coluna"
         r"|costas|lombar)")
# Up to three words between two parts of a cue, the last not a negation ("knee is not swollen").
_NEAR = (r"\W+(?:[\w']+\W+){0,3}"
         r"(?<!not\s)(?<!nao\s)(?<!never\s)(?<!nunca\s)(?<!sem\s)(?<!without\s)(?<!n't\s)")
_BELLY = r"(?:stomach|belly|tummy|abdomen|abdominal|barriga|estomago|abdome)"
_EXERTION = (r"(?:on|with)\s+exertion"
             r"|(?:when|while|after)\s+(?:i\s+)?(?:walk|climb|exercis|run|go\s+up|hurr)\w*"
             r"|climbing\s+stairs|uphill|aos?\s+esforcos?"
             r"|ao\s+(?:subir|caminhar|andar|correr|fazer\s+(?:esforco|exercicio))"
             r"|quando\s+(?:eu\s+)?(?:ando|subo|caminho|corro|faco\s+(?:esforco|exercicio))|subir\s+escadas?")
CANNOT_BEAR_WEIGHT = (r"(?:can't|cannot|cant|unable\s+to|can\s+not)\s+"
                       r"(?:put\s+(?:any\s+)?weight|bear\s+weight|walk|stand\s+(?:up|on\s+it))"
                       r"|nao\s+consigo\s+(?:pisar|apoiar|andar|ficar\s+de\s+pe|colocar\s+o\s+pe)")
# A skin lesion that evolves: the E of the ABCDEs of melanoma (AAD).
EVOLVING = (r"bleed\w*|bled|chang\w*|grow\w*|getting\s+(?:bigger|darker)|irregular|sangr\w*"
             r"|mud(?:ou|ando|a)|cresc\w*|aument\w*|escur\w*")
_NOT_HEALING = (r"(?:sore|wound|cut|ulcer)\s+(?:\w+\s+){0,4}"
                r"(?:(?:won't|doesn't|does\s+not|will\s+not|not)\s+heal|(?:never|not)\s+heal\w*)"
                r"|ferida\s+(?:\w+\s+){0,4}(?:nao|nunca)\s+(?:cicatriza|sara|fecha)")
_CHEST_PAIN = (r"chest\s+(?:pain|tightness|pressure|discomfort|heaviness)"
               r"|(?:pain|tightness|pressure|discomfort|heaviness)\s+in\s+(?:my|the)\s+chest|tight\s+chest"
               r"|(?:dor|aperto|peso|pressao|desconforto|queimacao)\s+no\s+peito|dor\s+toracica|angina")

CUES: Mapping[str, tuple[_Cue, ...]] = {
    "cardiology": (
        _cue("palpitations", 4, r"palpitat\w*", r"palpitac\w*", r"batedeira", r"skipp(?:ed|ing)\s+beats?",
             r"skips\s+a\s+beat", r"pulos?\s+no\s+coracao", r"tranco\s+no\s+(?:peito|coracao)",
             r"(?:racing|pounding|fluttering|irregular)\s+heart(?:\s*beat)?",
             rf"(?:heart|heartbeat|coracao|batimentos?){_NEAR}(?:races|racing|pounds|pounding|flutters|"
             r"fluttering|skips|skipping|skipped|flips|jumps|irregular|acelerad[oa]s?|disparad[oa]|disparando|disparar|"
             r"descompassad[oa]|irregulares|batendo\s+(?:forte|rapido))"),
        _cue("chest pain", 3.5, _CHEST_PAIN),
        _cue("breathlessness", 3, r"short(?:ness)?\s+of\s+breath", r"breathless\w*", r"out\s+of\s+breath",
             r"falta\s+de\s+ar", r"dispneia", r"sem\s+folego", r"perco\s+o\s+folego",
             r"cansaco\s+ao\s+esforco"),
        _cue("breathless lying flat", 3, r"(?:can't|cannot|cant)\s+lie\s+flat", r"extra\s+pillows",
             r"wake\s+up\s+(?:gasping|breathless|short\s+of\s+breath)", r"mais\s+travesseiros",
             r"falta\s+de\s+ar\s+(?:ao|quando)\s+(?:deitar|deito)", r"acordo\s+sem\s+ar"),
        _cue("swollen legs", 3, r"swollen\s+(?:ankles|legs|feet)",
             r"swelling\s+(?:in|of)\s+(?:my|both)\s+(?:ankles|legs|feet)",
             rf"(?:ankles|legs|feet){_NEAR}(?:swell|swelling|swollen)",
             rf"(?:pernas|tornozelos|pes){_NEAR}inchad[oa]s",
             r"inchaco\s+n[oa]s\s+(?:pernas|tornozelos|pes)"),
        _cue("blood pressure", 3.5, r"blood\s+pressure", r"bp", r"hypertension", r"pressure\s+readings?",
             r"pressao\s+(?:\w+\s+)?(?:alta|arterial|subiu|descontrolada|\d+)", r"hipertens\w*",
             r"[12]\d\d\s*(?:/|x|over|por)\s*\d{2,3}",
             # Brazilians say pressure in cmHg: "12 por 8", "15 por 9,5".
             r"1\d\s*(?:/|x|por)\s*\d{1,2}(?:[,.]\d)?",
             r"(?:medidas?|medicao|medicoes|afericao)\s+(?:da\s+|de\s+)?pressao"),
        _cue("heart", 2, r"heart(?:beat)?", r"coracao", r"cardiac\w*", r"cardiaco"),
        # Known heart disease asking for its follow-up (NIH Heart Attack FAQ: regular check-ups).
        _cue("heart history", 4, r"heart\s+attack", r"infarto", r"stents?", r"bypass", r"angioplast\w*",
             r"pacemaker", r"marca-?passo", r"heart\s+(?:review|check-?up|follow-?up)", r"cardiologist",
             r"cardiologista", r"statins?", r"estatinas?"),
        # Varicose veins and poor leg circulation (NHS: varicose veins; Symptom2Disease "Varicose Veins").
        _cue("varicose veins", 4.5, r"varicose", r"varizes", r"spider\s+veins", r"vasinhos", r"veins?",
             r"veias", r"blood\s+vessels",
             rf"(?:veins?|blood\s+vessels?|veias|vasos(?:\s+sanguineos)?){_NEAR}(?:prominent|protrud\w*|bulg\w*|"
             r"visible|noticeable|swollen|twisted|enlarged|saltad\w*|dilatad\w*|estufad\w*|aparentes|inchad\w*)",
             r"(?:prominent|bulging|protruding|swollen|twisted|visible|enlarged)\s+(?:veins?|blood\s+vessels?)"),
        _cue("leg cramps", 3, rf"(?:legs?|calf|calves|pernas?|panturrilhas?){_NEAR}(?:cramp\w*|caimbras?)",
             rf"(?:cramp\w*|caimbras?){_NEAR}(?:legs?|calf|calves|pernas?|panturrilhas?)", r"heavy\s+legs",
             r"pernas?\s+pesadas?"),
        _cue("long standing", 2, r"(?:stand\w*|sit\w*)(?:\s+or\s+\w+)?\s+for\s+long\s+periods",
             r"(?:em\s+pe|sentad[oa])\s+(?:por\s+)?muito\s+tempo", alone=False),
        _cue("fainting", 2.5, r"faint\w*", r"passed\s+out", r"black(?:ed)?\s+out", r"desmai\w*", r"sincope"),
        _cue("murmur", 3, r"murmur", r"sopro\s+no\s+coracao"),
        _cue("cholesterol", 2, r"cholesterol", r"colesterol"),
        _cue("pulse", 2, r"pulse", r"pulso\s+(?:acelerado|irregular|alto|rapido)"),
        _cue("chest", 1, r"chest", r"peito", alone=False),
        _cue("exertion", 2, _EXERTION, alone=False),
        _cue("dizziness", 1, r"dizz\w*", r"light-?\s?headed", r"tontura", r"tont[oa]", alone=False),
    ),
    "dermatology": (
        _cue("rash", 3.5, r"rash(?:es)?", r"erupc\w+", r"brotoejas?", r"alergia\s+na\s+pele"),
        _cue("itch", 3, r"itch\w*", r"coceira", r"cocando", r"coca(?!-cola)", r"cocam", r"comichao",
             r"prurido"),
        _cue("mole", 3.5, r"(?:a|the|my|this|that|new|dark)\s+moles?", r"moles",
             r"mole\s+(?:on|that|has|is|which|changed|bleeds?)", r"pintas?", r"sinal\s+na\s+pele", r"nevos?",
             r"nevus"),
        _cue("spots", 2.5, r"spots?", r"patch(?:es)?", r"blotch\w*", r"manchas?", r"manchinhas?"),
        _cue("acne", 3.5, r"acne", r"pimples?", r"zits?", r"espinhas?", r"cravos?", r"blackheads?"),
        _cue("skin", 2, r"skin", r"pele"),
        _cue("scaling", 2.5, r"scal(?:y|ing|es)", r"flak(?:y|ing)", r"peeling", r"descama\w*", r"descasc\w*"),
        _cue("hives", 3, r"hives", r"urticaria", r"welts?", r"vergoes"),
        _cue("blisters", 2, r"blisters?", r"bolhas?"),
        _cue("named skin condition", 3, r"eczema", r"psoria\w*", r"cold\s+sores?", r"dermatit\w+", r"rosacea",
             r"vitiligo", r"micose", r"frieira", r"impetigo", r"herpes", r"cobreiro", r"shingles"),
        _cue("hair loss", 3, r"hair\s+(?:loss|is\s+falling|falling\s+out)", r"losing\s+(?:my\s+)?hair",
             r"bald\s+(?:spot|patch)", r"queda\s+de\s+cabelo", r"cabelo\s+(?:caindo|cai)", r"caindo\s+cabelo",
             r"alopecia", r"dandruff", r"caspa",
             r"hairs?\s+(?:on|in)\s+(?:my\s+|the\s+)?(?:pillow|brush|comb|drain)",
             r"hair\s+(?:is\s+)?coming\s+out", r"cabelo\s+(?:\w+\s+){0,2}caindo"),
        _cue("nails", 3.5, r"(?:toe|finger)?nails?", r"unhas?", r"frieira"),
        _cue("warts", 3.5, r"warts?", r"verrugas?"),
        _cue("dry skin", 2, r"dry\s+skin", r"pele\s+seca", r"ressecad[oa]s?", r"oily\s+skin",
             r"pele\s+oleosa"),
        _cue("redness", 1.5, r"red(?:ness)?", r"vermelh\w*", r"flush(?:ed|ing)?"),
        _cue("sores", 2, r"sores?\s+(?:on|that|around)", r"feridas?", r"lesions?"),
        # Impetigo and infected skin: crusts and ooze (NHS: impetigo; Symptom2Disease "Impetigo").
        _cue("crusting or oozing", 3, r"crust\w*", r"ooz\w*", r"pus", r"scabs?", r"crostas?", r"casquinhas?",
             r"secrecao\s+amarel\w*"),
        # Cellulitis: a patch of skin red, swollen, warm and painful (NHS: cellulitis; Semigran 2015).
        _cue("inflamed skin", 3,
             r"skin\s+(?:\w+\s+){0,5}(?:red|swollen|warm|hot)\W+(?:\w+\W+){0,2}(?:swollen|warm|hot)",
             r"pele\s+(?:\w+\s+){0,4}(?:vermelha|inchada|quente)\W+(?:\w+\W+){0,2}(?:inchada|quente)"),
        _cue("skin creases", 2, r"creases", r"skin\s+folds", r"folds\s+of\s+(?:the|my)\s+skin", r"dobras",
             alone=False),
        _cue("cracked skin", 3, r"(?:fissures?|cracks?|cracked|cracking)", r"rachad\w*", r"rachaduras?",
             r"fissuras?", r"sensitive\s+skin", r"pele\s+sensivel"),
        _cue("non-healing sore", 2, _NOT_HEALING),
        _cue("bumps", 2, r"bumps", r"little\s+bumps?", r"bolinhas", r"carocinhos"),
        _cue("sunburn", 2, r"sunburn\w*", r"queimadura\s+(?:de|do)\s+sol"),
        _cue("evolving lesion", 1.5, EVOLVING, alone=False),
        _cue("lump", 1, r"lumps?", r"carocos?", alone=False),
    ),
    "orthopedics": (
        _cue("joint pain", 3, rf"{_PAIN}{_NEAR}{_JOINT}", rf"{_JOINT}{_NEAR}{_PAIN}", r"arthritis",
             r"artrite", r"artrose", r"osteoarthritis"),
        _cue("limb or back pain", 3, rf"{_PAIN}{_NEAR}{_LIMB}", rf"{_LIMB}{_NEAR}{_PAIN}",
             r"back\s*(?:pain|ache)", rf"(?:my|lower|upper)\s+back{_NEAR}{_PAIN}", r"lombalgia", r"torcicolo",
             r"dor\s+(?:nas|na)\s+(?:costas|coluna|lombar)"),
        _cue("swollen joint", 2.5, r"swollen\s+(?:knee|ankle|wrist|elbow|finger|toe|joint)",
             rf"(?:knee|ankle|wrist|elbow|finger|toe|joint|joelho|tornozelo|punho|cotovelo|dedo){_NEAR}"
             r"(?:swollen|inchad[oa])"),
        _cue("joint", 1.5, _JOINT, alone=False),
        # Neck pain with weak or numb limbs: cervical spondylosis (Symptom2Disease; NHS neck pain).
        _cue("neck pain", 3, r"neck\s+(?:pain|hurts|is\s+sore|aches?)",
             r"(?:pain|sore)\s+(?:in\s+)?(?:my\s+)?neck",
             r"my\s+neck\s+(?:also\s+)?(?:hurts|is\s+sore)", r"pescoco\s+(?:doi|doendo|dolorido)",
             r"dor\s+no\s+pescoco", r"cervical\w*"),
        _cue("limb weakness", 2, r"weak\w*\s+in\s+(?:my\s+)?(?:limbs|arms|legs|muscles)",
             r"(?:limbs?|arms?|legs?)\s+(?:\w+\s+)?(?:weak|numb)", r"lack\s+of\s+strength",
             r"fraqueza\s+n[oa]s?\s+(?:bracos|pernas|membros|musculos)",
             r"dormencia\s+n[oa]s?\s+(?:bracos|pernas)",
             alone=False),
        _cue("back", 1.5, r"(?:lower|upper|mid)\s+back", r"(?<=my\s)back", r"coluna", r"costas", r"lombar",
             r"spine", r"vertebra\w*", alone=False),
        _cue("sprain", 3.5, r"sprain\w*", r"twist\w*", r"rolled\s+my\s+ankle", r"torc\w+", r"torci",
             r"entorse", r"virei\s+o\s+pe"),
        _cue("fracture", 3.5, r"fractur\w*", r"broken\s+(?:bone|arm|leg|wrist|ankle|finger|toe)",
             r"broke\s+my", r"fratur\w*", r"quebr(?:ei|ou)\s+(?:o|a|meu|minha)"),
        _cue("injury", 3, r"fell", r"fall(?:ing)?\s+(?:off|down|on)", r"tripped", r"injur\w*",
             r"cai\s+(?:de|da|do|no|na|em)", r"tombo", r"queda(?!\s+de\s+cabelo)", r"machuc\w*", r"bati\s+o",
             r"pancada", alone=False),
        _cue("sport", 2, r"sports?", r"football", r"soccer", r"running", r"gym", r"tennis", r"basketball",
             r"futebol", r"corrida", r"academia", r"treino", r"musculacao", r"jogando", r"volei",
             alone=False),
        _cue("stiffness", 2.5, r"stiff\w*", r"rigidez", r"travad[oa]", r"travou", r"locking", r"clicking",
             r"estala\w*"),
        # What patients say of joints and tendons (NHS: knee pain, shoulder pain, heel pain).
        _cue("joint noise or giving way", 3, r"grind\w*", r"clicks?", r"crack(?:s|ing)\s+(?:when|as)",
             r"twinge",
             r"giv(?:es|ing)\s+way", r"spurs?", r"esporao", r"false(?:ar|ia|ando)", r"rangendo"),
        _cue("named muscle", 3, r"biceps", r"triceps", r"hamstrings?", r"quadriceps", r"rotator\s+cuff",
             r"achilles", r"plantar\s+fasciitis", r"fascite\s+plantar"),
        _cue("lifting", 2, r"lifting", r"heavy\s+(?:box|boxes|bag|bags|things|weights?)",
             r"carregando\s+peso", r"(?:levantar|pegar|peguei|carreguei)\s+(?:peso|algo\s+pesado)",
             r"mov(?:ed|ing)\s+furniture", r"carregu?ei\s+(?:moveis|caixas)", alone=False),
        _cue("sciatica", 3, r"sciatica", r"ciatic[oa]", r"radiat\w*\s+down\s+my\s+leg",
             r"irradia\w*\s+para\s+a\s+perna"),
        _cue("muscle", 1.5, r"muscles?", r"muscular", r"musculos?", r"distensao", r"strain(?:ed)?",
             r"spasms?", r"espasmos?"),
        _cue("bone", 2, r"bones?", r"ossos?"),
        _cue("tendon or ligament", 3, r"tendon\w*", r"ligament\w*", r"tendinit\w*", r"menisc\w*",
             r"bursit\w*"),
        _cue("limping", 3, r"limp\w*", r"mancando", r"manco"),
        _cue("cannot bear weight", 3, CANNOT_BEAR_WEIGHT),
        _cue("stairs", 1, r"stairs", r"escadas?", alone=False),
    ),
    GENERAL: (
        _cue("fever", 3, r"(?<!hay\s)fever\w*", r"febre", r"temperatura\s+alta", r"chills", r"calafrios?"),
        # Hay fever and allergic rhinitis (NHS: allergic rhinitis; Semigran 2015 self-care vignette).
        _cue("allergic rhinitis", 3, r"sneez\w*", r"blocked\s+nose", r"stuffy\s+nose", r"hay\s+fever",
             r"watery\s+eyes", r"espirr\w*", r"rinite", r"nariz\s+(?:entupido|trancado|escorrendo)",
             r"olhos\s+lacrimejando"),
        _cue("fatigue", 2, r"fatigue", r"tired(?:ness)?", r"exhausted", r"no\s+energy",
             r"cansaco(?!\s+ao\s+esforco)", r"cansad[oa]", r"fadiga", r"sem\s+energia", r"exaust[oa]"),
        _cue("respiratory infection", 3, r"cough\w*", r"tosse", r"sore\s+throat", r"dor\s+de\s+garganta",
             r"runny\s+nose", r"coriza", r"nariz\s+entupido", r"(?:the\s+)?flu", r"gripe", r"resfriad[oa]",
             r"(?:have|had|caught|got)\s+a\s+cold(?!\s+sweat)"),
        _cue("headache", 3, r"headaches?", r"migraines?", r"dor\s+de\s+cabeca", r"enxaqueca", r"cefaleia"),
        _cue("digestive", 3, rf"{_BELLY}\s*(?:ache|aches|pain|cramps?|upset|bug)", rf"{_PAIN}{_NEAR}{_BELLY}",
             rf"{_BELLY}{_NEAR}{_PAIN}", r"nause\w*", r"vomit\w*", r"diarrh\w*", r"enjoo", r"enjoad[oa]",
             r"diarreia", r"azia", r"heartburn", r"indigestion", r"constipat\w*", r"prisao\s+de\s+ventre",
             r"ma\s+digestao"),
        _cue("weight change", 2, r"weight\s+loss", r"losing\s+weight", r"lost\s+weight", r"perdendo\s+peso",
             r"perdi\s+peso", r"emagreci"),
        _cue("urinary", 3, r"urin\w*", r"pee(?:ing)?", r"xixi", r"bladder", r"bexiga"),
        _cue("sleep or mood", 2, r"insomnia", r"can't\s+sleep", r"anxi\w+", r"ansiedade", r"ansios[oa]",
             r"insonia", r"stress(?:ed)?", r"estresse", r"depress\w*"),
        _cue("body aches", 2, r"body\s+aches?", r"aches\s+all\s+over", r"dor\s+no\s+corpo(?:\s+todo)?",
             r"corpo\s+todo\s+doi", r"everything\s+hurts"),
        _cue("dizziness", 1.5, r"dizz\w*", r"light-?\s?headed", r"tontura", r"tont[oa]", r"vertigem",
             r"vertigo", alone=False),
        _cue("unwell", 1, r"unwell", r"sick", r"mal\s+estar", r"mal-estar", r"indisposto", r"indisposta"),
    ),
}
