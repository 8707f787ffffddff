"""CIS 5.2.4: no workload shares the host IPC namespace."""

from ciso.generator.controls._host import host_flag_control

CONTROL = host_flag_control(
    "5.2.4",
    "cis-k8s-5.2.4-host-ipc",
    "hostIPC",
    "IPC namespace",
    "A container sharing the host IPC namespace can reach the shared memory of node processes.",
)
