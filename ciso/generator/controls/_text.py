"""The scope every pod-security requirement states, in the three voices the phrasings use."""

SCOPE_OPERATOR = (
    "This covers bare Pods and the pod templates of Deployments, StatefulSets, DaemonSets, "
    "ReplicaSets, Jobs and CronJobs. Leave kube-system, kube-public and kube-node-lease alone."
)
SCOPE_AUDITOR = (
    "Scope: every Pod, and every pod template of a Deployment, StatefulSet, DaemonSet, ReplicaSet, "
    "Job or CronJob. Out of scope: the system namespaces kube-system, kube-public and "
    "kube-node-lease."
)
SCOPE_CIS = (
    "The check applies to Pods and to the pod templates of the workload controllers "
    "(Deployment, StatefulSet, DaemonSet, ReplicaSet, Job, CronJob); workloads in the system "
    "namespaces kube-system, kube-public and kube-node-lease are exempt."
)
CONTAINERS = "regular, init or ephemeral"
