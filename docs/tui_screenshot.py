"""Regenerate docs/tui-viewer.svg: the memory viewer of ``doctrans tui`` on a translated document.

    python docs/tui_screenshot.py --model BUNDLE [--document FILE] [--sentence 2] [--token 3]

Without ``--document`` a small docx in the tiny test model's vocabulary is written to a temp dir.
The screenshot in the repository shows the built-in zh-en model on ``examples/dialogue.zh.txt``:
``python docs/tui_screenshot.py --model doctrans/models/zh-en-bidirectional --document examples/dialogue.zh.txt
--sentence 5 --token 1``.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

from doctrans.engine.onnx_engine import OnnxTranslator
from doctrans.tui.app import DoctransApp

TINY_DOC = ["the cat sees a house .", "the dog runs over the tree .", "a small bird eats slowly .",
            "the red fish sleeps near the old house .", "the big dog jumps over the small cat ."]


def tiny_docx(path: Path) -> Path:
    import docx

    d = docx.Document()
    d.add_heading(TINY_DOC[0], level=1)
    for p in TINY_DOC[1:]:
        d.add_paragraph(p)
    d.save(str(path))
    return path


async def shoot(app: DoctransApp, out: Path, sentence: int, token: int, size: tuple[int, int]) -> None:
    async with app.run_test(size=size) as pilot:
        deadline = time.monotonic() + 300
        while not (app.state is not None and app.state.complete and not app.running):
            if time.monotonic() > deadline:
                raise SystemExit("the translation did not finish in 5 minutes")
            await pilot.pause(0.1)
        await pilot.press(*["down"] * (sentence - 1), "enter", *["down"] * token)
        await pilot.pause(0.2)
        app.save_screenshot(out.name, path=str(out.parent))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", type=Path, required=True, help="model bundle directory")
    ap.add_argument("--document", type=Path, help="txt/docx/pdf to translate (default: a small docx)")
    ap.add_argument("--sentence", type=int, default=2, help="sentence to view, 1-based")
    ap.add_argument("--token", type=int, default=3, help="token row to put the cursor on, 0-based")
    ap.add_argument("--size", default="120x36", help="terminal size, COLSxROWS")
    ap.add_argument("--out", type=Path, default=Path(__file__).parent / "tui-viewer.svg")
    args = ap.parse_args()
    cols, rows = (int(x) for x in args.size.lower().split("x"))
    # A bidirectional bundle opens in its first direction; the app follows the document's language.
    translator = OnnxTranslator.load_each_direction(args.model, beam_size=5)[0]
    with tempfile.TemporaryDirectory() as tmp:
        document = args.document or tiny_docx(Path(tmp) / "example.docx")
        asyncio.run(shoot(DoctransApp(translator, document), args.out.resolve(), args.sentence, args.token,
                          (cols, rows)))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
