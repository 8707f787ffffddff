"""The exemptions every RBAC requirement states, in the three voices: for roles, and for
bindings."""

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

BINDINGS_OPERATOR = (
    "Leave built-in bindings alone (names starting with system:, or labelled "
    "kubernetes.io/bootstrapping=rbac-defaults, and only that value), and bindings in "
    "kube-system, kube-public and kube-node-lease."
)
BINDINGS_AUDITOR = (
    "Out of scope: built-in bindings (name prefix system: or label "
    "kubernetes.io/bootstrapping=rbac-defaults exactly) and RoleBindings in the namespaces "
    "kube-system, kube-public and kube-node-lease."
)
BINDINGS_CIS = (
    "Built-in bindings (names starting with system: or labelled "
    "kubernetes.io/bootstrapping=rbac-defaults; another value of that label does not make a "
    "binding built-in) and bindings in the system namespaces kube-system, kube-public and "
    "kube-node-lease are exempt."
)
