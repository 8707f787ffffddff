"""Scoring one CISO trial: one evaluator module per class, each returning the pinned metrics
(itbench_pass, strict_pass, and the class's own) plus details of how it decided; the entry point
is :func:`ciso.evaluation.trial.evaluate_trial`. This package file imports nothing, so live mode's
modules can use the evaluators' parts without a circle back through it."""
