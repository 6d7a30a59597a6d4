"""``noah-companion deck show|check``: print and validate a deck file; errors name the line and
the field."""

import pytest

from companion.cli import main
from companion.game.deck import default_deck, parse_deck

HEADER = "species,gender,weight,tears,mark,promo\n"


pytestmark = pytest.mark.usefixtures("no_user_config")  # tests/conftest.py


def run(capsys, *argv):
    status = main(["deck", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_show_lists_every_card_and_the_cards_in_play_per_player_count(capsys):
    status, out, _ = run(capsys, "show")
    assert status == 0
    assert sum(line.startswith(("cat:", "snail#")) for line in out.splitlines()) == 6 + 5
    assert "52 cards: 23 male, 24 female, 5 snails; 5 promo." in out
    # R5: 31 cards at 2-3 players, 39 at 4, all 47 animals at 5
    assert "Cards in play: 2 players 31, 3 players 31, 4 players 39, 5 players 47." in out
    assert "Cards in play with frogs:" in out and "Warning" not in out


def test_show_csv_prints_a_file_that_reads_back_as_the_same_deck(capsys):
    status, out, _ = run(capsys, "show", "--csv")
    assert status == 0
    assert parse_deck(out) == default_deck()


def test_check_accepts_a_valid_file(tmp_path, capsys):
    deck_file = tmp_path / "box.csv"
    deck_file.write_text("# my box\n" + default_deck().to_csv(), encoding="utf-8")
    status, out, _ = run(capsys, "check", str(deck_file))
    assert status == 0
    assert out.startswith(f"{deck_file} is a valid deck file.")


@pytest.mark.parametrize(
    ("rows", "words"),
    [
        ("cat,F,2,1,,no\ncat,X,2,1,,no\n", "line 3: gender 'X' is not M or F"),
        ("cat,F,two,1,,no\n", "line 2: weight 'two' is not a whole number"),
        ("cat,F,2,-1,,no\n", "line 2: tears '-1' is not a whole number"),
        ("cat,F,2,1,6+,no\n", "line 2: mark '6+' is not empty, 4+ or 5+"),
        ("frog,F,1,5,,no\n", "line 2: promo is no but only frog and crocodile"),
        ("dragon,F,1,5,,no\n", "line 2: species 'dragon' is not one of"),
        ("snail,M,1,2,,no\n", "line 2: gender 'M': a snail is hermaphrodite, write H"),
    ],
)
def test_check_names_the_line_and_the_field_of_a_bad_card(rows, words, tmp_path, capsys):
    deck_file = tmp_path / "box.csv"
    deck_file.write_text(HEADER + rows, encoding="utf-8")
    status, out, err = run(capsys, "check", str(deck_file))
    assert status == 2 and out == ""
    assert f"box.csv, {words}" in err
    assert "Traceback" not in err and err.count("\n") == 1


def test_check_explains_a_missing_header_and_an_empty_file(tmp_path, capsys):
    deck_file = tmp_path / "box.csv"
    deck_file.write_text("species,gender,weight\ncat,F,2\n", encoding="utf-8")
    status, _, err = run(capsys, "check", str(deck_file))
    assert status == 2 and "line 1: the header lacks tears, mark, promo" in err
    deck_file.write_text("# nothing\n", encoding="utf-8")
    status, _, err = run(capsys, "check", str(deck_file))
    assert status == 2 and "is empty" in err


def test_check_of_a_missing_file_says_what_to_do(tmp_path, capsys):
    status, _, err = run(capsys, "check", str(tmp_path / "nope.csv"))
    assert status == 2
    assert "There is no deck file" in err and "default" in err


def test_a_deck_too_thin_for_five_players_is_valid_but_warned_about(tmp_path, capsys):
    deck_file = tmp_path / "small.csv"
    unmarked = [line for line in default_deck().to_csv().splitlines()[1:] if ",,no" in line]
    deck_file.write_text(HEADER + "\n".join(unmarked) + "\n", encoding="utf-8")
    status, out, _ = run(capsys, "check", str(deck_file))
    assert status == 0
    assert "Cards in play: 2 players 31, 3 players 31, 4 players 31, 5 players 31." in out
    assert "Warning: 4 players need 37 cards to deal a round" in out
    assert "Warning: 5 players need 45 cards" in out


def test_show_without_a_file_uses_the_deck_of_the_config(tmp_path, capsys):
    deck_file = tmp_path / "box.csv"
    deck_file.write_text(HEADER + "cat,F,2,1,,no\ncat,F,2,1,4+,no\n", encoding="utf-8")
    (tmp_path / "companion.ini").write_text(f"[game]\ndeck = {deck_file}\n", encoding="utf-8")
    status, out, _ = run(capsys, "show")
    assert status == 0
    assert "cat:F#2" in out and "2 cards: 0 male, 2 female, 0 snails; 0 promo." in out
