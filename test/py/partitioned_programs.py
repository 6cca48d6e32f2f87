"""Small global programs, one per kind of collective jaxlib's C++ partitioner makes, and the pipeline that partitions a
global program into a per-device one (propagation, explicit collectives, conversion to local shapes)."""

from __future__ import annotations

from pysdy.runtime import pysdy_passes

MESH = 'sdy.mesh @mesh = <["x"=2, "y"=4]>'


def _module(signature: str, body: str, mesh: str = MESH) -> str:
    return f"{mesh}\nfunc.func @main({signature} {{\n{body}\n}}"


def _sharded(shape: str, *dims: tuple[str, ...]) -> str:
    """`tensor<SHAPE x f32>` with a sharding of each dimension on the axes listed for it."""
    text = ", ".join("{" + ", ".join(f'"{axis}"' for axis in axes) + "}" for axes in dims)
    return f"tensor<{shape}xf32> {{sdy.sharding = #sdy.sharding<@mesh, [{text}]>}}"


def _negate(shape: str, given: tuple, returned: tuple) -> str:
    """A program whose one op takes its argument sharded as `given` to its result sharded as `returned`."""
    return _module(
        f"%a: {_sharded(shape, *given)}) -> ({_sharded(shape, *returned)})",
        f"  %0 = stablehlo.negate %a : tensor<{shape}xf32>\n  return %0 : tensor<{shape}xf32>",
    )


CONTRACTING = _module(
    f"%a: {_sharded('8x16', ('x',), ('y',))}, %b: {_sharded('16x32', ('y',), ())}) -> "
    f"({_sharded('8x32', ('x',), ())})",
    "  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> "
    "tensor<8x32xf32>\n  %1 = stablehlo.add %0, %0 : tensor<8x32xf32>\n  return %1 : tensor<8x32xf32>",
)
# Every kind of collective the C++ partitioner makes, one program each.
PROGRAMS = {
    "all_reduce": CONTRACTING,
    "all_gather": _negate("8x16", (("x",), ("y",)), ((), ())),
    "all_to_all": _negate("8x16", (("y",), ()), ((), ("y",))),
    "collective_permute": _negate("16", (("x", "y"),), (("y", "x"),)),
    "all_slice": _negate("8x16", ((), ()), (("x",), ("y",))),
    "device_ids": CONTRACTING.replace(MESH, 'sdy.mesh @mesh = <["x"=2, "y"=4], device_ids=[3, 7, 2, 6, 1, 5, 0, 4]>'),
}


def partitioner_pipeline() -> str:
    """Propagation, explicit collectives and conversion to local shapes for 8 devices, replica groups as device ids:
    pysdy-run's pysdy route, also run by jaxlib's C++ as the reference."""
    return pysdy_passes.partitioner_pipeline(8)


