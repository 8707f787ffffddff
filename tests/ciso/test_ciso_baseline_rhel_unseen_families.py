"""RHEL 9 requirements that name a family only by its daemon or by a switch's state: the crash
collector's [Coredump] keys with a drop-in overriding the main file, SELinux's boot mode stated in
words over a file with a commented line, and a dnf option "activated" rather than given a value.
Each host goes through the real class (ansible-playbook in the sandbox, then Rego). Each text and
host is written for this test.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests._support.ciso import needs_sandbox
from tests._support.ciso_baseline import JUDGED, judged_hosts

pytestmark = [needs_sandbox, pytest.mark.slow]

_COREDUMP = "[Coredump]\nStorage=none\nProcessSizeMax=0\n"


def test_crash_collector_keys_read_after_its_drop_ins(tmp_path: Path) -> None:
    text = (
        "Crashing programs must leave no coredump behind: the systemd crash handler needs "
        "Storage=none and ProcessSizeMax=0, whatever its conf.d snippets say."
    )
    verdicts = judged_hosts(
        tmp_path,
        text,
        # the main file complies, a later drop-in keeps cores in the journal
        violating={
            "etc/systemd/coredump.conf": _COREDUMP,
            "etc/systemd/coredump.conf.d/70-keep.conf": "[Coredump]\nStorage=journal\n",
        },
        # a commented override; a journald Storage= is another daemon's key
        compliant={
            "etc/systemd/coredump.conf": _COREDUMP,
            "etc/systemd/coredump.conf.d/70-keep.conf": "[Coredump]\n#Storage=journal\n",
            "etc/systemd/journald.conf": "[Journal]\nStorage=volatile\n",
        },
    )
    assert verdicts == JUDGED


def test_selinux_boot_mode_stated_in_words(tmp_path: Path) -> None:
    text = "Hosts have to come up with SELinux in enforcing mode after each restart."
    config = "SELINUXTYPE=targeted\n"
    verdicts = judged_hosts(
        tmp_path,
        text,
        # the enforcing line is a comment; the active one is permissive
        violating={"etc/selinux/config": "# SELINUX=enforcing\nSELINUX=permissive\n" + config},
        compliant={"etc/selinux/config": "#SELINUX=disabled\nSELINUX=enforcing\n" + config},
    )
    assert verdicts == JUDGED


def test_dnf_option_stated_as_switched_on(tmp_path: Path) -> None:
    text = "On every server, localpkg_gpgcheck must be enabled in the package manager's settings."
    verdicts = judged_hosts(
        tmp_path,
        text,
        violating={"etc/dnf/dnf.conf": "[main]\nlocalpkg_gpgcheck=0\n#localpkg_gpgcheck=1\n"},
        compliant={"etc/dnf/dnf.conf": "[main]\nlocalpkg_gpgcheck=True\nbest=False\n"},
    )
    assert verdicts == JUDGED


def test_chrony_option_judged_on_every_source_line(tmp_path: Path) -> None:
    text = (
        "Each NTP server or pool chronyd polls has to carry minpoll 4 or more on its own line; "
        "files pulled in with confdir count as well."
    )
    main = "driftfile /var/lib/chrony/drift\nconfdir /etc/chrony.d\nserver clock-a.lab.test iburst minpoll 5\n"
    verdicts = judged_hosts(
        tmp_path,
        text,
        # a pool line in the included folder leaves the option out
        violating={
            "etc/chrony.conf": main,
            "etc/chrony.d/site.conf": "pool clocks.lab.test iburst maxsources 2\n",
        },
        # a commented pool line without it; the option after a flag; a larger value
        compliant={
            "etc/chrony.conf": main + "! pool spare.lab.test iburst\n",
            "etc/chrony.d/site.conf": "pool clocks.lab.test iburst minpoll 6 maxsources 2\n",
        },
    )
    assert verdicts == JUDGED


_REPO = "[{name}]\nname={name}\nbaseurl=https://mirror.lab.test/{name}/\nenabled=1\n{extra}"


def test_dnf_repository_section_overrides_the_global_value(tmp_path: Path) -> None:
    text = (
        "Package signatures have to be verified: gpgcheck must be 1 in the dnf settings, and "
        "no repository file under /etc/yum.repos.d may switch it off for its own repository."
    )
    main = "[main]\ngpgcheck=1\nbest=True\n"
    verdicts = judged_hosts(
        tmp_path,
        text,
        # the second section of one repository file turns the check off
        violating={
            "etc/dnf/dnf.conf": main,
            "etc/yum.repos.d/lab.repo": _REPO.format(name="lab-base", extra="gpgcheck=1\n")
            + "\n"
            + _REPO.format(name="lab-nightly", extra="gpgcheck=0\n"),
        },
        # a commented override; another key (repo_gpgcheck) set to 0; a section inheriting
        compliant={
            "etc/dnf/dnf.conf": main + "#gpgcheck=0\n",
            "etc/yum.repos.d/lab.repo": _REPO.format(name="lab-base", extra="repo_gpgcheck=0\n")
            + "\n"
            + _REPO.format(name="lab-nightly", extra="; gpgcheck=0\ngpgcheck=1\n"),
        },
    )
    assert verdicts == JUDGED
