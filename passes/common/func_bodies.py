"""Moving a function's body into an sdy op that takes a body (`sdy.named_computation`, `sdy.manual_computation`)."""

from __future__ import annotations

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import sdy


def move_func_body(func: ir.Operation, target: ir.Operation) -> None:
    """Moves `func`'s body into a new block of `target`'s single, empty region; the block takes the function's
    arguments (types and locations) and ends in `sdy.return` instead of `func.return`."""
    func_block = func.regions[0].blocks[0]
    arguments = list(func_block.arguments)
    block = target.regions[0].blocks.append(*[a.type for a in arguments], arg_locs=[a.location for a in arguments])
    for old, new in zip(arguments, block.arguments):
        old.replace_all_uses_with(new)
    for op in list(func_block.operations):
        op = op.operation
        op.detach_from_parent()
        ir.InsertionPoint(block).insert(op)
    terminator = block.operations[len(block.operations) - 1].operation
    sdy.ReturnOp(list(terminator.operands), loc=terminator.location, ip=ir.InsertionPoint(terminator))
    terminator.erase()
