"""The ``doctrans`` command line (Typer). Thin: parse, open the model, run the job, report.

Other commands (``export``, ``models``, ``tui``) are added to the same :data:`app`; wrap them in
:func:`handle_errors` (or ``with user_errors():``) so every error a user can cause ends as one
``error: ...`` line on stderr and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import contextlib
import functools
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar, cast

import typer

from doctrans.engine.interface import Translator
from doctrans.errors import UserError

if TYPE_CHECKING:
    from doctrans.documents.base import Document
    from doctrans.glossary import Glossary
    from doctrans.tm.run import RunTM
    from doctrans.translate_job import JobResult

app = typer.Typer(
    name="doctrans",
    help="Offline document translation with a recurrent-memory Transformer.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

EXIT_USER_ERROR = 2
EXIT_BUG = 1
EXIT_INTERRUPTED = 130
GLOSSARY_HELP = ("CSV or TSV file of terms: source term, target term; each occurrence is translated as "
                 "its target term exactly")
SRC_HELP = "source language (default: identified in the document); picks the installed model"
TGT_HELP = "target language; picks the model when several translate the source language"
TM_HELP = ("translation memory, TMX or two-column CSV/TSV (repeatable): a sentence found in it (exact match "
           "after whitespace and punctuation normalisation) takes its stored translation, the model is not called")

# --batch-docs: documents translated together as the rows of one batch (doctrans.batch). Default 1,
# measured (README "Speed", python -m benchmarks.batch_docs): on this project's 2-core CPU with the
# shipped int8 models at their default single thread, batching real documents is no faster (0.87-0.97x
# for N = 2-8; the small model's step is dominated by per-row work, the 10k-word output layer), and
# an int8 model's rounding moves with the batch companions. It pays with 2 threads (1.2-1.6x),
# short sentences (subtitles: 1.6x in benchmarks.vs_ctranslate2) and fp32 bundles (identical output).
BATCH_DOCS = 1
BATCH_DOCS_HELP = ("translate up to N documents at a time as the rows of one batch, each with its own memory "
                   "(faster with several threads or short sentences; an fp32 model gives the same output, an int8 "
                   "model's rounding moves a little with the other documents of the batch); 1 = one after the other")

F = TypeVar("F", bound=Callable[..., Any])


@app.callback()
def main() -> None:
    """doctrans: translate txt, docx and pdf documents offline."""


def error_line(message: str) -> None:
    """Print one ``error: ...`` line on stderr (newlines folded: one error, one line)."""
    text = " ".join(str(message).split())
    sys.stderr.write(f"error: {text}\n")
    sys.stderr.flush()


def _known_errors() -> tuple[type[BaseException], ...]:
    from doctrans.engine import BundleError

    return (UserError, BundleError)


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn known exceptions into one error line + exit code; unknown ones into one line too
    (``DOCTRANS_DEBUG=1`` re-raises them with the traceback, for bug reports)."""
    from doctrans.translate_job import Interrupted

    try:
        yield
    except typer.Exit:
        raise
    except Interrupted as e:
        error_line(str(e))
        raise typer.Exit(e.exit_code) from None
    except KeyboardInterrupt:
        error_line("interrupted")
        raise typer.Exit(EXIT_INTERRUPTED) from None
    except _known_errors() as e:
        error_line(str(e))
        raise typer.Exit(EXIT_USER_ERROR) from None
    except Exception as e:
        if os.environ.get("DOCTRANS_DEBUG"):
            raise
        # Notes: what was saved before the failure (translate_job adds where the progress went).
        notes = "".join(f"; {n}" for n in getattr(e, "__notes__", ()))
        error_line(f"unexpected {type(e).__name__}: {e} (this is a bug; rerun with DOCTRANS_DEBUG=1 "
                   f"for the traceback){notes}")
        raise typer.Exit(EXIT_BUG) from None


def handle_errors(fn: F) -> F:
    """Decorator form of :func:`user_errors` for Typer commands (keeps the signature)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with user_errors():
            return fn(*args, **kwargs)

    return cast(F, wrapper)  # functools.wraps keeps fn's signature (what Typer reads); mypy cannot see it


def open_translator(model: Path | None, src: str | None, tgt: str | None, detected: bool = False,
                    loaded: dict[Path, Translator] | None = None) -> Translator:
    """Load the model bundle: ``--model``, or the installed one for ``src`` (given, or ``detected``
    in the document) -> ``tgt``; for a bundle with several directions, the one that fits.

    ``loaded``: bundles this run has opened already (path -> translator, updated here); another
    direction of one of them shares its ONNX sessions instead of loading the model again.
    The seam tests monkeypatch to run the CLI with a fake engine. The engine is imported only
    here, so ``doctrans --help`` and input errors never pay for ONNX Runtime.
    """
    from doctrans.models_registry import pick_bundle, pick_direction

    if model is not None:
        bundle, direction = Path(model), pick_direction(Path(model), src, tgt, detected=detected)
    else:
        offer = pick_bundle(src, tgt, detected=detected)
        bundle, direction = offer.path, (offer.src_lang, offer.tgt_lang)
    if not bundle.is_dir():
        raise UserError(f"{bundle}: model bundle not found (expected a directory with model.json)")
    same_bundle = (loaded or {}).get(bundle)
    if same_bundle is not None and direction is not None and hasattr(same_bundle, "with_direction"):
        return same_bundle.with_direction(*direction)
    from doctrans.engine import load_translator

    # No direction: a one-direction bundle, which needs none (a --src that does not fit it is
    # reported by check_languages, naming what the model translates).
    chosen = {"src": direction[0], "tgt": direction[1]} if direction else {}
    try:
        translator = load_translator(bundle, **chosen)
    except ImportError as e:
        raise UserError(f"the ONNX engine cannot be loaded ({e})") from None
    if loaded is not None:
        loaded[bundle] = translator
    return translator


class Translators:
    """The translator for each input of one run: ``--model``, or the installed bundle direction for
    the source language (``--src``, else identified in the document) -- loaded once per bundle, so
    a folder of Chinese and English reports goes through zh->en and en->zh in one call, through
    two bundles or the two directions of one."""

    def __init__(self, model: Path | None, src: str | None, tgt: str | None) -> None:
        self.model, self.src, self.tgt = model, src, tgt
        self.loaded: dict[str | None, Translator] = {}
        self.bundles: dict[Path, Translator] = {}
        self.by_language = model is None or _several_directions(model)

    def for_file(self, path: Path) -> tuple[Translator, str | None, Document | None]:
        """(translator, source language or None = let the job detect it, the document if it had
        to be opened to identify its language -- pass it on so the file is read once)."""
        lang, document = self.src, None
        if self.by_language and lang is None:
            from doctrans.documents import read_document
            from doctrans.translate_job import detect_language

            document = read_document(path)
            if not any(block.text.strip() for block in document.blocks()):
                # Before the model is picked by language: an empty or damaged document is not a
                # language problem ("cannot tell the document's language" misled).
                from doctrans.errors import DocumentError

                raise DocumentError(f"{path}: the document has no text to translate")
            from doctrans.models_registry import source_languages

            lang = detect_language(document, among=source_languages(self.model, self.tgt))
        key = lang if self.by_language else None
        if key not in self.loaded:
            translator = open_translator(self.model, lang, self.tgt, detected=self.src is None, loaded=self.bundles)
            check_languages(translator, self.src, self.tgt)
            self.loaded[key] = translator
        return self.loaded[key], lang, document


def _several_directions(model: Path) -> bool:
    """Whether the ``--model`` bundle translates several directions (then the document's language
    chooses, as it chooses the bundle without --model)."""
    from doctrans.models_registry import read_installed

    installed = read_installed(Path(model))
    return installed is not None and len(installed.directions) > 1


def check_languages(translator: Translator, src: str | None, tgt: str | None) -> None:
    pair = f"{translator.src_lang}->{translator.tgt_lang}"
    if src and src != translator.src_lang:
        raise UserError(f"--src {src} does not match the model, which translates {pair}")
    if tgt and tgt != translator.tgt_lang:
        raise UserError(f"--tgt {tgt} does not match the model, which translates {pair}")


def plan_outputs(inputs: list[Path], output: str) -> list[tuple[Path, Path]]:
    """Pair each input (files; folders are searched recursively) with its output path, and check
    every output location -- all before a model is loaded (doctrans.batch). ``output`` as typed: a
    trailing slash makes it a directory for one input too (a Path would have dropped it)."""
    from doctrans.batch import plan_outputs as plan

    return plan(inputs, Path(output), named_folder=output.endswith(("/", os.sep)))


@app.command()
@handle_errors
def translate(
    inputs: Annotated[list[Path], typer.Argument(metavar="INPUT...", help="txt, md, docx or pdf files")],
    output: Annotated[str, typer.Option("-o", "--output", help="output file, or directory (several inputs, an "
                                        "existing directory, or a name ending with /)")],
    model: Annotated[Path | None, typer.Option("--model", "-m", help="model bundle directory")] = None,
    src: Annotated[str | None, typer.Option("--src", help=SRC_HELP)] = None,
    tgt: Annotated[str | None, typer.Option("--tgt", help=TGT_HELP)] = None,
    resume: Annotated[bool, typer.Option("--resume", help="continue from the progress file of an "
                                         "interrupted run")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="no progress bar")] = False,
    glossary: Annotated[Path | None, typer.Option("--glossary", "-g", help=GLOSSARY_HELP)] = None,
    report: Annotated[Path | None, typer.Option("--report", help="write the sentences whose translation lacks a "
                                                "number, code, URL or glossary term of the source to FILE "
                                                "(.json or .csv)")] = None,
    pdf_layout: Annotated[str, typer.Option("--pdf-layout", help="pdf -> pdf: 'layout' keeps every page (images, "
                                            "drawings, columns) and draws the translation in place of the text; "
                                            "'reflow' writes a new, reflowed document")] = "layout",
    tm: Annotated[list[Path] | None, typer.Option("--tm", help=TM_HELP)] = None,
    local_tm: Annotated[bool, typer.Option("--local-tm", help="also reuse the local translation memory "
                                           "(`doctrans tm add`, --tm-update)")] = False,
    tm_update: Annotated[bool, typer.Option("--tm-update", help="add each finished document's sentence pairs "
                                            "to the local translation memory")] = False,
    batch_docs: Annotated[int, typer.Option("--batch-docs", min=1, help=BATCH_DOCS_HELP)] = BATCH_DOCS,
) -> None:
    """Translate documents; the output format follows the output suffix (pdf -> docx works)."""
    from rich.console import Console

    from doctrans.documents import PDF_LAYOUTS
    from doctrans.glossary import load_glossary
    from doctrans.report import SentenceWarning, check_report_path, write_report
    from doctrans.signals import graceful_signals
    from doctrans.translate_job import Interrupted, translate_file

    if pdf_layout not in PDF_LAYOUTS:
        raise UserError(f"--pdf-layout {pdf_layout}: choose one of {', '.join(PDF_LAYOUTS)}")
    pairs = plan_outputs(inputs, output)
    check_report_path(report)
    terms = load_glossary(glossary)  # a bad glossary fails before any model is loaded
    from doctrans.tm.run import RunTM

    memory = RunTM(tm or [], use_local=local_tm, update_local=tm_update)  # so does a bad TM file
    translators = Translators(model, src, tgt)
    console = Console(stderr=True)
    mode = "off" if quiet else "bar" if console.is_terminal else "lines"
    warnings: dict[int, list[SentenceWarning]] = {}  # by input, for --report in input order
    failed: dict[int, Path] = {}

    def prepare(src_path: Path) -> tuple[Translator, str | None, Document | None]:
        translator, lang, document = translators.for_file(src_path)
        if batch_docs > 1 and len(pairs) > 1 and hasattr(translator, "with_retrieval"):
            raise UserError(f"{src_path}: an SMDT bundle translates one document at a time; leave out --batch-docs")
        return with_tm_retrieval(apply_glossary(translator, terms), memory), lang, document

    def job(i: int, translator: Translator, lang: str | None, document: Document | None,
            callbacks: tuple[Any, Any, Any], lookup: Callable[[str], str | None] | None) -> JobResult:
        on_start, on_progress, _ = callbacks
        return translate_file(pairs[i][0], pairs[i][1], translator, resume=resume, src_lang=lang, document=document,
                              on_start=on_start, on_progress=on_progress,
                              notice=lambda line: typer.echo(line, err=True), pdf_layout=pdf_layout, tm=lookup,
                              keep_pairs=tm_update)

    def done(i: int, translator: Translator, result: JobResult) -> None:
        if tm_update:
            memory.update(result.pairs, translator.src_lang, translator.tgt_lang, str(pairs[i][0]))
        warnings[i] = result.warnings
        plural = "" if result.sentences == 1 else "s"
        typer.echo(f"{pairs[i][0]} -> {result.output} ({result.sentences} sentence{plural}"
                   f"{_summary_notes(result, report)})")

    def fail(i: int, e: BaseException) -> None:
        # Several inputs: report this one (as user_errors would), go on with the others.
        with contextlib.suppress(typer.Exit), user_errors():
            raise e
        failed[i] = pairs[i][0]

    with graceful_signals():  # SIGTERM/SIGHUP save the progress like Ctrl-C
        if batch_docs > 1 and len(pairs) > 1:
            _translate_batched(len(pairs), batch_docs, console, mode, prepare, job, done, fail,
                               lambda i: pairs[i][0], memory.lookup)
        else:
            for i, (src_path, _dst) in enumerate(pairs):
                try:
                    translator, lang, document = prepare(src_path)
                    with _progress(console, src_path.name, mode) as callbacks:
                        result = job(i, translator, lang, document, callbacks,
                                     memory.lookup(translator.src_lang, translator.tgt_lang))
                        callbacks[2]()
                    done(i, translator, result)
                except Interrupted:
                    raise
                except Exception as e:
                    if len(pairs) == 1:
                        raise
                    fail(i, e)
    if report is not None:
        write_report(report, [w for i in sorted(warnings) for w in warnings[i]])
    if failed:
        names = ", ".join(str(failed[i]) for i in sorted(failed)[:10]) + (" ..." if len(failed) > 10 else "")
        error_line(f"{len(failed)} of {len(pairs)} files failed: {names}")
        raise typer.Exit(EXIT_USER_ERROR)


def _summary_notes(result: JobResult, report: Path | None) -> str:
    """What the line of a finished document adds to its sentence count: resumed sentences, TM
    matches, warnings of the check (a number, code, URL or term of the source not in its translation)."""
    resumed = result.sentences - result.translated
    note = f", {resumed} resumed" if resumed else ""
    if result.tm_hits:
        note += f", {result.tm_hits} from the translation memory"
    if result.warnings:
        where = f"listed in {report}" if report else "list them with --report FILE"
        n = len(result.warnings)
        note += f", {n} warning{'s' if n != 1 else ''}: {where}"
    return note


def _translate_batched(count: int, rows: int, console: Any, mode: str,
                       prepare: Callable[[Path], tuple[Translator, str | None, Document | None]],
                       job: Callable[..., JobResult], done: Callable[[int, Translator, JobResult], None],
                       fail: Callable[[int, BaseException], None], path: Callable[[int], Path],
                       tm_for: Callable[[str, str], Callable[[str], str | None] | None]) -> None:
    """``--batch-docs N``: up to N documents at a time, each a row of one batch (doctrans.batch).
    Each document still runs the whole one-document job (resume, TM, check, writer); a failing
    one gets its error line and the others go on; on Ctrl-C/SIGTERM every running document saves
    its progress file and one line lists them."""
    from doctrans.batch import BatchScheduler, RowHooks, interrupted_together
    from doctrans.translate_job import Interrupted

    translators: dict[int, Translator] = {}
    ends: dict[int, Callable[[], None]] = {}
    stopped: list[Interrupted] = []

    with _progress_many(console, mode) as callbacks_for:
        def start(i: int, hooks: RowHooks) -> Callable[[], JobResult]:
            translator, lang, document = prepare(path(i))  # the model is opened on the main thread
            translators[i] = translator
            lookup = tm_for(translator.src_lang, translator.tgt_lang)  # TMStore: safe from any thread
            callbacks = callbacks_for(path(i).name)
            ends[i] = callbacks[2]
            row = hooks.translator(translator)
            return lambda: job(i, row, lang, document, callbacks, lookup)

        def finish(i: int, outcome: Any) -> None:
            if isinstance(outcome, Interrupted):
                stopped.append(outcome)
            elif isinstance(outcome, KeyboardInterrupt):
                pass  # stopped before it began translating: nothing to save
            elif isinstance(outcome, BaseException):
                fail(i, outcome)
            else:
                ends[i]()
                try:
                    done(i, translators[i], outcome)
                except Exception as e:
                    fail(i, e)

        try:
            BatchScheduler(rows).run(count, start, finish)
        except KeyboardInterrupt as e:
            raise interrupted_together(stopped, e) from None


@contextmanager
def _progress(console: Any, name: str, mode: str) -> Iterator[tuple[Any, Any, Any]]:
    """A rich progress bar per document ("bar"): characters done (the total is known up front,
    unlike sentences of a streamed file), sentences, tokens/s and ETA. "lines": stderr is a log
    (CI, systemd, a pipe), where a bar would be invisible or garbage: a plain line every
    PROGRESS_LINE_SECONDS instead. "off": --quiet. Yields (on_start, on_progress, on_end): the
    job's two callbacks, and what to call once the document is written (the bar shows it full)."""
    with _progress_many(console, mode) as callbacks_for:
        yield callbacks_for(name)


@contextmanager
def _progress_many(console: Any, mode: str) -> Iterator[Callable[[str], tuple[Any, Any, Any]]]:
    """As :func:`_progress`, for documents translated together (--batch-docs): one bar per
    document in one display (rich updates it from the documents' threads), or lines per document."""
    if mode == "off":
        yield lambda _name: (None, None, lambda: None)
        return
    if mode == "lines":
        yield _line_callbacks
        return
    from rich.progress import (
        BarColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    # Lines printed while the bars are live (another document's summary, an error) go above them;
    # stdout only when it is the terminal too (a redirected stdout stays a clean list of outputs).
    progress = Progress(
        TextColumn("[bold]{task.description}"), BarColumn(),
        TextColumn("{task.fields[sentences]} sentences"), TextColumn("{task.fields[tps]:.0f} tok/s"),
        TimeRemainingColumn(), console=console, transient=False, redirect_stdout=sys.stdout.isatty(),
    )

    def callbacks(name: str) -> tuple[Any, Any, Any]:
        task = progress.add_task(name, total=None, sentences=0, tps=0.0)
        t0 = time.perf_counter()
        total = [1]

        def on_start(document: Any) -> None:
            total[0] = max(1, document.size_hint)
            progress.update(task, total=total[0])

        def on_progress(chars: int, sentences: int, tokens: int) -> None:
            elapsed = max(1e-6, time.perf_counter() - t0)
            progress.update(task, completed=chars, sentences=sentences, tps=tokens / elapsed)

        def on_end() -> None:  # the last sentence ends before the last characters (a final newline)
            progress.update(task, total=total[0], completed=total[0])

        return on_start, on_progress, on_end

    with progress:
        yield callbacks


PROGRESS_LINE_SECONDS = float(os.environ.get("DOCTRANS_PROGRESS_LINE_SECONDS", "10"))


def _line_callbacks(name: str) -> tuple[Any, Any, Any]:
    state = {"total": 0, "next": time.perf_counter() + PROGRESS_LINE_SECONDS}
    t0 = time.perf_counter()

    def on_start(document: Any) -> None:
        state["total"] = max(1, document.size_hint)

    def on_progress(chars: int, sentences: int, tokens: int) -> None:
        now = time.perf_counter()
        if now < state["next"]:
            return
        state["next"] = now + PROGRESS_LINE_SECONDS
        pct = min(100.0, 100.0 * chars / state["total"]) if state["total"] else 0.0
        sys.stderr.write(f"{name}: {pct:.0f}% ({sentences} sentences, {tokens / max(1e-6, now - t0):.0f} tok/s, "
                         f"{now - t0:.0f} s)\n")
        sys.stderr.flush()

    return on_start, on_progress, lambda: None


@app.command()
@handle_errors
def export(
    checkpoint: Annotated[Path, typer.Argument(help="a training checkpoint (.pt)")],
    output: Annotated[Path, typer.Option("-o", "--output", help="bundle directory to write")],
    quantize: Annotated[str | None, typer.Option("--quantize", help="int8: dynamically quantized bundle")] = None,
    no_repeat_ngram: Annotated[int, typer.Option("--no-repeat-ngram", min=0, help="the bundle's default: never "
                                                 "repeat an n-gram of this many tokens (0 = off)")] = 0,
    length_penalty: Annotated[float, typer.Option("--length-penalty", min=0.0, help="the bundle's default: "
                                                  "beam hypotheses scored by logprob / length ** this")] = 1.0,
    max_repeat_run: Annotated[int, typer.Option("--max-repeat-run", min=0, help="the bundle's default: no word "
                                                "piece or Han character more times in a row (0 = off)")] = 0,
) -> None:
    """Export a checkpoint to a verified ONNX model bundle (needs the `train` extra: torch)."""
    try:
        from export.bundle import export_checkpoint
    except ImportError as e:
        raise UserError(f"export needs PyTorch and onnx: pip install 'doctrans[train]' ({e})") from None
    export_checkpoint(checkpoint, output, quantize, log=lambda msg: typer.echo(msg, err=True),
                      no_repeat_ngram=no_repeat_ngram, length_penalty=length_penalty, max_repeat_run=max_repeat_run)
    typer.echo(f"wrote {output}")


@app.command()
@handle_errors
def models() -> None:
    """List the installed model bundles (languages, size, dev scores)."""
    from doctrans.bundle_manifest import read_json
    from doctrans.models_registry import describe_bundle, list_bundles

    bundles = list_bundles()
    if not bundles:
        typer.echo("no model bundles installed (see `doctrans export`, or set DOCTRANS_MODELS)")
        return
    for info in bundles:
        scores = read_json(info.path).get("scores") or {}  # lenient, like the registry's listing
        size = sum(f.stat().st_size for f in info.path.iterdir() if f.is_file())
        shown = ", ".join(f"{k} {v:.2f}" if isinstance(v, float) else f"{k} {v}" for k, v in scores.items())
        # A bidirectional bundle: every direction it offers ("zh->en, en->zh").
        typer.echo(f"{describe_bundle(info)}  {size / 1e6:6.1f} MB  {info.path}" +
                   (f"  [{shown}]" if shown else ""))


@app.command()
@handle_errors
def tui(
    file: Annotated[Path | None, typer.Argument(metavar="FILE", help="txt, md, docx or pdf file (a file picker opens "
                                                "without one)")] = None,
    model: Annotated[Path | None, typer.Option("--model", "-m", help="model bundle directory")] = None,
    src: Annotated[str | None, typer.Option("--src", help=SRC_HELP)] = None,
    tgt: Annotated[str | None, typer.Option("--tgt", help=TGT_HELP)] = None,
    glossary: Annotated[Path | None, typer.Option("--glossary", "-g", help=GLOSSARY_HELP)] = None,
    tm: Annotated[list[Path] | None, typer.Option("--tm", help=TM_HELP)] = None,
    local_tm: Annotated[bool, typer.Option("--local-tm", help="also reuse the local translation memory "
                                           "(`doctrans tm add`, --tm-update)")] = False,
) -> None:
    """Translate a document interactively and inspect what the memory wrote and read."""
    from doctrans.glossary import load_glossary
    from doctrans.tm.run import RunTM

    terms = load_glossary(glossary)
    memory = RunTM(tm or [], use_local=local_tm)  # a bad TM file: one line, before the model loads
    if file is not None:
        from doctrans.documents import adapter_for

        if not file.exists():
            raise UserError(f"{file}: no such file")
        adapter_for(file)  # unsupported suffix: fail before loading the model
        translator, lang, document = Translators(model, src, tgt).for_file(file)
    else:  # the file picker may open anything: start with the first installed model that fits
        translator = _first_fit(model, src, tgt)
        check_languages(translator, src, tgt)
        lang, document = src, None
    from doctrans.tui import run_tui

    run_tui(apply_glossary(translator, terms), file, lang, tm=memory if memory.active else None,
            document=document)  # read to identify its language: the TUI does not read it again


def apply_glossary(translator: Translator, glossary: Glossary | None) -> Translator:
    """``translator`` applying ``glossary`` (the engine masks each term and inserts its target:
    doctrans.glossary); a direction taken from it later keeps the glossary."""
    if glossary is None:
        return translator
    with_glossary = getattr(translator, "with_glossary", None)
    if with_glossary is None:
        raise UserError("this translation engine cannot apply a glossary")
    return with_glossary(glossary)


def with_tm_retrieval(translator: Translator, memory: RunTM) -> Translator:
    """An SMDT bundle (trained to read retrieved pairs: doctrans.engine.smdt_engine) reads each
    sentence's fuzzy matches from the run's TM (``--tm``/``--local-tm``) at or above the default
    threshold; a memory-model bundle is returned as it is (it was not trained with them)."""
    with_retrieval = getattr(translator, "with_retrieval", None)
    if with_retrieval is None:
        return translator
    k = int(getattr(translator, "retrieve_k", 0))
    return cast("Translator", with_retrieval(memory.retriever(translator.src_lang, translator.tgt_lang, k)))


def _first_fit(model: Path | None, src: str | None, tgt: str | None) -> Translator:
    """The TUI's translator before any document is open: the first direction (of ``model``, or of
    the installed bundles) that fits --src/--tgt. A document opened later in the other language of
    a bidirectional bundle switches direction (doctrans.tui.app)."""
    from doctrans.models_registry import matching_bundles, read_installed

    if model is not None:
        installed = read_installed(Path(model))
        found = matching_bundles(src, tgt, [installed]) if installed else []
    else:
        found = matching_bundles(src, tgt)
    if not found:  # nothing fits: open_translator says why, in the words of a translate run
        return open_translator(model, src, tgt)
    return open_translator(model or found[0].path, found[0].src_lang, found[0].tgt_lang)


tm_app = typer.Typer(name="tm", help="The local translation memory (exact matches reused by translate "
                     "--local-tm; fuzzy matches shown by tm search).",
                     no_args_is_help=True)
app.add_typer(tm_app)


@tm_app.command("add")
@handle_errors
def tm_add(
    files: Annotated[list[Path], typer.Argument(metavar="FILE...", help="TMX, or two-column CSV/TSV files")],
    src: Annotated[str | None, typer.Option("--src", help="source language (default: the TMX header's srclang, "
                                            "the CSV header's first column)")] = None,
    tgt: Annotated[str | None, typer.Option("--tgt", help="target language (default: every other language of "
                                            "a TMX unit, the CSV header's second column)")] = None,
) -> None:
    """Add translation memory files to the local TM (all files are checked before any is added)."""
    from doctrans.tm import TMStore, default_tm_path, primary_language, read_tm_file

    read = [read_tm_file(p) for p in files]
    plans: list[tuple[Path, list[tuple[str, str]], str, str]] = []
    for f in read:
        source = primary_language(src) if src else f.srclang
        if f.plain:
            if not (src and tgt):
                raise UserError(f"{f.path}: the columns' languages are not named (a header row such as 'en,de'); "
                                "give --src and --tgt")
            plans.append((f.path, f.plain, primary_language(src), primary_language(tgt)))
        if f.units:
            if source is None:
                langs = sorted(f.languages())
                raise UserError(f"{f.path}: which language is the source? give --src (the file has "
                                f"{', '.join(langs)})")
            targets = [primary_language(tgt)] if tgt else sorted(f.languages() - {source})
            for target in targets:
                pairs = list(f.pairs(source, target))
                if pairs:
                    plans.append((f.path, pairs, source, target))
        if not any(plan[0] == f.path for plan in plans):
            raise UserError(f"{f.path}: no segments for {source or '?'}->{tgt or '?'} in this file")
    store = TMStore(default_tm_path())
    for path, pairs, s, t in plans:
        n = store.add(pairs, s, t, origin=str(path))
        typer.echo(f"{path}: {n} segments {s}->{t}")
    typer.echo(f"{store.path}: {len(store)} segments")


@tm_app.command("list")
@handle_errors
def tm_list() -> None:
    """Segments per language pair in the local TM, and where it is."""
    from doctrans.tm import TMStore, default_tm_path

    path = default_tm_path()
    if not path.exists():
        typer.echo(f"no translation memory yet at {path} (doctrans tm add FILE, or translate --tm-update)")
        return
    store = TMStore(path, create=False)
    counts = store.counts()
    for s, t, n in counts:
        typer.echo(f"{s}->{t}  {n} segments")
    total = sum(n for *_, n in counts)
    typer.echo(f"{path}: {total} segments, {path.stat().st_size / 1e6:.1f} MB")


@tm_app.command("search")
@handle_errors
def tm_search(
    text: Annotated[str, typer.Argument(help="a source sentence")],
    src: Annotated[str, typer.Option("--src", help="its language")],
    tgt: Annotated[str, typer.Option("--tgt", help="the target language")],
    tm: Annotated[list[Path] | None, typer.Option("--tm", help="search these TMX/CSV/TSV files instead of the "
                                                  "local TM (repeatable)")] = None,
    threshold: Annotated[float, typer.Option("--threshold", min=1, max=100,
                                             help="lowest fuzzy-match score shown, in percent")] = 70.0,
    limit: Annotated[int, typer.Option("--limit", min=1, help="matches shown at most")] = 5,
) -> None:
    """Fuzzy matches of a sentence in the translation memory, best first, with their scores."""
    from doctrans.tm import default_tm_path
    from doctrans.tm.run import RunTM

    if not tm and not default_tm_path().exists():
        typer.echo(f"no translation memory yet at {default_tm_path()} (doctrans tm add FILE, or give --tm FILE)")
        return
    suggest = RunTM(list(tm or []), use_local=not tm).suggest(src, tgt, threshold, limit)
    found = suggest(text) if suggest is not None else []
    if not found:
        typer.echo(f"no match of {threshold:.0f}% or more")
    for m in found:
        typer.echo(f"{m.label()}\t{m.source}\t{m.target}")
