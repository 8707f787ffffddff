"""Large manifests cut into ranges of documents that ``kyverno apply``'s workers parse themselves:
the ranges hold exactly the file's documents, a file that cannot be cut is read whole, and the
command prints what the streamed reading printed (results, order, errors)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from ciso.engines.kyverno import bulk
from itbench.cli.main import main
from itbench.cluster.manifests import objects_in_range
from itbench.yamlsafe import document_ranges, load_range

TRICKY = """\
# a comment before anything
apiVersion: v1
kind: ConfigMap
metadata: {name: first}
data:
  script: |
    echo start
     --- not a separator: indented inside the block scalar
    echo end
--- # a separator with a comment
apiVersion: v1
kind: ConfigMap
metadata: {name: second}
---
--- {apiVersion: v1, kind: ConfigMap, metadata: {name: third}}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: "---fourth"
"""


@pytest.mark.parametrize("per_range", [1, 2, 3, 10])
def test_ranges_hold_exactly_the_files_documents(tmp_path: Path, per_range: int) -> None:
    path = tmp_path / "m.yaml"
    path.write_text(TRICKY)
    whole = list(yaml.safe_load_all(TRICKY))
    ranges = document_ranges(path, per_range)
    assert ranges is not None
    parsed = []
    for start, end, documents in ranges:
        found = load_range(path, start, end)
        assert len(found) == documents  # the count the cut promised
        parsed += found
    assert parsed == whole  # null document included, "---fourth" a name, not a separator
    assert all(documents == per_range for _, _, documents in ranges[:-1])


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("a: &x 1\n---\nb: *x\n", "an anchor: an alias could reach across ranges"),
        ("%YAML 1.1\n---\na: 1\n", "a directive belongs to the next document"),
        ("a: " + "[" * 1200 + "]" * 1200 + "\n", "nesting beyond the bound"),
    ],
)
def test_files_that_cannot_be_cut_are_read_whole(tmp_path: Path, text: str, why: str) -> None:
    path = tmp_path / "m.yaml"
    path.write_text(text)
    assert document_ranges(path, 1) is None, why


def test_utf16_files_are_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "m.yaml"
    path.write_text("a: 1\n---\nb: 2\n", encoding="utf-16")
    assert document_ranges(path, 1) is None


def test_a_range_with_a_list_or_null_document_is_refused_for_the_stream(tmp_path: Path) -> None:
    path = tmp_path / "m.yaml"
    path.write_text(
        "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\n---\n"
        "apiVersion: v1\nkind: PodList\nitems:\n"
        "- {apiVersion: v1, kind: Pod, metadata: {name: b}}\n"
        "- {apiVersion: v1, kind: Pod, metadata: {name: c}}\n"
    )
    (first, second) = document_ranges(path, 1)
    assert [o["metadata"]["name"] for o in objects_in_range(path, *first)] == ["a"]
    assert objects_in_range(path, *second) is None  # two objects from one document


POLICY = """\
apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata: {name: %(name)s}
spec:
  rules:
  - name: %(name)s
    match: {any: [{resources: {kinds: [Pod]}}]}
    validate:
      message: "{{ request.object.metadata.name }} is privileged"
      pattern: {spec: {containers: [{=(securityContext): {=(privileged): "false"}}]}}
"""


def _pod(i: int) -> str:
    privileged = "true" if i % 7 == 0 else "false"
    return (
        f"apiVersion: v1\nkind: Pod\nmetadata:\n  name: pod-{i}\n  namespace: ns-{i % 3}\n"
        f"spec:\n  containers:\n  - name: app\n    image: nginx\n"
        f"    securityContext:\n      privileged: {privileged}\n"
    )


_POD_LIST = "apiVersion: v1\nkind: PodList\nitems:\n" + "".join(
    ("- " + _pod(i).replace("\n", "\n  ")).rstrip() + "\n" for i in (99990, 99991)
)


def _manifest(path: Path, pods: int, middle: str = "") -> Path:
    docs = [_pod(i) for i in range(pods)]
    if middle:
        docs.insert(pods // 2, middle)
    path.write_text("---\n".join(docs))
    assert path.stat().st_size > bulk.SPLIT_BYTES  # large enough to be cut
    return path


def _apply(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    manifest: Path,
    fmt: str,
    split: bool,
) -> tuple[int, str, str]:
    """The command as its entry point runs it: exit code, stdout, stderr."""
    policies = []
    for name in ("one", "two"):
        policy = tmp_path / f"{name}.yaml"
        policy.write_text(POLICY % {"name": name})
        policies.append(str(policy))
    monkeypatch.setattr(bulk, "worker_count", lambda: 2)  # the pool even on one CPU
    if not split:
        monkeypatch.setattr(bulk, "SPLIT_BYTES", 1 << 60)  # the streamed reading
    capsys.readouterr()
    code = main(["kyverno", "apply", *policies, "--resource", str(manifest), "--format", fmt])
    monkeypatch.undo()
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("middle", "fmt"),
    [
        ("", "table"),
        ("", "json"),
        # a List and a null document: the ranges from there on are read as a stream
        (_POD_LIST, "table"),
        ("# nothing but a comment\n", "yaml"),
    ],
)
def test_apply_prints_what_the_streamed_reading_prints(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    middle: str,
    fmt: str,
) -> None:
    manifest = _manifest(tmp_path / "pods.yaml", 6500, middle)
    streamed = _apply(monkeypatch, capsys, tmp_path, manifest, fmt, split=False)
    split = _apply(monkeypatch, capsys, tmp_path, manifest, fmt, split=True)
    assert streamed[0] == split[0] == 1  # privileged pods fail
    assert split[1] == streamed[1]  # every result, in the same order
    assert split[2].splitlines()[-1] == streamed[2].splitlines()[-1]  # the summary
    assert "pod-6499 is privileged" not in split[1]  # 6499 % 7 != 0
    assert "pod-6496 is privileged" in split[1]


def test_an_error_in_a_range_is_reported_as_the_whole_file_reading_reports_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    manifest = _manifest(tmp_path / "pods.yaml", 6500, "apiVersion: v1\nkind: Pod\nspec: {}\n")
    streamed = _apply(monkeypatch, capsys, tmp_path, manifest, "table", split=False)
    split = _apply(monkeypatch, capsys, tmp_path, manifest, "table", split=True)
    assert split[0] == streamed[0] == 3
    message = "pods.yaml: document 3250: field 'metadata.name' is missing (Pod)"
    assert message in streamed[2]
    assert message in split[2]  # the document numbered within the file, not the range


def _deepest(value: object, depth: int = 0) -> int:
    """The depth of the deepest value (the value itself at 0), by the definition."""
    children = (
        list(value.values())
        if isinstance(value, dict)
        else value
        if isinstance(value, list)
        else []
    )
    return max((_deepest(child, depth + 1) for child in children), default=depth)


def test_depth_check_agrees_with_the_definition_on_random_nestings() -> None:
    import random

    from itbench.cluster.manifests import depth_ok

    rng = random.Random(7)

    def nested(levels: int) -> object:
        roll = rng.random()
        if levels <= 0 or roll < 0.3:
            return rng.choice([1, "x", None, [], {}])
        if roll < 0.65:
            return {f"k{i}": nested(levels - 1) for i in range(rng.randint(0, 3))}
        return [nested(levels - 1) for _ in range(rng.randint(0, 3))]

    checked = 0
    for _ in range(3000):
        value = nested(rng.randint(0, 9))
        for limit in range(8):
            assert depth_ok(value, limit) == (_deepest(value) <= limit), (value, limit)
            checked += 1
    assert checked == 24000
