"""A tag that only changes case on the way (a policy lower-cased every tag) is one application:
its history under ``Payments`` is the baseline of ``payments`` on the anomaly day."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import numpy as np
import pytest

from finops.loaders.lite import read_lite_csv
from finops.rca.cube import build_cube

HEADER = "date,Account ID,CSP,Cloud_Service,Application,Instance_Family,Price ($/hr),Num_Instances,unblended_cost"


def _bill(tmp_path: Path, seed: int) -> tuple[Path, dt.date, int]:
    rng = np.random.default_rng(seed)
    start = dt.date(2026, 3, 1)
    renamed = 40 + int(rng.integers(0, 10))  # the day the tagging policy lower-cases the tag
    days = renamed + 30
    rows = [HEADER]
    for i in range(days):
        day = start + dt.timedelta(days=i)
        app = "Payments" if i < renamed else "payments"
        for family, price in (("m7g.2xlarge", 0.33), ("m7g.large", 0.08)):
            n = round(float(rng.uniform(4, 6)), 2)
            cost = price * 24 * n
            rows.append(f"{day},111122223333,AWS,EKS,{app},{family},{price},{n},{cost:.4f}")
    path = tmp_path / f"bill-{seed}.csv"
    path.write_text("\n".join(rows) + "\n")
    return path, start + dt.timedelta(days=days - 1), days


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_an_application_tag_that_only_changes_case_keeps_its_history(
    tmp_path: Path, seed: int
) -> None:
    path, last, days = _bill(tmp_path, seed)
    cube = build_cube(read_lite_csv(path), "111122223333", last)
    apps = cube.level(3)
    # one node, spelt as on the anomaly day, with a cost on every day of the bill
    assert [p[-1] for p in apps.paths] == ["payments"]
    assert apps.values.shape[1] == days
    assert np.all(apps.values[0] > 0)
