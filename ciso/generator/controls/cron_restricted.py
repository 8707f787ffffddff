"""CIS RHEL 9 5.1.8: /etc/cron.allow exists and is root's, 0640 or stricter (cronie ignores
cron.deny when cron.allow exists)."""

from random import Random

from ciso.generator.permissions import Layout, PermissionsControl


def _layout(rng: Random) -> Layout:
    judged = {"etc/cron.allow": "root\n" + rng.choice(("", "ops\n", "backup\n"))}
    lookalike = rng.choice(
        ("etc/cron.allow.bak", "etc/cron.allow.rpmsave", "etc/cron.d/cron.allow")
    )
    others = {
        "etc/cron.deny": rng.choice(("", "guest\n")),
        lookalike: "root\n",
        "etc/at.allow": "root\n",
    }
    return judged, others


CONTROL = PermissionsControl(
    cis_id="5.1.8",
    builtin_id="cis-rhel9-5.1.8-cron-restricted",
    resource="cron//cron.allow",
    limit=0o640,
    main="etc/cron.allow",
    judged=lambda path: path == "etc/cron.allow",
    required=("etc/cron.allow",),
    layout=_layout,
    phrasings=(
        "Only the users we list may schedule cron jobs: /etc/cron.allow must exist, belong to "
        "root:root and have mode 0640 or stricter (group read at most; no execute, write for "
        "group, other bit, setuid, setgid or sticky bit). A cron.deny alone lets everyone else "
        "in and does not comply.",
        "Finding criteria: the host fails when /etc/cron.allow is absent, or is not owned by "
        "user root and group root, or has a permission bit beyond 0640 (special bits included). "
        "Other files (cron.deny, backups of cron.allow) are not evidence.",
        "cron consults /etc/cron.allow first and falls back to cron.deny only when it is "
        "missing. Ensure /etc/cron.allow exists, owned by root:root, with permissions 0640 or "
        "more restrictive.",
    ),
)
