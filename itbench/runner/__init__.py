"""The runner: scenarios x trials x one agent, in killable worker processes, resumable."""
