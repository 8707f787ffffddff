"""A hostile policy cannot hang or exhaust `itbench kyverno apply`: patterns run in RE2 (linear
time, Go's syntax), and a function whose result would pass 3 MiB is a rule error naming it.

Each policy here hung (catastrophic backtracking in Python's ``re``) or grew until MemoryError or
the OS stopped it before; now each answers within seconds with a pass or an ``error`` result."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests._support.cli import run_cli

# 40 a's and a '!': Python's re needs ~2^40 steps for ^(a+)+$ to fail; RE2 a few hundred
HOSTILE_TEXT = "a" * 40 + "!"
POD = f"""apiVersion: v1
kind: Pod
metadata:
  name: target
  annotations: {{s: "{HOSTILE_TEXT}"}}
spec: {{containers: [{{name: c, image: nginx}}]}}
"""
TENFOLD = "'a','aaaaaaaaaa'"
# replace_all nested 8 times over ten a's: 10^9 characters without a bound
GROWTH = "'aaaaaaaaaa'"
for _ in range(8):
    GROWTH = f"replace_all({GROWTH}, {TENFOLD})"
REGEX_GROWTH = "'aaaaaaaaaa'"
for _ in range(8):
    REGEX_GROWTH = f"regex_replace_all('a', {REGEX_GROWTH}, 'aaaaaaaaaa')"


def _jmespath_policy(expression: str) -> str:
    return f"""apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata: {{name: hostile}}
spec:
  rules:
    - name: check
      match: {{any: [{{resources: {{kinds: [Pod]}}}}]}}
      validate:
        message: "m"
        deny:
          conditions:
            any:
              - key: "{{{{ {expression} }}}}"
                operator: Equals
                value: true
"""


def _cel_policy(expression: str) -> str:
    return f"""apiVersion: policies.kyverno.io/v1alpha1
kind: ValidatingPolicy
metadata: {{name: hostile}}
spec:
  validationActions: [Audit]
  matchConstraints:
    resourceRules:
      - apiGroups: [""]
        apiVersions: [v1]
        operations: [CREATE, UPDATE]
        resources: [pods]
  validations:
    - expression: >-
        {expression}
      message: m
"""


CEL_GROWTH = "'aaaaaaaaaa'" + ".replace('a', 'aaaaaaaaaa')" * 8

CASES = {
    # name: (policy, status, words the message must hold)
    "jmespath-regex_match-redos": (
        _jmespath_policy("regex_match('^(a+)+$', request.object.metadata.annotations.s)"),
        "pass",
        "",
    ),
    "jmespath-regex_replace_all-redos": (
        _jmespath_policy(
            "regex_replace_all('^(a+)+$', request.object.metadata.annotations.s, 'x') == 'x'"
        ),
        "pass",
        "",
    ),
    "jmespath-pattern_match-stars": (
        _jmespath_policy(
            "pattern_match('*a*a*a*a*a*a*a*a*a*a*a*b', request.object.metadata.annotations.s)"
        ),
        "pass",
        "",
    ),
    "jmespath-backreference-is-go-error": (
        _jmespath_policy("regex_match('(a)\\\\1', 'aa')"),
        "error",
        "error parsing regexp: invalid escape sequence: `\\1`",
    ),
    "jmespath-replace_all-growth": (
        _jmespath_policy(GROWTH),
        "error",
        "replace_all: result of 10000000 characters or elements exceeds the limit of 3145728",
    ),
    "jmespath-regex_replace_all-growth": (
        _jmespath_policy(REGEX_GROWTH + " == 'x'"),
        "error",
        "regex_replace_all: result of",
    ),
    "jmespath-random-growth": (
        _jmespath_policy("random('a{900000000}') == 'x'"),
        "error",
        "random: result of",
    ),
    "cel-find-redos": (
        _cel_policy("object.metadata.annotations['s'].find('^(a+)+$') == ''"),
        "pass",
        "",
    ),
    "cel-replace-growth": (
        _cel_policy(CEL_GROWTH + " == ''"),
        "error",
        "replace: result of",
    ),
    "cel-regex-replace-growth": (
        _cel_policy("regex.replace(" + CEL_GROWTH + ", 'a', 'bb') == ''"),
        "error",
        "result of",
    ),
    "cel-lists-range-growth": (
        _cel_policy("lists.range(900000000).size() == 0"),
        "error",
        "lists.range: result of",
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_hostile_policy_answers_in_time(tmp_path: Path, name: str) -> None:
    policy, status, words = CASES[name]
    (tmp_path / "policy.yaml").write_text(policy)
    (tmp_path / "pod.yaml").write_text(POD)
    args = ["kyverno", "apply", str(tmp_path / "policy.yaml"), "--resource"]
    proc = run_cli([*args, str(tmp_path / "pod.yaml"), "--format", "json"], timeout=60)
    assert "Traceback" not in proc.stderr
    results = json.loads(proc.stdout)
    assert [r["status"] for r in results] == [status], results
    assert words in results[0]["message"]
    if status == "error":
        assert proc.returncode == 1
