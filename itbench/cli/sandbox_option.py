"""``--sandbox`` and ``--agent-image``: the sandbox backend of a command (see
:mod:`itbench.sandbox.backend`), chosen and checked before any trial or command runs."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar

import click

from itbench.sandbox.backend import BACKENDS, ENV
from itbench.sandbox.engine import AGENT_IMAGE_ENV

F = TypeVar("F", bound=Callable[..., Any])


def _choose(_ctx: click.Context, _param: click.Parameter, value: str | None) -> None:
    from itbench.sandbox.backend import select

    if value is not None or ENV in os.environ:
        select(value)  # exit 3 here, before any trial, when the backend cannot run


def _agent_image(_ctx: click.Context, _param: click.Parameter, value: str | None) -> None:
    if value:
        os.environ[AGENT_IMAGE_ENV] = value


def sandbox_option(agent_image: bool = False) -> Callable[[F], F]:
    def decorate(function: F) -> F:
        function = click.option(
            "--sandbox",
            type=click.Choice(BACKENDS),
            expose_value=False,
            callback=_choose,
            help=f"Where sandboxed commands run: bubblewrap, a container through the docker SDK "
            f"at DOCKER_HOST (Docker, Podman's socket), or auto (bubblewrap on Linux when it "
            f"works, else a container engine). Default: ${ENV}, else auto.",
        )(function)
        if agent_image:
            function = click.option(
                "--agent-image",
                metavar="IMAGE",
                expose_value=False,
                callback=_agent_image,
                help="Image the agent's commands run in with --sandbox container (e.g. one with "
                "an agent CLI installed); default: the evaluation image.",
            )(function)
        return function

    return decorate
