"""Rego on real OPA semantics: the opa CLI, embedded OPA (opa-golib) and regorus behind one interface."""

from ciso.engines.rego.model import UNDEFINED, Diagnostic, EvalResult, RegoError, TestCase, TestRun
from ciso.engines.rego.select import available_engines, select_engine

__all__ = [
    "UNDEFINED",
    "Diagnostic",
    "EvalResult",
    "RegoError",
    "TestCase",
    "TestRun",
    "available_engines",
    "select_engine",
]
