"""Reference Ansible playbooks shipped with itbench (found through importlib.resources)."""
