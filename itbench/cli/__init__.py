"""The ``itbench`` command line: a thin layer over the library."""
