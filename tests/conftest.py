"""Test setup: make ``kashgar`` importable from the source tree when it is not installed."""

import sys
from pathlib import Path

try:
    import kashgar  # noqa: F401
except ImportError:  # pragma: no cover - depends on how the tests are run
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

sys.path.insert(0, str(Path(__file__).resolve().parent))  # tests/helpers.py
