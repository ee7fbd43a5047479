"""Bring a run's results back from the device machine in parts, and put them together here.

The device tool returns at most 8 files of at most 16 MiB from ``$OUT``. ``pack`` puts
folders into one tar named NAME, cuts it into parts of at most ``--part-mib`` (15) MiB and
writes ``NAME.parts.json`` with the sha256 of every part and of the whole; ``join`` checks
each part and the whole against it and unpacks every pack it finds::

    python -m training.device_parts pack $OUT --name bundle bundle_int8=/tmp/r/bundle_int8
    python -m training.device_parts pack $OUT --name logs s1=/tmp/r/s1/logs ...
    python -m training.device_parts join /work/.device/<files_at> -o ~/runs/device_result

Separate packs so that the bundle, packed first, comes back even if a later step is cut off.
A missing, short or altered part is named in one error line; nothing is unpacked then.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import sys
import tarfile
from pathlib import Path

MANIFEST = ".parts.json"  # NAME.parts.json
MAX_FILES = 8  # what the device tool brings back, manifests included


class PartsError(Exception):
    """A pack or join that cannot be done (one line for the user)."""


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def pack(out: Path, folders: dict[str, Path], part_mib: float = 15.0, name: str = "result") -> dict:
    """Tar ``folders`` (archive name -> folder) and write the parts and parts.json into ``out``."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for arcname, folder in folders.items():
            if not folder.exists():
                raise PartsError(f"{folder}: nothing to pack")
            tar.add(folder, arcname=arcname)
    data = buf.getvalue()
    size = int(part_mib * 2**20)
    chunks = [data[i:i + size] for i in range(0, len(data), size)] or [b""]
    if len(chunks) + 1 > MAX_FILES:
        raise PartsError(f"{len(data) / 2**20:.1f} MiB makes {len(chunks)} parts of {part_mib} MiB; "
                         f"the device returns at most {MAX_FILES} files")
    out.mkdir(parents=True, exist_ok=True)
    others = [f for f in out.iterdir() if not f.name.startswith(f"{name}.")]
    if len(others) + len(chunks) + 1 > MAX_FILES:
        raise PartsError(f"{out} would hold {len(others) + len(chunks) + 1} files; "
                         f"the device returns at most {MAX_FILES}")
    for old in out.glob(f"{name}.tgz.part*"):  # an earlier pack of the same name
        old.unlink()
    parts = []
    for i, chunk in enumerate(chunks):
        part = f"{name}.tgz.part{i:02d}"
        (out / part).write_bytes(chunk)
        parts.append({"file": part, "bytes": len(chunk), "sha256": _sha256(chunk)})
    manifest = {"name": f"{name}.tgz", "bytes": len(data), "sha256": _sha256(data), "parts": parts,
                "contents": sorted(folders)}
    (out / f"{name}{MANIFEST}").write_text(json.dumps(manifest, indent=1) + "\n")
    return manifest


def join(src: Path, dest: Path) -> list[dict]:
    """Check every pack in ``src`` against its NAME.parts.json and unpack it into ``dest``."""
    manifests = sorted(src.glob(f"*{MANIFEST}"))
    if not manifests:
        raise PartsError(f"{src}: no *{MANIFEST} (was the pack phase run?)")
    return [_join_one(src, m, dest) for m in manifests]


def _join_one(src: Path, mpath: Path, dest: Path) -> dict:
    manifest = json.loads(mpath.read_text())
    chunks = []
    for p in manifest["parts"]:
        path = src / p["file"]
        if not path.is_file():
            raise PartsError(f"{path}: missing part")
        chunk = path.read_bytes()
        if len(chunk) != p["bytes"] or _sha256(chunk) != p["sha256"]:
            raise PartsError(f"{path}: {len(chunk):,} bytes, sha256 differs from {mpath.name} (transfer damaged?)")
        chunks.append(chunk)
    data = b"".join(chunks)
    if _sha256(data) != manifest["sha256"]:
        raise PartsError(f"{src}: the joined parts do not match {mpath.name}'s sha256")
    dest.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        tar.extractall(dest, filter="data")  # "data": no absolute paths, links out or devices
    return manifest


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    pk = sub.add_parser("pack", help="tar folders into parts (on the device)")
    pk.add_argument("out", type=Path)
    pk.add_argument("folders", nargs="+", help="NAME=FOLDER")
    pk.add_argument("--name", default="result", help="the pack's name (NAME.tgz.partNN, NAME.parts.json)")
    pk.add_argument("--part-mib", type=float, default=15.0)
    jn = sub.add_parser("join", help="verify and unpack parts (here)")
    jn.add_argument("src", type=Path)
    jn.add_argument("-o", "--out", type=Path, required=True)
    a = p.parse_args(argv)
    try:
        if a.cmd == "pack":
            folders = {}
            for item in a.folders:
                name, sep, folder = item.partition("=")
                if not sep:
                    raise PartsError(f"{item!r}: write NAME=FOLDER")
                folders[name] = Path(folder)
            m = pack(a.out, folders, a.part_mib, a.name)
            print(f"packed {', '.join(m['contents'])}: {m['bytes'] / 2**20:.1f} MiB in {len(m['parts'])} parts, "
                  f"sha256 {m['sha256'][:16]}")
        else:
            for m in join(a.src, a.out):
                print(f"joined {m['name']}: {len(m['parts'])} parts ({m['bytes'] / 2**20:.1f} MiB, sha256 verified) "
                      f"into {a.out}: {', '.join(m['contents'])}")
    except (PartsError, OSError, tarfile.TarError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
