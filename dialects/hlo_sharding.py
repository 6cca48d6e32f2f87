"""XLA's HloSharding, the text of `mhlo.sharding`, as immutable values parsed and printed as XLA does."""

from __future__ import annotations

import enum
import math
import re
from dataclasses import dataclass, field, fields, replace
from typing import Sequence

from pysdy.dialects.tile_assignment import Iota, TileAssignment

# --------------------------------------------------------------------------
# Metadata
# --------------------------------------------------------------------------

_INT32 = range(-(2**31), 2**31)
_PROFILE_TYPES = range(4)  # xla.ProfileType: INVALID, FLAG, FUSION, LAYOUT


@dataclass(frozen=True)
class OpMetadata:
    """One `metadata={...}` entry; empty strings, zeros and empty tuples are unset fields.

    The field order is the order XLA prints them in.
    """

    op_type: str = ""
    op_name: str = ""
    source_file: str = ""
    source_line: int = 0
    source_end_line: int = 0
    source_column: int = 0
    source_end_column: int = 0
    profile_type: tuple[int, ...] = ()
    deduplicated_name: str = ""
    scheduling_name: str = ""
    stack_frame_id: int = 0
    metadata_payload: str = ""

    def to_text(self) -> str:
        """`{op_name="..." ...}`, the set fields only."""
        parts = []
        for f in fields(self):
            value = getattr(self, f.name)
            if not value:
                continue
            if isinstance(value, str):
                parts.append(f'{f.name}="{c_escape(value)}"')
            elif isinstance(value, tuple):
                parts.append(f"{f.name}={{{','.join(map(str, value))}}}")
            else:
                parts.append(f"{f.name}={value}")
        return "{" + " ".join(parts) + "}"


_METADATA_FIELDS = {f.name: f for f in fields(OpMetadata)}

# Escaped character -> the character: what C (and XLA's lexer) reads after a backslash.
_C_UNESCAPES = {
    "n": "\n",
    "t": "\t",
    "r": "\r",
    "a": "\a",
    "b": "\b",
    "f": "\f",
    "v": "\v",
    "\\": "\\",
    "'": "'",
    '"': '"',
    "?": "?",
}
# Byte -> its escape, for the characters XLA's printer escapes by name.
_C_ESCAPES = {ord(c): "\\" + escape for escape, c in _C_UNESCAPES.items() if escape in "ntr\\'\""}


def c_escape(text: str) -> str:
    """A string as XLA writes it between quotes: C escapes, bytes outside ASCII 32..126 in octal."""
    out = []
    for byte in text.encode("utf-8", "surrogateescape"):
        if byte in _C_ESCAPES:
            out.append(_C_ESCAPES[byte])
        elif 32 <= byte < 127:
            out.append(chr(byte))
        else:
            out.append(f"\\{byte:03o}")
    return "".join(out)


def c_unescape(text: str) -> str:
    """The string a quoted XLA string stands for (C escapes, octal, `\\x`, `\\u` and `\\U`).

    Raises ValueError naming the first unknown escape.
    """
    out = bytearray()
    i = 0
    while i < len(text):
        char = text[i]
        if char != "\\":
            out += char.encode("utf-8", "surrogateescape")
            i += 1
            continue
        escape = text[i + 1 : i + 2]
        if escape in _C_UNESCAPES:
            out.append(ord(_C_UNESCAPES[escape]))
            i += 2
        elif match := re.match(r"[0-7]{1,3}", text[i + 1 :]):
            value = int(match.group(), 8)
            if value > 255:
                raise ValueError(f"octal escape \\{match.group()} is out of range")
            out.append(value)
            i += 1 + len(match.group())
        elif match := re.match(r"x([0-9a-fA-F]+)", text[i + 1 :]):
            value = int(match.group(1), 16)
            if value > 255:
                raise ValueError(f"hex escape \\{match.group()} is out of range")
            out.append(value)
            i += 1 + len(match.group())
        elif match := re.match(r"u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8})", text[i + 1 :]):
            out += chr(int(match.group(1) or match.group(2), 16)).encode("utf-8")
            i += 1 + len(match.group())
        else:
            raise ValueError(f"unknown escape sequence \\{escape}")
    return out.decode("utf-8", "surrogateescape")


# --------------------------------------------------------------------------
# Shardings
# --------------------------------------------------------------------------


class Kind(enum.Enum):
    """What an HloSharding is; the value is its keyword in XLA's text."""

    REPLICATED = "replicated"
    MANUAL = "manual"
    UNKNOWN = "unknown"
    UNREDUCED = "unreduced"
    MAXIMAL = "maximal"
    TILED = "devices"
    TUPLE = "tuple"


class SubgroupType(enum.Enum):
    """The kind of a trailing tile dim listed in `last_tile_dims={...}`.

    Members are in XLA's canonical order: XLA sorts the subgroup dims so that
    manual comes first and replicated last.
    """

    MANUAL = "manual"
    UNREDUCED = "unreduced"
    REPLICATED = "replicated"


_SUBGROUP_ORDER = list(SubgroupType)
_TRIVIAL_KIND = {
    SubgroupType.MANUAL: Kind.MANUAL,
    SubgroupType.UNREDUCED: Kind.UNREDUCED,
    SubgroupType.REPLICATED: Kind.REPLICATED,
}


@dataclass(frozen=True)
class ShardGroup:
    """`shard_as N` (values sharded alike, decided together) or `shard_like N` (follows them)."""

    id: int
    shard_like: bool = False

    def to_text(self) -> str:
        return f"{'shard_like' if self.shard_like else 'shard_as'} {self.id}"


@dataclass(frozen=True)
class HloSharding:
    """An XLA sharding, always in the canonical form XLA's own constructors produce.

    Build values with the classmethods (or `from_text`), which canonicalize as
    XLA does: trailing subgroup dims of size one are dropped, dims of the same
    type merged and sorted, devices sorted inside replication groups, and
    shardings with nothing tiled collapse to replicated/manual/unreduced.
    Equality is XLA's: metadata is ignored and an explicit device list equals
    the iota with the same devices.
    """

    kind: Kind
    tile_assignment: TileAssignment | None = None  # TILED only
    device: int | None = None  # MAXIMAL only
    replicate_on_last_tile_dim: bool = False
    subgroup_types: tuple[SubgroupType, ...] = ()
    elements: tuple[HloSharding, ...] = ()  # TUPLE only
    shard_group: ShardGroup | None = None
    metadata: tuple[OpMetadata, ...] = field(default=(), compare=False)

    def __post_init__(self):
        if (self.tile_assignment is not None) != (self.kind is Kind.TILED):
            raise ValueError("a tile assignment belongs to tiled shardings only")
        if (self.device is not None) != (self.kind is Kind.MAXIMAL):
            raise ValueError("a device belongs to maximal shardings only")
        if self.elements and self.kind is not Kind.TUPLE:
            raise ValueError("elements belong to tuple shardings only")
        if self.kind is Kind.TUPLE and (self.metadata or self.shard_group):
            raise ValueError("a tuple sharding carries metadata and shard groups on its elements")
        if self.replicate_on_last_tile_dim and self.subgroup_types:
            raise ValueError("last_tile_dim_replicate and last_tile_dims are exclusive")
        tiles = self.tile_assignment
        if tiles is not None and len(tiles.dims) < self.num_subgroup_dims:
            raise ValueError("more subgroup dims than tile dims")

    # ---- constructors -----------------------------------------------------

    @classmethod
    def replicated(cls, metadata: Sequence[OpMetadata] = ()) -> HloSharding:
        return cls(Kind.REPLICATED, metadata=tuple(metadata))

    @classmethod
    def manual(cls, metadata: Sequence[OpMetadata] = ()) -> HloSharding:
        return cls(Kind.MANUAL, metadata=tuple(metadata))

    @classmethod
    def unknown(cls, metadata: Sequence[OpMetadata] = ()) -> HloSharding:
        return cls(Kind.UNKNOWN, metadata=tuple(metadata))

    @classmethod
    def unreduced(cls, metadata: Sequence[OpMetadata] = ()) -> HloSharding:
        return cls(Kind.UNREDUCED, metadata=tuple(metadata))

    @classmethod
    def maximal(cls, device: int, metadata: Sequence[OpMetadata] = ()) -> HloSharding:
        return cls(Kind.MAXIMAL, device=device, metadata=tuple(metadata))

    @classmethod
    def tiled(cls, tiles: TileAssignment, metadata: Sequence[OpMetadata] = ()) -> HloSharding:
        """Every tile dim is a data dim."""
        return cls(Kind.TILED, tiles, metadata=tuple(metadata))

    @classmethod
    def partially_replicated(
        cls, tiles: TileAssignment, metadata: Sequence[OpMetadata] = ()
    ) -> HloSharding:
        """The last tile dim replicates (`last_tile_dim_replicate`)."""
        if len(tiles.dims) == 1 or tiles.dims[-1] == tiles.num_devices:
            return cls.replicated(metadata)
        if tiles.dims[-1] == 1:
            return cls.tiled(tiles.reshape(tiles.dims[:-1]), metadata)
        sorted_tiles = tiles.sort_last_dim()
        return cls(Kind.TILED, sorted_tiles, replicate_on_last_tile_dim=True, metadata=tuple(metadata))

    @classmethod
    def subgroup(
        cls,
        tiles: TileAssignment,
        types: Sequence[SubgroupType],
        metadata: Sequence[OpMetadata] = (),
    ) -> HloSharding:
        """The last `len(types)` tile dims are subgroups of those types (`last_tile_dims={...}`)."""
        types = tuple(types)
        if len(types) > len(tiles.dims):
            raise ValueError(
                f"{len(types)} subgroup types for a tile shape of rank {len(tiles.dims)}"
            )
        if not types:
            return cls.tiled(tiles, metadata)
        if len(set(types)) == 1 and _data_tiles(tiles, types) == 1:
            return cls(_TRIVIAL_KIND[types[0]], metadata=tuple(metadata))
        tiles, types = _normalize_subgroups(tiles, types)
        # After normalizing, XLA collapses a lone manual subgroup but keeps a lone unreduced one.
        if not types:
            return cls.tiled(tiles, metadata)
        if types == (SubgroupType.REPLICATED,):
            return cls.partially_replicated(tiles, metadata)
        if types == (SubgroupType.MANUAL,) and _data_tiles(tiles, types) == 1:
            return cls.manual(metadata)
        if types[-1] is SubgroupType.REPLICATED:
            tiles = tiles.sort_last_dim()
        return cls(Kind.TILED, tiles, subgroup_types=types, metadata=tuple(metadata))

    @classmethod
    def tuple_of(cls, elements: Sequence[HloSharding]) -> HloSharding:
        return cls(Kind.TUPLE, elements=tuple(elements))

    def with_shard_group(self, shard_group: ShardGroup | None) -> HloSharding:
        return replace(self, shard_group=shard_group)

    def with_metadata(self, metadata: Sequence[OpMetadata]) -> HloSharding:
        return replace(self, metadata=tuple(metadata))

    # ---- queries ----------------------------------------------------------

    @property
    def num_subgroup_dims(self) -> int:
        """Trailing tile dims that do not tile data (replication, manual, unreduced)."""
        return len(self.subgroup_types) + int(self.replicate_on_last_tile_dim)

    @property
    def data_tile_dims(self) -> tuple[int, ...]:
        """How many tiles each data dim is cut into (tiled shardings only)."""
        if self.tile_assignment is None:
            raise ValueError(f"{self.kind.value} sharding has no tiles")
        dims = self.tile_assignment.dims
        return dims[: len(dims) - self.num_subgroup_dims]

    # ---- text -------------------------------------------------------------

    @classmethod
    def from_text(cls, text: str) -> HloSharding:
        """Parses XLA's text; raises ValueError naming the bad part (with a caret under it)."""
        return _Parser(text).parse()

    def to_text(self, include_metadata: bool = True) -> str:
        """XLA's text as in `mhlo.sharding`; without metadata, `str(xla_client.HloSharding)`."""
        if self.kind is Kind.TUPLE:
            return "{" + ", ".join(e.to_text(include_metadata) for e in self.elements) + "}"
        if self.kind is Kind.MAXIMAL:
            parts = [f"maximal device={self.device}"]
        elif self.kind is Kind.TILED:
            parts = [f"devices={self.tile_assignment.to_text()}"]
            if self.replicate_on_last_tile_dim:
                parts.append("last_tile_dim_replicate")
            if self.subgroup_types:
                types = ", ".join(t.value for t in self.subgroup_types)
                parts.append(f"last_tile_dims={{{types}}}")
        else:
            parts = [self.kind.value]
        if self.shard_group is not None:
            parts.append(self.shard_group.to_text())
        if include_metadata and self.metadata:
            if len(self.metadata) == 1:
                parts.append(f"metadata={self.metadata[0].to_text()}")
            else:
                parts.append("metadata={" + ", ".join(m.to_text() for m in self.metadata) + "}")
        return "{" + " ".join(parts) + "}"

    def __str__(self) -> str:
        return self.to_text()


def _data_tiles(tiles: TileAssignment, types: tuple[SubgroupType, ...]) -> int:
    """How many tiles the data dims (those before the subgroup dims) make together."""
    return math.prod(tiles.dims[: len(tiles.dims) - len(types)])


def _normalize_subgroups(
    tiles: TileAssignment, types: tuple[SubgroupType, ...]
) -> tuple[TileAssignment, tuple[SubgroupType, ...]]:
    """Drops size-1 subgroup dims, then merges each type's dims into one, in canonical type order."""
    num_data = len(tiles.dims) - len(types)
    dims_of_type: dict[SubgroupType, list[int]] = {t: [] for t in _SUBGROUP_ORDER}
    for offset, subgroup_type in enumerate(types):
        if tiles.dims[num_data + offset] != 1:
            dims_of_type[subgroup_type].append(num_data + offset)
    present = tuple(t for t in _SUBGROUP_ORDER if dims_of_type[t])
    perm = list(range(num_data)) + [d for t in present for d in dims_of_type[t]]
    ones = [d for d in range(num_data, len(tiles.dims)) if tiles.dims[d] == 1]
    transposed = tiles.transpose(perm + ones)
    merged = tuple(math.prod(tiles.dims[d] for d in dims_of_type[t]) for t in present)
    new_dims = tiles.dims[:num_data] + merged
    return transposed.reshape(new_dims), present


# --------------------------------------------------------------------------
# Parsing
# --------------------------------------------------------------------------

_TOKEN = re.compile(
    r"""(?P<space>\s+)
      | (?P<le><=)
      | (?P<punct>[{}\[\](),])
      | (?P<attr>[A-Za-z_][A-Za-z0-9_.]*=)
      | (?P<name>[A-Za-z_][A-Za-z0-9_.]*)
      | (?P<int>-?[0-9]+)
      | (?P<string>"(?:[^"\\]|\\.)*")""",
    re.VERBOSE,
)


@dataclass(frozen=True)
class _Token:
    kind: str  # le, punct, attr, name, int, string, end
    text: str
    column: int


def _tokenize(text: str) -> list[_Token]:
    tokens = []
    position = 0
    while position < len(text):
        match = _TOKEN.match(text, position)
        if match is None:
            if text[position] == '"':
                raise _error(text, position, "unterminated string")
            raise _error(text, position, f"unexpected character {text[position]!r}")
        if match.lastgroup != "space":
            tokens.append(_Token(match.lastgroup, match.group(), position))
        position = match.end()
    tokens.append(_Token("end", "", len(text)))
    return tokens


def _error(text: str, column: int, message: str) -> ValueError:
    caret = " " * column + "^"
    return ValueError(f"invalid HloSharding at column {column + 1}: {message}\n  {text}\n  {caret}")


def _describe(token: _Token) -> str:
    return "end of text" if token.kind == "end" else repr(token.text)


_SINGLE_KINDS = {k.value: k for k in Kind if k not in (Kind.TILED, Kind.TUPLE)}


def _ints(values: Sequence[int]) -> str:
    return ",".join(map(str, values))


def _name(token: _Token) -> str:
    """An attribute's name as the user wrote it, without the `=`."""
    return token.text.rstrip("=")


@dataclass
class _Attributes:
    """The attributes of one sharding, as read (the token of each, for error positions)."""

    kind: _Token | None = None  # replicated, manual, unknown, unreduced, maximal or devices=
    device: int | None = None
    tiles: TileAssignment | None = None
    subgroups: _Token | None = None  # last_tile_dim_replicate or last_tile_dims=
    subgroup_types: tuple[SubgroupType, ...] = ()
    shard_group: ShardGroup | None = None
    metadata: tuple[OpMetadata, ...] = ()


class _Parser:
    """Recursive descent over XLA's sharding grammar; a sharding's attributes come in any order."""

    def __init__(self, text: str):
        self.text = text
        self.tokens = _tokenize(text)
        self.index = 0

    # ---- token helpers ----

    @property
    def token(self) -> _Token:
        return self.tokens[self.index]

    def error(self, message: str, token: _Token | None = None) -> ValueError:
        return _error(self.text, (token or self.token).column, message)

    def advance(self) -> _Token:
        token = self.token
        self.index += 1
        return token

    def accept(self, text: str) -> bool:
        if self.token.kind in ("punct", "le") and self.token.text == text:
            self.index += 1
            return True
        return False

    def expect(self, text: str, what: str) -> None:
        if not self.accept(text):
            raise self.error(f"expected '{text}' {what}, got {_describe(self.token)}")

    def integer(self, what: str, minimum: int | None = None) -> int:
        token = self.token
        if token.kind != "int":
            raise self.error(f"expected an integer {what}, got {_describe(token)}")
        self.index += 1
        value = int(token.text)
        if minimum is not None and value < minimum:
            raise self.error(f"{what} must be at least {minimum}, got {value}", token)
        if not -(2**63) <= value < 2**63:  # XLA's parser wraps such a value around; pysdy refuses it
            raise self.error(f"{what} {value} does not fit in a 64-bit integer", token)
        return value

    def integer_list(self, close: str, what: str, minimum: int | None = None) -> list[int]:
        """Comma-separated integers up to (and consuming) `close`; may be empty."""
        values = []
        if self.accept(close):
            return values
        while True:
            values.append(self.integer(what, minimum))
            if self.accept(close):
                return values
            self.expect(",", f"or '{close}' after {what}")

    # ---- shardings ----

    def parse(self) -> HloSharding:
        self.expect("{", "to start a sharding")
        if self.accept("}"):
            sharding = HloSharding.tuple_of(())
        elif self.token.text == "{":
            elements = [self.tuple_element()]
            while self.accept(","):
                elements.append(self.tuple_element())
            self.expect("}", "or ',' after a tuple element")
            sharding = HloSharding.tuple_of(elements)
        else:
            sharding = self.single()
        if self.token.kind != "end":
            raise self.error(f"unexpected {_describe(self.token)} after the sharding")
        return sharding

    def tuple_element(self) -> HloSharding:
        self.expect("{", "to start a tuple element")
        if self.token.text == "{":
            raise self.error("tuple shardings cannot be nested")
        return self.single()

    def single(self) -> HloSharding:
        """The attributes of one sharding up to its closing '}', as a canonical sharding."""
        attributes = _Attributes()
        seen: set[str] = set()
        while not self.accept("}"):
            token = self.advance()
            if token.kind not in ("name", "attr"):
                message = f"expected a sharding attribute or '}}', got {_describe(token)}"
                raise self.error(message, token)
            if token.text in seen:
                raise self.error(f"'{_name(token)}' appears twice", token)
            seen.add(token.text)
            self.attribute(token, attributes)
        return self.build(attributes)

    def attribute(self, token: _Token, attributes: _Attributes) -> None:
        key = token.text
        if key in _SINGLE_KINDS or key == "devices=":
            if attributes.kind is not None:
                raise self.error(f"'{_name(token)}' conflicts with '{_name(attributes.kind)}'", token)
            attributes.kind = token
            if key == "devices=":
                attributes.tiles = self.tile_assignment()
        elif key == "device=":
            attributes.device = self.integer("device id", minimum=0)
        elif key in ("last_tile_dim_replicate", "last_tile_dims="):
            if attributes.subgroups is not None:
                message = f"'{_name(token)}' conflicts with '{_name(attributes.subgroups)}'"
                raise self.error(message, token)
            attributes.subgroups = token
            if key == "last_tile_dims=":
                attributes.subgroup_types = self.subgroup_types()
        elif key in ("shard_as", "shard_like"):
            if attributes.shard_group is not None:
                other = "shard_like" if attributes.shard_group.shard_like else "shard_as"
                raise self.error(f"'{key}' conflicts with '{other}'", token)
            shard_group_id = self.integer("shard group id", minimum=0)
            attributes.shard_group = ShardGroup(shard_group_id, key == "shard_like")
        elif key == "metadata=":
            attributes.metadata = self.metadata()
        else:
            raise self.error(f"unknown sharding attribute '{_name(token)}'", token)

    def build(self, attributes: _Attributes) -> HloSharding:
        kind_token, subgroups, metadata = attributes.kind, attributes.subgroups, attributes.metadata
        if kind_token is None:
            kinds = ", ".join(list(_SINGLE_KINDS) + ["devices="])
            raise self.error(f"expected one of {kinds}", self.tokens[self.index - 1])
        kind = Kind.TILED if attributes.tiles is not None else _SINGLE_KINDS[kind_token.text]
        if kind is Kind.MAXIMAL and attributes.device is None:
            raise self.error("'maximal' needs 'device=N'", kind_token)
        if kind is not Kind.MAXIMAL and attributes.device is not None:
            message = f"'device=' belongs to 'maximal', not '{_name(kind_token)}'"
            raise self.error(message, kind_token)
        if subgroups is not None and kind is not Kind.TILED:
            raise self.error(f"'{_name(subgroups)}' needs 'devices='", subgroups)
        if kind is Kind.MAXIMAL:
            sharding = HloSharding.maximal(attributes.device, metadata)
        elif kind is not Kind.TILED:
            sharding = HloSharding(kind, metadata=metadata)
        elif subgroups is None:
            sharding = HloSharding.tiled(attributes.tiles, metadata)
        elif subgroups.text == "last_tile_dim_replicate":
            sharding = HloSharding.partially_replicated(attributes.tiles, metadata)
        else:
            types, rank = attributes.subgroup_types, len(attributes.tiles.dims)
            if len(types) > rank:
                message = f"{len(types)} subgroup types but the tile shape has only {rank} dims"
                raise self.error(message, subgroups)
            sharding = HloSharding.subgroup(attributes.tiles, types, metadata)
        return sharding.with_shard_group(attributes.shard_group)

    def tile_assignment(self) -> TileAssignment:
        """`[dims]` then `<=[reshape_dims]` (with `T(perm)` when several), or a device list."""
        start = self.token
        self.expect("[", "to start the tile shape")
        dims = self.integer_list("]", "tile dim", minimum=1)
        if not dims:
            raise self.error("the tile shape needs at least one dim", start)
        if self.accept("<="):
            return TileAssignment.from_iota(dims, self.iota(math.prod(dims), dims))
        list_token = self.token
        devices = [self.integer("device id", minimum=0)]
        while self.accept(","):
            devices.append(self.integer("device id", minimum=0))
        count = math.prod(dims)
        if len(devices) != count:
            message = f"tile shape [{_ints(dims)}] needs {count} devices, got {len(devices)}"
            raise self.error(message, list_token)
        if count == 1:
            message = "an explicit device list needs more than one device (use 'maximal device=N')"
            raise self.error(message, list_token)
        if len(set(devices)) != len(devices):
            repeated = next(d for d in devices if devices.count(d) > 1)
            raise self.error(f"device {repeated} appears more than once", list_token)
        return TileAssignment.from_devices(dims, devices)

    def iota(self, count: int, dims: list[int]) -> Iota:
        """`[reshape_dims]` and `T(perm)` after `<=`, for a tile shape `dims` of `count` devices."""
        start = self.token
        self.expect("[", "to start the iota reshape dims")
        reshape_dims = self.integer_list("]", "iota reshape dim", minimum=1)
        if not reshape_dims:
            raise self.error("the iota needs at least one reshape dim", start)
        perm = list(range(len(reshape_dims)))
        if self.token.kind == "name" and self.token.text == "T":
            t_token = self.advance()
            if len(reshape_dims) == 1:
                raise self.error("a single iota reshape dim takes no 'T(...)'", t_token)
            self.expect("(", "after 'T'")
            perm = self.integer_list(")", "transpose dim")
            if sorted(perm) != list(range(len(reshape_dims))):
                message = f"T({_ints(perm)}) is not a permutation of the {len(reshape_dims)} reshape dims"
                raise self.error(message, t_token)
        elif len(reshape_dims) > 1:
            raise self.error(f"expected 'T(' after {len(reshape_dims)} iota reshape dims")
        if math.prod(reshape_dims) != count:
            message = (
                f"the iota has {math.prod(reshape_dims)} devices but tile shape [{_ints(dims)}]"
                f" needs {count}"
            )
            raise self.error(message, start)
        return Iota.canonical(reshape_dims, perm)

    def subgroup_types(self) -> tuple[SubgroupType, ...]:
        self.expect("{", "to start the subgroup types")
        types = []
        if self.accept("}"):
            return ()
        while True:
            token = self.advance()
            try:
                types.append(SubgroupType(token.text))
            except ValueError:
                names = ", ".join(t.value for t in SubgroupType)
                message = f"unknown subgroup type {_describe(token)} (expected {names})"
                raise self.error(message, token) from None
            if self.accept("}"):
                return tuple(types)
            self.expect(",", "or '}' after a subgroup type")

    # ---- metadata ----

    def metadata(self) -> tuple[OpMetadata, ...]:
        """`{fields}` (one entry; `{}` is one empty entry) or `{{fields}, {fields}}`."""
        self.expect("{", "to start the metadata")
        if self.token.text != "{":
            return (self.metadata_fields(),)
        entries = []
        while True:
            self.expect("{", "to start a metadata entry")
            entries.append(self.metadata_fields())
            if self.accept("}"):
                return tuple(entries)
            self.expect(",", "or '}' after a metadata entry")

    def metadata_fields(self) -> OpMetadata:
        """`name=value` pairs (commas between them optional) up to and including '}'."""
        values: dict[str, object] = {}
        while not self.accept("}"):
            token = self.advance()
            name = _name(token)
            if token.kind != "attr" or name not in _METADATA_FIELDS:
                known = ", ".join(_METADATA_FIELDS)
                message = f"unknown metadata attribute '{name}' (expected one of {known})"
                raise self.error(message, token)
            if name in values:
                raise self.error(f"metadata attribute '{name}' appears twice", token)
            values[name] = self.metadata_value(name)
            self.accept(",")
        return OpMetadata(**values)

    def metadata_value(self, name: str) -> object:
        field_type = _METADATA_FIELDS[name].type
        token = self.token
        if field_type == "str":
            if token.kind != "string":
                raise self.error(f"expected a quoted string for '{name}', got {_describe(token)}")
            self.advance()
            try:
                return c_unescape(token.text[1:-1])
            except ValueError as e:
                raise self.error(f"in '{name}': {e}", token) from None
        if field_type == "int":
            value = self.integer(f"for '{name}'")
            if value not in _INT32:
                raise self.error(f"'{name}' must fit in 32 bits, got {value}", token)
            return value
        self.expect("{", f"to start '{name}'")
        profile_types = self.integer_list("}", "profile type")
        if any(p not in _PROFILE_TYPES for p in profile_types):
            message = f"profile types are 0..{_PROFILE_TYPES[-1]}, got {{{_ints(profile_types)}}}"
            raise self.error(message, token)
        return tuple(profile_types)
