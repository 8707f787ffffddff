"""Unbiased pass@k (Chen et al. 2021): 1 - C(n-c, k) / C(n, k) for n trials with c successes."""

from __future__ import annotations

from collections.abc import Iterable


def pass_at_k(n: int, c: int, k: int) -> float:
    """Probability that at least one of k trials drawn without replacement from n succeeds.

    Computed as a running product, which stays exact enough where the binomials overflow floats.
    ``k > n`` is not estimable from n trials and raises ValueError.
    """
    if not 0 <= c <= n:
        raise ValueError(f"need 0 <= c <= n, got c={c}, n={n}")
    if not 1 <= k <= n:
        raise ValueError(f"need 1 <= k <= n, got k={k}, n={n}")
    if n - c < k:
        return 1.0
    failure = 1.0
    for i in range(n - c + 1, n + 1):
        failure *= 1.0 - k / i
    return 1.0 - failure


def mean_pass_at_k(outcomes: Iterable[tuple[int, int]], k: int) -> float:
    """pass@k averaged over scenarios given as (n, c) pairs."""
    values = [pass_at_k(n, c, k) for n, c in outcomes]
    return sum(values) / len(values) if values else 0.0
