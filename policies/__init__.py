"""Reference policies shipped with itbench (found through importlib.resources in a wheel)."""
