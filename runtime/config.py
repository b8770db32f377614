"""Settings declared once, as dataclass fields that carry their environment variable, default,
lower bound and one-line doc; read from the environment failing fast with a message that names
the variable, and documented (--help, the README table) from the same declarations."""

import dataclasses
import os
import types
import typing
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")


class ConfigError(SystemExit):
    """A missing or malformed setting; exits the process with a clear message."""

    def __init__(self, message: str) -> None:
        super().__init__(f"configuration error: {message}")


@dataclass(frozen=True)
class Var:
    """One environment variable; unset or blank means the default."""

    env: str
    doc: str
    default: Any
    minimum: float | None  # numbers only; None: 0
    shown: str | None  # the default as documented, when it is not the value itself
    parse: Callable[[str], Any] | None  # the reader of a type other than str, int, float or Path


def setting(env: str, default: Any, doc: str, *, minimum: float | None = None, shown: str | None = None,
            parse: Callable[[str], Any] | None = None) -> Any:
    """A field of a settings section, read from `env`."""
    return dataclasses.field(default=default, metadata={"var": Var(env, doc, default, minimum, shown, parse)})


def variables(section: type) -> Iterator[tuple[str, Var]]:
    """The (field name, variable) pairs of a settings section, in declaration order."""
    for field in dataclasses.fields(section):
        yield field.name, field.metadata["var"]


def read(section: type[T]) -> T:
    """The section with every field read from the environment."""
    hints = typing.get_type_hints(section)
    return section(**{name: _value(var, _scalar(hints[name])) for name, var in variables(section)})


def _scalar(hint: Any) -> Any:
    """int for `int | None`; the hint itself otherwise."""
    if isinstance(hint, types.UnionType):
        return next(arg for arg in typing.get_args(hint) if arg is not type(None))
    return hint


def _value(var: Var, kind: Any) -> Any:
    raw = os.environ.get(var.env, "").strip()
    if not raw:
        return var.default
    if var.parse is not None:
        return var.parse(raw)
    if kind is bool:
        return _boolean(var, raw)
    if kind is int or kind is float:
        return _number(var, raw, kind)
    if kind is Path:
        return Path(raw)
    return raw


def _boolean(var: Var, raw: str) -> bool:
    if raw.lower() not in ("true", "false"):
        raise ConfigError(f"{var.env} must be true or false, got {raw[:40]!r}")
    return raw.lower() == "true"


def _number(var: Var, raw: str, kind: type[int] | type[float]) -> int | float:
    try:
        value = kind(raw)
    except ValueError:
        expected = "an integer" if kind is int else "a number"
        raise ConfigError(f"{var.env} must be {expected}, got {raw!r}") from None
    minimum = kind(0) if var.minimum is None else var.minimum
    if value < minimum:
        raise ConfigError(f"{var.env} must be >= {minimum}, got {value}")
    return value


def _default(var: Var) -> str:
    if var.shown is not None:
        return var.shown
    if var.default in ("", None):
        return "unset"
    if isinstance(var.default, Path) and not var.default.is_absolute():
        return f"`./{var.default}`"  # Path("./var") prints as "var"
    if isinstance(var.default, bool):
        return f"`{str(var.default).lower()}`"  # as it is written in the environment
    return f"`{var.default}`"


def _meaning(var: Var) -> str:
    return f"{var.doc} (at least {var.minimum})" if var.minimum else var.doc


def markdown_table(section: type) -> str:
    """The section as a README table: variable, default, meaning."""
    rows = [f"| `{var.env}` | {_default(var)} | {_meaning(var)} |" for _, var in variables(section)]
    return "\n".join(["| variable | default | meaning |", "|---|---|---|", *rows])


def help_text(*sections: type) -> str:
    """The sections' variables for --help, one line each."""
    lines = ["environment (unset or blank means the default, in brackets):"]
    for section in sections:
        for _, var in variables(section):
            lines.append(f"  {var.env:<34} {_meaning(var)} [{_default(var).replace('`', '')}]")
    return "\n".join(lines)
