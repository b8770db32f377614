"""Reading the drug tables of tools/drug_loader.py: names resolved to one drug, its label's
safety facts, and the interactions among a list of drugs.

An interaction is the pair's own rule when the knowledge base has one, else the most severe
rule between any class of one drug and any class of the other.
"""

import difflib

from google.protobuf.message import Message
from google.rpc import error_details_pb2

from healthmesh.v1 import tools_pb2
from runtime.errors import InvalidArgument, NotFound
from tools.drug_loader import SEVERITIES, fold
from tools.readonly import PooledReader

MAX_SUGGESTIONS = 3
ERROR_DOMAIN = "healthmesh.v1.DrugService"


class UnknownDrug(NotFound):
    """A drug name that matches nothing; carries the closest known generic names."""

    def __init__(self, name: str, suggestions: list[str]) -> None:
        hint = f"; did you mean: {', '.join(suggestions)}?" if suggestions else ""
        super().__init__(f'unknown drug "{name}"{hint}')
        self.name = name
        self.suggestions = suggestions

    def details(self) -> list[Message]:
        """The google.rpc detail the status should carry."""
        return [error_details_pb2.ErrorInfo(
            reason="UNKNOWN_DRUG", domain=ERROR_DOMAIN,
            metadata={"drug_name": self.name, "suggestions": ",".join(self.suggestions)},
        )]


class DrugLookup(PooledReader):
    """The lookups; each runs on a pool thread with that thread's read-only connection."""

    def _resolve(self, name: str) -> str:
        conn = self.db.connection()
        folded = fold(name)
        row = conn.execute("SELECT generic_name FROM drug_names WHERE folded = ?", (folded,)).fetchone()
        if row is not None:
            return row[0]
        generic_of = dict(conn.execute("SELECT folded, generic_name FROM drug_names").fetchall())
        close = difflib.get_close_matches(folded, generic_of, n=len(generic_of), cutoff=0.6)
        suggestions = list(dict.fromkeys(generic_of[c] for c in close))[:MAX_SUGGESTIONS]
        raise UnknownDrug(name, suggestions)

    def _safety(self, name: str) -> tools_pb2.CheckDrugSafetyResponse:
        conn = self.db.connection()
        generic = self._resolve(name)
        drug_class, label_facts = conn.execute(
            "SELECT drug_class, label_facts FROM drugs WHERE generic_name = ?", (generic,)).fetchone()
        brands = [r[0] for r in conn.execute(
            "SELECT display FROM drug_names WHERE generic_name = ? AND kind = 'brand' ORDER BY position",
            (generic,))]
        response = tools_pb2.CheckDrugSafetyResponse(
            generic_name=generic, brand_names=brands, drug_class=drug_class, label_facts=bool(label_facts))
        rows = conn.execute(
            "SELECT kind, text, source, section FROM safety_items WHERE generic_name = ? "
            "ORDER BY kind, position", (generic,))
        for kind, text, source, section in rows:
            getattr(response, kind).add(text=text, source=source, section=section)
        return response

    def _interactions(self, names: list[str]) -> tools_pb2.CheckInteractionsResponse:
        generics = [self._resolve(name) for name in names]
        asked_as: dict[str, str] = {}
        for name, generic in zip(names, generics, strict=True):
            if generic in asked_as:
                raise InvalidArgument(
                    "drug_names", f'"{asked_as[generic]}" and "{name}" are the same drug ({generic})')
            asked_as[generic] = name
        conn = self.db.connection()
        marks = ", ".join("?" * len(generics))
        rows = conn.execute(
            "SELECT drug_a, drug_b, severity, mechanism, management, source FROM interactions "
            f"WHERE drug_a IN ({marks}) AND drug_b IN ({marks})", generics + generics).fetchall()
        paired = {(a, b) for a, b, *_ in rows}
        classes: dict[str, set[str]] = {g: set() for g in generics}
        for generic, drug_class in conn.execute(
                f"SELECT generic_name, class FROM drug_classes WHERE generic_name IN ({marks})", generics):
            classes[generic].add(drug_class)
        for i, a in enumerate(sorted(generics)):
            for b in sorted(generics)[i + 1:]:
                if (a, b) not in paired and (rule := self._class_rule(classes[a], classes[b])):
                    rows.append((a, b, *rule))
        rows.sort(key=lambda r: (-SEVERITIES[r[2]], r[0], r[1]))
        return tools_pb2.CheckInteractionsResponse(
            generic_names=generics,
            interactions=[
                tools_pb2.Interaction(drug_a=a, drug_b=b, severity=SEVERITIES[severity],
                                      mechanism=mechanism, management=management, source=source)
                for a, b, severity, mechanism, management, source in rows
            ],
        )

    def _class_rule(self, classes_a: set[str], classes_b: set[str]) -> tuple[str, str, str, str] | None:
        """The most severe class-pair rule between the two drugs' classes, as (severity,
        mechanism, management, source), the mechanism naming the classes it comes from."""
        if not classes_a or not classes_b:
            return None
        pairs = {(min(x, y), max(x, y)) for x in classes_a for y in classes_b}
        found = [row for row in self.db.connection().execute(
            "SELECT class_a, class_b, severity, mechanism, management, source FROM class_rules")
            if (row[0], row[1]) in pairs]
        if not found:
            return None
        a, b, severity, mechanism, management, source = max(found, key=lambda r: SEVERITIES[r[2]])
        by_class = f"By class ({a.replace('_', ' ')} + {b.replace('_', ' ')}): "
        return severity, by_class + mechanism, management, source
