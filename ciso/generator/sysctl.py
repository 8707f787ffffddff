"""Instances of the persistent kernel parameter control of RHEL 9 (3.2.1, no IP forwarding),
read as systemd-sysctl reads the files: the ``*.conf`` files of ``/etc/sysctl.d``,
``/run/sysctl.d``, ``/usr/local/lib/sysctl.d`` and ``/usr/lib/sysctl.d`` (a file name present in
several directories is read from the first of them only) in file-name order, then
``/etc/sysctl.conf``; ``#`` and ``;`` start comments; a key may be written with slashes
(``net/ipv4/ip_forward``) and prefixed with ``-``; the last assignment wins; unset violates.

A naive check reads every collected file for the key spelled with dots and calls any ``= 1`` a
violation. The violating host hides the violation from it: the slash form in ``/etc/sysctl.conf``
(applied last) after a drop-in's ``= 0``, a ``-``-prefixed line in a drop-in applied after the
``= 0``, or the key unset beside comments saying ``= 0``. The compliant host holds a ``/usr/lib``
drop-in enabling forwarding hidden by a same-named ``/etc`` file, a ``.conf.disabled`` file
enabling it, comments, the lookalike key ``ip_forward_update_priority`` and
``net.ipv6.conf.default.forwarding``, and a drop-in's ``= 1`` overridden by ``/etc/sysctl.conf``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from random import Random

from ciso.generator.hosts import HostFiles, HostInstance, judged_instance

DIRECTORIES = ("etc/sysctl.d", "run/sysctl.d", "usr/local/lib/sysctl.d", "usr/lib/sysctl.d")
MAIN = "etc/sysctl.conf"
_LINE = re.compile(r"^\s*([^#;=\s][^=\s]*)\s*=\s*(.*?)\s*$")
_NAMES = ("docker", "router", "k8s-net", "vpn-gateway", "libvirt", "lab-bridge")


def _normal(key: str) -> str:
    key = key.lstrip("-")
    if re.match(r"^[^.]*/", key):  # the slash form: swap the separators
        return key.translate(str.maketrans("./", "/."))
    return key


def applied(files: HostFiles) -> list[str]:
    """The files systemd-sysctl reads, in order."""
    chosen: dict[str, str] = {}
    for directory in reversed(DIRECTORIES):  # the first directory holding a name wins
        for path in files:
            head, _, name = path.rpartition("/")
            if head == directory and name.endswith(".conf"):
                chosen[name] = path
    return [chosen[n] for n in sorted(chosen)] + ([MAIN] if MAIN in files else [])


def value(files: HostFiles, key: str) -> str | None:
    found = None
    for path in applied(files):
        for line in files[path].split("\n"):
            m = _LINE.match(line)
            if m and _normal(m.group(1)) == key:
                found = m.group(2)
    return found


@dataclass(frozen=True)
class SysctlControl:
    cis_id: str
    builtin_id: str
    #: Every key that must be 0.
    keys: tuple[str, ...]
    phrasings: tuple[str, ...]

    def violates(self, files: HostFiles) -> bool:
        return any(value(files, k) != "0" for k in self.keys)


def _slashes(key: str) -> str:
    return key.replace(".", "/")


def _stock_main() -> list[str]:
    return [
        "# sysctl settings are defined through files in /usr/lib/sysctl.d/, /run/sysctl.d/,",
        "# and /etc/sysctl.d/. Vendors settings live in /usr/lib/sysctl.d/.",
        "kernel.sysrq = 16",
    ]


def build_sysctl_instance(
    c: SysctlControl, others: Sequence[SysctlControl], rng: Random
) -> HostInstance:
    key = rng.choice(c.keys)  # the one the violation is about; the others are set to 0
    cis = f"etc/sysctl.d/{rng.randrange(50, 70)}-cis-network.conf"
    baseline = [f"{k} = 0" for k in c.keys]
    violating: HostFiles = {cis: "# CIS 3.2.1\n" + "\n".join(baseline) + "\n"}
    main = _stock_main()
    way = rng.randrange(3)
    if way == 0:
        main.append(f"{_slashes(key)} = 1")
        hidden = f"/etc/sysctl.conf (applied last) sets {_slashes(key)} = 1"
    elif way == 1:
        name = f"etc/sysctl.d/{rng.randrange(80, 99)}-{rng.choice(_NAMES)}.conf"
        violating[name] = f"# needed by the container bridge\n-{key}=1\n"
        hidden = f"{name} (applied after {cis}) sets -{key}=1"
    else:
        violating[cis] = (
            "# CIS 3.2.1\n"
            + "\n".join(f"# {k} = 0" if k == key else f"{k} = 0" for k in c.keys)
            + "\n"
        )
        main.append(f"; {key} = 0")
        hidden = f"{key} unset (the requirement wants it set); only comments say 0"
    violating[MAIN] = "\n".join(main) + "\n"
    # compliant host
    name = f"{rng.randrange(10, 60)}-{rng.choice(_NAMES)}.conf"
    compliant: HostFiles = {
        f"usr/lib/sysctl.d/{name}": f"{key} = 1\n",
        f"etc/sysctl.d/{name}": "# overrides the vendor file of the same name\n"
        + "\n".join(baseline)
        + "\n",
        f"etc/sysctl.d/{rng.randrange(60, 99)}-{rng.choice(_NAMES)}.conf.disabled": f"{key} = 1\n",
        f"etc/sysctl.d/{rng.randrange(70, 99)}-lab.conf": f"{key} = 1\n"
        "net.ipv6.conf.default.forwarding = 1\n",
        MAIN: "\n".join(
            [
                *_stock_main(),
                f"# {key} = 1",
                "net.ipv4.ip_forward_update_priority = 1",
                *(f"{_slashes(k)} = 0" for k in c.keys),
            ]
        )
        + "\n",
    }
    kept = [
        f"/usr/lib/sysctl.d/{name} sets {key} = 1, hidden by /etc/sysctl.d/{name}",
        "a .conf.disabled file and comments set 1",
        "a drop-in's 1 is overridden by /etc/sysctl.conf (slash form)",
        "net.ipv4.ip_forward_update_priority and net.ipv6.conf.default.forwarding are other keys",
    ]
    return judged_instance(
        f"{c.cis_id} (sysctl)",
        c.violates(violating) and not c.violates(compliant),
        violating,
        compliant,
        f"sysctl//{key}",
        rng.choice(c.phrasings),
        hidden,
        kept,
    )
