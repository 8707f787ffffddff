"""CIS 5.2.5: no workload shares the host network namespace."""

from ciso.generator.controls._host import host_flag_control

CONTROL = host_flag_control(
    "5.2.5",
    "cis-k8s-5.2.5-host-network",
    "hostNetwork",
    "network namespace",
    "A container sharing the host network can reach the node's loopback services and sniff its "
    "traffic.",
)
