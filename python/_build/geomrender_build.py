"""The PEP 517 build backend of the geomrender package: maturin's, with Cargo's
target directory moved out of a checkout that cannot be written.

``pip install ./python`` builds in place (pip >= 21.3), and Cargo builds into the
workspace's ``target/``: on a read-only clone that failed ("Read-only file
system", "Permission denied"). When that directory cannot be written, and
``CARGO_TARGET_DIR`` is not set, the build goes to a temporary directory, removed
afterwards (so each such install is a cold build). Everything else, config
settings included (``--config-settings=build-args='--features gpu'``), is
maturin's.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import tempfile
from typing import Any, Iterator, Mapping, Optional

import maturin
from maturin import (  # noqa: F401  (the hooks used as they are)
    build_sdist,
    get_requires_for_build_editable,
    get_requires_for_build_sdist,
    get_requires_for_build_wheel,
    prepare_metadata_for_build_wheel,
)

#: The package's directory (python/), a member of the repository's Cargo workspace.
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _cargo_target() -> str:
    """The target directory Cargo would build into (its config may move it), else
    the workspace's ``target/``."""
    try:
        out = subprocess.run(
            ["cargo", "metadata", "--format-version", "1", "--no-deps",
             "--manifest-path", os.path.join(_PACKAGE, "Cargo.toml")],
            capture_output=True, check=True, text=True,
        ).stdout
        return json.loads(out)["target_directory"]
    except (OSError, subprocess.CalledProcessError, ValueError, KeyError):
        return os.path.join(os.path.dirname(_PACKAGE), "target")


def _writable(directory: str) -> bool:
    """Whether files can be made in ``directory`` (made if missing): tried, since
    permission bits say nothing for root on a read-only mount."""
    try:
        os.makedirs(directory, exist_ok=True)
        with tempfile.TemporaryFile(dir=directory):
            return True
    except OSError:
        return False


@contextlib.contextmanager
def _target_dir() -> Iterator[None]:
    """Cargo's target directory for this build: the workspace's ``target/`` when it
    can be written (or CARGO_TARGET_DIR when set), else a temporary one."""
    if os.environ.get("CARGO_TARGET_DIR"):
        yield
        return
    target = _cargo_target()
    if _writable(target):
        yield
        return
    temporary = tempfile.mkdtemp(prefix="geomrender-build-")
    print(f"geomrender: {target} cannot be written; building in {temporary}", flush=True)
    os.environ["CARGO_TARGET_DIR"] = temporary
    try:
        yield
    finally:
        del os.environ["CARGO_TARGET_DIR"]
        shutil.rmtree(temporary, ignore_errors=True)


def build_wheel(
    wheel_directory: str,
    config_settings: Optional[Mapping[str, Any]] = None,
    metadata_directory: Optional[str] = None,
) -> str:
    with _target_dir():
        return maturin.build_wheel(wheel_directory, config_settings, metadata_directory)


def build_editable(
    wheel_directory: str,
    config_settings: Optional[Mapping[str, Any]] = None,
    metadata_directory: Optional[str] = None,
) -> str:
    with _target_dir():
        return maturin.build_editable(wheel_directory, config_settings, metadata_directory)
