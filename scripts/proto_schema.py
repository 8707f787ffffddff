"""Regenerate ``itbench/cluster/proto_schema.json``: the protobuf layout of the built-in kinds the
offline cluster serves, for decoding kubectl's ``application/vnd.kubernetes.protobuf`` bodies.

    .venv/bin/python scripts/proto_schema.py /work/.mirror/kubernetes+api/repo \\
        /work/.mirror/kubernetes+apimachinery/repo [--output itbench/cluster/proto_schema.json]

Both arguments are git directories of Kubernetes' ``k8s.io/api`` and ``k8s.io/apimachinery``
repositories (bare clones are fine): every file is read from ``HEAD`` with ``git show`` and
nothing is copied. Two sources are read per Go package:

* ``generated.proto`` gives each message's fields: number, label (``optional``/``repeated``),
  scalar type or message reference, and ``map<K, V>``;
* the Go structs in the package's ``*.go`` files give, per protobuf field number (the second
  item of the ``protobuf:"..."`` struct tag), what the JSON encoder does with the value:
  the ``json`` name, ``omitempty``, whether the Go field is a pointer (``*int32``: a zero sent on
  the wire is a real value, ``replicas: 0``), and whether it is an embedded struct, whose fields
  Go's encoder inlines into the parent object (``Volume``'s ``VolumeSource``).

Reading the struct tags was chosen over guessing from the proto (proto2 ``optional`` is written
for every field, pointer or not, so the ``.proto`` cannot tell them apart) and over the OpenAPI
document (which has no notion of pointers at all). A proto field with no Go field behind it stops
the script: the table must never guess.

Only the kinds of ``itbench.cluster.resources.BUILTIN_TYPES`` (and the review kinds the server
answers) are walked, with every message they reference; ``apiextensions.k8s.io`` lives in another
repository and is left out (kubectl has no generator command for it).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from itbench.cluster.resources import BUILTIN_TYPES  # noqa: E402 - after the sys.path entry for the checkout
from itbench.cluster.server import REVIEWS  # noqa: E402 - after the sys.path entry for the checkout

API_PREFIX = "k8s.io.api."
MACHINERY_PREFIX = "k8s.io.apimachinery."
#: Kinds every group version also accepts; kubectl may send them as protobuf.
META_KINDS = ("DeleteOptions",)
_MESSAGE = re.compile(r"^message (\w+) \{$")
_FIELD = re.compile(
    r"^\s*(optional|repeated|required)?\s*"
    r"(map<\s*([\w.]+)\s*,\s*([\w.]+)\s*>|[\w.]+)\s+(\w+)\s*=\s*(\d+)\s*;"
)
_STRUCT = re.compile(r"^type (\w+) struct \{\s*$")
_SLICE_TYPE = re.compile(r"^type (\w+) \[\]")
_GO_FIELD = re.compile(r"^\s*(?:(\w+)\s+)?(\S+)\s+`([^`]*)`")
_TAG = re.compile(r'(\w+):"([^"]*)"')
SCALARS = {
    "bool",
    "bytes",
    "double",
    "fixed32",
    "fixed64",
    "float",
    "int32",
    "int64",
    "sfixed32",
    "sfixed64",
    "sint32",
    "sint64",
    "string",
    "uint32",
    "uint64",
}


@dataclass
class GoField:
    json: str
    omitempty: bool
    pointer: bool
    embedded: bool


@dataclass
class GoPackage:
    #: struct name -> protobuf field number -> its Go field
    structs: dict[str, dict[int, GoField]] = field(default_factory=dict)
    #: Go types declared as a slice (``type Verbs []string``): their message wraps ``items``
    slices: set[str] = field(default_factory=set)


class Sources:
    def __init__(self, api_git: Path, machinery_git: Path) -> None:
        self.api_git, self.machinery_git = api_git, machinery_git
        self.protos: dict[str, dict[str, list[dict[str, object]]]] = {}
        self.go: dict[str, GoPackage] = {}

    def _where(self, package: str) -> tuple[Path, str]:
        """Git dir and folder of a proto package (``k8s.io.api.apps.v1`` -> api repo, apps/v1)."""
        if package.startswith(API_PREFIX):
            return self.api_git, package[len(API_PREFIX) :].replace(".", "/")
        if package.startswith(MACHINERY_PREFIX):
            return self.machinery_git, package[len(MACHINERY_PREFIX) :].replace(".", "/")
        raise SystemExit(f"proto package {package} is in neither repository")

    def _show(self, git: Path, path: str) -> str:
        done = subprocess.run(
            ["git", "--git-dir", str(git), "show", f"HEAD:{path}"],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise SystemExit(f"{git}: cannot read {path}: {done.stderr.strip()}")
        return done.stdout

    def head(self, git: Path) -> str:
        return subprocess.run(
            ["git", "--git-dir", str(git), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()

    def messages(self, package: str) -> dict[str, list[dict[str, object]]]:
        if package not in self.protos:
            git, folder = self._where(package)
            self.protos[package] = parse_proto(
                self._show(git, f"{folder}/generated.proto"), package
            )
        return self.protos[package]

    def go_package(self, package: str) -> GoPackage:
        if package not in self.go:
            git, folder = self._where(package)
            listing = subprocess.run(
                ["git", "--git-dir", str(git), "ls-tree", "--name-only", "HEAD", f"{folder}/"],
                capture_output=True,
                text=True,
                check=True,
            ).stdout.split()
            parsed = GoPackage()
            for path in listing:
                name = path.rsplit("/", 1)[-1]
                if not name.endswith(".go") or name.endswith("_test.go"):
                    continue
                if name.startswith(("zz_generated", "generated.")) or "swagger" in name:
                    continue
                parse_go(self._show(git, path), parsed)
            self.go[package] = parsed
        return self.go[package]


def _strip_comments(text: str) -> list[str]:
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.DOTALL)
    return [line.split("//", 1)[0].rstrip() for line in text.splitlines()]


def parse_proto(text: str, package: str) -> dict[str, list[dict[str, object]]]:
    """Message name -> its fields as the .proto declares them (k8s protos nest no messages)."""
    out: dict[str, list[dict[str, object]]] = {}
    current: list[dict[str, object]] | None = None
    for line in _strip_comments(text):
        match = _MESSAGE.match(line.strip())
        if match:
            current = out.setdefault(match.group(1), [])
            continue
        if line.strip() == "}":
            current = None
            continue
        found = _FIELD.match(line)
        if found and current is not None:
            label, type_, key, value, name, number = found.groups()
            entry: dict[str, object] = {"proto_name": name, "number": int(number)}
            if key:
                entry["map"] = [_qualify(key, package), _qualify(value, package)]
            else:
                entry["type"] = _qualify(type_, package)
                entry["repeated"] = label == "repeated"
            current.append(entry)
        elif line.strip() and current is not None:
            raise SystemExit(f"{package}: cannot parse proto line {line.strip()!r}")
    return out


def _qualify(type_: str, package: str) -> str:
    if type_ in SCALARS:
        return type_
    return type_[1:] if type_.startswith(".") else f"{package}.{type_}"


def parse_go(text: str, into: GoPackage) -> None:
    lines = _strip_comments(text)
    current: dict[int, GoField] | None = None
    for line in lines:
        if current is None:
            struct = _STRUCT.match(line)
            if struct:
                current = into.structs.setdefault(struct.group(1), {})
            slice_type = _SLICE_TYPE.match(line)
            if slice_type:
                into.slices.add(slice_type.group(1))
            continue
        if line.startswith("}"):
            current = None
            continue
        match = _GO_FIELD.match(line)
        if not match:
            continue
        name, go_type, tag = match.groups()
        tags = dict(_TAG.findall(tag))
        proto = tags.get("protobuf", "")
        if not proto or proto == "-":
            continue
        number = int(proto.split(",")[1])
        json_tag = tags.get("json", "").split(",")
        current[number] = GoField(
            json=json_tag[0],
            omitempty="omitempty" in json_tag[1:],
            pointer=go_type.startswith("*"),
            embedded=name is None and not json_tag[0],
        )


def build(sources: Sources) -> dict[str, object]:
    roots: dict[str, str] = {}
    for rtype in BUILTIN_TYPES:
        if rtype.group == "apiextensions.k8s.io":
            continue  # k8s.io/apiextensions-apiserver: not one of the two repositories
        package = f"{API_PREFIX}{(rtype.group.split('.')[0] or 'core')}.{rtype.version}"
        roots[f"{rtype.api_version}/{rtype.kind}"] = f"{package}.{rtype.kind}"
    for (group, version), kinds in REVIEWS.items():
        for kind in kinds.values():
            roots[f"{group}/{version}/{kind}"] = (
                f"{API_PREFIX}{group.split('.')[0]}.{version}.{kind}"
            )
    meta = f"{MACHINERY_PREFIX}pkg.apis.meta.v1"
    for kind in META_KINDS:
        roots[f"*/{kind}"] = f"{meta}.{kind}"

    messages: dict[str, dict[str, object]] = {}
    pending = sorted(set(roots.values()))
    while pending:
        full = pending.pop()
        if full in messages:
            continue
        package, _, name = full.rpartition(".")
        declared = sources.messages(package).get(name)
        if declared is None:
            raise SystemExit(f"message {full} is not in {package}'s generated.proto")
        go = sources.go_package(package)
        struct = go.structs.get(name)
        entry: dict[str, object] = {}
        if name in go.slices:
            entry["list"] = True  # JSON is the ``items`` array itself
        fields: dict[str, dict[str, object]] = {}
        for proto_field in declared:
            number = int(proto_field["number"])  # type: ignore[call-overload]  # a parsed .proto field's number is a digit string
            out: dict[str, object] = {
                k: v for k, v in proto_field.items() if k not in ("number", "proto_name")
            }
            if not out.get("repeated"):
                out.pop("repeated", None)
            go_field = (struct or {}).get(number)
            if name in go.slices or full in HAND_CODED:
                out["json"] = proto_field["proto_name"]
            elif go_field is not None:
                if go_field.embedded:
                    out["inline"] = True
                else:
                    out["json"] = go_field.json
                if go_field.omitempty:
                    out["omitempty"] = True
                if go_field.pointer:
                    out["pointer"] = True
            else:
                raise SystemExit(f"{full} field {number}: no Go struct field carries it")
            fields[str(number)] = out
            for ref in [*(out.get("map") or []), out.get("type")]:  # type: ignore[list-item]  # map and type hold message names (strings) when present
                if isinstance(ref, str) and ref not in SCALARS and ref not in messages:
                    pending.append(ref)
        entry["fields"] = fields
        messages[full] = entry
    return {
        "generated_by": "scripts/proto_schema.py",
        "sources": {
            "k8s.io/api": sources.head(sources.api_git),
            "k8s.io/apimachinery": sources.head(sources.machinery_git),
        },
        "kinds": dict(sorted(roots.items())),
        "messages": dict(sorted(messages.items())),
    }


#: Messages whose Go type is not a plain struct with tags (a wrapper with its own JSON form);
#: the decoder gives each its JSON form by name.
HAND_CODED = {
    f"{MACHINERY_PREFIX}pkg.apis.meta.v1.Time",
    f"{MACHINERY_PREFIX}pkg.apis.meta.v1.MicroTime",
    f"{MACHINERY_PREFIX}pkg.apis.meta.v1.Duration",
    f"{MACHINERY_PREFIX}pkg.apis.meta.v1.FieldsV1",
    f"{MACHINERY_PREFIX}pkg.api.resource.Quantity",
    f"{MACHINERY_PREFIX}pkg.util.intstr.IntOrString",
    f"{MACHINERY_PREFIX}pkg.runtime.RawExtension",
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("api_git", type=Path, help="git dir of k8s.io/api")
    parser.add_argument("machinery_git", type=Path, help="git dir of k8s.io/apimachinery")
    parser.add_argument(
        "--output", type=Path, default=REPO / "itbench" / "cluster" / "proto_schema.json"
    )
    args = parser.parse_args()
    table = build(Sources(args.api_git, args.machinery_git))
    args.output.write_text(json.dumps(table, indent=1, sort_keys=False) + "\n")
    print(f"{args.output}: {len(table['messages'])} messages", file=sys.stderr)  # type: ignore[arg-type]  # build() returns the table whose messages entry is a dict
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
