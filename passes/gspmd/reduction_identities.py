"""The scalar a reduction leaves unchanged (XLA's export pads with it), and zero, as `stablehlo.constant` values.

sum: zero. max: -inf, or for an integer type its least value (a signless
integer counts as signed, so an `i1`'s is true). min: +inf, or the greatest
value. A float type without infinities takes what LLVM's APFloat makes of
one (a NaN), as XLA's does; types XLA's export cannot fill are refused by
the caller with the reason `identity_refusal` gives.
"""

from __future__ import annotations

import math

from jaxlib.mlir import ir

# Float types that have neither infinities nor NaNs: APFloat cannot make an infinity of them.
_FINITE_ONLY_FLOATS = ("f4E2M1FN", "f6E2M3FN", "f6E3M2FN")
# Float types without a zero: APFloat's zero of them is their least value.
_FLOATS_WITHOUT_ZERO = ("f8E8M0FNU",)


def identity_refusal(element: ir.Type, reduction: str) -> str | None:
    """Why XLA's export cannot build the identity of `reduction` (sum, max, min) for `element`; None if it can."""
    if isinstance(element, ir.IntegerType):
        return None
    if not isinstance(element, ir.FloatType):
        return f"of {element} elements: XLA's export crashes making their {_what(reduction)}"
    if str(element) in _FLOATS_WITHOUT_ZERO and reduction == "sum":
        return f"of {element} elements, which have no zero"
    if str(element) in _FINITE_ONLY_FLOATS and reduction != "sum":
        return f"of {element} elements, which have no infinity to start a {reduction} from"
    return None


def _what(reduction: str) -> str:
    return "zero" if reduction == "sum" else f"{reduction} identity"


def identity(element: ir.Type, reduction: str) -> ir.Attribute:
    """The identity of `reduction` as a rank-0 dense elements attribute of `element`."""
    scalar = ir.RankedTensorType.get([], element)
    if isinstance(element, ir.FloatType):
        value = {"sum": 0.0, "max": -math.inf, "min": math.inf}[reduction]
        return ir.DenseElementsAttr.get_splat(scalar, ir.FloatAttr.get(element, value))
    width = element.width
    if reduction == "sum":
        value = 0
    elif element.is_unsigned:
        value = 0 if reduction == "max" else 2**width - 1
    else:
        value = -(2 ** (width - 1)) if reduction == "max" else 2 ** (width - 1) - 1
    text = ("true" if value else "false") if width == 1 else str(value)
    return ir.Attribute.parse(f"dense<{text}> : {scalar}")
