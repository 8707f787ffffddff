"""The baseline's ``kyverno-migrate``: it translates the source policy it is given into the other
dialect, construct by construct, and fails closed on what it cannot translate."""
