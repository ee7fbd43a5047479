"""A translation into Chinese that names a place its English source does not is made again with the
source's rare names kept as written (doctrans.engine.onnx_engine.OnnxDocumentSession.translate),
with the built-in model: a news story's "the town of Siracusa" came back 在西雅图中 (Seattle), in
every hypothesis of the search. Likewise a word the model cut in two, its beginning translated and
its end copied (doctrans.kept_names.half_translated: "the calltip" came back 调用tip), and a rare
name it copied wrong (doctrans.kept_names.miscopied_names: Siracusa came back Sacusa)."""

from __future__ import annotations

import pytest

from doctrans.engine.batch import BatchedDocuments
from doctrans.engine.onnx_engine import OnnxTranslator
from doctrans.kept_names import half_translated, miscopied_names, rare_names
from doctrans.models_registry import default_bundle
from doctrans.place_names import invented_places, look_alikes

SIRACUSA = "In Sicily, the town of Siracusa recorded 46.3°C, according to the regional weather service."
DOC = ["Temperatures soared above 45 degrees Celsius in parts of Italy and Spain on Tuesday.", SIRACUSA,
       "Authorities in Rome issued a red alert for 16 cities."]


@pytest.fixture(scope="module")
def translator(monkeypatch_module: None) -> OnnxTranslator:
    bundle = default_bundle("en", "zh")
    assert bundle is not None
    return OnnxTranslator.load(bundle, src="en", tgt="zh")


@pytest.fixture(scope="module")
def monkeypatch_module():
    with pytest.MonkeyPatch.context() as mp:
        mp.delenv("DOCTRANS_MODELS", raising=False)
        yield


def test_rare_names_are_capitalised_words_no_list_holds_past_the_sentence_start() -> None:
    assert rare_names(SIRACUSA) == {"Siracusa"}  # In: the first word; Sicily: a name the models learned
    assert rare_names("Notwithstanding the above, Zyxwell said.") == {"Zyxwell"}


def test_a_name_the_model_made_a_known_city_is_kept_as_written(translator: OnnxTranslator) -> None:
    out = translator.new_document().translate(SIRACUSA).translation
    assert invented_places(SIRACUSA, out, "en", "zh") == [], out
    assert "Siracusa" in out


def test_a_batch_retries_the_row_as_one_document_at_a_time_does(translator: OnnxTranslator) -> None:
    # The int8 bundle's activations are quantized with one scale per batch (doctrans.engine.batch),
    # so a batched sentence may differ from its translation alone by a word, and which ones do
    # depends on the CPU's int8 kernels (on an AVX512-VNNI machine the first sentence did, on an
    # AVX2 one none): what must be the same is the retry -- the row whose translation invented a
    # place is translated again with the name kept, as one document at a time does.
    other = ["The house at the end of the lane had been empty for years.", "Nobody remembered when they left."]
    got = BatchedDocuments(translator, rows=2).translate_documents([DOC, other])
    alone = [translator.new_document().translate(s).translation for s in DOC]
    assert [len(rows) for rows in got] == [len(DOC), len(other)]
    assert "Siracusa" in got[0][1].translation and "Siracusa" in alone[1]
    for source, rows in zip([DOC, other], got, strict=True):
        for s, r in zip(source, rows, strict=True):
            assert r.translation and invented_places(s, r.translation, "en", "zh") == [], r.translation


@pytest.mark.parametrize(("source", "translation", "cut"), [
    ("The Newark River flooded.", "新ark River洪水了。", {"Newark"}),
    ("Encode with the standard Base64 alphabet.", "使用标准Base64字母bet编码。", {"alphabet"}),
    ("In Sicily, the town recorded 46.3°C.", "在西ily, 小镇记录了46.3摄氏度。", {"Sicily"}),
    ("Call read() with the name.", "调用read()并附带名称。", set()),  # a word of the source, whole
    ("Processing the rows is slow.", "处理ing行很慢。", set()),  # an ending alone names no word
    ("The data is in the table.", "数据在table中。", set()),  # copied whole
    # A name's last letter left after its transliteration (a board's minutes: "Maria Lopez" came back
    # 玛莉亚·洛普z): the name is kept, with its given name; a lone letter of no name is no cut word.
    ("Maria Lopez to confirm the date.", "玛莉亚·洛普z确认日期。", {"Maria", "Lopez"}),
    ("Use plan b if it fails.", "如果失败使用计划b。", set()),
    # A story's "the light on Gull Point" came back 盖尔· Point: transliterated in part.
    ("He kept the light on Gull Point.", "他在盖尔· Point守灯。", {"Gull", "Point"}),
    # A match report's "captain Luke Harris" came back 卢克 Harris: the given name transliterated, the
    # surname copied; kept whole. A name copied whole, or after a common word, is none.
    ("A header from captain Luke Harris won it.", "队长卢克 Harris的头球赢了。", {"Luke", "Harris"}),
    ("Bristol Rovers beat Exeter City.", "在星期六 Bristol Rovers 击败 Exeter City。", set()),
    ("The Harris family came.", "这 Harris 家族来了。", set()),
    # A word's beginning copied, its end translated: dpkg's spec "in chroots" came back 在 ch根 (root), a
    # Python page's :meth:`uncancel <…>` came back un取消 (cancel); a word of the source is none.
    ("It is not needed in chroots or containers.", "在 ch根或容器中不需要它。", {"chroots"}),
    ("Do not call uncancel directly.", "不要直接调用un取消。", {"uncancel"}),
    ("Use gzip to compress.", "使用gzip压缩。", set()),
])
def test_a_word_cut_in_two_is_found_by_its_copied_end(source: str, translation: str, cut: set[str]) -> None:
    assert half_translated(source, translation) == cut


@pytest.mark.parametrize("source", [
    "The calltip remains until the cursor is moved.",  # the stop-38 model: 调用tip 仍然保持...
    "The Newark River flooded.", "Encode with the standard Base64 alphabet.", "The cancellation is final.",
])
def test_no_word_is_left_cut_in_two(translator: OnnxTranslator, source: str) -> None:
    # Words earlier built-in models cut in two; the model of 2026-11-27 translates them whole (the
    # calltip as 调用器), so the retry that keeps such a word is exercised by the Siracusa tests.
    out = translator.new_document().translate(source).translation
    assert half_translated(source, out) == set(), out


def test_a_rare_name_copied_wrong_is_kept_as_written() -> None:
    # The model of 2026-11-27 wrote "Siracusa" as Sacusa: the sentence is translated again with it kept.
    assert miscopied_names(SIRACUSA, "在Sicily年中，Sacusa记录了46.3摄氏度。") == {"Siracusa"}
    assert miscopied_names(SIRACUSA, "在西西里，Siracusa记录了46.3摄氏度。") == set()
    assert miscopied_names(SIRACUSA, "在西西里，锡拉库萨记录了46.3摄氏度。") == set()  # translated: the model's


def test_a_word_that_begins_as_the_invented_place_does_is_kept() -> None:
    source = "She has run a café near the Colosseum in Rome."
    assert look_alikes(source, ["哥伦比亚"]) == {"Colosseum"}  # Colo-mbia
    assert look_alikes(source, ["西雅图"]) == set()


def test_a_landmark_the_model_made_a_country_is_kept_as_written(translator: OnnxTranslator) -> None:
    source = ('"We have never seen anything like this," said Maria Rossi, 67, who has run a café near the '
              "Colosseum for 30 years.")  # came back 在哥伦比亚附近, near Colombia
    out = translator.new_document().translate(source).translation
    assert invented_places(source, out, "en", "zh") == [] and "Colosseum" in out, out


def test_a_place_of_the_list_is_not_kept_in_english_by_the_retry(translator: OnnxTranslator) -> None:
    # A storm report: the model invented a place (the retry ran) and the retry kept every rare
    # capitalised word as written -- Orkney and Shetland too, which the place list writes 奥克尼 and
    # 设得兰: they came back Orkney和Shetland. Only words the engine does not write itself are kept.
    source = "The warning covers Orkney and Shetland, and the town of Siracusa."
    prep = translator.prepare(source)
    assert {sp.target for sp in prep.masked.spans} >= {"奥克尼", "设得兰"}
    assert prep.names_to_keep("警告覆盖奥克尼和设得兰，以及西雅图镇。") == {"Siracusa"}  # 西雅图: invented
