"""The generic reflection loop: generate -> validate -> feedback -> regenerate."""

from itbench.reflection.loop import ReflectionOutcome, ReflectionRound, feedback_message, reflect

__all__ = ["ReflectionOutcome", "ReflectionRound", "feedback_message", "reflect"]
