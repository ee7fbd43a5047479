"""The search's constraints: the stutter guard (doctrans.engine.repeats: what it bans, that the beam
search obeys it, that a bundle's model.json turns it on) and the ban on digits a source lacks."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import numpy as np
import pytest

import doctrans.engine.beam as beam_module
from doctrans.engine import BundleError
from doctrans.engine.beam import beam_search, beam_search_n_best
from doctrans.engine.onnx_engine import OnnxTranslator
from doctrans.engine.repeats import RepeatGuard
from tests.shipped_models import shipped_translator
from tests.tiny_model import shared_bundle
from tests.zh_en_corpora import write_training_document

PIECES = ["<pad>", "<s>", "</s>", "<unk>", "▁config", "config", "节", "节节", "点", "▁不", "E", "哈哈哈", "0", "⦅1⦆",
          "点节", "<0xE8>"]
ID = {p: i for i, p in enumerate(PIECES)}


def banned(seq: list[str], max_run: int = 2, echo: bool = False) -> set[str]:
    return {PIECES[i] for i in RepeatGuard(PIECES, max_run, echo=echo).banned([ID[p] for p in seq])}


def test_a_word_is_not_said_twice_in_a_row() -> None:
    """The echo guard (on by default): one word piece, or two or three lettered pieces, again at
    once (编写编写, 与相关与相关); single letters, digits, placeholders and punctuation may repeat."""
    assert banned(["config"], echo=True) == {"config"}
    assert banned(["▁config", "节", "▁config"], echo=True) == {"▁config", "节"}  # config 节 config 节
    assert banned(["config", "点", "节", "config", "点"], echo=True) == {"节"}  # the 3-piece echo
    assert banned(["点", "E", "点"], echo=True) == {"E"}  # 点E点E: lettered pieces
    assert banned(["E"], echo=True) == banned(["0"], echo=True) == banned(["⦅1⦆"], echo=True) == set()
    assert banned(["0", "点", "0"], echo=True) == set()  # a digit is no word: 0点0点 may be written
    assert RepeatGuard(PIECES, 2).echo  # the engine's guard echoes by default


def test_a_word_piece_three_times_in_a_row_is_banned_not_letters_or_digits() -> None:
    assert banned(["config"]) == set()
    assert banned(["config", "config"]) == {"config"}
    assert banned(["▁config", "config", "config"]) == {"config"}
    assert banned(["config", "config"], max_run=3) == set()
    assert banned(["E", "E", "E"]) == set()  # IEEE, U+FFFD: single letters repeat in real text
    assert banned(["0", "0", "0"]) == set()
    assert banned(["⦅1⦆", "⦅1⦆"]) == set()


def test_a_han_character_run_is_counted_across_pieces() -> None:
    assert banned([]) == set()  # a learned 哈哈哈 may start a sentence
    assert banned(["节"]) == {"节节"}  # 节 + 节节 would be three
    assert banned(["节", "节"]) == {"节", "节节"}
    assert banned(["节节"]) == {"节", "节节"}
    assert banned(["点节"]) == {"节节"}  # the run starts inside the piece: one 节
    assert banned(["节", "点节"]) == {"节节"}  # 点 breaks the run
    assert banned(["节", "▁不"]) == set()
    assert banned(["节", "<0xE8>"]) == set()  # a byte piece: not a known character, no run
    assert banned(["哈哈哈"]) == {"哈哈哈"}
    assert banned(["节"], max_run=1) == {"节", "节节"}
    with pytest.raises(ValueError):
        RepeatGuard(PIECES, 0)


def test_only_characters_chinese_doubles_run_twice() -> None:
    """With the list of doubled characters (the engine's): 节 is not on it, so 节 cannot follow 节
    at all; a listed one (谢谢) may run twice, not three times."""
    pieces = [*PIECES, "谢", "谢谢"]
    ids = {p: i for i, p in enumerate(pieces)}

    def banned_by(seq: list[str], doubles: set[str]) -> set[str]:
        return {pieces[i] for i in RepeatGuard(pieces, 2, echo=False, doubles=doubles).banned([ids[p] for p in seq])}

    assert banned_by(["节"], {"谢"}) == {"节", "节节"}
    assert banned_by(["点节"], {"谢"}) == {"节", "节节"}
    assert banned_by(["节"], {"节"}) == {"节节"}  # on the list: as without it
    assert banned_by(["谢"], {"谢"}) == {"谢谢"}
    assert banned_by(["谢", "谢"], {"谢"}) == {"谢", "谢谢"}
    assert banned_by([], set()) == set()  # a learned 节节 or 哈哈哈 piece may still be written


def test_the_engines_list_of_doubled_characters() -> None:
    """doctrans/data/han_doubles.txt (training.han_doubles): the words real Chinese doubles are on it,
    what the GPU en->zh model doubled on pydocs/django dev is not; the shipped bundle's guard uses it."""
    from doctrans.engine.repeats import han_doubles

    doubles = han_doubles()
    assert set("谢妈爸看等慢试谈听天") <= doubles
    assert not set("行组表路将时对线请数列的与") & doubles
    tr = shipped_translator("en", "zh", threads=1)
    guard = tr.tokenizer.repeat_guard(2)
    assert guard is not None and guard.doubles == doubles


class _Stammer:
    """Always wants 节 again (then 点, then EOS): what the shipped en->zh model did on TVsub."""

    def step(self, tokens: np.ndarray, t: int) -> np.ndarray:
        logits = np.full((tokens.shape[0], len(PIECES)), -10.0, dtype=np.float32)
        logits[:, ID["节"]], logits[:, ID["节节"]], logits[:, ID["点"]] = 5.0, 4.5, 4.0
        logits[:, 2] = 3.0 - 2.0 * (t < 6)
        return logits

    def reorder(self, origin: np.ndarray) -> None:
        pass


@pytest.mark.parametrize("beam", [1, 3])
def test_the_search_never_writes_a_banned_run(beam: int) -> None:
    text = "".join(PIECES[i] for i in beam_search(_Stammer(), 1, beam, [12], 1, 2)[0].tokens)
    assert re.search(r"(节)\1{2}", text)  # without the guard it stammers
    guard = RepeatGuard(PIECES, 2)
    tokens = beam_search(_Stammer(), 1, beam, [12], 1, 2, guard=guard)[0].tokens
    text = "".join(PIECES[i] for i in tokens)
    assert text and not re.search(r"(节)\1{2}", text), text
    assert beam > 1 or text.startswith("节节点")  # greedy: the best allowed piece is still chosen
    both = beam_search(_Stammer(), 1, beam, [12], 1, 2, no_repeat_ngram=2, guard=guard)[0].tokens
    assert not re.search(r"(节)\1{2}", "".join(PIECES[i] for i in both))


def test_model_json_turns_the_guard_on_and_an_option_overrides_it(tmp_path: Path) -> None:
    bundle = tmp_path / "bundle"
    shutil.copytree(shared_bundle(), bundle)

    def decoding(value: object) -> None:
        meta = json.loads((bundle / "model.json").read_text())
        meta["decoding"] = {"max_repeat_run": value}
        (bundle / "model.json").write_text(json.dumps(meta))

    assert OnnxTranslator.load(shared_bundle()).options.max_repeat_run == 0  # absent: off
    decoding(2)
    tr = OnnxTranslator.load(bundle)
    assert tr.options.max_repeat_run == 2 and OnnxTranslator.load(bundle, max_repeat_run=0).options.max_repeat_run == 0
    guard = tr.tokenizer.repeat_guard(2)
    assert guard is not None and guard is tr.tokenizer.repeat_guard(2)  # built once per bundle
    assert len(guard.surface) == tr.info.vocab_size  # every logit column has a row
    assert tr.tokenizer.repeat_guard(0) is None
    # Translating with the guard on goes through the full-logits search and still translates.
    assert tr.translate_document(["the cat sat on the mat."])[0].translation
    for bad in (-1, 1.5, True):
        decoding(bad)
        with pytest.raises(BundleError, match=r"decoding\.'max_repeat_run' must be a non-negative integer"):
            OnnxTranslator.load(bundle)


class _Digits:
    """Wants the digit piece "0" (id 12) forever, then EOS: the en->zh model's ``,,0000,00,``."""

    def step(self, tokens: np.ndarray, t: int) -> np.ndarray:
        logits = np.full((tokens.shape[0], len(PIECES)), -10.0, dtype=np.float32)
        logits[:, ID["0"]], logits[:, ID["点"]], logits[:, 2] = 5.0, 4.0, 3.0 - 2.0 * (t < 3)
        return logits

    def reorder(self, origin: np.ndarray) -> None:
        pass


@pytest.mark.parametrize("beam", [1, 3])
def test_forbidden_tokens_are_never_written_per_row(beam: int) -> None:
    free = beam_search(_Digits(), 2, beam, [6, 6], 1, 2)
    assert all(ID["0"] in h.tokens for h in free)
    rows = beam_search(_Digits(), 2, beam, [6, 6], 1, 2, forbid=[np.array([ID["0"]]), np.array([], dtype=np.int64)])
    assert ID["0"] not in rows[0].tokens and rows[0].tokens  # the first row may not, and still writes
    assert rows[1].tokens == free[1].tokens  # the second row is untouched


@pytest.mark.parametrize("few", [True, False])
def test_both_forms_of_the_bans_choose_the_same(few: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """A few banned ids are written as -inf through the ids, many as an additive row
    (beam._forbid_rows): the search chooses the same either way."""
    forbid = [np.array([ID["0"], ID["点"]]), np.array([ID["点"]])]
    monkeypatch.setattr(beam_module, "_FEW_BANS", 512 if few else 0)
    shape = list if few else np.ndarray
    assert isinstance(beam_module._forbid_rows(forbid, len(PIECES)), shape)
    rows = beam_search_n_best(_Digits(), 2, 3, [6, 6], 1, 2, forbid=forbid)
    monkeypatch.setattr(beam_module, "_FEW_BANS", 0 if few else 512)
    other = beam_search_n_best(_Digits(), 2, 3, [6, 6], 1, 2, forbid=forbid)
    assert [[(h.tokens, h.score) for h in r] for r in rows] == [[(h.tokens, h.score) for h in r] for r in other]
    assert not any(ID["0"] in h.tokens or ID["点"] in h.tokens for h in rows[0])
    assert not any(ID["点"] in h.tokens for h in rows[1]) and any(ID["0"] in h.tokens for h in rows[1])


def test_a_source_without_digits_bans_every_digit_piece() -> None:
    tr = shipped_translator("en", "zh")  # the built-in model: a real vocabulary
    tok = tr.tokenizer
    digits = set(tok.digit_ids().tolist())
    pieces = tok.pieces(sorted(digits))
    assert digits and all(any(c.isdigit() for c in p) for p in pieces)
    assert not any(p.startswith("⦅") for p in pieces)  # placeholders are copied, not banned
    plain = tr.source_ids("the cat sees the dog .")
    assert set(tok.new_digits_banned(plain).tolist()) == digits
    with_digit = [*plain[:-1], *tok.encode("7"), plain[-1]]
    assert tok.new_digits_banned(with_digit).size == 0
    # Through the engine: the subtitles it filled with ",,0000,00," before, now without a digit.
    lines = ["yes , exactly .", "hey , hubby .", "all right , A.J. !", "Meadow ! hi , babe ."]
    for result in tr.translate_document(lines):
        assert result.translation and not any(c.isdigit() for c in result.translation), result.translation


@pytest.mark.parametrize("beam", [1, 3])
def test_a_once_token_is_written_at_most_once_per_hypothesis(beam: int) -> None:
    free = beam_search(_Digits(), 2, beam, [6, 6], 1, 2)
    assert all(h.tokens.count(ID["0"]) > 1 for h in free)
    rows = beam_search(_Digits(), 2, beam, [6, 6], 1, 2, once=[np.array([ID["0"]]), np.array([], dtype=np.int64)])
    assert rows[0].tokens.count(ID["0"]) == 1  # written once (it is still the best first piece)
    assert rows[1].tokens == free[1].tokens


def test_placeholders_the_source_lacks_are_banned_and_its_own_are_written_once() -> None:
    """The shipped zh->en model wrote a list of figures as ``5.3% 4.7%, 4.7%, , , and 4.6%``
    (placeholders repeated, the copies removed afterwards, their commas left behind); it also
    invented ``⦅9⦆`` for a sentence with three spans."""
    tr = shipped_translator("zh", "en")
    tok = tr.tokenizer
    marks = tok.placeholder_ids()
    assert marks.size == tok.placeholder_count() > 3
    src = tr.source_ids("增长⦅1⦆，⦅2⦆和⦅3⦆。")
    never, once = tok.search_bans(src, new_digits=True)
    assert sorted(once.tolist()) == marks[:3].tolist()
    assert set(never.tolist()) == set(marks[3:].tolist())
    assert set(tok.search_bans(src)[0].tolist()) == set(marks[3:].tolist()) | set(tok.digit_ids().tolist())
    # Through the engine, the sentence that repeated its spans: every figure once, no empty commas.
    result = tr.translate_document(["分季度看，一季度同比增长5.3%，二季度增长4.7%，三季度增长4.6%。"])[0]
    assert [result.translation.count(x) for x in ("5.3%", "4.7%", "4.6%")] == [1, 1, 1], result.translation
    assert not re.search(r",\s*,", result.translation), result.translation


def test_an_english_translation_may_write_no_han_character() -> None:
    """The bidirectional model's vocabulary holds both languages, and zh->en copied source words:
    ``双击 setup.exe`` came back ``双击 setup.exe, …``. Into English every piece that writes a Han
    character (and every UTF-8 lead byte of one) is banned; into Chinese none is."""
    tr = shipped_translator("zh", "en")
    tok = tr.tokenizer
    han = set(tok.han_ids().tolist())
    for piece in ("双", "击", "<0xE5>"):
        assert tok.piece_id(piece) in han, piece
    for piece in ("▁the", "<0xE2>", "⦅1⦆", "."):  # English words, the lead byte of ’ and —, a placeholder
        assert tok.piece_id(piece) not in han, piece
    source = tok.encode("双击 setup.exe。")
    assert han <= set(tok.search_bans(source, tgt_lang="en")[0].tolist())
    assert not han & set(tok.search_bans(source, tgt_lang="zh")[0].tolist())
    out = tr.new_document().translate("双击 setup.exe，按照屏幕提示完成安装。").translation
    assert not re.search(r"[\u3000-\u9fff]", out) and "setup.exe" in out, out


def test_the_list_of_doubled_characters_is_built_from_the_chinese_side(tmp_path: Path) -> None:
    """training.han_doubles: a character doubled often enough, in count and in share of its uses."""

    from training import han_doubles as builder

    doc = {"en": ["x"] * 4, "zh": ["谢谢你，谢谢。", "妈妈说行。", "一行行的字", "行不行？行。"]}
    write_training_document(tmp_path, doc)
    seen, doubled = builder.measure(tmp_path)
    assert doubled["谢"] == 6 and seen["谢"] == 12 and doubled["行"] == 3 and seen["行"] == 18
    assert builder.han_doubles(seen, doubled, min_count=3, min_share=0.3) == ["谢", "妈"]  # 行: 1/6 of its uses
    assert builder.han_doubles(seen, doubled, min_count=4, min_share=0.1) == ["谢"]
