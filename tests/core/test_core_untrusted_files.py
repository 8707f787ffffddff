"""itbench.fsutil's helpers for an agent's tree: nothing is read or written through a link the
agent planted, and special files are refused rather than read (a FIFO would block forever)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from itbench.fsutil import (
    UnsafeFile,
    agent_file,
    agent_files,
    append_line,
    check_agent_path,
    clear_planted,
    copy_agent_tree,
    read_agent_bytes,
    real_directory,
    write_in_agent_tree,
)


@pytest.fixture
def tree(tmp_path: Path) -> tuple[Path, Path]:
    workspace, outside = tmp_path / "ws", tmp_path / "outside"
    (workspace / "outputs").mkdir(parents=True)
    outside.mkdir()
    (outside / "secret.txt").write_text("secret\n")
    (workspace / "answer.json").write_text("{}")
    (workspace / "link.json").symlink_to(outside / "secret.txt")
    (workspace / "linked-dir").symlink_to(outside)
    os.mkfifo(workspace / "pipe.json")
    return workspace, outside


def test_agent_file_takes_regular_files_and_names_what_else_is_there(tree):
    workspace, _ = tree
    assert agent_file(workspace, "answer.json") == workspace / "answer.json"
    assert agent_file(workspace, "missing.json") is None
    assert agent_file(workspace, "outputs") is None  # a folder: no file of that name
    assert agent_file(workspace, "answer.json/inner") is None  # a file where a folder would be
    for name, said in (
        ("link.json", "link.json is a symbolic link: not read"),
        ("linked-dir/secret.txt", "linked-dir is a symbolic link: not read"),
        ("pipe.json", "pipe.json is a named pipe: not read"),
        ("pipe.json/inner", "pipe.json is a named pipe: not read"),
    ):
        with pytest.raises(UnsafeFile, match=said):
            agent_file(workspace, name)
        with pytest.raises(UnsafeFile, match=said):
            check_agent_path(workspace, name)
    check_agent_path(workspace, "answer.json")  # a regular file, or nothing there: no objection
    check_agent_path(workspace, "answer.json/inner")
    check_agent_path(workspace, "missing.json")


def test_listing_never_enters_a_linked_folder(tree):
    workspace, _ = tree
    files, refused = agent_files(workspace)
    assert files == [workspace / "answer.json"]
    assert refused == [
        "link.json is a symbolic link: not read",
        "linked-dir is a symbolic link: not read",
        "pipe.json is a named pipe: not read",
    ]


def test_reading_refuses_a_link_and_a_fifo_without_blocking(tree):
    workspace, _ = tree
    assert read_agent_bytes(workspace / "answer.json") == b"{}"
    with pytest.raises(UnsafeFile, match="symbolic link"):
        read_agent_bytes(workspace / "link.json")
    with pytest.raises(UnsafeFile, match="named pipe"):
        read_agent_bytes(workspace / "pipe.json")


def test_runner_files_replace_what_was_planted_and_write_nothing_through_it(tree):
    workspace, outside = tree
    (workspace / "transcript.jsonl").symlink_to(outside / "secret.txt")
    append_line(workspace / "transcript.jsonl", "event\n")
    assert (outside / "secret.txt").read_text() == "secret\n"
    assert not (workspace / "transcript.jsonl").is_symlink()
    assert (workspace / "transcript.jsonl").read_text() == "event\n"

    (workspace / ".itbench").symlink_to(outside)
    folder = real_directory(workspace, ".itbench/dry-run")
    assert folder == workspace / ".itbench" / "dry-run" and folder.is_dir()
    assert not (workspace / ".itbench").is_symlink()
    assert sorted(p.name for p in outside.iterdir()) == ["secret.txt"]

    (workspace / "evaluation.json").mkdir()
    (workspace / "evaluation.json" / "inside").write_text("x")
    assert (
        clear_planted(workspace / "evaluation.json") == "evaluation.json was a directory: replaced"
    )
    assert not (workspace / "evaluation.json").exists()
    assert clear_planted(workspace / "answer.json") is None  # a regular file stays


def test_only_the_evaluation_the_runner_committed_counts_as_done(tmp_path: Path):
    """A score the agent wrote in its workspace (say, just before a run was interrupted) or a link
    in its place is not taken for the trial's evaluation when the run resumes."""
    from itbench.models import Evaluation, Scenario
    from itbench.runner.layout import EVALUATION_FILE, read_evaluation
    from itbench.runner.run import plan_trials
    from itbench.runner.trial import write_evaluation

    scenario = Scenario(id="s", domain="d", **{"class": "c"}, title="t", description="d")
    run = tmp_path / "run"
    committed = Evaluation(scenario_id="s", trial_id="1", scenario_class="c", scores={"pass": 0})
    write_evaluation(run / "s" / "1", committed)
    assert read_evaluation(run / "s" / "1" / EVALUATION_FILE) == committed
    assert [s.number for s in plan_trials([scenario], 2, run).done] == [1]

    forged = committed.model_copy(update={"scores": {"pass": 1}})
    (run / "s" / "2").mkdir()
    (run / "s" / "2" / EVALUATION_FILE).write_text(forged.model_dump_json())
    (run / "s" / "1" / EVALUATION_FILE).write_text(forged.model_dump_json())
    plan = plan_trials([scenario], 2, run)
    assert plan.done == () and [s.number for s in plan.todo] == [1, 2]

    elsewhere = tmp_path / "elsewhere" / "s" / "1"
    write_evaluation(elsewhere, forged)  # committed, but in another run
    (run / "s" / "1" / EVALUATION_FILE).unlink()
    (run / "s" / "1" / EVALUATION_FILE).symlink_to(elsewhere / EVALUATION_FILE)
    assert read_evaluation(run / "s" / "1" / EVALUATION_FILE) is None


def test_a_copy_of_an_agents_folder_holds_its_real_files_only(tree):
    workspace, outside = tree
    (workspace / "outputs" / "deep").mkdir()
    (workspace / "outputs" / "deep" / "data.yaml").write_text("a: 1\n")
    (workspace / "outputs" / "deep" / "data.yaml").chmod(0o600)
    (workspace / "outputs" / "leak.yaml").symlink_to(outside / "secret.txt")
    (workspace / "outputs" / "leak-dir").symlink_to(outside)
    os.mkfifo(workspace / "outputs" / "pipe.yaml")
    target = workspace.parent / "copy"
    refused = copy_agent_tree(workspace, "outputs", target)
    assert refused == [
        "outputs/leak-dir is a symbolic link: not copied",
        "outputs/leak.yaml is a symbolic link: not copied",
        "outputs/pipe.yaml is a named pipe: not copied",
    ]
    copied = sorted(p.relative_to(target).as_posix() for p in target.rglob("*"))
    assert copied == ["deep", "deep/data.yaml"]
    assert (target / "deep" / "data.yaml").read_text() == "a: 1\n"
    assert (target / "deep" / "data.yaml").stat().st_mode & 0o777 == 0o600


def test_no_copy_of_a_folder_reached_through_a_link(tree):
    workspace, _ = tree
    assert copy_agent_tree(workspace, "linked-dir", workspace.parent / "a") is None
    assert copy_agent_tree(workspace, "linked-dir/inner", workspace.parent / "b") is None
    assert copy_agent_tree(workspace, "answer.json", workspace.parent / "c") is None
    assert copy_agent_tree(workspace, "missing", workspace.parent / "d") is None
    assert not any((workspace.parent / n).exists() for n in "abcd")


def test_write_in_agent_tree_appends_and_creates_in_real_folders_only(tmp_path: Path) -> None:
    (tmp_path / "log.tsv").write_text("a\n")
    (tmp_path / "alerts").mkdir()
    assert write_in_agent_tree(tmp_path, "log.tsv", b"b\n", append=True)
    assert write_in_agent_tree(tmp_path, "alerts/new.json", b"{}", append=False)
    assert (tmp_path / "log.tsv").read_text() == "a\nb\n"
    assert (tmp_path / "alerts" / "new.json").read_text() == "{}"
    # nothing to append to: not created
    assert not write_in_agent_tree(tmp_path, "absent.tsv", b"x", append=True)
    assert not (tmp_path / "absent.tsv").exists()


def test_write_in_agent_tree_never_writes_through_a_link_or_into_a_fifo(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "file").write_text("kept\n")
    root = tmp_path / "root"
    root.mkdir()
    (root / "linked.tsv").symlink_to(outside / "file")
    (root / "folder").symlink_to(outside)
    os.mkfifo(root / "pipe")
    assert not write_in_agent_tree(root, "linked.tsv", b"x", append=True)
    assert not write_in_agent_tree(root, "folder/file", b"x", append=True)
    assert not write_in_agent_tree(root, "folder/new", b"x", append=False)
    assert not write_in_agent_tree(root, "pipe", b"x", append=True)
    assert (outside / "file").read_text() == "kept\n"
    assert sorted(p.name for p in outside.iterdir()) == ["file"]


@pytest.mark.parametrize("planted", ["link", "fifo", "link-in-folder"])
def test_check_agent_path_refuses_what_leads_elsewhere_or_blocks(
    tmp_path: Path, planted: str
) -> None:
    (tmp_path / "data").mkdir()
    if planted == "link":
        (tmp_path / "data.tsv").symlink_to("/etc/hostname")
        target = "data.tsv"
    elif planted == "fifo":
        os.mkfifo(tmp_path / "data.tsv")
        target = "data.tsv"
    else:
        (tmp_path / "data" / "x.json").symlink_to("/etc/hostname")
        target = "data"
    with pytest.raises(UnsafeFile):
        check_agent_path(tmp_path, target)
