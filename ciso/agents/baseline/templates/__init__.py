"""Jinja2 templates of the baseline agent (a package so the wheel's ``*.j2`` glob ships them)."""
