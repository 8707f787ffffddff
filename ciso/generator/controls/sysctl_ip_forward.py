"""CIS RHEL 9 3.2.1: the host does not route packets (IPv4 and IPv6 forwarding off)."""

from ciso.generator.sysctl import SysctlControl

CONTROL = SysctlControl(
    cis_id="3.2.1",
    builtin_id="cis-rhel9-3.2.1-ip-forward",
    keys=("net.ipv4.ip_forward", "net.ipv6.conf.all.forwarding"),
    phrasings=(
        "This host is no router: its persistent kernel parameters must set net.ipv4.ip_forward "
        "= 0 and net.ipv6.conf.all.forwarding = 0, as systemd-sysctl applies them (the *.conf "
        "files of the sysctl.d directories by name, /etc before /run before /usr/lib for the "
        "same name, then /etc/sysctl.conf; the last assignment wins; slashes work as dots). "
        "Unset is a finding.",
        "Finding criteria: the host fails unless the value in force of both "
        "net.ipv4.ip_forward and net.ipv6.conf.all.forwarding, after every sysctl.d file "
        "and /etc/sysctl.conf are applied in systemd-sysctl's order, is 0. Files not ending in "
        ".conf, files hidden by a same-named /etc file, and comments are not evidence.",
        "IP forwarding lets a host pass packets between networks, which only routers need. "
        "Ensure IPv4 and IPv6 forwarding (net.ipv4.ip_forward, net.ipv6.conf.all.forwarding) "
        "are disabled in the persistent sysctl configuration, last assignment winning.",
    ),
)
