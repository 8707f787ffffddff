"""The ITBench results document as one typed value: :class:`ResultsDocument`.

``{"raw_results": [...], "statistics": {"per_incident": ..., "overall": ...}, "config": {...}}``
is what every domain writes and every ITBench dashboard reads. It is built once (by the runner from
trial evaluations, or by reading a file), read through attributes, and turned into JSON only when
written (:meth:`ResultsDocument.to_json_bytes`).

Two constraints shape it:

- **Byte-identical files.** ITBench-Evaluations' files are compared as they are; a document read
  and written back keeps every key it had, in the order it had them (``_KeyOrder``), and adds none.
- **100,000 raw results in about a second.** Raw results stay the plain dicts they were read as
  (:class:`RawResult` types them statically): validating them as models and dumping them again
  cost 0.6 s + 0.5 s on 100,000 entries, more than ``itbench stats`` takes in all. They are checked
  once, with errors naming the entry and field, by :func:`check_raw_results`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NotRequired, Required, cast

import orjson
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    SkipValidation,
    ValidationError,
    model_serializer,
    model_validator,
)
from typing_extensions import TypedDict

from itbench.errors import InputError
from itbench.jsonsafe import writable_text
from itbench.scoring.aggregate import ScoreShapeError, compute_statistics


class RawResult(TypedDict, total=False):
    """One trial of ``raw_results``: scores, or an error when the trial produced nothing usable.

    ITBench's own files carry more keys (``scenario_index``); they are kept as they are.
    """

    incident_id: Required[str]
    trial_id: NotRequired[str]
    scores: NotRequired[dict[str, Any]]
    error: NotRequired[str]


class _KeyOrder(BaseModel):
    """A model that writes its keys in the order they were read, so a file read and written back
    is byte for byte the same; a model built in code writes its fields in declaration order."""

    model_config = ConfigDict(frozen=True, extra="allow", populate_by_name=True)

    _order: tuple[str, ...] = PrivateAttr(default=())

    @model_validator(mode="wrap")
    @classmethod
    def _remember_order(cls, data: Any, handler: Any) -> Any:
        model = handler(data)
        if isinstance(data, Mapping) and isinstance(model, _KeyOrder):
            # private attributes are outside pydantic's frozen check: this records how it was read
            model._order = tuple(data)
        return model

    @model_serializer(mode="wrap")
    def _in_read_order(self, handler: Any) -> dict[str, Any]:
        return _reordered(handler(self), self._order)


def _reordered(out: dict[str, Any], order: Sequence[str]) -> dict[str, Any]:
    if not order:
        return out
    ordered = {key: out[key] for key in order if key in out}
    ordered.update((key, value) for key, value in out.items() if key not in ordered)
    return ordered


class RunConfig(_KeyOrder):
    """``config``: how the run was made. Any other key (ITBench's ``k``, ``eval_criteria``,
    a domain's ``results_config``) is kept as an extra."""

    domain: str | None = None
    agent: str | None = None
    model: str | None = None
    # strict: a file's "3" must stay "3" when written back, not become 3
    trials: int | None = Field(default=None, strict=True)
    primary_metric: str | None = None
    #: scenario id -> its class (``cost-easy``, ``k8s-policy``); tables group by it.
    scenario_classes: dict[str, str] = Field(default_factory=dict)
    #: metrics beyond ITBench's own for which pass@1 is reported.
    pass_at_1_metrics: tuple[str, ...] = ()
    #: a display name for reports (else the folder or file name).
    run_name: str | None = None


class IncidentMetric(BaseModel):
    """One metric of one incident: mean over its trials, population stderr, trial count."""

    model_config = ConfigDict(frozen=True, populate_by_name=True)

    mean: float
    stderr: float
    n: int
    pass_at_1: float | None = Field(default=None, alias="pass@1")


class OverallMetric(BaseModel):
    """One metric over incidents: macro mean, sample stderr (None for one incident)."""

    model_config = ConfigDict(frozen=True, populate_by_name=True)

    mean: float
    stderr: float | None
    n_incidents: int
    pass_at_1: float | None = Field(default=None, alias="pass@1")
    #: Bad runs counted as trials scoring 0 (present only when the raw results hold bad runs).
    mean_with_failures_as_zero: float | None = None


class OverallStatistics(BaseModel):
    """``statistics.overall``: in JSON the metrics and ``total_bad_runs`` share one object."""

    model_config = ConfigDict(frozen=True)

    metrics: dict[str, OverallMetric]
    total_bad_runs: int = 0

    @model_validator(mode="before")
    @classmethod
    def _split(cls, data: Any) -> Any:
        if isinstance(data, Mapping) and "metrics" not in data:
            metrics = {k: v for k, v in data.items() if k != "total_bad_runs"}
            return {"metrics": metrics, "total_bad_runs": data.get("total_bad_runs", 0)}
        return data

    @model_serializer(mode="wrap")
    def _flat(self, handler: Any) -> dict[str, Any]:
        out = handler(self)
        return {**out["metrics"], "total_bad_runs": out["total_bad_runs"]}


class Statistics(BaseModel):
    """``statistics``: per incident (first-seen order) and overall, as ITBench-Evaluations has it."""

    model_config = ConfigDict(frozen=True)

    per_incident: dict[str, dict[str, IncidentMetric]] = Field(default_factory=dict)
    overall: OverallStatistics = Field(default_factory=lambda: OverallStatistics(metrics={}))

    def mean(self, metric: str | None) -> float | None:
        """The overall mean of ``metric``; None when it was never scored."""
        entry = self.overall.metrics.get(metric) if metric else None
        return entry.mean if entry is not None else None


class ResultsDocument(BaseModel):
    """One ITBench results document. Attributes: ``raw_results`` (a tuple of :class:`RawResult`
    dicts), ``statistics`` (:class:`Statistics`), ``config`` (:class:`RunConfig`); other top-level
    keys of a read file are kept as extras."""

    model_config = ConfigDict(frozen=True, extra="allow")

    # not validated by pydantic (see the module docstring): check_raw_results does it, with
    # messages naming the entry, and excluded from model_dump, which to_jsonable replaces
    raw_results: SkipValidation[tuple[RawResult, ...]] = Field(exclude=True)
    statistics: Statistics
    config: RunConfig = Field(default_factory=RunConfig)

    _order: tuple[str, ...] = PrivateAttr(default=())

    @classmethod
    def build(
        cls, raw_results: Sequence[Mapping[str, Any]], config: RunConfig | Mapping[str, Any]
    ) -> ResultsDocument:
        """The document of a run: statistics computed from the raw results."""
        run_config = config if isinstance(config, RunConfig) else RunConfig.model_validate(config)
        raw = cast("tuple[RawResult, ...]", tuple(dict(r) for r in raw_results))
        statistics = compute_statistics(raw, run_config.pass_at_1_metrics)
        return cls(
            raw_results=raw,
            statistics=Statistics.model_validate(statistics),
            config=run_config,
        )

    @classmethod
    def read(cls, data: Any, path: Path, where: str = "") -> ResultsDocument:
        """A document read from a file, with its statistics recomputed from its raw results (a
        stored ``statistics`` is never trusted). Errors name ``path`` and the field."""
        prefix = f"{where}." if where else ""
        if not isinstance(data, dict):
            raise InputError(f"{path}: {where or 'document'} is not a JSON object")
        raw = data.get("raw_results")
        if not isinstance(raw, list):
            raise InputError(f"{path}: {prefix}raw_results is missing or not a list")
        check_raw_results(raw, path, prefix)
        config_data = data.get("config", {})
        if not isinstance(config_data, dict):
            raise InputError(f"{path}: {prefix}config is not an object")
        try:
            config = RunConfig.model_validate(config_data)
        except ValidationError as exc:
            raise InputError(f"{path}: {prefix}config{_first_error(exc)}") from exc
        try:
            statistics = compute_statistics(raw, config.pass_at_1_metrics)
        except ScoreShapeError as exc:
            raise InputError(f"{path}: {prefix}{exc}") from exc
        extras = {k: v for k, v in data.items() if k not in ("raw_results", "statistics", "config")}
        fields: dict[str, Any] = {
            "raw_results": tuple(raw),
            "statistics": Statistics.model_validate(statistics),
        }
        if "config" in data:  # a file without config is written back without one
            fields["config"] = config
        document = cls(**fields, **extras)
        # "statistics" goes where the file had it, or last when it had none (as it was written)
        document._order = (*data, *(() if "statistics" in data else ("statistics",)))
        return document

    def to_jsonable(self) -> dict[str, Any]:
        """The document as JSON-ready dicts and lists, keys in the order they were read."""
        out = self.model_dump(by_alias=True, exclude_unset=True)
        out["raw_results"] = self.raw_results
        return _reordered(out, self._order or ("raw_results", "statistics", "config"))

    def to_json_bytes(self) -> bytes:
        return dumps_document(self.to_jsonable())


def check_raw_results(raw: Sequence[Any], path: Path, prefix: str = "") -> None:
    """Every entry an object with ``incident_id`` and ``scores`` or ``error``."""
    for i, entry in enumerate(raw):
        # one cheap test per entry (100,000 of them); the message is worked out only on failure
        if (
            type(entry) is dict
            and "incident_id" in entry
            and ("scores" in entry or "error" in entry)
        ):
            continue
        where = f"{prefix}raw_results[{i}]"
        if not isinstance(entry, dict):
            raise InputError(f"{path}: {where} is not an object")
        if "incident_id" not in entry:
            raise InputError(f"{path}: {where}.incident_id is missing")
        if "scores" not in entry and "error" not in entry:
            raise InputError(f"{path}: {where} has neither scores nor error")


def _first_error(exc: ValidationError) -> str:
    error = exc.errors()[0]
    location = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error["loc"])
    return f"{location}: {error['msg']} (got {error.get('input')!r:.60})"


_DUMPS_OPTION = orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS | orjson.OPT_APPEND_NEWLINE
#: orjson writes integers of 64 bits at most and nests at most 255 levels deep
_INT_RANGE = range(-(2**63), 2**64)
_WRITABLE_DEPTH = 200


def dumps_document(document: Any) -> bytes:
    """Indented JSON (UTF-8 bytes, newline-terminated), fast enough for 100,000 raw results."""
    try:
        return orjson.dumps(document, option=_DUMPS_OPTION, default=str)
    except orjson.JSONEncodeError:
        # one value orjson cannot write (a count past 64 bits, a detail nested too deep, text
        # with a lone surrogate) must not lose every trial of the run: that value is written as
        # text, as ``default=str`` writes any other value JSON has no type for, and the rest as
        # it is
        return orjson.dumps(_writable(document, 0), option=_DUMPS_OPTION, default=str)


def _writable(value: Any, depth: int) -> Any:
    """``value`` with integers past orjson's range as decimal text and anything nested deeper
    than ``_WRITABLE_DEPTH`` as its JSON text."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return value if value in _INT_RANGE else str(value)
    if isinstance(value, str):
        return writable_text(value)
    if isinstance(value, dict | list | tuple) and depth >= _WRITABLE_DEPTH:
        return writable_text(json.dumps(value, default=str))
    if isinstance(value, dict):
        return {
            writable_text(k) if isinstance(k, str) else k: _writable(v, depth + 1)
            for k, v in value.items()
        }
    if isinstance(value, list | tuple):
        return [_writable(v, depth + 1) for v in value]
    if isinstance(value, BaseModel):
        return _writable(value.model_dump(by_alias=True), depth)
    return value
