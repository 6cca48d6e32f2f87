"""The pass base class, typed pass options, and the one registry that names every pysdy pass.

A pass is a frozen dataclass: `argument` (its sdy_opt name) and `summary` are
class attributes, its options are fields declared with `option(...)`, and
`run(op)` does the work on its anchor op (`builtin.module` or `func.func`).
"""

from __future__ import annotations

import dataclasses
import difflib
import enum
import functools
import importlib
import pkgutil
import typing
from typing import Any, ClassVar

from jaxlib.mlir import ir

from pysdy import versions
from pysdy.passes.pass_modules import PASS_MODULES

MODULE = "builtin.module"
FUNC = "func.func"


class PassFailure(Exception):
    """Raised by a pass after it has emitted its error diagnostics on the IR."""


def option(default: Any, help: str, line_field: str | None = None) -> Any:
    """Declares a pass option; the field name with `_` -> `-` is its command-line name. With `line_field` (a
    `versions.JaxLine` field) the option exists only on the jax lines where that field is true."""
    return dataclasses.field(default=default, metadata={"help": help, "line_field": line_field})


@dataclasses.dataclass(frozen=True)
class OptionSpec:
    """One option of a pass, as the command line and `--help` see it."""

    name: str
    field_name: str
    type: type
    default: Any
    help: str

    def parse(self, text: str) -> Any:
        if self.type is bool:
            lowered = text.lower()
            if lowered in ("", "true", "1"):
                return True
            if lowered in ("false", "0"):
                return False
            raise ValueError(f"'{text}' is not a boolean")
        if self.type is int:
            return int(text)
        if isinstance(self.type, type) and issubclass(self.type, enum.Enum):
            for member in self.type:
                if member.value == text:
                    return member
            choices = ", ".join(str(m.value) for m in self.type)
            raise ValueError(f"'{text}' is not one of: {choices}")
        return text

    def type_name(self) -> str:
        if isinstance(self.type, type) and issubclass(self.type, enum.Enum):
            return "|".join(str(m.value) for m in self.type)
        return {bool: "bool", int: "int"}.get(self.type, "string")


class OptionError(ValueError):
    """A pass option that does not exist or has a malformed value."""


@dataclasses.dataclass(frozen=True)
class Pass:
    """Base of every pysdy pass."""

    argument: ClassVar[str]
    summary: ClassVar[str]
    anchor: ClassVar[str] = MODULE
    # A `versions.JaxLine` field; when set, the pass exists only on the jax lines where that field is true.
    line_field: ClassVar[str | None] = None
    # Whether the pass, as Shardy's does, can leave IR the verifier rejects. A pipeline verifies only after
    # such passes (and once at its end), where the error jaxlib's pipeline reports comes from its verifier.
    leaves_invalid_ir: ClassVar[bool] = False

    def run(self, op: ir.Operation) -> None:
        raise NotImplementedError

    @classmethod
    def option_specs(cls) -> list[OptionSpec]:
        hints = _type_hints(cls)
        specs = []
        for f in dataclasses.fields(cls):
            line_field = f.metadata.get("line_field")
            if line_field is not None and not getattr(versions.installed(), line_field):
                continue
            type_ = hints[f.name]
            specs.append(
                OptionSpec(f.name.replace("_", "-"), f.name, type_, f.default, f.metadata.get("help", ""))
            )
        return specs

    @classmethod
    def from_options(cls, options: dict[str, str]) -> Pass:
        specs = {spec.name: spec for spec in cls.option_specs()}
        values = {}
        for name, text in options.items():
            spec = specs.get(name)
            if spec is None:
                hint = _did_you_mean(name, specs)
                raise OptionError(f"no such option '{name}' for pass '{cls.argument}'{hint}")
            try:
                values[spec.field_name] = spec.parse(text)
            except ValueError as error:
                raise OptionError(f"invalid value for option '{name}' of pass '{cls.argument}': {error}")
        return cls(**values)

    @property
    def name(self) -> str:
        return type(self).__name__


@functools.cache
def _type_hints(cls: type) -> dict[str, Any]:
    """The resolved annotations of a pass class (resolving them is most of what reading a pipeline's options costs)."""
    return typing.get_type_hints(cls)


def _did_you_mean(name: str, known) -> str:
    close = difflib.get_close_matches(name, list(known), n=3, cutoff=0.6)
    if not close:
        return ""
    return "; did you mean " + ", ".join(f"'{c}'" for c in close) + "?"


_PASSES: dict[str, type[Pass]] = {}


def register_pass(cls: type[Pass]) -> type[Pass]:
    """Class decorator adding a pass to the registry under its `argument`."""
    if cls.argument in _PASSES:
        raise ValueError(f"pass '{cls.argument}' is registered twice")
    _PASSES[cls.argument] = cls
    return cls


@functools.cache
def _load_all_pass_modules() -> None:
    """Imports every module under pysdy.passes once, so each registers its passes."""
    import pysdy.passes as package

    for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        importlib.import_module(module.name)


def all_passes() -> dict[str, type[Pass]]:
    """Every registered pass of the installed jax line by its sdy_opt name, sorted by name."""
    _load_all_pass_modules()
    return dict(sorted((name, cls) for name, cls in _PASSES.items() if _exists_on_installed_line(cls)))


def _exists_on_installed_line(cls: type[Pass]) -> bool:
    return cls.line_field is None or getattr(versions.installed(), cls.line_field)


def lookup_pass(argument: str) -> type[Pass] | None:
    """The pass named `argument` on the installed jax line; imports only the module registering it."""
    if not is_sdy_pass_name(argument):
        return None  # every pysdy pass has a name pysdy owns
    cls = _PASSES.get(argument)
    if cls is None and argument in PASS_MODULES:
        importlib.import_module(PASS_MODULES[argument])
        cls = _PASSES.get(argument)
    if cls is None:
        _load_all_pass_modules()  # for a name the index misses; test_pass_modules.py keeps it complete
        cls = _PASSES.get(argument)
    return cls if cls is not None and _exists_on_installed_line(cls) else None


def is_sdy_pass_name(argument: str) -> bool:
    """Names pysdy owns: these never resolve to jaxlib's C++ passes (Shardy's and XLA's names, and pysdy's own
    `pysdy-` ones)."""
    return argument.startswith(("sdy-", "xla-sdy-", "pysdy-"))


def unknown_pass_message(argument: str, upstream: list[str]) -> str:
    hint = _did_you_mean(argument, list(all_passes()) + upstream)
    return f"unknown pass '{argument}'{hint}"
