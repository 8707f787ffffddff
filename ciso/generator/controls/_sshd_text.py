"""How every SSH requirement states where sshd's value comes from, in the three voices."""

WHERE_OPERATOR = (
    "Judge the value sshd really uses: /etc/ssh/sshd_config with the *.conf drop-ins of "
    "/etc/ssh/sshd_config.d that its Include line reads (sshd keeps the first value it reads, "
    "and keywords are case-insensitive)."
)
WHERE_AUDITOR = (
    "Evidence: the effective sshd configuration, i.e. the main file plus every drop-in its "
    "Include directive reads, first value wins, keyword case ignored; files sshd does not read "
    "and comments are not evidence."
)
WHERE_CIS = (
    "The setting is assessed on sshd's effective configuration (sshd_config and the included "
    "sshd_config.d/*.conf files, in the order sshd reads them)."
)
MATCH = "Match blocks count: a value set in any Match block must comply too."
