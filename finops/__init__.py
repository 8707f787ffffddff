"""FinOps domain: root cause of cost anomalies in hierarchical billing data.

- ``plugin.py``: the ``Domain``; ``scenario.py``, ``suite.py``: scenarios and the built-in suite;
- ``loaders/``: ITBench-Lite ``data.csv`` and FOCUS exports onto one cost table;
- ``rca/``: the ``baseline`` (``cube``, ``seasonal`` baselines, ``drilldown`` by description
  length, ``nodes``, ``kinds``, ``explain``, ``diagnose``) and the ``naive`` and ``topk``
  comparisons;
- ``generator/``: scenarios by difficulty and by family, charges planted into FOCUS exports;
- ``evaluate.py``, ``table.py``, ``output.py``: scoring, the run table, the answer's schema;
  ``tools.py``: the ``llm`` agent's data tools;
- ``k8s/``: cost alerts on Kubernetes (``--task mitigate|diagnose``): workloads, the HPA
  algorithm, OpenCost-style cost, the reconciler on the offline cluster, scenarios and verdicts.

User documentation: docs/finops/ (``mkdocs serve``).
"""
