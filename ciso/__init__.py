"""CISO domain: compliance requirements turned into Kyverno, Rego and Ansible artifacts."""
