"""CIS RHEL 9 6.1.5: the shadow files and their backups are root's, 0600 or stricter (0000)."""

from random import Random

from ciso.generator.permissions import Layout, PermissionsControl

_JUDGED = ("etc/shadow", "etc/shadow-", "etc/gshadow", "etc/gshadow-")


def _layout(rng: Random) -> Layout:
    users = ["root", "bin", "daemon", rng.choice(("alice", "ops", "deploy")), "sshd"]
    shadow = "".join(
        f"{u}:{'!!' if u != 'root' else '$6$salt$hash'}:19700:0:99999:7:::\n" for u in users
    )
    gshadow = "".join(f"{g}:!::\n" for g in ("root", "bin", "wheel", "adm"))
    judged = {
        "etc/shadow": shadow,
        "etc/shadow-": shadow,
        "etc/gshadow": gshadow,
        "etc/gshadow-": gshadow,
    }
    others = {
        rng.choice(("etc/shadow.rpmnew", "etc/shadow.bak")): shadow,
        rng.choice(("etc/gshadow.rpmsave", "etc/gshadow~")): gshadow,
    }
    return judged, others


CONTROL = PermissionsControl(
    cis_id="6.1.5",
    builtin_id="cis-rhel9-6.1.5-shadow-permissions",
    resource="shadow//permissions",
    limit=0o600,
    main="etc/shadow",
    judged=lambda path: path in _JUDGED,
    required=(),
    layout=_layout,
    phrasings=(
        "The password hashes stay root's alone: /etc/shadow, /etc/gshadow and the backups "
        "/etc/shadow- and /etc/gshadow- must belong to root:root with mode 0000 (0400 and 0600 "
        "are accepted; no group or other bit, no execute, setuid, setgid or sticky bit). Other "
        "names (.rpmnew, .bak) are not live databases and are out of scope.",
        "Finding criteria: the host fails when any of /etc/shadow, /etc/shadow-, /etc/gshadow, "
        "/etc/gshadow- is not owned by user root and group root, or has a permission bit "
        "beyond 0600 (special bits included).",
        "The shadow files hold password hashes, and their backups the previous ones. Ensure "
        "/etc/shadow, /etc/gshadow, /etc/shadow- and /etc/gshadow- are owned by root:root with "
        "permissions 0000, or at most 0600.",
    ),
)
