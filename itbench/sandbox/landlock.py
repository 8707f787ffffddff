"""Landlock scoping: abstract UNIX sockets outside the sandbox become unreachable.

An abstract UNIX socket (``@name``, no file) belongs to a network namespace, not to the file
system: no mount hides it. An agent sandbox with ``--agent-network allow`` shares the host's
network namespace, so it could connect to every abstract socket a host process listens on (a
desktop bus, a container runtime's shim, another run's helper), whatever uid it runs as. Linux
6.12 added Landlock's ``LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET`` (ABI 6): once a process restricts
itself with it, it and its children can connect only to abstract sockets created inside the same
domain. The runner applies it in the sandbox's first process before bwrap starts (it handles no
file-system access, so bwrap's mounts are unaffected); signals to processes outside the domain
are scoped as well. On an older kernel nothing is applied and :func:`available` says so.
"""

from __future__ import annotations

import ctypes
import functools
import os
import struct

_SYS_CREATE_RULESET = 444  # the same number on x86_64 and aarch64 (asm-generic)
_SYS_RESTRICT_SELF = 446
_CREATE_RULESET_VERSION = 1
_SCOPE_ABSTRACT_UNIX_SOCKET = 1 << 0
_SCOPE_SIGNAL = 1 << 1
_PR_SET_NO_NEW_PRIVS = 38
#: the first ABI with scopes
SCOPE_ABI = 6


@functools.cache
def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


@functools.cache
def abi() -> int:
    """The kernel's Landlock ABI version (0: none)."""
    version: int = _libc().syscall(_SYS_CREATE_RULESET, None, 0, _CREATE_RULESET_VERSION)
    return max(version, 0)


def available() -> bool:
    return abi() >= SCOPE_ABI


def scope_abstract_sockets() -> None:
    """Restrict the calling process (run in the child before ``exec``): no connection to an
    abstract UNIX socket, and no signal, outside its own Landlock domain. Raises OSError when the
    kernel refuses; does nothing where scopes are unknown."""
    if not available():
        return
    libc = _libc()
    # struct landlock_ruleset_attr {u64 handled_access_fs, handled_access_net, scoped}
    attr = struct.pack("=QQQ", 0, 0, _SCOPE_ABSTRACT_UNIX_SOCKET | _SCOPE_SIGNAL)
    buffer = ctypes.create_string_buffer(attr, len(attr))
    fd = libc.syscall(_SYS_CREATE_RULESET, buffer, len(attr), 0)
    if fd < 0:
        raise OSError(ctypes.get_errno(), "landlock_create_ruleset")
    try:
        # restricting oneself needs no-new-privileges (or CAP_SYS_ADMIN): bwrap sets it anyway
        if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS)")
        if libc.syscall(_SYS_RESTRICT_SELF, fd, 0) != 0:
            raise OSError(ctypes.get_errno(), "landlock_restrict_self")
    finally:
        os.close(fd)
