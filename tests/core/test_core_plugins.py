"""Domain discovery through entry points, with a real second distribution on sys.path."""

from __future__ import annotations

import json

from tests._support.cli import run_cli


def _domains(env=None):
    proc = run_cli(["domains", "--format", "json"], env=env)
    return proc, {d["name"]: d for d in json.loads(proc.stdout)["domains"]}


def test_builtin_domains_listed_with_their_distribution():
    proc, domains = _domains()
    assert proc.returncode == 0, proc.stderr
    assert domains["finops"]["distribution"] == "itbench"
    assert domains["ciso"]["distribution"] == "itbench"
    assert domains["finops"]["builtin"] is True
    assert domains["sre"]["distribution"] == "itbench"
    assert all(d["status"] == "ok" for d in domains.values()), domains


def test_third_party_domain_found_and_broken_one_warned_once(toy_env):
    proc, domains = _domains(toy_env)
    assert proc.returncode == 0
    assert domains["toy"]["distribution"] == "itbench-toy"
    assert domains["toy"]["version"] == "1.0"
    assert domains["toy"]["status"] == "ok"
    assert domains["broken"]["status"] == "error"
    warnings = [line for line in proc.stderr.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1
    assert "itbench-toy 1.0" in warnings[0] and "deliberately broken" in warnings[0]
    # the others keep working
    assert domains["finops"]["status"] == "ok"


def test_disable_autoload_keeps_builtins_only(toy_env):
    toy_env["ITBENCH_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    proc, domains = _domains(toy_env)
    assert proc.returncode == 0
    assert set(domains) == {"ciso", "finops", "sre"}


def test_help_lists_domains_and_tools_without_importing_them(toy_env):
    proc = run_cli(["--help"], env=toy_env)
    assert proc.returncode == 0
    for name in ("finops", "ciso", "toy", "kyverno", "rego", "stats", "domains"):
        assert f"  {name} " in proc.stdout, name
    # the broken plugin is listed from metadata and not imported, so no warning here
    assert "deliberately broken" not in proc.stderr


def test_running_a_broken_plugin_is_a_tool_error_naming_it(toy_env):
    proc = run_cli(["broken", "run"], env=toy_env)
    assert proc.returncode == 3
    assert "itbench-toy" in proc.stderr and "Traceback" not in proc.stderr


def test_unknown_command_is_usage_error():
    proc = run_cli(["no-such-domain", "run"])
    assert proc.returncode == 2
    assert "No such command" in proc.stderr


def test_help_describes_each_domain_and_tool_in_its_own_words(toy_env):
    """Issue 27: not "ciso domain (itbench 0.1.0)" but the domain's description and the
    command's help, read from their source without importing them."""
    proc = run_cli(["--help"], env=toy_env)
    assert proc.returncode == 0
    lines = {line.split()[0]: line for line in proc.stdout.splitlines() if line.startswith("  ")}
    assert "domain (itbench" not in proc.stdout and "tool (itbench" not in proc.stdout
    assert "Compliance policies: Kyverno" in lines["ciso"]
    assert "Cost anomaly root cause" in lines["finops"]
    assert "Incident diagnosis from offline snapshots" in lines["sre"]
    assert "Kyverno policies offline" in lines["kyverno"]
    # a third party's line says who provides it; the broken one is still not imported
    assert "Toy arithmetic domain (test fixture) [itbench-toy 1.0]" in lines["toy"]
    assert "[itbench-toy 1.0]" in lines["broken"]
    assert "deliberately broken" not in proc.stderr
