"""The normalised cost table every FinOps algorithm reads.

One row per (day, hierarchy path) with the day's summed cost (and, where the source has them,
the day's price and quantity). Duplicate source rows for the same day and path are *summed*: billing
exports legitimately split one resource-day over several line items (hours, SKUs). Negative costs
are credits and refunds and are kept: they lower the day's cost as they lower the bill.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from finops.loaders.columns import require_columns
from finops.loaders.export import check_export
from finops.model import Hierarchy
from itbench.errors import InputError

#: The label of a line the export left empty at a level (a FOCUS ``ResourceId`` of NULL: usage
#: billed per account, not per resource, as security scanners' and query engines' lines are).
#: It names no resource: a cause found on it is named at the level above.
NO_LABEL = "(none)"


@dataclass(frozen=True)
class CostTable:
    hierarchy: Hierarchy
    #: Columns: ``date`` (datetime64[ns], midnight), one column per level (str), ``cost`` (float),
    #: and ``price`` / ``quantity`` (float) when the hierarchy names them.
    frame: pd.DataFrame
    source: Path | None = None

    def account_ids(self) -> list[str]:
        return sorted(self.frame[self.hierarchy.account_level].unique().tolist())


def _numeric(frame: pd.DataFrame, column: str, path: Path) -> pd.Series:
    raw = frame[column]
    if pd.api.types.is_numeric_dtype(raw):
        return raw.fillna(0.0).astype(float)
    values = pd.to_numeric(raw, errors="coerce")
    missing = values.isna()
    if missing.any():
        # only the failed cells are inspected, so the common all-numeric case stays fast
        text = raw[missing].astype(str).str.strip()
        bad = text[(text != "") & (text.str.upper() != "NULL") & (text != "nan")]
        if len(bad):
            row = int(frame.index.get_loc(bad.index[0]))  # type: ignore[arg-type]  # read_csv's RangeIndex: one int position per label
            raise InputError(
                f"{path}: row {row + 2}, column {column!r}: {bad.iloc[0]!r} is not a number"
            )
    return values.fillna(0.0).astype(float)


def _labels(column: pd.Series) -> pd.Categorical:
    """Hierarchy labels as a categorical: strip and fill the few distinct values, not every row."""
    codes, uniques = pd.factorize(column, use_na_sentinel=True)
    cleaned = pd.Index([str(u).strip() for u in uniques], dtype=object)
    merged_codes, merged = pd.factorize(cleaned)
    new_codes = np.where(
        codes >= 0, merged_codes[np.maximum(codes, 0)] if len(merged_codes) else 0, -1
    )
    if (new_codes < 0).any():
        merged = merged.append(pd.Index([NO_LABEL]))
        new_codes = np.where(new_codes < 0, len(merged) - 1, new_codes)
    return pd.Categorical.from_codes(new_codes, categories=merged)


def _days(column: pd.Series, path: Path, name: str) -> pd.Series:
    """Parse each distinct timestamp once (a billing file repeats a few hundred of them)."""
    codes, uniques = pd.factorize(column, use_na_sentinel=True)
    parsed = pd.to_datetime(pd.Series(uniques), errors="coerce", utc=True, format="mixed")
    bad_unique = parsed.isna().to_numpy()
    if (codes < 0).any() or bad_unique.any():
        bad_rows = (codes < 0) | bad_unique[np.maximum(codes, 0)]
        row = int(np.flatnonzero(bad_rows)[0])
        raise InputError(
            f"{path}: row {row + 2}, column {name!r}: {column.iloc[row]!r} is not a date"
        )
    days = parsed.dt.tz_localize(None).dt.normalize().to_numpy()
    return pd.Series(days[codes], index=column.index)


def _needed_columns(hierarchy: Hierarchy) -> list[str]:
    required = [*hierarchy.levels, hierarchy.cost_column, hierarchy.date_column]
    return required + [c for c in (hierarchy.price_column, hierarchy.quantity_column) if c]


def check_header(path: Path, hierarchy: Hierarchy, skip_initial_space: bool) -> None:
    """The columns of the billing file a user gave, checked when the scenario loads: a renamed
    column then names that file, not the workspace copy a trial reads, and stops the run."""
    check_export(path)  # the header is read up to its first newline: bounded by the file's cap
    try:
        header = pd.read_csv(path, nrows=0, skipinitialspace=skip_initial_space).columns
    except (OSError, pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: not a readable CSV ({exc})") from exc
    require_columns(path, header, _needed_columns(hierarchy))


def normalise(raw: pd.DataFrame, hierarchy: Hierarchy, path: Path) -> CostTable:
    """Check and reshape a raw billing frame into a :class:`CostTable`."""
    require_columns(path, raw.columns, _needed_columns(hierarchy))
    if raw.empty:
        raise InputError(f"{path}: no data rows")
    dates = pd.to_datetime(raw[hierarchy.date_column], errors="coerce", utc=True, format="mixed")
    if dates.isna().any():
        row = int(np.flatnonzero(dates.isna().to_numpy())[0])
        value = raw[hierarchy.date_column].iloc[row]
        raise InputError(
            f"{path}: row {row + 2}, column {hierarchy.date_column!r}: {value!r} is not a date"
        )
    frame = pd.DataFrame({"date": dates.dt.tz_localize(None).dt.normalize()})
    for level in hierarchy.levels:
        frame[level] = raw[level].astype("string").fillna(NO_LABEL).str.strip().astype(str)
    frame["cost"] = _numeric(raw, hierarchy.cost_column, path)
    aggregations = {"cost": "sum"}
    if hierarchy.price_column:
        frame["price"] = _numeric(raw, hierarchy.price_column, path)
        aggregations["price"] = "mean"
    if hierarchy.quantity_column:
        frame["quantity"] = _numeric(raw, hierarchy.quantity_column, path)
        aggregations["quantity"] = "sum"
    keys = ["date", *hierarchy.levels]
    frame = frame.groupby(keys, sort=False, observed=True).agg(aggregations).reset_index()
    for level in hierarchy.levels:  # downstream code compares labels as plain strings
        frame[level] = frame[level].astype(str)
    return CostTable(hierarchy, frame, path)
