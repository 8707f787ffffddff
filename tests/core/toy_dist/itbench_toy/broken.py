"""A plugin whose import fails: the CLI must warn once, naming the distribution, and go on."""

raise ImportError("toy plugin deliberately broken")
