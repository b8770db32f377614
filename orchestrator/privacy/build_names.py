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
"""

import argparse
from pathlib import Path

from orchestrator.privacy.regions import country_names
from runtime.text.fold import strip_accents
from tools.drug_loader import name_index

DATA_PATH = Path(__file__).with_name("data") / "names.tsv"
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
# names and their translations). Columns: kind (first|last), name (accents stripped, lower case),
# best rank in those countries, flags ("word", "place", comma-separated).
"""


def word_frequency(spellings: set[str]) -> float:
    """The highest Zipf frequency of any spelling as a word of English, Portuguese or Spanish ("graça",
    folded "graca", is common; "graca" alone is not)."""
    from wordfreq import zipf_frequency

    return max(zipf_frequency(name, lang) for name in spellings for lang in ("en", "pt", "es"))


def function_word(frequency: float, rank: int) -> bool:
    """A first name too frequent as a word to read as a name (`FUNCTION_ZIPF`)."""
    return frequency >= FUNCTION_ZIPF and rank > NAME_RANK


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
                           name_rank=NAME_RANK)]
    countries, drugs = country_names(), name_index()
    for kind, names in (("first", dataset.first_names), ("last", dataset.last_names)):
        best = ranked(names, top)
        best |= {name: found for name, found in ranked(names, deep).items()
                 if name not in best and name not in drugs and word_frequency(found[1]) < RARE_ZIPF}
        for name, (rank, _) in sorted(best.items(), key=lambda kv: (kv[1][0], kv[0])):
            # Folded only: "Vitória" is a word, yet "a vitoria tem 6 anos" is a girl.
            frequency = word_frequency({name})
            if kind == "first" and function_word(frequency, rank):
                continue
            flags = ["word"] * (frequency >= COMMON_ZIPF) + ["place"] * (name in countries)
            lines.append(f"{kind}\t{name}\t{rank}\t{','.join(flags)}\n")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(lines), encoding="utf-8")
    return len(lines) - 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DATA_PATH)
    print(f"{build(parser.parse_args().out)} names written")


if __name__ == "__main__":
    main()
