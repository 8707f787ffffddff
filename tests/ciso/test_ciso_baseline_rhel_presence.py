"""RHEL 9 files a requirement asks to be there and files it asks to be gone, with nothing said of
their owner or mode (issue 32 item 6, issue 28). Each host goes through the real class
(ansible-playbook in the sandbox, then Rego); an empty file counts as present, and a file of a
similar name elsewhere does not count. The text and hosts are written for this test."""

from __future__ import annotations

from pathlib import Path

import pytest

from ciso.agents.baseline.intent import FilePermissionCheck
from tests._support.ciso import needs_sandbox
from tests._support.ciso_baseline import JUDGED, intent_of, judged_hosts

TRUST_FILES = (
    "Remote trust is handled by the directory service only: /etc/hosts.equiv and "
    "/etc/ssh/shosts.equiv must not exist, while /etc/ssh/ssh_known_hosts has to be present."
)


def test_the_files_that_must_exist_and_those_that_must_not_are_read() -> None:
    (check,) = intent_of(TRUST_FILES, "rhel9").checks
    assert isinstance(check, FilePermissionCheck)
    assert check.absent == ("/etc/hosts.equiv", "/etc/ssh/shosts.equiv")
    assert check.paths == ("/etc/ssh/ssh_known_hosts",) and check.must_exist
    # nothing is said of owners or modes
    assert (check.owner, check.group, check.max_mode) == ("", "", 0o7777)


@needs_sandbox
@pytest.mark.slow
def test_presence_and_absence_judged_on_hosts(tmp_path: Path) -> None:
    known = {"etc/ssh/ssh_known_hosts": "host.example ssh-ed25519 AAAA\n"}
    verdicts = judged_hosts(
        tmp_path,
        TRUST_FILES,
        # an empty hosts.equiv is still there
        violating={**known, "etc/hosts.equiv": ""},
        # similar names elsewhere are other files
        compliant={
            **known,
            "etc/hosts.equiv.rpmsave": "+\n",
            "root/shosts.equiv": "+\n",
        },
    )
    assert verdicts == JUDGED


CLIENT_SECRETS = (
    "Database passwords are never stored in clear: no home directory of an account in "
    "/etc/passwd, root's included, may contain a .pgpass or .my.cnf file."
)
_PASSWD = (
    "root:x:0:0:root:/root:/bin/bash\n"
    "bob:x:1000:1000:Bob:/home/bob:/bin/bash\n"
    "builder:x:1001:1001:CI builder:/var/lib/builder:/bin/bash\n"
)


def test_files_named_in_every_home_directory_are_read() -> None:
    (check,) = intent_of(CLIENT_SECRETS, "rhel9").checks
    assert isinstance(check, FilePermissionCheck)
    assert check.absent_in_homes == (".pgpass", ".my.cnf")


@needs_sandbox
@pytest.mark.slow
def test_files_in_home_directories_listed_by_passwd(tmp_path: Path) -> None:
    verdicts = judged_hosts(
        tmp_path,
        CLIENT_SECRETS,
        # a home outside /home, as /etc/passwd gives it
        violating={"etc/passwd": _PASSWD, "var/lib/builder/.pgpass": "db:5432:*:ci:secret\n"},
        # a directory nobody has as home, and another name in a home
        compliant={
            "etc/passwd": _PASSWD,
            "opt/old-home/.pgpass": "db:5432:*:ci:secret\n",
            "home/bob/.my.cnf.example": "[client]\n",
        },
    )
    assert verdicts == JUDGED
