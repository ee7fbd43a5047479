"""People's names a whole Chinese document shows to be names (doctrans.document_names)."""

from __future__ import annotations

from pathlib import Path

import pytest

from doctrans import document_names
from doctrans.document_names import common_words, find_document_names, keeping_document_names, translated_names
from doctrans.glossary import Glossary
from doctrans.translate_job import translate_file
from tests.docstring_tables import two_column_rows
from tests.shipped_models import shipped_translator
from tests.zh_en_corpora import write_training_document

STORY = """林静推开门的时候，雨已经停了。

她站在台阶上，看着空荡荡的街道。陈明远的车还停在对面，车灯没有关。林静犹豫了一下，还是走了过去。

“你怎么还没走？”她问。

陈明远摇下车窗，笑了笑：“我在等你。”

林静没有说话。她想起三年前的那个晚上。

“一碗牛肉面，”林静说，“多放点辣椒。”
"""


def test_the_docstring_table_is_parsed() -> None:
    assert len(two_column_rows(document_names)) == 7


@pytest.mark.parametrize(("text", "expected"), two_column_rows(document_names))
def test_docstring_table_row(text: str, expected: str) -> None:
    found = find_document_names(text.split("。"))
    assert (" · ".join(f"{k} {v}" for k, v in found.items()) or "(none)") == expected


def test_a_storys_people_are_found_once_each() -> None:
    # The shipped zh->en model wrote 林静 as "The Lins", "Linn", "The Lin" and 陈明远 as "Trann's".
    assert find_document_names(STORY.splitlines()) == {"林静": "Lin Jing", "陈明远": "Chen Mingyuan"}


def test_a_name_written_once_or_a_word_is_no_name() -> None:
    assert find_document_names(["林静推开门。", "她走了。"]) == {}  # once: nothing says it is a name
    assert "高兴" in common_words() and "黄金" in common_words()
    assert find_document_names(["高兴地说。", "高兴的时候，黄金说。", "黄金很贵。"]) == {}


def test_a_name_after_a_title_names_its_other_mentions() -> None:
    found = find_document_names(["国务院总理李强在会上说，经济稳中向好。", "李强指出，要扩大内需。"])
    assert found == {"李强": "Li Qiang"}


def test_a_translation_from_english_keeps_its_names_for_the_model() -> None:
    # A subtitle's 罗珊 is Roxanne: the document writes its people as a translation does.
    text = ["罗珊说她会来。", "克里斯和谢尔顿也来了。", "罗珊笑了。", "瑟琳娜问：罗珊呢？"]
    assert translated_names("\n".join(text))
    assert find_document_names(text) == {}
    # Place names and doubled characters are not a translation's names.
    assert not translated_names("林静谢谢他。她去了俄罗斯和哥伦比亚。" * 3)


def test_the_users_glossary_wins_and_only_chinese_into_english_is_touched() -> None:
    from doctrans.documents.base import Block

    blocks = [Block("paragraph", line) for line in STORY.splitlines() if line]
    tr = shipped_translator("zh", "en").with_glossary(Glossary.from_pairs([("林静", "Jing Lin")]))
    named = keeping_document_names(tr, blocks, "zh")
    assert named.glossary is not None and named.glossary.names == {"陈明远": "Chen Mingyuan"}
    assert [(s.text, s.target) for s in named.glossary.find("林静和陈明远")] == [
        ("林静", "Jing Lin"), ("陈明远", "Chen Mingyuan")]
    en = shipped_translator("en", "zh")
    assert keeping_document_names(en, blocks, "en") is en


def test_a_translated_story_writes_each_name_the_same_way(tmp_path: Path) -> None:
    src = tmp_path / "story.txt"
    src.write_text(STORY, encoding="utf-8")
    out = tmp_path / "story.en.txt"
    translate_file(src, out, shipped_translator("zh", "en"))
    text = out.read_text(encoding="utf-8")
    assert text.count("Lin Jing") == STORY.count("林静")
    assert text.count("Chen Mingyuan") == STORY.count("陈明远")
    assert src.read_text(encoding="utf-8") == STORY


def test_the_list_of_words_is_built_from_the_chinese_side(tmp_path: Path) -> None:
    """training.surname_words: a string of a name's form written often enough is a word."""

    from training import surname_words as builder

    doc = {"en": ["x"] * 3, "zh": ["他很高兴，高兴极了。明天见。", "高兴！林静来了。明天。", "王芳说。明天好。"]}
    write_training_document(tmp_path, doc)
    builder.main(["--data", str(tmp_path), "--out", str(tmp_path), "--min-count", "9"])
    words = [w for w in (tmp_path / "surname_words.txt").read_text(encoding="utf-8").splitlines()
             if not w.startswith("#")]
    # 3 corpora x 3 times: 高兴, and 明天, two given-name characters; 林静 and 王芳 3 times each
    assert words == ["明天", "高兴"]


def test_a_speaker_who_says_their_name_is_named_at_once() -> None:
    # A talk's "大家好，我叫周晓梅" came back "I'm called Monday" (周, a weekday).
    assert find_document_names(["大家好，我叫周晓梅，是一名海洋生物学家。"]) == {"周晓梅": "Zhou Xiaomei"}
    assert find_document_names(["我叫周晓梅是一名生物学家。"]) == {"周晓梅": "Zhou Xiaomei"}
    # A subtitle's 我叫苏珊 is Susan: the document writes its names as a translation does.
    assert find_document_names(["我叫苏珊。", "克里斯和谢尔顿来了。"]) == {}
    # ... and 我是 where a greeting or a sentence ends, the name right before a mark (大家好，我是王明，);
    # 我是 is as often "I am" a thing (我是高手，, 我是白痴。).
    assert find_document_names(["大家好，我是王明，来自云南的一名乡村教师。"]) == {"王明": "Wang Ming"}
    assert find_document_names(["我是高手，谁也比不过我。", "你好，我是白痴。", "我是王明的老师。"]) == {}


PRESS = """Northwind Energy Announces Record Third-Quarter Results

SEATTLE, October 24, 2026 — Northwind Energy Inc. (NASDAQ: NWEN) today reported revenue of $412.6 million for the \
third quarter ended September 30, 2026, an increase of 18% compared with the same period last year.

Northwind installed 1,250 megawatt-hours of storage capacity during the quarter.

About Northwind Energy
Founded in 2011, Zhejiang University and Northwind Energy build battery storage systems for utilities and businesses.
"""


def test_an_english_documents_organisations_are_kept_in_every_form() -> None:
    from doctrans.documents.base import Block

    blocks = [Block("paragraph", line) for line in PRESS.splitlines() if line]
    # Not Zhejiang University, 浙江大学 to the report terms, nor Zhejiang, a place.
    assert document_names.document_organisations(blocks) == {"Northwind Energy Inc", "Northwind Energy", "Northwind"}
    tr = shipped_translator("en", "zh")
    kept = keeping_document_names(tr, blocks, "en")
    assert kept.glossary is not None and "Northwind" in kept.glossary.kept
    assert keeping_document_names(shipped_translator("zh", "en"), blocks, "zh").glossary is None


def test_a_press_releases_company_keeps_its_name_in_its_headings(tmp_path: Path) -> None:
    """The title came back 北方的诺氏企业记录, "About Northwind Energy" 北方诉讼案 (a lawsuit) and
    "Northwind installed" 北部安装了: only the sentences' own rule kept the name, where it ends in
    its kind in a sentence that is no heading."""
    src = tmp_path / "press.txt"
    src.write_text(PRESS, encoding="utf-8")
    out = tmp_path / "press.zh.txt"
    translate_file(src, out, shipped_translator("en", "zh"))
    lines = [line for line in out.read_text(encoding="utf-8").splitlines() if line]
    assert "Northwind Energy" in lines[0] and "第三季度" in lines[0]
    assert "Northwind" in lines[2] and "1,250兆瓦时" in lines[2]
    assert "Northwind Energy" in lines[3]
    assert lines[1].startswith("西雅图2026年10月24日——")
    assert src.read_text(encoding="utf-8") == PRESS


def test_a_letters_signature_is_a_name_of_the_document() -> None:
    """The signature 李明 under 此致 敬礼！ came back "Leeming"; a line 任务 (a task) is no name."""
    letter = ["尊敬的王经理：", "此致\n敬礼！", "李明\n销售部\n2026年11月25日"]
    assert find_document_names(letter) == {"李明": "Li Ming"}
    assert find_document_names(["任务", "任务组"]) == {}


def test_fictions_given_names() -> None:
    """A novel's 陈默 (three times: where a clause starts, before 说) came back "Chemmer" and "Chenmer":
    默 is a given name's character too."""
    story = ["那天晚上，雨下得很大。陈默把车停在医院门口。", "“到了。”陈默说，“我在楼下。”", "陈默沉默了一会儿。"]
    assert find_document_names(story) == {"陈默": "Chen Mo"}
