"""Kubernetes protobuf request bodies (``application/vnd.kubernetes.protobuf``) as the JSON object
the client would have sent as JSON.

kubectl's generator commands (``create namespace|configmap|secret|deployment|...``) build a typed
object and send it as protobuf: the magic ``k8s\\x00``, then a ``runtime.Unknown`` whose
``typeMeta`` names the kind and whose ``raw`` is the object's message. The message is decoded by
hand against ``proto_schema.json`` (written by ``scripts/proto_schema.py`` from Kubernetes'
``generated.proto`` files and the Go struct tags), and turned into JSON the way Go's encoder turns
the decoded struct into JSON: ``omitempty`` zero values dropped, pointer fields kept even at zero
(``replicas: 0``), embedded structs inlined, ``bytes`` as base64, and the wrapper types of
apimachinery (Time, Duration, Quantity, IntOrString, RawExtension) in their JSON forms.

A body that is not protobuf, is cut short, or carries a field the schema lacks is a 400 naming
the kind and the field; a kind without a schema (a custom resource) is a 415.
"""

from __future__ import annotations

import base64
import functools
import json
import struct
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from itbench.cluster.manifests import MAX_DEPTH, depth_ok
from itbench.cluster.state import ClusterError
from itbench.gotime import format_duration

MAGIC = b"k8s\x00"
#: The same bound the JSON path has (``server.MAX_BODY``); kept here so the decoder is safe alone.
MAX_BODY = 10 * 2**20
SCHEMA_PATH = Path(__file__).with_name("proto_schema.json")

_META = "k8s.io.apimachinery.pkg.apis.meta.v1."
TIME = _META + "Time"
MICRO_TIME = _META + "MicroTime"
DURATION = _META + "Duration"
FIELDS_V1 = _META + "FieldsV1"
QUANTITY = "k8s.io.apimachinery.pkg.api.resource.Quantity"
INT_OR_STRING = "k8s.io.apimachinery.pkg.util.intstr.IntOrString"
RAW_EXTENSION = "k8s.io.apimachinery.pkg.runtime.RawExtension"

VARINT, FIXED64, LENGTH, FIXED32 = 0, 1, 2, 5
_WIRE_OF = {
    "bool": VARINT,
    "int32": VARINT,
    "int64": VARINT,
    "uint32": VARINT,
    "uint64": VARINT,
    "sint32": VARINT,
    "sint64": VARINT,
    "double": FIXED64,
    "fixed64": FIXED64,
    "sfixed64": FIXED64,
    "float": FIXED32,
    "fixed32": FIXED32,
    "sfixed32": FIXED32,
    "string": LENGTH,
    "bytes": LENGTH,
}
_ZERO: dict[str, Any] = {"bool": False, "string": "", "double": 0.0, "float": 0.0}


class WireError(ValueError):
    """Bytes that are not valid protobuf where they stand (the caller adds kind and field)."""

    def __init__(self, message: str, number: int | None = None) -> None:
        super().__init__(message)
        #: the field whose value broke, when the key was read
        self.number = number


# -- schema -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class FieldSpec:
    number: int
    json: str
    #: a scalar type name, or the fully qualified message name
    type: str
    repeated: bool = False
    #: (key type, value type) of a ``map<K, V>`` field
    map: tuple[str, str] | None = None
    pointer: bool = False
    omitempty: bool = False
    #: an embedded Go struct: its fields are merged into the parent object
    inline: bool = False

    @property
    def is_message(self) -> bool:
        return self.type not in _WIRE_OF


@dataclass(frozen=True)
class MessageSpec:
    name: str
    fields: dict[int, FieldSpec]
    #: a Go slice type (``ExtraValue []string``): its JSON is the ``items`` array itself
    is_list: bool = False


@dataclass(frozen=True)
class Schema:
    #: "apiVersion/kind" ("*/kind" for kinds every group version has) -> message name
    kinds: dict[str, str]
    messages: dict[str, MessageSpec]

    def message_of(self, api_version: str, kind: str) -> str | None:
        return self.kinds.get(f"{api_version}/{kind}") or self.kinds.get(f"*/{kind}")


@functools.cache
def schema() -> Schema:
    table = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    messages = {}
    for name, entry in table["messages"].items():
        fields = {}
        for number, raw in entry["fields"].items():
            pair = raw.get("map")
            fields[int(number)] = FieldSpec(
                number=int(number),
                json=raw.get("json", ""),
                type=raw.get("type", pair[1] if pair else ""),
                repeated=bool(raw.get("repeated")),
                map=(pair[0], pair[1]) if pair else None,
                pointer=bool(raw.get("pointer")),
                omitempty=bool(raw.get("omitempty")),
                inline=bool(raw.get("inline")),
            )
        messages[name] = MessageSpec(name, fields, bool(entry.get("list")))
    return Schema(dict(table["kinds"]), messages)


# -- wire format --------------------------------------------------------------------------------
def read_varint(data: bytes, pos: int) -> tuple[int, int]:
    """The unsigned varint at ``pos`` and the position after it."""
    result = shift = 0
    for i in range(pos, min(pos + 10, len(data))):
        byte = data[i]
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result & 0xFFFF_FFFF_FFFF_FFFF, i + 1
        shift += 7
    if len(data) - pos >= 10:
        raise WireError("varint longer than 10 bytes")
    raise WireError("truncated varint")


def iter_fields(data: bytes) -> list[tuple[int, int, int | bytes]]:
    """Every (field number, wire type, value) of one message: ints for varint and fixed fields,
    bytes for length-delimited ones."""
    out: list[tuple[int, int, int | bytes]] = []
    pos = 0
    while pos < len(data):
        key, pos = read_varint(data, pos)
        number, wire = key >> 3, key & 7
        if number == 0:
            raise WireError("field number 0")
        value: int | bytes
        if wire == VARINT:
            value, pos = _field_varint(data, pos, number)
        elif wire in (FIXED64, FIXED32):
            size = 8 if wire == FIXED64 else 4
            if pos + size > len(data):
                raise WireError(f"truncated fixed{size * 8} value (field {number})", number)
            value = int.from_bytes(data[pos : pos + size], "little")
            pos += size
        elif wire == LENGTH:
            length, pos = _field_varint(data, pos, number)
            if pos + length > len(data):
                raise WireError(
                    f"declares {length} bytes but only {len(data) - pos} remain (field {number})",
                    number,
                )
            value = data[pos : pos + length]
            pos += length
        else:
            raise WireError(f"unsupported wire type {wire} (field {number})", number)
        out.append((number, wire, value))
    return out


def _field_varint(data: bytes, pos: int, number: int) -> tuple[int, int]:
    try:
        return read_varint(data, pos)
    except WireError as exc:
        raise WireError(f"{exc} (field {number})", number) from None


def _signed(value: int, bits: int) -> int:
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >> (bits - 1) else value


def scalar(type_: str, wire: int, value: int | bytes) -> Any:
    """A scalar field's value as JSON: ints and floats as numbers, bytes as base64."""
    if isinstance(value, bytes):
        if type_ == "string":
            try:
                return value.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise WireError(f"string is not UTF-8 ({exc.reason} at byte {exc.start})") from None
        return base64.b64encode(value).decode("ascii")
    if type_ == "bool":
        return value != 0
    if type_ in ("int32", "sfixed32"):
        return _signed(value, 32)
    if type_ in ("int64", "sfixed64"):
        return _signed(value, 64)
    if type_ in ("sint32", "sint64"):
        return (value >> 1) ^ -(value & 1)
    if type_ == "uint32":
        return value & 0xFFFF_FFFF
    if type_ == "double":
        return struct.unpack("<d", value.to_bytes(8, "little"))[0]
    if type_ == "float":
        return struct.unpack("<f", value.to_bytes(4, "little"))[0]
    return value  # uint64, fixed32, fixed64


def _packed(type_: str, data: bytes) -> list[Any]:
    """The values of a packed repeated scalar field."""
    wire = _WIRE_OF[type_]
    values: list[Any] = []
    pos = 0
    while pos < len(data):
        if wire == VARINT:
            raw, pos = read_varint(data, pos)
        else:
            size = 8 if wire == FIXED64 else 4
            if pos + size > len(data):
                raise WireError("truncated packed value")
            raw = int.from_bytes(data[pos : pos + size], "little")
            pos += size
        values.append(scalar(type_, wire, raw))
    return values


# -- messages to JSON ---------------------------------------------------------------------------
class _Decoder:
    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.schema = schema()

    def fail(self, path: str, problem: str) -> ClusterError:
        where = f"{self.kind} {path}" if path else self.kind
        return ClusterError(400, "BadRequest", f"protobuf body of {where}: {problem}")

    def message(self, data: bytes, name: str, path: str, depth: int) -> Any:
        if depth > MAX_DEPTH:
            raise self.fail(path, f"nested more than {MAX_DEPTH} levels deep")
        special = _SPECIAL.get(name)
        if special is not None:
            return special(self, data, path, depth)
        spec = self.schema.messages.get(name)
        if spec is None:
            raise self.fail(path, f"message {name} is not in the schema")
        try:
            wire_fields = iter_fields(data)
        except WireError as exc:
            broken = spec.fields.get(exc.number) if exc.number else None
            raise self.fail(_join(path, broken) if broken else path, str(exc)) from None
        values: dict[int, Any] = {}
        for number, wire, raw in wire_fields:
            field = spec.fields.get(number)
            if field is None:
                raise self.fail(
                    path,
                    f"field number {number} is not a field of {name.rsplit('.', 1)[-1]}",
                )
            self.field(field, wire, raw, values, _join(path, field), depth)
        if spec.is_list:
            return values.get(1)
        return self.to_json(spec, values, path, depth)

    def field(
        self,
        field: FieldSpec,
        wire: int,
        raw: int | bytes,
        values: dict[int, Any],
        path: str,
        depth: int,
    ) -> None:
        """Decode one wire occurrence of ``field`` into ``values`` (lists and maps accumulate)."""
        if field.map is not None:
            key, value = self.map_entry(field, wire, raw, path, depth)
            values.setdefault(field.number, {})[key] = value
            return
        if field.repeated:
            items = values.setdefault(field.number, [])
            if not field.is_message and wire == LENGTH and _WIRE_OF[field.type] != LENGTH:
                try:
                    items.extend(_packed(field.type, raw))  # type: ignore[arg-type]  # wire is LENGTH here: raw is the field's bytes, not a varint
                except WireError as exc:
                    raise self.fail(path, str(exc)) from None
                return
            items.append(self.single(field, wire, raw, f"{path}[{len(items)}]", depth))
            return
        values[field.number] = self.single(field, wire, raw, path, depth)

    def single(self, field: FieldSpec, wire: int, raw: int | bytes, path: str, depth: int) -> Any:
        expected = LENGTH if field.is_message else _WIRE_OF[field.type]
        if wire != expected:
            raise self.fail(path, f"wire type {wire} where {field.type} needs {expected}")
        if field.is_message:
            return self.message(raw, field.type, path, depth + 1)  # type: ignore[arg-type]  # a message field's wire type is LENGTH (checked above): raw is bytes
        try:
            return scalar(field.type, wire, raw)
        except WireError as exc:
            raise self.fail(path, str(exc)) from None

    def map_entry(
        self, field: FieldSpec, wire: int, raw: int | bytes, path: str, depth: int
    ) -> tuple[Any, Any]:
        assert field.map is not None
        if wire != LENGTH:
            raise self.fail(path, f"map entry with wire type {wire}")
        key_type, value_type = field.map
        key_spec = FieldSpec(1, "key", key_type)
        value_spec = FieldSpec(2, "value", value_type)
        key: Any = None
        value: Any = None
        try:
            entry = iter_fields(raw)  # type: ignore[arg-type]  # wire is LENGTH (checked above): raw is bytes
        except WireError as exc:
            raise self.fail(path, str(exc)) from None
        for number, entry_wire, entry_raw in entry:
            if number == 1:
                key = self.single(key_spec, entry_wire, entry_raw, f"{path}(key)", depth)
            elif number == 2:
                value = self.single(value_spec, entry_wire, entry_raw, f"{path}[{key}]", depth)
            else:
                raise self.fail(path, f"map entry has field number {number}")
        if key is None:
            key = _ZERO.get(key_type, 0)
        if value is None:  # an absent value is the type's zero
            value = (
                self.message(b"", value_type, f"{path}[{key}]", depth + 1)
                if value_spec.is_message
                else (None if value_type == "bytes" else _ZERO.get(value_type, 0))
            )
        return str(key) if not isinstance(key, str) else key, value

    def to_json(
        self, spec: MessageSpec, values: dict[int, Any], path: str, depth: int
    ) -> dict[str, Any]:
        """The Go encoder's view of the decoded struct: what is absent on the wire is the Go zero
        value, which ``omitempty`` drops for scalars, slices and maps but never for structs."""
        out: dict[str, Any] = {}
        for number, field in spec.fields.items():
            present = number in values
            value = values.get(number)
            if field.inline:
                inner = (
                    value
                    if present
                    else self.message(b"", field.type, _join(path, field), depth + 1)
                )
                if isinstance(inner, dict):
                    out.update(inner)
                continue
            if field.repeated or field.map is not None:
                if present and value:
                    out[field.json] = value
                elif not field.omitempty:
                    out[field.json] = None  # a nil slice or map
                continue
            if field.is_message:
                if present:
                    out[field.json] = value
                elif not field.pointer:
                    out[field.json] = self.message(b"", field.type, _join(path, field), depth + 1)
                continue
            if present:
                if field.pointer or not field.omitempty or not _is_zero(value):
                    out[field.json] = value
            elif not field.pointer and not field.omitempty:
                out[field.json] = None if field.type == "bytes" else _ZERO.get(field.type, 0)
        return out

    # -- apimachinery's wrapper types, each with its own JSON form ----------------------------
    def plain(self, data: bytes, path: str) -> dict[int, Any]:
        """Field number -> last scalar value, for the small fixed wrapper messages."""
        try:
            return {number: value for number, _, value in iter_fields(data)}
        except WireError as exc:
            raise self.fail(path, str(exc)) from None

    def time(self, data: bytes, path: str, depth: int, micro: bool = False) -> str | None:
        fields = self.plain(data, path)
        seconds = _signed(_int(fields.get(1, 0)), 64)
        nanos = _signed(_int(fields.get(2, 0)), 32)
        if seconds == 0 and nanos == 0:
            return None  # Go's zero time.Time marshals as null
        try:
            moment = datetime(1970, 1, 1, tzinfo=UTC) + timedelta(seconds=seconds)
        except OverflowError:
            raise self.fail(path, f"time of {seconds} seconds is out of range") from None
        if micro:
            return moment.strftime("%Y-%m-%dT%H:%M:%S") + f".{nanos // 1000:06d}Z"
        return moment.strftime("%Y-%m-%dT%H:%M:%SZ")

    def duration(self, data: bytes, path: str, depth: int) -> str:
        return format_duration(_signed(_int(self.plain(data, path).get(1, 0)), 64))

    def quantity(self, data: bytes, path: str, depth: int) -> str:
        text = self.plain(data, path).get(1, b"0")
        return self._text(text, path)

    def int_or_string(self, data: bytes, path: str, depth: int) -> int | str:
        fields = self.plain(data, path)
        if _int(fields.get(1, 0)) == 1:
            return self._text(fields.get(3, b""), path)
        return _signed(_int(fields.get(2, 0)), 32)

    def raw_json(self, data: bytes, path: str, depth: int) -> Any:
        """RawExtension and FieldsV1: JSON bytes (or a nested protobuf object) in field 1."""
        raw = self.plain(data, path).get(1)
        if not isinstance(raw, bytes) or not raw:
            return None
        if raw.startswith(MAGIC):
            return decode_body(raw, depth + 1)
        try:
            value = json.loads(raw)
        except (ValueError, RecursionError) as exc:
            raise self.fail(path, f"embedded object is not JSON: {exc}") from None
        if not depth_ok(value, MAX_DEPTH - depth):
            raise self.fail(path, f"nested more than {MAX_DEPTH} levels deep")
        return value

    def _text(self, value: Any, path: str) -> str:
        if not isinstance(value, bytes):
            raise self.fail(path, "expected a string")
        try:
            return value.decode("utf-8")
        except UnicodeDecodeError:
            raise self.fail(path, "string is not UTF-8") from None


_SPECIAL: dict[str, Callable[[_Decoder, bytes, str, int], Any]] = {
    TIME: _Decoder.time,
    MICRO_TIME: lambda self, data, path, depth: self.time(data, path, depth, micro=True),
    DURATION: _Decoder.duration,
    QUANTITY: _Decoder.quantity,
    INT_OR_STRING: _Decoder.int_or_string,
    RAW_EXTENSION: _Decoder.raw_json,
    FIELDS_V1: _Decoder.raw_json,
}


def _join(path: str, field: FieldSpec) -> str:
    name = field.json or field.type.rsplit(".", 1)[-1]
    return f"{path}.{name}" if path else name


def _int(value: Any) -> int:
    if not isinstance(value, int):
        raise WireError("expected a number")
    return value


def _is_zero(value: Any) -> bool:
    return value in (0, False, "") and not (isinstance(value, float) and str(value) == "-0.0")


# -- the request body ---------------------------------------------------------------------------
def decode_body(body: bytes, depth: int = 0) -> dict[str, Any]:
    """A ``k8s\\x00`` + ``runtime.Unknown`` body as the JSON object of the kind it names."""
    if len(body) > MAX_BODY:
        raise ClusterError(
            413, "RequestEntityTooLarge", f"request body of {len(body)} bytes exceeds {MAX_BODY}"
        )
    if not body.startswith(MAGIC):
        raise ClusterError(
            400, "BadRequest", "protobuf body does not start with the Kubernetes magic k8s\\x00"
        )
    envelope = _Decoder("request")
    try:
        wrapper = {number: value for number, _, value in iter_fields(body[len(MAGIC) :])}
        type_meta = {number: value for number, _, value in iter_fields(_bytes(wrapper.get(1)))}
        raw = _bytes(wrapper.get(2))
    except WireError as exc:
        raise envelope.fail("envelope (runtime.Unknown)", str(exc)) from None
    api_version = envelope._text(type_meta.get(1, b""), "typeMeta.apiVersion")
    kind = envelope._text(type_meta.get(2, b""), "typeMeta.kind")
    encoding = envelope._text(wrapper.get(3, b""), "contentEncoding")
    if not kind or not api_version:
        raise ClusterError(400, "BadRequest", "protobuf body names no apiVersion and kind")
    if encoding:
        raise ClusterError(
            415, "UnsupportedMediaType", f"protobuf body of {kind}: content encoding {encoding!r}"
        )
    message = schema().message_of(api_version, kind)
    if message is None:
        raise ClusterError(
            415,
            "UnsupportedMediaType",
            f"protobuf bodies of {kind} ({api_version}) are not supported offline: "
            "the offline cluster knows the protobuf form of built-in kinds only; send JSON",
        )
    decoded = _Decoder(kind).message(raw, message, "", depth)
    return {"kind": kind, "apiVersion": api_version, **decoded}


def _bytes(value: Any) -> bytes:
    if value is None:
        return b""
    if not isinstance(value, bytes):
        raise WireError("expected a length-delimited field")
    return value
