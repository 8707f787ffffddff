"""CIS RHEL 9 5.2.1: sshd's configuration (main file and every ``*.conf`` drop-in) is root's,
0600 or stricter."""

import re
from random import Random

from ciso.generator.permissions import Layout, PermissionsControl

_DROP_IN = re.compile(r"^etc/ssh/sshd_config\.d/[^/]+\.conf$")
_DROP_INS = {
    "01-cis.conf": "# CIS hardening\nPermitRootLogin no\nMaxAuthTries 4\n",
    "40-banner.conf": "Banner /etc/issue.net\n",
    "50-redhat.conf": "# RHEL defaults\nSyslogFacility AUTHPRIV\nChallengeResponseAuthentication no\n"
    "GSSAPIAuthentication yes\nX11Forwarding yes\nUsePAM yes\n",
    "90-local.conf": "ClientAliveInterval 300\n",
}


def _judged(path: str) -> bool:
    return path == "etc/ssh/sshd_config" or bool(_DROP_IN.match(path))


def _layout(rng: Random) -> Layout:
    names = ["50-redhat.conf", *rng.sample(sorted(set(_DROP_INS) - {"50-redhat.conf"}), 2)]
    judged = {
        "etc/ssh/sshd_config": "# See sshd_config(5)\nInclude /etc/ssh/sshd_config.d/*.conf\n"
        "AuthorizedKeysFile .ssh/authorized_keys\nSubsystem sftp /usr/libexec/openssh/sftp-server\n",
        **{f"etc/ssh/sshd_config.d/{n}": _DROP_INS[n] for n in sorted(names)},
    }
    old = rng.choice(("60-old.conf.disabled", "70-legacy.conf.bak", "99-test.conf~"))
    others = {
        f"etc/ssh/sshd_config.d/{old}": "PermitRootLogin yes\n",
        "etc/ssh/ssh_config": "Include /etc/ssh/ssh_config.d/*.conf\nHost *\n",
        "etc/ssh/ssh_config.d/50-redhat.conf": "Host *\n    GSSAPIAuthentication yes\n",
        "etc/ssh/sshd_config.rpmnew": "# See sshd_config(5)\nInclude /etc/ssh/sshd_config.d/*.conf\n",
    }
    return judged, others


CONTROL = PermissionsControl(
    cis_id="5.2.1",
    builtin_id="cis-rhel9-5.2.1-sshd-config-permissions",
    resource="sshd//permissions",
    limit=0o600,
    main="etc/ssh/sshd_config",
    judged=_judged,
    required=(),
    layout=_layout,
    phrasings=(
        "Nobody but root may read or change how sshd is configured: /etc/ssh/sshd_config and "
        "every *.conf file of /etc/ssh/sshd_config.d must belong to root:root with mode 0600 or "
        "stricter (no execute bit, no group or other bit, no setuid, setgid or sticky bit). Files "
        "sshd never reads (other names, the client's ssh_config) are out of scope.",
        "Finding criteria: the host fails when /etc/ssh/sshd_config or any drop-in sshd reads "
        "(/etc/ssh/sshd_config.d/*.conf) is not owned by user root and group root, or has any "
        "permission bit beyond 0600 (special bits included).",
        "The SSH daemon's configuration holds security settings that must not be read or "
        "altered by unprivileged users. Ensure /etc/ssh/sshd_config and its *.conf drop-ins are "
        "owned by root:root with permissions 0600 or more restrictive.",
    ),
)
