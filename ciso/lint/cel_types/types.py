"""The type lattice the checker reasons over: CEL's primitive types, parameterised lists, maps
and optionals, the object types Kubernetes declares (``request``, ``namespaceObject``), and
``dyn``, which accepts and is accepted by everything. Anything the checker cannot know (every
field of ``object``) is ``dyn``: a check never fails on a ``dyn`` operand."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class CelType:
    #: dyn, null, bool, int, uint, double, string, bytes, duration, timestamp, type, list, map,
    #: optional, object
    kind: str
    params: tuple[CelType, ...] = ()
    #: an object type's name (``kubernetes.UserInfo``)
    name: str = ""
    #: an object type's fields, in declaration order
    fields: tuple[tuple[str, CelType], ...] = ()

    def __str__(self) -> str:
        if self.kind == "object":
            return self.name
        if self.params:
            return f"{self.kind}({', '.join(str(p) for p in self.params)})"
        return self.kind

    @property
    def is_dyn(self) -> bool:
        return self.kind == "dyn"

    def field(self, name: str) -> CelType | None:
        return dict(self.fields).get(name)


DYN = CelType("dyn")
NULL = CelType("null")
BOOL = CelType("bool")
INT = CelType("int")
UINT = CelType("uint")
DOUBLE = CelType("double")
STRING = CelType("string")
BYTES = CelType("bytes")
DURATION = CelType("duration")
TIMESTAMP = CelType("timestamp")
TYPE = CelType("type")

NUMBERS = frozenset(("int", "uint", "double"))
#: types whose values are never containers, so selecting a field of them is an error
SCALARS = frozenset(("bool", "int", "uint", "double", "string", "bytes", "null"))
ORDERED = frozenset(("int", "uint", "double", "string", "bytes", "bool", "duration", "timestamp"))


def list_of(element: CelType = DYN) -> CelType:
    return CelType("list", (element,))


def map_of(key: CelType = DYN, value: CelType = DYN) -> CelType:
    return CelType("map", (key, value))


def optional_of(value: CelType = DYN) -> CelType:
    return CelType("optional", (value,))


def object_type(type_name: str, /, **fields: CelType) -> CelType:
    return CelType("object", name=type_name, fields=tuple(fields.items()))


def compatible(a: CelType, b: CelType) -> bool:
    """Whether a value of type ``a`` may stand where ``b`` is expected (and vice versa): equal
    kinds with compatible parameters, or either side dyn."""
    if a.is_dyn or b.is_dyn:
        return True
    if a.kind != b.kind:
        return False
    if a.kind == "object":
        return a.name == b.name
    return all(compatible(x, y) for x, y in zip(a.params, b.params, strict=False))


def join(a: CelType, b: CelType) -> CelType:
    """The type both branches of a conditional (or a list's elements) share; dyn if none."""
    if a.is_dyn or b.is_dyn or not compatible(a, b):
        return DYN
    if a.kind in ("list", "map", "optional"):
        return CelType(a.kind, tuple(join(x, y) for x, y in zip(a.params, b.params, strict=True)))
    return a


def element(container: CelType) -> CelType:
    """What a comprehension over ``container`` binds: a list's elements, a map's keys."""
    if container.kind in ("list", "map"):
        return container.params[0]
    return DYN
