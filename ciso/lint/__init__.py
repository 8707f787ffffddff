"""``itbench lint``: one CI step over Rego, Kyverno and Ansible policies, SARIF/JUnit/JSON out."""
