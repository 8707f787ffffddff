"""Large inputs are streamed: refused at the first object over a limit without reading the rest,
progress on stderr for slow reads, and ``itbench kyverno apply`` evaluating a batch at a time with
the same results as all at once."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
import yaml

from itbench.cluster import ClusterError, ClusterState
from itbench.cluster.manifests import StderrProgress, iter_manifests, load_manifests
from itbench.errors import InputError
from tests._support.cli import run_cli


def _config_maps(n: int) -> str:
    return "".join(
        f"---\napiVersion: v1\nkind: ConfigMap\nmetadata: {{name: c{i}, namespace: x}}\n"
        for i in range(n)
    )


def test_over_the_object_limit_is_refused_before_the_rest_is_read(tmp_path):
    path = tmp_path / "big.yaml"
    # a syntax error after the limit: reaching it would mean the rest was parsed
    path.write_text(_config_maps(10) + "---\nbroken: [\n")
    with pytest.raises(InputError) as info:
        load_manifests(path, max_objects=5)
    assert str(info.value) == (
        f"{path}: more than 5 objects under {path}: refused (the rest was not read)"
    )
    with pytest.raises(InputError, match="not valid YAML"):
        load_manifests(path, max_objects=50)  # under the limit the broken end is reached


def test_a_directory_counts_objects_across_its_files(tmp_path):
    for name in ("a.yaml", "b.yaml"):
        (tmp_path / name).write_text(_config_maps(3).replace("name: c", f"name: {name[0]}"))
    assert len(load_manifests(tmp_path, max_objects=6)) == 6
    with pytest.raises(InputError, match=r"b\.yaml: more than 5 objects under"):
        load_manifests(tmp_path, max_objects=5)


def test_cluster_state_stops_reading_at_its_limit():
    taken = []

    def objects():
        for i in range(10):
            taken.append(i)
            yield {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": f"c{i}"}}

    with pytest.raises(ClusterError) as info:
        ClusterState(objects(), max_objects=3)
    assert info.value.code == 413 and "over the limit of 3" in str(info.value)
    assert taken == [0, 1, 2, 3]  # the first object too many, and nothing after it


def test_serve_refuses_an_over_limit_manifest_naming_it(tmp_path, monkeypatch, capsys):
    import itbench.cluster.state as state
    from itbench.cli.main import main

    path = tmp_path / "many.yaml"
    path.write_text(_config_maps(12) + "---\nbroken: [\n")
    monkeypatch.setattr(state, "MAX_OBJECTS", 10)  # in process: the real limit is 100,000
    assert main(["cluster", "serve", str(path)]) == 3
    err = capsys.readouterr().err
    assert f"{path}: more than 10 objects" in err and "not valid YAML" not in err


def test_progress_only_for_slow_reads(tmp_path):
    path = tmp_path / "objects.yaml"
    path.write_text(_config_maps(1200))
    quiet = io.StringIO()
    assert len(list(iter_manifests(path, progress=StderrProgress(stream=quiet)))) == 1200
    assert quiet.getvalue() == ""  # read in well under a second
    shown = io.StringIO()
    progress = StderrProgress(after=0.0, every=0.0, stream=shown)
    assert len(list(iter_manifests(path, progress=progress))) == 1200
    lines = shown.getvalue().splitlines()
    assert [line.split(": ")[1].split()[0] for line in lines] == ["500", "1000", "1200"]
    assert lines[0].startswith(f"reading {path}: 500 documents")
    assert lines[-1].endswith("(100%)")


POLICY = """apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata: {name: no-host-network}
spec:
  rules:
    - name: host-network
      match: {any: [{resources: {kinds: [Pod]}}]}
      validate:
        message: "hostNetwork is not allowed"
        pattern: {spec: {"=(hostNetwork)": "false"}}
"""


@pytest.fixture
def many_pods(tmp_path) -> tuple[Path, Path, int]:
    from ciso.engines.kyverno.bulk import BATCH

    count = BATCH * 2 + 7  # three batches, the last one short
    (tmp_path / "p.yaml").write_text(POLICY)
    pods = "".join(
        f"---\napiVersion: v1\nkind: Pod\nmetadata: {{name: p{i}}}\n"
        f"spec: {{hostNetwork: {str(i % 3 == 0).lower()}, containers: [{{name: c, image: x}}]}}\n"
        for i in range(count)
    )
    (tmp_path / "pods.yaml").write_text(pods)
    return tmp_path / "p.yaml", tmp_path / "pods.yaml", count


@pytest.mark.parametrize("fmt", ["json", "yaml", "table"])
def test_kyverno_apply_streams_batches_with_the_engines_results(many_pods, fmt):
    from ciso.engines.kyverno.engine import apply
    from ciso.engines.kyverno.scope import as_the_cli_reads_it

    policy, pods, count = many_pods
    proc = run_cli(["kyverno", "apply", str(policy), "--resource", str(pods), "--format", fmt])
    assert proc.returncode == 1, proc.stderr
    expected = apply(load_manifests(policy), [as_the_cli_reads_it(o) for o in load_manifests(pods)])
    assert len(expected) == count
    if fmt == "json":
        got = [(r["name"], r["status"], r["message"]) for r in json.loads(proc.stdout)]
    elif fmt == "yaml":
        got = [(r["name"], r["status"], r["message"]) for r in yaml.safe_load(proc.stdout)]
    else:
        rows = [line.split("  ") for line in proc.stdout.splitlines()]
        got = [
            (row[2].rsplit("/", 1)[1], row[0].strip().lower(), "  ".join(row[3:])) for row in rows
        ]
    assert got == [(r.name, r.status, r.message) for r in expected]
    failing = sum(1 for r in expected if r.status == "fail")
    assert failing == len(range(0, count, 3))
    assert f"{count} result(s), {failing} fail/error" in proc.stderr


def test_kyverno_apply_with_no_result_prints_an_empty_document(tmp_path):
    (tmp_path / "p.yaml").write_text(POLICY)
    (tmp_path / "cm.yaml").write_text(_config_maps(2))
    for fmt, empty in (("json", []), ("yaml", [])):
        proc = run_cli(
            ["kyverno", "apply", str(tmp_path / "p.yaml"), "--resource", str(tmp_path / "cm.yaml"),
             "--format", fmt]
        )  # fmt: skip
        parsed = json.loads(proc.stdout) if fmt == "json" else yaml.safe_load(proc.stdout)
        assert parsed == empty, proc.stdout
