"""Complot à l'Élysée on the LAN page, without a browser: the record's Complot game read by its
own game's part (never as a damaged Noah game), its claims with their verdicts and cards, its
end, the past games of both kinds and BG Stats asked of each game's kind."""

from __future__ import annotations

import ast
import json
import re
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from companion.complot.session import ComplotSession
from companion.game import default_deck
from companion.games import find_kind
from companion.i18n import Catalog
from companion.session import GameStore, Session
from companion.web import snapshot
from companion.web.feed import Feed, RecordFollower
from companion.web.games import complot as complot_part
from companion.web.screenshots import CLAIMS, play_complot
from companion.web.server import WebServer
from tests.web.conftest import LOOPBACK, TOKEN, base, wait_for

PLAYERS = ("Ana", "Ben", "Chloé")
ROOT = Path(__file__).parents[2]


@pytest.fixture
def record(tmp_path):
    """A record with a finished Noah game (score only) and a Complot game after its claims."""
    store = GameStore(tmp_path / "games.sqlite")
    noah = Session(store)
    noah.new_game(["Zoé", "Yves"], score_only=True)
    while not noah.view.state.get("game_over"):
        noah.enter_tears([9, 0])
    complot = ComplotSession(store)
    yield store, complot
    store.close()


def _live(store: GameStore, language: str = "en") -> dict:
    follower = RecordFollower(store.path, default_deck())
    try:
        return follower.newest_live(Catalog(language))
    finally:
        follower.close()


def test_a_stored_complot_game_shows_its_manche_players_and_judged_claims_C44(record):
    """C44: a claim that makes no combination is refused and its claimant passes a turn."""
    store, session = record
    play_complot(session, PLAYERS, claims=2)  # Ben: six Léonard; then Ana: no combination
    table = _live(store, "fr")["table"]
    assert table["kind"] == "complot" and table["players"] == list(PLAYERS)
    assert table["manche"] == 1 and table["turn"] == "Chloé"
    assert [seat["state"] for seat in table["seats"]] == ["pass", "out", "turn"]
    wrong, accepted = table["claims"]
    assert (accepted["player"], accepted["accepted"], accepted["said"]) == (
        "Ben", True, "Six Léonard · 50 pts")
    assert accepted["cards"][0] == {"category": "LE", "name": "Léonard", "first_name": "Amélie"}
    assert (wrong["player"], wrong["accepted"]) == ("Ana", False)
    assert wrong["said"].startswith("Ces six cartes")  # the rules' own refusal, in French
    assert len(wrong["cards"]) == 6


def test_an_undone_claim_leaves_the_page_as_the_table_does(record):
    store, session = record
    play_complot(session, PLAYERS, claims=1)
    session.undo()
    table = _live(store)["table"]
    assert table["claims"] == [] and "out" not in [seat["state"] for seat in table["seats"]]


def test_the_end_names_the_winner_and_the_sheet_has_every_manche_C55(record):
    """C55: the game ends when a player reaches the target; the highest total wins."""
    store, session = record
    play_complot(session, PLAYERS, target=100)
    table = _live(store)["table"]
    assert table["finished"] and len(table["rounds"]) == len(session.view.manches) >= 2
    winner = table["winners"][0]
    assert table["end"] == f"{winner} wins with {max(table['scores'])} points!"
    assert table["scores"] == [sum(points) for points in zip(*table["rounds"], strict=True)]


def test_past_games_list_both_kinds_each_with_its_bgstats_link(record):
    store, session = record
    play_complot(session, PLAYERS, target=100)
    follower = RecordFollower(store.path, default_deck())
    try:
        feed = Feed("en")
        feed.take_games(follower.games())
        complot_game, noah_game = feed.games
        assert (complot_game["kind"], complot_game["finished"], complot_game["bgstats"]) == (
            "complot", True, True)
        assert (noah_game["kind"], noah_game["bgstats"]) == ("noah", True)
        assert follower.bgstats_link(noah_game["id"]).startswith("https://")
        assert feed.words["kinds"]["complot"]["round_short"] == "M{n}"
    finally:
        follower.close()


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *_args, **_kwargs):
        return None  # the redirect itself is the answer under test


def test_the_bgstats_route_sends_a_complot_game_to_bg_stats_with_its_manches_c55(record):
    """The page's button: a redirect to BG Stats' import of the Complot play, the highest
    total winning (C55) and the points per manche in the comments (a button has room)."""
    store, session = record
    play_complot(session, PLAYERS, target=100)
    view = session.view
    with WebServer(store.path, default_deck(), settings=LOOPBACK, token=TOKEN) as server:
        opener = urllib.request.build_opener(_NoRedirect)
        with pytest.raises(urllib.error.HTTPError) as redirected:
            opener.open(f"{base(server)}/bgstats/{view.game_id}?token={TOKEN}", timeout=10)
    assert redirected.value.code == 302
    link = redirected.value.headers["Location"]
    assert link.startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    play = json.loads(urllib.parse.unquote(link.split("data=", 1)[1]))
    assert play["game"] == {"name": "Noé, Complot à l'Élysée", "highestWins": True,
                            "sourceGameId": "complot"}
    assert [p["score"] for p in play["players"]] == list(view.scores)
    assert [seat for seat, p in enumerate(play["players"]) if p.get("winner")] == list(
        view.winners)
    assert play["comments"] == "Points per manche: " + " | ".join(
        "-".join(map(str, points)) for points in view.manches)


def test_an_idle_session_of_another_game_does_not_hide_the_table_being_played(record):
    """The app keeps Noah's session without a game while Complot is played: its views must not
    blank Complot's table, and a closed Complot game clears it."""
    store, session = record
    feed = Feed("en")
    session.subscribe(lambda view: feed.take_view(view, find_kind(session.log_format)))
    play_complot(session, PLAYERS, claims=1)
    idle_noah = Session(store)
    feed.take_view(idle_noah.view, find_kind(idle_noah.log_format))
    assert feed.live["table"]["kind"] == "complot"
    session.close_game()
    assert feed.live["table"] is None


def test_a_complot_log_the_page_cannot_replay_says_so(record):
    store, _ = record
    game = store.create_game({"format": "complot-table-log", "version": 1,
                              "players": ["Ana", "Ben"], "options": {"level": 9}})
    live = _live(store)
    assert live["table"] is None and f"Game {game} cannot be shown live" in live["prompt"]


def test_the_card_faces_use_the_screens_category_colours():
    """The page's card colours (app.css) are the app's screens' (companion/ui/complot.py)."""
    source = (ROOT / "companion" / "ui" / "complot.py").read_text(encoding="utf-8")
    look = next(ast.literal_eval(node.value) for node in ast.parse(source).body
                if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", "") ==
                "CATEGORY_LOOK")
    css = (ROOT / "companion" / "web" / "static" / "app.css").read_text(encoding="utf-8")
    page = dict(re.findall(r"\.cat-(\w\w) \{ --cat: (#[0-9a-f]{6}); \}", css))
    screens = {code: "#" + "".join(f"{round(c * 255):02x}" for c in colour[:3])
               for code, (colour, _symbol) in look.items()}
    assert page == screens
    assert {complot_part.card_face(card)["category"] for cards in CLAIMS for card in cards} <= \
        set(page)


def test_a_live_view_and_the_record_tell_the_same_claims(record):
    store, session = record
    play_complot(session, PLAYERS, claims=3)
    from_view = snapshot.from_view(Catalog("zh"), session.view, find_kind("complot"))["table"]
    stored = wait_for(lambda: _live(store, "zh")["table"], "the record's game")
    assert from_view["claims"] == stored["claims"] and from_view["seats"] == stored["seats"]


def test_a_score_only_game_shows_each_claim_with_its_points_and_no_cards(record):
    store, session = record
    session.new_game(list(PLAYERS), scores_only=True)
    session.claim_points(2, "five_alphas")
    table = complot_part.from_view(Catalog("en"), session.view)["table"]
    assert table["turn"] == "" and table["seats"][2]["state"] == "out"
    assert table["claims"] == [{"player": "Chloé", "accepted": True,
                                "said": "Five Alphas · 75 pts", "cards": []}]
    assert _live(store)["table"]["claims"] == table["claims"]


def test_players_level_at_the_top_share_the_victory_C55():
    """C55: at the target, players level at the top share the victory."""
    from types import SimpleNamespace

    over = SimpleNamespace(players=("Ana", "Ben", "Chloé"), level=1, target=400, manche=6,
                           current=None, still_in=(), must_pass=(), phase="game_over",
                           pending_action=None, pending_target=None,
                           scores=(410, 410, 200), manche_points=(50, 100, 0),
                           manches=((360, 310, 200), (50, 100, 0)), end_reason="elysee",
                           winners=(0, 1))
    table = complot_part.live_table(Catalog("fr"), 3, over, ())
    assert table["winners"] == ["Ana", "Ben"] and table["finished"]
    assert table["end"] == "Ana et\u00a0Ben partagent la victoire avec 410 points\u202f!"
    assert "Complot à l'Élysée" in table["manche_over"]


def test_a_controle_waiting_for_its_defence_is_said_C65(record):
    """C65: the target of a contrôle may stop it with a higher État-Major card."""
    store, session = record
    session.new_game(list(PLAYERS), level=2)
    session.action(0, "controle", ["enqueteurs:amelie"], [1])
    table = _live(store)["table"]
    assert table["pending"].startswith("Contrôle on Ben: Ben may show")
    session.defence("etat-major:abigail")
    assert _live(store)["table"]["pending"] == ""


def test_the_page_shows_each_hand_and_the_top_of_the_defausse_C13_C14(record):
    """C13, C14, C17: each player still in holds 6 cards; the top of the «défausse» is said
    "not shown" until a turn's discard is shown, then drawn as a card (its category in the
    table's language)."""
    _store, session = record
    session.new_game(list(PLAYERS))
    table = complot_part.from_view(Catalog("en"), session.view)["table"]
    assert [seat["cards"] for seat in table["seats"]] == ["6 cards"] * len(PLAYERS)
    assert table["defausse"] == {"caption": "Défausse · not shown", "blocked": False,
                                 "card": None}
    session.next_turn("etat-major:sophie")
    table = complot_part.from_view(Catalog("en"), session.view)["table"]
    assert table["defausse"]["card"] == {"category": "EM", "name": "General Staff",
                                         "first_name": "Sophie"}
