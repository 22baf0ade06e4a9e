"""The Python package's build backend (python/_build/geomrender_build.py, issue 44):
maturin's, with Cargo's target directory moved out of a checkout that cannot be
written, so that `pip install ./python` works from a read-only clone.

A real install is a cold release build (minutes; README, From Python, gives its
time and the by-hand check on a read-only mount): here the backend's choice of
target directory is checked, and pyproject.toml's wiring of it."""

import importlib.util
import os
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BACKEND = REPO / "python" / "_build" / "geomrender_build.py"


@pytest.fixture
def backend(monkeypatch):
    monkeypatch.delenv("CARGO_TARGET_DIR", raising=False)
    spec = importlib.util.spec_from_file_location("geomrender_build", BACKEND)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_pyproject_uses_the_backend_and_builds_cpu_only_by_default():
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        tomllib = pytest.importorskip("tomli")
    pyproject = tomllib.loads((REPO / "python" / "pyproject.toml").read_text())
    system = pyproject["build-system"]
    assert system["build-backend"] == "geomrender_build" and system["backend-path"] == ["_build"]
    assert pyproject["tool"]["maturin"]["profile"] == "python"
    cargo = tomllib.loads((REPO / "python" / "Cargo.toml").read_text())
    assert cargo["features"]["default"] == [] and cargo["features"]["gpu"] == ["geomrender/gpu"]
    root = tomllib.loads((REPO / "Cargo.toml").read_text())
    assert root["profile"]["python"]["inherits"] == "release"


def test_the_workspace_target_is_used_where_it_can_be_written(backend, monkeypatch, tmp_path):
    monkeypatch.setattr(backend, "_cargo_target", lambda: str(tmp_path / "target"))
    with backend._target_dir():
        assert "CARGO_TARGET_DIR" not in os.environ
    assert (tmp_path / "target").is_dir()


def test_a_target_that_cannot_be_written_moves_to_a_temporary_directory(backend, monkeypatch, tmp_path):
    # Under a regular file nothing can be made: what a read-only mount does to root,
    # whom permission bits do not stop.
    (tmp_path / "file").write_text("")
    monkeypatch.setattr(backend, "_cargo_target", lambda: str(tmp_path / "file" / "target"))
    with backend._target_dir():
        moved = os.environ["CARGO_TARGET_DIR"]
        assert Path(moved).is_dir() and not Path(moved).is_relative_to(REPO)
    assert "CARGO_TARGET_DIR" not in os.environ and not Path(moved).exists()
    # A target directory the user chose is left alone.
    monkeypatch.setenv("CARGO_TARGET_DIR", str(tmp_path / "mine"))
    with backend._target_dir():
        assert os.environ["CARGO_TARGET_DIR"] == str(tmp_path / "mine")


def test_cargo_says_where_the_target_is(backend):
    if os.environ.get("CARGO_BUILD_TARGET_DIR"):
        pytest.skip("Cargo's target directory is moved by CARGO_BUILD_TARGET_DIR")
    assert Path(backend._cargo_target()).resolve() == (REPO / "target").resolve()
