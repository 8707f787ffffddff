"""Helpers the tests share, imported as ``tests._support.<module>`` (the suite runs with
``--import-mode=importlib``, so no test imports from ``conftest`` or from another ``test_*`` module).

- ``cli``: the repository's paths and ``run_cli``, which runs ``itbench`` in this process (click's
  own entry point, stdout and stderr captured at the file-descriptor level) or, when a test needs
  a process of its own (its own environment or working directory), as a subprocess.
- ``ciso``: the CISO evaluation fixtures as the loader hands them over, and trial directories.
- ``sre``: the hand-written SRE incident and the judge's shared truth and outputs.
- ``sre_incident_files``: small incident snapshots written to disk for the SRE baseline's tests,
  and the pieces those tests state incidents with (the incident's clock, a labelled Deployment,
  the snapshot's timestamp format).
- ``sre_twin``: a remedy applied through real kubectl to a served twin, and its verdict.
- ``fake_openai``: a scripted OpenAI-compatible server on 127.0.0.1 for the LLM paths.
- ``ray_cluster``: one real local Ray head for the session.
"""
