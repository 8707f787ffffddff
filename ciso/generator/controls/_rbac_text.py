"""The exemptions every RBAC requirement states, in the three voices."""

EXEMPT_OPERATOR = (
    "Leave built-in roles alone (names starting with system:, or labelled "
    "kubernetes.io/bootstrapping=rbac-defaults), and Roles in kube-system, kube-public and "
    "kube-node-lease."
)
EXEMPT_AUDITOR = (
    "Out of scope: built-in roles (name prefix system: or label "
    "kubernetes.io/bootstrapping=rbac-defaults) and Roles in the namespaces kube-system, "
    "kube-public and kube-node-lease."
)
EXEMPT_CIS = (
    "Built-in roles (names starting with system: or labelled "
    "kubernetes.io/bootstrapping=rbac-defaults) and Roles in the system namespaces kube-system, "
    "kube-public and kube-node-lease are exempt."
)
