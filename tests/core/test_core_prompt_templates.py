"""Every built-in llm prompt template renders against a minimal scenario (issue 27): optional
fields (a CISO scenario's ``cis_id``) must never crash the agent under strict undefined."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from itbench.agents.base import AgentOptions, Task
from itbench.agents.llm import SYSTEM_PROMPT, render_prompt
from itbench.models import PublicScenario
from itbench.plugins.domains import load_domains
from itbench.transcript import Transcript
from tests._support.cli import REPO, run_cli
from tests._support.fake_openai import ScriptedServer, Step, chat_reply

#: Every class a built-in domain's template branches on, and one it does not know.
CLASSES = {
    "ciso": ["kyverno", "kyverno-update", "kubectl-opa", "opa-static", "rhel9-ansible-opa", "x"],
    "finops": ["x"],
    "sre": ["x"],
}


def _cases() -> list[tuple[str, str]]:
    names = [d.domain.name for d in load_domains() if d.record.builtin]
    return [(name, cls) for name in names for cls in CLASSES.get(name, ["x"])]


@pytest.mark.parametrize(("domain_name", "scenario_class"), _cases())
def test_builtin_template_renders_with_only_required_fields(
    domain_name: str, scenario_class: str, tmp_path: Path
) -> None:
    (domain,) = [d.domain for d in load_domains() if d.domain.name == domain_name]
    minimal = PublicScenario(id="s", domain=domain_name, title="t", **{"class": scenario_class})
    task = Task(minimal, "prompt", tmp_path, None, Transcript(tmp_path / "t.jsonl"))
    text = render_prompt(AgentOptions(), domain, task, ["read_file"])
    expected = domain.llm_prompt_template() if domain.llm_prompt_template else SYSTEM_PROMPT
    assert text.strip() and ("{{" not in text), text
    assert expected  # the template the agent would use exists


def test_llm_agent_on_a_user_scenario_without_cis_id(tmp_path: Path) -> None:
    source = REPO / "docs" / "examples" / "ciso-scenarios" / "my-scenarios" / "host-net"
    scenario = tmp_path / "mine" / "host-net"
    shutil.copytree(source, scenario)
    text = (scenario / "scenario.yaml").read_text()
    (scenario / "scenario.yaml").write_text(
        "\n".join(line for line in text.splitlines() if not line.startswith("cis_id"))
    )
    out = tmp_path / "o"
    env = {"OPENAI_API_KEY": "sk-test", "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    with ScriptedServer([Step(chat_reply("nothing to do"))]) as server:
        proc = run_cli(
            ["ciso", "run", "--scenarios", str(tmp_path / "mine"), "--select", "*.opa-static",
             "--agent", "llm", "--model", "openai/scripted", "--api-base", server.api_base,
             "--reflection-rounds", "0", "--output", str(out), "--no-progress"],
            env=env,
            timeout=300,
        )  # fmt: skip
    evaluation = json.loads((out / "host-net.opa-static" / "1" / "evaluation.json").read_text())
    assert evaluation["error"] is None, evaluation["error"]
    assert proc.returncode == 0, proc.stderr
    system = server.requests[0]["messages"][0]["content"]
    assert "Scenario: host-net.opa-static (opa-static)." in system
