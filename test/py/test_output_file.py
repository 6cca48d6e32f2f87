"""`pysdy-opt -o`: where the output goes, as mlir-opt writes it, and one-line errors where it cannot."""

import os
import stat

import pytest

from pysdy.tools import pysdy_opt

VALID = """func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.abs %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}
"""
RULE = "#sdy.op_sharding_rule<([i])->([i]) {i=8}>"


@pytest.fixture
def source(tmp_path):
    path = tmp_path / "in.mlir"
    path.write_text(VALID)
    return path


def _opt(source, output) -> int:
    return pysdy_opt.main([str(source), "-sdy-populate-op-sharding-rules", "-o", str(output)])


def test_output_into_a_missing_folder_is_one_line_error(source, tmp_path, capsys):
    output = tmp_path / "missing" / "out.mlir"
    assert _opt(source, output) == 1
    assert capsys.readouterr().err == f"pysdy-opt: cannot open output file '{output}': No such file or directory\n"
    assert not (tmp_path / "missing").exists()


def test_output_onto_a_directory_is_one_line_error(source, tmp_path, capsys):
    folder = tmp_path / "folder"
    folder.mkdir()
    assert _opt(source, folder) == 1
    assert capsys.readouterr().err == f"pysdy-opt: cannot open output file '{folder}': Is a directory\n"
    assert list(folder.iterdir()) == []


def test_output_onto_a_device_writes_to_it_and_keeps_the_node(source, tmp_path):
    device = tmp_path / "null"
    try:
        os.mknod(device, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("creating a device node needs CAP_MKNOD")
    assert _opt(source, device) == 0
    assert stat.S_ISCHR(os.lstat(device).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.mlir", "null"]


def test_output_through_a_symlink_replaces_its_target_and_keeps_the_link(source, tmp_path):
    target = tmp_path / "target.mlir"
    target.write_text("old\n")
    link = tmp_path / "link.mlir"
    link.symlink_to(target)
    assert _opt(source, link) == 0
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert RULE in target.read_text()


def test_output_through_a_dangling_symlink_creates_its_target(source, tmp_path):
    target = tmp_path / "created.mlir"
    link = tmp_path / "link.mlir"
    link.symlink_to(target)
    assert _opt(source, link) == 0
    assert link.is_symlink()
    assert RULE in target.read_text()


def test_a_new_output_file_gets_the_mode_the_umask_allows(source, tmp_path):
    output = tmp_path / "new.mlir"
    previous = os.umask(0o027)
    try:
        assert _opt(source, output) == 0
    finally:
        os.umask(previous)
    assert stat.S_IMODE(os.stat(output).st_mode) == 0o640


@pytest.mark.parametrize("mode", [0o600, 0o664, 0o604])
def test_an_existing_output_file_keeps_its_mode(source, tmp_path, mode):
    output = tmp_path / "existing.mlir"
    output.write_text("old\n")
    os.chmod(output, mode)
    assert _opt(source, output) == 0
    assert stat.S_IMODE(os.stat(output).st_mode) == mode
    assert RULE in output.read_text()


def test_a_read_only_output_file_is_handled_as_open_would(source, tmp_path, capsys):
    output = tmp_path / "read_only.mlir"
    output.write_text("old\n")
    os.chmod(output, 0o444)
    status = _opt(source, output)
    if os.geteuid() == 0:  # root may write any file, and mlir-opt run as root does
        assert status == 0
        assert RULE in output.read_text()
    else:
        assert status == 1
        assert capsys.readouterr().err == f"pysdy-opt: cannot open output file '{output}': Permission denied\n"
        assert output.read_text() == "old\n"
    assert stat.S_IMODE(os.stat(output).st_mode) == 0o444


def test_output_file_equal_to_the_input_replaces_it(source):
    assert _opt(source, source) == 0
    assert RULE in source.read_text()
