"""The user's translation memory (TM): sentence pairs people already translated, reused verbatim.

``doctrans translate ... --tm memory.tmx`` (TMX 1.4, or a two-column CSV/TSV; repeatable) loads
the files into an in-memory store for the run; ``--local-tm`` also reads the local TM that
``doctrans tm add FILE...`` and ``doctrans translate ... --tm-update`` grow (SQLite under
``$XDG_DATA_HOME/doctrans/tm/``, ``~/.local/share/doctrans/tm/`` by default; ``DOCTRANS_TM_DIR``
overrides it). A sentence whose normalised text (:func:`normalise_key`) is in the TM for the
run's language pair is not sent to the model: the stored translation is used as it is, fed to
the document memory (``DocumentSession.force``) so later sentences read it, and counted.

Exact matches are one B-tree search on (source language, target language, normalised key).
**Fuzzy matches** (doctrans.tm.fuzzy: the CAT-tool percentage, ``TM 87%``, over an FTS5 trigram
index built on first use) are offered as suggestions: ``doctrans tm search TEXT`` and the TUI's
sentence view show them. A memory-model bundle does not read them (it was not trained with
retrieved pairs); an SMDT bundle, trained to read retrieved pairs, reads each sentence's best
fuzzy matches at or above the threshold with it (``RunTM.retriever``, doctrans.engine.smdt_engine).
"""

from doctrans.tm.fuzzy import DEFAULT_THRESHOLD, FuzzyMatch
from doctrans.tm.normalise import normalise_key, primary_language
from doctrans.tm.readers import TMError, TMFile, read_tm_file
from doctrans.tm.store import TMStore, default_tm_path

__all__ = ["DEFAULT_THRESHOLD", "FuzzyMatch", "TMError", "TMFile", "TMStore", "default_tm_path", "normalise_key",
           "primary_language", "read_tm_file"]
