"""A host tree is the host where a domain says its trees describe the system whole
(``host_owned_paths``): the machine's own files there never show beside the tree's, so a rhel9
verdict does not depend on the machine that runs it. Found by a builder: this machine's
/usr/lib/sysctl.d/99-protect-links.conf silently overrode a scenario's own drop-in.
"""

from __future__ import annotations

import json
from pathlib import Path, PurePosixPath

import pytest

from itbench.sandbox.hosttree import MACHINE_FILL, domains_host_owned, private_files, root_layout
from itbench.sandbox.runner import run_sandboxed

#: what the sandboxed script reports: the entries of each folder, and whether each file exists
_LOOK = """
import json, os, sys
out = {}
for path in sys.argv[1:]:
    out[path] = sorted(os.listdir(path)) if os.path.isdir(path) else os.path.exists(path)
print(json.dumps(out))
"""


def _tree(root: Path, files: dict[str, str]) -> Path:
    for path, text in files.items():
        target = root / path.lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return root


def _look(tmp_path: Path, tree: Path, paths: list[str]) -> dict[str, object]:
    import sys

    result = run_sandboxed(
        [sys.executable, "-c", _LOOK, *paths], out_dir=tmp_path / "out", host_tree=tree
    )
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def test_the_ciso_domain_owns_the_folders_its_collectors_read():
    owned = {str(p) for p in domains_host_owned()}
    for path in ("/usr/lib/sysctl.d", "/etc/sysctl.d", "/etc/security", "/etc/login.defs"):
        assert path in owned, path


def test_an_owned_folder_holds_the_trees_files_and_nothing_of_the_machine(tmp_path):
    tree = _tree(
        tmp_path / "host",
        {
            "/usr/lib/sysctl.d/10-vendor.conf": "fs.protected_fifos = 0\n",
            "/etc/sysctl.d/60-site.conf": "fs.protected_symlinks = 0\n",
            "/etc/security/faillock.conf": "deny = 3\n",
        },
    )
    seen = _look(
        tmp_path,
        tree,
        ["/usr/lib/sysctl.d", "/etc/sysctl.d", "/etc/security", "/etc/passwd"],
    )
    assert seen["/usr/lib/sysctl.d"] == ["10-vendor.conf"]
    assert seen["/etc/sysctl.d"] == ["60-site.conf"]
    assert seen["/etc/security"] == ["faillock.conf"]
    assert seen["/etc/passwd"] is True  # the rest of /etc is the machine's, as before


def test_an_owned_path_the_tree_lacks_is_absent_not_the_machines(tmp_path):
    tree = _tree(tmp_path / "host", {"/etc/ssh/sshd_config": "PermitRootLogin no\n"})
    seen = _look(
        tmp_path,
        tree,
        ["/usr/lib/sysctl.d", "/etc/sysctl.conf", "/etc/login.defs", "/etc/pam.d", "/etc/ssh"],
    )
    for path in ("/usr/lib/sysctl.d", "/etc/sysctl.conf", "/etc/login.defs", "/etc/pam.d"):
        assert seen[path] is False, path
    assert seen["/etc/ssh"] == ["sshd_config"]


def test_without_a_host_tree_the_machine_is_shown_as_it_is(tmp_path):
    # the agent's and the engines' sandboxes have no host tree: nothing is hidden for them
    layout = root_layout(None)
    assert not any("sysctl" in arg for arg in layout.args)


@pytest.mark.parametrize("owned", ["etc/security", "etc/login.defs"])
def test_the_layout_stages_the_folder_without_the_owned_entry(tmp_path, owned):
    real = _tree(
        tmp_path / "real",
        {"/etc/passwd": "root:x:0:0::/root:/bin/sh\n", "/etc/login.defs": "PASS_MAX_DAYS 99999\n"},
    )
    (real / "etc/security").mkdir()
    (real / "etc/security/limits.conf").write_text("* hard core unlimited\n", encoding="utf-8")
    tree = _tree(tmp_path / "host", {"/etc/hostname": "rhel\n"})
    args = root_layout(tree, real, owned=frozenset({PurePosixPath(f"/{owned}")})).args
    binds = {args[i + 2] for i, a in enumerate(args) if a == "--ro-bind"}
    links = {args[i + 2]: args[i + 1] for i, a in enumerate(args) if a == "--symlink"}
    assert f"/{owned}" not in binds and f"/{owned}" not in links
    # the machine's other entries are shown: linked into the fill, which holds the real /etc
    assert links["/etc/passwd"] == f"{MACHINE_FILL}/etc/passwd"
    assert ("--ro-bind", str(real / "etc"), f"{MACHINE_FILL}/etc") in set(
        zip(args, args[1:], args[2:], strict=False)
    )
    # ... where the owned entry is covered: the host tree describes it whole
    cover = "--tmpfs" if (real / owned).is_dir() else "/dev/null"
    assert (cover, f"{MACHINE_FILL}/{owned}") in set(zip(args, args[1:], strict=False)) or (
        "--ro-bind",
        cover,
        f"{MACHINE_FILL}/{owned}",
    ) in set(zip(args, args[1:], args[2:], strict=False))
    assert ("--tmpfs", "/etc") in set(zip(args, args[1:], strict=False))  # /etc is staged


def test_the_fill_shows_no_owned_entry_and_no_private_file(tmp_path):
    # a staged folder links the machine's entries into one bind of the real folder: nothing the
    # host tree owns, and no file only its owner may read, can be read there either
    tree = _tree(tmp_path / "host", {"/etc/ssh/sshd_config": "PermitRootLogin no\n"})
    owned_here = [
        p for p in ("/etc/ssh", "/etc/login.defs", "/etc/sysctl.conf") if Path(p).exists()
    ]
    private = [str(p) for p in private_files() if not str(p).startswith("/etc/ssh/")]
    paths = [f"{MACHINE_FILL}{p}" for p in owned_here + private]
    script = (
        "import json, os, sys\n"
        "out = {}\n"
        "for path in sys.argv[1:]:\n"
        "    if os.path.isdir(path):\n"
        "        out[path] = sorted(os.listdir(path))\n"
        "    else:\n"
        "        try:\n"
        "            out[path] = len(open(path, 'rb').read())\n"
        "        except OSError as err:\n"
        "            out[path] = 'unreadable' if os.path.exists(path) else False\n"
        "print(json.dumps(out))\n"
    )
    import sys

    result = run_sandboxed(
        [sys.executable, "-c", script, *paths, "/etc/passwd"],
        out_dir=tmp_path / "out",
        host_tree=tree,
    )
    assert result.exit_code == 0, result.stderr
    seen = json.loads(result.stdout)
    assert seen["/etc/passwd"] > 0  # the machine's own files still read through the link
    for path in paths:
        assert seen[path] in ([], 0, False, "unreadable"), (path, seen[path])


def test_a_tree_file_at_a_path_that_is_a_link_here_is_bound_where_the_link_leads(tmp_path):
    # /etc/os-release is ../usr/lib/os-release on most systems, and /usr/lib is staged (its
    # sysctl.d and modprobe.d are owned): the tree's file is bound where the link leads, so that
    # place must be a real entry, not a link into the fill (ciso-set14's RHEL hosts failed with
    # "Can't create file at /etc/os-release" when it was)
    real = _tree(tmp_path / "real", {"/usr/lib/os-release": "ID=debian\n", "/etc/passwd": "x\n"})
    (real / "usr/lib/sysctl.d").mkdir()
    (real / "etc/os-release").symlink_to("../usr/lib/os-release")
    tree = _tree(tmp_path / "host", {"/etc/os-release": 'ID="rhel"\n'})
    owned = frozenset({PurePosixPath("/usr/lib/sysctl.d")})
    args = root_layout(tree, real, owned=owned).args
    triples = set(zip(args, args[1:], args[2:], strict=False))
    assert ("--ro-bind", str(real / "usr/lib/os-release"), "/usr/lib/os-release") in triples
    assert ("--ro-bind", str(tree / "etc/os-release"), "/etc/os-release") in triples


@pytest.mark.skipif(
    not Path("/etc/os-release").is_symlink(), reason="/etc/os-release is not a link on this machine"
)
def test_a_sandboxed_host_reads_its_own_os_release(tmp_path):
    tree = _tree(tmp_path / "host", {"/etc/os-release": 'ID="rhel"\nVERSION_ID="9.4"\n'})
    import sys

    result = run_sandboxed(
        [sys.executable, "-c", "print(open('/etc/os-release').read(), end='')"],
        out_dir=tmp_path / "out",
        host_tree=tree,
    )
    assert result.exit_code == 0, result.stderr
    assert result.stdout == 'ID="rhel"\nVERSION_ID="9.4"\n'
