"""Renders docs/pdf_layout_before.png and docs/pdf_layout_after.png: page 2 of the test fixture
(tests/layout_fixtures.py: two columns, a ruled table, a right-aligned closing, a top-right
running header) and its German translation written by the layout-preserving PDF writer.

The "engine" is a phrase table written by hand for this page (the picture shows what the writer
does with a real translation's lengths, not what a model says). Needs pdftoppm (poppler-utils).

    python docs/pdf_layout_demo.py
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from doctrans.translate_job import translate_file  # noqa: E402
from tests.fakes import FakeTranslator  # noqa: E402
from tests.layout_fixtures import make_layout_pdf  # noqa: E402

GERMAN = {
    "ACME Ltd. · Technical Note 7": "ACME Ltd. · Technische Mitteilung 7",
    "Two Regions Compared": "Zwei Regionen im Vergleich",
    "The northern region has the oldest equipment of the company.":
        "Die Nordregion hat die ältesten Anlagen des Unternehmens.",
    "Most of its pumps were installed before the network was extended, and they need more frequent repairs.":
        "Die meisten ihrer Pumpen wurden vor dem Ausbau des Netzes eingebaut und müssen häufiger repariert werden.",
    "A replacement programme was agreed in the spring and will start next year.":
        "Ein Austauschprogramm wurde im Frühjahr beschlossen und beginnt im nächsten Jahr.",
    "The southern region bought new generators last year.":
        "Die Südregion hat im vergangenen Jahr neue Generatoren gekauft.",
    "Their first inspection found no faults, and the maintenance costs fell by a third compared with the year "
    "before.": "Bei der ersten Prüfung wurden keine Mängel gefunden, und die Wartungskosten sanken gegenüber dem "
               "Vorjahr um ein Drittel.",
    "The region also trained two new technicians this quarter.":
        "Die Region hat in diesem Quartal außerdem zwei neue Techniker ausgebildet.",
    "Both regions will report again at the end of the next quarter, using the same forms and the same checklist "
    "as this time.": "Beide Regionen berichten am Ende des nächsten Quartals erneut, mit denselben Formularen und "
                     "derselben Checkliste wie dieses Mal.",
    "Region": "Region", "North": "Nord", "South": "Süd", "Condition": "Zustand",
    "Needs repairs": "Reparaturbedürftig", "Good": "Gut",
    "Yours sincerely,": "Mit freundlichen Grüßen",
    "Peter Brown, Sales Manager": "Peter Brown, Vertriebsleiter",
}


def main() -> None:
    if shutil.which("pdftoppm") is None:
        sys.exit("pdftoppm not found (apt-get install poppler-utils)")
    with tempfile.TemporaryDirectory() as tmp:
        src, _ = make_layout_pdf(Path(tmp) / "survey.pdf")
        out = Path(tmp) / "survey.de.pdf"
        translate_file(src, out, FakeTranslator(fn=lambda s: GERMAN.get(s, s)))
        for pdf, name in ((src, "pdf_layout_before"), (out, "pdf_layout_after")):
            subprocess.run(["pdftoppm", "-png", "-r", "70", "-f", "2", "-l", "2", "-singlefile", str(pdf),
                            str(ROOT / "docs" / name)], check=True)
    print("wrote docs/pdf_layout_before.png and docs/pdf_layout_after.png")


if __name__ == "__main__":
    main()
