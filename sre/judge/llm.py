"""The optional LLM judge (``--judge MODEL``): the metrics that need the reasoning read.

Entity matching stays deterministic; the model is asked only what no rule can answer: does the
agent's reasoning for a credited root cause explain the ground-truth fault (0, 0.5 or 1:
``root_cause_reasoning``), and does its reasoning for a missed entity on the fault's path describe
that entity's symptom correctly (0 or 1, for ``root_cause_reasoning_partial``, scaled by
1/(1+hops) and the maximum taken as the original does). One call per trial, asking for JSON.
"""

from __future__ import annotations

import json
import re
from typing import Any

from itbench.errors import InputError
from itbench.llm.client import ChatClient
from sre.judge.matching import Component, Matcher
from sre.judge.metrics import Verdict, _predicted_components
from sre.outputs import PredictedEntity

SYSTEM = (
    "You judge root-cause analyses of Kubernetes incidents against a ground truth. Answer with "
    "one JSON object and nothing else."
)
_JSON = re.compile(r"\{.*\}", re.DOTALL)


class ReasoningJudge:
    def __init__(self, model: str, api_base: str | None = None, timeout_s: float = 120.0) -> None:
        self.client = ChatClient(model=model, api_base=api_base, timeout_s=timeout_s, max_retries=2)

    def usage_totals(self) -> dict[str, Any]:
        return self.client.usage.model_dump()

    def score(
        self,
        matcher: Matcher,
        predicted: list[PredictedEntity],
        vs: list[Verdict],
        gt_path: list[Component],
    ) -> dict[str, Any]:
        credited = [(e, v) for e, v in zip(predicted, vs, strict=True) if v.credited]
        position = {c: i for i, c in enumerate(gt_path)}
        roots = [matcher.group_component(r) for r in matcher.root_causes]
        on_path = []
        for e, v, c in zip(predicted, vs, _predicted_components(matcher, predicted), strict=True):
            if not v.matches_gt and c in position:
                hops = min(
                    (abs(position[c] - position[r]) for r in roots if r in position), default=None
                )
                if hops is not None:
                    on_path.append((e, hops))
        if not credited and not on_path:
            # nothing to read: the original scores this 0 without asking either
            return {
                "root_cause_reasoning": {"calculation": 0, "justification": "no root cause found"},
                "root_cause_reasoning_partial": {"calculation": 0, "details": []},
            }
        answer = self._ask(matcher, credited, on_path)
        reasoning = _grade(answer.get("root_cause_reasoning"), (0, 0.5, 1), "root_cause_reasoning")
        if not credited:
            reasoning = 0
        details = []
        best = float(reasoning)
        for e, hops in on_path:
            ok = _grade((answer.get("symptoms") or {}).get(e.ref.raw, 0), (0, 1), e.ref.raw)
            entity_score = ok / (1 + hops)
            details.append(
                {
                    "entity": e.ref.raw,
                    "hop_away": hops,
                    "symptom_correct": ok,
                    "entity_score": entity_score,
                }
            )
            best = max(best, entity_score)
        return {
            "root_cause_reasoning": {
                "calculation": reasoning,
                "justification": str(answer.get("justification", ""))[:2000],
            },
            "root_cause_reasoning_partial": {"calculation": best, "details": details},
        }

    def _ask(self, matcher: Matcher, credited: list, on_path: list) -> dict[str, Any]:
        truth = {
            "fault": [f.model_dump(mode="json") for f in matcher.truth.fault],
            "propagations": [p.model_dump(mode="json") for p in matcher.truth.propagations],
        }
        prompt = {
            "ground_truth": truth,
            "credited_root_causes": [
                {"entity": e.ref.raw, "reasoning": e.reasoning, "evidence": e.evidence}
                for e, _ in credited
            ],
            "entities_on_fault_path": [
                {"entity": e.ref.raw, "reasoning": e.reasoning} for e, _ in on_path
            ],
            "answer_format": {
                "root_cause_reasoning": "1 if the reasoning of the credited root causes explains "
                "the ground-truth fault mechanism, 0.5 if partly, 0 if not",
                "symptoms": {
                    "<entity>": "1 if its reasoning describes its symptom correctly, else 0"
                },
                "justification": "one paragraph",
            },
        }
        try:
            reply = self.client.complete(
                [
                    {"role": "system", "content": SYSTEM},
                    {"role": "user", "content": json.dumps(prompt)},
                ]
            )
        except Exception as exc:  # litellm's errors after retries: the trial records it
            raise InputError(
                f"judge model {self.client.model}: {type(exc).__name__}: {exc}"
            ) from exc
        found = _JSON.search(reply.content or "")
        try:
            doc = json.loads(found.group(0)) if found else None
        except json.JSONDecodeError:
            doc = None
        if not isinstance(doc, dict):
            raise InputError(
                f"judge model {self.client.model}: reply is not a JSON object: {reply.content[:200]!r}"
            )
        return doc


def _grade(value: Any, allowed: tuple[float, ...], what: str) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise InputError(f"judge reply: {what}: {value!r} is not a number") from None
    # a model may answer 0.4 for "partly": take the nearest allowed grade
    return min(allowed, key=lambda a: abs(a - number))
