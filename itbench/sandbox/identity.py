"""Who the sandboxed process is on the host.

Run by an ordinary user, bubblewrap puts the command in a new user namespace mapped onto that
user: it is unprivileged on the host already. Run by root, a user namespace would map the
sandbox's uid onto host uid 0 (bwrap maps one id, the caller's): without capabilities, but still
the owner of every root-owned file it can see (a ``0600`` file under ``/var`` is readable by its
owner). So as root the sandbox takes no user namespace at all and the command drops to
``SANDBOX_UID`` (nobody, 65534) on the host before it starts: bwrap keeps only the capabilities
to change ids (``CAP_SETUID``, ``CAP_SETGID``, and ``CAP_SETPCAP`` to empty the bounding set),
``setpriv`` changes uid, gid and groups, empties the bounding and inheritable sets, and the
change of uid clears the rest. The seccomp filter is loaded by bwrap first, so ``setpriv`` runs
under it too; no-new-privileges holds throughout.

One class keeps uid 0 inside (without capabilities, in a user namespace mapped onto root): a
command over a scenario's *host tree* (``rhel9-ansible-opa``). The host tree lays files with
their owners and modes over the system (``/etc/ssh/sshd_config`` is ``0600 root:root`` on RHEL),
the audit playbook must read them and report their owner, as Ansible run with ``become`` does on
a real host; as nobody it could not read them, and handed over to nobody they would report the
wrong owner. What else only root may read on the host (``/etc/shadow``, ``/var/log/btmp``, a
``0700`` cache folder) is covered in that sandbox (:func:`itbench.sandbox.hosttree.private_covers`).

The directory the command writes (the agent's workspace, an evaluation's output folder) is
handed over to that uid (:func:`hand_over`), and the private tmpfs folders are world-writable
(``1777``, as ``/tmp`` is), so everything that worked as root keeps working.
"""

from __future__ import annotations

import functools
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

#: nobody: owns nothing on the host
SANDBOX_UID = 65534
SANDBOX_GID = 65534
#: Where setpriv usually is; the sandboxes bind /usr and /bin read-only, so the same path works
#: inside.
_SETPRIV_PLACES = ("/usr/bin/setpriv", "/bin/setpriv")


@functools.cache
def setpriv_path() -> str | None:
    found = next((p for p in _SETPRIV_PLACES if os.access(p, os.X_OK)), None)
    return found or shutil.which("setpriv")


@dataclass(frozen=True)
class SandboxUser:
    """The host uid and gid the sandboxed command runs as; None: no change of uid (the caller's
    own in a user namespace, or uid 0 without capabilities when itbench runs as root)."""

    uid: int | None
    gid: int | None

    @property
    def drops(self) -> bool:
        return self.uid is not None


KEEP = SandboxUser(None, None)


def drops_to_user() -> bool:
    """True when a sandboxed command can run as another host uid: itbench runs as root and
    util-linux's ``setpriv`` is there."""
    return os.geteuid() == 0 and setpriv_path() is not None


def default_user() -> SandboxUser:
    """nobody when itbench runs as root (and can drop to it), else :data:`KEEP`."""
    return SandboxUser(SANDBOX_UID, SANDBOX_GID) if drops_to_user() else KEEP


def owner_of(folder: Path) -> SandboxUser:
    """The owner of ``folder`` (an agent's ``--agent-home``, where its CLI keeps login state it
    must write), when itbench runs as root and that owner is not root; else :data:`KEEP`: a
    root-owned home keeps the agent at uid 0 without capabilities, as it was."""
    if not drops_to_user():
        return KEEP
    info = folder.stat()
    return KEEP if info.st_uid == 0 else SandboxUser(info.st_uid, info.st_gid)


def namespace_args(*, share_net: bool, user: SandboxUser) -> list[str]:
    """bwrap's namespaces and capabilities: every namespace but the network one when
    ``share_net``; no capability (dropping to ``user``: only those :func:`command_prefix`
    needs, and no user namespace, whose uid map would point at root)."""
    if user.drops:
        args = ["--unshare-ipc", "--unshare-pid", "--unshare-uts", "--unshare-cgroup-try"]
        if not share_net:
            args.append("--unshare-net")
        args += ["--cap-drop", "ALL"]
        for cap in ("CAP_SETUID", "CAP_SETGID", "CAP_SETPCAP"):
            args += ["--cap-add", cap]
        return args
    from itbench.sandbox.availability import bwrap_supports

    args = ["--unshare-all", *(["--share-net"] if share_net else [])]
    if bwrap_supports("--disable-userns"):
        args += ["--unshare-user", "--disable-userns"]
    return [*args, "--cap-drop", "ALL"]


def command_prefix(user: SandboxUser) -> list[str]:
    """What runs the command inside the sandbox: setpriv dropping to ``user``, or nothing."""
    setpriv = setpriv_path()
    if not user.drops or setpriv is None:
        return []
    return [
        setpriv,
        f"--reuid={user.uid}",
        f"--regid={user.gid}",
        "--clear-groups",
        "--bounding-set=-all",
        "--inh-caps=-all",
        "--",
    ]


def hand_over(folder: Path, user: SandboxUser) -> None:
    """Make ``folder`` and everything in it ``user``'s, links included but never followed: the
    sandboxed command writes there."""
    if not user.drops:
        return
    uid, gid = user.uid, user.gid
    assert uid is not None and gid is not None
    os.lchown(folder, uid, gid)
    # bwrap (root without CAP_DAC_OVERRIDE) changes into it before the command drops its uid:
    # a mkdtemp folder's 0700 would shut it out
    folder.chmod(folder.stat().st_mode & 0o7777 | 0o711)
    for parent, dirs, files in os.walk(folder):
        for name in (*dirs, *files):
            os.lchown(os.path.join(parent, name), uid, gid)
