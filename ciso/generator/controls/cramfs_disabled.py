"""CIS RHEL 9 1.1.1.1: the cramfs module cannot be loaded (install runs /bin/false, blacklisted)."""

from ciso.generator.modprobe import ModuleControl

CONTROL = ModuleControl(
    cis_id="1.1.1.1",
    builtin_id="cis-rhel9-1.1.1.1-cramfs-disabled",
    module="cramfs",
    phrasings=(
        "Nobody needs cramfs here: the modprobe configuration modprobe really reads (the *.conf "
        "files of /etc, /run, /usr/local/lib, /usr/lib and /lib modprobe.d, a same-named /etc "
        "file hiding a vendor one, all files in name order) must make the first install rule "
        "for cramfs run /bin/false or /bin/true and nothing else, and must blacklist cramfs.",
        "Finding criteria: the host fails unless the first 'install cramfs' rule modprobe reads "
        "runs only /bin/false or /bin/true, and a 'blacklist cramfs' rule is read. Files "
        "modprobe ignores (names not ending in .conf, dot files, hidden vendor files) and "
        "comments are not evidence.",
        "Removing support for unneeded filesystem types reduces the attack surface. Ensure "
        "mounting of cramfs filesystems is disabled: in the effective modprobe.d configuration "
        "the first install rule for cramfs is /bin/false (or /bin/true) and cramfs is "
        "blacklisted.",
    ),
)
