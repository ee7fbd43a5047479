"""The doctrans Textual application: translate a document and inspect its memory.

Threading: the memory loop runs in a thread worker (ONNX Runtime releases the GIL, so the UI
stays responsive); each finished sentence is handed to the UI thread with ``call_from_thread``
and applied there, so :class:`DocumentState` is only ever modified on the UI thread. Every run
has an id; a cancelled or superseded run (an edit restarts the loop) may still finish the
sentence it was in, and that late result is dropped by its stale id.

Translation memory (``--tm`` / ``--local-tm``): exact matches are taken by the loop itself
(forced, marked ``TM 100%``). Fuzzy matches are *suggestions* for the selected sentence, in a
panel under the list: looked up in another thread worker (5-15 ms each, more the first time a
store builds its fuzzy index) and cached per sentence, so moving through the list never waits
on the store; a suggestion the person accepts (1-3) goes through the edit path (forced into the
memory, kept by re-runs, marked ``TM 87% ✎``). The model never reads them.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.screen import ModalScreen
from textual.widgets import Footer, Header, OptionList, ProgressBar, Static
from textual.widgets.option_list import Option
from textual.worker import Worker, WorkerState, get_current_worker

from doctrans.code_names import keeping_code_names
from doctrans.document_names import keeping_document_names
from doctrans.documents.base import Document
from doctrans.engine.interface import Translator
from doctrans.errors import UserError
from doctrans.tm.fuzzy import FuzzyMatch
from doctrans.tm.run import RunTM
from doctrans.tui.screens import EditScreen, HelpScreen, MemoryViewer, OpenScreen, QuitScreen, SaveScreen
from doctrans.tui.state import DocumentState, Step, translator_for
from doctrans.tui.widgets import WARNING_MARK, sentence_row, suggestions_view

SUGGESTIONS = 3  # fuzzy TM matches shown for the selected sentence, keys 1..3
PREFETCH = 2  # sentences after the selected one whose suggestions are looked up with it


class DoctransApp(App[None]):
    TITLE = "doctrans"
    CSS = """
    #sentences { height: 1fr; border: none; }
    #sentences > .option-list--option-highlighted { text-style: none; }
    #statusbar { height: 1; background: $panel; }
    #status { width: 1fr; padding: 0 1; }
    #progress { width: 32; }
    #empty { height: 1fr; content-align: center middle; color: $text-muted; }
    #suggestions { height: auto; max-height: 9; padding: 0 1; border-top: solid $panel-lighten-2; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("v", "viewer", "Memory", show=False),
        Binding("e", "edit", "Edit"),
        Binding("s", "save", "Save"),
        Binding("t", "translate", "Translate"),
        Binding("c", "cancel", "Cancel"),
        Binding("r", "restart", "Restart", show=False),
        Binding("o", "open", "Open", show=False),
        Binding("1", "use_suggestion(0)", "Use TM"),  # shown with a TM only (check_action)
        Binding("2", "use_suggestion(1)", "Use TM 2", show=False),
        Binding("3", "use_suggestion(2)", "Use TM 3", show=False),
        Binding("question_mark,f1", "help", "Help"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self, translator: Translator, path: Path | None = None, *, src_lang: str | None = None,
                 clock: Callable[[], float] = time.perf_counter, autostart: bool = True,
                 tm: RunTM | None = None, document: Document | None = None) -> None:
        super().__init__()
        self.translator = translator
        self.tm = tm  # --tm / --local-tm: exact matches are taken, not translated (doctrans.tm)
        self.path = Path(path) if path is not None else None
        self.src_lang = src_lang  # of ``path`` only; files opened later are identified
        self._document = document  # ``path`` as the CLI read it (to identify its language), or None
        self.state: DocumentState | None = None
        self.clock = clock  # injectable: the snapshot tests need a deterministic tokens/s
        self.autostart = autostart
        self._run_id = 0
        self._running_at: int | None = None  # sentence the current run is translating
        self._run_tokens = 0
        self._run_t0 = 0.0
        self._tps = 0.0
        self._message = ""
        # Fuzzy TM matches by (source language, target language, sentence): looked up once.
        self._suggestions: dict[tuple[str, str, str], list[FuzzyMatch]] = {}
        self._looking_up: set[tuple[str, str, str]] = set()  # asked of the suggestion worker, not back yet
        self._suggest_error: str | None = None  # a lookup failed (a damaged TM): not asked again

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("No document open. Press o to open one.", id="empty")
        yield OptionList(id="sentences")
        yield Static(id="suggestions")
        with Horizontal(id="statusbar"):
            yield Static(id="status")
            yield ProgressBar(id="progress", show_eta=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#sentences").display = False
        self.query_one("#suggestions").display = False
        self._show_direction()
        if self.path is not None:
            document, self._document = self._document, None  # read once: handed over, not kept
            self.load(self.path, self.src_lang, document)
        else:
            self.action_open()

    # -- documents ----------------------------------------------------------------------------
    def load(self, path: Path, src_lang: str | None = None, document: Document | None = None) -> bool:
        try:
            state = DocumentState.open(path, self.translator, src_lang, document)
        except UserError as e:  # DocumentError is one: a clear line, the app stays usable
            self.notify(str(e), title="Cannot open", severity="error", timeout=8)
            return False
        self.cancel_run()
        self._follow_language(state)
        self.state = state
        self.path = Path(path)
        self.title = f"doctrans \u2014 {self.path.name}"
        self.query_one("#empty").display = False
        options = self.query_one("#sentences", OptionList)
        options.display = True
        options.clear_options()
        options.add_options([Option(self._row(s.index), id=f"s{s.index}") for s in state.sentences])
        options.highlighted = 0
        options.focus()
        self.query_one("#progress", ProgressBar).update(total=len(state.sentences), progress=0)
        self._message = ""
        self.update_status()
        self.query_one("#suggestions").display = self.tm is not None
        self.show_suggestions()
        if self.autostart:
            self.start_run(0)
        return True

    def _show_direction(self) -> None:
        self.sub_title = f"{self.translator.src_lang} \u2192 {self.translator.tgt_lang}"

    def _follow_language(self, state: DocumentState) -> None:
        """A bidirectional bundle: translate the opened document from its own language (the
        running loop was cancelled, so no worker still uses the previous direction)."""
        translator = translator_for(self.translator, state.src_lang)
        if translator is not self.translator:
            self.translator = translator
            state.tgt_lang = translator.tgt_lang
            self._show_direction()

    def _row(self, i: int) -> Table:
        state = self.state
        assert state is not None
        s = state.sentences[i]
        first = state.block_sentences[s.block][0] == i
        return sentence_row(s, state.blocks[s.block], first, running=self._running_at == i)

    def refresh_rows(self, indices: range | list[int]) -> None:
        options = self.query_one("#sentences", OptionList)
        for i in indices:
            options.replace_option_prompt(f"s{i}", self._row(i))

    def selected(self) -> int | None:
        options = self.query_one("#sentences", OptionList)
        if self.state is None or options.highlighted is None:
            return None
        option = options.get_option_at_index(options.highlighted)
        return int(option.id[1:]) if option.id else None

    def highlight_sentence(self, i: int) -> None:
        options = self.query_one("#sentences", OptionList)
        options.highlighted = options.get_option_index(f"s{i}")

    # -- the memory loop ----------------------------------------------------------------------
    @property
    def running(self) -> bool:
        return self._running_at is not None

    def start_run(self, start: int) -> None:
        """(Re)start the loop at sentence ``start``, from the memory that sentence was read with."""
        state = self.state
        assert state is not None
        self._run_id += 1
        state.mark_stale_from(start)
        self._running_at = start
        self._run_tokens, self._run_t0, self._tps = 0, self.clock(), 0.0
        self._message = ""
        self.refresh_rows(range(start, len(state.sentences)))
        self.update_status()
        self.run_worker(partial(self._memory_loop, self._run_id, start), name="translate", group="translate",
                        thread=True, exclusive=True, exit_on_error=False)

    def _memory_loop(self, run_id: int, start: int) -> None:
        """Worker thread: run the memory loop, hand each sentence to the UI thread."""
        worker = get_current_worker()
        state = self.state
        assert state is not None

        def cancelled() -> bool:
            return worker.is_cancelled or run_id != self._run_id

        try:
            lookup = self.tm.lookup(self.translator.src_lang, self.translator.tgt_lang) if self.tm else None
            # The document's code names kept as written and its people's names in pinyin, as
            # `doctrans translate` writes them.
            translator = keeping_document_names(keeping_code_names(self.translator, state.blocks), state.blocks,
                                                self.translator.src_lang)
            for step in state.run(translator, start, cancelled, lookup):
                if cancelled():
                    return
                self.call_from_thread(self._on_step, run_id, step)
            if not cancelled():
                self.call_from_thread(self._on_run_end, run_id)
        except RuntimeError:
            # call_from_thread once the app has shut down (quit while a sentence was in flight):
            # nobody is left to show the result to.
            if self.is_running:
                raise

    def _on_step(self, run_id: int, step: Step) -> None:
        state = self.state
        if run_id != self._run_id or state is None:
            return
        state.apply(step)
        self._run_tokens += len(step.result.src_tokens) or self.translator.count_tokens(step.result.source)
        self._tps = self._run_tokens / max(1e-6, self.clock() - self._run_t0)
        nxt = step.index + 1
        self._running_at = nxt if nxt < len(state.sentences) else None
        self.refresh_rows([i for i in (step.index, nxt) if i < len(state.sentences)])
        self.update_status()
        if step.index == self.selected():
            self.show_suggestions()  # the ✓ follows the sentence's translation
        if isinstance(self.screen, MemoryViewer):
            self.screen.sentence_translated(step.index)

    def _on_run_end(self, run_id: int) -> None:
        if run_id != self._run_id:
            return
        self._running_at = None
        self._message = "done"
        self.update_status()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group == "suggest" and event.state is WorkerState.ERROR:
            self._suggest_error = f"TM suggestions: {event.worker.error}"
            self.show_suggestions()
            self.notify(str(event.worker.error), title="TM suggestions failed", severity="error", timeout=10)
            return
        if event.worker.group == "translate" and event.state is WorkerState.ERROR:
            self._running_at = None
            self._message = "failed"
            self.update_status()
            error = event.worker.error
            self.notify(f"{type(error).__name__}: {error}", title="Translation failed", severity="error",
                        timeout=10)

    def cancel_run(self) -> None:
        self._run_id += 1  # the worker sees a new id and stops after its current sentence
        self.workers.cancel_group(self, "translate")
        if self._running_at is not None and self.state is not None:
            was = self._running_at
            self._running_at = None
            self.refresh_rows([was])

    def update_status(self) -> None:
        state = self.state
        if state is None:
            return
        done = sum(1 for s in state.sentences if s.done)
        n = len(state.sentences)
        edits = sum(1 for s in state.sentences if s.edited)
        parts = [f"{done}/{n} sentences"]
        if self.running:
            parts.append(f"{self._tps:.0f} tok/s")
            parts.append("translating")
        elif self._message:
            parts.append(self._message)
        if edits:
            parts.append(f"{edits} edited")
        warned = sum(1 for s in state.sentences if s.warnings and s.done)
        if warned:  # sentences whose translation lacks a figure, code or term of the source
            parts.append(f"{WARNING_MARK} {warned} to check")
        if state.dirty:
            parts.append("unsaved")
        elif state.saved_to is not None:
            parts.append(f"saved to {state.saved_to.name}")
        self.query_one("#status", Static).update(" \u00b7 ".join(parts))
        self.query_one("#progress", ProgressBar).update(total=n, progress=done)

    # -- TM suggestions -----------------------------------------------------------------------
    def _suggestion_key(self, i: int) -> tuple[str, str, str]:
        assert self.state is not None
        return self.translator.src_lang, self.translator.tgt_lang, self.state.sentences[i].source

    def suggestions_for(self, i: int) -> list[FuzzyMatch] | None:
        """The fuzzy matches of sentence ``i`` if they have been looked up (None: not yet)."""
        return self._suggestions.get(self._suggestion_key(i))

    def show_suggestions(self) -> None:
        """Show the selected sentence's suggestions, from the cache or, the first time, after a
        lookup in a thread worker (the panel says it is looking them up meanwhile)."""
        i = self.selected()
        state = self.state
        if self.tm is None or state is None or i is None:
            return
        if self._suggest_error is not None:
            self.query_one("#suggestions", Static).update(Text(self._suggest_error, style="bold red"))
            return
        matches = self.suggestions_for(i)
        s = state.sentences[i]
        self.query_one("#suggestions", Static).update(
            suggestions_view(i, s.source, matches, s.translation, SUGGESTIONS))
        wanted = [self._suggestion_key(j) for j in range(i, min(len(state.sentences), i + 1 + PREFETCH))]
        wanted = [k for k in dict.fromkeys(wanted) if k not in self._suggestions]
        if wanted and not set(wanted) <= self._looking_up:
            self._looking_up = set(wanted)
            # Exclusive: moving on cancels the lookups for sentences no longer selected (the one
            # in flight finishes and is cached).
            self.run_worker(partial(self._look_up_suggestions, wanted), name="suggest", group="suggest",
                            thread=True, exclusive=True, exit_on_error=False)

    def _look_up_suggestions(self, keys: list[tuple[str, str, str]]) -> None:
        """Worker thread: the fuzzy matches of each (src, tgt, sentence), handed to the UI thread."""
        worker = get_current_worker()
        assert self.tm is not None
        try:
            for src, tgt, source in keys:
                if worker.is_cancelled:
                    return
                find = self.tm.suggest(src, tgt, limit=SUGGESTIONS)
                found = find(source) if find is not None else []
                self.call_from_thread(self._on_suggestions, (src, tgt, source), found)
        except RuntimeError:
            if self.is_running:  # else: the app has shut down meanwhile, nobody to show them to
                raise

    def _on_suggestions(self, key: tuple[str, str, str], matches: list[FuzzyMatch]) -> None:
        self._suggestions[key] = matches
        self._looking_up.discard(key)
        i = self.selected()
        if i is not None and self._suggestion_key(i) == key:
            self.show_suggestions()

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self.show_suggestions()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The suggestion keys exist with a TM, on the main screen (where the panel is)."""
        if action == "use_suggestion":
            return self.tm is not None and self.state is not None and not isinstance(
                self.screen, (MemoryViewer, ModalScreen))
        return True

    def action_use_suggestion(self, n: int) -> None:
        """Take suggestion ``n`` as the selected sentence's translation, as an edit would."""
        i = self.selected()
        state = self.state
        if self.tm is None or state is None or i is None:
            return
        matches = self.suggestions_for(i)
        if matches is None:
            self.notify("The TM suggestions of this sentence are still being looked up.", severity="warning")
            return
        if n >= len(matches):
            self.notify(f"This sentence has {len(matches) or 'no'} TM suggestion{'s' if len(matches) != 1 else ''}.",
                        severity="warning")
            return
        match = matches[n]
        if match.target == state.sentences[i].translation:
            self.notify(f"{match.label()} is the translation already.")
            return
        self._edited(i, match.target, match.label())

    # -- actions ------------------------------------------------------------------------------
    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.action_viewer()

    def action_viewer(self) -> None:
        i = self.selected()
        if i is None or self.state is None:
            return
        self.push_screen(MemoryViewer(self.state, i))

    def on_memory_viewer_sentence_changed(self, message: MemoryViewer.SentenceChanged) -> None:
        """The viewer moved to another sentence: the list follows it."""
        self.highlight_sentence(message.index)

    def action_edit(self) -> None:
        i = self.selected()
        state = self.state
        if i is None or state is None:
            return
        s = state.sentences[i]
        if s.translation is None:
            self.notify("This sentence is not translated yet.", severity="warning")
            return
        later = len(state.sentences) - i - 1
        self.push_screen(EditScreen(i, s.source, s.translation, later), partial(self._edited, i))

    def _edited(self, i: int, text: str | None, tm_label: str | None = None) -> None:
        """A person's translation of sentence ``i``: typed (``e``), or an accepted TM suggestion
        (``tm_label``: its score)."""
        state = self.state
        if text is None or state is None:
            return
        if not state.edit(i, text, tm_label):
            return
        # Later sentences read the memory this one writes: re-run the loop from the earliest
        # sentence that is out of date (an edit before a run's position moves the run back; a
        # suggestion taken for a sentence the loop has not reached yet continues it from there).
        pending = state.first_pending()
        start = min(j for j in (i, self._running_at, pending) if j is not None)
        later = len(state.sentences) - i - 1
        what = "edited" if tm_label is None else f"takes the {tm_label} match"
        self.notify(f"Sentence {i + 1} {what}. Re-running the memory loop from sentence {start + 1}: "
                    f"{later} later sentence{'s' if later != 1 else ''} read this memory and may change.",
                    title="Memory loop re-runs", timeout=6)
        self.start_run(start)
        self.show_suggestions()

    def action_translate(self) -> None:
        state = self.state
        if state is None or self.running:
            return
        start = state.first_pending()
        if start is None:
            self.notify("Everything is translated. Press r to translate it all again.")
            return
        self.start_run(start)

    def action_restart(self) -> None:
        if self.state is not None:
            self.cancel_run()
            self.start_run(0)

    def action_cancel(self) -> None:
        if self.running:
            self.cancel_run()
            self._message = "cancelled (t continues)"
            self.update_status()

    def action_save(self) -> None:
        state = self.state
        if state is None:
            return
        self.push_screen(SaveScreen(state.saved_to or state.default_output()), self._save_to)

    def _save_to(self, path: Path | None, then: Callable[[], None] | None = None) -> None:
        state = self.state
        if path is None or state is None:
            return
        try:
            out = state.save(path)
        except UserError as e:
            self.notify(str(e), title="Not saved", severity="error", timeout=8)
            return
        except OSError as e:
            self.notify(f"{path}: {e.strerror or e}", title="Not saved", severity="error", timeout=8)
            return
        self.notify(f"Saved to {out}")
        self.update_status()
        if then is not None:
            then()

    def action_open(self) -> None:
        start = self.path.parent if self.path is not None else Path.cwd()
        self.push_screen(OpenScreen(start), self._opened)

    def _opened(self, path: Path | None) -> None:
        if path is None:
            return
        if self.state is not None and self.state.dirty:
            self.notify(f"Unsaved changes to {self.state.path.name} were discarded.", severity="warning")
        self.load(path)

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    async def action_quit(self) -> None:
        state = self.state
        if state is None or not state.dirty:
            self.cancel_run()
            self.exit()
            return
        what = "unsaved translations" if not any(s.edited for s in state.sentences) else "unsaved edits"
        self.push_screen(QuitScreen(f"{state.path.name} has {what}."), self._quit_choice)

    def _quit_choice(self, choice: str | None) -> None:
        state = self.state
        if choice == "quit":
            self.cancel_run()
            self.exit()
        elif choice == "save" and state is not None:
            self._save_to(state.saved_to or state.default_output(), then=self._exit_now)

    def _exit_now(self) -> None:
        self.cancel_run()
        self.exit()
