"""LLM access through litellm, imported lazily (it takes seconds to import and is rarely needed)."""
