"""The seccomp filter both sandboxes load (``bwrap --seccomp FD``): a classic-BPF program, written
here instead of taken from libseccomp so that the sandbox needs no compiled dependency.

Every capability is dropped already (``--cap-drop ALL``), so most of these calls fail anyway; the
filter is the second wall, and the one that still holds where a capability comes back: a new user
namespace hands its creator every capability *inside* it, and with that a private mount namespace
in which the sandbox's read-only mounts could be rearranged. So the filter refuses (EPERM) the
calls that change mounts or namespaces, and those that reach kernel-wide state (keyrings, BPF,
perf, modules, kexec) or other processes' memory (ptrace, process_vm_readv and _writev).

The program, one ``struct sock_filter`` (u16 code, u8 jt, u8 jf, u32 k) per instruction:

1. load ``seccomp_data.arch``; x86_64 and aarch64 each jump to their own block, any other
   architecture (i386 or x32 calls from a 64-bit process, whose numbers differ) is killed: an
   unknown numbering cannot be filtered, only refused;
2. load ``seccomp_data.nr``; on x86_64 a number with the x32 bit set is killed too;
3. ``clone`` and ``unshare`` are refused when their flags (``args[0]``) ask for a new user or
   mount namespace, ``clone3`` (flags behind a pointer, unreadable here) answers ENOSYS so that
   libc falls back to ``clone``;
4. every number in the deny table answers EPERM, anything else is allowed.
"""

from __future__ import annotations

import os
import struct
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

# linux/filter.h, linux/seccomp.h, linux/audit.h
_LD_W_ABS = 0x20  # BPF_LD | BPF_W | BPF_ABS: A = u32 at offset k of seccomp_data
_JEQ_K = 0x15  # BPF_JMP | BPF_JEQ | BPF_K
_JGE_K = 0x35  # BPF_JMP | BPF_JGE | BPF_K
_JSET_K = 0x45  # BPF_JMP | BPF_JSET | BPF_K: jump when A & k
_RET_K = 0x06  # BPF_RET | BPF_K
RET_KILL_PROCESS = 0x80000000
RET_ERRNO = 0x00050000
RET_ALLOW = 0x7FFF0000
EPERM = 1
ENOSYS = 38
AUDIT_ARCH_X86_64 = 0xC000003E
AUDIT_ARCH_AARCH64 = 0xC00000B7
X32_SYSCALL_BIT = 0x40000000
CLONE_NEWNS = 0x00020000
CLONE_NEWUSER = 0x10000000
# offsets in struct seccomp_data {int nr; u32 arch; u64 ip; u64 args[6];}
_NR, _ARCH, _ARG0_LOW = 0, 4, 16  # args[0]'s low word: both architectures are little-endian

#: The refused calls, with their numbers (x86_64: asm/unistd_64.h; aarch64: asm-generic/unistd.h).
DENIED: Mapping[str, tuple[int, int]] = {
    # name:              (x86_64, aarch64)
    "mount": (165, 40),  # remount a read-only bind read-write, mount over anything
    "umount2": (166, 39),  # uncover what an empty tmpfs hides
    "pivot_root": (155, 41),
    "chroot": (161, 51),
    "open_tree": (428, 428),  # the new mount API: the same powers as mount(2)
    "move_mount": (429, 429),
    "fsopen": (430, 430),
    "fsconfig": (431, 431),
    "fsmount": (432, 432),
    "fspick": (433, 433),
    "mount_setattr": (442, 442),  # clear MOUNT_ATTR_RDONLY
    "setns": (308, 268),  # join another namespace
    "keyctl": (250, 219),  # kernel keyrings are not namespaced
    "add_key": (248, 217),
    "request_key": (249, 218),
    "ptrace": (101, 117),
    "process_vm_writev": (311, 271),
    # another process's memory read without ptrace (a driver holding several environments)
    "process_vm_readv": (310, 270),
    "bpf": (321, 280),
    "perf_event_open": (298, 241),
    "userfaultfd": (323, 282),  # a classic kernel-exploit primitive
    "open_by_handle_at": (304, 265),  # open files by handle, past the mount view
    "kexec_load": (246, 104),
    "kexec_file_load": (320, 294),
    "init_module": (175, 105),
    "finit_module": (313, 273),
    "delete_module": (176, 106),
    "swapon": (167, 224),
    "swapoff": (168, 225),
    "reboot": (169, 142),
}
#: Refused only with a new user or mount namespace in their flags.
NAMESPACE_FLAGGED: Mapping[str, tuple[int, int]] = {"clone": (56, 220), "unshare": (272, 97)}
#: Answered ENOSYS: libc then falls back to ``clone``, whose flags the filter can read.
CLONE3: tuple[int, int] = (435, 435)


#: One instruction: (code, jump-if-true, jump-if-false, k); a jump is a label naming its target.
_Instruction = tuple[int, str | int, str | int, int]


def _op(code: int, k: int = 0, jt: str | int = 0, jf: str | int = 0) -> _Instruction:
    return (code, jt, jf, k)


def _arch_block(column: int, prefix: str, *, x86: bool) -> list[_Instruction | str]:
    """One architecture's instructions, from loading ``nr`` to its verdicts; strings are labels."""
    eperm, namespaced = f"{prefix}-eperm", f"{prefix}-flags"
    block: list[_Instruction | str] = [_op(_LD_W_ABS, _NR)]
    if x86:  # x32 calls share AUDIT_ARCH_X86_64 but number differently
        block.append(_op(_JGE_K, X32_SYSCALL_BIT, jt="kill"))
    block += [_op(_JEQ_K, CLONE3[column], jt=f"{prefix}-enosys")]
    block += [_op(_JEQ_K, numbers[column], jt=eperm) for numbers in DENIED.values()]
    block += [_op(_JEQ_K, numbers[column], jt=namespaced) for numbers in NAMESPACE_FLAGGED.values()]
    block += [_op(_RET_K, RET_ALLOW)]
    block += [namespaced, _op(_LD_W_ABS, _ARG0_LOW)]
    block += [_op(_JSET_K, CLONE_NEWNS | CLONE_NEWUSER, jt=eperm), _op(_RET_K, RET_ALLOW)]
    block += [eperm, _op(_RET_K, RET_ERRNO | EPERM)]
    block += [f"{prefix}-enosys", _op(_RET_K, RET_ERRNO | ENOSYS)]
    return block


def _assemble(listing: list[_Instruction | str]) -> bytes:
    """Resolve labels into the relative forward jumps BPF knows (one byte each)."""
    where: dict[str, int] = {}
    instructions: list[_Instruction] = []
    for item in listing:
        if isinstance(item, str):
            where[item] = len(instructions)
        else:
            instructions.append(item)
    out = []
    for pc, (code, jt, jf, k) in enumerate(instructions):
        jumps = [where[j] - pc - 1 if isinstance(j, str) else j for j in (jt, jf)]
        if not all(0 <= j < 256 for j in jumps):
            raise ValueError(f"seccomp: jump out of range at instruction {pc}")
        out.append(struct.pack("=HBBI", code, jumps[0], jumps[1], k))
    return b"".join(out)


def filter_program() -> bytes:
    """The compiled program, ready for ``bwrap --seccomp``."""
    return _assemble(
        [
            _op(_LD_W_ABS, _ARCH),
            _op(_JEQ_K, AUDIT_ARCH_X86_64, jt="x86_64"),
            _op(_JEQ_K, AUDIT_ARCH_AARCH64, jt="aarch64", jf="kill"),
            "x86_64",
            *_arch_block(0, "x86_64", x86=True),
            "aarch64",
            *_arch_block(1, "aarch64", x86=False),
            "kill",
            _op(_RET_K, RET_KILL_PROCESS),
        ]
    )


@contextmanager
def filter_fd() -> Iterator[int]:
    """A file descriptor holding the program (for ``pass_fds``), closed afterwards."""
    fd = os.memfd_create("itbench-seccomp", os.MFD_CLOEXEC)
    try:
        os.write(fd, filter_program())
        os.lseek(fd, 0, os.SEEK_SET)
        yield fd
    finally:
        os.close(fd)
