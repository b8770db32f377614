"""The drug knowledge base: curated label facts validated and written to SQLite.

`load` turns tools/data/drugs.json (label facts and pair interactions of a few dozen drugs)
and tools/data/drug_classes.json (the most prescribed drugs, their pharmacological classes,
class-pair rules and the pair rules a label states for two drugs known only by class, each with
its source) into SQLite tables, validated first and written
in one transaction. Every name a drug is known by (generic, other spellings such as Portuguese
ones, brands) is stored folded, so "Coumadin", "varfarina" and "Warfarin Sodium" all find
warfarin.
"""

import json
import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from healthmesh.v1 import tools_pb2
from runtime.text.fold import fold_words as fold_name
from tools.readonly import json_list, json_text

DEFAULT_DATA = Path(__file__).parent / "data" / "drugs.json"
DEFAULT_CLASSES = Path(__file__).parent / "data" / "drug_classes.json"

# Severity name in the data -> proto enum value, which also ranks them (higher is worse).
SEVERITIES = {
    "minor": tools_pb2.INTERACTION_SEVERITY_MINOR,
    "moderate": tools_pb2.INTERACTION_SEVERITY_MODERATE,
    "major": tools_pb2.INTERACTION_SEVERITY_MAJOR,
    "contraindicated": tools_pb2.INTERACTION_SEVERITY_CONTRAINDICATED,
}
SAFETY_KINDS = ("boxed_warnings", "contraindications", "major_cautions")

# Salt words a label or a pack adds to a name ("losartan potassium", "cloridrato de tramadol").
_TRAILING_SALTS = frozenset({"sodium", "potassium", "hydrochloride", "hcl", "sodica", "potassica"})
_LEADING_SALT = "cloridrato de "
_NON_WORD = re.compile(r"[^0-9a-z]+")

SCHEMA = (
    "DROP TABLE IF EXISTS class_rules",
    "DROP TABLE IF EXISTS drug_classes",
    "DROP TABLE IF EXISTS interactions",
    "DROP TABLE IF EXISTS safety_items",
    "DROP TABLE IF EXISTS drug_names",
    "DROP TABLE IF EXISTS drugs",
    """CREATE TABLE drugs (
      generic_name TEXT PRIMARY KEY,
      drug_class TEXT NOT NULL,
      source TEXT NOT NULL,
      label_facts INTEGER NOT NULL  -- 1: its label's warnings are in safety_items
    )""",
    """CREATE TABLE drug_names (
      folded TEXT PRIMARY KEY,
      generic_name TEXT NOT NULL REFERENCES drugs(generic_name),
      display TEXT NOT NULL,
      kind TEXT NOT NULL CHECK (kind IN ('generic', 'alias', 'brand')),
      position INTEGER NOT NULL
    )""",
    "CREATE INDEX drug_names_by_generic ON drug_names(generic_name, kind, position)",
    """CREATE TABLE safety_items (
      generic_name TEXT NOT NULL REFERENCES drugs(generic_name),
      kind TEXT NOT NULL CHECK (kind IN ('boxed_warnings', 'contraindications', 'major_cautions')),
      position INTEGER NOT NULL,
      text TEXT NOT NULL,
      section TEXT NOT NULL,
      source TEXT NOT NULL,
      PRIMARY KEY (generic_name, kind, position)
    )""",
    """CREATE TABLE interactions (
      drug_a TEXT NOT NULL REFERENCES drugs(generic_name),
      drug_b TEXT NOT NULL REFERENCES drugs(generic_name),
      severity TEXT NOT NULL CHECK (severity IN ('minor', 'moderate', 'major', 'contraindicated')),
      mechanism TEXT NOT NULL,
      management TEXT NOT NULL,
      source TEXT NOT NULL,
      CHECK (drug_a < drug_b),
      UNIQUE (drug_a, drug_b)
    )""",
    """CREATE TABLE drug_classes (
      generic_name TEXT NOT NULL REFERENCES drugs(generic_name),
      class TEXT NOT NULL,
      PRIMARY KEY (generic_name, class)
    )""",
    """CREATE TABLE class_rules (
      class_a TEXT NOT NULL,
      class_b TEXT NOT NULL,
      severity TEXT NOT NULL CHECK (severity IN ('minor', 'moderate', 'major', 'contraindicated')),
      mechanism TEXT NOT NULL,
      management TEXT NOT NULL,
      source TEXT NOT NULL,
      CHECK (class_a <= class_b),
      UNIQUE (class_a, class_b)
    )""",
)


def fold(name: str) -> str:
    """The form names are compared in: lowercase, no accents, punctuation as single spaces,
    without a salt word ("Warfarin Sodium." -> "warfarin", "Toprol-XL" -> "toprol xl")."""
    folded = _NON_WORD.sub(" ", fold_name(name)).strip()
    if folded.startswith(_LEADING_SALT):
        folded = folded[len(_LEADING_SALT):]
    words = folded.split()
    if len(words) > 1 and words[-1] in _TRAILING_SALTS:
        words.pop()
    return " ".join(words)


@dataclass(frozen=True)
class _Name:
    folded: str
    generic_name: str
    display: str
    kind: str
    position: int


def load(conn: sqlite3.Connection, path: Path = DEFAULT_DATA, classes_path: Path = DEFAULT_CLASSES) -> None:
    """(Re)creates the drug tables from `path` and `classes_path` in one transaction. Both files
    are validated before anything is written, so a bad file raises ValueError and changes
    nothing."""
    data = json.loads(path.read_text(encoding="utf-8"))
    drugs, names, items = _parse_drugs(json_list(data, "drugs", "the file"))
    pairs = _parse_interactions(json_list(data, "interactions", "the file"), set(drugs))
    classes = json.loads(classes_path.read_text(encoding="utf-8"))
    memberships, class_rules = _parse_classes(classes, drugs, names)
    _parse_pair_rules(classes, set(drugs), pairs)
    interactions = list(pairs.values())
    # A savepoint rather than BEGIN: it is a transaction of its own on an idle connection and
    # nests inside the caller's transaction when there is one.
    conn.execute("SAVEPOINT drugs_load")
    try:
        for statement in SCHEMA:
            conn.execute(statement)
        conn.executemany("INSERT INTO drugs VALUES (?, ?, ?, ?)", drugs.values())
        conn.executemany(
            "INSERT INTO drug_names VALUES (?, ?, ?, ?, ?)",
            [(n.folded, n.generic_name, n.display, n.kind, n.position) for n in names.values()],
        )
        conn.executemany("INSERT INTO safety_items VALUES (?, ?, ?, ?, ?, ?)", items)
        conn.executemany("INSERT INTO interactions VALUES (?, ?, ?, ?, ?, ?)", interactions)
        conn.executemany("INSERT INTO drug_classes VALUES (?, ?)", memberships)
        conn.executemany("INSERT INTO class_rules VALUES (?, ?, ?, ?, ?, ?)", class_rules)
    except BaseException:
        conn.execute("ROLLBACK TO drugs_load")
        conn.execute("RELEASE drugs_load")
        raise
    conn.execute("RELEASE drugs_load")


def name_index(path: Path = DEFAULT_DATA, classes_path: Path = DEFAULT_CLASSES) -> dict[str, str]:
    """Every spelling the drug service resolves (folded: generic names, aliases, brands, of both
    files) and the generic name it resolves to, exactly as load() stores them."""
    data = json.loads(path.read_text(encoding="utf-8"))
    drugs, names, _ = _parse_drugs(json_list(data, "drugs", "the file"))
    _parse_classes(json.loads(classes_path.read_text(encoding="utf-8")), drugs, names)
    return {n.folded: n.generic_name for n in names.values()}


def _parse_drugs(
    raw_drugs: list[Any],
) -> tuple[dict[str, tuple[str, str, str, int]], dict[str, _Name], list[tuple[str, str, int, str, str, str]]]:
    drugs: dict[str, tuple[str, str, str, int]] = {}
    names: dict[str, _Name] = {}
    items: list[tuple[str, str, int, str, str, str]] = []
    for i, raw in enumerate(raw_drugs):
        where = f"drugs[{i}]"
        generic = json_text(raw, "generic_name", where)
        where = f"drug {generic!r}"
        if generic != fold(generic):
            raise ValueError(f"{where}: generic_name must be lowercase without accents or salt words")
        if generic in drugs:
            raise ValueError(f"{where}: listed twice")
        source = json_text(raw, "source", where)
        drugs[generic] = (generic, json_text(raw, "drug_class", where), source, 1)
        _add_names(names, generic, raw, where)
        for kind in SAFETY_KINDS:
            for position, item in enumerate(json_list(raw, kind, where)):
                item_where = f"{where} {kind}[{position}]"
                items.append((generic, kind, position, json_text(item, "text", item_where),
                              json_text(item, "section", item_where),
                              json_text(item, "source", item_where) if "source" in item else source))
    return drugs, names, items


def _add_names(names: dict[str, _Name], generic: str, raw: Any, where: str) -> None:
    """The drug's generic name, aliases and brands, each folded name meaning one drug only."""
    spellings = [("generic", generic)]
    spellings += [("alias", a) for a in _strings(raw, "aliases", where)]
    spellings += [("brand", b) for b in _strings(raw, "brand_names", where)]
    position = sum(1 for n in names.values() if n.generic_name == generic)
    for kind, display in spellings:
        folded = fold(display)
        if not folded:
            raise ValueError(f"{where}: name {display!r} has no letters or digits")
        if folded in names:
            if names[folded].generic_name == generic:
                continue  # both files may spell a drug the same way
            raise ValueError(f"{where}: name {display!r} is already a name of {names[folded].generic_name!r}")
        names[folded] = _Name(folded, generic, display, kind, position)
        position += 1


def _parse_classes(
    data: Any, drugs: dict[str, tuple[str, str, str, int]], names: dict[str, _Name],
) -> tuple[list[tuple[str, str]], list[tuple[str, str, str, str, str, str]]]:
    """Class memberships (adding the drugs that have no label facts) and class-pair rules."""
    classes = data.get("classes") if isinstance(data, dict) else None
    sources = data.get("sources") if isinstance(data, dict) else None
    if not isinstance(classes, dict) or not isinstance(sources, dict):
        raise ValueError("the classes file: 'classes' and 'sources' must be objects")
    memberships: set[tuple[str, str]] = set()
    for i, raw in enumerate(json_list(data, "drugs", "the classes file")):
        where = f"classes file drugs[{i}]"
        generic = json_text(raw, "generic_name", where)
        where = f"classes file drug {generic!r}"
        generic = fold(generic)  # "st john's wort" is stored as "st john s wort"
        if not generic:
            raise ValueError(f"{where}: generic_name has no letters")
        # A drug the label file knows under another of its names ("paracetamol" for
        # acetaminophen) is that drug.
        spellings = map(fold, [generic, *_strings(raw, "aliases", where)])
        known = [names[f].generic_name for f in spellings if f in names]
        generic = known[0] if known else generic
        drug_classes = _strings(raw, "classes", where)
        if not drug_classes or set(drug_classes) - set(classes):
            raise ValueError(f"{where}: classes must be defined in 'classes': {drug_classes}")
        if json_text(raw, "source", where) not in sources:
            raise ValueError(f"{where}: unknown source")
        if generic not in drugs:
            drugs[generic] = (generic, ", ".join(c.replace("_", " ") for c in drug_classes),
                              sources[raw["source"]], 0)
        _add_names(names, generic, raw, where)
        memberships |= {(generic, c) for c in drug_classes}
    rules: dict[tuple[str, str], tuple[str, str, str, str, str, str]] = {}
    for i, raw in enumerate(json_list(data, "class_rules", "the classes file")):
        where = f"class_rules[{i}]"
        a, b = json_text(raw, "class_a", where), json_text(raw, "class_b", where)
        if {a, b} - set(classes):
            raise ValueError(f"{where}: unknown class in {a!r} + {b!r}")
        source = json_text(raw, "source", where)
        if source not in sources:
            raise ValueError(f"{where}: unknown source {source!r}")
        _add_rule(rules, raw, where, a, b, sources[source])
    return sorted(memberships), list(rules.values())


def _parse_interactions(
    raw_pairs: list[Any], known: set[str],
) -> dict[tuple[str, str], tuple[str, str, str, str, str, str]]:
    pairs: dict[tuple[str, str], tuple[str, str, str, str, str, str]] = {}
    for i, raw in enumerate(raw_pairs):
        where = f"interactions[{i}]"
        a, b = _pair_drugs(raw, where, known)
        _add_rule(pairs, raw, where, a, b, json_text(raw, "source", where))
    return pairs


def _parse_pair_rules(
    data: dict[str, Any], known: set[str], pairs: dict[tuple[str, str], tuple[str, str, str, str, str, str]],
) -> None:
    """The classes file's pair rules (a label statement about exactly two drugs, which overrides
    their classes), added to `pairs`; their source is a key of the file's sources."""
    for i, raw in enumerate(json_list(data, "pair_rules", "the classes file")):
        where = f"pair_rules[{i}]"
        a, b = _pair_drugs(raw, where, known)
        source = json_text(raw, "source", where)
        if source not in data["sources"]:
            raise ValueError(f"{where}: unknown source {source!r}")
        _add_rule(pairs, raw, where, a, b, data["sources"][source])


def _pair_drugs(raw: Any, where: str, known: set[str]) -> tuple[str, str]:
    a, b = json_text(raw, "drug_a", where), json_text(raw, "drug_b", where)
    for name in (a, b):
        if name not in known:
            raise ValueError(f"{where}: unknown drug {name!r}")
    if a == b:
        raise ValueError(f"{where}: {a!r} cannot interact with itself")
    return a, b


def _add_rule(rules: dict[tuple[str, str], tuple[str, str, str, str, str, str]], raw: Any, where: str,
              a: str, b: str, source: str) -> None:
    """One interaction rule (between two drugs or two classes), validated, keyed by its sorted pair."""
    severity = json_text(raw, "severity", where)
    if severity not in SEVERITIES:
        raise ValueError(f"{where}: bad severity {severity!r} (expected one of {', '.join(SEVERITIES)})")
    key = (min(a, b), max(a, b))
    if key in rules:
        raise ValueError(f"{where}: pair {key[0]!r} + {key[1]!r} listed twice")
    rules[key] = (*key, severity, json_text(raw, "mechanism", where), json_text(raw, "management", where),
                  source)


def _strings(obj: Any, key: str, where: str) -> list[str]:
    return [json_text({key: v}, key, where) for v in json_list(obj, key, where)]

