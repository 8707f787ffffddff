"""The CLI contract every command shares: exit codes and clean streams."""

from __future__ import annotations

import json
import os
import stat
import subprocess
from pathlib import Path

import pytest

from itbench import __version__
from itbench.exitcodes import ExitCode
from tests._support.cli import itbench_executable, run_cli


def test_exit_code_table_is_the_documented_one():
    assert [(c.name, int(c)) for c in ExitCode] == [
        ("OK", 0),
        ("FINDINGS", 1),
        ("USAGE", 2),
        ("TOOL_ERROR", 3),
    ]


def test_unknown_flag_is_a_usage_error():
    proc = run_cli(["domains", "--no-such-flag"])
    assert proc.returncode == 2
    assert "No such option" in proc.stderr
    assert proc.stdout == ""


def test_version_and_help_succeed():
    proc = run_cli(["--version"])
    assert proc.returncode == 0 and __version__ in proc.stdout
    proc = run_cli(["--help"])
    assert proc.returncode == 0 and "Exit codes" in proc.stdout


def test_domain_group_lists_its_commands():
    proc = run_cli(["finops", "--help"])
    assert proc.returncode == 0
    for name in ("run", "eval", "generate"):
        assert f"  {name} " in proc.stdout, name


# --- One exit-code rule for bad paths, and every error names its file ----------------------------
#
# The rule (docs/cli-contract.md): a path that does not exist, or is a file where a
# folder is expected (or the reverse), or a folder with nothing of the kind asked for, is a usage
# error (2); a path that exists but cannot be read or parsed (binary, invalid YAML or JSON, empty
# where a document is required) and an output that cannot be written are tool errors (3). Tools
# that check many files (lint, kyverno test) report an unreadable one as a finding about it (1)
# and go on. Whatever the code, the message names the path.

BINARY = b"\x00\xff\xfe\x89PNG\r\n\x1a\n\x00"
INVALID_YAML = "a: [1, 2\nb: :\n"
POD = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, image: i}]}\n"
POLICY = """apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata: {name: p}
spec:
  rules:
    - name: r
      match: {any: [{resources: {kinds: [Pod]}}]}
      validate: {message: m, pattern: {metadata: {name: "?*"}}}
"""


@pytest.fixture(scope="module")
def bad(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One path of each kind of bad input, plus good companions."""
    root = tmp_path_factory.mktemp("bad-paths")
    paths = {
        "missing": root / "missing.yaml",
        "empty": root / "empty.yaml",
        "binary": root / "binary.yaml",
        "folder": root / "folder.yaml",
        "invalid": root / "invalid.yaml",
        "empty-json": root / "empty.json",
        "binary-json": root / "binary.json",
        # lint finds policies by content: a binary Rego file and a policy that is not YAML
        "binary-rego": root / "binary.rego",
        "invalid-policy": root / "invalid-policy.yaml",
        "invalid-json": root / "invalid.json",
        "blocked-output": root / "blocker" / "out.txt",  # blocker is a file
        "pod": root / "pod.yaml",
        "policy": root / "policy.yaml",
        "results": root / "results.json",
    }
    paths["empty"].write_text("")
    paths["empty-json"].write_text("")
    paths["binary"].write_bytes(BINARY)
    paths["binary-json"].write_bytes(BINARY)
    paths["binary-rego"].write_bytes(BINARY)
    paths["invalid-policy"].write_text("apiVersion: kyverno.io/v1\n" + INVALID_YAML)
    paths["folder"].mkdir()
    paths["invalid"].write_text(INVALID_YAML)
    paths["invalid-json"].write_text('{"raw_results": [}')
    (root / "blocker").write_text("a file, not a folder\n")
    paths["pod"].write_text(POD)
    paths["policy"].write_text(POLICY)
    paths["results"].write_text(json.dumps({"raw_results": []}))
    return paths


# (case id, argv with {name} placeholders for paths, expected exit code, the path named)
MATRIX: list[tuple[str, list[str], int, str]] = [
    # lint: a bad path is a usage error; an unreadable file is a finding (GEN001) naming it
    ("lint-missing", ["lint", "{missing}"], 2, "missing"),
    ("lint-binary", ["lint", "-q", "{binary-rego}"], 1, "binary-rego"),
    ("lint-invalid-yaml", ["lint", "-q", "{invalid-policy}"], 1, "invalid-policy"),
    ("lint-config-folder", ["lint", "--config", "{folder}", "{pod}"], 2, "folder"),
    ("lint-config-binary", ["lint", "--config", "{binary}", "{pod}"], 3, "binary"),
    ("lint-config-invalid", ["lint", "--config", "{invalid}", "{pod}"], 3, "invalid"),
    (
        "lint-output-blocked",
        ["lint", "-q", "{pod}", "--output", "{blocked-output}"],
        3,
        "blocked-output",
    ),
    ("lint-output-folder", ["lint", "-q", "{pod}", "--output", "{folder}"], 2, "folder"),
    # kyverno apply
    ("apply-missing", ["kyverno", "apply", "{missing}", "--resource", "{pod}"], 2, "missing"),
    (
        "apply-empty",
        ["kyverno", "apply", "{empty}", "--resource", "{pod}", "--fail-on-empty"],
        1,
        "empty",
    ),
    ("apply-binary", ["kyverno", "apply", "{binary}", "--resource", "{pod}"], 3, "binary"),
    ("apply-invalid", ["kyverno", "apply", "{policy}", "--resource", "{invalid}"], 3, "invalid"),
    (
        "apply-empty-resources",
        ["kyverno", "apply", "{policy}", "--resource", "{empty}", "--fail-on-empty"],
        1,
        "empty",
    ),
    # kyverno test: an unreadable test file is an errored test (1) naming it
    ("ktest-missing", ["kyverno", "test", "{missing}"], 2, "missing"),
    ("ktest-empty", ["kyverno", "test", "{empty}"], 1, "empty"),
    ("ktest-binary", ["kyverno", "test", "{binary}"], 1, "binary"),
    ("ktest-invalid", ["kyverno", "test", "{invalid}"], 1, "invalid"),
    # rego
    ("rego-data-missing", ["rego", "eval", "-d", "{missing}", "data"], 2, "missing"),
    ("rego-data-binary", ["rego", "eval", "-d", "{binary}", "data"], 3, "binary"),
    ("rego-data-invalid", ["rego", "eval", "-d", "{invalid}", "data"], 3, "invalid"),
    ("rego-input-missing", ["rego", "eval", "-i", "{missing}", "input"], 2, "missing"),
    ("rego-input-folder", ["rego", "eval", "-i", "{folder}", "input"], 2, "folder"),
    ("rego-input-binary", ["rego", "eval", "-i", "{binary}", "input"], 3, "binary"),
    ("rego-input-invalid", ["rego", "eval", "-i", "{invalid}", "input"], 3, "invalid"),
    ("rego-test-missing", ["rego", "test", "{missing}"], 2, "missing"),
    ("rego-test-binary", ["rego", "test", "{binary}"], 3, "binary"),
    # cluster serve (a successful serve runs until stopped: see the test below for empty input)
    ("cluster-missing", ["cluster", "serve", "{missing}"], 2, "missing"),
    ("cluster-binary", ["cluster", "serve", "{binary}"], 3, "binary"),
    ("cluster-invalid", ["cluster", "serve", "{invalid}"], 3, "invalid"),
    (
        "cluster-kubeconfig-blocked",
        ["cluster", "serve", "{pod}", "--kubeconfig", "{blocked-output}"],
        3,
        "blocked-output",
    ),
    # report and stats read one results document each
    ("report-missing", ["report", "{missing}"], 2, "missing"),
    ("report-empty", ["report", "{empty-json}"], 3, "empty-json"),
    ("report-binary", ["report", "{binary-json}"], 3, "binary-json"),
    ("report-folder", ["report", "{folder}"], 2, "folder"),
    ("report-invalid", ["report", "{invalid-json}"], 3, "invalid-json"),
    (
        "report-output-blocked",
        ["report", "{results}", "--format", "json", "--output", "{blocked-output}"],
        3,
        "blocked-output",
    ),
    ("stats-missing", ["stats", "{missing}"], 2, "missing"),
    ("stats-empty", ["stats", "{empty-json}"], 3, "empty-json"),
    ("stats-binary", ["stats", "{binary-json}"], 3, "binary-json"),
    ("stats-folder", ["stats", "{folder}"], 2, "folder"),
    ("stats-invalid", ["stats", "{invalid-json}"], 3, "invalid-json"),
    # <domain> run|eval: scenarios and outputs are folders
    ("finops-run-missing", ["finops", "run", "--scenarios", "{missing}"], 2, "missing"),
    ("finops-run-file", ["finops", "run", "--scenarios", "{pod}"], 2, "pod"),
    ("finops-run-empty-folder", ["finops", "run", "--scenarios", "{folder}"], 2, "folder"),
    (
        "finops-run-output-blocked",
        [
            "finops",
            "run",
            "--scenarios",
            "Scenario-1",
            "--no-progress",
            "--output",
            "{blocked-output}",
        ],
        3,
        "blocked-output",
    ),
    ("finops-eval-missing", ["finops", "eval", "--outputs", "{missing}"], 2, "missing"),
    ("finops-eval-file", ["finops", "eval", "--outputs", "{pod}"], 2, "pod"),
    ("finops-eval-empty-folder", ["finops", "eval", "--outputs", "{folder}"], 2, "folder"),
    ("ciso-run-missing", ["ciso", "run", "--scenarios", "{missing}"], 2, "missing"),
    ("ciso-run-file", ["ciso", "run", "--scenarios", "{pod}"], 2, "pod"),
    ("ciso-run-empty-folder", ["ciso", "run", "--scenarios", "{folder}"], 2, "folder"),
    ("ciso-eval-missing", ["ciso", "eval", "--outputs", "{missing}"], 2, "missing"),
    ("ciso-eval-file", ["ciso", "eval", "--outputs", "{pod}"], 2, "pod"),
]


@pytest.mark.parametrize(
    ("argv", "code", "named"), [m[1:] for m in MATRIX], ids=[m[0] for m in MATRIX]
)
def test_a_bad_path_gets_the_documented_code_and_is_named(bad, argv, code, named):
    args = [a.format(**{k: str(v) for k, v in bad.items()}) for a in argv]
    proc = run_cli(args, timeout=60)
    assert proc.returncode == code, (proc.returncode, proc.stdout[-500:], proc.stderr[-500:])
    assert str(bad[named]) in proc.stdout + proc.stderr
    for stream in (proc.stdout, proc.stderr):
        assert "Traceback" not in stream and "error: unexpected" not in stream
        assert "<unicode string>" not in stream
    if code in (2, 3):
        assert str(bad[named]) in proc.stderr, "the error goes to stderr"


def test_cluster_serve_of_an_empty_file_warns_naming_it(bad):
    proc = subprocess.Popen(
        [itbench_executable(), "cluster", "serve", str(bad["empty"])],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        kubeconfig = proc.stdout.readline().strip()  # printed once the port accepts connections
        assert kubeconfig.endswith("kubeconfig")
    finally:
        proc.terminate()
        _, stderr = proc.communicate(timeout=30)
    assert proc.returncode == 0
    assert f"warning: no Kubernetes object in {bad['empty']}" in stderr


def test_files_written_with_output_get_the_usual_permissions(tmp_path, bad):
    target = tmp_path / "report.json"
    proc = subprocess.run(
        [
            itbench_executable(),
            "report",
            str(bad["results"]),
            "--format",
            "json",
            "--output",
            str(target),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=lambda: os.umask(0o022),
    )
    assert proc.returncode == 0, proc.stderr
    assert stat.S_IMODE(target.stat().st_mode) == 0o644
    # an existing file keeps its mode, as with a plain open(path, "w")
    target.chmod(0o640)
    lint = subprocess.run(
        [itbench_executable(), "lint", "-q", str(bad["pod"]), "--output", str(target)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert lint.returncode == 0, lint.stderr
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert "0 error(s)" in target.read_text()


@pytest.mark.parametrize(
    ("score", "limit", "shown"),
    [(1 / 3, 0.5, "0.333"), (0.99996, 1.0, "0.99996"), (0.9994, 1.0, "0.999"), (0.0, 0.1, "0.000")],
)
def test_fail_under_shows_the_score_rounded_yet_below_the_limit(score, limit, shown):
    from itbench.cli.domain_group import rounded_below

    assert rounded_below(score, limit) == shown


def test_fail_under_names_the_metric_and_rounds(tmp_path):
    out = tmp_path / "run"
    ran = run_cli(
        ["finops", "run", "--scenarios", "Scenario-1", "--no-progress", "--output", str(out)]
    )
    assert ran.returncode == 0, ran.stderr
    scored = json.loads((out / "results.json").read_text())
    metric = scored["config"]["primary_metric"]
    proc = run_cli(["finops", "eval", "--outputs", str(out), "--fail-under", "1.5"])
    assert proc.returncode == 1
    mean = scored["statistics"]["overall"][metric]["mean"]
    assert f"{metric} {mean:.3f} is below --fail-under 1.5" in proc.stderr
