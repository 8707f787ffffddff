"""CIS 5.2.3: no workload shares the host PID namespace."""

from ciso.generator.controls._host import host_flag_control

CONTROL = host_flag_control(
    "5.2.3",
    "cis-k8s-5.2.3-host-pid",
    "hostPID",
    "process ID namespace",
    "A container sharing the host PID namespace can see and signal every process on the node.",
)
