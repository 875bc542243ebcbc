"""Fixtures of the storage tests: a small tmpfs, where this machine may mount one."""
import os
import subprocess
import uuid

import pytest


@pytest.fixture
def tiny_tmpfs(tmp_path):
    """A 256 KiB tmpfs, mounted for the test and unmounted after it; skips (saying why) where
    this machine may not mount one."""
    mount_point = tmp_path / f"tmpfs-{uuid.uuid4().hex[:8]}"
    mount_point.mkdir()
    if os.geteuid() != 0:
        pytest.skip("a full disk needs a small tmpfs, and mounting one needs root; this run is not root")
    result = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k,mode=0755", "tmpfs", str(mount_point)],
                            capture_output=True, text=True)
    if result.returncode != 0:
        pytest.skip(f"a full disk needs a small tmpfs, and this machine refused to mount one: {result.stderr.strip()}")
    try:
        yield mount_point
    finally:
        subprocess.run(["umount", "-l", str(mount_point)], check=False)
