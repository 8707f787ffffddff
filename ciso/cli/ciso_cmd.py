"""Subcommands of ``itbench ciso`` beside the core's ``run`` and ``eval``."""

from __future__ import annotations

from collections.abc import Sequence

import click


def commands() -> Sequence[click.Command]:
    from ciso.cli.env_cmd import env
    from ciso.cli.generate_cmd import generate
    from ciso.cli.scenarios_cmd import scenarios

    return [scenarios, env, generate]
