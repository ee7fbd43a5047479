"""The long fuzz campaign of issue 16, outside CI: ``python -m tests.fuzz_campaign [N] [SEED]``.

N mutants (default 20,000) of each of docx and pdf, through tests/fuzz_docs.py's check: every
mutant must end in an output or a UserError. Prints progress every 1,000 mutants and a JSON
summary; escaping mutants are kept in ./fuzz-escapes/<format>/ to reproduce them.
"""

from __future__ import annotations

import json
import sys

from tests.fuzz_docs import campaign


def main(argv: list[str]) -> int:
    n = int(argv[0]) if argv else 20_000
    seed = int(argv[1]) if len(argv) > 1 else 2016
    results = [campaign(fmt, n, seed, report=lambda line: print(line, flush=True)) for fmt in ("docx", "pdf")]
    print(json.dumps(results, indent=2))
    return 1 if any(r["escapes"] for r in results) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
