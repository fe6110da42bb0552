"""What machine a benchmark ran on, for the headers both benchmark scripts write."""

from __future__ import annotations

import os
import platform
from pathlib import Path


def cpu_model() -> str:
    """The CPU's model name from /proc/cpuinfo, or what ``platform`` knows."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def describe() -> str:
    """Platform, CPU model and core count in one line."""
    return f"{platform.platform()}, {cpu_model()}, {os.cpu_count()} cores"
