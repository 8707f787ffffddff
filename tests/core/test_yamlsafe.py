"""Reading untrusted YAML, from text or streamed from a file: aliases refused, nesting bounded
before the parser can overflow."""

from __future__ import annotations

import pytest
import yaml

from itbench.yamlsafe import MAX_NESTING, iter_file, load_all, nesting_bound


@pytest.mark.parametrize(
    ("text", "documents"),
    [
        ("a: 1\n---\nb: [1, {c: 2}]\n", [{"a": 1}, {"b": [1, {"c": 2}]}]),
        ("k: '[[[[[['\n", [{"k": "[[[[[["}]),  # brackets inside quotes do not nest
    ],
)
def test_ordinary_yaml_loads(text, documents):
    assert load_all(text) == documents


@pytest.mark.parametrize(
    "text",
    [
        "x: " + "[" * 200_000 + "]" * 200_000,
        "x: " + "{a: " * 5_000 + "1" + "}" * 5_000,
        "".join(" " * i + "- \n" for i in range(MAX_NESTING + 5)),
        "a: &a [1]\nb: [*a, *a]\n",
    ],
    ids=["flow-lists", "flow-maps", "block", "alias"],
)
def test_hostile_yaml_is_a_yaml_error(text):
    with pytest.raises(yaml.YAMLError):
        load_all(text)


def test_nesting_bound_is_an_upper_bound():
    text = "a:\n  b:\n    - [1, [2]]\n"
    assert nesting_bound(text) >= 4
    assert nesting_bound("x: '" + "[" * 5000 + "'\n") < MAX_NESTING


# -- streaming files --------------------------------------------------------------------------


@pytest.fixture
def small_chunks(monkeypatch):
    """Chunks of a few bytes, so every check meets chunk boundaries."""
    import itbench.yamlsafe as yamlsafe

    monkeypatch.setattr(yamlsafe, "CHUNK", 7)


@pytest.mark.parametrize("chunked", [False, True], ids=["1MiB-chunks", "7-byte-chunks"])
def test_iter_file_streams_the_documents_load_all_reads(tmp_path, request, chunked):
    if chunked:
        request.getfixturevalue("small_chunks")
    text = "a: 1\n---\nb: [1, {c: 2}]\n---\nk: '[[[[[['\n---\nanchored: &x 1\n"
    path = tmp_path / "docs.yaml"
    path.write_text(text)
    assert list(iter_file(path)) == load_all(text)


@pytest.mark.parametrize(
    "text",
    [
        "x: " + "[" * 200_000 + "]" * 200_000,
        "x: " + "{a: " * 5_000 + "1" + "}" * 5_000,
        "".join(" " * i + "- \n" for i in range(MAX_NESTING + 5)),
        "a: &a [1]\nb: [*a, *a]\n",
        "ok: 1\n---\na: &a [x, x]\nb: &b [*a, *a]\nc: [*b, *b]\n",
    ],
    ids=["flow-lists", "flow-maps", "block", "alias", "alias-bomb-in-second-document"],
)
@pytest.mark.parametrize("chunked", [False, True], ids=["1MiB-chunks", "7-byte-chunks"])
def test_hostile_files_are_a_yaml_error(tmp_path, request, text, chunked):
    if chunked:
        request.getfixturevalue("small_chunks")
    path = tmp_path / "hostile.yaml"
    path.write_text(text)
    with pytest.raises(yaml.YAMLError):
        list(iter_file(path))


def test_deep_flow_split_over_many_lines_and_chunks_is_refused(tmp_path, small_chunks):
    # each line alone is shallow: only depth carried across chunks finds it
    path = tmp_path / "deep.yaml"
    path.write_text("x:\n" + "[\n" * (MAX_NESTING + 1) + "]\n" * (MAX_NESTING + 1))
    with pytest.raises(yaml.YAMLError, match="nested more than"):
        next(iter_file(path))


def test_iter_file_is_lazy_and_reports_progress(tmp_path):
    path = tmp_path / "many.yaml"
    path.write_text("".join(f"---\nn: {i}\n" for i in range(1200)) + "---\nbroken: [\n")
    seen: list[tuple[int, int, int]] = []
    documents = iter_file(path, progress=lambda done, total, n: seen.append((done, total, n)))
    assert next(documents) == {"n": 0}  # read before the broken end is reached
    with pytest.raises(yaml.YAMLError):
        for _ in documents:
            pass
    size = path.stat().st_size
    assert [n for _, _, n in seen] == [500, 1000]
    assert all(0 < done <= total == size for done, total, _ in seen)
    assert seen[0][0] <= seen[1][0]  # libyaml reads ahead in blocks: bytes never go back


def test_invalid_utf8_is_a_yaml_error(tmp_path):
    path = tmp_path / "latin1.yaml"
    path.write_bytes(b"name: caf\xe9\n")
    with pytest.raises(yaml.YAMLError):
        list(iter_file(path))
