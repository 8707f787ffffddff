"""``validate.pattern``: anchors (anchors.py), value operators (values.py), the tree walk (match.py)."""
