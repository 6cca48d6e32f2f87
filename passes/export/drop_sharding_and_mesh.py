"""`sdy-drop-sharding-and-mesh`: remove every `sdy.sharding` (on ops and on function arguments and results) and
the `sdy.mesh` ops, as jaxlib's C++ pass does.

Version difference: jaxlib 0.10.2 erases every mesh op, even one a sharding constraint or a collective still
names (the module then fails to verify); jaxlib 0.11.2 and 0.12.0.1 keep those, and 0.12.0.1 adds the
`keep-module-sharding-metadata` option (which pysdy refuses when set).
"""

from __future__ import annotations

import dataclasses
import re

from jaxlib.mlir import ir

from pysdy import versions
from pysdy.passes.common.func_attrs import SHARDING, num_arguments, num_results, set_arg_attrs, set_result_attrs
from pysdy.passes.common.ir_walk import nested_ops
from pysdy.passes.registry import Pass, PassFailure, option, register_pass

# A symbol reference in an attribute's text: `@name` or `@"name"`.
_MESH_DEFINITION = re.compile(r'sdy\.mesh @(?:"(?:[^"\\]|\\.)*"|[\w$.-]+)')
_SYMBOL_REFERENCE = re.compile(r'@(?:"((?:[^"\\]|\\.)*)"|([\w$.-]+))')


@register_pass
@dataclasses.dataclass(frozen=True)
class DropShardingAndMeshPass(Pass):
    argument = "sdy-drop-sharding-and-mesh"
    summary = "Drops all shardings and meshes."

    keep_module_sharding_metadata: bool = option(
        False, "Whether to keep the module's sharding metadata.", line_field="drop_sharding_keep_metadata_option"
    )

    def run(self, op: ir.Operation) -> None:
        if self.keep_module_sharding_metadata:
            op.location.emit_error(
                "sdy-drop-sharding-and-mesh: pysdy does not implement keep-module-sharding-metadata=true"
            )
            raise PassFailure()
        for nested in nested_ops(op):
            attributes = nested.attributes
            if SHARDING in attributes:
                del attributes[SHARDING]
            if nested.name == "func.func":
                set_arg_attrs(nested, dict.fromkeys(range(num_arguments(nested))))
                set_result_attrs(nested, dict.fromkeys(range(num_results(nested))))
        if versions.installed().drop_sharding_keeps_referenced_meshes and _may_hide_symbol_uses(op):
            return
        referenced = _referenced_symbols(op) if versions.installed().drop_sharding_keeps_referenced_meshes else set()
        for mesh_op in nested_ops(op, name="sdy.mesh"):
            if ir.StringAttr(mesh_op.attributes["sym_name"]).value not in referenced:
                mesh_op.erase()


def _may_hide_symbol_uses(module: ir.Operation) -> bool:
    """An op of an unregistered dialect with one region may be a symbol table of its own: as MLIR, the uses of
    the meshes are then unknown, and every mesh stays."""
    return any(
        len(nested.regions) == 1 and not nested.context.is_registered_operation(nested.name)
        for nested in nested_ops(module)
    )


def _referenced_symbols(module: ir.Operation) -> set[str]:
    """The symbol names the module prints outside mesh definitions (symbol names are unique, so a mesh's name
    among them is a reference to it)."""
    text = _MESH_DEFINITION.sub("", str(module))
    return {a or b for a, b in _SYMBOL_REFERENCE.findall(text)}
