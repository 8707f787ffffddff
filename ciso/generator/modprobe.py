"""Instances of the kernel-module control of RHEL 9 (1.1.1.1, cramfs not loadable), read as kmod's
modprobe reads its configuration: the ``*.conf`` files (not starting with ``.``) of
``/etc/modprobe.d``, ``/run/modprobe.d``, ``/usr/local/lib/modprobe.d``, ``/usr/lib/modprobe.d``
and ``/lib/modprobe.d``, a name present in several of them read from the first only, all read in
name order whatever their directory; ``\\`` continues a line; for ``install <module> <command>``
the FIRST rule read wins, ``blacklist <module>`` anywhere counts. Compliant: the first install
rule runs ``/bin/false`` or ``/bin/true`` (nothing after it) and the module is blacklisted.

A naive check looks in every collected file for a line ``install cramfs /bin/false`` (or true)
and a line ``blacklist cramfs``. The violating host hides the violation from it: an earlier-named
file's install rule loading the module before the CIS file's ``/bin/false``, the CIS rules in a
vendor file hidden by a same-named ``/etc`` file without them, the only blacklist in a
``.conf.disabled`` or dot file, or an install command that runs ``/bin/true`` and then loads the
module. The compliant host holds a vendor file loading the module hidden by a same-named ``/etc``
file, the blacklist in ``/run/modprobe.d``, odd spacing and a continued install line, a later
install rule that loads the module (the first one wins), a ``.conf.disabled`` file re-enabling it
and rules for other modules (squashfs, udf, cramfs look-alike names).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from random import Random

from ciso.generator.hosts import HostFiles, HostInstance, judged_instance

DIRECTORIES = (
    "etc/modprobe.d",
    "run/modprobe.d",
    "usr/local/lib/modprobe.d",
    "usr/lib/modprobe.d",
    "lib/modprobe.d",
)
_RULE = re.compile(r"^[ \t]*(install|blacklist)[ \t]+(\S+)[ \t]*(.*?)[ \t]*$")
_DISABLED = re.compile(r"^(/usr)?/bin/(false|true)(\s+#.*)?$")
_LOAD = "/sbin/modprobe --ignore-install {m}"
_OTHERS = ("squashfs", "udf", "usb-storage", "freevxfs")


def read_order(files: HostFiles) -> list[str]:
    """The files modprobe reads, in order."""
    chosen: dict[str, str] = {}
    for directory in reversed(DIRECTORIES):  # the first directory holding a name wins
        for path in files:
            head, _, name = path.rpartition("/")
            if head == directory and name.endswith(".conf") and not name.startswith("."):
                chosen[name] = path
    return [chosen[n] for n in sorted(chosen)]


def _rules(files: HostFiles, module: str) -> list[tuple[str, str]]:
    found = []
    for path in read_order(files):
        for line in files[path].replace("\\\n", " ").split("\n"):
            m = _RULE.match(line)
            if m and m.group(2).replace("-", "_") == module.replace("-", "_"):
                found.append((m.group(1), m.group(3)))
    return found


@dataclass(frozen=True)
class ModuleControl:
    cis_id: str
    builtin_id: str
    module: str
    phrasings: tuple[str, ...]

    def violates(self, files: HostFiles) -> bool:
        rules = _rules(files, self.module)
        installs = [command for directive, command in rules if directive == "install"]
        disabled = bool(installs) and bool(_DISABLED.match(installs[0]))
        return not (disabled and any(d == "blacklist" for d, _ in rules))


def build_module_instance(c: ModuleControl, rng: Random) -> HostInstance:
    m = c.module
    stop = rng.choice(("/bin/false", "/bin/true", "/usr/bin/false"))
    cis_name = f"{rng.randrange(40, 70)}-cis-filesystems.conf"
    cis = f"install {m} {stop}\nblacklist {m}\n"
    others = "".join(f"install {o} /bin/false\nblacklist {o}\n" for o in rng.sample(_OTHERS, 2))
    violating: HostFiles = {}
    way = rng.randrange(4)
    if way == 0:
        early = f"{rng.randrange(10, 39):02d}-legacy-media.conf"
        violating[f"etc/modprobe.d/{early}"] = (
            f"# old installer images\ninstall {m} {_LOAD.format(m=m)}\n"
        )
        violating[f"etc/modprobe.d/{cis_name}"] = "# CIS 1.1.1.1\n" + cis + others
        hidden = f"/etc/modprobe.d/{early} is read before {cis_name}: its install rule loads {m}"
    elif way == 1:
        violating[f"usr/lib/modprobe.d/{cis_name}"] = "# CIS 1.1.1.1\n" + cis + others
        violating[f"etc/modprobe.d/{cis_name}"] = (
            f"# local copy\n# install {m} {stop}\nblacklist {m}\n" + others
        )
        hidden = (
            f"the rules of /usr/lib/modprobe.d/{cis_name} are hidden by the same-named /etc file, "
            f"where the install line is commented out"
        )
    elif way == 2:
        name = rng.choice((f"{m}.conf.disabled", f".{m}-blacklist.conf", f"{m}-blacklist.conf.bak"))
        violating[f"etc/modprobe.d/{cis_name}"] = f"# CIS 1.1.1.1\ninstall {m} {stop}\n" + others
        violating[f"etc/modprobe.d/{name}"] = f"blacklist {m}\n"
        hidden = f"the only 'blacklist {m}' is in {name}, which modprobe does not read"
    else:
        violating[f"etc/modprobe.d/{cis_name}"] = (
            f"# CIS 1.1.1.1\ninstall {m} /bin/true; /sbin/modprobe --ignore-install {m}\n"
            f"blacklist {m}\n" + others
        )
        hidden = f"the install command runs /bin/true and then loads {m}"
    violating["etc/modprobe.d/firewalld-sysctls.conf"] = (
        "install nf_conntrack /usr/sbin/modprobe --ignore-install nf_conntrack\n"
    )
    # compliant host
    vendor = f"{rng.randrange(10, 39):02d}-legacy-media.conf"
    late = f"{rng.randrange(80, 99)}-debug.conf"
    compliant: HostFiles = {
        f"usr/lib/modprobe.d/{vendor}": f"install {m} {_LOAD.format(m=m)}\n",
        f"etc/modprobe.d/{vendor}": f"# overrides the vendor file\ninstall \t{m}  \\\n   {stop}  \n",
        f"run/modprobe.d/{m}-blacklist.conf": f"blacklist\t{m}\n",
        f"etc/modprobe.d/{late}": f"install {m} {_LOAD.format(m=m)}\n",
        f"etc/modprobe.d/{late}.disabled": f"install {m} {_LOAD.format(m=m)}\n",
        f"etc/modprobe.d/{cis_name}": "# CIS 1.1.1.1\n"
        + others
        + f"install {m}fs2 {_LOAD.format(m=m + 'fs2')}\n",
        "etc/modprobe.d/firewalld-sysctls.conf": "install nf_conntrack /usr/sbin/modprobe --ignore-install nf_conntrack\n",
    }
    kept = [
        f"/usr/lib/modprobe.d/{vendor} loads {m} but is hidden by the same-named /etc file "
        f"(odd spacing, a continued line, {stop})",
        "the blacklist is in /run/modprobe.d",
        f"{late} loads {m} but is read after the first install rule",
        "a .conf.disabled file and look-alike module names",
    ]
    return judged_instance(
        f"{c.cis_id} (modprobe)",
        c.violates(violating) and not c.violates(compliant),
        violating,
        compliant,
        f"modprobe//{m}",
        rng.choice(c.phrasings),
        hidden,
        kept,
    )
