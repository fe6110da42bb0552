"""ci/chroot-python after a run that was killed: its mounts are still under the root, and the
source of one of them has been deleted since (CI's next clean clone removed the results folder
it bound). The next run detaches them, leaves nothing mounted behind, and never reaches through
the root's /dev to the host's /dev/shm."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux") or os.geteuid() != 0,
    reason="mounts need root on Linux (CI runs as root)",
)


def mounts_under(path: Path) -> list[str]:
    prefix = f"{path}/"
    with open("/proc/self/mountinfo", encoding="utf-8") as f:
        return [line.split()[4] for line in f if line.split()[4].startswith(prefix)]


def host_mount_ids(target: str) -> list[str]:
    with open("/proc/self/mountinfo", encoding="utf-8") as f:
        return [line.split()[0] for line in f if line.split()[4] == target]


def test_the_next_run_detaches_what_a_killed_run_left(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    root = cache / "sid"
    (root / "etc/apt/apt.conf.d").mkdir(parents=True)
    (root / ".chroot-python-bootstrapped").touch()
    results = tmp_path / "results"
    results.mkdir()
    (root / "state").mkdir()
    (root / "dev").mkdir()
    shm_before = host_mount_ids("/dev/shm")
    # What a killed run leaves: /dev bound recursively (before it was made a slave) and a
    # results folder bound, whose source is then removed.
    subprocess.run(["mount", "--rbind", "/dev", str(root / "dev")], check=True)
    subprocess.run(["mount", "--bind", str(results), str(root / "state")], check=True)
    try:
        results.rmdir()
        assert str(root / "state") in mounts_under(root)
        env = dict(
            os.environ,
            CHROOT_PYTHON_CACHE=str(cache),
            CHROOT_SUITE="sid",
            CHROOT_BIND_RW=f"{tmp_path}:/state",
        )
        # The fake root has no packages and no apt: the run stops at provisioning (75), after
        # making and removing this run's own mounts.
        proc = subprocess.run(
            [str(REPO / "ci/chroot-python"), "--", "true"],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert "mounts a killed run left under" in proc.stderr, proc.stderr
        assert proc.returncode == 75, proc.stderr
        assert mounts_under(root) == []
        assert host_mount_ids("/dev/shm") == shm_before
    finally:
        for target in sorted(mounts_under(root), reverse=True):
            subprocess.run(["mount", "--make-rslave", target], check=False)
            subprocess.run(["umount", "-l", target], check=False)
