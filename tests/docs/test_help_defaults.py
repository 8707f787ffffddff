"""Help texts state the defaults the code uses, and the docs state the same (issue 27): the
``run`` help of every built-in domain is compared with the sentences of docs/running.md."""

from __future__ import annotations

import re

import pytest

from itbench.plugins.spec import DEFAULT_LLM_TIMEOUT_S, DEFAULT_REFLECTION_ROUNDS, AgentOptions
from tests._support.cli import REPO, run_cli

RUNNING = (REPO / "docs" / "running.md").read_text(encoding="utf-8")
DOMAINS = ["ciso", "finops", "sre"]


def _help_default(domain: str, flag: str) -> str:
    text = run_cli([domain, "run", "--help"]).stdout
    block = re.search(rf"{re.escape(flag)} .*?\[default: ([^\]]+)\]", text, re.DOTALL)
    assert block is not None, text
    return block.group(1)


def _documented_timeouts() -> dict[str, str]:
    found = re.search(r"`--timeout` \(default (\d+) s((?:, `\w+` \d+ s)*)\)", RUNNING)
    assert found is not None, "docs/running.md states --timeout's default"
    limits = {"*": found.group(1)}
    limits.update(re.findall(r"`(\w+)` (\d+) s", found.group(2)))
    return limits


@pytest.mark.parametrize("domain", DOMAINS)
def test_timeout_default_in_help_matches_the_docs(domain: str) -> None:
    limits = _documented_timeouts()
    assert _help_default(domain, "--timeout") == limits.get(domain, limits["*"])


@pytest.mark.parametrize("domain", DOMAINS)
def test_reflection_and_llm_timeout_defaults_in_help_match_the_docs(domain: str) -> None:
    rounds = re.search(r"up to `--reflection-rounds` \(default (\d+)", RUNNING)
    llm = re.search(r"`--llm-timeout` \(default (\d+) s\)", RUNNING)
    assert rounds is not None and llm is not None
    assert _help_default(domain, "--reflection-rounds") == rounds.group(1)
    assert _help_default(domain, "--llm-timeout") == llm.group(1)
    # and the agents use the same values when the flag is not given
    assert AgentOptions().reflection_rounds == DEFAULT_REFLECTION_ROUNDS == int(rounds.group(1))
    assert AgentOptions().llm_timeout_s == DEFAULT_LLM_TIMEOUT_S == float(llm.group(1))


def test_reflection_help_says_what_the_loop_does() -> None:
    """N is the number of validator-fed fixes after the first answer (the loop's behaviour, the
    docs' words), not a count of validations."""
    text = " ".join(run_cli(["ciso", "run", "--help"]).stdout.split())
    assert "first answer plus up to N fixes" in text
    assert "validations" not in text
