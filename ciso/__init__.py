"""CISO domain: compliance requirements turned into Kyverno, Rego and Ansible artifacts.

- ``plugin.py``: the ``Domain`` the ``itbench.domains`` entry point names;
- ``scenarios/``: the scenario format and loaders (ours, ITBench bundles, ITBench-Lite), the
  public view agents get, reference answers; ``suite/``: the built-in scenarios;
- ``generator/``: fresh instances, one unit per control (``controls/``);
- ``environments/``: a trial's offline cluster or host inventory; ``live/``: the same on a real
  cluster (``--kubeconfig``);
- ``evaluation/``: one evaluator per class; ``validation/``: what reflection feeds back (files,
  lint, compile, dry run); ``report.py``: the run table;
- ``agents/``: the ``baseline`` (intent parser, ``knowledge/``, Jinja2 templates), the ``llm``
  agent's tools and prompts;
- ``engines/``: ``kyverno/`` (classic rules, ``cel/``, mutation, generation, podSecurity,
  reports, ``kyverno test``), ``rego/`` (backends, v0 rewriter, worker pool), ``ansible/``;
- ``lint/``: ``itbench lint`` (``rules/`` one module per rule, ``formats/``);
- ``cli/``: ``itbench ciso|kyverno|rego|lint|ansible``.

User documentation: docs/ciso/, docs/engines/ (``mkdocs serve``).
"""
