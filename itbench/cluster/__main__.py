"""``python -m itbench.cluster serve ...``: the same command as ``itbench cluster serve``."""

from __future__ import annotations

import sys

from itbench.cli.main import main

if __name__ == "__main__":
    sys.exit(main(["cluster", *sys.argv[1:]]))
