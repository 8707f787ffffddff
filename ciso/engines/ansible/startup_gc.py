"""Loaded by the ``sitecustomize`` of a sandboxed play's Python processes: no cyclic garbage
collection while the process starts, then the objects of its start frozen and collection on.

Importing Ansible and loading its plugins creates some hundred thousand objects, nearly all kept
for the life of the process; the collector runs over them again and again while they are made
(``ansible-playbook``'s start is about a fifth cheaper in CPU without it: 0.29 against 0.36 s to
import its executor). Collection comes back once the start is over, when the play is about to
run its tasks (the strategy imports Ansible's worker process) or ansible-runner's command has
loaded; ``gc.freeze`` first moves what the start made out of the collector's sight, so the task
workers Ansible forks do not touch those pages either. Reference counting frees all but cyclic
garbage meanwhile. A process that never reaches such a point (a syntax check) ends without a
cyclic collection, as short commands do.

Standard library only.
"""

from __future__ import annotations

import gc
from types import ModuleType

#: Modules whose import ends a process's start: Ansible's task worker (imported by the strategy
#: as the play begins) and ansible-runner's command module (imported whole before it runs).
STARTED = ("ansible.executor.process.worker", "ansible_runner.__main__")


def hold() -> None:
    gc.disable()


def started(_module: ModuleType | None = None) -> None:
    gc.freeze()
    gc.enable()
