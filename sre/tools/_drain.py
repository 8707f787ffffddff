"""Drain log template mining (He et al., ICWS 2017): a fixed-depth prefix tree over token count
and leading tokens, clusters merged when enough tokens agree. Written for our inputs: lines arrive
already masked (UUIDs, IPs, hex, numbers) and grouped with their counts, so the tree sees each
distinct masked line once."""

from __future__ import annotations

from dataclasses import dataclass, field

WILDCARD = "<*>"


@dataclass
class Cluster:
    tokens: list[str]
    members: list[int] = field(default_factory=list)  # indexes of the grouped input lines

    @property
    def template(self) -> str:
        return " ".join(self.tokens)


class Drain:
    def __init__(self, depth: int = 4, similarity: float = 0.4, max_children: int = 100) -> None:
        self.prefix_levels = max(depth - 2, 1)
        self.similarity = similarity
        self.max_children = max_children
        self.tree: dict[int, dict] = {}
        self.clusters: list[Cluster] = []

    def add(self, line: str, index: int) -> Cluster:
        tokens = line.split()
        node = self.tree.setdefault(len(tokens), {})
        for token in tokens[: self.prefix_levels]:
            key = WILDCARD if any(ch.isdigit() for ch in token) or token.startswith("<") else token
            if key not in node and len(node) >= self.max_children:
                key = WILDCARD
            node = node.setdefault(key, {})
        leaf: list[Cluster] = node.setdefault("__clusters__", [])
        best, best_score = None, -1.0
        for cluster in leaf:
            score = self._score(cluster.tokens, tokens)
            if score > best_score:
                best, best_score = cluster, score
        if best is not None and best_score >= self.similarity:
            best.tokens = [
                a if a == b else WILDCARD for a, b in zip(best.tokens, tokens, strict=True)
            ]
            best.members.append(index)
            return best
        cluster = Cluster(tokens, [index])
        leaf.append(cluster)
        self.clusters.append(cluster)
        return cluster

    @staticmethod
    def _score(template: list[str], tokens: list[str]) -> float:
        if not tokens:
            return 1.0
        same = sum(1 for a, b in zip(template, tokens, strict=True) if a == b and a != WILDCARD)
        return same / len(tokens)
