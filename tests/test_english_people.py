"""People an English document names in full and by surname alone, written into Chinese one way
(doctrans.english_people)."""

from __future__ import annotations

from pathlib import Path

from doctrans.document_names import keeping_document_names
from doctrans.documents.base import Block
from doctrans.english_people import alone_mentions, find_document_people, full_names, surname_rendering
from doctrans.glossary import Glossary
from doctrans.translate_job import translate_file
from tests.shipped_models import shipped_translator

MATCH = """Sinner Beats Alcaraz to Reach Final

Jannik Sinner defeated Carlos Alcaraz 6-4, 3-6, 7-6(5) on Friday to reach the final of the China Open in Beijing.

The Italian served 14 aces and saved five of six break points.

Sinner will face Daniil Medvedev, who beat Alexander Zverev in straight sets, in Sunday's final.

"It was a very tough match," Sinner said.
"""


def test_a_person_is_a_given_name_and_a_surname() -> None:
    assert full_names(MATCH) == [("Jannik Sinner", "Sinner"), ("Carlos Alcaraz", "Alcaraz"),
                                 ("Daniil Medvedev", "Medvedev"), ("Alexander Zverev", "Zverev")]
    assert full_names("Jerome H. Powell spoke; Bernie Sanders too.") == [("Jerome H. Powell", "Powell"),
                                                                         ("Bernie Sanders", "Sanders")]
    # A place or a body named after a person, a shouted word, a word that is no given name.
    assert full_names("Charles River rose. Victoria Station shut. Peter PAN. Grace Kelly. Nobel Prize.") == []


def test_a_surname_alone_is_one_no_capitalised_word_comes_before() -> None:
    text = "Tim Cook spoke on Monday. Cook said so. Mr. Cook left. Cookies and Cooked rice. Tim Cook again."
    assert alone_mentions(text, "Cook") == 2  # after "Monday." (a sentence's stop) and after "Mr."
    assert alone_mentions("Jerome H. Powell spoke.", "Powell") == 0
    assert alone_mentions(MATCH, "Sinner") == 3 and alone_mentions(MATCH, "Medvedev") == 0


def test_the_surname_is_the_transliteration_after_the_dot() -> None:
    assert surname_rendering("Carlos Alcaraz", "卡洛斯·阿尔克拉兹") == "阿尔克拉兹"
    assert surname_rendering("Bill Gates", "比尔•盖茨") == "盖茨"
    # A translation of the meaning (Cook, a cook; Sinner, a sinner), a copy, no dot: no rendering.
    assert surname_rendering("Tim Cook", "蒂姆·厨师") is None
    assert surname_rendering("Jannik Sinner", "扬尼克·罪人") is None
    assert surname_rendering("Tim Cook", "Tim Cook") is None
    assert surname_rendering("Bill Gates", "比尔盖茨") is None


def test_each_person_named_alone_gets_the_models_rendering_of_the_full_name() -> None:
    rendered = {"Jannik Sinner": "扬尼克·辛纳", "Carlos Alcaraz": "卡洛斯·阿尔卡拉斯",
                "Daniil Medvedev": "丹尼尔·梅德韦杰夫", "Alexander Zverev": "Alexander Zverev"}
    asked: list[str] = []

    def alone(text: str) -> str:
        asked.append(text)
        return rendered[text]

    people = find_document_people(MATCH.split("\n\n"), alone)
    # Medvedev and Zverev are only named in full, Alcaraz alone only after the heading's "Beats":
    # each is the model's rendering of the full name alone too (in context the model had copied a
    # one-off name with the verb after it: "Giorgia Meloni said政府"), or kept as written.
    assert people == {"Jannik Sinner": "扬尼克·辛纳", "Sinner": "辛纳", "Carlos Alcaraz": "卡洛斯·阿尔卡拉斯",
                      "Alcaraz": "阿尔卡拉斯", "Daniil Medvedev": "丹尼尔·梅德韦杰夫", "Medvedev": "梅德韦杰夫",
                      "Alexander Zverev": "Alexander Zverev", "Zverev": "Zverev"}
    assert asked == ["Jannik Sinner", "Carlos Alcaraz", "Daniil Medvedev", "Alexander Zverev"]
    # Named once by a surname that is a common word (a page's "Bill Payment", "Rose Garden"): not a
    # person to ask about; a second mention makes one.
    assert find_document_people(["Open Bill Payment.", "The Rose Garden opens."], alone) == {}
    assert asked[-1] == "Alexander Zverev"
    # Copied, unsure (empty) or translated for its meaning: both forms kept as written.
    text = ["Tim Cook spoke.", "Cook said so.", "Jannik Sinner won.", "Sinner smiled.", "Maria Lopez came.",
            "Lopez left."]
    answers = {"Tim Cook": "Tim Cook", "Jannik Sinner": "扬尼克·罪人", "Maria Lopez": ""}
    assert find_document_people(text, answers.__getitem__) == {
        "Tim Cook": "Tim Cook", "Cook": "Cook", "Jannik Sinner": "Jannik Sinner", "Sinner": "Sinner",
        "Maria Lopez": "Maria Lopez", "Lopez": "Lopez"}
    assert find_document_people(text, None)["Cook"] == "Cook"


def test_the_glossary_reads_a_latin_name_as_a_whole_word_and_not_in_a_places_name() -> None:
    g = Glossary([]).with_names({"Walter White": "沃尔特·怀特", "White": "怀特", "林静": "Lin Jing"})
    found = g.find("Walter White said so. White left the White House; Whitehouse and White's car. 林静说")
    assert [(s.text, s.target) for s in found] == [("Walter White", "沃尔特·怀特"), ("White", "怀特"),
                                                  ("White", "怀特"), ("林静", "Lin Jing")]


def test_the_document_pass_puts_its_people_in_the_glossary_after_the_users_terms() -> None:
    blocks = [Block("paragraph", p) for p in MATCH.split("\n\n")]
    tr = shipped_translator("en", "zh").with_glossary(Glossary.from_pairs([("Carlos Alcaraz", "阿尔卡拉斯")]))
    named = keeping_document_names(tr, blocks, "en")
    assert named.glossary is not None
    names = named.glossary.names
    assert "Carlos Alcaraz" not in names and names["Sinner"] in (names["Jannik Sinner"].split("·")[-1], "Sinner")
    spans = named.glossary.find("Sinner will face Carlos Alcaraz.")
    assert [(s.text, s.target) for s in spans] == [("Sinner", names["Sinner"]), ("Carlos Alcaraz", "阿尔卡拉斯")]


def test_a_match_report_names_its_winner_one_way(tmp_path: Path) -> None:
    """The shipped model wrote Sinner as 罪名, 内部 and 罪恶 in one report, the full name as it
    copied or transliterated it: now every mention is the model's rendering of the full name."""
    src = tmp_path / "match.txt"
    src.write_text(MATCH, encoding="utf-8")
    out = tmp_path / "match.zh.txt"
    translate_file(src, out, shipped_translator("en", "zh"))
    lines = [line for line in out.read_text(encoding="utf-8").splitlines() if line]
    rendered = shipped_translator("en", "zh").translate_alone("Jannik Sinner")
    surname = surname_rendering("Jannik Sinner", rendered) or "Sinner"
    assert all(surname in lines[i] for i in (0, 3, 4)), lines
    assert not any(w in "".join(lines) for w in ("罪", "内部"))
    assert src.read_text(encoding="utf-8") == MATCH


def test_the_transliteration_characters_are_measured_on_the_chinese_side(tmp_path: Path) -> None:
    """training.transliteration_chars: the characters next to a name's dot, often enough and in a
    large enough share of their occurrences (人 writes a word as often as it stands by a dot)."""
    import sys

    from tests.zh_en_corpora import write_training_document
    from training import transliteration_chars as builder

    zh = ["卡洛斯·阿尔卡拉斯来了。", "比尔·盖茨说。", "卡洛斯·盖茨是人。", "人人都是人，人很多。"]
    write_training_document(tmp_path, {"en": ["x"] * len(zh), "zh": zh})
    argv = sys.argv
    sys.argv = ["x", "--data", str(tmp_path), "--out", str(tmp_path), "--min-count", "3", "--min-share", "0.5"]
    try:
        builder.main()
    finally:
        sys.argv = argv
    chars = [c for c in (tmp_path / "transliteration_chars.txt").read_text(encoding="utf-8").splitlines()
             if not c.startswith("#")]
    # 3 corpora: 洛斯 twice each (6), 盖茨 twice (6), 阿尔, 比尔 once (尔 6 of its 6); 人 never by a dot.
    assert set(chars) == {"洛", "斯", "盖", "茨", "阿", "尔", "比"}
