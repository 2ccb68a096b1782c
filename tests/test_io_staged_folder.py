"""A folder written whole or not at all (:func:`irscale.io.folders.staged_folder`) and the
check that it is new (:func:`irscale.io.folders.check_new_folder`), as ``irscale demo``
writes its example files."""

from __future__ import annotations

import os

import pytest

from irscale.errors import FileAccessError, OutputExistsError
from irscale.io.folders import check_new_folder, staged_folder


def test_the_folder_takes_its_name_only_when_the_block_succeeds(tmp_path):
    target = tmp_path / "out"
    with staged_folder(str(target), "--out") as staging:
        assert not target.exists()  # named only once the block has ended
        with open(os.path.join(staging, "a.txt"), "w") as handle:
            handle.write("a\n")
    assert (target / "a.txt").read_text() == "a\n"
    failed = tmp_path / "failed"
    with pytest.raises(RuntimeError), staged_folder(str(failed), "--out") as staging:
        with open(os.path.join(staging, "b.txt"), "w") as handle:
            handle.write("b\n")
        raise RuntimeError("stop")
    assert sorted(os.listdir(tmp_path)) == ["out"]  # neither the folder nor its stage


def test_only_a_new_or_empty_folder_is_taken(tmp_path, monkeypatch):
    check_new_folder(str(tmp_path / "new"), "--out")
    (tmp_path / "empty").mkdir()
    check_new_folder(str(tmp_path / "empty"), "--out")
    (tmp_path / "file").write_text("x")
    with pytest.raises(FileAccessError, match=r"--out .*file: exists and is not a folder"):
        check_new_folder(str(tmp_path / "file"), "--out")
    with pytest.raises(OutputExistsError, match="folder is not empty"):
        check_new_folder(str(tmp_path), "--out")
    monkeypatch.chdir(tmp_path / "empty")
    with pytest.raises(FileAccessError, match="current folder"):
        check_new_folder(".", "--out")


@pytest.mark.parametrize("replace", [False, True], ids=["refused", "replaced"])
def test_a_folder_holding_files_is_replaced_only_when_asked(replace, tmp_path):
    """A folder filled while the block runs is refused (kept as it is), or, with
    ``replace`` (an earlier output its command checked), replaced whole; no staging folder
    is left either way."""
    target = tmp_path / "out"

    def build() -> None:
        with staged_folder(str(target), "--out", replace=replace) as staging:
            target.mkdir()
            (target / "old.txt").write_text("old\n")
            with open(os.path.join(staging, "new.txt"), "w") as handle:
                handle.write("new\n")

    if replace:
        build()
        assert os.listdir(target) == ["new.txt"]
    else:
        with pytest.raises(OutputExistsError, match=r"--out .*out: appeared or was filled"):
            build()
        assert os.listdir(target) == ["old.txt"]
    assert sorted(os.listdir(tmp_path)) == ["out"]
