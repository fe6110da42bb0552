"""ci/listed.py REQUIREMENTS NAME: print 1 when the requirements file lists NAME for the
interpreter running this script (no environment marker, or one that holds), else 0.

make test, make test-matrix and make test-wheels set UUIDX_REQUIRE_ARROW from it: a library the
requirements install for this interpreter must be there (a missing one fails the tests that need
it), one they leave out (pyarrow and the rest on CPython 3.15, which they publish no wheels for
yet) skips those tests, saying so. Markers are evaluated by `packaging`, which pytest depends on.
"""

from __future__ import annotations

import sys

from packaging.requirements import Requirement


def listed(path: str, name: str) -> bool:
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line or line.startswith("-"):
                continue
            req = Requirement(line)
            if req.name.lower() == name.lower():
                return req.marker is None or req.marker.evaluate()
    return False


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: ci/listed.py REQUIREMENTS NAME")
    print(int(listed(sys.argv[1], sys.argv[2])))
