"""``itbench <domain> run|eval|...``: the same commands and flags for every domain plugin."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from itbench.agents.base import AgentOptions
from itbench.agents.protocols import PROTOCOLS
from itbench.cli.sandbox_option import sandbox_option
from itbench.cli.size_option import size_option
from itbench.exitcodes import ExitCode
from itbench.plugins.domains import load_domain
from itbench.plugins.finder import PluginRecord
from itbench.plugins.spec import (
    DEFAULT_LLM_TIMEOUT_S,
    DEFAULT_REFLECTION_ROUNDS,
    Domain,
    time_limit_of,
)
from itbench.sandbox.agent import DEFAULT_MAX_PROCESSES
from itbench.sandbox.limits import DEFAULT_AGENT_LIMITS

if TYPE_CHECKING:
    from itbench.scoring.document import ResultsDocument


def domain_group(record: PluginRecord) -> click.Group:
    domain = load_domain(record).domain
    group = click.Group(name=domain.name, help=f"{domain.description} ({record.provider})")
    # a domain scores with its own evaluator or with the one its session binds
    scores = domain.evaluate is not None or domain.session is not None
    if domain.load_scenarios is not None and scores:
        group.add_command(_run_command(domain))
    if domain.load_ground_truth is not None and scores:
        group.add_command(_eval_command(domain))
    if domain.commands is not None:
        for command in domain.commands():
            group.add_command(command)
    return group


def _emit(document: ResultsDocument, path: Path, fmt: str, domain: Domain) -> None:
    """The results on stdout: the JSON that was written, or a table."""
    if fmt == "json":
        sys.stdout.buffer.write(document.to_json_bytes())
    elif domain.render_table is not None:
        click.echo(domain.render_table(document))
    else:
        from itbench.report.model import run_label, summarize
        from itbench.report.text_formats import render_table

        click.echo(
            render_table([summarize(document, run_label(document, path), str(path))]), nl=False
        )


def _exit_for(
    document: ResultsDocument, fail_under: float | None, fail_on_errors: int | None
) -> int:
    from itbench.runner.failures import failed_trials, failure_messages

    lines, tool_error = failure_messages(failed_trials(document.raw_results), fail_on_errors)
    for line in lines:
        click.echo(line, err=True)
    if tool_error:
        return ExitCode.TOOL_ERROR
    if fail_under is None:
        return ExitCode.OK
    metric = document.config.primary_metric
    score = document.statistics.mean(metric)
    if score is None:
        click.echo(f"no {metric} score to compare with --fail-under {fail_under}", err=True)
        return ExitCode.FINDINGS
    if score < fail_under:
        click.echo(
            f"{metric} {rounded_below(score, fail_under)} is below --fail-under {fail_under}",
            err=True,
        )
        return ExitCode.FINDINGS
    return ExitCode.OK


def rounded_below(score: float, limit: float) -> str:
    """``score`` with three decimals, or as many more as it takes to still read below ``limit``
    (0.99996 against 1.0 must not print as 1.000)."""
    for digits in range(3, 16):
        text = f"{score:.{digits}f}"
        if float(text) < limit:
            return text
    return repr(score)


def _run_command(domain: Domain) -> click.Command:
    @click.command(name="run")
    @click.option(
        "--scenarios", help="Scenario directory or comma-separated ids (default: built-in suite)."
    )
    @click.option(
        "--select",
        "select",
        multiple=True,
        metavar="PATTERN",
        help="Run only scenarios whose id matches this glob (repeatable; ID also selects "
        "ID.*, e.g. every class of a scenario).",
    )
    @click.option("--agent", "agent_name", help="Agent name (default: baseline).")
    @click.option(
        "--agent-cmd", help="Shell command of an external agent (selects --agent command)."
    )
    @click.option(
        "--agent-network",
        type=click.Choice(["allow", "none"]),
        default="allow",
        show_default=True,
        help="The --agent-cmd sandbox's network: allow shares the host's (model APIs, the "
        "trial's cluster on 127.0.0.1), or only the one endpoint a trial names (a live "
        "cluster's API server); none cuts it, and the cluster too.",
    )
    @click.option(
        "--agent-home",
        type=click.Path(exists=True, file_okay=False, path_type=Path),
        help="Directory bound read-write as HOME of the --agent-cmd sandbox (CLI login state); "
        "default: a private empty HOME.",
    )
    @click.option(
        "--agent-env",
        multiple=True,
        metavar="NAME",
        help="Pass this environment variable to --agent-cmd (repeatable; API keys pass only "
        "this way).",
    )
    @click.option(
        "--agent-sandbox",
        type=click.Choice(["on", "off"]),
        default="on",
        show_default=True,
        help="off runs --agent-cmd UNSANDBOXED (it can read ground truth); with a warning.",
    )
    @size_option(
        "--agent-memory",
        DEFAULT_AGENT_LIMITS.memory_bytes,
        "Private writable memory of each --agent-cmd process (RLIMIT_DATA); 0: no cap.",
    )
    @size_option(
        "--agent-file-size",
        DEFAULT_AGENT_LIMITS.file_size_bytes,
        "Largest file an --agent-cmd process may write (RLIMIT_FSIZE), and the size of "
        "its private /tmp and HOME; 0: no cap.",
    )
    @size_option(
        "--agent-output",
        DEFAULT_AGENT_LIMITS.output_bytes,
        "Stdout and stderr of --agent-cmd kept each (head and tail); past it the command "
        "is stopped; 0: no cap.",
    )
    @click.option(
        "--agent-processes",
        type=click.IntRange(min=1),
        default=DEFAULT_MAX_PROCESSES,
        show_default=True,
        metavar="N",
        help="Processes and threads the --agent-cmd sandbox may run at once (a pids cgroup, "
        "else RLIMIT_NPROC); a fork past it fails.",
    )
    @click.option("--model", help="litellm model name for --agent llm, e.g. openai/gpt-4o.")
    @click.option("--api-base", help="Base URL of an OpenAI-compatible server for --model.")
    @click.option("--trials", type=click.IntRange(min=1), default=1, show_default=True)
    @click.option("-j", "--jobs", type=click.IntRange(min=1), default=1, show_default=True)
    @click.option(
        "--output",
        "output_dir",
        type=click.Path(path_type=Path),
        help=f"Run directory (default: outputs/{domain.name}).",
    )
    @click.option(
        "--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True
    )
    @click.option(
        "--fail-under", type=float, help="Exit 1 when the primary metric's mean is below this."
    )
    @click.option(
        "--fail-on-errors",
        type=click.IntRange(min=0),
        metavar="N",
        help="Exit 3 when more than N trials failed without a score (a run where no trial "
        "scored always exits 3).",
    )
    @click.option(
        "--timeout",
        "time_limit",
        type=click.FloatRange(min=0.1),
        default=None,
        help="Per-trial hard time limit in seconds; the trial's processes are killed past it "
        f"[default: {time_limit_of(domain):g}].",
    )
    @click.option(
        "--llm-timeout",
        type=click.FloatRange(min=0.1),
        default=DEFAULT_LLM_TIMEOUT_S,
        help="Seconds to wait for one model reply before retrying "
        f"[default: {DEFAULT_LLM_TIMEOUT_S:g}].",
    )
    @click.option(
        "--reflection-rounds",
        type=click.IntRange(min=0),
        default=DEFAULT_REFLECTION_ROUNDS,
        help="The llm agent's first answer plus up to N fixes, each fed by the output "
        "validator's diagnostics, stopping once it is clean; 0: one attempt, no validator "
        f"[default: {DEFAULT_REFLECTION_ROUNDS}].",
    )
    @click.option(
        "--max-turns",
        type=click.IntRange(min=1),
        default=20,
        show_default=True,
        help="At most this many model calls per answer round of the llm agent (a turn cap).",
    )
    @click.option(
        "--llm-shell",
        type=click.Choice(["off", "on", "only"]),
        default="off",
        show_default=True,
        help="Give the llm agent a 'shell' tool whose commands run in the --agent-cmd sandbox "
        "(--agent-network, --agent-memory, ... apply): 'on' beside its other tools, 'only' as "
        "its one tool.",
    )
    @click.option(
        "--protocol",
        type=click.Choice(sorted(PROTOCOLS)),
        help="Run under a published leaderboard's settings: "
        + "; ".join(f"{p.name}: {p.summary}" for p in PROTOCOLS.values())
        + ". Flags given explicitly win.",
    )
    @click.option(
        "--prompt-template",
        type=click.Path(exists=True, dir_okay=False, path_type=Path),
        help="Jinja2 file replacing the llm agent's system prompt template.",
    )
    @click.option(
        "--retry-errors", is_flag=True, help="Redo trials whose evaluation recorded an error."
    )
    @click.option("--no-progress", is_flag=True, help="No progress output on stderr.")
    @click.option(
        "--executor",
        type=click.Choice(["local", "ray"]),
        default="local",
        show_default=True,
        help="Where trials run: forked local workers, or a Ray cluster (pip install "
        "'itbench[ray]'; -j is then the number of concurrent trials).",
    )
    @sandbox_option(agent_image=True)
    @click.option(
        "--ray-address",
        metavar="ADDR",
        help="Ray cluster to join (host:port or ray://…; default: $RAY_ADDRESS, else a local "
        "instance).",
    )
    def run(
        scenarios: str | None,
        select: tuple[str, ...],
        agent_name: str | None,
        agent_cmd: str | None,
        agent_network: str,
        agent_home: Path | None,
        agent_env: tuple[str, ...],
        agent_sandbox: str,
        agent_memory: str,
        agent_file_size: str,
        agent_output: str,
        agent_processes: int,
        model: str | None,
        api_base: str | None,
        trials: int,
        jobs: int,
        output_dir: Path | None,
        fmt: str,
        fail_under: float | None,
        fail_on_errors: int | None,
        time_limit: float | None,
        llm_timeout: float,
        reflection_rounds: int,
        max_turns: int,
        llm_shell: str,
        protocol: str | None,
        prompt_template: Path | None,
        retry_errors: bool,
        no_progress: bool,
        executor: str,
        ray_address: str | None,
        **domain_options: Any,
    ) -> int:
        """Run an agent on scenarios and score every trial."""
        from itbench.runner.benchmark import RunRequest, run_benchmark
        from itbench.runner.run import results_path
        from itbench.sandbox.limits import ResourceLimits, parse_size

        if protocol is not None:
            # the protocol's settings, except where a flag was given explicitly
            chosen = PROTOCOLS[protocol]
            given = click.get_current_context().get_parameter_source
            if given("llm_shell") is click.core.ParameterSource.DEFAULT:
                llm_shell = chosen.llm_shell
            if given("max_turns") is click.core.ParameterSource.DEFAULT:
                max_turns = chosen.max_turns
            if given("trials") is click.core.ParameterSource.DEFAULT:
                trials = chosen.trials
        options = AgentOptions(
            model=model,
            api_base=api_base,
            agent_cmd=agent_cmd,
            agent_network="none" if agent_network == "none" else "allow",
            agent_home=agent_home,
            agent_env=tuple(agent_env),
            agent_sandbox=agent_sandbox == "on",
            agent_limits=ResourceLimits(
                memory_bytes=parse_size(agent_memory, "--agent-memory"),
                file_size_bytes=parse_size(agent_file_size, "--agent-file-size"),
                output_bytes=parse_size(agent_output, "--agent-output"),
            ),
            agent_max_processes=agent_processes,
            reflection_rounds=reflection_rounds,
            max_steps=max_turns,
            llm_timeout_s=llm_timeout,
            prompt_template=prompt_template,
            llm_shell=llm_shell,  # type: ignore[arg-type]  # click.Choice of the same three words
        )
        request = RunRequest(
            domain=domain.name,
            scenarios=scenarios,
            select=tuple(select),
            agent=agent_name,
            agent_options=options,
            trials=trials,
            jobs=jobs,
            output_dir=output_dir,
            time_limit_s=time_limit,
            protocol=protocol,
            retry_errors=retry_errors,
            progress=not no_progress,
            executor=executor,
            ray_address=ray_address,
            domain_options=domain_options,
        )
        document = run_benchmark(domain, request)
        path = results_path(request.run_directory())
        print(f"results: {path}", file=sys.stderr)
        _emit(document, path, fmt, domain)
        return _exit_for(document, fail_under, fail_on_errors)

    return _with_domain_options(run, domain)


def _eval_command(domain: Domain) -> click.Command:
    @click.command(name="eval")
    @click.option(
        "--outputs",
        "outputs",
        required=True,
        type=click.Path(exists=True, file_okay=False, path_type=Path),
        help="Outputs laid out as DIR/<scenario>/<trial>/.",
    )
    @click.option(
        "--ground-truth",
        "--scenarios",
        "ground_truth",
        type=click.Path(exists=True, path_type=Path),
        help="Ground truth or scenario directory (default: the built-in suite's).",
    )
    @click.option(
        "--result-file",
        type=click.Path(path_type=Path),
        help="Where to write the results document, replaced if it exists (default: "
        "OUTPUTS/eval-results.json, which must not exist yet).",
    )
    @click.option(
        "--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True
    )
    @click.option(
        "--fail-under", type=float, help="Exit 1 when the primary metric's mean is below this."
    )
    @click.option(
        "--fail-on-errors",
        type=click.IntRange(min=0),
        metavar="N",
        help="Exit 3 when more than N trials failed without a score (a run where no trial "
        "scored always exits 3).",
    )
    def eval_(
        outputs: Path,
        ground_truth: Path | None,
        result_file: Path | None,
        fmt: str,
        fail_under: float | None,
        fail_on_errors: int | None,
        **domain_options: Any,
    ) -> int:
        """Score existing agent outputs (the original ITBench outputs layout)."""
        from itbench.runner.benchmark import evaluate_outputs
        from itbench.runner.evaluate import written_to

        document = evaluate_outputs(
            domain,
            outputs,
            ground_truth=ground_truth,
            result_file=result_file,
            domain_options=domain_options,
        )
        path = written_to(outputs, result_file)
        print(f"results: {path}", file=sys.stderr)
        _emit(document, path, fmt, domain)
        return _exit_for(document, fail_under, fail_on_errors)

    return _with_domain_options(eval_, domain)


def _with_domain_options(command: click.Command, domain: Domain) -> click.Command:
    """The domain's own options (``Domain.run_options``) appended to a core command; click hands
    their values to the callback as extra keyword arguments."""
    if domain.run_options is not None:
        command.params.extend(domain.run_options())
    return command
