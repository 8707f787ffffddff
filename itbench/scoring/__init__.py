"""The one scoring core every domain uses: set metrics, ranking, pass@k, chains, proximity,
and the aggregation of trial scores into the ITBench results document."""

from itbench.scoring.sets import SetScore, set_score, set_score_at_k

__all__ = ["SetScore", "set_score", "set_score_at_k"]
