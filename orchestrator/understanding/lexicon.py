"""Word lists for understanding messages in Portuguese and English.

Every entry is a regular-expression fragment over *folded* text (lower case, accents removed, see
`language.fold`), matched on word boundaries. Keep the lists data only: the code that uses them lives
in `understand.py` and `when.py`.
"""

from orchestrator.understanding.conditions import CONDITION_WORDS
from runtime.text.calendar_words import EN_WEEKDAYS, PT_WEEKDAYS

# --- specialties offered by the mesh (clinic specialty ids as in deploy/registry.json) -------------------

# Organ words count only next to a doctor/clinic word: "pele" alone may be a symptom ("mancha na pele").
_DOCTOR_PT = r"(?:medic[oa]s?|doutor(?:a|es|as)?|especialistas?|consultas?|clinicas?)"
_DOCTOR_EN = r"(?:doctor|specialist|clinic|appointment|consultation)s?"
_PREP_PT = r"(?:(?:de|da|do|dos|das|pra|para|para o|para a|em|no|na)\s+)?"

SPECIALTIES: dict[str, tuple[str, ...]] = {
    "cardiology": (
        r"cardiolog\w*", r"cardio", r"cardiac[oa]?s?", r"cardiovascular",
        rf"{_DOCTOR_PT}\s+{_PREP_PT}coracao", rf"heart\s+{_DOCTOR_EN}s?",
        rf"{_DOCTOR_EN}\s+for\s+(?:my\s+|the\s+)?heart",
    ),
    "dermatology": (
        r"dermatolog\w*", r"dermato", r"derma", r"derm", r"dermatologic\w*",
        rf"{_DOCTOR_PT}\s+{_PREP_PT}pele", rf"skin\s+{_DOCTOR_EN}s?",
        rf"{_DOCTOR_EN}\s+for\s+(?:my\s+|the\s+)?skin",
    ),
    "orthopedics": (
        r"ortoped\w*", r"orthop(?:a)?ed\w*", r"orto", r"ortho", r"traumatolog\w*",
        rf"{_DOCTOR_PT}\s+{_PREP_PT}(?:osso|ossos|articulac\w+|coluna|joelho)",
        rf"(?:bone|joint|knee|spine)\s+{_DOCTOR_EN}s?",
        rf"{_DOCTOR_EN}\s+for\s+(?:my\s+|the\s+)?(?:bones?|joints?|knees?|back|spine)",
    ),
}

# Specialties no clinic offers; checked before SPECIALTIES so "ortodontista" is not read as "orto".
UNSUPPORTED_SPECIALTIES: tuple[str, ...] = (
    r"neurolog\w*", r"neuro", r"neurocirurgi\w*", r"neurosurg\w*",
    r"pediatr\w*", r"paediatr\w*",
    r"ginecolog\w*", r"gineco", r"gyn(?:a)?ecolog\w*", r"obgyn", r"ob-gyn", r"obstetr\w*",
    r"psiquiatr\w*", r"psychiatr\w*", r"psicolog\w*", r"psycholog\w*", r"terapeuta", r"therapist",
    r"oftalmolog\w*", r"ophthalmolog\w*", r"oculista", r"eye\s+doctor", r"medic[oa]\s+(?:de|dos)\s+olhos?",
    r"dentista", r"dentist", r"odontolog\w*", r"ortodont\w*", r"orthodont\w*",
    r"urolog\w*", r"endocrinolog\w*", r"endocrino", r"gastroenterolog\w*", r"gastro",
    r"oncolog\w*", r"otorrino\w*", r"ent\s+doctor", r"pneumolog\w*", r"pulmonolog\w*",
    r"nefrolog\w*", r"nephrolog\w*", r"reumatolog\w*", r"rheumatolog\w*", r"alergista", r"allergist",
    r"hematolog\w*", r"infectolog\w*", r"geriatr\w*", r"nutricionista", r"nutritionist",
    r"fisioterap\w*", r"physiotherap\w*", r"physical\s+therap\w*",
    r"cirurgiao\s+plastico", r"plastic\s+surgeon", r"clinico\s+geral", r"general\s+practitioner",
    r"family\s+doctor",
)

# Words before a doctor's first name that make it a place, not a doctor ("São Paulo", "Rua Helena").
PLACE_WORDS: frozenset[str] = frozenset({"sao", "santo", "santa", "rua", "av", "avenida", "praca", "alameda"})

# --- out of scope ---------------------------------------------------------------------------------------

# Opaque patient ids as issued by the clinics (e.g. CARD-A002); doctor ids (CARD-A-DR01) do not match.
PATIENT_ID = r"(?:card|derm|orth)-[a-f]\d{3}"

# Nouns naming someone's private data; followed by "of/do/da <someone>".
_DATA_EN = (r"(?:records?|file|chart|data|details|information|info|appointments?|bookings?|history|"
            r"medications?|meds|prescriptions?|diagnos[ie]s|exams?|tests?|results?|cpf|address|phone)")
_DATA_PT = (r"(?:dados|prontuario|ficha|historico|registro|cadastro|consultas?|agendamentos?|exames?|"
            r"informacoes|cpf|endereco|telefone|diagnostico|medicamentos|remedios|receitas?)")
_RELATIVE_PT = (r"(?:mae|pai|filh[oa]|espos[oa]|marido|mulher|irma[o]?|av[oa]|amig[oa]|vizinh[oa]|sogr[oa]"
                r"|cunhad[oa]|ti[oa]|prim[oa]|net[oa]|genro|nora|namorad[oa]|chefe|colega|padrasto|madrasta)")
_RELATIVE_EN = (r"(?:wife|husband|mother|mom|father|dad|son|daughter|brother|sister|friend|neighbou?r|aunt"
                r"|uncle|cousin|grandma|grandpa|grandmother|grandfather|boyfriend|girlfriend|boss|colleague"
                r"|roommate|mother-in-law|father-in-law)")

OTHER_PATIENT: tuple[str, ...] = (
    PATIENT_ID,
    r"who\s+else", r"quem\s+mais", r"which\s+patients", r"quais\s+(?:os\s+)?pacientes",
    r"(?:other|all|every|another|list\s+(?:of\s+)?(?:the\s+|all\s+)?)\s*patients?", r"patients?\s+list",
    r"patient\s+named", r"patients'",
    r"(?:outros?|outras?|todos\s+os|lista\s+(?:de|dos)|listar\s+(?:os\s+)?|liste\s+(?:os\s+)?)\s*pacientes",
    r"paciente\s+chamad[oa]", r"sobre\s+[oa]\s+paciente",
    r"who\s+(?:is|has|are)\s+(?:booked|scheduled|(?:an?\s+)?appointments?)",
    r"quem\s+(?:esta|estao|vai|tem)\s+(?:marcad[oa]|agendad[oa]|consulta)",
    rf"{_DATA_EN}\s+(?:of|for)\s+(?:my\s+)?{_RELATIVE_EN}", rf"my\s+{_RELATIVE_EN}'s\s+{_DATA_EN}",
    rf"{_DATA_PT}\s+d[aeo]\s+(?:minha|meu)\s+{_RELATIVE_PT}",
    rf"{_DATA_PT}\s+(?:d[oa]s?|de)\s+(?:outr[oa]s?\s+)?pacientes?",
    rf"{_DATA_EN}\s+(?:of|for)\s+(?:the\s+|a\s+|another\s+|other\s+)?patients?",
)
# "<Name>'s record", "dados do João": a name, checked in code to be neither the user's words nor a doctor.
POSSESSIVE_EN = rf"([a-z]+)'s\s+(?:medical\s+|health\s+|patient\s+|clinical\s+)?{_DATA_EN}"
OF_NAME_PT = rf"{_DATA_PT}\s+(?:d[oa]|de)\s+"
# "record of X", and "what medications is X taking" / "which drugs does X use".
OF_NAME_EN = rf"(?:{_DATA_EN}\s+(?:of|for)\s+|{_DATA_EN}\s+(?:is|does|did|has)\s+)"
NOT_A_PERSON: tuple[str, ...] = (
    "doctor", "doctors", "dr", "dra", "clinic", "clinics", "today", "tomorrow", "yesterday", "week",
    "month", *EN_WEEKDAYS, "it", "that",
    "this", "everyone", "anyone", "someone", "who", "what", "my", "your", "his", "her", "our", "their",
)

_SERIOUS = (r"(?:cancer|cancerous|melanoma|tumou?r|malignant|benign|serious|dangerous|infected|infection|"
            r"contagious|something\s+serious|allerg\w+|\w+itis)")
DIAGNOSIS: tuple[str, ...] = (
    r"do\s+i\s+have(?!\s+(?:an?\s+|any\s+|my\s+|the\s+)?(?:upcoming\s+|future\s+|next\s+|scheduled\s+)?"
    r"(?:appointments?|appts?|bookings?|slots?|visits?|"
    r"consultations?|anything|to|time|something\s+(?:booked|scheduled|coming\s+up|planned))\b"
    # "what appointments do i have coming up / booked / on the calendar": asking about one's bookings.
    r"|\s+(?:coming\s+up|booked|scheduled|planned|lined\s+up|left|next|on\s+(?:the\s+)?(?:calendar|books"
    r"|schedule))\b"
    r"|\s*(?:\?|$))",
    r"what\s+(?:disease|illness|condition|sickness|infection)\s+(?:do|could|might)\s+i",
    r"what(?:'s|\s+is)\s+wrong\s+with\s+me", r"am\s+i\s+sick", r"do\s+you\s+think\s+i\s+have",
    rf"is\s+(?:this|it|that|my\s+\w+)(?:\s+\w+)?\s+(?:an?\s+)?{_SERIOUS}",
    rf"(?:could|can|might)\s+(?:this|it|that)\s+be\s+(?:an?\s+)?{_SERIOUS}",
    # Asking for a diagnosis; "I was diagnosed with psoriasis" is history, not a request.
    r"(?:can\s+you\s+)?diagnose\s+(?:me|my|this|it)", r"(?:give|tell)\s+me\s+(?:a\s+|my\s+)?diagnosis",
    r"what(?:'s|\s+is)\s+my\s+diagnosis", r"me\s+diagnosti\w+",
    r"diagnostic(?:ar|ue)\s+(?:isso|meu|minha|o|a)",
    r"qual\s+(?:e\s+)?(?:o\s+)?meu\s+diagnostico", r"(?:me\s+)?(?:da|de|dar)\s+um\s+diagnostico",
    r"o\s+que\s+(?:eu\s+)?tenho(?!\s+(?:marcado|agendado))", r"que\s+doenca\s+(?:eu\s+)?(?:tenho|e\s+essa)",
    r"sera\s+que\s+(?:eu\s+)?(?:tenho|e|estou)",
    # A condition the patient states ("tenho diabetes e quero…") is fine; asking whether they have one is not.
    rf"(?:eu\s+)?tenho\s+(?:um\s+|uma\s+)?(?:{CONDITION_WORDS}|tumor|infeccao|alguma\s+doenca)\s*\?",
    r"(?:isso|isto|essa\s+\w+|esse\s+\w+|minha\s+\w+|meu\s+\w+)\s+(?:e|eh|pode\s+ser)\s+(?:um\s+|uma\s+)?"
    r"(?:cancer|melanoma|tumor|grave|maligno|maligna|benigno|benigna|perigos[oa]|contagios[oa])",
    r"estou\s+doente\s*\?", r"qual\s+(?:e\s+)?(?:a\s+)?minha\s+doenca",
    r"(?:e|eh|sera|seria)\s+(?:algo\s+)?(?:grave|serio|perigoso|cancer)\s*\?",
)

DOSAGE: tuple[str, ...] = (
    r"how\s+(?:many|much)\s+(?:mg|milligrams?|ml|pills?|tablets?|capsules?|drops?|doses?)",
    r"how\s+much\s+\w+(?:\s+\w+)?\s+(?:should|can|do)\s+i\s+(?:take|use|give)",
    r"(?:can|should|may|could)\s+i\s+(?:take|use|mix|combine|stop|double|skip|increase|decrease|reduce)"
    r"(?!\s+(?:the|an?|that|this|it|one|slot|appointment|option|earliest|first|second|third|last)\b)",
    r"(?:should|can)\s+i\s+(?:stop|keep|start)\s+taking", r"is\s+it\s+safe\s+to\s+(?:take|use|mix)",
    r"what\s+(?:medicine|medication|drug|pill|remedy)\s+(?:should|can|do)\s+i",
    r"(?:can|could|will|would)\s+you\s+prescribe", r"prescribe\s+me",
    # How much of a drug to take, in Portuguese: "quanto de dipirona eu tomo", "quantas gotas devo dar".
    r"quant[oa]s?\s+(?:de\s+)?(?:\w+\s+){0,2}?(?:eu\s+)?(?:tomo|devo\s+tomar|posso\s+tomar"
    r"|tenho\s+que\s+tomar"
    r"|dou|devo\s+dar|posso\s+dar)\b",
    # A prescription asked for or renewed: "give me a prescription for oxycodone", "refill my script",
    # "me passa uma receita de rivotril", "renovar minha receita".
    r"(?:give|write|get|send|issue|need|want)\s+(?:me\s+)?(?:an?\s+|the\s+|my\s+)?(?:new\s+)?(?:prescription"
    r"|script|rx)",
    r"(?:refill|renew)\s+(?:my\s+|the\s+|a\s+)?(?:\w+\s+)?(?:prescription|script|rx|meds|medication)",
    r"prescription\s+(?:for|of)\s+\w+",
    r"(?:me\s+)?(?:da|de|dar|passa|passe|manda|mande|faz|faca|fazer|preciso\s+de"
    r"|quero)\s+(?:uma\s+)?(?:nova\s+)?"
    r"receita\s+(?:de|do|da|para|pra)\s+(?!(?:bolo|comida|pao|torta|frango|carne|massa)\b)\w+",
    r"renov\w+\s+(?:a\s+|minha\s+)?receita",
    r"(?:medicine|medication|drug|pill|remedy)\s+for",
    r"dos(?:e|es|age|agem)", r"posologia", r"\d+\s*mg",
    r"quant[oa]s\s+(?:mg|miligramas?|ml|gotas|comprimidos|capsulas|doses|pilulas)",
    r"(?:posso|devo|pode|preciso)\s+(?:eu\s+)?(?:tomar|usar|misturar|parar\s+de\s+tomar|parar|aumentar"
    r"|diminuir|"
    r"dobrar|continuar\s+tomando)",
    r"qual\s+(?:remedio|medicamento|comprimido)", r"(?:remedio|medicamento)\s+(?:para|pra|contra)",
    r"receit(?:ar|e|a)\s+(?:um|uma|algum|alguma|o|a)?\s*(?:remedio|medicamento)",
    r"(?:pode|poderia)\s+(?:me\s+)?(?:receitar|prescrever)", r"me\s+(?:receit|prescrev)\w+",
)

_LAB_NOUN = (r"(?:blood\s+(?:test|work)|lab(?:oratory)?\s+(?:tests?|results?|work|report)|tests?|results?|"
             r"x[\s-]?rays?|scans?|mri|ct|ultrasound|ecg|ekg|echo(?:cardiogram)?|biopsy|"
             r"exames?\s+de\s+sangue|exames?|hemograma|raio[\s-]?x|ultrassom|ultrassonografia|ecografia"
             r"|ressonancia|tomografia|"
             r"eletrocardiograma|ecocardiograma|biopsia|laudo|resultados?|colesterol|glicemia|"
             r"photo|picture|image|foto|imagem)")
LAB_OR_IMAGE: tuple[str, ...] = (
    rf"(?:interpret\w*|read|explain\w*|analy[sz]\w*|check|look\s+at|review|understand)\s+(?:\w+\s+){{0,2}}"
    rf"{_LAB_NOUN}",
    rf"(?:interpret\w*|explic\w*|analis\w*|olh(?:a|e|ar)|le|leia|ler|entend\w*|avali\w*)\s+(?:\w+\s+){{0,2}}"
    rf"{_LAB_NOUN}",
    rf"(?:my|this|these|meu|meus|minha|minhas|esse|este|essa|esta)\s+(?:\w+\s+)?{_LAB_NOUN}"
    r"\s+(?:mean|means|say|says|show|shows|normal|ok|okay|good|bad|high|low|abnormal|significa|mostra|diz"
    r"|esta|"
    r"estao|e\s+normal|deu|deram|veio|vieram|saiu|alterad[oa]s?)",
    rf"(?:what\s+(?:does|do)|o\s+que\s+(?:significa|quer\s+dizer|diz|mostra))\s+(?:\w+\s+){{0,2}}{_LAB_NOUN}",
    rf"{_LAB_NOUN}\s+results?\s+(?:mean|significa|esta|estao|is|are)",
)

# Anyone's private contact details, a doctor's too ("o telefone pessoal do dr", "dr x's cell number"): not
# ours to give, whoever is named.
PRIVATE_CONTACT: tuple[str, ...] = (
    r"(?:telefone|celular|whatsapp|zap|numero|endereco|e-?mail|instagram)\s+(?:pessoal|particular|privado"
    r"|residencial)",
    r"(?:personal|private|home|cell|mobile)\s+(?:phone|number|cell|e-?mail|address|whatsapp)",
    r"(?:celular|whatsapp|zap|endereco\s+residencial)\s+d[oa]\s+(?:dr|dra|doutor[a]?|medic[oa])\b",
    r"where\s+does\s+(?:dr|dra|doctor|the\s+doctor)\s+\w+\s+live",
    r"onde\s+(?:o|a)\s+(?:dr|dra|medic[oa])\s+\w+\s+mora",
    # Passwords are never given, the clinic's wifi included: "qual a senha do wifi da clínica".
    r"(?:senhas?|passwords?|passcodes?)\s+(?:\w+\s+){0,2}?(?:wi-?fi|internet|rede|network)",
    r"(?:wi-?fi|internet|network)\s+(?:passwords?|senhas?)",
)

# Documents only a doctor who examined the patient may issue: a sick note, a medical certificate, a report.
MEDICAL_PAPERWORK: tuple[str, ...] = (
    r"sick\s+(?:note|leave\s+(?:note|form|certificate))", r"doctor'?s\s+note",
    r"medical\s+(?:certificate|note|report)", r"fit\s+(?:note|for\s+work\s+(?:note|certificate))",
    r"note\s+for\s+(?:work|school|my\s+(?:boss|employer))",
    r"atestados?(?:\s+medicos?)?", r"licenca\s+medica", r"laudo\s+(?:medico|para|pra|pro)",
    r"declaracao\s+de\s+comparecimento",
)

# Clearly not healthcare; only decisive when nothing about scheduling or health was recognised.
NOT_HEALTHCARE: tuple[str, ...] = (
    r"weather", r"forecast", r"rain(?:ing|y)?",
    # "como tá o tempo em sp", "o tempo amanhã": the weather, not a duration ("quanto tempo dura").
    r"como\s+(?:\w+\s+){0,2}?o\s+tempo", r"o\s+tempo\s+(?:em|no|na|amanha|hoje|agora)",
    r"previsao\s+do\s+tempo", r"vai\s+chover", r"chuva", r"clima",
    r"football", r"soccer", r"futebol", r"world\s+cup", r"copa\s+do\s+mundo", r"placar",
    r"campeonato", r"partida", r"time\s+de\s+futebol", r"basketball", r"nba",
    r"code", r"coding", r"python", r"javascript", r"java", r"programa\w*", r"codigo", r"script", r"sql",
    r"recipe", r"receita\s+de\s+(?:bolo|comida|pao|torta|frango|carne|massa)", r"restaurant\w*",
    r"movie", r"film", r"filme", r"livros?", r"novels?", r"romances?",
    r"series", r"music", r"musica", r"song", r"cancao", r"jokes?", r"piadas?",
    r"stock", r"stocks", r"bitcoin", r"crypto\w*", r"acoes", r"bolsa\s+de\s+valores",
    r"dollars?", r"dolar(?:es)?", r"tip\s+on", r"gorjeta",
    r"translate", r"traduz\w*", r"capital\s+(?:of|da|do|de)", r"president\w*", r"election\w*", r"eleic\w*",
    r"politic\w*", r"news", r"noticias?", r"hotel", r"flight", r"voo", r"taxi", r"uber", r"poem", r"poema",
    r"homework", r"math", r"matematica", r"game", r"jogo",
    # Geography: "how tall is mount everest", "qual a montanha mais alta".
    r"mount\s+\w+", r"mountains?", r"montanhas?", r"everest", r"rios?\s+mais\s+\w+", r"longest\s+river",
    r"tax(?:es)?", r"impostos?(?:\s+de\s+renda)?", r"pizza", r"delivery", r"ifood", r"netflix", r"serie",
    r"spotify", r"novela",
    # Addresses' postal codes and bookings of other trades: "qual o cep da paulista", "a table for two",
    # "corte de cabelo", "aula de inglês", "car service".
    r"cep", r"zip\s+codes?", r"postal\s+codes?", r"codigo\s+postal",
    r"(?:a|an|uma|um)\s+(?:table|mesa)\s+(?:for|pra|para|no|na|at|in)", r"haircut", r"corte\s+de\s+cabelo",
    r"barbe(?:r|iro|aria)", r"cabeleireir[oa]", r"manicure", r"salao\s+de\s+beleza",
    r"aulas?\s+de\s+(?:ingles|espanhol|frances|violao|guitarra|piano|canto|danca|direcao)",
    r"(?:english|spanish|french|guitar|piano|singing|dance|driving)\s+(?:lessons?|class(?:es)?)",
    r"car\s+(?:service|wash)", r"oil\s+change",
    r"revisao\s+d[oa]\s+(?:meu\s+|minha\s+)?(?:carro|moto|bike|bicicleta)", r"lava\s*-?\s*jato",
    # Money and civil paperwork: "cotação do euro", "exchange rate", "renovar minha CNH", "passport".
    r"cotacao", r"cambio", r"exchange\s+rates?", r"currency", r"euros?", r"cnh", r"carteira\s+de\s+motorista",
    r"driver'?s\s+licen[cs]e", r"passaporte", r"passport",
    # Writing chores and sports results: "me ajuda a escrever um email", "who won the champions league".
    r"e-?mails?", r"essay", r"redacao", r"cover\s+letter", r"curriculo",
    r"(?:write|escrever|escreve)\s+(?:me\s+)?(?:an?\s+|um\s+|uma\s+)?(?:letter|carta|texto|story|historia"
    r"|post)",
    r"(?:trabalho|tarefa|dever|prova|licao|resumo)\s+(?:de\s+casa|escolar|da\s+(?:escola|faculdade)"
    r"|de\s+(?:historia|"
    r"geografia|matematica|portugues|ingles|quimica|fisica|filosofia|sociologia|literatura))",
    r"school\s+(?:project|assignment|essay|paper)", r"assignment", r"tcc",
    r"revolu\w+\s+(?:francesa|industrial|russa|americana)|(?:french|industrial|russian"
    r"|american)\s+revolution",
    r"(?:primeira|segunda)\s+guerra|world\s+war",
    r"league", r"champions", r"libertadores", r"brasileirao", r"who\s+won",
    r"quem\s+ganhou", r"super\s+bowl", r"olympics", r"olimpiadas", r"formula\s+1", r"f1",
    # Verse and tickets: "write a haiku about my cat", "compra uma passagem pra salvador".
    r"haikus?", r"limericks?", r"sonnets?", r"lyrics", r"letra\s+de\s+musica", r"passage(?:m"
    r"|ns)", r"tickets?",
    # Repairs of things, not of bodies: "how do i fix my car's brakes", "como troco o óleo do carro".
    r"(?:fix|repair|change|replace|conserta\w*|consert\w*|arrum\w*|troc\w*)\s+(?:\w+\s+){0,3}?(?:(?:my|the|a"
    r"|o|a|minha"
    r"|meu)\s+)?(?:car|car's|carro|tires?|tyres?|pneus?|brakes?|freios?|oleo(?:\s+do\s+carro)?|oil|geladeira"
    r"|fridge"
    r"|refrigerator|washing\s+machine|maquina\s+de\s+lavar|laptop|notebook|computer|computador|celular|phone"
    r"|wifi|wi-fi|internet|bike|bicicleta|moto|torneira|faucet|chuveiro)",
    # Other places' hours and trips: "horário de funcionamento do banco", "when does the library open",
    # "horário do ônibus", "rota pro aeroporto", "how many km from lisbon to porto".
    r"pizzarias?", r"padarias?", r"lanchonetes?", r"bakery", r"hamburgueria",
    r"(?:que\s+horas|a\s+que\s+horas|when|what\s+time)\s+(?:\w+\s+){0,3}?(?:fecha|abre|closes?|opens?)\b",
    r"banco", r"bank", r"(?:super)?mercado", r"supermarket", r"post\s+office", r"correios", r"library",
    r"biblioteca", r"onibus", r"bus", r"aeroporto", r"airport", r"rota", r"route", r"\d*\s*km",
    # Papers, sums and pastimes: "meu resume in english", "summarize this article", "resolve essa equação",
    # "qual time vc torce", "a name for my dog", "the best phone to buy".
    r"resume", r"cv", r"summari[sz]e", r"equac\w*", r"equations?", r"torce\w*",
    r"(?:name|nome)\s+(?:for|pro|pra|para)\s+(?:my\s+|meu\s+|minha\s+|o\s+|a\s+)?(?:dog|cat|cachorro|gato|pet)",
    r"(?:phone|celular|laptop|notebook|tv|car|carro)\s+(?:to\s+buy|pra\s+comprar)",
    r"(?:tell\s+me\s+about|me\s+fala\s+(?:sobre|da|do))\s+(?:the\s+|a\s+)?(?:history|historia)\s+(?:of|da|do)",
    # Cooking a dish: "como faço bolo de cenoura", "how do i make pancakes".
    r"(?:make|bake|cook|fazer|faco|faz|assar|asso|preparar|preparo)\s+(?:an?\s+|um\s+|uma\s+|o\s+"
    r"|a\s+)?(?:\w+\s+)?"
    r"(?:cake|bolo|pancakes?|panquecas?|bread|pao|lasanha|lasagna|cookies?|biscoitos?|pizza|brigadeiro|pudim"
    r"|torta"
    r"|pie|muffins?|brownies?|omelet(?:te)?|omelete|strogonoff|feijoada|risot(?:to|o))",
)

# Words that keep a message about healthcare even when a NOT_HEALTHCARE word appears ("book" alone does not:
# "book a hotel").
HEALTHCARE_CONTEXT: tuple[str, ...] = (
    r"consultas?", r"appointments?", r"medic[oa]s?", r"doctors?", r"dr", r"dra", r"doutor[a]?", r"clinicas?",
    r"clinics?", r"bookings?", r"agendamentos?", r"marcac\w+",
    r"hospital", r"saude", r"health", r"exames?", r"pacientes?", r"patients?",
)

# --- scheduling intents ---------------------------------------------------------------------------------

_BOOKING = r"(?:consulta|agendamento|marcacao|reserva|appointment|booking|consultation|visit|reservation)"
CANCEL: tuple[str, ...] = (
    # "desmarque": the c of "desmarcar" is spelled qu before e.
    # "cancl", "kanselar", "cansela" too; a "cancellation slot" is a slot.
    r"(?!cancellation\s+(?:slots?|spots?"
    r"|list))[ck]an[cs]el\w*", r"cancl\w*", r"desmarc\w*", r"desmarqu\w*", r"call\s+(?:it\s+)?off",
    r"(?:delete|remove|drop)\s+(?:(?:my|the|this|that)\s+)?(?:\w+\s+)?(?:appointment|booking|consultation"
    r"|visit)",
    r"nao\s+(?:vou|posso)\s+mais\s+ir",
    # Any verb of undoing with one's booking as its object: "scrap my booking", "anula a consulta",
    # "tira minha consulta de quinta", "get rid of my friday appointment", "desisto da consulta".
    rf"(?:scrap|ditch|kill|nix|axe|erase|get\s+rid\s+of|anul\w*|exclu\w*|apag\w*|tir[ae]|tira\w*"
    rf"|remov\w*|descart\w*|desist\w*\s+d[aoe]|abr[ao]\s+mao\s+d[aoe])\s+(?:(?:my|the|this|that|a|o|minha"
    rf"|meu|essa|esse)"
    rf"\s+)?(?:\w+\s+)?(?:{_BOOKING}|appt|horario\s+marcado|horario\s+d[eao])\b",
    r"unbook\w*", r"take\s+me\s+off\s+(?:the\s+)?(?:schedule|list|calendar|books)",
    # "drop the first one", "scrap the first one on that list", "delete it": a listed booking as the object.
    r"(?:delete|remove|drop|scrap|ditch|nix|axe|erase|get\s+rid\s+of)\s+(?:it|(?:the|that|this)\s+(?:\w+\s+)?one"
    r"|(?:the\s+)?(?:first|second|third"
    r"|last|other))",
    # What was booked as the object: "drop everything I've booked", "remove whatever I scheduled".
    r"(?:delete|remove|drop)\s+(?:everything|all|whatever|what)\s+(?:that\s+)?(?:i|i've|ive)\s+(?:have\s+)?"
    r"(?:booked|scheduled|reserved)",
)
RESCHEDULE: tuple[str, ...] = (
    r"reschedul\w*", r"re-schedul\w*", r"rebook\w*", r"remarc\w*", r"reagend\w*", r"adia\w*", r"postpone\w*",
    r"antecip\w*", r"push\s+(?:it\s+|my\s+appointment\s+)?back", r"bring\s+(?:it\s+)?forward",
    r"push\s+(?:it|that|this|(?:(?:my|the)\s+)?(?:\w+\s+)?(?:appointment|booking|consultation|visit))"
    r"(?:\s+[\w.-]+){0,4}?\s+(?:back|forward|to|till|until)",
    # "move" is a booking verb only with a booking as its object ("move it", "move my appointment"),
    # never in "it hurts when I move my knee".
    r"(?:move[sd]?|moving)\s+(?:it|that|this|them|to|(?:(?:my|the|a|o|minha|meu)\s+)?(?:\w+\s+)?"
    r"(?:appointment|booking|consultation|slot|visit|one|consulta|agendamento|horario|marcacao|retorno))",
    # One's own specialty stands for its booking: "move my derm to tuesday", "move minha dermato pra terça".
    r"(?:move[sd]?|moving|mov[ae])\s+(?:my|minha|meu)\s+(?:cardio|derm|orto|ortho)\w*",
    r"(?:change[sd]?|switch(?:ed)?)\s+(?:it|that|(?:(?:my|the|a|o|minha|meu)\s+)?(?:\w+\s+)?"
    r"(?:appointment|booking|consultation|slot|visit|time|date|day|consulta|agendamento|horario|marcacao"
    r"|retorno))",
    rf"change[sd]?\s+to\s+(?:another|a\s+different|next|the|tomorrow|{'|'.join(EN_WEEKDAYS)}|\d)",
    r"switch\s+(?:it\s+)?to",
    r"(?:mud(?:ar|a|e|o)|troc(?:ar|a|o)|troque)\s+(?:a|o|minha|meu|para|pra|de|isso|ela)",
    rf"(?:mud(?:ar|a|e|o)|troc(?:ar|a|o)|troque)\s+(?:{_BOOKING}|appt)\b",
    r"pass(?:ar|a|e)\s+(?:ela\s+)?(?:para|pra)",
    r"pass(?:ar|a|e)\s+(?:a|o|minha|meu)\s+(?:consulta|agendamento|horario|marcacao)(?:\s+[\w.-]+){0,4}?\s+"
    r"(?:para|pra|pro|pr[oa]\s+dia)",
    r"transfer\w*\s+(?:a|o|minha|meu|it|my)",
    r"(?:move[sd]?|moving|mov[ae]|mude|muda|shift|passa)\s+(?:a\s+|o\s+)?[a-z]{4}-[a-z]-apt-[0-9a-f]{10}",
    r"bring\s+(?:it|my\s+\w+|the\s+\w+)\s+forward",
    r"(?:different|another|other)\s+(?:time|day|date)\s+for\s+(?:my|the)",
    r"outr[oa]\s+(?:horario|dia|data)\s+(?:para|pra)\s+(?:a\s+)?minha\s+consulta",
    # Thrown or pushed to another day: "jogar minha consulta pra sexta", "empurra meu retorno pro dia 3".
    rf"(?:jog|empurr|pux|bot|coloc)(?:ar|a|e|o)\s+(?:a\s+|o\s+)?(?:minha|meu)\s+(?:{_BOOKING}|retorno)"
    r"(?:\s+[\w.-]+){0,3}?\s+(?:para|pra|pro)\b",
)
# "I can't make it", "não vou poder ir": another time is asked for more often than nothing at all, unless the
# message also says cancel ("I can't make it on friday, cancel that appointment").
CANNOT_GO: tuple[str, ...] = (
    r"(?:can't|cant|cannot|won't|wont)\s+make\s+it",
    r"nao\s+(?:vou\s+)?(?:poder|posso|consigo|conseguir)\s+ir",
    # Something unforeseen: "something came up", "surgiu um imprevisto", "tive um imprevisto".
    r"something\s+(?:came|has\s+come|just\s+came)\s+up",
    r"(?:surgiu|tive|tivemos|aconteceu)\s+um\s+imprevisto",
    # Another day asked in its place: "can we do december 1st instead", "pode ser dia 2 em vez disso".
    r"(?:can|could)\s+(?:we|i|you)\s+(?:do|make\s+it|go\s+for|switch\s+to|change\s+(?:it\s+)?to)\s+"
    r"(?:[\w.:]+\s+){0,4}?instead\b",
    r"(?:pode|podemos|da\s+pra)\s+(?:ser|fazer|mudar\s+pra|passar\s+pra)\s+(?:[\w.:/]+\s+){0,4}?"
    r"(?:em\s+vez\s+disso|ao\s+inves\s+disso)",
)
# Unambiguous booking verbs.
BOOK: tuple[str, ...] = (
    # No "marco": folded, that is "março".
    r"book", r"marc(?:ar|a|ou|amos|aria|ando)", r"marqu(?:e|ei|em)", r"agend(?:ar|e|o|ou|amos|aria|ando)",
    r"reserv\w*",
    r"(?:i'll|i\s+will|i'd|i\s+would|let\s+me|ill)\s+(?:take|go\s+with|like\s+to\s+(?:book|take|have))",
    r"(?:let's|lets)\s+(?:go\s+with|do|book)", r"sign\s+me\s+up",
    # "make a dermatology appointment", "get an orthopedics consultation": up to two words between.
    r"(?:make|set\s+up|get)\s+(?:me\s+)?an?\s+(?:[\w-]+\s+){0,2}(?:appointment|consultation|visit)",
    r"(?:get|grab|snag)\s+me\s+(?:an?\s+|the\s+|that\s+)?(?:[\w-]+\s+){0,3}(?:slot|visit|time|spot"
    r"|appointment)",
    r"(?:schedule|marque|agende)\s+(?:me|an?|it|that|this|one|for\s+me|the\s+(?:earliest|soonest|first|next"
    r"|appointment|slot))",
    r"agenda\s+(?:com|pra\s+mim|para\s+mim|uma\s+consulta|consulta)",
    # Opening the message, "schedule" is the imperative ("schedule cardio appt tmrw 2:30pm"); "schedule for
    # cardiology?" still asks for the schedule.
    r"^\W*(?:please\s+)?schedule(?=\s+\w)(?!\s+(?:for|of|on|in|at|is|are|please|available)\b)",
    r"(?:to|please|can\s+you|could\s+you|i\s+want\s+to|i'd\s+like\s+to)\s+schedule",
    r"(?:i\s+(?:want|need|would\s+like)|i'd\s+like)\s+(?:to\s+(?:have|get)\s+)?(?:an?\s+)?(?:[\w-]+\s+){0,2}?"
    r"(?:appointment|consultation)(?!s)",
    r"(?:quero|queria|gostaria\s+de|preciso\s+de|preciso)\s+(?:fazer\s+)?(?:uma\s+)?consulta",
    r"fico\s+com", r"vou\s+(?:querer|de)", r"confirm\w*",
    # Being fitted in: "me encaixa no mais cedo", "can you squeeze me in", "fit me in".
    r"(?:me\s+)?encaix(?:a|e|ar|aria)(?:\s+(?:me|eu))?", r"(?:squeeze|fit|get)\s+me\s+in\b",
    # "lock in the 10:15 slot", "put me down for the last option".
    r"lock\s+(?:in|down)\s+(?:the|that|this|my|an?)\b",
    r"put\s+me\s+(?:down\s+)?(?:for|in)\s+(?:the|that|this|an?)\b",
)
# Weak booking cues ("quero o das 10h", "I want the second"): booking only with a slot reference.
BOOK_WEAK: tuple[str, ...] = (
    r"(?:quero|queria|escolho|prefiro|pego|(?:quero|queria|vou|posso)\s+pegar)\s+(?:o|a|esse|essa|este|esta|aquele"
    r"|aquela)",
    r"pode\s+ser\s+(?:o|a|esse|essa|este|esta)",
    # The imperative, with a time or a doctor: "agenda cardiologista dia 4 as 14:30".
    # "agenda livre da dra X", "agenda disponível" ask for the schedule.
    r"^\W*agenda(?=\s+(?!(?:d[oa]s?|livre|livres|disponive(?:l|is)|aberta|vaga)\b)\w)",
    r"(?:i\s+want|i'd\s+like|i\s+choose|i\s+prefer|give\s+me)\s+"
    r"(?:the|that|this)",
    # The imperative with a slot named: "ok take the first slot", "grab the 10am one".
    r"(?:take|grab|pick|choose|go\s+for)\s+(?:the|that|this)",
    r"(?:that|this)\s+one", r"esse\s+mesmo", r"essa\s+mesma",
)
_BOOKING_PT = r"(?:consulta|agendamento|marcacao|horario\s+marcado|retorno)"
_BOOKING_EN = r"(?:appointment|booking|consultation|visit)"
# The booking already made, named by a relative clause: "a consulta que eu marquei", "the appt I booked".
_BOOKED_BEFORE = (rf"(?:{_BOOKING_PT}|{_BOOKING_EN}|horario|appt)s?(?:\s+[\w.]+){{0,3}}?\s+"
                  r"(?:(?:que|q|that|which)\s+)?"
                  r"(?:eu\s+|i\s+)?(?:tinha\s+|had\s+)?(?:marquei|agendei|reservei|peguei|fiz|marcado|agendado|booked"
                  r"|scheduled|made|reserved)")
# "tudo que eu marquei", "whatever I scheduled", "o q eu reservei": what was booked, named by a pronoun.
_BOOKED_WHAT = (r"(?:tudo|all|everything|whatever|what|aquilo|o|a|os|as)\s+(?:(?:que|q|that)\s+)?"
                r"(?:eu\s+|i\s+|i've\s+|ive\s+)(?:tinha\s+|had\s+|have\s+)?(?:marquei|agendei|reservei|marcado|agendado|booked|scheduled"
                r"|reserved)")
# Not a new booking: "cancel the one I booked".
BOOKED_BEFORE: tuple[str, ...] = (_BOOKED_BEFORE, _BOOKED_WHAT)
_DETAIL_PT = (r"(?:codigo|numero|id|identificador|protocolo|horario|hora|data|dia|local|endereco|"
              r"medic[oa]|doutor[a]?)")
_DETAIL_EN = r"(?:id|code|number|confirmation|time|date|day|place|address|location|doctor)"
MY_APPOINTMENTS: tuple[str, ...] = (
    # "my orthopedics appointments": plural, so "book my appointment" stays a booking.
    r"my\s+(?:upcoming\s+|next\s+|scheduled\s+)?(?:\w+\s+)?(?:appointments|bookings|consultations|visits"
    r"|reservations)",
    r"(?:am|are)\s+(?:i|we)\s+(?:still\s+)?(?:booked|scheduled)",
    # A booking named by its state: "consultas marcadas", "my booked appointments", "ainda está marcada?".
    r"(?:consultas|agendamentos|marcacoes|reservas)\s+(?:ja\s+)?(?:marcad|agendad|confirmad)[oa]s",
    r"(?:booked|scheduled|upcoming)\s+(?:appointments|bookings|visits)",
    # Whether one's booking stands: "minha consulta com a dra X tá confirmada?", "is my appt with dr X
    # confirmed?", "did my cardiology appointment get booked?", "pra quando ficou marcado meu retorno?".
    rf"(?:minha|meu)\s+(?:proxim[oa]\s+)?{_BOOKING_PT}\b(?:\s+[\w.]+){{0,6}}?\s+(?:esta|ta|ficou|foi"
    rf"|continua|segue)"
    r"\s+(?:mesmo\s+|realmente\s+)?(?:marcad|agendad|confirmad)[oa]",
    rf"(?:is|was|are)\s+(?:my|the)\s+(?:\w+\s+)?{_BOOKING_EN}s?\b(?:\s+[\w.]+){{0,5}}?\s+(?:still\s+)?"
    r"(?:on|booked|scheduled|confirmed)\b",
    rf"(?:did|has|have)\s+(?:my|the)\s+(?:\w+\s+)?{_BOOKING_EN}s?\b(?:\s+[\w.]+){{0,5}}?\s+(?:get|got|been|go"
    rf"|gone)\s+"
    r"(?:booked|scheduled|confirmed|through|thru)",
    r"(?:para|pra|pro)?\s*quando\s+(?:e\s+que\s+)?(?:ficou|esta|ta|foi)\s+(?:marcad|agendad)[oa]",
    r"(?:ficou|esta|ta|foi)\s+(?:marcad|agendad)[oa]\s+(?:para|pra|pro)\s+quando",
    rf"{_BOOKING_PT}\b(?:\s+[\w.]+){{0,4}}?\s+(?:continua|ainda\s+(?:esta|ta|continua))\s+"
    r"(?:marcad|agendad|confirmad)[oa]",
    rf"(?:is|are)\s+(?:my|the)\s+(?:\w+\s+)?{_BOOKING_EN}s?\s+still\s+(?:on|booked|scheduled|confirmed)",
    # The one already booked: "qdo é aquela consulta que eu marquei?", "when is the appt I booked?".
    rf"(?:quando|que\s+dia|que\s+horas|qual|when|what\s+(?:time"
    rf"|day))\b(?:\s+[\w.']+){{0,5}}?\s+{_BOOKED_BEFORE}",
    r"(?:minhas|meus)\s+(?:reservas|marcacoes)",
    # A booking someone else made: "minha filha marcou uma consulta pra mim", "my wife booked me an appt".
    rf"(?:marcou|marcaram|agendou|agendaram|booked|scheduled|made)\s+(?:me\s+)?(?:an?\s+|uma\s+"
    rf"|um\s+)?(?:\w+\s+)?"
    rf"(?:{_BOOKING_PT}|{_BOOKING_EN}|horario)\s+(?:\w+\s+){{0,3}}?(?:para\s+mim|pra\s+mim|for\s+me)",
    r"(?:nao\s+sei|i\s+don'?t\s+know|i\s+forgot|esqueci|nao\s+lembro"
    r"|i\s+can'?t\s+remember)\s+(?:\w+\s+){0,2}?"
    r"(?:(?:para|pra|pro)\s+)?(?:quando|que\s+dia|que\s+horas|when|what\s+(?:day|time))\s+(?:\w+\s+){0,2}?"
    r"(?:ficou|foi|e|sera|it\s+is|it's|its|is|it\s+was)\b",
    # Oneself booked: "tô marcado pra algum dia?", "estou agendada com a dra?", "am I down for friday?".
    r"(?:eu\s+)?(?:estou|to|tou|fiquei)\s+(?:marcad|agendad)[oa]",
    r"(?:i'm|im|i\s+am|am\s+i)\s+(?:still\s+)?(?:booked|scheduled|down)\s+(?:for|with|in|on)\b",
    r"(?:show|see|check|view|list|pull\s+up|bring\s+up|open)\s+(?:me\s+)?my\s+(?:\w+\s+)?"
    r"(?:appointments?|bookings?|reservations?|consultations?|visits?)",
    r"(?:when|where)\s+(?:do|will)\s+i\s+see\s+(?:the|my|a)\s+doctor",
    # "when am i seeing the dermatologist", "what day do i see dr paulo".
    r"(?:when|what\s+(?:day|time|date))\s+(?:am\s+i\s+(?:seeing|meeting)|do\s+i\s+see|will\s+i\s+see)\s+"
    r"(?:the|my|dr|dra|doctor)\b",
    # The ones one booked, listed or asked for: "lista as consultas que eu marquei", "list the appts i
    # booked".
    rf"(?:list\w*|lista|show|mostr\w*|ver|see|view|quais|which|what)\s+(?:me\s+)?(?:(?:the|as|os|all|todas|todos"
    rf"|sao|are|were)\s+)*{_BOOKED_BEFORE}",
    # The day it landed on: "que dia ficou minha consulta", "em que dia caiu meu retorno", "qual dia ficou
    # marcado meu retorno", "which day did my ortho visit end up on".
    rf"(?:qual|que|em\s+que|pra\s+que|para\s+que)\s+(?:dia|data|horario|hora|horas)\s+(?:que\s+)?(?:ficou|caiu"
    rf"|foi|esta|ta)\s+(?:(?:marcad|agendad)[oa]\s+)?(?:a\s+|o\s+)?(?:minha|meu)\s+(?:{_BOOKING_PT}|appt)",
    r"(?:qual|que|em\s+que)\s+(?:dia|data|horario|hora)\s+(?:que\s+)?(?:ficou|foi|esta|ta)\s+(?:marcad|agendad)[oa]",
    rf"(?:which|what)\s+(?:day|date|time)\s+did\s+(?:my|the)\s+(?:\w+\s+)?(?:{_BOOKING_EN}|appt)\s+(?:end\s+up"
    r"|get\s+(?:booked|scheduled|moved)|land)",
    r"what\s+(?:have\s+i|do\s+i\s+have)\s+(?:got\s+)?(?:booked|scheduled|coming\s+up)",
    r"(?:eu\s+)?tenho\s+(?:alguma\s+coisa|algo|algum\s+\w+|alguma\s+\w+)\s+(?:agendad[oa]|marcad[oa])",
    r"(?:eu\s+)?tenho\s+(?:algum|alguma|um|uma)\s+(?:booking|appointment|marcacao|retorno)",
    r"(?:quando|que\s+dia|que\s+horas)\s+(?:e|sera|vai\s+ser)\s+(?:a\s+)?minha\s+(?:proxima\s+)?(?:consulta"
    r"|marcacao)",
    r"(?:appointments?|bookings?|consultations?|visits?|reservations?)\s+(?:do\s+i\s+have|i\s+have"
    r"|have\s+i\s+(?:got|booked))",
    r"do\s+i\s+have\s+(?:an?\s+|any\s+)?(?:appointments?|bookings?|consultations?|visits?|anything\s+booked)",
    rf"(?:when|where|(?:what|which)\s+(?:time|day|date))\s+is\s+my\s+(?:next\s+)?(?:\w+\s+)?{_BOOKING_EN}",
    r"(?:show|see|check|view|list)\s+(?:me\s+)?my\s+(?:appointment|booking)",
    r"(?:minhas|meus)\s+(?:proximas\s+|proximos\s+)?(?:consultas|agendamentos|horarios\s+marcados|marcacoes|"
    r"appointments|bookings|appts)",
    # When was it booked for: "que dia eu marquei com a dra juliana", "when did I book with dr paulo".
    r"(?:quando|que\s+dia|que\s+horas|qual\s+(?:dia|horario|data))\s+(?:e\s+que\s+|foi\s+que\s+)?(?:eu\s+)?"
    r"(?:marquei|agendei|reservei)\b",
    r"(?:when|what\s+(?:time|day|date))\s+(?:did|have)\s+i\s+(?:book|booked|schedule|scheduled)\b(?!\s+(?:a"
    r"|an|the)\s+new)",
    # Asking that a booking made be checked: "podem confirmar se está marcada?", "check if it's booked".
    r"(?:confirm\w*|verific\w*|confer\w*|checa\w*|check|see)\s+(?:se|if|whether)\s+(?:[\w']+\s+){0,4}?"
    r"(?:esta|ta|ficou|foi|is|was|it's|got)\s+(?:mesmo\s+|really\s+|actually\s+)?"
    r"(?:marcad[oa]s?|agendad[oa]s?|confirmad[oa]s?|booked|scheduled|confirmed)",
    # Had, or "been with" ("tô com consulta agendada?").
    r"(?:eu\s+)?(?:tenho|(?:estou|to|tou)\s+com)\s+(?:alguma\s+|uma\s+|algum\s+|um\s+)?(?:consulta|agendamento"
    r"|horario\s+marcado|retorno"
    r"|marcacao|appointment|booking)",
    r"(?:quando|onde|que\s+horas)\s+(?:e|sera)\s+(?:a\s+)?minha\s+(?:proxima\s+)?consulta",
    r"(?:ver|mostr\w+|consultar|checar|conferir)\s+(?:a\s+|as\s+)?(?:minha|minhas)\s+consultas?",
    r"qual\s+(?:e\s+)?(?:a\s+)?minha\s+(?:proxima\s+)?consulta", r"o\s+que\s+(?:eu\s+)?tenho\s+marcado",
    r"what\s+(?:have\s+i|did\s+i)\s+(?:booked|book)",
    # "did I book something with Dr. X?", "eu marquei alguma coisa?": asking what was booked.
    r"(?:did|have)\s+i\s+(?:book|booked|schedule|scheduled|reserve|reserved)\s+(?:anything|something|any"
    r"|an?)\b",
    # Asked to be reminded: "remind me what i booked", "me lembra o que eu marquei".
    r"(?:remind\s+me|me\s+lembr\w+|lembr\w+\s+(?:pra|para)\s+mim)\s+(?:\w+\s+){0,2}?(?:what|when|which|where"
    r"|who"
    r"|of|about|o\s+que|quando|qual|quais|que\s+(?:dia|horas)|onde|d[ao]s?)\b",
    # Who or when one is seeing: "which doctor am I seeing tomorrow", "who am i seeing on friday",
    # "com qual médico eu vou amanhã", "qual médico vai me atender na sexta".
    r"(?:(?:which|what)\s+(?:doctor|dr|time|day)|who)\s+(?:am\s+i|i\s+am|i'm|im)\s+(?:seeing|meeting"
    r"|booked\s+with)",
    r"(?:com\s+)?(?:qual|que|quem)\s+(?:e\s+(?:o|a)\s+)?(?:medic[oa]|doutor[a]?|dra?)?\s*(?:eu\s+vou"
    r"|vou\s+passar|vai\s+me\s+atender"
    r"|me\s+atende|vai\s+me\s+ver)\b",
    r"(?:have\s+i\s+got|have\s+i|do\s+i\s+have|got)\s+anything\s+(?:booked|scheduled|on|coming|lined\s+up"
    r"|next|this"
    r"|tomorrow|today|for|in)\b",
    r"(?:what(?:'s|s|\s+is)|o\s+que\s+(?:tem|ha))\s+(?:on|in|na|no)\s+(?:my|minha|meu)\s+(?:schedule|agenda"
    r"|calendar"
    r"|calendario)",
    # A detail of one's booking: "onde fica a clínica da minha consulta", "qual o endereço da minha consulta".
    rf"(?:onde\s+(?:fica|e)|endereco|local|clinica|address|location|where)\s+(?:\w+\s+){{0,3}}?(?:d[ao]|of"
    rf"|for)\s+"
    rf"(?:minha|meu|my)\s+(?:\w+\s+)?(?:{_BOOKING_PT}|{_BOOKING_EN}|appt)\b",
    # Whether one did book: "marquei ou não marquei?", "eu marquei consulta com a dra beatriz?".
    r"(?:marquei|agendei|reservei)\s+ou\s+nao", r"^\W*(?:sera\s+que\s+)?(?:eu\s+)?(?:ja\s+)?(?:marquei"
    r"|agendei|reservei)\b[^?]*\?\W*$",
    # Still standing: "minha consulta de quarta continua de pé?", "is it still on".
    rf"{_BOOKING_PT}\b(?:\s+[\w.]+){{0,4}}?\s+(?:continua|ainda\s+(?:esta|ta)|esta|ta|segue)\s+(?:de\s+pe"
    rf"|valendo|mantid[oa])",
    # Mixed or plain: "quando é my next appointment?", "what time é a minha consulta?".
    rf"(?:quando|when|what\s+time|que\s+horas|que\s+dia|what\s+day)\s+(?:e|is|eh|sera)\s+(?:a\s+)?(?:my"
    rf"|minha|meu)\s+"
    rf"(?:next\s+|proxim[oa]\s+)?(?:\w+\s+)?(?:{_BOOKING_PT}|{_BOOKING_EN}|appt)\b",
    r"(?:eu\s+)?(?:marquei|agendei|reservei)\s+(?:alguma\s+coisa|algo|algum|alguma)\b",
    r"do\s+i\s+have\s+(?:anything|something)\s+(?:booked|scheduled|coming\s+up|planned|marked)",
    r"o\s+que\s+(?:eu\s+)?tenho\s+(?:agendad|marcad)[oa]s?",
    rf"(?:what\s+(?:time|day|date)|when|where)(?:\s+is|'s|s)?\s+my\s+(?:next\s+)?(?:\w+\s+)?{_BOOKING_EN}\b",
    r"(?:quais|que)\s+consultas\s+(?:eu\s+)?tenho",
    r"have\s+i\s+got\s+(?:any\s+|an?\s+)?(?:appointments?|bookings?)",
    # Which ones one has: "quais são as consultas que eu tenho marcadas?", "que agendamentos eu tenho".
    r"(?:quais|que)\s+(?:sao\s+)?(?:as\s+|os\s+)?(?:minhas\s+|meus\s+)?(?:consultas|agendamentos|marcacoes"
    r"|reservas|retornos)\s+(?:que\s+)?(?:eu\s+)?(?:tenho|marquei|agendei)",
    r"(?:quando|que\s+dia|que\s+horas)\s+(?:que\s+|e\s+que\s+)?(?:e|eh|sera|vai\s+ser)\s+(?:a\s+|o\s+)?(?:minha|meu)\s+"
    r"(?:proxim[oa]\s+)?(?:consulta|marcacao|retorno|agendamento|reserva)",
    # Kept under one's name: "os agendamentos no meu nome", "any appointments under my name?".
    rf"(?:{_BOOKING_PT}|{_BOOKING_EN}|marcacoe|reserva)s?\b(?:\s+[\w.]+){{0,3}}?\s+(?:no|em|in|under)\s+"
    r"(?:meu|my)\s+(?:nome|name)",
    # Booked by someone else, "for me" first: "minha filha marcou pra mim uma consulta".
    rf"(?:marcou|marcaram|agendou|agendaram|booked|scheduled|made)\s+(?:para\s+mim|pra\s+mim|for\s+me)\s+"
    rf"(?:an?\s+|uma\s+|um\s+)?(?:\w+\s+)?(?:{_BOOKING_PT}|{_BOOKING_EN}|horario)",
    # Its day forgotten: "esqueci o dia", "nao lembro o horario da consulta", "i forgot the date".
    r"(?:esqueci|nao\s+(?:me\s+)?lembro|i\s+forgot|i\s+can'?t\s+remember|i\s+don'?t\s+remember)\s+"
    r"(?:(?:d?[oa]|the|when|what)\s+)?(?:dia|data|horario|hora|day|date|time)\b",
    # Whether the booking went through: "se o meu agendamento deu certo", "minha marcação funcionou?".
    rf"(?:meu|minha|my|the|o|a)\s+(?:\w+\s+)?(?:{_BOOKING_PT}|{_BOOKING_EN}|reserva)\s+(?:\w+\s+)?(?:deu\s+certo"
    r"|funcionou|foi\s+(?:feit|concluid|efetuad)[oa]|went\s+through|worked|got\s+through|is\s+done)",
    # Mixed, one's own named: "qual o meu next appointment", "what's my próxima consulta".
    rf"(?:qual|quais|what's|whats|what\s+(?:is|are))\s+(?:e\s+|sao\s+)?(?:o\s+|a\s+|os\s+|as\s+)?"
    rf"(?:meu|minha|meus|minhas|my)\s+(?:next\s+|upcoming\s+|proxim[oa]s?\s+)?"
    rf"(?:{_BOOKING_PT}|{_BOOKING_EN}|appt|booking|marcacoe|reserva)s?\b",
    r"(?:qual|que)\s+(?:e\s+)?o\s+horario\s+da\s+minha\s+(?:proxima\s+)?consulta",
    # Asking about one's own booking: "qual o código da minha consulta?", "what's my appointment id?",
    # "minha consulta com o dr ricardo é que horas?", "what day is my dermatology appointment?".
    rf"{_DETAIL_PT}\s+(?:d[oa]|de)\s+(?:minha|meu)\s+(?:proxim[oa]\s+)?{_BOOKING_PT}",
    rf"(?:minha|meu)\s+(?:proxim[oa]\s+)?{_BOOKING_PT}\b(?:\s+[\w.]+){{0,5}}?\s+(?:e|sera|vai\s+ser|fica"
    rf"|esta)\s+"
    r"(?:(?:em\s+)?que|a\s+que|qual|quando|onde)\b",
    rf"(?:the\s+)?{_DETAIL_EN}(?:\s+(?:and|&)\s+(?:the\s+)?{_DETAIL_EN})?\s+(?:of|for|on)\s+my\s+"
    rf"(?:next\s+|upcoming\s+|scheduled\s+)?(?:\w+\s+)?{_BOOKING_EN}",
    rf"my\s+(?:next\s+)?(?:\w+\s+)?{_BOOKING_EN}(?:'s)?\s+{_DETAIL_EN}",
    rf"my\s+(?:next\s+)?(?:\w+\s+)?{_BOOKING_EN}\b(?:\s+[\w.]+){{0,5}}?\s+is\s+(?:at\s+|on\s+)?(?:what|which"
    rf"|when)\b",
)
# Asking which slots exist; beats a booking verb ("which slots can I book?").
LIST_QUESTION: tuple[str, ...] = (
    r"(?:quais|que)\s+(?:os\s+|sao\s+os\s+)?(?:horarios|vagas|dias|datas)(?!\s+(?:que|q)\s+(?:eu\s+)?(?:marquei"
    r"|agendei|reservei|tenho))",
    r"(?:which|what)\s+(?:slots|times|days|dates)", r"when\s+can\s+i\s+(?:book|schedule|come|see)",
    r"quando\s+(?:posso|consigo|da\s+para|tem)", r"(?:is|are)\s+there\s+any",
    r"any\s+(?:slots?|openings?|availability)", r"what(?:'s|\s+is)\s+(?:open|available|free)",
    r"(?:tem|ha)\s+(?:algum\s+|alguma\s+)?(?:horario|vaga|disponibilidade)",
)
# Words that ask for slots.
LIST: tuple[str, ...] = (
    r"list\w*", r"availab\w*", r"openings?", r"slots?", r"times", r"schedule", r"agenda", r"options",
    r"horarios?", r"vagas?", r"disponive(?:l|is)", r"disponibilidade", r"opcoes", r"livres?",
)
GENERAL_QUESTION: tuple[str, ...] = (
    # A nutrient's sources: "qual a melhor fonte de vitamina d", "good sources of iron".
    r"(?:fontes?|sources?)\s+(?:de|of)\s+(?!(?:that|this|it|isso|isto|the|a|an|essa|esse|dessa|desse|your"
    r"|sua|informac\w*|info)\b)[a-z]+",
    # An adverb in the question: "what exactly is sciatica", "o que exatamente é FA".
    r"what\s+(?:exactly|actually|really|precisely)\s+(?:is|are|causes|cause|does|happens)",
    r"o\s+que\s+(?:exatamente|realmente|afinal|de\s+fato)\s+(?:e|sao|causa|causam)",
    # Where a condition comes from (not "where does that come from", the answer's sources).
    r"where\s+(?:does|do|did)\s+(?!(?:that|this|it|these|those|the\s+(?:information|info|answer|data))\b)"
    r"(?:\w+\s+){1,3}come\s+from",
    r"de\s+onde\s+(?:vem|veio|vêm|surge|surgem|sai)\s+(?:o|a|os|as)\s+(?!informac|dado|resposta|numero)\w+",
    # How to change a value or a habit: "como faço pra baixar o colesterol".
    r"como\s+(?:(?:eu\s+)?faco|se\s+faz|a\s+gente\s+faz|faz|posso|consigo|da\s+pra|devo)\s+(?:pra\s+|para\s+)?"
    r"(?:baixar|abaixar|diminuir|reduzir|controlar|melhorar|aumentar|subir|evitar|prevenir|perder|tratar|aliviar)",
    # Passed between people: "pega de uma pessoa pra outra?", "can eczema spread from person to person?".
    r"(?:pega|passa|transmite|contagia|spreads?|passed|pass|transmitted)\s+(?:de\s+uma\s+pessoa|de\s+pessoa"
    r"|from\s+(?:one\s+)?person|from\s+someone|from\s+(?:other\s+)?people|person\s+to\s+person)",
    r"(?:can|could)\s+(?:you|i|one|people|someone)\s+(?:catch|get)\s+(?:\w+\s+){1,2}from\s+(?:someone"
    r"|somebody|others|other\s+people|another\s+person|a\s+person)",
    # Whether two are one: "é tudo igual ou tem diferença", "is there a difference".
    r"(?:e|eh|sao)\s+tudo\s+igual", r"(?:tem|ha|existe)\s+(?:alguma\s+)?diferenca",
    r"is\s+there\s+(?:a|any)\s+difference",
    # Its nature: "is psoriasis an autoimmune disease", "colesterol alto é genético?".
    r"(?:is|are)\s+(?:\w+\s+){1,2}(?:an?\s+)?(?:autoimmune|chronic|genetic|hereditary|inherited|contagious"
    r"|infectious|viral|bacterial)\b",
    r"(?:e|eh|sao)\s+(?:uma\s+doenca\s+)?(?:genetic|hereditari|autoimun|cronic|contagios|infeccios|viral"
    r"|bacterian)[oa]s?\b",
    r"fatores?\s+de\s+risco", r"risk\s+factors?", r"(?:pra|para)\s+(?:que|q)\s+serve",
    r"o\s+que\s+acontece\s+(?:quando|se|com)", r"what\s+happens\s+(?:when|if|to)",
    r"what\s+(?:is|are|causes|cause|does)", r"what's", r"how\s+(?:do|does|can|is|are|to|long|common)",
    r"why\s+(?:do|does|is|are|can)", r"(?:symptoms?|causes?|signs?|risks?|treatments?|prevention)\s+of",
    r"tell\s+me\s+about", r"explain", r"who\s+(?:is|are|gets)\s+(?:at\s+)?(?:risk|more\s+likely)",
    # Who a condition strikes: "who gets gout", "who can get shingles", "quem tem mais risco de diabetes".
    r"^\W*who\s+(?:gets?|can\s+get|usually\s+gets?|is\s+likely\s+to\s+get)\s+\w+",
    r"quem\s+(?:tem|pega|corre)\s+(?:mais\s+)?(?:risco|chance)",
    r"(?:what\s+is\s+the\s+)?outlook\s+for",
    # Either language's noun with either's preposition: "quais os symptoms de heart failure".
    r"(?:symptoms?|causes?|signs?|treatments?|sintomas|causas|sinais|tratamentos?)\s+(?:of|for|d[aeo]s?|para"
    r"|pra)",
    # Contagion asked in one word: "eczema pega?", "psoríase transmite?".
    r"(?:pega|se\s+pega|transmite|contagia|is\s+it\s+catching)\s*(?:\?|$)",
    # Where a value starts to count: "what counts as high blood pressure", "o que é considerado febre".
    r"what\s+(?:counts|qualifies)\s+as", r"what(?:'s|\s+is|\s+are)\s+considered",
    r"o\s+que\s+(?:conta|e\s+considerad[oa]|se\s+considera)", r"a\s+partir\s+de\s+quanto",
    r"quem\s+tem\s+(?:mais\s+)?risco",
    # Whether a condition shows: "colesterol alto dá sintoma?", "does high cholesterol cause symptoms?".
    r"(?:da|dao|causa|causam|tem|provoca|provocam|apresenta)\s+(?:algum\s+|alguns\s+|muitos\s+)?sintomas?",
    r"(?:does|do|can|will)\s+(?:\w+\s+){1,3}(?:cause|have|give\s+you|show)\s+(?:any\s+)?symptoms",
    # How many it touches: "how many people are affected by AF?", "quantas pessoas têm psoríase?".
    r"how\s+many\s+(?:\w+\s+)?(?:people|persons|adults|americans|brazilians|women|men|kids|children)\s+"
    r"(?:have|get|are\s+(?:affected|diagnosed|living|hit)|suffer|develop|die|live)",
    r"quant[oa]s\s+(?:\w+\s+)?(?:pessoas|brasileir[oa]s|adult[oa]s|mulheres|homens|criancas)\s+(?:tem|sofrem"
    r"|sao"
    r"|estao|pegam|desenvolvem|morrem|convivem|vivem)",
    r"prevalen\w+", r"incidence\s+of", r"incidencia\s+d[aeo]",
    r"difference\s+between", r"(?:is|are)\s+\w+\s+(?:contagious|hereditary|"
    r"genetic|curable|common|dangerous)", r"(?:can|does|do)\s+\w+\s+cause",
    r"o\s+que\s+(?:e|sao|causa|causam|significa)", r"como\s+(?:funciona|prevenir|tratar|evitar|se\s+pega|e)",
    r"por\s+que", r"porque",
    r"(?:quais\s+(?:sao\s+)?os\s+)?(?:sintomas|causas|sinais|riscos|tratamentos?)\s+(?:d[aeo]s?|para|pra"
    r"|contra)",
    r"(?:treatments?|therapies|therapy|cures?|remedies)\s+(?:of|for)",
    # "como se diagnostica dermatite?", "how is psoriasis diagnosed?".
    r"como\s+(?:se\s+)?(?:diagnostica\w*|trata\w*|previne\w*|prevenir|evita\w*|cura\w*|transmite\w*|pega\w*)",
    r"how\s+(?:is|are)\s+(?:\w+\s+){1,3}(?:diagnosed|treated|prevented|spread|transmitted|caught|cured)",
    # Whether a habit or a value is good or bad: "is coffee bad for your heart?", "pressão 14 por 9 é alta?".
    r"(?:is|are)\s+(?:\w+\s+){1,3}(?:bad|good|harmful|healthy|unhealthy|ok|okay)\s+for\s+(?:you|your|the|my"
    r"|health)",
    r"(?:faz|fazem)\s+(?:mal|bem)\s+(?:pr[oa]|para|a|ao|as|aos)\b",
    r"(?:e|eh|esta|ta)\s+(?:muito\s+)?(?:alt[oa]|baix[oa]|normal|elevad[oa])\s*\?",
    r"how\s+(?:much|many)\s+(?:\w+\s+){1,6}?(?:is|are)\s+(?:healthy|safe|enough|too\s+much|normal"
    r"|recommended)",
    r"(?:me\s+)?fal[ae]\s+sobre", r"expli(?:que|ca)", r"como\s+se\s+trata",
    r"(?:qual\s+(?:e\s+)?a\s+)?diferenca\s+entre",
    r"e\s+contagios[oa]", r"e\s+hereditari[oa]", r"tem\s+cura", r"pode\s+causar",
    # "artrose tem tratamento?", "is there a cure for eczema", "artrite e artrose são a mesma coisa?".
    r"tem\s+(?:tratamento|cura|remedio|solucao|jeito)",
    r"(?:is|are)\s+there\s+(?:an?\s+|any\s+)?(?:treatment|cure|therapy)",
    r"(?:a\s+)?mesma\s+coisa", r"(?:the\s+)?same\s+(?:thing|disease|condition|illness)",
    # "is acne caused by diet?", "can psoriasis be cured?", "a acne é causada pela alimentação?",
    # "enxaqueca tem a ver com estresse?".
    r"(?:is|are)\s+(?:\w+\s+){1,3}(?:caused|triggered|linked|related|connected|associated|made\s+worse)\s+"
    r"(?:by|to|with)",
    r"(?:can|could)\s+(?:\w+\s+){1,3}be\s+(?:cured|prevented|treated|reversed|avoided|inherited|passed\s+on)",
    r"(?:what|which)\s+(?:causes|triggers|foods?\s+(?:cause|trigger|help|worsen))",
    r"(?:causad[oa]s?|provocad[oa]s?|desencadead[oa]s?)\s+(?:por|pel[oa]s?)",
    r"tem\s+(?:a\s+ver|relacao|ligacao)\s+com",
    r"(?:esta|estao)\s+(?:relacionad|ligad|associad)[oa]s?\s+(?:a|com)",
    r"(?:pode|podem)\s+ser\s+(?:curad|prevenid|tratad|evitad|herdad|transmitid)[oa]s?",
    r"o\s+que\s+(?:piora|melhora|desencadeia|provoca)",
    # A reference value: "qual a frequência cardíaca normal?", "what's a healthy resting heart rate?".
    r"(?:qual|quais)\s+(?:e\s+|sao\s+)?(?:[ao]s?\s+)?(?:\w+\s+){1,3}(?:normal|normais|ideal|ideais"
    r"|saudave(?:l|is)"
    r"|recomendad[oa]s?)",
    r"(?:what(?:'s|\s+is|\s+are)|whats)\s+(?:an?\s+|the\s+)?(?:normal|healthy|ideal|good|safe|recommended)",
    r"how\s+(?:much|many|often)\s+(?:\w+\s+){0,2}(?:should|does|do)\s+(?:an?\s+)?(?:adults?|people|kids"
    r"|children"
    r"|person|someone|one)",
)

# A day one parts until or wishes well for ("até amanhã", "happy monday", "bom fim de semana").
_PARTING_DAY = (r"(?:amanha|tomorrow|tmrw|tmr|tonight|later|" + "|".join(PT_WEEKDAYS + EN_WEEKDAYS)
                + r"|(?:fim\s+de\s+|final\s+de\s+)?semana|weekend|week|feriado|holidays?|natal|christmas"
                r"|ano\s+novo|new\s+year)(?:-feira)?")
GREETING: tuple[str, ...] = (
    # First, before a greeting alone ("cya"): parting until, or wishing well for, a day ("até amanhã", "cya
    # tmrw", "happy monday", "bom fim de semana").
    rf"(?:ate|see\s+(?:you|ya|u)|cya|talk(?:\s+to\s+(?:you|u))?|ttyl)\s+(?:a\s+|na\s+|on\s+)?{_PARTING_DAY}",
    rf"(?:happy|feliz|have\s+a\s+(?:good|nice|great|happy)|enjoy\s+(?:your|the)|bo[am])\s+{_PARTING_DAY}",
    # Letters drawn out twice count too ("oii", "hii"; three times are cut by typos.corrected).
    r"hi+", r"hello", r"hey+", r"good\s+(?:morning|afternoon|evening|night)", r"thanks?", r"thank\s+you",
    r"cheers", r"bye", r"goodbye", r"see\s+(?:you|ya|u)(?:\s+(?:later|soon|around))?", r"cya", r"take\s+care",
    r"falou", r"flw", r"ola+", r"oi+e*",
    r"bo[mn]\s+dia+", r"boa\s+(?:tarde|noite)e*",
    r"(?:muito\s+)?obrigad(?:inh)?[oa]+", r"brigad[oa]+", r"brigadao", r"obg[ad]*", r"vlw", r"valeu+",
    r"tchau+", r"xau+",
    # Leaving: "gotta go", "ttyl", "g2g", "I'm off", "vou nessa", "bjs" (not "have to go to the clinic").
    r"(?:gotta|got\s+to|have\s+to|need\s+to|i\s+must)\s+(?:go|run|bounce)(?:\s+now)?(?!\s+(?:to|for)\b)",
    r"ttyl", r"g[2t]g", r"(?:i'?m|i\s+am)\s+off",
    r"have\s+a\s+(?:good|nice|great)\s+(?:one|day|night|evening|weekend)",
    r"(?:ja\s+)?(?:vou\s+(?:indo|nessa)|to\s+indo)", r"ja\s+vou", r"fui(?=\s*[,.!]|\s*$)",
    r"(?:tenho|preciso)\s+(?:que\s+|de\s+)?ir(?:\s+(?:agora|embora))?(?!\s+(?:a|ao|na|no|pra|para|em)\b)",
    r"bj[oa]?s?", r"beijos?", r"abracos?", r"abs",
    r"tmj", r"ty", r"tysm", r"tyvm", r"thnx", r"thanx", r"tnx", r"appreciate\s+it", r"much\s+appreciated",
    r"ate\s+(?:mais|logo|breve)",
    r"e\s+ai", r"eai", r"salve", r"fala\s+ai", r"yo", r"howdy", r"greetings",
    r"hiya", r"heya", r"hey\s+there",
    # A part of the day alone as a greeting, first in the message: "morning!", "afternoon, how's it going".
    r"^\W*(?:morning|afternoon|evening)(?=\s*[!,.])",
    # Laughter and a bare acknowledgement ("kkk beleza", "haha ok", "rs blz", "lol cool").
    r"k+", r"(?:ha){2,}h?", r"(?:he){2,}", r"(?:hi){2,}", r"rs(?:rs)*", r"lol", r"lmao", r"beleza", r"blz",
    r"show(?:\s+de\s+bola)?", r"massa", r"joia", r"cool", r"awesome", r"great", r"nice", r"legal",
)
# Small talk a whole message is ("how are you?", "quem é você?"), after any greetings ("hi, how are you
# doing?"): answered with the greeting and what the assistant can do, before any health-question reading.
_BOT = (r"(?:an?\s+|um\s+|uma\s+)?(?:robot|robo|bot|chatbot|machine|maquina|computer|computador|ai|ia|"
        r"inteligencia\s+artificial|human|humano|humana|real\s+person|person|pessoa(?:\s+de\s+verdade)?|"
        r"gente|de\s+verdade|real)")
SMALLTALK: tuple[str, ...] = (
    r"help", r"ajuda", r"socorro\s+com\s+o\s+app",
    r"how\s+(?:are|r)\s+(?:you|u|ya)(?:\s+doing)?(?:\s+today)?",
    r"how(?:'s|\s+is)\s+(?:it\s+going|everything|life)",
    r"how\s+are\s+things", r"how\s+have\s+you\s+been", r"what's\s+up", r"whats\s+up", r"sup",
    r"who\s+are\s+you", r"what\s+(?:can|do)\s+you\s+do", r"what\s+are\s+you",
    rf"(?:are|r)\s+(?:you|u)\s+{_BOT}",
    rf"(?:is\s+this|am\s+i\s+(?:talking|chatting|speaking)\s+(?:to|with))\s+{_BOT}",
    rf"(?:voce\s+|vc\s+|tu\s+)?(?:e|es)\s+{_BOT}",
    rf"(?:estou|to|tou)\s+(?:falando|conversando)\s+com\s+{_BOT}",
    r"(?:what(?:'s|\s+is)\s+your\s+name|qual\s+(?:e\s+)?(?:o\s+)?(?:seu|teu)\s+nome"
    r"|como\s+(?:voce\s+)?se\s+chama)",
    r"tudo\s+(?:bem|bom|certo|joia|tranquilo|beleza|em\s+ordem)(?:\s+(?:com\s+voce|contigo|ai))?",
    r"como\s+vai(?:\s+voce)?", r"como\s+(?:voce\s+)?(?:esta|vai\s+indo)", r"como\s+(?:tem\s+)?passado",
    r"quem\s+(?:e|es)\s+voce", r"o\s+que\s+voce\s+(?:faz|pode\s+fazer|sabe\s+fazer)",
    r"(?:what|how)\s+can\s+you\s+help(?:\s+me)?(?:\s+with)?", r"what\s+do\s+you\s+help\s+with",
    # "so what kind of stuff can you help me with", "what else can you do", "o que mais você sabe fazer?".
    r"(?:so\s+|and\s+|ok\s+)?what\s+(?:else|(?:kind|sort)s?\s+of\s+(?:stuff|things)|things"
    r"|services)\s+(?:can|do)\s+"
    r"(?:you|u)\s+(?:do|help(?:\s+me)?(?:\s+with)?|offer)",
    r"(?:e\s+|entao\s+)?o\s+que\s+mais\s+(?:voce\s+|vc\s+)?(?:faz|sabe\s+fazer|pode\s+fazer"
    r"|consegue\s+fazer)",
    r"(?:como|em\s+que|no\s+que)\s+(?:voce\s+)?(?:pode|consegue)\s+(?:me\s+)?ajudar",
    # An acknowledgement, thanks after it: "ok entendi", "ah tá, entendi", "got it, thanks", "makes sense".
    r"(?:(?:ok|okay|ah+|ta|certo|hmm+|alright|right|oh|ahh)[\s,.!]+)*(?:entendi|compreendi|entendido|saquei"
    r"|understood|got\s+it|i\s+see|makes\s+sense|noted|anotado)(?:[\s,.!]+(?:obrigad[oa]|thanks?|thank\s+(?:you|u)"
    r"|valeu|vlw|brigad[oa]))?",
    # Well-wishing: "hope your day is going well", "espero que esteja tudo bem".
    r"(?:i\s+)?hope\s+(?:your\s+day\s+is\s+going\s+well|you(?:'re|\s+are|r)?\s+(?:well|doing\s+well|good|ok"
    r"|having\s+a\s+good\s+day)|all\s+is\s+well)",
    r"espero\s+que\s+(?:(?:voce|vc)\s+)?(?:esteja|estejam|esta)\s+(?:tudo\s+)?(?:bem|otimo|bom)",
    r"(?:that's|thats|that\s+is|that\s+was|it's|its)\s+all(?:\s+(?:for\s+now|i\s+needed))?",
    r"(?:e\s+)?(?:so\s+isso|era\s+so\s+isso|e\s+isso)(?:\s+(?:por\s+hoje|mesmo))?",
)
YES: tuple[str, ...] = (
    r"yes", r"yeah", r"yep", r"sure", r"ok", r"okay", r"correct", r"right", r"sim", r"isso", r"certo",
    r"pode\s+ser", r"pode", r"claro", r"confirm\w*", r"perfeito", r"beleza", r"fechado",
)
NO: tuple[str, ...] = (
    r"no", r"nope", r"not\s+now", r"nao", r"negativo", r"deixa\s+pra\s+la", r"never\s+mind",
)

# The sources of the previous answer ("show source [1]", "mostre a fonte [1]", "de onde veio isso?").
_SOURCE_WORD = r"(?:sources?|fontes?|referenc\w*|citations?|citac\w*|refs?)"
_NUMBER_SIGN = r"(?:#|n[º°o]\.?|numero|number|num\.?)"
# What an answer may rest on besides its cited sources: "which study says that?", "link?".
_EVIDENCE_WORD = (r"(?:study|studies|estudos?|pesquisas?|research|papers?|artigos?|articles?|links?|urls?"
                  r"|sites?|websites?|paginas?|webpages?"
                  r"|trials?|ensaios?|evidence|evidencias?|proofs?|provas?|documents?|documentos?)")
# "what's the reference for number 2", "source do item 1", "which reference is number 2".
# A guideline as what an answer came from: "is that from a guideline?", "qual diretriz foi essa?".
_GUIDELINE_WORD = r"(?:guide?lines?|diretriz(?:es)?|protocol\w*|consensos?|consensus)"
_SOURCE_ITEM = (rf"{_SOURCE_WORD}\s+(?:(?:completa|complete|full|inteira|exata|exact)\s+)?"
                rf"(?:(?:for|of|is|do|da|de|e)\s+)?(?:the\s+|o\s+|a\s+)?"
                r"(?:item|number|numero|n[º°o]\.?|#)\s*(?P<n3>\d{1,2})\b")
# Where an answer came from, in any words: a word of provenance (a source, a study, a publication, what it
# is based on) and a word pointing back to the answer, in either order ("qual a bibliografia disso?", "isso
# tem embasamento científico?", "which journal published that", "cite what that last answer is based on").
_PROVENANCE = (rf"(?:{_SOURCE_WORD}|{_EVIDENCE_WORD}|{_GUIDELINE_WORD}|bibliograf\w*|bibliograph\w*|journals?"
               r"|revistas?|publica\w*|published|publications?|embasa\w*|fundament\w*|based|basead[oa]"
               r"|cite|cited|citou|cita)")
_BACK = (r"(?:that|this|isso|disso|isto|disto|(?:that|this|the|your)\s+(?:last|previous)\s+answer"
         r"|(?:a|essa|esta|sua)\s+(?:ultima\s+)?resposta(?:\s+anterior)?|(?:ess|est)[ae]\s+(?:info|informacao))\b")
SOURCES: tuple[str, ...] = (
    rf"{_PROVENANCE}(?:\s+[\w']+){{0,5}}?\s+{_BACK}", rf"{_BACK}(?:\s+[\w']+){{0,4}}?\s+{_PROVENANCE}",
    _SOURCE_ITEM.replace("?P<n3>", ""),
    rf"(?:show|see|open|display|give|list|mostr\w*|ver|abr\w*|exib\w*|quais)\s+(?:me\s+)?"
    rf"(?:(?:the|a|as|o|os|sao|all)\s+)?(?:\w+\s+)?{_SOURCE_WORD}",
    rf"{_SOURCE_WORD}\s*{_NUMBER_SIGN}?\s*\[?\d{{1,2}}", r"\[\d{1,2}\]",
    # Alone first, but not a nutrient's sources ("fonte de proteína", "sources of iron").
    rf"^\W*{_SOURCE_WORD}(?!\s+(?:de|of)\s+(?!{_BACK}))(?:\s+please|\s+por\s+favor)?",
    r"where\s+(?:does|did|do)\s+(?:that|this|it|these|those)\s+(?:\w+\s+)?come\s+from",
    # "where's that info coming from", "what is this answer based on".
    r"(?:where|what)(?:'s|s|\s+is|\s+are)\s+(?:that|this|it|these|those)(?:\s+(?:info\w*|answers?|advice|claims?"
    r"|data|recommendations?|numbers?))?\s+(?:coming\s+from|based\s+on)",
    r"de\s+onde\s+(?:veio|vem|vieram|saiu|tirou|voce\s+tirou)(?!\s+(?:a|o|as|os)\s+(?!informac|dado|resposta"
    r"|numero)\w)",
    r"where(?:\s+exactly)?(?:'d|\s+did|\s+do)\s+(?:you|u|ya)\s+(?:get|find|read|take|see|hear)\s+(?:that|this|it|these"
    r"|those|isso"
    r"|isto)",
    rf"(?:cite|citar?|name|share)\s+(?:\w+\s+)?{_SOURCE_WORD}",
    rf"{_SOURCE_WORD}\s+(?:(?:for|of|behind|de|da|do)\s+)?(?:that|this|it|isso|disso|essa|esse|dessa|desse"
    rf"|desta"
    r"|deste)\b",
    # Asked to tell it: "poderia informar a fonte?", "can you tell me the source", "me diz a referência".
    rf"(?:inform\w*|indic\w*|dizer|diga|diz|fala|passa|tell|let\s+me\s+know)\s+(?:me\s+)?(?:(?:a|as|o|os|the"
    rf"|your|sua)"
    rf"\s+)?{_SOURCE_WORD}",
    rf"(?:what(?:'s|s|\s+is|\s+are)|qual(?:\s+e)?|quais\s+(?:sao\s+)?)\s+(?:the|a|as|o|os|your|ur|tua|sua)?\s*"
    rf"{_SOURCE_WORD}",
    r"de\s+onde\s+(?:voce|tu)\s+(?:tirou|pegou|viu|leu)",
    r"(?:tirou|pegou|viu|leu|veio)\s+(?:isso\s+|isto\s+|essa\s+\w+\s+)?(?:ai\s+)?d[ae]\s+onde",
    # Where it is written or can be read: "isso tá escrito onde?", "where can i read that".
    r"(?:isso|isto|that|this|it)\s+(?:ta|esta|is|was)\s+(?:escrito|written|publicad[oa]|published)\s+(?:onde"
    r"|where)",
    r"onde\s+(?:ta|esta|fica|e\s+que\s+ta)\s+escrito", r"where\s+(?:is|was)\s+(?:that|this|it)\s+(?:written"
    r"|published|stated)",
    r"where\s+can\s+i\s+(?:read|see|find|check|look\s+up)\s+(?:that|this|it|more\s+about\s+(?:that|this|it))",
    r"onde\s+(?:eu\s+)?(?:posso|consigo|da\s+pra)\s+(?:ler|ver|achar|encontrar|conferir)\s+(?:isso|isto"
    r"|sobre\s+isso)",
    r"onde\s+(?:voce|vc|tu)\s+(?:leu|viu|achou|encontrou|tirou|pegou)\s+(?:isso|isto|ess[ae])",
    # Who says so: "according to whom?", "says who?", "segundo quem?".
    r"^\W*(?:according\s+to\s+(?:who|whom|what)|says\s+who|who\s+says|segundo\s+quem|de\s+acordo\s+com\s+quem"
    r"|quem\s+(?:disse|diz|falou))(?:\s+(?:exactly|exatamente|mesmo|then|entao))?\W*$",
    # How it is known: "how do you know that?", "como vc sabe disso?", "what are you basing that on".
    r"how\s+do\s+(?:you|u)\s+know\s+(?:that|this|it)", r"como\s+(?:(?:voce|vc|tu)\s+)?sabe\s+(?:disso|isso"
    r"|disto)",
    r"basing\s+(?:that|this|it)\s+on",
    r"where\s+(?:this|that|it|these|those)\s+(?:(?:information|info|answer|data|advice|claim)\s+)?(?:comes?"
    r"|came)"
    r"\s+from",
    # Cited outright: "cite it", "cite that please".
    r"^\W*(?:please\s+|pls\s+)?cite\s+(?:it|that|this|them)\b",
    # The evidence asked to be shown or read: "show me the evidence", "quero ver o documento", "can i read the
    # original paper".
    rf"(?:show|mostr\w*|quero\s+ver|queria\s+ver|i'd\s+like\s+to\s+(?:see|read)|can\s+i\s+(?:see|read)"
    rf"|posso\s+(?:ver|ler))"
    rf"\s+(?:me\s+)?(?:the|o|a|os|as|your|sua)\s+(?:original\s+)?{_EVIDENCE_WORD}\b",
    r"where(?:'s|\s+is|\s+are)\s+(?:that|this|these|those|the|your)\s+(?:(?:information|info|data|numbers?"
    r"|figures?"
    r"|stats?|statistics?|claims?|facts?|answer|advice|recommendations?)\s+)?(?:from|coming\s+from)",
    r"where\s+(?:does|did)\s+(?:that|this|the|your)\s+(?:information|info|answer|data)\s+come\s+from",
    r"(?:origem|procedencia)\s+(?:dessa|desta|da|de|disso|disto)",
    # The study, link or author behind the answer: "which study says that?", "isso vem de qual estudo",
    # "link?", "who published that", "manda o link".
    rf"(?:which|what|qual|que)\s+(?:\w+\s+)?{_EVIDENCE_WORD}\s+(?:says?|said|shows?|showed|diz|disse|mostra"
    rf"|mostrou"
    r"|fala|falou|afirma|sugere|suggests?|states?|claims?|supports?|backs|is\s+(?:that|this|it)|e\s+(?:esse"
    r"|essa|isso)"
    r"|foi)",
    # "qual diretriz você usou?", "which guideline did you follow?".
    rf"(?:which|what|qual|que|quais)\s+(?:\w+\s+)?(?:{_EVIDENCE_WORD}|{_SOURCE_WORD}|guide?lines?"
    rf"|diretriz(?:es)?)\s+"
    r"(?:voce|vc|you|u|did\s+(?:you|u))\s+(?:usou|used|use|citou|cited|cite|consultou|consulted|consult|seguiu|followed"
    r"|follow)\b",
    # The evidence asked for in a few words: "which study?", "tem o link?", "got a link for that?".
    rf"^\W*(?:(?:u|you|vc|voce)\s+)?(?:which|what|qual|quais|que|tem|got|have\s+you\s+got|do\s+you\s+have|any"
    rf"|is\s+there)\s+"
    rf"(?:(?:a|an|the|o|a|os|as|algum|alguma|any)\s+)?(?:{_EVIDENCE_WORD}|{_SOURCE_WORD})"
    r"(?:\s+(?:for|4|to|of|on|d[aeo]|pra|sobre)?\s*(?:(?:that|this)\s+one|that|this|it|isso|essa|esse|disso"
    r"|dessa"
    r"|desse))?\W*$",
    # "which study was that from?", "qual estudo foi esse?".
    rf"(?:which|what|qual|que)\s+{_EVIDENCE_WORD}\s+(?:was|is|e|foi|era)\s+(?:that|this|it|isso|esse|essa)\b",
    r"(?:vem|veio|vieram|comes?|came|saiu|tirad[oa]|taken)\s+(?:de|from)\s+(?:qual|que|which|what|onde"
    r"|where)",
    rf"(?:de|from|em|in)\s+(?:qual|que|which|what)\s+(?:\w+\s+)?{_EVIDENCE_WORD}\s+(?:\w+\s+)?"
    r"(?:veio|vem|saiu|foi|is|was|came|comes|esta|isso|isto|that|this|tirou|pegou|leu|viu|got|took|read)",
    r"(?:isso|isto|that|this|it|ess[ae]\s+\w+)\s+(?:e|eh|is|was|foi|vem|veio|comes?|came|ta|esta|aparece"
    r"|consta"
    r"|appears?|shows\s+up)\s+(?:de|from|em|in|no|na)\s+(?:qual|que|which|what)\b",
    # What says so, a guideline too: "qual diretriz diz isso", "which guideline says that?".
    rf"(?:which|what|qual|que|quais)\s+(?:\w+\s+)?(?:{_EVIDENCE_WORD}|{_SOURCE_WORD}|guide?lines?"
    rf"|diretriz(?:es)?"
    r"|protocol\w*)\s+(?:says?|said|diz|dizem|disse|fala|falou|afirma|recomenda|recommends?|mentions?"
    r"|menciona"
    r"|supports?|backs)\s+(?:that|this|it|so|isso|isto|aquilo|ess[ae]\s+\w+|est[ae]\s+\w+)\b",
    rf"^\W*(?:the\s+|o\s+|os\s+)?{_EVIDENCE_WORD}(?:\s+please|\s+por\s+favor|\s+pls)?\W*$",
    r"who\s+(?:published|wrote|said|says|issued|authored|made)\s+(?:that|this|it)",
    r"quem\s+(?:publicou|escreveu|disse|falou|diz|fala)\s+(?:isso|isto|essa|esse|aquilo)",
    rf"(?:send|give|share|manda|mande|passa)\s+(?:me\s+)?(?:the|o|a|os|as)\s+(?:{_EVIDENCE_WORD}"
    rf"|{_SOURCE_WORD})"
    rf"(?:\s+(?:for|to|of|d[aeo])?\s*(?:that|this|it|isso|essa|esse|disso|dessa|desse|{_SOURCE_WORD}))?"
    r"(?:\s+(?:please|pls|plz|pfv|pf|por\s+favor|ai|la|pra\s+mim|for\s+me))?(?:\W*$|\s*[,;])",
    # What the answer rests on: "which guideline is that answer based on?", "em que diretriz vc se baseou?".
    r"(?:based|basead[oa])\s+(?:on|em)\s+(?:what|which|que|qual)", r"se\s+base(?:ou|ia|ando)",
    r"(?:is|was)\s+(?:that|this|it|the|your)\s+(?:\w+\s+)?based\s+on",
    # Cited, backed or proven: "can you cite that", "pls cite", "what backs that up", "tem base científica?".
    r"\bcite\s+(?:it|that|this|them|those|these)\b", r"\bcite\W*$",
    r"backs?\s+(?:that|this|it)\s+up", r"base\s+cientifica",
    r"scientific(?:ally)?\s+(?:basis|backing|proof|proven)",
    # The evidence behind it: "whats the evidence for that", "is there any evidence behind that".
    rf"{_EVIDENCE_WORD}\s+(?:for|of|behind|de|da|do|pra|para)\s+(?:that|this|it|isso|disso|essa|esse|dessa"
    r"|desse)\b",
    # Where it is: "where's the proof", "cadê a fonte".
    rf"(?:where(?:'s|s|\s+is|\s+are)|cade)\s+(?:the|your|ur|a|o|as|os|sua)\s+(?:{_EVIDENCE_WORD}|{_SOURCE_WORD})\W*$",
    # The one used, to check: "i want to check the reference you used", "conferir a referência que vc usou".
    rf"(?:check|verify|conferir|confere|checar|verificar)\s+(?:the|your|ur|a|o|as|os|sua)\s+(?:{_EVIDENCE_WORD}"
    rf"|{_SOURCE_WORD})",
    rf"(?:{_SOURCE_WORD}|{_EVIDENCE_WORD})\s+(?:que\s+|that\s+|which\s+)?(?:you|u|vc|voce)\s+(?:used|usou|cited"
    r"|citou|gave|deu|got|took|read|found|tirou|pegou|leu|achou)\b",
    r"(?:which|what|que|qual)\s+(?:\w+\s+){0,2}(?:is|was|e|foi)\s+(?:that|this|the|your|essa|esta|a)\s+"
    r"(?:answer|response|information|info|resposta|informacao)\s+(?:based|basead[oa])",
    # The evidence for the answer named by a noun: "tem link dessa informação?", "o link dessa resposta".
    rf"(?:{_EVIDENCE_WORD}|{_SOURCE_WORD})\s+(?:(?:for|of|to|behind|de|da|do|pra|para|sobre)\s+)?(?:that|this"
    r"|isso|disso|dessa|desse|essa|esse|desta|deste)\s+(?:informacao|info|information|resposta|answer|dado|data"
    r"|claim|afirmacao|recomendacao|recommendation)\b",
    rf"{_EVIDENCE_WORD}\s+(?:to|for|of|da|do|de|pra|para)\s+(?:the\s+|a\s+|o\s+|your\s+|sua\s+)?"
    rf"(?:{_SOURCE_WORD}|original)\b",
    # Where to read it oneself: "is there a link where i can read that", "onde eu leio mais sobre isso".
    r"(?:where|somewhere|anywhere)\s+(?:can\s+i|could\s+i|i\s+can|i\s+could)\s+(?:read|see|check|look\s+up"
    r"|verify|find)\s+(?:more\s+(?:on|about)\s+)?(?:that|this|it)\b",
    r"onde\s+(?:eu\s+)?(?:posso\s+|consigo\s+|da\s+pra\s+)?(?:leio|vejo|confiro|acho|encontro|ler|ver"
    r"|conferir|checar|achar|encontrar|confirmar|confirmo|verificar|verifico)\s+(?:mais\s+)?(?:sobre\s+)?(?:isso|isto|ess[ae]\s+\w+)\b",
    # Where it was got: "cite where you got this", "where u got that?".
    r"where\s+(?:exactly\s+)?(?:you|u|ya)\s+(?:got|found|read|saw|heard|get|took)\s+(?:that|this|it|these|those)\b",
    # Whether evidence stands behind it: "is that from a real study?", "tem estudo que comprova isso?".
    rf"(?:is|was)\s+(?:that|this|it)\s+(?:from|based\s+on|in)\s+(?:an?\s+|the\s+|any\s+)?(?:\w+\s+)?"
    rf"(?:{_EVIDENCE_WORD}|{_GUIDELINE_WORD})",
    rf"{_EVIDENCE_WORD}\s+(?:que\s+|that\s+)?(?:comprova|comprovam|prova|provam|confirma|confirmam|proves?"
    r"|confirms?|supports?)\s+(?:isso|isto|that|this|it)\b",
    # Who says or recommends it: "who says so", "quem recomenda isso?", "essa recomendação é de quem?".
    r"who\s+(?:says|said|recommends?|recommended|claims?|claimed|states?|stated)\s+(?:so|that|this|it)\b",
    r"quem\s+(?:recomenda|recomendou|afirma|afirmou|garante|indica)\s+(?:isso|isto|essa|esse|aquilo)\b",
    r"(?:isso|isto|that|this|ess[ae]\s+\w+)\s+(?:e|eh|foi|vem|veio)\s+de\s+quem\b",
    rf"^\W*(?:according\s+to|segundo|de\s+acordo\s+com|conforme)\s+(?:which|what|qual|que|quais)\s+(?:\w+\s+)?"
    rf"(?:{_EVIDENCE_WORD}|{_SOURCE_WORD}|{_GUIDELINE_WORD})\W*$",
    # A guideline or a study the answer came from: "is that from a guideline?", "essa recomendação que vc
    # falou é de qual diretriz?", "qual diretriz foi essa?".
    r"(?:that|this|it|isso|isto|ess[ae](?:\s+\w+)?(?:\s+(?:que|that)\s+(?:vc|voce|you|u)\s+\w+)?)\s+(?:is|was|e"
    r"|eh|foi|vem|veio|comes|came|ta|esta)\s+(?:from|de|em|in|no|na)\s+(?:qual|que|which|what|alguma|algum|some"
    rf"|any|an?|the|uma|um)\s+(?:\w+\s+)?(?:{_GUIDELINE_WORD}|{_EVIDENCE_WORD}|{_SOURCE_WORD})\b",
    rf"(?:which|what|qual|que)\s+{_GUIDELINE_WORD}\s+(?:was|is|e|foi|era)\s+(?:that|this|it|isso|esse|essa)\b",
    # A link to it: "tem o link do estudo?", "a link to that paper", "algum link pra eu conferir".
    rf"(?:links?|urls?)\s+(?:to|for|of|do|da|de|dessa|desse|disso|desta|deste|pro|pra)\s+(?:(?:the|that|this|o|a"
    rf"|esse|essa)\s+)?(?:{_EVIDENCE_WORD}|{_SOURCE_WORD}|that|this|it|isso)\b",
    r"(?:links?|urls?)\s+(?:pra|para|so|to|where)\s+(?:eu\s+|i\s+(?:can\s+)?)?(?:conferir|checar|ler|ver"
    r"|verificar|check|read|verify|see)\b",
    # Where a figure or a piece of information came from: "de onde é essa info?".
    r"de\s+onde\s+(?:e|eh|veio|vem|saiu)\s+(?:essa|esse|esta|este|that|this)\s+(?:info|informacao|information"
    r"|dados?|data|numeros?|numbers?|recomendacao|resposta|afirmacao|claim|stats?|estatisticas?)\b",
    r"de\s+onde\s+(?:e|eh)\s+(?:isso|isto)\b",
    # "sauce?": slang for source, the whole message.
    r"^\W*(?:the\s+)?sauce\W*(?:pls|please|plz)?\W*$",
    # Shown where it says so: "show me where it says that", "mostra onde diz isso".
    r"(?:show|mostr\w*|point)\s+(?:me\s+)?(?:to\s+)?(?:where|onde)\s+(?:(?:it|that|this|isso|isto|ele|ela)\s+)?"
    r"(?:says?|diz|fala|is\s+written|ta\s+escrito|esta\s+escrito)\b",
)
SOURCE_NUMBERS: dict[str, int] = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "um": 1, "uma": 1, "dois": 2, "duas": 2, "tres": 3,
    "quatro": 4, "cinco": 5, "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5,
    "primeira": 1, "segunda": 2, "terceira": 3, "quarta": 4, "quinta": 5,
}
_NUMBER_WORD = "|".join(SOURCE_NUMBERS)
SOURCE_NUMBER = (rf"\[(?P<n>\d{{1,2}})\]|{_SOURCE_WORD}\s*{_NUMBER_SIGN}?\s*(?P<n2>\d{{1,2}})"
                 rf"|{_SOURCE_WORD}\s+{_NUMBER_SIGN}?\s*(?P<w>{_NUMBER_WORD})\b"
                 rf"|{_SOURCE_ITEM}"
                 rf"|\b(?:the\s+|a\s+)?(?P<w2>{_NUMBER_WORD})\s+{_SOURCE_WORD}"
                 rf"|\b(?P<n4>\d)\s*(?:st|nd|rd|th|º|ª)\s+{_SOURCE_WORD}")
# An appointment id as the clinics issue them: CARD-A-APT-5F21C0D9E1.
APPOINTMENT_ID = r"[a-z]{4}-[a-z]-apt-[0-9a-f]{10}"

# --- slot references ------------------------------------------------------------------------------------

EARLIEST: tuple[str, ...] = (
    r"earliest", r"soonest", r"first\s+(?:available|open|free)", r"next\s+available",
    r"as\s+soon\s+as\s+possible", r"asap", r"(?:o|a|no|na)\s+mais\s+cedo", r"mais\s+cedo\s+possivel",
    r"o\s+quanto\s+antes", r"assim\s+que\s+possivel", r"(?:horario|vaga|data|dia|slot)\s+mais\s+cedo",
    r"(?:o|a)\s+mais\s+proxim[oa]", r"(?:o\s+)?primeiro\s+(?:horario|disponivel)", r"primeira\s+vaga",
    r"(?:o\s+)?proximo\s+(?:horario\s+)?disponivel", r"primeira\s+data",
    r"(?:o\s+)?mais\s+rapido\s+possivel",
    r"(?:o|a)\s+(?:proxim[oa]|primeir[oa])\s+(?:horario\s+|vaga\s+)?(?:livre|vag[oa])",
    r"next\s+(?:free|open)\s+(?:slot|time|appointment)", r"quickest",
)
ORDINALS: dict[str, int] = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6,
    "primeiro": 1, "primeira": 1, "segundo": 2, "segunda": 2, "terceiro": 3, "terceira": 3,
    "quarto": 4, "quarta": 4, "quinto": 5, "quinta": 5, "sexto": 6, "sexta": 6,
}
# Feminine ordinals that are also weekdays ("segunda" = Monday) need one of these to be an ordinal.
OPTION_NOUNS = (r"(?:opcao|opcoes|alternativa|option|one|slot|horario|vaga|delas|dessas|deles|desses"
                r"|(?:(?:consulta|appointment|booking)\s+)?(?:da\s+lista|on\s+the\s+list))")
# A cancel or reschedule verb picks one of the bookings listed: "desmarca a segunda" (Monday's is
# "a de segunda").
CHOOSING_VERBS = (r"(?:quero|queria|escolho|prefiro|pego|fico\s+com|pode\s+ser|vou\s+de|vou\s+querer|"
                  r"i'll\s+take|i\s+want|cancel\w*|desmarc\w*|desmarqu\w*|remarc\w*|reagend\w*)")

REFERS_TO_PREVIOUS: tuple[str, ...] = (
    r"it", r"that\s+one", r"this\s+one", r"the\s+same(?:\s+one)?", r"that\s+(?:appointment|slot|time|one)",
    r"my\s+(?:appointment|booking|consultation|visit)", r"the\s+(?:appointment|booking)",
    rf"(?:essa|esse|aquela|aquele|dessa|desse|nessa|nesse)(?!\s+(?:semana|mes|{'|'.join(PT_WEEKDAYS)}"
    rf"|ano)\b)",
    r"ela", r"isso", r"(?:a|o)\s+mesm[oa]", r"minha\s+consulta",
    r"meu\s+(?:agendamento|horario)", r"a\s+consulta", r"(?:remarc|desmarc|cancel)\w+-?la",
)
