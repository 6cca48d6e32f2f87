"""Random modules with unreduced axes of each reduction kind (sum, max, min), from a seed, for differential tests."""

from __future__ import annotations

import dataclasses
import math
import random
import sys

from unreduced_target_modules import is_valid_module

SIZE = 16
KINDS = ("sum", "max", "min")
# A reduce's body -> the element type and the op of each input ("index": the argmax's indices).
REDUCE_BODIES = {
    "add": (("f32", "add"),),
    "maximum": (("f32", "maximum"),),
    "minimum": (("f32", "minimum"),),
    "and": (("i1", "and"),),
    "or": (("i1", "or"),),
    "argmax": (("f32", "maximum"), ("i32", "index")),
    "max-min": (("f32", "maximum"), ("f32", "minimum")),
    "add-add": (("f32", "add"), ("f32", "add")),
}
_INITS = {
    "add": "0.000000e+00",
    "maximum": "0xFF800000",
    "minimum": "0x7F800000",
    "and": "true",
    "or": "false",
    "index": "0",
}
_BODY_KINDS = {"add": "sum", "maximum": "max", "minimum": "min"}
# Element type -> (op, operand count).
_ELEMENTWISE = {
    "f32": (("add", 2), ("subtract", 2), ("multiply", 2), ("maximum", 2), ("minimum", 2), ("negate", 1), ("abs", 1)),
    "i32": (("add", 2), ("maximum", 2), ("negate", 1)),
    "i1": (("and", 2), ("or", 2), ("not", 1)),
}
# How often a function step is drawn.
_STEPS = {"reduce": 3.0, "elementwise": 2.0, "dot": 1.5, "constraint": 1.0, "reshard": 1.0, "call": 1.0, "manual": 1.0}


def _axis(piece: str) -> str:
    """The quoted axis name of `"x"` or `"x":(1)2`."""
    return piece.split(":")[0]


def _axis_list(pieces: tuple[str, ...] | list[str]) -> str:
    """`{...}` of the pieces, two halves of an axis in a row written as the axis (as the verifier requires)."""
    merged: list[str] = []
    for piece in pieces:
        if merged and piece.endswith(":(2)2") and merged[-1] == piece.replace(":(2)2", ":(1)2"):
            merged[-1] = _axis(piece)
        else:
            merged.append(piece)
    return "{" + ", ".join(merged) + "}"


@dataclasses.dataclass(frozen=True)
class Sharding:
    mesh: str
    dims: tuple[tuple[str, ...], ...]
    open_dims: tuple[bool, ...]
    priorities: tuple[str, ...]
    replicated: tuple[str, ...] = ()
    unreduced: tuple[str, ...] = ()
    kind: str = "sum"
    sum_spelled: bool = False

    @property
    def text(self) -> str:
        dims = []
        for axes, is_open, priority in zip(self.dims, self.open_dims, self.priorities):
            dims.append(_axis_list(list(axes) + ["?"] * is_open) + priority)
        text = f"<@{self.mesh}, [{', '.join(dims)}]"
        if self.replicated:
            text += ", replicated=" + _axis_list(self.replicated)
        if self.unreduced:
            spelled = self.kind if self.kind != "sum" or self.sum_spelled else ""
            text += f", unreduced={spelled}" + _axis_list(self.unreduced)
        return text + ">"


@dataclasses.dataclass(frozen=True)
class Value:
    name: str
    shape: tuple[int, ...]
    element: str = "f32"
    sharding: Sharding | None = None

    @property
    def type(self) -> str:
        return "tensor<" + "".join(f"{size}x" for size in self.shape) + self.element + ">"

    def typed(self) -> str:
        """The type with the sharding attribute of a function argument or result."""
        return self.type + (f" {{sdy.sharding = #sdy.sharding{self.sharding.text}}}" if self.sharding else "")


def _square(rank: int) -> tuple[int, ...]:
    return (SIZE,) * rank


def _attribute(shardings: list[Sharding] | None) -> str:
    """An op's ` {sdy.sharding = ...}`, or nothing."""
    if shardings is None:
        return ""
    return " {sdy.sharding = #sdy.sharding_per_value<[" + ", ".join(s.text for s in shardings) + "]>}"


class _Module:
    """The meshes, the sharding habits and the functions of one module being drawn."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        names = rng.sample(["x", "y", "z", "w"], rng.randint(2, 3))
        axes = [(name, rng.choice([1, 2, 2, 4])) for name in names]
        if all(size == 1 for _, size in axes):
            axes[0] = (axes[0][0], 2)
        self.meshes = {"mesh": axes, "twin": axes, "other": [("a", 2), *reversed(axes)]}
        self.unreduced_share = rng.choice([0.15, 0.3, 0.5])
        self.open_share = rng.choice([0.0, 0.0, 0.3])
        self.priority_share = rng.choice([0.0, 0.0, 0.2])
        self.other_mesh_share = rng.choice([0.0, 0.0, 0.3])
        # A coherent module draws unreduced axes of its favourite kind only, and keeps them along its values.
        self.coherent = rng.random() < 0.5
        self.keep_share = 1.0 if self.coherent else rng.choice([0.0, 0.6, 0.9])
        self.favourite_kind = rng.choice(KINDS)
        self.functions: list[str] = []

    def mesh_name(self, other_allowed: bool = True) -> str:
        if self.rng.random() >= self.other_mesh_share:
            return "mesh"
        return self.rng.choice(["twin", "other"] if other_allowed else ["twin"])

    def pieces(self, mesh: str) -> list[str]:
        """The mesh's axes in order, a size-4 axis sometimes as its two sub-axes."""
        pieces = []
        for name, size in self.meshes[mesh]:
            split = size == 4 and self.rng.random() < 0.3
            pieces += [f'"{name}":(1)2', f'"{name}":(2)2'] if split else [f'"{name}"']
        return pieces

    def piece_size(self, mesh: str, piece: str) -> int:
        return int(piece.rsplit(")", 1)[1]) if ":" in piece else dict(self.meshes[mesh])[piece.strip('"')]

    def in_mesh_order(self, mesh: str, pieces) -> tuple[str, ...]:
        names = [f'"{name}"' for name, _ in self.meshes[mesh]]
        return tuple(sorted(pieces, key=lambda piece: (names.index(_axis(piece)), piece)))

    def kind(self) -> str:
        return self.favourite_kind if self.coherent or self.rng.random() < 0.5 else self.rng.choice(KINDS)

    def sharding(
        self,
        rank: int,
        mesh: str | None = None,
        unreduced_share: float | None = None,
        kind: str | None = None,
        keep: Sharding | None = None,
        manual: tuple[str, ...] = (),
    ) -> Sharding:
        """A random sharding, holding the unreduced axes (and kind) of `keep`; the `manual` axes come first in their
        dimensions, and when there are any, no dimension is open or has a priority (a manual computation's)."""
        rng = self.rng
        kept = keep.unreduced if keep else ()
        mesh = keep.mesh if kept else mesh or self.mesh_name()
        unreduced_share = self.unreduced_share if unreduced_share is None else unreduced_share
        pieces = [piece for piece in self.pieces(mesh) if _axis(piece) not in map(_axis, kept)]
        dims: list[list[str]] = [[] for _ in range(rank)]
        replicated, unreduced = [], list(kept)
        for piece in rng.sample(pieces, len(pieces)):
            draw = rng.random()
            if draw < unreduced_share:
                unreduced.append(piece)
            elif draw < unreduced_share + 0.1:
                replicated.append(piece)
            elif draw < 0.85 and rank:
                dims[rng.randrange(rank)].append(piece)
        for axes in dims:
            axes.sort(key=lambda piece: _axis(piece) not in manual)
        return Sharding(
            mesh,
            tuple(map(tuple, dims)),
            tuple(not manual and rng.random() < self.open_share for _ in dims),
            tuple(
                f"p{rng.randrange(3)}" if axes and not manual and rng.random() < self.priority_share else ""
                for axes in dims
            ),
            self.in_mesh_order(mesh, replicated),
            self.in_mesh_order(mesh, unreduced),
            keep.kind if kept else kind or self.kind(),
            rng.random() < 0.2,
        )

    def maybe_sharding(self, rank: int, chance: float = 0.7, **options) -> Sharding | None:
        return self.sharding(rank, **options) if self.rng.random() < chance else None

    def derived(
        self, rank: int, source: Sharding | None, chance: float = 0.7, exact: bool = False, kind: str | None = None
    ) -> Sharding | None:
        """Maybe a sharding (its new unreduced axes of `kind`); as often as the module keeps them, with the unreduced
        axes of `source` (with `exact`, no others). A coherent module always keeps unreduced axes."""
        if self.rng.random() >= chance and not (self.coherent and source and source.unreduced):
            return None
        if self.rng.random() >= self.keep_share:
            return self.sharding(rank, kind=kind)
        return self.sharding(rank, unreduced_share=0.0 if exact else None, kind=kind, keep=source)

    def joined(self, shardings) -> Sharding | None:
        """The first sharding with unreduced axes (else the first one), holding those of the others on the same axes
        and of the same kind too, but on axes it already uses."""
        shardings = [s for s in shardings if s is not None]
        if not shardings:
            return None
        first = next((s for s in shardings if s.unreduced), shardings[0])
        used = [_axis(p) for p in first.unreduced + first.replicated + tuple(p for d in first.dims for p in d)]
        unreduced = list(first.unreduced)
        for sharding in shardings:
            if self.meshes[sharding.mesh] == self.meshes[first.mesh] and sharding.kind == first.kind:
                for piece in sharding.unreduced:
                    if _axis(piece) not in used:
                        unreduced.append(piece)
                        used.append(_axis(piece))
        return dataclasses.replace(first, unreduced=self.in_mesh_order(first.mesh, unreduced))

    def text(self) -> str:
        meshes = ""
        for name, axes in self.meshes.items():
            meshes += f"sdy.mesh @{name} = <[" + ", ".join(f'"{axis}"={size}' for axis, size in axes) + "]>\n"
        return meshes + "".join(self.functions)


class _Function:
    """The arguments, lines and values of one function being drawn; each step method draws one op."""

    def __init__(self, module: _Module, name: str, private: bool = False):
        self.module = module
        self.rng = module.rng
        self.name = name
        self.private = private
        self.args: list[Value] = []
        self.lines: list[str] = []
        self.values: list[Value] = []
        self.count = 0

    def new_arg(
        self, shape: tuple[int, ...] = _square(2), element: str = "f32", sharding: Sharding | None = None
    ) -> Value:
        """A new argument with that sharding, else maybe a random one."""
        value = Value(f"%arg{len(self.args)}", shape, element, sharding or self.module.maybe_sharding(len(shape)))
        self.args.append(value)
        self.values.append(value)
        return value

    def operand(self, shape: tuple[int, ...] = _square(2), element: str = "f32") -> Value:
        """A value of that type drawn so far (most likely a recent one), or a new argument."""
        candidates = [value for value in self.values if (value.shape, value.element) == (shape, element)]
        if not candidates or self.rng.random() < 0.15:
            return self.new_arg(shape, element)
        return candidates[-1] if self.rng.random() < 0.5 else self.rng.choice(candidates)

    def fresh_name(self, prefix: str) -> str:
        self.count += 1
        return f"%{prefix}{self.count}"

    def results(
        self, types: list[tuple[tuple[int, ...], str]], shardings: list[Sharding] | None
    ) -> tuple[str, list[Value]]:
        """An op's results of these (shape, element) types and shardings: the text before its `=`, and the values."""
        name = self.fresh_name("v")
        names = [name] if len(types) == 1 else [f"{name}#{index}" for index in range(len(types))]
        values = [Value(n, *type_, shardings and shardings[i]) for i, (n, type_) in enumerate(zip(names, types))]
        self.values += values
        return (name if len(types) == 1 else f"{name}:{len(types)}"), values

    def constant(self, element: str, value: str) -> str:
        name = self.fresh_name("c")
        self.lines.append(f"{name} = stablehlo.constant dense<{value}> : tensor<{element}>")
        return name

    def elementwise(self) -> None:
        source = self.rng.choice(self.values)
        op, arity = self.rng.choice(_ELEMENTWISE[source.element])
        operands = [source] + [self.operand(source.shape, source.element) for _ in range(arity - 1)]
        sharding = self.module.derived(len(source.shape), self.module.joined(v.sharding for v in operands))
        lhs, (result,) = self.results([(source.shape, source.element)], sharding and [sharding])
        names = ", ".join(v.name for v in operands)
        self.lines.append(f"{lhs} = stablehlo.{op} {names}{_attribute(sharding and [sharding])} : {result.type}")

    def dot(self) -> None:
        lhs_value, rhs_value = self.operand(), self.operand()
        lhs_dim, rhs_dim = self.rng.choice([(1, 0), (1, 1), (0, 0)])
        source = self.module.joined([lhs_value.sharding, rhs_value.sharding])
        exact = source is not None and source.kind != "sum"  # a dot introduces sum unreduced axes only
        sharding = self.module.derived(2, source, exact=exact, kind="sum")
        lhs, (result,) = self.results([(_square(2), "f32")], sharding and [sharding])
        self.lines.append(
            f"{lhs} = stablehlo.dot_general {lhs_value.name}, {rhs_value.name}, contracting_dims = [{lhs_dim}] x "
            f"[{rhs_dim}]{_attribute(sharding and [sharding])} : ({lhs_value.type}, {rhs_value.type}) -> {result.type}"
        )

    def constraint(self, source: Value | None = None, op: str = "sharding_constraint") -> Value:
        source = source or self.rng.choice(self.values)
        sharding = self.module.derived(len(source.shape), source.sharding, chance=1.0)
        lhs, (result,) = self.results([(source.shape, source.element)], [sharding])
        self.lines.append(f"{lhs} = sdy.{op} {source.name} {sharding.text} : {result.type}")
        return result

    def reshard(self) -> None:
        self.constraint(op="reshard")

    def reduce(self) -> None:
        rng = self.rng
        body = rng.choice(list(REDUCE_BODIES))
        inputs = REDUCE_BODIES[body]
        rank = rng.choice([1, 2, 2, 3])
        dims = sorted(rng.sample(range(rank), rng.randint(1, rank)))
        operands = [self.operand(_square(rank), inputs[0][0])]
        for element, op in inputs[1:]:
            if op == "index":
                operands.append(self.new_arg(_square(rank), element, operands[0].sharding))
            else:
                operands.append(self.operand(_square(rank), element))
        inits = [self.constant(element, _INITS[op]) for element, op in inputs]
        shardings = None
        source = self.module.joined(v.sharding for v in operands)
        if rng.random() < 0.8 or (self.module.coherent and source and source.unreduced):
            body_kinds = {_BODY_KINDS.get(op) for _, op in inputs}
            body_kind = body_kinds.pop() if len(body_kinds) == 1 else None
            first = self._reduce_result_sharding(source, rank, dims, body_kind)
            shardings = [first]
            for _ in inputs[1:]:
                alike = self.module.coherent or rng.random() < 0.6
                shardings.append(first if alike else self.module.sharding(len(first.dims)))
        lhs, results = self.results([(_square(rank - len(dims)), element) for element, _ in inputs], shardings)
        pairs = ", ".join(f"({value.name} init: {init})" for value, init in zip(operands, inits))
        init_types = ", ".join(f"tensor<{element}>" for element, _ in inputs)
        types = f"({', '.join(v.type for v in operands)}, {init_types}) -> "
        result_types = ", ".join(v.type for v in results)
        types += result_types if len(results) == 1 else f"({result_types})"
        dims_text = f"across dimensions = [{', '.join(map(str, dims))}]{_attribute(shardings)}"
        if len(inputs) == 1:
            applies = f"applies stablehlo.{inputs[0][1]}"
            self.lines.append(f"{lhs} = stablehlo.reduce{pairs} {applies} {dims_text} : {types}")
        else:
            self.lines += [f"{lhs} = stablehlo.reduce{pairs} {dims_text} : {types}", *_reducer(body, inputs)]

    def _reduce_result_sharding(
        self, source: Sharding | None, rank: int, dims: list[int], body_kind: str | None
    ) -> Sharding:
        """A random sharding; or, as often as the module keeps unreduced axes, the operand's without the reduced
        dimensions, their axes most often made unreduced if the body's kind is that of the operand's unreduced
        axes."""
        module, rng = self.module, self.rng
        if module.coherent and source is None:
            return module.sharding(rank - len(dims), unreduced_share=0.4 if body_kind else 0.0, kind=body_kind)
        if source is None or rng.random() >= module.keep_share:
            kind = body_kind if rng.random() < 0.6 else None
            return module.sharding(rank - len(dims), unreduced_share=0.4, kind=kind)
        kind = source.kind if source.unreduced else body_kind or module.kind()
        kept = [i for i in range(rank) if i not in dims]
        unreduced = list(source.unreduced)
        if body_kind == kind and rng.random() < 0.7:
            unreduced += [piece for i in dims for piece in source.dims[i]]
        return dataclasses.replace(
            source,
            dims=tuple(source.dims[i] for i in kept),
            open_dims=tuple(source.open_dims[i] for i in kept),
            priorities=tuple(source.priorities[i] for i in kept),
            unreduced=module.in_mesh_order(source.mesh, unreduced),
            kind=kind,
        )

    def manual(self) -> None:
        rng, module = self.rng, self.module
        operands = [self.operand() for _ in range(rng.randint(1, 2))]
        axes = [name for name, _ in module.meshes["mesh"]]
        manual = tuple(f'"{name}"' for name in rng.sample(axes, rng.randint(1, len(axes))))

        def local(sources: list[Sharding | None], prefix: str) -> list[tuple[Sharding, Value]]:
            """Drawn shardings of the computation's operands or results, and their values' local types."""
            drawn = []
            for source in sources:
                keep = source if source and source.mesh != "other" and rng.random() < module.keep_share else None
                mesh = module.mesh_name(other_allowed=False)
                sharding = module.sharding(2, mesh, keep=keep, manual=manual)
                shape = tuple(
                    SIZE // math.prod(module.piece_size(sharding.mesh, p) for p in axes if _axis(p) in manual)
                    for axes in sharding.dims
                )
                drawn.append((sharding, Value(self.fresh_name(prefix), shape)))
            return drawn

        ins = local([v.sharding for v in operands], "m")
        outs, body, returned = [], [], []
        for _ in range(rng.randint(1, 2)):
            in_sharding, arg = rng.choice(ins)
            if module.coherent:  # an argument returned as it came in
                outs.append((in_sharding, arg))
                returned.append(arg.name)
                continue
            ((sharding, out),) = local([None], "mr")
            outs.append((sharding, out))
            if arg.shape == out.shape and rng.random() < 0.5:
                returned.append(arg.name)
                continue
            if arg.shape == out.shape and rng.random() < 0.5:
                body.append(f"  {out.name} = stablehlo.add {arg.name}, {arg.name} : {out.type}")
            else:
                body.append(f"  {out.name} = stablehlo.constant dense<1.000000e+00> : {out.type}")
            returned.append(out.name)
        lhs, results = self.results([(_square(2), "f32")] * len(outs), [s for s, _ in outs])
        self.lines += [
            f"{lhs} = sdy.manual_computation({', '.join(v.name for v in operands)}) "
            f"in_shardings=[{', '.join(s.text for s, _ in ins)}] out_shardings=[{', '.join(s.text for s, _ in outs)}] "
            f"manual_axes={_axis_list(manual)} ({', '.join(f'{v.name}: {v.type}' for _, v in ins)}) {{",
            *body,
            f"  sdy.return {', '.join(returned)} : {', '.join(v.type for _, v in outs)}",
            f"}} : ({', '.join(v.type for v in operands)}) -> ({', '.join(v.type for v in results)})",
        ]

    def call(self) -> None:
        rng, module = self.rng, self.module
        operands = [self.operand() for _ in range(rng.randint(1, 2))]
        callee = _Function(module, f"callee_{len(module.functions)}", private=True)
        for operand in operands:
            callee.new_arg(sharding=module.derived(2, operand.sharding, exact=True))
        for _ in range(rng.randint(0, 2)):
            rng.choice([callee.elementwise, callee.dot, callee.constraint])()
        operands += [self.operand(v.shape, v.element) for v in callee.args[len(operands) :]]
        callee_results = callee.returned()
        module.functions.append(callee.text(callee_results))
        for _ in range(rng.choice([1, 1, 2])):
            shardings = [module.derived(2, v.sharding, chance=1.0, exact=True) for v in callee_results]
            needed = module.coherent and any(v.sharding and v.sharding.unreduced for v in callee_results)
            shardings = shardings if needed or rng.random() < 0.4 else None
            lhs, results = self.results([(v.shape, v.element) for v in callee_results], shardings)
            self.lines.append(
                f"{lhs} = call @{callee.name}({', '.join(v.name for v in operands)}){_attribute(shardings)} : "
                f"({', '.join(v.type for v in operands)}) -> ({', '.join(v.type for v in results)})"
            )

    def returned(self) -> list[Value]:
        """The last value; or an argument; or a value twice; or an argument beside a constraint of it; or two; each
        with a result sharding maybe derived from the value's."""
        rng = self.rng
        draw = rng.random()
        if draw < 0.15:
            values = [rng.choice(self.args)]
        elif draw < 0.3:
            values = [self.values[-1]] * 2
        elif draw < 0.4:
            arg = rng.choice(self.args)
            values = [arg, self.constraint(arg)]
        elif draw < 0.6:
            values = [self.values[-1], rng.choice(self.values)]
        else:
            values = [self.values[-1]]
        return [
            dataclasses.replace(v, sharding=self.module.derived(len(v.shape), v.sharding, 0.5, exact=True))
            for v in values
        ]

    def text(self, returned: list[Value]) -> str:
        body = "".join(f"  {line}\n" for line in self.lines)
        args = ", ".join(f"{v.name}: {v.typed()}" for v in self.args)
        return (
            f"func.func {'private ' if self.private else ''}@{self.name}({args}) "
            f"-> ({', '.join(v.typed() for v in returned)}) {{\n{body}"
            f"  return {', '.join(v.name for v in returned)} : {', '.join(v.type for v in returned)}\n}}\n"
        )


def _reducer(body: str, inputs: tuple[tuple[str, str], ...]) -> list[str]:
    """The region of a reduce of two inputs."""
    (first, op0), (second, op1) = inputs
    lines = [
        f" reducer(%lhs0: tensor<{first}>, %rhs0: tensor<{first}>) "
        f"(%lhs1: tensor<{second}>, %rhs1: tensor<{second}>) {{"
    ]
    if body == "argmax":
        lines += [
            f"  %gt = stablehlo.compare GT, %lhs0, %rhs0 : (tensor<{first}>, tensor<{first}>) -> tensor<i1>",
            f"  %r0 = stablehlo.select %gt, %lhs0, %rhs0 : tensor<i1>, tensor<{first}>",
            f"  %r1 = stablehlo.select %gt, %lhs1, %rhs1 : tensor<i1>, tensor<{second}>",
        ]
    else:
        lines += [
            f"  %r0 = stablehlo.{op0} %lhs0, %rhs0 : tensor<{first}>",
            f"  %r1 = stablehlo.{op1} %lhs1, %rhs1 : tensor<{second}>",
        ]
    return lines + [f"  stablehlo.return %r0, %r1 : tensor<{first}>, tensor<{second}>", "}"]


def _draw(rng: random.Random) -> str:
    module = _Module(rng)
    main = _Function(module, rng.choice(["main", "main", "step"]))
    for _ in range(rng.randint(1, 2)):
        main.new_arg()
    for _ in range(rng.randint(1, 4)):
        getattr(main, rng.choices(list(_STEPS), weights=list(_STEPS.values()))[0])()
    module.functions.append(main.text(main.returned()))
    return module.text()


def reduction_kind_module(seed: int) -> str:
    """Of the modules drawn from `seed`, the first that parses and verifies (`python reduction_kind_modules.py SEED`
    prints it).

    A module has a mesh `@mesh` (axes of sizes 1, 2 and 4, sub-axes of the 4s), `@twin` (the same axes) and `@other`
    (other axes), and a function (`@main` or `@step`) of a few steps: reduces (bodies `add`, `maximum`, `minimum`,
    `and`, `or`, an argmax, two-input bodies of one or two kinds), elementwise ops, dot_generals, sharding
    constraints, reshards, manual computations (some manual axes unused) and calls of private functions whose
    results carry unreduced axes. It returns its last value, an argument, one value twice, or an argument beside a
    constraint of it. Shardings have open or closed dimensions, priorities, replicated axes and unreduced axes of one
    kind; half the modules are coherent (see _Module), so that some verify and others break every rule.
    """
    rng = random.Random(f"reduction-kinds-{seed}")
    while True:
        text = _draw(rng)
        if is_valid_module(text):
            return text


if __name__ == "__main__":
    print(reduction_kind_module(int(sys.argv[1])))
