"""Output formats of ``itbench lint``: text, json, sarif, junit, github."""
