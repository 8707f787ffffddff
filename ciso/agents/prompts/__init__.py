"""Jinja2 templates of the ``llm`` agent's CISO prompts (``--prompt-template FILE`` overrides)."""

from __future__ import annotations

from importlib.resources import files


def system_template() -> str:
    """The system prompt's template text (rendered by the core llm agent)."""
    return files(__package__).joinpath("system.j2").read_text(encoding="utf-8")
