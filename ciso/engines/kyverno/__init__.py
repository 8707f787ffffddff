"""A Kyverno engine in Python: validate rules, PolicyReports and the ``kyverno test`` runner.

Module map (the one evaluation path first):

- ``engine``: ``apply``/``apply_rows``, every rule of every policy on every resource. A policy is
  planned once (``_plan``: shape checked, rules sorted mutate-first with their kind prefilters and
  outcome memos); per resource ``_apply_rules`` runs the prefilters (``_admits``: match/exclude),
  ``applyRules: One``, the outcome memo around the validate handler and mutation chaining; one
  handler per rule type (``HANDLERS``); every result row is built by ``_result_row``.
- ``outcome_memo``: a validate rule's outcome remembered by what the rule can read of the
  resource (``Memo.outcome`` wraps the handler).
- ``testrunner``: ``kyverno test``, in three steps per Test document: reading (``_read_test``:
  the Test and every file it names, into a frozen ``_TestInput``), running (``_run``: the
  engine's responses per admission operation) and comparing (``_compare``: one Expectation per
  result entry and resource); ``testfile`` checks a Test's shape.
- ``bulk``: ``kyverno apply`` over large inputs in worker processes, in input order.
- Rule parts: ``matching`` (match/exclude), ``conditions`` (preconditions, deny), ``pattern``
  (validate patterns, one compiled interpreter), ``validation`` (a validate block), ``foreach``,
  ``mutation``, ``generation``, ``podsecurity``, ``exceptions`` (PolicyExceptions), ``autogen``,
  ``rule_context``/``variables``/``jmespath`` (variables), ``cel`` (the CEL policy kinds).
- Around them: ``model`` (what crosses the engine's boundary), ``schema``/``structure``/``crd``
  (the policy vocabulary and shape), ``budget`` and ``growth`` (limits), ``mocks`` and
  ``api_paths`` (a Test's outside world), ``scope``, ``reports`` (PolicyReports), ``admission``
  and ``cluster_types`` (the offline cluster), ``errors``, ``wildcard``.
"""
