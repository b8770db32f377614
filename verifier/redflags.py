"""Red-flag rules: emergencies in a raw user message, Portuguese and English.

Patterns match the folded message (no accents, lowercase, one space) and cover verb forms,
third persons, colloquial spellings and common misspellings. They match the symptom
itself, not the verb before it, so a clear negation right before the symptom ("no chest
pain", "sem dor no peito", "não tenho dor no peito", "denies chest pain") can be told
apart, and so can a past event told as history ("I had a stroke two years ago and need a
check-up"). Such a hit is skipped, never the message: any other hit still counts. Mental
health and poisoning hits always count: a wrong "not suicidal" reading costs too much.
"""

import re
import unicodedata
from dataclasses import dataclass

from healthmesh.v1 import verifier_pb2
from verifier.text import fold

_CARDIO = verifier_pb2.RED_FLAG_CATEGORY_CARDIORESPIRATORY
_NEURO = verifier_pb2.RED_FLAG_CATEGORY_NEUROLOGICAL
_MENTAL = verifier_pb2.RED_FLAG_CATEGORY_MENTAL_HEALTH
_BLEEDING = verifier_pb2.RED_FLAG_CATEGORY_BLEEDING
_ALLERGIC = verifier_pb2.RED_FLAG_CATEGORY_ALLERGIC
_POISONING = verifier_pb2.RED_FLAG_CATEGORY_POISONING
_TRAUMA = verifier_pb2.RED_FLAG_CATEGORY_TRAUMA

_NAO = r"(?:nao|n|naum)"
_CANT = r"(?:can'?t|cannot|can not|could ?n'?t|could not|unable to)"
_PEITO = r"p(?:ei|ie|e)t[ou]"
_CHEST = r"(?:chest|chset|chets)"
_WHOSE = r"(?:my|his|her|their|the|our|your)"
_W = r"[\w'-]+"  # one word
_SELF_HARM_VERB = r"(?:hurt|harm|cut|burn|kill)(?:ing|s)?"
_PILLS = (r"pills?|tablets?|comprimidos?|remedios?|capsulas?|pilulas?|medicamentos?|meds|medicines?"
          r"|medications?|bottle|pack|box|cartela|vidro|frasco|caixa")
# Enough pills to be an overdose: "too many", "a bottle of".
_MANY = (r"too many|a lot of|lots of|all (?:of )?(?:my|the|his|her)|a whole|the whole|an entire|the entire"
         r"|a handful of|a bottle of|a box of|a pack of|muitos|muitas|varios|varias|todos os|todas as"
         r"|a cartela|uma cartela|o vidro|um vidro|um frasco|o frasco|a caixa|uma caixa|um monte de")
# A count of pills that is an overdose, written right before the pills ("20 comprimidos").
_COUNT = (r"[4-9]|[1-9]\d+|four|five|six|seven|eight|nine|ten|twelve|fifteen|twenty|thirty|fifty"
          r"|a dozen|quatro|cinco|seis|sete|oito|nove|dez|doze|quinze|vinte|trinta|cinquenta|uma duzia")


@dataclass(frozen=True)
class RedFlag:
    rule_id: str
    category: int  # verifier_pb2.RedFlagCategory


@dataclass(frozen=True)
class _Rule:
    rule_id: str
    category: int
    pattern: re.Pattern[str]
    also: re.Pattern[str] | None = None  # a second sign the message must show as well


def _rule(rule_id: str, category: int, *alternatives: str, also: str | None = None) -> _Rule:
    return _Rule(rule_id, category, re.compile("|".join(f"(?:{a})" for a in alternatives)),
                 re.compile(also) if also else None)


# In priority order: the first rule with a hit names the category (mental health first, so
# the crisis line is never lost; unconsciousness before fainting).
RULES: tuple[_Rule, ...] = (
    _rule(
        "mental.suicidal", _MENTAL,
        r"\bsuicid\w*",
        r"\b(?:kill|killing|end|ending|take|taking)\s+(?:my ?self|my own life|my life|it all)\b",
        r"\b(?:don'?t|do not|no longer|never) (?:want|wanna) (?:to )?(?:live|be alive|exist|wake up)",
        r"\b(?:want|wanna|wish|going|gonna) (?:to )?(?:die|be dead|disappear forever)\b",
        r"\bbetter off dead\b|\bno reason to live\b|\bnot worth living\b",
        r"\b(?:quero|queria|vou|vontade de|pensando em|penso em|pensei em|planejando)\s+(?:me\s+)?morrer\b",
        r"\bme matar\b|\bmatar a mim\b",
        rf"\b{_NAO} (?:quero|aguento|suporto|consigo) mais viver\b|\bnem quero mais viver\b",
        r"\b(?:tirar|acabar com|dar fim (?:a|na)|dar fim a) (?:a )?(?:minha )?(?:propria )?vida\b",
        r"\bacabar com tudo\b|\bsem (?:vontade|motivo|razao) (?:de|pra|para) viver\b|\bdesistir da vida\b",
        r"\bsentido (?:em|de|pra|para) (?:viver|continuar vivo|continuar viva)\b|\b(?:quero|queria) sumir\b",
        r"\b(?:quero|queria)\b.{0,20}\bmorrer\b",
        r"\bmelhor (?:eu )?(?:estar|estaria|estivesse|ficar) mort[oa]\b",
    ),
    _rule(
        "mental.self_harm", _MENTAL,
        r"\bself[- ]?harm\w*|\bautomutila\w*|\bautoles\w*|\bauto[- ]?mutila\w*",
        rf"\b(?:want|wanna|going|gonna|thinking|think|thought|urge|urges|feel like|plan|planning|tempted"
        rf"|keep|been|will|might)\b(?:\s+{_W}){{0,3}}\s+{_SELF_HARM_VERB}\s+my ?self\b",
        r"\b(?:hurting|harming|cutting|burning) my ?self\b",
        r"\b(?:slit|slitting|slash\w*|cut|cutting)\s+(?:my|his|her)\s+wrists?\b",
        r"\bcortar (?:os|meus) pulsos\b",
        rf"\b{_SELF_HARM_VERB} my ?self (?:on purpose|deliberately|intentionally|again)\b",
        r"\bme (?:cortar|machucar|ferir|mutilar|queimar)\b|\bme (?:cortando|machucando|ferindo|mutilando)\b",
        r"\bme (?:cortei|machuquei|feri) (?:de proposito|propositalmente|de novo|denovo)\b",
    ),
    _rule(
        "poisoning.overdose", _POISONING,
        r"\boverdos\w*|\bsobredose\b|\bsuperdosagem\b",
        rf"\b(?:took|taken|take|swallowed|ate|tomei|tomou|tomaram|engoli|engoliu|ingeri|ingeriu)\b"
        rf"(?:\s+{_W}){{0,3}}?\s+(?:{_MANY})\b(?:\s+{_W}){{0,3}}?\s+(?:{_PILLS})\b",
        rf"\b(?:took|taken|take|swallowed|tomei|tomou|tomaram|engoli|engoliu|ingeri|ingeriu)\b"
        rf"(?:\s+{_W}){{0,2}}?\s+(?:{_COUNT})\s+(?:(?!(?:mg|mcg|ml|g|ui|iu)\b){_W}\s+)?(?:{_PILLS})\b",
        # Swallowing pills (rather than taking them) is ingestion, whatever the count.
        rf"\b(?:swallowed|swallow|ingested|engoli|engoliu|ingeri|ingeriu)\b(?:\s+{_W}){{0,3}}?\s+(?:{_PILLS})\b",
        rf"\b(?:took|taken|swallowed|tomei|tomou|engoli|engoliu)\b(?:\s+{_W}){{0,2}}?\s+"
        r"(?:too much|remedio demais|remedios demais|comprimidos demais|demais)\b",
        r"\b(?:tomei|tomou|took)\b.{0,40}\b(?:de uma vez|at once|all at once)\b",
    ),
    _rule(
        "poisoning.chemical", _POISONING,
        rf"\b(?:drank|drunk|drink|swallowed|ingested|ate|bebi|bebeu|beberam|engoli|engoliu|ingeri|ingeriu"
        rf"|tomou|tomei|comeu|comi)\b(?:\s+{_W}){{0,3}}?\s+(?:bleach|cleaning (?:product|liquid|fluid)"
        r"|detergent|poison|pesticide|rat poison|antifreeze|kerosene|gasoline|petrol|drain cleaner|lye"
        r"|agua sanitaria|cloro|candida|veneno|soda caustica|produto de limpeza|chumbinho|querosene"
        r"|gasolina|alvejante|desinfetante|inseticida|raticida|formicida|agrotoxico)\b",
        r"\b(?<!food )poison(?:ed|ing)\b|\benvenena\w+|\bintoxica(?:do|da|cao|dos|das)\b(?! alimentar)",
    ),
    _rule(
        "neuro.unconscious", _NEURO,
        r"\b(?:unconscious|unresponsive|lost consciousness|losing consciousness|not waking up"
        r"|won'?t wake(?: up)?|will not wake|doesn'?t wake up|does not wake up)\b",
        rf"\b{_CANT} wake (?:him|her|them|my|up)\b",
        r"\b(?:inconsciente|desacordad[oa]|perdeu a consciencia|perdi a consciencia|sem consciencia)\b",
        rf"\b{_NAO} (?:{_W} )?(?:acorda|acordou|reage|reagiu)\b",
        rf"\b{_NAO} (?:consigo|conseguimos) acorda-?l[oa]\b",
    ),
    _rule(
        "neuro.stroke", _NEURO,
        r"\b(?:stroke(?! of (?:luck|genius))|avc|derrame(?: cerebral)?|acidente vascular)\b",
        rf"\b(?:face|mouth|smile|lip)\s+(?:is\s+|has\s+|was\s+)?(?:{_W}\s+)?(?:droop\w*|crooked|twisted|numb"
        r"|paraly[sz]ed|uneven|lopsided|falling|sagging)\b",
        r"\bdroop\w*\s+(?:\w+\s+)?(?:face|mouth|smile)\b",
        rf"\b(?:boca|rosto|cara|face|labio)\s+(?:{_W}\s+)?(?:torta|torto|caida|caido|entortou|entortando"
        r"|repuxad\w*|paralisad\w*|dormente|caindo)\b",
        r"\b(?:slurred|slurring|garbled)\b",
        rf"\b{_CANT} (?:speak|talk) (?:properly|clearly|right|normally)\b",
        rf"\b{_NAO} (?:consegue|consigo) (?:falar|se expressar) (?:direito|normalmente)\b",
        rf"\b(?:fala|falando|voz)\s+(?:{_W}\s+)?(?:enrolad\w*|arrastad\w*|embolad\w*|enrolando|arrastando)\b",
        rf"\b(?:weakness|numbness|numb|tingling|paralysis|paraly[sz]ed|{_CANT} (?:move|feel|lift))\b.{{0,40}}"
        r"\b(?:one side|left side|right side|half of)\b",
        r"\b(?:one|left|right)[- ]sided?\s+(?:weakness|numbness|paralysis)\b",
        rf"\b(?:fraqueza|dormencia|dormente|formigamento|formigando|paralisi\w*|paralisad\w*"
        rf"|{_NAO} (?:consigo|consegue) (?:mexer|sentir|levantar))\b.{{0,40}}"
        r"\b(?:(?:um|o) lado|metade d[oea]|lado (?:esquerdo|direito))\b",
        r"\b(?:sudden(?:ly)?|de repente|repentinamente|subitamente|do nada)\b.{0,40}\b(?:weakness|numbness"
        rf"|numb|confus\w*|{_CANT} (?:speak|talk|see|move)|blind|vision loss|fraqueza|dormencia|dormente"
        rf"|formigamento|confus[oa]|{_NAO} (?:consigo|consegue) (?:falar|enxergar|ver|mexer))\b",
        rf"\b(?:sudden|subita|repentina)\s+(?:{_W}\s+)?(?:weakness|numbness|fraqueza|dormencia|confusion"
        r"|confusao|vision loss|perda de visao)\b",
    ),
    _rule(
        "neuro.seizure", _NEURO,
        r"\b(?:seizures?|seizing|convuls\w*|epileptic (?:fit|attack|seizure)|ataque epile\w*"
        r"|crise convulsiva|crise epile\w*|ataque de epilepsia)\b",
    ),
    _rule(
        "neuro.headache", _NEURO,
        r"\bworst headache\b|\bpior dor de cabeca\b",
        rf"\b(?:sudden|thunderclap|explosive)\s+(?:{_W}\s+)?headache\b",
        rf"\bheadache\s+(?:{_W}\s+)?(?:came on )?(?:suddenly|out of nowhere)\b",
        rf"\bdor de cabeca\s+(?:{_W}\s+){{0,2}}(?:subita|repentina|de repente|explosiva|insuportavel"
        r"|mais forte da (?:minha )?vida|do nada)\b",
        r"\b(?:subita|repentina|explosiva|fortissima)\s+dor de cabeca\b",
        r"\b(?:stiff neck|rigidez (?:na|de) nuca|nuca rigida)\b",
    ),
    _rule(
        "cardiac.arrest", _CARDIO,
        r"\b(?:not|isn'?t|is not|stopped|has stopped|no longer)\s+breathing\b|\bno pulse\b"
        r"|\bcardiac arrest\b|\bheart (?:has )?stopped\b",
        rf"\bparada cardi\w+|\bsem pulso\b|\bparou de respirar\b|\b{_NAO} (?:esta|ta) respirando\b"
        r"|\bcoracao parou\b",
    ),
    _rule(
        "cardiac.heart_attack", _CARDIO,
        r"\bheart ?attack\b|\bmyocardial infarction\b",
        r"\b(?:infarto|infarte|enfarte|enfarto|infartando|infartou|enfartando|enfartou|infart\w*)\b",
        r"\bataque (?:cardiaco|do coracao)\b",
    ),
    _rule(
        "cardiac.chest_pain", _CARDIO,
        rf"\b{_CHEST}\s+(?:pain|pains|pressure|tightness|heaviness|ache|aches|hurts?|hurting|discomfort"
        r"|squeez\w*|crushing|is (?:hurting|killing|tight|heavy|burning))\b",
        rf"\b(?:pain|pressure|tightness|heaviness|squeezing|crushing|ache|weight)\s+(?:{_W}\s+){{0,2}}?"
        rf"(?:in|on|across|around)\s+(?:the\s+(?:middle|center|centre|left side|right side)\s+of\s+)?"
        rf"(?:{_WHOSE}\s+)?{_CHEST}\b",
        rf"\b{_CHEST}\s+(?:feels|is|felt)\s+(?:{_W}\s+)?(?:tight|heavy|crushed|like)\b",
        rf"\b(?:sitting|pressing|squeezing|weight)\s+on\s+(?:{_WHOSE}\s+)?{_CHEST}\b",
        r"\bheart\s+(?:pain|hurts|is hurting)\b|\b(?:dor|dores)\s+no\s+coracao\b",
        rf"\bcoracao\s+(?:{_W}\s+)?doendo\b",
        rf"\b(?:dor|dores|dorzinha|aperto|pressao|peso|pontada|pontadas|queimacao|angustia)\s+(?:{_W}\s+)"
        rf"{{0,3}}?(?:n[oa]|em|do|da|meu|minha|ao|pelo)\s+(?:meu\s+)?{_PEITO}\b",
        rf"\b{_PEITO}\s+(?:{_W}\s+)?(?:doendo|doi|doeu|apertado|apertando|pesado|queimando|ardendo)\b",
        r"\bdor (?:precordial|toracica)\b",
    ),
    _rule(
        "respiratory.cannot_breathe", _CARDIO,
        rf"\b{_CANT}\s+(?:{_W}\s+)?(?:breathe?|breath|catch (?:my|his|her|their) breath)\b",
        r"\bcan (?:barely|hardly) breathe?\b|\b(?:barely|hardly) breathing\b",
        rf"\b(?:difficulty|trouble|struggling|struggle|hard time|problems?)\s+(?:{_W}\s+)?breathing\b",
        r"\b(?:hard|difficult|struggling|impossible)\s+to\s+breathe?\b",
        r"\b(?:gasping|choking|suffocating)\b",
        rf"\b(?:severe|sudden|extreme|serious|intense|terrible|very|really|so)\s+(?:{_W}\s+)?"
        r"short(?:ness)? of breath\b",
        rf"\b{_NAO}\s+(?:{_W}\s+){{0,2}}(?:consig\w*|conseg\w*)\s+(?:{_W}\s+)?respirar\b",
        r"\b(?:mal|sem)\s+conseg\w*\s+respirar\b",
        rf"\bfalta de ar\s+(?:{_W}\s+)?(?:intensa|forte|muito forte|grave|severa|subita|repentina|terrivel"
        r"|horrivel|absurda)\b",
        r"\b(?:muita|intensa|forte|grave|severa|subita|tanta)\s+falta de ar\b",
        r"\b(?:sufocando|sufocad[oa]|asfixia\w*|engasgad[oa]|engasgando)\b",
        rf"\b(?:dificuldade|dificil)\s+(?:{_W}\s+)?(?:para|pra|de|em)\s+respirar\b",
        r"\b(?:fiquei|estou|to|ficando|fico|ficou|esta|ta)\s+sem\s+ar\b",
    ),
    _rule(
        "respiratory.cyanosis", _CARDIO,
        rf"\b(?:lips?|face|skin|fingers?)\s+(?:{_W}\s+)?(?:turning|turned|going|are|is|look|looks)\s+"
        rf"(?:{_W}\s+)?(?:blue|purple|grey|gray)\b",
        r"\bblue lips\b",
        rf"\b(?:labios?|boca|dedos|rosto|pele)\s+(?:{_W}\s+){{0,3}}(?:roxos?|roxas?|azuis|azulad[oa]s?"
        r"|arroxead[oa]s?)\b",
        # A person turning purple; a limb "ficou roxo" after a fall is a bruise.
        rf"\b(?:ele|ela|bebe|nenem|crianca|meu filho|minha filha|meu pai|minha mae)\s+(?:{_W}\s+)?"
        r"(?:ficando|ficou)\s+rox[oa]\b",
    ),
    _rule(
        "cardiac.fainting", _CARDIO,
        r"\b(?:fainted|fainting|feel(?:ing)? faint|passed out|passing out|blacked out|collapsed"
        r"|collapsing)\b",
        r"\b(?:desmaiei|desmaiou|desmaio|desmaios|desmaiando|desmaiar|desmaiad[oa]|desmaiaram|apaguei"
        r"|perdi os sentidos|perdeu os sentidos)\b",
    ),
    _rule(
        "bleeding.heavy", _BLEEDING,
        r"\b(?:heavy|heavily|severe|lots of|a lot of|uncontrolled|uncontrollable|profuse|massive)"
        r"\s+bleeding\b",
        r"\bbleeding\s+(?:heavily|a lot|badly|profusely|everywhere|non-?stop|like crazy)\b",
        r"\b(?:won'?t|wont|doesn'?t|does not|will not|can'?t|cannot|couldn'?t)\s+stop"
        r"\s+(?:the\s+)?bleeding\b",
        r"\bbleeding\s+(?:that\s+|and\s+it\s+|and\s+)?(?:won'?t|doesn'?t|does not|will not|isn'?t going to)"
        r"\s+stop\b",
        r"\bblood\s+(?:is\s+)?(?:everywhere|gushing|spurting|pouring)\b",
        rf"\bsangramento\s+(?:{_W}\s+)?(?:que {_NAO} para|intenso|forte|muito forte|grave|abundante"
        rf"|sem parar|que {_NAO} estanca|enorme)\b",
        r"\bsangrando\s+(?:muito|sem parar|demais|bastante|horrores)\b",
        rf"\b(?:muito|muita)\s+sangue\b|\bsangue\s+(?:jorrando|{_NAO} para|{_NAO} estanca|por todo lado)\b",
        rf"\b{_NAO}\s+(?:{_W}\s+)?para\s+de\s+sangrar\b|\bhemorrag\w+|\bhemorrhag\w+",
    ),
    _rule(
        "bleeding.blood_from_mouth", _BLEEDING,
        rf"\b(?:vomit\w*|throw\w* up|threw up|cough\w*|spit\w*)\s+(?:up\s+)?(?:{_W}\s+)?blood\b",
        rf"\bblood\s+in\s+(?:{_WHOSE}\s+)?(?:vomit|stool|poop)\b|\bblack(?:,)? tarry stools?\b",
        rf"\b(?:vomit\w*|tossindo|tossir|tosse|tossi|tossiu|cuspindo|cuspir|cuspi|cuspiu|escarrando"
        rf"|golfando)\s+(?:com\s+)?(?:{_W}\s+)?sangue\b",
        r"\bsangue\s+no\s+vomito\b|\bhematemes\w+|\bhemoptis\w+|\bfezes\s+pretas\b",
    ),
    _rule(
        "allergic.anaphylaxis", _ALLERGIC,
        r"\banaphyla\w+|\banafila\w+",
        rf"\b(?:throat|tongue|lips?|face|mouth)\s+(?:is\s+|are\s+|feels\s+)?(?:{_W}\s+)?(?:swell\w*|swollen"
        r"|closing|tight\w*)\b",
        rf"\bswell\w*\s+(?:of\s+|in\s+)?(?:{_WHOSE}\s+)?(?:throat|tongue|lips?|face)\b",
        rf"\bgarganta\s+(?:{_W}\s+)?(?:fechando|fechou|fechada|trancando|trancou|inchando|inchada|inchou"
        r"|apertando)\b",
        rf"\b(?:lingua|labios?|boca|rosto|cara)\s+(?:{_W}\s+){{0,2}}(?:inchad[oa]s?|inchando|inchou|inchaco)\b",
        r"\b(?:inchaco|incha\w*)\s+(?:na|da|no|nos|nas|de)\s+(?:garganta|lingua|labios?|boca|rosto)\b",
        r"\b(?:severe allergic reaction|reacao alergica (?:grave|forte|severa|seria))\b",
    ),
    _rule(
        "trauma.open_fracture", _TRAUMA,
        rf"\bbones?\s+(?:{_W}\s+){{0,4}}?(?:sticking|poking|coming|popping)\s+(?:out|through)\b"
        r"|\bbones?\s+through\s+"
        r"(?:the\s+)?skin\b|\b(?:open|compound)\s+fracture\b",
        # "o osso da minha perna está saindo pra fora": a few words may sit between.
        rf"\bfratura\s+exposta\b|\bosso\s+(?:{_W}\s+){{0,4}}?"
        r"(?:para fora|pra fora|saindo|exposto|aparecendo|furou)\b",
    ),
    _rule(
        "trauma.head_injury", _TRAUMA,
        rf"\b(?:hit|hits|bumped|banged|struck|hurt|injured|cracked|smashed)\s+(?:{_W}\s+)?head\b"
        rf"|\bhead\s+(?:injury|trauma|wound|knock)\b|\bfell\s+(?:on|onto)\s+(?:{_W}\s+)?head\b"
        rf"|\b(?:pancada|batida|bateu|bati|bateram|trauma|machucou|machuquei|ferimento|corte|caiu|cai)\s+"
        rf"(?:{_W}\s+){{0,2}}?(?:a |na |com a |da )?cabeca\b|\bcaiu de cabeca\b",
        also=r"\b(?:confus\w*|disoriented|dizzy|drowsy|vomit\w*|throwing up|can'?t remember|doesn'?t remember"
             r"|memory|passed out|blacked out|unconscious|seeing double|slurr\w*|desorientad\w*|tont[oa]"
             rf"|sonolent\w*|{_NAO} (?:lembra|se lembra|reconhece)|esquec\w*|desmai\w*|apagou"
             r"|visao dupla|fala enrolada|sangrando muito)\b",
    ),
    _rule(
        "trauma.head_injury", _TRAUMA,
        r"\btraumatismo craniano\b|\bskull fracture\b|\bfratura (?:de|no) cranio\b",
    ),
    _rule(
        "trauma.penetrating", _TRAUMA,
        r"\b(?:was|been|got|get|is|has been)\s+(?:shot|stabbed)\b|\bgunshot\b|\bstab wound\b",
        r"\b(?:levou|levei) (?:um |uns )?(?:tiro|tiros|facada|facadas)\b|\bbaleado\b|\bbaleada\b"
        r"|\besfaquead[oa]\b",
    ),
    _rule(
        "trauma.burn", _TRAUMA,
        r"\b(?:severe|bad|serious|major|big|large|deep|third[- ]degree|3rd[- ]degree|second[- ]degree"
        rf"|2nd[- ]degree)\s+burns?\b|\bburns?\s+(?:all\s+)?over\s+(?:{_W}\s+)?(?:body|face|chest|arm|leg)\b",
        rf"\bqueimadura\s+(?:{_W}\s+)?(?:grave|seria|de (?:terceiro|3o?|segundo|2o?) grau|extensa|grande"
        r"|feia|enorme|profunda)\b|\bqueimaduras?\s+(?:de\s+)?(?:terceiro|segundo)\s+grau\b",
        rf"\b(?:queimou|queimei|queimad[oa])\s+(?:{_W}\s+){{0,2}}(?:todo|toda|inteiro|inteira|o rosto"
        rf"|a cara|o corpo)\b|\b(?:burned|burnt)\s+(?:{_W}\s+)?(?:face|whole|entire|body)\b",
    ),
)

# A negation cue right before the symptom, within the same clause: "no", "not having",
# "sem", "não tenho", "denies any". Only a few words may stand between cue and symptom, so
# "not normal chest pain" or "no trabalho, dor no peito" are not read as negations.
_QUALIFIER = (r"(?:any|a|an|the|more|further|new|recent|current|significant|real|severe|actual|obvious"
              r"|having|experiencing|feeling|mais|nova|novas|qualquer|uma|um|sentindo|tendo)\s+")
_NEGATION = re.compile(
    rf"(?:\b(?:no|not|never|without|zero|nenhuma?)\s+(?:{_QUALIFIER})?"
    r"|\bsem\s+(?:nenhuma?\s+|qualquer\s+|mais\s+)?"
    r"|\b(?:denies|deny|denied|nega|negou|nao tenho|nao tem|nao estou com|nao to com|nao sinto|nao senti"
    r"|nao tive|nunca tive|nunca senti|nao apresenta|don'?t have|doesn'?t have|do not have|does not have"
    r"|didn'?t have|haven'?t had|hasn'?t had|free of|haven'?t|hasn'?t|have not|has not|didn'?t|did not"
    rf"|nunca|jamais)\s+(?:{_QUALIFIER})?)$"
)
_CLAUSE_BREAK = re.compile(r".*(?:[,.;:!?]|\b(?:but|mas|and|e|porem|however|although|embora)\b)", re.S)


# A past event told as history ("I had a stroke two years ago and need a check-up", "tive um
# AVC há dois anos"): a past verb before the symptom and a long-past time in its clause, in
# a message that says nothing is happening now or again.
_PAST_VERB = re.compile(r"\b(?:had|suffered|survived|tive|teve|sofri|sofreu)\b")
_AMOUNT = (r"(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|several|many|a few|um|uma|dois"
           r"|duas|tres|quatro|cinco|seis|sete|oito|nove|dez|alguns|algumas|muitos|varios|uns)")
_LONG_AGO = re.compile(
    rf"\b{_AMOUNT}\s+(?:years?|months?)\s+ago\b|\blast year\b|\bin (?:19|20)\d\d\b"
    rf"|\bha\s+{_AMOUNT}\s+(?:anos?|meses)\b|\b{_AMOUNT}\s+(?:anos?|meses)\s+atras\b"
    r"|\bano passado\b|\bem (?:19|20)\d\d\b"
)
_HAPPENING_NOW = re.compile(
    r"\b(?:again|another|today|tonight|this morning|right now|currently|still|same|back|returned"
    r"|recurring|started|since|having|happening|feel|feeling|i'm|i am|is|are|de novo|novamente"
    r"|outra vez|outro|outra|hoje|ainda|mesmos?|mesmas?|voltou|voltaram|comecou|desde|tendo"
    r"|acontecendo|sentindo|sinto|estou|esta|to|ta)\b"
)
_CLAUSE_END = re.compile(r"[,.;:!?]|\b(?:but|mas|and|e|porem|however|although|embora)\b")
# Told as negated or past, these still count: a wrong reading costs too much.
_ALWAYS_COUNTS = (_MENTAL, _POISONING)


def find_red_flag(message: str) -> RedFlag | None:
    """The first rule (in priority order) with a hit that is neither negated nor told as
    past history, or None."""
    text = normalize(message)
    history_possible = not _HAPPENING_NOW.search(text)
    for rule in RULES:
        if rule.also is not None and not rule.also.search(text):
            continue
        for m in rule.pattern.finditer(text):
            discounted = _negated(text, m.start()) or (history_possible and _past_event(text, m))
            if rule.category in _ALWAYS_COUNTS or not discounted:
                return RedFlag(rule.rule_id, rule.category)
    return None


def normalize(message: str) -> str:
    """Folded (from the composed form, so decomposed accents fold too), one space between
    words."""
    return " ".join(fold(unicodedata.normalize("NFC", message)).split())


def _past_event(text: str, hit: re.Match[str]) -> bool:
    clause = _CLAUSE_BREAK.match(text, 0, hit.start())
    start = clause.end() if clause else 0
    end = _CLAUSE_END.search(text, hit.end())
    stop = end.start() if end else len(text)
    return bool(_PAST_VERB.search(text, start, hit.start()) and _LONG_AGO.search(text, start, stop))


def _negated(text: str, start: int) -> bool:
    before = text[:start]
    clause = _CLAUSE_BREAK.match(before)
    return bool(_NEGATION.search(before[clause.end():] if clause else before))
