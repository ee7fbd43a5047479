"""Several documents in one ``doctrans translate`` call: which file goes where, and how they are
translated together (``--batch-docs N``: as the rows of one batch, :class:`BatchScheduler`).

:func:`plan_outputs` runs before a model is loaded, so a wrong path costs nothing:

- a folder given as input is searched recursively for the supported suffixes (hidden files and
  folders, and doctrans' own temp/progress files, are skipped) and mirrored into the output
  directory (``in/sub/a.docx`` -> ``OUT/sub/a.docx``);
- several inputs, a folder, an existing directory or a path typed ending in a separator (the CLI's
  ``named_folder``: a Path has lost it) mean an output
  directory (created if needed);
- every output location is checked for writability up front (pipeline.check_output_location).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from doctrans.errors import UserError

if TYPE_CHECKING:
    from doctrans.engine.interface import DocumentSession, MemoryState, SentenceResult, Translator
    from doctrans.glossary import Glossary
    from doctrans.translate_job import Interrupted


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


def plan_outputs(inputs: list[Path], output: Path, named_folder: bool = False) -> list[tuple[Path, Path]]:
    """Pair each input document with its output path (see the module docstring); ``named_folder``:
    the user named ``output`` as a directory (``-o out/``)."""
    from doctrans.documents import adapter_for
    from doctrans.pipeline import check_output_location

    folders = [p for p in inputs if p.is_dir()]
    as_dir = len(inputs) > 1 or bool(folders) or output.is_dir() or named_folder
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


# -- several documents as the rows of one batch (translate --batch-docs N) -------------------------
#
# A document's sentences are sequential (each reads the memory the one before wrote); several
# documents are not, so their sentence i can go through the model together (doctrans.engine.batch).
# Everything else about a document stays exactly what a one-document run does: each document runs
# the ordinary translate_job.translate_file -- reading, segmenting, resume, checkpoints, TM, the
# check for --report, the writer and the atomic rename -- in a thread of its own, and its session
# is a stand-in (_RowSession) that hands each sentence to the main thread and waits. The main
# thread runs one step when every running document is waiting for its next sentence, then answers
# them all. Documents start in input order as rows come free, so which documents share a step is
# the same on every run (an int8 model's rounding depends a little on its batch companions).
# Signals reach the main thread only: on Ctrl-C/SIGTERM it wakes every waiting document with the
# interrupt, so each saves its own progress file as a one-document run would.

@dataclass
class _Ask:
    """One request of a document thread to the main thread, and its answer."""

    kind: str  # "translate", or "force" (a TM hit written into the memory)
    args: tuple[Any, ...]
    done: bool = False
    value: Any = None
    error: BaseException | None = None


class RowHooks:
    """What a document's job, running in its own thread, uses to reach the batch."""

    def __init__(self, scheduler: BatchScheduler, row: int) -> None:
        self._scheduler, self.row = scheduler, row

    def translator(self, tr: Translator) -> Translator:
        """``tr`` whose document sessions translate through the batch."""
        return cast("Translator", _RowTranslator(tr, self._scheduler, self.row))


class _RowTranslator:
    """A translator whose ``new_document`` sessions are rows of the batch; everything else (languages,
    token counts, glossary) is the wrapped translator's."""

    def __init__(self, tr: Translator, scheduler: BatchScheduler, row: int) -> None:
        self._tr, self._scheduler, self._row = tr, scheduler, row

    def __getattr__(self, name: str) -> Any:
        return getattr(self._tr, name)

    def with_glossary(self, glossary: Glossary | None) -> Translator:
        """Still a row of the batch (the job adds the document's code names: doctrans.code_names);
        the wrapped translator's own would translate outside it."""
        with_glossary = getattr(self._tr, "with_glossary", None)
        if with_glossary is None:  # an engine without glossaries: as it is
            return cast("Translator", self)
        return cast("Translator", _RowTranslator(with_glossary(glossary), self._scheduler, self._row))

    def new_document(self, memory: MemoryState | None = None, **options: Any) -> _RowSession:
        return _RowSession(self._tr.new_document(memory, **options), self._scheduler, self._row)


class _RowSession:
    """A document session whose sentences are translated by the main thread's batch step."""

    def __init__(self, session: DocumentSession, scheduler: BatchScheduler, row: int) -> None:
        self.session, self._scheduler, self._row = session, scheduler, row

    def translate(self, sentence: str) -> SentenceResult:
        return cast("SentenceResult", self._scheduler.ask(self._row, "translate", self.session, sentence))

    def force(self, sentence: str, translation: str) -> SentenceResult:
        return cast("SentenceResult", self._scheduler.ask(self._row, "force", self.session, sentence, translation))

    @property
    def memory(self) -> MemoryState:
        # Read between two requests of this row: the main thread touches a session only while
        # its row is waiting.
        return self.session.memory


def _interrupt_like(e: BaseException) -> KeyboardInterrupt:
    """A fresh interrupt for one document thread (each raises its own): the same signal for a
    Ctrl-C/SIGTERM/SIGHUP, Ctrl-C for anything else that stopped the main thread."""
    from doctrans.signals import Terminated

    return Terminated(e.signum) if isinstance(e, Terminated) else KeyboardInterrupt()


class BatchScheduler:
    """Runs document jobs in threads, up to ``rows`` at a time, and their sentences as one batch.

    :meth:`run` is called on the main thread: ``start(i, hooks)`` (main thread) prepares document
    ``i`` -- opens the model, identifies the language -- and returns the job to run in the
    document's thread (it translates through ``hooks.translator(...)``); ``finish(i, outcome)``
    (main thread) gets the job's return value or its exception, in the order the documents end.
    A document failing never stops the others.
    """

    def __init__(self, rows: int) -> None:
        if rows < 1:
            raise ValueError(f"rows must be >= 1, got {rows}")
        self.rows = rows
        self._cond = threading.Condition()
        self._asks: dict[int, _Ask] = {}  # row -> its open request
        self._live: set[int] = set()  # rows whose document thread is running
        self._ended: list[tuple[int, int, Any]] = []  # (row, document, outcome), not yet handed to finish
        self._stop: BaseException | None = None

    # -- the document threads' side ---------------------------------------------------------------
    def ask(self, row: int, kind: str, *args: Any) -> Any:
        ask = _Ask(kind, args)
        with self._cond:
            if self._stop is not None:
                raise _interrupt_like(self._stop)
            self._asks[row] = ask
            self._cond.notify_all()
            while not ask.done:
                self._cond.wait()
        if ask.error is not None:
            raise ask.error
        return ask.value

    # -- the main thread's side -------------------------------------------------------------------
    def run(self, count: int, start: Callable[[int, RowHooks], Callable[[], Any]],
            finish: Callable[[int, Any], None]) -> None:
        threads: dict[int, threading.Thread] = {}
        free = list(range(self.rows))
        following = 0
        try:
            while True:
                for row, i, outcome in self._take_ended():
                    threads.pop(row).join()
                    free.append(row)
                    finish(i, outcome)
                free.sort()
                while free and following < count:  # in input order, into the lowest free row
                    i, following = following, following + 1
                    try:
                        job = start(i, RowHooks(self, free[0]))
                    except Exception as e:
                        finish(i, e)
                        continue
                    self._launch(threads, free.pop(0), i, job)
                if not threads:
                    return
                asks = self._wait()
                if asks is not None:  # None: a document ended, its row takes the next one first
                    self._step(asks)
        except BaseException as e:
            self._halt(e)
            for thread in threads.values():
                if thread.ident is not None:  # started
                    thread.join()
            for _row, i, outcome in self._take_ended():
                finish(i, outcome)
            raise

    def _launch(self, threads: dict[int, threading.Thread], row: int, i: int, job: Callable[[], Any]) -> None:
        def body() -> None:
            outcome: Any
            try:
                outcome = job()
            except BaseException as e:  # the document's failure, for finish() on the main thread
                outcome = e
            with self._cond:
                self._live.discard(row)
                self._ended.append((row, i, outcome))
                self._cond.notify_all()

        # In ``threads`` before it starts: a signal arriving in between still finds it to join.
        threads[row] = threading.Thread(target=body, name=f"doctrans-doc-{i}", daemon=True)
        with self._cond:
            self._live.add(row)
        threads[row].start()

    def _take_ended(self) -> list[tuple[int, int, Any]]:
        with self._cond:
            ended, self._ended = self._ended, []
        return ended

    def _wait(self) -> dict[int, _Ask] | None:
        """Every running document's next sentence, once all of them are waiting; None as soon as
        a document has ended."""
        with self._cond:
            while True:
                if self._ended:
                    return None
                if self._live and self._live <= set(self._asks):
                    return dict(self._asks)
                # A timeout, so that a signal is handled promptly however the lock wait behaves.
                self._cond.wait(0.25)

    def _answer(self, outcomes: dict[int, tuple[Any, BaseException | None]], asks: dict[int, _Ask]) -> None:
        with self._cond:
            for row, (value, error) in outcomes.items():
                ask = asks[row]
                ask.value, ask.error, ask.done = value, error, True
                del self._asks[row]
            self._cond.notify_all()

    def _step(self, asks: dict[int, _Ask]) -> None:
        """Every waiting row's sentence: the ONNX sessions of one model and options as one batch
        (doctrans.engine.batch), anything else (a TM hit, another engine) one row at a time. If a
        batch fails, its rows are run one by one, so the error lands on the document that has it."""
        groups: dict[Hashable, list[int]] = {}
        alone: list[int] = []
        for row, ask in sorted(asks.items()):
            key = _batch_key(ask.args[0]) if ask.kind == "translate" else None
            (groups.setdefault(key, []) if key is not None else alone).append(row)
        outcomes: dict[int, tuple[Any, BaseException | None]] = {}
        for rows in groups.values():
            if len(rows) == 1:
                alone += rows
                continue
            from doctrans.engine.batch import translate_rows

            try:
                results = translate_rows([asks[r].args[0] for r in rows], [asks[r].args[1] for r in rows])
            except Exception:
                alone += rows  # one by one: the failing document gets the error, the others go on
                continue
            outcomes.update({r: (res, None) for r, res in zip(rows, results, strict=True)})
        for row in sorted(alone):
            ask = asks[row]
            session, *args = ask.args
            try:
                outcomes[row] = (session.force(*args) if ask.kind == "force" else session.translate(*args), None)
            except Exception as e:
                outcomes[row] = (None, e)
        self._answer(outcomes, asks)

    def _halt(self, e: BaseException) -> None:
        """Stop: every waiting document gets the interrupt (and saves its progress), as does any
        document that asks later."""
        with self._cond:
            self._stop = e
            for ask in self._asks.values():
                if not ask.done:
                    ask.error, ask.done = _interrupt_like(e), True
            self._asks.clear()
            self._cond.notify_all()


def _batch_key(session: Any) -> Hashable | None:
    if type(session).__module__ != "doctrans.engine.onnx_engine":
        return None  # not an ONNX session: never import the engine for a fake one
    from doctrans.engine.batch import batch_key

    return batch_key(session)


def interrupted_together(stopped: list[Interrupted], signal: BaseException) -> BaseException:
    """The one error line of a batched run that a signal stopped: every document that was running
    saved its own progress file (translate_job.translate_file did, as in a one-document run)."""
    from doctrans.signals import Terminated, signal_name
    from doctrans.translate_job import Interrupted

    saved = [s for s in stopped if s.sentences]
    if len(saved) == 1 or (stopped and not saved):  # one document's line, as a one-document run says it
        return saved[0] if saved else stopped[0]
    if not stopped:
        return signal  # no document was running: nothing was saved or lost
    name = signal_name(signal)
    what = "interrupted" if name == "SIGINT" else f"stopped by {name}"
    exit_code = signal.exit_code if isinstance(signal, Terminated) else 130
    files = ", ".join(f"{s.progress_file} ({s.sentences} sentences)" for s in saved)
    others = len(stopped) - len(saved)
    message = (f"{what}; progress of {len(saved)} documents saved to {files}"
               + (f" ({others} more had not finished a sentence)" if others else "")
               + " -- run the same command with --resume to continue")
    together = Interrupted(saved[0].progress_file, sum(s.sentences for s in saved), name, exit_code)
    together.args = (message,)  # the one line for all of them
    return together
