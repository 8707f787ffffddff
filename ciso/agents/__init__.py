"""CISO agents that need no model: ``baseline`` (requirement -> intent -> every dialect)."""
