"""Module-level symbols: looking them up, and inserting new ones under a unique name as MLIR's SymbolTable does."""

from __future__ import annotations

from jaxlib.mlir import ir

from pysdy.dialects.sdy import Mesh, TensorSharding


def symbol_name(op: ir.Operation) -> str | None:
    if "sym_name" not in op.attributes:
        return None
    return ir.StringAttr(op.attributes["sym_name"]).value


class SymbolTable:
    """The symbols directly in a module's body; `unique_name` renames with `_N` from one shared counter."""

    def __init__(self, module: ir.Operation):
        self.module = module
        self.by_name: dict[str, ir.Operation] = {}
        for op in module.regions[0].blocks[0].operations:
            name = symbol_name(op.operation)
            if name is not None:
                self.by_name[name] = op.operation
        self._counter = 0

    def lookup(self, name: str) -> ir.Operation | None:
        return self.by_name.get(name)

    def unique_name(self, name: str) -> str:
        if name not in self.by_name:
            return name
        while True:
            candidate = f"{name}_{self._counter}"
            self._counter += 1
            if candidate not in self.by_name:
                return candidate

    def insert(self, op: ir.Operation, name: str) -> str:
        """Names the already-placed `op` `name` (made unique) and records it; returns the name used."""
        name = self.unique_name(name)
        op.attributes["sym_name"] = ir.StringAttr.get(name)
        self.by_name[name] = op
        return name

    def erase(self, op: ir.Operation) -> None:
        del self.by_name[symbol_name(op)]
        op.erase()


def mesh_of(sharding: TensorSharding, symbols: SymbolTable) -> Mesh:
    """The mesh of a sharding, looked up in the module when the sharding names it."""
    if isinstance(sharding.mesh, Mesh):
        return sharding.mesh
    return Mesh.from_attr(symbols.lookup(sharding.mesh).attributes["mesh"])


# Ops whose attributes never name a symbol (and may hold dense values the bindings cannot read).
_NO_SYMBOL_REFERENCES = frozenset({"stablehlo.constant", "sdy.constant"})


def _referenced_names(attr: ir.Attribute, names: set[str]) -> None:
    if isinstance(attr, ir.FlatSymbolRefAttr):
        names.add(attr.value)
    elif isinstance(attr, ir.SymbolRefAttr):
        names.add(attr.value[0])
    elif isinstance(attr, ir.ArrayAttr):
        for element in attr:
            _referenced_names(element, names)
    elif isinstance(attr, ir.DictAttr):
        for entry in attr:
            _referenced_names(entry.attr, names)


def references_in(op: ir.Operation) -> set[str] | None:
    """The symbol names `op` and its nested ops refer to; None when an op of an unregistered
    dialect with one region (a potential symbol table of its own) hides what they are, as in MLIR."""
    names: set[str] = set()
    unknowable = False

    def visit(nested):
        nonlocal unknowable
        if len(nested.regions) == 1 and not nested.context.is_registered_operation(nested.name):
            unknowable = True
            return ir.WalkResult.INTERRUPT
        if nested.name not in _NO_SYMBOL_REFERENCES:
            for name in nested.attributes:
                if name != "sym_name":
                    _referenced_names(nested.attributes[name], names)
        return ir.WalkResult.ADVANCE

    op.walk(visit)
    return None if unknowable else names


def is_private(op: ir.Operation) -> bool:
    return "sym_visibility" in op.attributes and ir.StringAttr(op.attributes["sym_visibility"]).value == "private"
