"""Which file goes where in one ``doctrans translate`` call: files, folders, an output directory.

Everything here runs before a model is loaded, so a wrong path costs nothing:

- a folder given as input is searched recursively for the supported suffixes (hidden files and
  folders, and doctrans' own temp/progress files, are skipped) and mirrored into the output
  directory (``in/sub/a.docx`` -> ``OUT/sub/a.docx``);
- several inputs, a folder, an existing directory or a path ending in a separator mean an output
  directory (created if needed);
- every output location is checked for writability up front (pipeline.check_output_location).
"""

from __future__ import annotations

import os
from pathlib import Path

from doctrans.errors import UserError


def find_documents(folder: Path) -> list[Path]:
    """Supported documents under ``folder``, in a stable (sorted) order."""
    from doctrans.documents import SUFFIXES

    found = []
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            if name.startswith(".") or name.endswith(".doctrans-progress.npz"):
                continue
            if Path(name).suffix.lower() in SUFFIXES:
                found.append(Path(root) / name)
    return found


def plan_outputs(inputs: list[Path], output: Path) -> list[tuple[Path, Path]]:
    """Pair each input document with its output path (see the module docstring)."""
    from doctrans.documents import adapter_for
    from doctrans.pipeline import check_output_location

    folders = [p for p in inputs if p.is_dir()]
    as_dir = len(inputs) > 1 or bool(folders) or output.is_dir() or str(output).endswith((os.sep, "/"))
    pairs: list[tuple[Path, Path]] = []
    for src in inputs:
        if not src.exists():
            raise UserError(f"{src}: no such file")
        if src.is_dir():
            docs = find_documents(src)
            if not docs:
                raise UserError(f"{src}: a folder with no documents to translate (looked for "
                                f"{', '.join(sorted(_suffixes()))})")
            if output.resolve() == src.resolve() or src.resolve() in output.resolve().parents:
                raise UserError(f"{output}: the output directory must not be inside the input folder {src}")
            pairs += [(doc, output / doc.relative_to(src)) for doc in docs]
            continue
        adapter_for(src)  # unsupported suffix: fail before loading the model
        pairs.append((src, output / src.name if as_dir else output))
    for src, dst in pairs:
        adapter_for(dst)
        if dst.exists() and dst.resolve() == src.resolve():
            raise UserError(f"{dst}: the output must not be the input file (it is never overwritten)")
    names = [dst for _, dst in pairs]
    if len(set(names)) != len(names):
        raise UserError("two inputs have the same file name; they would overwrite each other's output")
    if as_dir:
        if output.exists() and not output.is_dir():
            raise UserError(f"{output}: several inputs need an output directory, but this is a file")
        for folder in sorted({dst.parent for dst in names}):
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise UserError(f"{folder}: cannot create the output directory ({e.strerror or e})") from None
    for folder in {dst.parent: dst for dst in names}.values():
        check_output_location(folder)
    for dst in names:
        if dst.is_dir():
            raise UserError(f"{dst}: is a directory; give a file name or several inputs")
    return pairs


def _suffixes() -> list[str]:
    from doctrans.documents import SUFFIXES

    return list(SUFFIXES)
