"""The bad-input corpus of tests/bad_inputs.py as a table: case, exit, message, input intact, leftovers.

    python -m benchmarks.bad_input_table [--markdown] [NAME-FRAGMENT...]

Each case runs in its own temp folder through the CLI in-process (fake engine, or a copy of the
shipped en->zh bundle for the bundle cases), as tests/test_bad_inputs.py does.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from tests.bad_inputs import CASES, run_case


def main(argv: list[str]) -> None:
    md = "--markdown" in argv
    wanted = [a for a in argv if not a.startswith("--")]
    if md:
        print("| case | exit | message | input intact | leftovers | s |")
        print("|---|---|---|---|---|---|")
    for case in CASES:
        if wanted and not any(w in case.name for w in wanted):
            continue
        with tempfile.TemporaryDirectory() as tmp:
            t0 = time.perf_counter()
            try:
                o = run_case(case, Path(tmp))
                row = [str(o.exit), o.message[:160].replace("|", "/"), "yes" if o.intact else "NO",
                       ", ".join(o.leftovers) or "-"]
            except Exception as e:  # a builder failing is reported, not fatal for the table
                row = ["?", f"builder failed: {type(e).__name__}: {e}"[:160], "?", "?"]
            dt = time.perf_counter() - t0
        allowed = case.exit if isinstance(case.exit, tuple) else (case.exit,)
        ok = "" if row[0] in map(str, allowed) else f" (expected {case.exit})"
        if md:
            print(f"| {case.name} | {row[0]}{ok} | {row[1]} | {row[2]} | {row[3]} | {dt:.1f} |")
        else:
            print(f"{case.name[:48]:48} {row[0]:>3}{ok} {row[2]:>3} {row[3][:30]:30} {row[1]}")
        sys.stdout.flush()


if __name__ == "__main__":
    main(sys.argv[1:])
