"""The ``ciso`` domain plugin: compliance scenarios (Kyverno, OPA Rego, Ansible), their
environments and evaluators, the policy engines and their commands.

Every hook is named (``"module:attr"``) and imported when first called: ``itbench --help`` and
``itbench domains`` load this module, and must not pay for the engines (start-up time).
"""

from __future__ import annotations

from itbench.plugins.hooks import hook
from itbench.plugins.spec import Domain

domain = Domain(
    name="ciso",
    description=(
        "Compliance policies: Kyverno, OPA Rego and Ansible scenarios; engines and lint "
        "(itbench kyverno|rego|lint|ansible)"
    ),
    load_scenarios=hook("ciso.hooks:load_scenarios"),
    agents={"baseline": hook("ciso.hooks:baseline_agent")},
    load_ground_truth=hook("ciso.hooks:load_ground_truth"),
    evaluate=hook("ciso.evaluation.trial:evaluate_trial"),
    trial_environment=hook("ciso.environments:trial_environment"),
    render_table=hook("ciso.report:class_table"),
    primary_metric="strict_pass",
    commands=hook("ciso.cli.ciso_cmd:commands"),
    llm_prompt_template=hook("ciso.agents.prompts:system_template"),
    # ITBench gives an agent 200 s per CISO scenario
    default_time_limit_s=200.0,
    cluster_extension=hook("ciso.engines.kyverno.cluster_types:cluster_extension"),
    # Sandboxed tools (the cluster's background scan and types, Ansible) import ciso; the
    # reference answers and the built-in suite (with its solutions) are never visible there, nor
    # the baseline agent that would write an answer for an agent's fetcher.
    sandbox_packages=("ciso",),
    answer_packages=("policies", "playbooks"),
    answer_folders=("ciso/suite", "ciso/agents"),
    # a rhel9 host is its scenario's files alone where the collectors read: this machine's own
    # drop-ins (/usr/lib/sysctl.d/99-protect-links.conf) and defaults (/etc/security/limits.conf,
    # /etc/pam.d) would otherwise decide verdicts that differ from one machine to the next
    host_owned_paths=(
        "/etc/sysctl.conf",
        "/etc/sysctl.d",
        "/usr/lib/sysctl.d",
        "/usr/local/lib/sysctl.d",
        "/etc/modprobe.d",
        "/etc/modprobe.conf",
        "/usr/lib/modprobe.d",
        "/usr/local/lib/modprobe.d",
        "/etc/ssh",
        "/etc/sudoers",
        "/etc/sudoers.d",
        "/etc/security",
        "/etc/pam.d",
        "/etc/login.defs",
        "/etc/audit",
        "/etc/crypto-policies",
        "/etc/systemd/coredump.conf",
        "/etc/systemd/coredump.conf.d",
        "/etc/fstab",
        "/etc/issue",
        "/etc/issue.net",
        "/etc/motd",
        "/etc/cron.allow",
        "/etc/cron.deny",
        "/etc/at.allow",
        "/etc/at.deny",
        "/etc/crontab",
        "/etc/cron.d",
        "/etc/cron.hourly",
        "/etc/cron.daily",
        "/etc/cron.weekly",
        "/etc/cron.monthly",
        "/etc/chrony.conf",
        "/etc/selinux",
        "/etc/default/grub",
    ),  # fmt: skip
    # live mode: --kubeconfig PATH runs kyverno and kubectl-opa scenarios on a real cluster
    run_options=hook("ciso.hooks:run_options"),
    # the run's settings (fresh instances, the live cluster) live in its session, and so do
    # the llm agent's tools and validator and the oracle's references (ciso/hooks.py)
    session=hook("ciso.hooks:open_run"),
)
