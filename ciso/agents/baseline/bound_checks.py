"""A numeric field that must lie within bounds (a grace period, a Job's deadline or retry limit),
with the value the API gives it when unset: a check kind no field-value check can say, since it
compares numbers and knows the default. Frozen like the rest of the intent (``intent.py`` lists
it among the Kubernetes checks)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class FieldBoundCheck:
    """The effective value of a numeric field lies in [``minimum``, ``maximum``] (either may be
    None: no bound on that side). The effective value is the first of ``paths`` set (the
    spellings of one setting in different kinds: a Job's ``spec.activeDeadlineSeconds``, a
    CronJob's ``spec.jobTemplate.spec.activeDeadlineSeconds``), else ``default``; with no
    default, an unset field violates. ``level``: ``object`` (objects of ``kinds``) or ``pod``
    (every pod spec of any workload, paths below it)."""

    concept: str
    level: Literal["object", "pod"]
    paths: tuple[tuple[str, ...], ...]
    kinds: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    default: int | None = None
    #: only objects in namespaces carrying all these labels (key, value) are judged
    namespace_labels: tuple[tuple[str, str], ...] = ()
    #: the kubectl resources the Rego must collect (plural), as the effect checks name them
    collects: tuple[str, ...] = ()
    #: for a field judged item by item: only the items whose field (first: its path below the
    #: list's item) holds one of these values (second) are judged ("every toleration of a
    #: NoExecute taint": effect NoExecute; an autoscaler's CPU metric: resource.name cpu)
    item_when: tuple[tuple[str, ...], tuple[str, ...]] | None = None
    kind: Literal["field-bound"] = "field-bound"

    @property
    def per_item(self) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
        """For a path through a list (a ``*`` step: every projection source, every volume):
        the path of the items and the path of the field below each, judged item by item (an
        item without the field takes ``default``); None for a field that occurs once per
        object. The item is what holds the field, unless ``item_when`` names a field of the
        list's element itself: then the element is the item."""
        if len(self.paths) != 1 or "*" not in self.paths[0]:
            return None
        path = self.paths[0]
        if self.item_when is None:
            return path[:-1], path[-1:]
        last = len(path) - 1 - path[::-1].index("*")
        return path[: last + 1], path[last + 1 :]


@dataclass(frozen=True)
class InheritedBoundCheck:
    """The EFFECTIVE number of a setting every container inherits from its pod (a
    ``securityContext`` field at ``path`` below both: the container's own value, else the
    pod's) lies in [``minimum``, ``maximum``]; a container for which neither sets it violates
    when ``unset_violates`` and is not judged otherwise."""

    concept: str
    path: tuple[str, ...]
    minimum: int | None = None
    maximum: int | None = None
    unset_violates: bool = False
    kind: Literal["inherited-bound"] = "inherited-bound"
