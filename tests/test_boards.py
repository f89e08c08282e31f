"""Board files: the bundled boards load, and every kind of bad board gets one clear line."""

from __future__ import annotations

import os

import pytest
from bad_boards import CASES, GOOD
from helpers import BUNDLED
from hypothesis import given, settings
from hypothesis import strategies as st

from chutes.compute.board.file import board_files, load_board, parse_board, resolve_board
from chutes.compute.board.model import BoardError
from chutes.site_build.project import BUNDLED_BOARDS


def err(text: str | bytes) -> str:
    data = text.encode() if isinstance(text, str) else text
    with pytest.raises(BoardError) as info:
        parse_board(data, "b.toml")
    message = str(info.value)
    assert "\n" not in message and message.startswith("b.toml: ")
    return message


def test_bundled_boards_load():
    assert set(BUNDLED) >= {"classic", "classic-47", "classic-pass", "noordenbos", "tiny"}
    for slug in BUNDLED:
        board = resolve_board(slug, [BUNDLED_BOARDS])
        assert board.slug == slug and board.source


def test_snakes_is_another_name_for_chutes():
    board = parse_board(GOOD.replace("chutes", "snakes").encode(), "b.toml")
    assert board.chutes == ((17, 4),)




@pytest.mark.parametrize(("text", "expected"), CASES, ids=[str(i) for i in range(len(CASES))])
def test_bad_boards(text, expected):
    assert expected in err(text)


def test_trapped_squares_are_named():
    text = GOOD.replace("chutes = [[17, 4]]", "chutes = [[14, 1], [15, 1], [16, 1], [17, 1], [18, 1], [19, 1]]")
    assert "square 20 can never be reached" in err(text)
    assert "squares 0-2, 4-13, from which" in err(text)


def test_missing_file_and_folder(tmp_path):
    with pytest.raises(BoardError, match="no such file"):
        load_board(tmp_path / "nope.toml")
    with pytest.raises(BoardError, match="is a folder"):
        load_board(tmp_path)


def test_unknown_slug_suggests():
    with pytest.raises(BoardError, match="did you mean 'classic'"):
        resolve_board("clasic", [BUNDLED_BOARDS])


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(["title", "squares", "die", "overshoot", "ladders", "chutes", "start",
                                        "source", "roll_again_on", "snakes", "x"]),
                       st.one_of(st.integers(-5, 120), st.text(max_size=5), st.booleans(),
                                 st.lists(st.lists(st.integers(-2, 120), max_size=3), max_size=6))))
def test_validator_never_crashes(data):
    from chutes.compute.board.file import board_from_mapping

    try:
        board_from_mapping(data, "h.toml")
    except BoardError as exc:
        assert "\n" not in str(exc) and str(exc).startswith("h.toml: ")


def test_a_board_s_words_are_translated_in_its_file_and_never_change_its_game():
    board = parse_board((GOOD + '[translations.fr]\ntitle = "Le plateau"\nsource = "dessiné par les enfants"\n'
                         '[translations.pt-BR]\nsource = "desenhado"\n[translations.ar]\ntitle = "اللوحة"\n').encode(),
                        "b.toml")
    assert board.words() == {"ar": {"title": "اللوحة"},
                             "fr": {"title": "Le plateau", "source": "dessiné par les enfants"},
                             "pt-BR": {"source": "desenhado"}}
    bare = parse_board(GOOD.encode(), "b.toml")
    assert board.canonical() == bare.canonical() and bare.translations == () and bare.words() == {}


def test_translations_reach_the_record_and_never_change_its_results():
    from chutes.compute.record.key import cache_key
    from chutes.compute.record.results import solve
    from chutes.compute.record.schema import BoardDefinition
    from chutes.compute.solve.chain import turn_chain

    bare = resolve_board("tiny", [BUNDLED_BOARDS]).variant(translations=())
    words = bare.variant(translations=(("hi", ("दस खानों का बोर्ड", None)), ("fr", (None, "le petit plateau"))))
    plain, translated = solve(turn_chain(bare)), solve(turn_chain(words))
    assert "translations" not in plain["board"]
    assert translated["board"].pop("translations") == {"fr": {"source": "le petit plateau"},
                                                       "hi": {"title": "दस खानों का बोर्ड"}}
    assert translated == plain, "the same results, to the last digit"
    definition = BoardDefinition.model_validate(solve(turn_chain(words))["board"])
    assert definition.translations is not None and definition.translations["hi"].title == "दस खानों का बोर्ड"
    assert cache_key(words) != cache_key(bare), "words are part of the record (as the title is): another file"


def test_every_bundled_board_has_its_words_in_each_language_of_the_site():
    for slug in BUNDLED:
        board = resolve_board(slug, [BUNDLED_BOARDS])
        words = board.words()
        assert sorted(words) == ["ar", "de", "es", "fr", "hi"], slug
        for code, texts in words.items():
            assert set(texts) == {"title", "source"}, (slug, code)
            assert texts["source"] != board.source, (slug, code)


def test_title_defaults_to_the_file_name_and_source_is_optional(tmp_path):
    path = tmp_path / "my-board.toml"
    path.write_text(GOOD.replace('title = "t"\n', "").replace('source = "test"\n', ""))
    board = load_board(path)
    assert board.title == "my-board" and board.source == ""


def test_every_problem_of_a_file_is_reported_at_once():
    message = err(GOOD.replace("[3, 11]", "[11, 3]").replace("[17, 4]", "[4, 17]") + "start = 20\n")
    assert "a ladder goes up" in message and "a chute goes down" in message and "start: must be below" in message
    message = err(GOOD.replace("die = 6", "die = 0").replace("squares = 20", 'squares = "x"'))
    assert "die: 0 is out of range" in message and "squares: expected a whole number" in message


def test_a_byte_order_mark_is_accepted():
    assert parse_board(b"\xef\xbb\xbf" + GOOD.encode(), "b.toml").squares == 20


@pytest.mark.parametrize(("text", "expected"), [
    ('"a[0]" = 1\n' + GOOD, "unknown key 'a[0]'"),
    ("x = " + "[" * 600 + "]" * 600 + "\n" + GOOD, "nested too deeply"),
    ("ladders = " + "[" * 600 + "]" * 600 + "\n" + GOOD.replace("ladders = [[3, 11]]\n", ""), "nested too deeply"),
])
def test_odd_keys_and_deep_nesting_are_one_line(text, expected):
    assert expected in err(text)


def test_special_files_are_refused_without_reading_them(tmp_path):
    fifo = tmp_path / "x.toml"
    os.mkfifo(fifo)
    with pytest.raises(BoardError, match="not a regular file"):
        load_board(fifo)
    zero = tmp_path / "zero.toml"
    zero.symlink_to("/dev/zero")
    with pytest.raises(BoardError, match="not a regular file"):
        load_board(zero)
    big = tmp_path / "big.toml"
    with big.open("wb") as fh:
        fh.truncate(3_000_000_000)  # sparse: only the first megabyte is ever read
    with pytest.raises(BoardError, match="more than 1,000,000 bytes"):
        load_board(big)


@pytest.mark.parametrize("name", ["..toml", "#.toml", "b?.toml", "a%b.toml", "new\nline.toml", ".hidden.toml",
                                  "x" * 230 + ".toml"])
def test_file_names_that_are_not_slugs_are_refused(tmp_path, name):
    (tmp_path / "good.toml").write_text(GOOD)
    (tmp_path / name).write_text(GOOD)
    with pytest.raises(BoardError, match="the file name must be letters, digits"):
        board_files(tmp_path)


def test_every_file_name_that_is_not_a_slug_is_reported_at_once(tmp_path):
    (tmp_path / "good.toml").write_text(GOOD)
    names = ["b?.toml", "new\nline.toml", "a%b.toml"]
    for name in names:
        (tmp_path / name).write_text(GOOD)
    with pytest.raises(BoardError) as info:
        board_files(tmp_path)
    lines = str(info.value).splitlines()
    assert info.value.problems == lines and len(lines) == len(names), "one line per file, a newline in a name too"
    assert all("the file name must be letters, digits" in line for line in lines)
    for name in names:
        assert sum(repr(name.removesuffix(".toml")) in line for line in lines) == 1, name
