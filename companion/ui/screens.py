"""The app's screens; their layouts are in ``screens.kv``.

Every screen has ``show(view)``: it draws a :class:`~companion.session.SessionView` and nothing
else, so the same screen serves a live game, a resumed one and the screenshot script. Answers go
back through ``app.act(app.session.<intent>, *args)``: the session's intents are method calls on
its :class:`~companion.session.intents.TableIntents` protocol.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from kivy.animation import Animation
from kivy.app import App
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen

from companion.game.deck import parse_ref
from companion.game.sizes import MAX_PLAYERS
from companion.ui import theme
from companion.ui.damaged import resume as resume_game
from companion.ui.widgets import PictureButton, PlayerLine, fitting_font, picture_of, text_width

if TYPE_CHECKING:
    from companion.session.steps import Step

PANEL_WIDTH = 228  # px: the right-hand column's content on the setup and table screens


def _button(text: str, action: Any, *, picture: str = "", **kwargs: Any) -> Button:
    """A button of the prompt panels: large text, at least 10 mm tall, flat in the theme's
    colour (white on it reads at 7.8:1); with ``picture`` (a card reference or species), the
    animal's picture at its left."""
    kwargs.setdefault("font_size", theme.BODY)
    kwargs.setdefault("background_color", theme.BUTTON)
    kwargs.setdefault("font_name", theme.FONT)
    button = PictureButton(text=text, size_hint_y=None, height=theme.TOUCH,
                           picture=picture_of(picture) if picture else "", **kwargs)
    button.bind(on_release=lambda _button: action())
    return button


def _grows(button: Button) -> Button:
    """``button`` as tall as its text needs (five long names, a long answer), at least
    :data:`theme.TOUCH <companion.ui.theme.TOUCH>`."""
    button.bind(texture_size=lambda b, size: setattr(b, "height", max(theme.TOUCH, size[1] + 8)))
    return button


#: Prompts about one animal, shown with its picture beside the question (R43: the frog's
#: declared weight; the snail's side; the crocodile's and the lion's effects).
PROMPT_PICTURES = {"choose_snail_side": "snail", "choose_frog_weight": "frog",
                   "croc_flee": "crocodile", "lion_swap": "lion"}


def prompt_picture(prompt: Any) -> str:
    """The picture's path for a prompt about one animal, or "".

    >>> from companion.session.prompts import ChooseTarget
    >>> prompt_picture(ChooseTarget(player=0, text="", action="croc_flee"))[-13:]
    'crocodile.png'
    """
    kind: Step = prompt.kind  # (the giraffe's look is a long sentence: it needs the whole width)
    name = PROMPT_PICTURES.get(getattr(prompt, "action", "") if kind == "choose_target" else kind)
    return picture_of(name) if name else ""


def _name(view: Any, seat: int | None) -> str:
    return view.players[seat] if seat is not None and seat < len(view.players) else ""


class GameScreens(NamedTuple):
    """What the home screen opens for one game kind: its new game (or scores only), its
    unfinished games (are there any; resume one, the newest by default), and its session (the
    one the hand camera feeds while it is played: companion.wiring.GameInPlay)."""

    new_game: Callable[[Any, bool], None]
    resumable: Callable[[Any], bool]
    resume: Callable[[Any, int | None], None]
    session: Callable[[Any], Any]


def _complot() -> Any:
    from companion.ui import complot  # its screens are built the first time Complot is chosen

    return complot


#: The home screen's entry for each game kind of the registry (companion.games), by name.
GAME_SCREENS: dict[str, GameScreens] = {
    "noah": GameScreens(
        new_game=lambda app, score_only: app.open_new_game(score_only=score_only),
        resumable=lambda app: bool(getattr(getattr(app.view, "prompt", None), "unfinished", ())),
        resume=resume_game,
        session=lambda app: app.session),
    "complot": GameScreens(
        new_game=lambda app, score_only: _complot().open_new_game(app, score_only=score_only),
        resumable=lambda app: _complot().resumable(app),
        resume=lambda app, game_id: _complot().resume(app, game_id),
        session=lambda app: _complot().complot_screens(app).session),
}


def game_choices() -> list[tuple[str, str]]:
    """The games the home screen offers, in the registry's order: (name, catalog key).

    >>> game_choices()
    [('noah', 'games.noah'), ('complot', 'games.complot')]
    """
    from companion.games import kinds

    return [(kind.name, kind.title_key) for kind in kinds()]


class HomeScreen(Screen):
    """The game (a choice among the registry's, :func:`game_choices`), new game, resume (first
    when a game of the game chosen is open), score-only, history, settings, and the language:
    one button per language."""

    can_resume = BooleanProperty(False)
    game = StringProperty("noah")
    #: The catalog key of the chosen game's name (the subtitle: "Referee for the card game…").
    game_title = StringProperty("games.noah")
    #: Width kept free at the top right for the LAN page's badge (companion/ui/weblink.py).
    badge_room = NumericProperty(0)

    def show(self, _view: Any) -> None:
        self.refresh_resume()
        UndoCard.close()  # what to put back belonged to the game just left

    def refresh_resume(self) -> None:
        self.can_resume = GAME_SCREENS[self.game].resumable(App.get_running_app())

    def on_kv_post(self, _base: Any) -> None:
        App.get_running_app().bind(lang=lambda *_args: self._languages())
        self._languages()

    def on_game(self, *_args: Any) -> None:
        from companion.games import find_kind

        App.get_running_app().play(self.game)  # the hand camera reads this game's cards
        self.game_title = find_kind(self.game).title_key
        self._games()
        self.refresh_resume()

    def new_game(self, *, score_only: bool) -> None:
        """New game (or Scores only) of the game chosen."""
        GAME_SCREENS[self.game].new_game(App.get_running_app(), score_only)

    def resume(self) -> None:
        """Resume the newest unfinished game of the game chosen."""
        GAME_SCREENS[self.game].resume(App.get_running_app(), None)

    def _games(self) -> None:
        """A button per game; the chosen one green, ticked."""
        app = App.get_running_app()
        box = self.ids.games
        box.clear_widgets()
        for name, key in game_choices():
            chosen = name == self.game
            text = app.t(key)
            button = _button(f"✓ {text}" if chosen else text,
                             lambda name=name: setattr(self, "game", name),
                             background_color=theme.GO if chosen else theme.BUTTON)
            button.game = name
            box.add_widget(button)

    def _languages(self) -> None:
        """A button per language, named in its own script; the current one green, ticked."""
        from companion.ui.fonts import language_font
        from companion.ui.settings import language_names

        self._games()
        app = App.get_running_app()
        box = self.ids.languages
        box.clear_widgets()
        for code, name in language_names():
            chosen = code == app.lang
            button = _button(f"✓ {name}" if chosen else name,
                             lambda code=code: app.choose_language(code),
                             background_color=theme.GO if chosen else theme.BUTTON,
                             font_name=language_font(code, theme.FONT))
            button.height, button.language = 68, code
            # each as wide as its name needs and an equal share of the rest: "✓ Français"
            # on one line beside "English" and "中文"
            button.size_hint_x = theme.TOUCH + text_width(button.text, button.font_size,
                                                          font=button.font_name)
            box.add_widget(button)


class PlayerRow(BoxLayout):
    """One seat of a new game: name, token colour (named, not only shown), remove."""

    seat = NumericProperty(0)
    colour = StringProperty("red")

    def next_colour(self) -> None:
        """The next token colour no other player has (with five players: swapped with the
        player who has the next one)."""
        screen = App.get_running_app().root.sm.get_screen("new_game")
        screen.next_colour(self)


class NewGameScreen(Screen):
    """Players (2-5, names and colours), options, the cards to take out of the box."""

    score_only = BooleanProperty(False)
    removed_text = StringProperty("")

    def on_kv_post(self, _base: Any) -> None:
        for key in ("frog", "crocodile", "roommates", "pair_mf", "score26"):
            self.ids[key].bind(state=lambda *_args: self.update_removed())

    def prepare(self, names: list[str], *, score_only: bool) -> None:
        """Rows for ``names`` (the config's players), or three empty ones whose placeholder
        says "Player n": typing replaces it, an untouched one keeps it as the name."""
        self.score_only = score_only
        self.ids.rows.clear_widgets()
        colours: tuple[str, ...] = ()
        if not names:  # the last table's names and token colours, from its record
            names, colours = last_table(App.get_running_app().session.store)
        for seat, name in enumerate(names[:MAX_PLAYERS] or ["", "", ""]):
            self._add_row(name, colours[seat] if seat < len(colours) else None)
        self.update_removed()

    def _add_row(self, name: str, colour: str | None = None) -> None:
        taken = {row.colour for row in self.rows()}
        if colour not in theme.PLAYER_COLOURS or colour in taken:
            colour = next(c for c in theme.PLAYER_COLOURS if c not in taken)
        self.ids.rows.add_widget(PlayerRow(colour=colour))
        self._number_rows()
        self.rows()[-1].ids.name.text = name

    def _number_rows(self) -> None:
        app = App.get_running_app()
        for seat, row in enumerate(self.rows()):
            row.seat = seat
            row.ids.name.hint_text = app.t("new.player", n=seat + 1)

    def rows(self) -> list[PlayerRow]:
        return list(reversed(self.ids.rows.children))

    def names(self) -> list[str]:
        """The names typed, a placeholder where none was."""
        return [row.ids.name.text.strip() or row.ids.name.hint_text for row in self.rows()]

    def add_player(self) -> None:
        if len(self.rows()) < MAX_PLAYERS:
            self._add_row("")
            self.update_removed()

    def next_colour(self, row: PlayerRow) -> None:
        """``row``'s next token colour that nobody else has; when all are taken, ``row``
        swaps colours with the player who has the next one."""
        names = list(theme.PLAYER_COLOURS)
        others = {other.colour: other for other in self.rows() if other is not row}
        start = names.index(row.colour)
        following = [names[(start + step) % len(names)] for step in range(1, len(names))]
        free = next((c for c in following if c not in others), None)
        if free is None:
            owner = others[following[0]]
            owner.colour, row.colour = row.colour, following[0]
        else:
            row.colour = free

    def remove_player(self, row: PlayerRow) -> None:
        if len(self.rows()) > 2:
            self.ids.rows.remove_widget(row)
            self._number_rows()
            self.update_removed()

    def options(self) -> dict[str, Any]:
        """The options chosen; with scores only, the end rule alone (the rules' options are
        not offered: only tears are counted)."""
        ids = self.ids
        end_rule = {"end_rule": "score26" if ids.score26.state == "down" else "rounds"}
        if self.score_only:
            return end_rule
        return {"frog": ids.frog.state == "down", "crocodile": ids.crocodile.state == "down",
                "roommates": ids.roommates.state == "down",
                "pair_mf": ids.pair_mf.state == "down", **end_rule}

    def update_removed(self) -> None:
        """The cards to take out of the box for this many players and these options."""
        app = App.get_running_app()
        from companion.game.options import Options

        players = len(self.rows())
        removed = app.session.deck.removed_for(players, Options.from_dict(self.options()))
        if not len(removed):
            self.removed_text = app.t("new.remove_none")
            return
        counts = Counter(app.catalog.card_label(card.id) for card in removed)
        cards = app.t("words.list_sep").join(
            f"{label} ×{n}" if n > 1 else label for label, n in counts.items())
        self.removed_text = app.t("new.remove_cards", n=players, cards=cards)

    def start(self) -> None:
        rows = self.rows()
        App.get_running_app().start_game(
            self.names(), [row.colour for row in rows],
            self.options(), score_only=self.score_only)


def last_table(store: Any) -> tuple[list[str], tuple[str, ...]]:
    """The names and token colours of the newest game in the record (empty when there is
    none). The record's header is where they already live, written before the game started:
    nothing to keep in step in the settings file.

    >>> import pathlib, tempfile
    >>> from companion.session import GameStore
    >>> last_table(GameStore(pathlib.Path(tempfile.mkdtemp()) / "games.sqlite"))
    ([], ())
    """
    from companion.session.header import stored_tokens

    games = store.games()
    if not games:
        return [], ()
    newest = games[0]
    return newest.players, stored_tokens(newest.header)


class Answer(NamedTuple):
    """One answer button of a prompt: its words, what it does, the animal's picture (a card
    reference, or "") and the colour of the player it names (None: the theme's button)."""

    text: str
    action: Callable[[], object]
    picture: str = ""
    colour: tuple[float, ...] | None = None


class PromptPanel(BoxLayout):
    """The right-hand panel of the setup and table screens: what is awaited, in one sentence,
    with exactly the answers the rules allow now as buttons."""

    text = StringProperty("")
    verdict = StringProperty("")
    show_text = BooleanProperty(True)
    named = BooleanProperty(True)  # False: whose turn it is is written above (the table)
    picture = StringProperty("")
    _shown: tuple = ()

    def show(self, view: Any) -> None:
        app = App.get_running_app()
        prompt = view.prompt
        self.text = app.catalog.prompt(prompt, view.players, named=self.named)
        self.picture = prompt_picture(prompt)
        self.verdict = app.catalog.notice(view.notices[-1], view.players) if view.notices else ""
        answers = self._answers(app, view)
        shown = (view.prompt.kind, [answer.text for answer in answers])
        if shown == self._shown:
            return  # same buttons (their actions follow from kind and text): no redrawing
        self._shown = shown
        self._answers_shown = answers
        self._lay_out(answers)

    def on_height(self, *_args: Any) -> None:
        """The panel's room changed (the players' list folded away for a question): the
        answers may now fit in one column."""
        answers = getattr(self, "_answers_shown", [])
        if answers and self._columns([a.text for a in answers]) != self.ids.buttons.cols:
            self._lay_out(answers)

    def _lay_out(self, answers: list[Answer]) -> None:
        box = self.ids.buttons
        box.clear_widgets()
        box.cols = self._columns([answer.text for answer in answers])
        for answer in answers:
            colours = {} if answer.colour is None else {
                "background_color": answer.colour, "color": theme.text_on(answer.colour)}
            button = _button(answer.text, answer.action, picture=answer.picture, **colours)
            if box.cols == 2:  # names side by side: a long one keeps its start ("Anne-Ch…")
                button.shorten, button.shorten_from = True, "right"
            else:  # a long answer ("Je ne peux pas jouer") takes two lines, whole
                _grows(button)
            box.add_widget(button)

    def _columns(self, texts: list[str]) -> int:
        """One column of answers; two side by side for four or five names when each fits
        half the panel, or when one column would not fit its height (a long name then keeps
        its start, "Anne-Ch…", on the player's own colour)."""
        if len(texts) <= 3:
            return 1
        width = self.width if self.width > 100 else PANEL_WIDTH
        if all(text_width(text, theme.BODY) <= width / 2 - 12 for text in texts):
            return 2
        question = self.ids.question
        question.texture_update()
        room = self.height - (question.height if self.show_text else 0) - 8
        return 1 if len(texts) * (theme.TOUCH + 4) <= room else 2

    @staticmethod
    def _answers(app: Any, view: Any) -> list[Answer]:
        """Every answer the rules allow now (a player's name on their token's colour)."""
        prompt, session = view.prompt, app.session
        kind: Step = prompt.kind

        def act(intent: Callable[..., object], *args: Any) -> Callable[[], object]:
            return lambda: app.act(intent, *args)

        def player(seat: int, intent: Callable[..., object]) -> Answer:
            return Answer(_name(view, seat), act(intent, seat),
                          colour=theme.player_colour(view.tokens, seat))

        choose_player = {"choose_starter": session.choose_starter,
                         "choose_target": session.choose_target}.get(kind)
        if choose_player is not None:
            return [player(seat, choose_player) for seat in getattr(prompt, "choices", ())]
        if kind == "choose_snail_side":
            return [Answer(app.t("table.up", sign=app.t("sign." + side)),
                           act(session.choose_snail_side, side)) for side in prompt.legal]
        if kind == "choose_frog_weight":
            return [Answer(app.t("table.frog_weight", n=w) if w > 1 else app.t("table.frog_none"),
                           act(session.choose_frog_weight, w)) for w in prompt.choices]
        if kind == "choose_card":
            return [Answer(app.catalog.card_label(ref), act(session.choose_card, ref), ref)
                    for ref in prompt.candidates] + [Answer(app.t("table.cancel"),
                                                            act(session.cancel))]
        if kind == "move_noah" and prompt.giraffe_targets:
            looks = [player(seat, session.choose_target)  # "look at this one's hand"
                     for seat in prompt.giraffe_targets]
            return [*looks, Answer(app.t("table.no_look"), act(session.skip))]
        if kind == "give_cards":
            return [Answer(app.t("table.give"), lambda: GiftPopup(app.view).open())]
        if kind == "play_card" and prompt.can_take_back:
            return [Answer(app.t("table.cannot_play"), app.take_back)]
        return []


class SetupScreen(Screen):
    """Round setup, guided: Noah on a ferry, the five starting animals, who starts."""

    step = NumericProperty(0)
    scanned = NumericProperty(0)
    round = NumericProperty(1)
    asking = BooleanProperty(False)  # a question about the animal just shown (snail's side)
    step_text = StringProperty("")

    def show(self, view: Any) -> None:
        app = App.get_running_app()
        prompt = view.prompt
        self.round = (view.state.get("round") or 0) + 1
        self.scanned = sum(ref is not None for ref in view.setup_ferries)
        # a snail's side or a choice between cards in view belongs to the scanning step
        self.step = {"choose_noah_start": 0, "choose_starter": 2}.get(prompt.kind, 1)
        self.asking = prompt.kind in ("choose_snail_side", "choose_card")
        if self.step == 1:
            ferry = getattr(prompt, "ferry", None)
            if ferry is None:  # a question about the animal just shown: the ferry after it
                ferry = next((k for k, ref in enumerate(view.setup_ferries) if ref is None), 0)
            self.step_text = app.t("setup.step_ferry", n=ferry + 1, done=self.scanned)
        else:
            self.step_text = app.t("setup.step_noah" if self.step == 0 else "setup.step_starter")
        if self.asking or self.step != 1:
            app_tray = getattr(app, "_tray", None)  # the question is on this screen
            if app_tray is not None and app_tray._is_open:
                app_tray.dismiss()
        board = self.ids.board
        board.state = _setup_state(view)
        board.choices = list(getattr(prompt, "choices", ())) if self.step == 0 else []
        self.ids.panel.show(view)
        UndoCard.offer(view)


def _setup_state(view: Any) -> dict[str, Any]:
    """The board during setup: Noah and the animals scanned so far on the five ferries."""
    app = App.get_running_app()
    scanned = view.setup_ferries or [None] * 5
    ferries = [[ref] if ref else [] for ref in scanned]
    weights = [sum(_weight(app.session.deck, ref) for ref in ferry) for ferry in ferries]
    return {"ferries": ferries, "weights": weights, "capacities": [21] * 5,
            "noah": view.setup_noah}


def _weight(deck: Any, ref: str) -> int:
    """A card's weight (a snail's reference carries its side, its sticker does not)."""
    from companion.game.deck import format_ref

    species, _, copy = parse_ref(ref)
    card = deck.get(ref) or deck.get(format_ref(species, None, copy))
    return card.weight if card is not None else 0


#: Questions whose answers need the room of the players' list (it folds away meanwhile).
ASKING = ("choose_target", "choose_snail_side", "choose_frog_weight", "choose_card")


class TableScreen(Screen):
    """The table: five ferries, Noah, whose turn (big), every player's score and cards in hand,
    camera, last verdict."""

    asking = BooleanProperty(False)
    player = StringProperty("")
    player_font = NumericProperty(42)
    player_colour = ListProperty([1, 1, 1, 1])

    def show(self, view: Any) -> None:
        seat = view.prompt.player if view.prompt.player is not None else view.current_player
        self.player = _name(view, seat)
        self.player_font = fitting_font(self.player, width=218, largest=36, smallest=22)
        self.player_colour = list(theme.player_colour(view.tokens, seat or 0))
        self.asking = view.prompt.kind in ASKING or bool(
            getattr(view.prompt, "giraffe_targets", ()))
        self._players(view, seat)
        board = self.ids.board
        board.state = view.state
        board.choices = list(view.destinations)
        self.ids.panel.show(view)
        UndoCard.offer(view)

    def _players(self, view: Any, current: int | None) -> None:
        """Every player's line: score on the token's colour, name, cards in hand."""
        box = self.ids.players
        if self.asking:  # folded away: its room is the answers'
            box.clear_widgets()
            return
        if len(box.children) != len(view.players):
            box.clear_widgets()
            for _ in view.players:
                box.add_widget(PlayerLine())
        counts = list(view.state.get("hand_counts") or ())
        for seat, line in enumerate(reversed(box.children)):
            line.name = view.players[seat]
            line.score = view.scores[seat] if seat < len(view.scores) else 0
            line.count = counts[seat] if seat < len(counts) else 0
            line.colour = list(theme.player_colour(view.tokens, seat))
            line.current = seat == current


class RoundEndScreen(Screen):
    """Round end: the hands shown to the camera (or tears typed), then the tokens move on the
    score track."""

    mode = StringProperty("scan")  # scan | tears | result
    title = StringProperty("")
    detail = StringProperty("")

    def show(self, view: Any, *, result: bool = False) -> None:
        app = App.get_running_app()
        prompt = view.prompt
        self.mode = "result" if result else ("tears" if prompt.kind == "enter_tears" else "scan")
        number = len(view.round_scores) if result else (view.state.get("round") or 1)
        if prompt.kind == "enter_tears" and not result:
            number = prompt.round
        # "Round 2 is over" once its tears are in; while they are typed, what to type
        self.title = app.t("round.enter" if self.mode == "tears" else "round.title",
                           round=number)
        track = self.ids.track
        track.colours, track.names = list(view.tokens), list(view.players)
        if view.game_id != track.game:
            track.game, track.shown = view.game_id, [float(s) for s in view.scores]
        track.scores = list(view.scores)
        if self.mode != "scan":
            self.ids.scanned.clear_widgets()
        self.ids.legend.text = "\n".join(
            app.t("round.score", name=name, score=score)
            for name, score in zip(view.players, view.scores, strict=False))
        if self.mode == "result":
            tears = view.round_scores[-1] if view.round_scores else ()
            # "Player 4 (5)": a default name's number never runs into its tears
            self.detail = app.t("round.result", tears=app.catalog.scores(
                list(zip(view.players, tears, strict=False))))
        elif self.mode == "scan":
            self.detail = app.catalog.prompt(prompt, view.players, reading=app.reading)
            self._scanned_buttons(app, prompt.scanned)
        else:
            self.detail = app.t("round.tears")
            self._tears_rows(view)

    def _scanned_buttons(self, app: Any, scanned: tuple[str, ...]) -> None:
        """This hand's cards read so far; touching one takes a wrong read out again."""
        box = self.ids.scanned
        box.clear_widgets()
        for ref in scanned:
            button = _button(f"× {app.catalog.card_label(ref)}",  # ✕: no glyph in Chinese
                             lambda r=ref: app.act(app.session.remove_scanned, r), picture=ref)
            button.shorten = True
            box.add_widget(button)

    def _tears_rows(self, view: Any) -> None:
        box = self.ids.tears
        if len(box.children) == len(view.players):
            return
        box.clear_widgets()
        for name in view.players:
            box.add_widget(TearsRow(name=name))

    def tears(self) -> list[int]:
        return [row.value for row in reversed(self.ids.tears.children)]

    def save_tears(self) -> None:
        app = App.get_running_app()
        app.act(app.session.enter_tears, self.tears())
        for row in self.ids.tears.children:
            row.value = 0


class TearsRow(BoxLayout):
    """A player's tears this round, set with −, +1 and +5 (no keyboard, and no twelve taps for
    twelve tears); ``big_step`` 0 leaves +5 out (gifts go a card at a time)."""

    name = StringProperty("")
    value = NumericProperty(0)
    big_step = NumericProperty(5)


class GameEndScreen(Screen):
    """The winner, the per-round table and the BG Stats QR code."""

    winner = StringProperty("")
    winner_colour = ListProperty(theme.NOAH)
    ark = StringProperty(picture_of("ark"))

    def show(self, view: Any) -> None:
        app = App.get_running_app()
        seats = list(view.state.get("winners") or ())
        winners = [_name(view, seat) for seat in seats]
        key = "end.wins" if len(winners) == 1 else "end.share"
        self.winner = app.t(key, names=" & ".join(winners))
        # one winner: their token's colour; a shared win: Noah's gold
        self.winner_colour = list(theme.player_colour(view.tokens, seats[0])
                                  if len(seats) == 1 else theme.NOAH)
        self._table(app, view)
        self._qr(app)

    def _table(self, app: Any, view: Any) -> None:
        grid = self.ids.table
        grid.clear_widgets()
        grid.cols = len(view.round_scores) + 2
        header = ["", *(app.t("end.round", n=n + 1) for n in range(len(view.round_scores))),
                  app.t("end.total")]
        cells = [header]
        for seat, name in enumerate(view.players):
            cells.append([name, *(str(r[seat]) for r in view.round_scores),
                          str(view.scores[seat])])
        for row in cells:
            for column, text in enumerate(row):
                label = Label(text=text, font_size=theme.BODY, font_name=theme.FONT,
                              halign="left" if column == 0 else "center", valign="middle")
                if column == 0:  # a long name ends in "…" rather than running into its score
                    label.shorten, label.shorten_from = True, "right"
                    label.size_hint_x, label.width = None, 150  # the rounds share the rest
                    label.bind(size=lambda widget, size: setattr(widget, "text_size", size))
                else:  # a long heading ("Manche 1") wraps in its column
                    label.bind(width=lambda widget, width: setattr(widget, "text_size",
                                                                   (width, None)))
                grid.add_widget(label)

    def _qr(self, app: Any) -> None:
        import io

        from kivy.core.image import Image as CoreImage

        from companion.session.bgstats import qr_code

        url = app.session.bgstats_url()
        if not url:
            self.ids.qr.texture = None
            return
        buffer = io.BytesIO()
        qr_code(url).save(buffer, kind="png", scale=6, border=2)
        buffer.seek(0)
        self.ids.qr.texture = CoreImage(buffer, ext="png").texture


#: The History's "unfinished" sentence for each game kind's word for its periods
#: (companion.games: ``GameKind.period``).
UNFINISHED_KEYS = {"round": "history.unfinished", "manche": "history.unfinished_manche"}


class HistoryScreen(Screen):
    """Past games, newest first; an unfinished one resumes on touch."""

    empty = BooleanProperty(True)

    def on_pre_enter(self, *_args: Any) -> None:
        app = App.get_running_app()
        box = self.ids.games
        box.clear_widgets()
        records = app.session.store.games()[:30]
        self.empty = not records
        for record in records:
            box.add_widget(self._entry(app, record))

    @staticmethod
    def _entry(app: Any, record: Any) -> Button:
        from companion.games import kind_of

        kind = kind_of(record)
        summary = record.summary or {}
        scores = summary.get("scores") or []
        players = app.catalog.scores(list(zip(record.players, scores, strict=False))) \
            if scores else app.catalog.join(record.players)
        when = record.started_at[:16].replace("T", " ")
        # the game's own word for its periods: Noah's rounds, Complot's manches
        unfinished = UNFINISHED_KEYS.get(kind.period, "history.unfinished")
        state = app.t("history.finished") if record.finished else app.t(
            "history.abandoned") if record.abandoned else app.t(
            unfinished, round=summary.get("round", 1) or 1)
        text = f"{when}   {players}   ({state})"
        if record.finished or record.abandoned:
            return _grows(_button(text, lambda: None, background_color=(0.25, 0.3, 0.35, 1)))

        def resume() -> None:  # with that game's screens, its cards read by the camera
            app.root.sm.get_screen("home").game = kind.name
            GAME_SCREENS[kind.name].resume(app, record.id)

        return _grows(_button(text, resume))


class CardTray(ModalView):
    """Every card of the game as a touch target. In simulator mode a touch puts the card under
    the virtual camera; otherwise it is the manual entry of a card the camera cannot read.

    One tray serves a whole game: its buttons are made once and :meth:`offer` shows the ones
    that can be shown now (drawing 40 labels each time the tray opens would be slow).
    """

    title = StringProperty("")
    keep_open = BooleanProperty(False)

    def __init__(self, refs: list[str], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        app = App.get_running_app()
        self.refs = list(refs)
        self.title = app.t("tray.title_sim" if app.simulator else "tray.title")
        self._buttons = {ref: self._button(ref, label)
                         for ref, label in zip(refs, tray_labels(refs, app.catalog), strict=True)}

    def _button(self, ref: str, label: str) -> Button:
        button = _button(label, lambda: self.choose(ref), picture=ref,
                         background_color=theme.GENDER_COLOURS[parse_ref(ref).gender],
                         color=(0, 0, 0, 1))
        button.ref = ref  # which physical copy (tests and screenshots find it by this)
        button.shorten = True
        return button

    def offer(self, refs: list[str], *, keep_open: bool) -> None:
        """Show the buttons of ``refs`` only, and open. It stays open while the five starting
        animals are shown, as while the hands are shown at a round's end."""
        view = App.get_running_app().view
        self.keep_open = keep_open or (view is not None
                                       and view.prompt.kind == "scan_setup_card")
        grid = self.ids.grid
        grid.clear_widgets()
        for ref in refs:
            grid.add_widget(self._buttons[ref])
        if self._is_open:  # reopened while fading out: stop the fade, or its end removes us
            Animation.cancel_all(self, "_anim_alpha")
            self._anim_alpha = 1.0
        self.open()

    def choose(self, ref: str) -> None:
        App.get_running_app().card_touched(ref)
        if not self.keep_open:
            self.dismiss()
        elif ref in self._buttons:  # shown: it is on a ferry or read from a hand now
            self.ids.grid.remove_widget(self._buttons[ref])


def tray_labels(refs: list[str], catalog: Any) -> list[str]:
    """Tray labels; copies that look alike get their sticker's copy number.

    >>> from companion.i18n import Catalog
    >>> tray_labels(["cat:F#1", "cat:M#2", "cat:F#3"], Catalog("en"))
    ['Cat ♀ #1', 'Cat ♂', 'Cat ♀ #3']
    """
    labels = [catalog.card_label(ref) for ref in refs]
    counts = Counter(labels)
    return [f"{label} #{parse_ref(ref).copy}" if counts[label] > 1 else label
            for ref, label in zip(refs, labels, strict=True)]


class GiftPopup(ModalView):
    """The departing player's gifts (R20): how many cards each opponent receives."""

    count = NumericProperty(0)
    given = NumericProperty(0)
    title = StringProperty("")

    def __init__(self, view: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        app = App.get_running_app()
        prompt = view.prompt
        self.count = prompt.count
        self.title = app.catalog.prompt(prompt, view.players)
        self.rows = {seat: TearsRow(name=_name(view, seat), big_step=0)
                     for seat in prompt.opponents}
        for row in self.rows.values():
            row.bind(value=lambda *_a: self._total())
            self.ids.rows.add_widget(row)

    def _total(self) -> None:
        self.given = sum(row.value for row in self.rows.values())

    def give(self) -> None:
        gifts = {seat: int(row.value) for seat, row in self.rows.items() if row.value}
        self.dismiss()
        app = App.get_running_app()
        app.act(app.session.give_cards, gifts)


class UndoCard(ModalView):
    """After an undo, what to put back on the table, as a card over the screen that stays until
    the table touches "Done" (the session's ``reconcile`` notice, in the table's language);
    after a redo, the same card says what to do again on the table."""

    text = StringProperty("")
    title = StringProperty("")
    _seen: tuple = ()
    _open: UndoCard | None = None

    @classmethod
    def offer(cls, view: Any) -> None:
        """Open the card for a ``reconcile`` notice, or a redo, that is new in ``view``."""
        from companion.ui.application import _new_notices

        fresh = _new_notices(cls._seen, view.notices)
        cls._seen = view.notices
        app = App.get_running_app()
        wanted = [n for n in fresh if n.level == "reconcile"]
        redone = [redo_done(n) for n in fresh if is_redo(n)]
        if not (wanted or redone):
            return
        text = "\n".join(app.catalog.notice(notice, view.players)
                         for notice in wanted or redone)
        cls.close()
        card = cls._open = cls(text=text, title=app.t("undo.title" if wanted else "redo.title"))
        card.open()

    @classmethod
    def close(cls) -> None:
        if cls._open is not None:
            cls._open.dismiss()

    def on_dismiss(self) -> None:
        if UndoCard._open is self:
            UndoCard._open = None


def is_redo(notice: Any) -> bool:
    """Whether ``notice`` says an action was redone (the table must make it again)."""
    return bool(notice.phrases) and notice.phrases[0].key == "notice.redo"


def redo_done(notice: Any) -> Any:
    """A redo's notice without its "Redo:": what the table makes again.

    >>> from companion.session.view import Notice, Phrase
    >>> loaded = Phrase("event.loaded", {"name": "Ana", "animal": "♀ cat", "ferry": 3})
    >>> redo = Notice("info", (Phrase("notice.redo", {}), loaded))
    >>> redo.text, redo_done(redo).text, [phrase.key for phrase in redo_done(redo).phrases]
    ('Redo: Ana loaded the ♀ cat on ferry 3.', 'Ana loaded the ♀ cat on ferry 3.', ['event.loaded'])
    """
    from dataclasses import replace

    return replace(notice, phrases=notice.phrases[1:])  # the text follows its phrases


class CameraPopup(ModalView):
    """The camera's big view: what it sees now, to put a card where it reads it."""

    tap = ObjectProperty(None, allownone=True)
    caption = StringProperty("")


class MessagePopup(ModalView):
    """A problem the player must read (a bad name, a broken record): what and what next."""

    text = StringProperty("")
