"""One plain sentence per refusal code (section H) and per event, in French (the game's own
words), English and Traditional Chinese. French character names stay French in every language;
the categories that are ordinary words are translated (:data:`CATEGORY_NAMES`), the families'
names are not.

>>> print(sentence("claim_not_met", "fr"))
Ces six cartes ne forment pas la combinaison annoncée : reprenez vos cartes, vous passez un tour.
>>> sentence("joker_not_noe", "en")
'Only the Archangel Noé can stand for Noé: take your cards back, you miss a turn.'
>>> category_name("EM", "en"), category_name("DU", "zh"), category_name("PO", "fr")
('General Staff', 'Famille Duron', 'Pompiers')
>>> sentence("no_such_code", "zh")
'無法接受這個動作。'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .cards import CATEGORIES

LANGUAGES = ("fr", "en", "zh")

#: code → (French, English, Traditional Chinese).
REFUSALS: dict[str, tuple[str, str, str]] = {
    "setup_invalid": (
        "Une partie se joue à 2 à 6 joueurs.",
        "A game needs 2 to 6 players.",
        "遊戲需要 2 至 6 位玩家。"),
    "not_your_turn": (
        "Ce n'est pas votre tour : attendez-le.",
        "It is not your turn: wait for it.",
        "還沒輪到你，請等候。"),
    "player_out": (
        "Vous avez déjà posé votre jeu : vous êtes hors de cette manche.",
        "You already laid your hand down: you are out of this manche.",
        "你已經攤牌，這一局你已出局。"),
    "turn_skipped": (
        "Vous passez ce tour après une annonce fausse.",
        "You miss this turn after a wrong announcement.",
        "錯誤宣告後，你這一輪要跳過。"),
    "manche_over": (
        "La manche est finie : distribuez la suivante.",
        "The manche is over: deal the next one.",
        "這一局已結束，請發下一局的牌。"),
    "game_over": (
        "La partie est finie : le score visé est atteint. Commencez-en une autre.",
        "The game is over: the target score was reached. Start a new one.",
        "遊戲已結束：已達到目標分數。請開始新的一局。"),
    "already_drawn": (
        "Vous avez déjà pioché ce tour-ci : défaussez une carte.",
        "You already drew this turn: discard a card.",
        "你這一輪已經抽過牌，請棄一張牌。"),
    "discard_top_blocked": (
        "Cette carte de la défausse a servi à une action (ou c'est un Attentat) : piochez dans "
        "la pioche.",
        "The top of the défausse served in an action (or is an Attentat): draw from the pioche.",
        "棄牌堆頂的牌已用於行動（或是 Attentat），請從抽牌堆抽牌。"),
    "discard_empty": (
        "La défausse est vide : piochez dans la pioche.",
        "The défausse is empty: draw from the pioche.",
        "棄牌堆是空的，請從抽牌堆抽牌。"),
    "card_not_in_hand": (
        "Cette carte n'est pas dans votre jeu.",
        "That card is not in your hand.",
        "這張牌不在你的手上。"),
    "unknown_card": (
        "Cette carte n'existe pas dans ce jeu : relisez-la.",
        "That card is not in this deck: read it again.",
        "這副牌沒有這張牌，請重新讀取。"),
    "card_not_in_play": (
        "Cette carte ne sert pas à ce niveau : rangez-la dans la boîte.",
        "That card is not used at this level: put it back in the box.",
        "這個等級不使用這張牌，請放回盒中。"),
    "duplicate_card": (
        "La même carte est comptée deux fois : montrez de nouveau les cartes.",
        "The same card was counted twice: show the cards again.",
        "同一張牌被算了兩次，請重新展示。"),
    "hand_size": (
        "Une annonce se fait en posant les 6 cartes du jeu : montrez-les toutes.",
        "An announcement lays down all 6 cards of the hand: show them all.",
        "宣告時須攤出手上全部 6 張牌。"),
    "attentat_in_hand": (
        "On ne garde jamais un Attentat en main : relisez les cartes.",
        "An Attentat is never kept in hand: read the cards again.",
        "Attentat 不能留在手上，請重新讀取。"),
    "claim_wrong_moment": (
        "On annonce juste après sa défausse, pas en début de tour : vous passez un tour.",
        "Announce right after your discard, not at the start of a turn: you miss a turn.",
        "宣告須在棄牌後立即進行，而非回合開始：你要跳過一輪。"),
    "elysee_must_wait": (
        "Le Complot à l'Élysée s'annonce au début d'un tour suivant, sans piocher : vous passez "
        "un tour.",
        "The Complot à l'Élysée is announced at the start of a later turn, without drawing: you "
        "miss a turn.",
        "Complot à l'Élysée 須在之後的回合開始時、抽牌前宣告：你要跳過一輪。"),
    "one_claim_per_turn": (
        "Une seule annonce par tour.",
        "Only one announcement per turn.",
        "每輪只能宣告一次。"),
    "claim_not_met": (
        "Ces six cartes ne forment pas la combinaison annoncée : reprenez vos cartes, vous "
        "passez un tour.",
        "These six cards do not make the announced combination: take your cards back, you "
        "miss a turn.",
        "這六張牌不構成所宣告的組合：請收回手牌，你要跳過一輪。"),
    "joker_not_noe": (
        "Seul l'Archange Noé peut remplacer un Noé : reprenez vos cartes, vous passez un tour.",
        "Only the Archangel Noé can stand for Noé: take your cards back, you miss a turn.",
        "只有大天使 Noé 可以代替 Noé：請收回手牌，你要跳過一輪。"),
    "villain_not_allowed": (
        "Les méchants ne comptent jamais dans une combinaison : reprenez vos cartes, vous "
        "passez un tour.",
        "The méchants never count in a combination: take your cards back, you miss a turn.",
        "反派牌不能算入任何組合：請收回手牌，你要跳過一輪。"),
    "action_not_in_level": (
        "Cette action ne se joue pas à ce niveau.",
        "That action is not played at this level.",
        "這個等級不能使用此行動。"),
    "must_draw_first": (
        "Piochez d'abord une carte.",
        "Draw a card first.",
        "請先抽一張牌。"),
    "one_action_per_turn": (
        "Une seule action par tour.",
        "Only one action per turn.",
        "每輪只能進行一次行動。"),
    "wrong_card_count": (
        "Pas le bon nombre de cartes pour cette action (contrôle 1 Enquêteur, descente 3).",
        "Wrong number of cards for this action (contrôle 1 Investigator, descente 3).",
        "此行動的牌數不對（contrôle 1 張調查員，descente 3 張）。"),
    "wrong_action_card": (
        "Cette carte ne peut pas lancer cette action.",
        "That card cannot launch this action.",
        "這張牌不能發動此行動。"),
    "invalid_target": (
        "Visez un adversaire encore dans la manche.",
        "Target an opponent still in the manche.",
        "請指定仍在本局中的對手。"),
    "wrong_target_count": (
        "Pas le bon nombre d'adversaires visés (deux pour un espion violet, sinon un).",
        "Wrong number of targets (two for a violet spy, otherwise one).",
        "目標人數不對（紫色間諜兩位，其餘一位）。"),
    "defence_not_allowed": (
        "On ne se défend pas contre un espion ou une bombe.",
        "There is no defence against a spy or a bomb.",
        "間諜與炸彈無法防禦。"),
    "defence_not_etat_major": (
        "Seule une carte État-Major peut arrêter un Enquêteur.",
        "Only a General Staff card can stop an Investigator.",
        "只有參謀部的牌可以阻擋調查員。"),
    "defence_grade_too_low": (
        "Ce grade n'est pas strictement plus élevé que celui de l'Enquêteur : le contrôle a lieu.",
        "That grade is not strictly higher than the Investigator's: the action goes ahead.",
        "這個軍階沒有嚴格高於調查員：行動照常進行。"),
    "must_keep_six": (
        "Terminez le tour avec 6 cartes, ni plus ni moins.",
        "End the turn with 6 cards, no more, no fewer.",
        "回合結束時手上須剛好 6 張牌。"),
    # The table with hidden hands (companion/complot/table.py), beyond section H.
    "scores_only_game": (
        "Cette partie ne compte que les points : notez l'annonce avec sa combinaison.",
        "This game keeps the scores only: record the claim with its combination.",
        "這局只記分數：請以組合記錄宣告。"),
    "needs_cards": (
        "Cette partie juge les annonces sur les cartes : posez les 6 cartes.",
        "This game judges claims from the cards: lay the 6 cards down.",
        "這局依牌面判定宣告：請攤出 6 張牌。"),
    "no_action_to_defend": (
        "Il n'y a ni contrôle ni descente à arrêter en ce moment.",
        "There is no contrôle or descente to stop now.",
        "目前沒有可阻擋的 contrôle 或 descente。"),
    "manche_not_over": (
        "La manche n'est pas finie : jouez-la jusqu'au bout.",
        "The manche is not over yet: play it to its end.",
        "這一局尚未結束，請打完。"),
    "foreign_code": (
        "Ce code n'est pas une carte de Complot : ignoré.",
        "That code is not a Complot card: ignored.",
        "這個代碼不是 Complot 的牌：已略過。"),
    "bad_sticker": (
        "Cet autocollant ne se lit pas comme une carte de cette boîte : vérifiez-le avec « tags "
        "check ».",
        "That sticker does not read as a card of this box: check it with 'tags check'.",
        "這張貼紙無法讀成這盒牌中的牌：請用「tags check」檢查。"),
    "no_game": (
        "Aucune partie n'est ouverte : commencez-en une ou reprenez-en une.",
        "No game is open: start one or resume one.",
        "目前沒有進行中的遊戲：請開始或繼續一局。"),
    "nothing_to_undo": (
        "Il n'y a rien à annuler.",
        "There is nothing to undo.",
        "沒有可以復原的動作。"),
    "nothing_to_redo": (
        "Il n'y a rien à rétablir.",
        "There is nothing to redo.",
        "沒有可以重做的動作。"),
    "bad_input": (
        "Cette demande est mal formée : recommencez.",
        "This request is malformed: try again.",
        "這個請求格式錯誤，請重試。"),
}
#: Category code → its name (French, English, Traditional Chinese). The French is the
#: card's (companion.complot.cards.CATEGORIES). Categories that are ordinary words are
#: translated; the families and the made-up names (Léonard, Alphas, Sénéchales, Empires,
#: Famille Duron) keep theirs, and so do the Attentats, the game's word for its bomb cards as
#: «pioche» and «défausse» are for its piles (docs/complot.md, "Names on the screens").
_CATEGORIES_ELSEWHERE: dict[str, tuple[str, str]] = {  # (English, Chinese)
    "EM": ("General Staff", "參謀部"),
    "EN": ("Investigators", "調查員"),
    "ES": ("Spies", "間諜"),
    "PO": ("Firefighters", "消防員"),
    "JO": ("Journalists", "記者"),
    "AR": ("Archangel", "大天使"),
    "RO": ("Red spies", "紅色間諜"),
    "VI": ("Violet spies", "紫色間諜"),
    "PB": ("Bomb-setters", "炸彈客"),
}
CATEGORY_NAMES: dict[str, tuple[str, str, str]] = {
    code: (french, *_CATEGORIES_ELSEWHERE.get(code, (french, french)))
    for code, (_slug, french) in CATEGORIES.items()}
#: Combination id (C31, C32, C40) → its name (French, English, Traditional Chinese).
COMBINATIONS = {
    "two_trios": ("deux trios", "two trios", "兩組三張"),
    "six_duron": ("six Famille Duron", "six Famille Duron", "六張 Famille Duron"),
    "six_senechales": ("six Sénéchales", "six Sénéchales", "六張 Sénéchales"),
    "six_leonards": ("six Léonard", "six Léonard", "六張 Léonard"),
    "six_empires": ("six Empires", "six Empires", "六張 Empires"),
    "five_alphas": ("cinq Alphas", "five Alphas", "五張 Alphas"),
    "prix_pulitzer": ("Prix Pulitzer", "Prix Pulitzer", "Prix Pulitzer"),
    "plan_etare": ("Plan Étaré", "Plan Étaré", "Plan Étaré"),
    "complot_elysee": ("Complot à l'Élysée", "Complot à l'Élysée", "Complot à l'Élysée"),
}
#: action → (French with its article, English, Chinese), then the same with "the".
ACTION_NAMES = {
    "controle": (("un contrôle", "a «contrôle»", "«contrôle»"),
                 ("le contrôle", "the «contrôle»", "«contrôle»")),
    "descente": (("une descente", "a «descente»", "«descente»"),
                 ("la descente", "the «descente»", "«descente»")),
    "hameconnage": (("un hameçonnage", "a red spy's «hameçonnage»", "紅色間諜的 «hameçonnage»"),
                    ("l'hameçonnage", "the «hameçonnage»", "«hameçonnage»")),
    "double_hameconnage": (("un double hameçonnage", "a violet spy's double «hameçonnage»",
                            "紫色間諜的雙重 «hameçonnage»"),
                           ("le double hameçonnage", "the double «hameçonnage»",
                            "雙重 «hameçonnage»")),
    "bombe": (("une bombe", "a bomb", "炸彈"), ("la bombe", "the bomb", "炸彈")),
}
END_REASONS = {
    "last_player": ("il ne reste qu'un joueur", "one player left", "只剩一位玩家"),
    "elysee": ("Complot à l'Élysée", "Complot à l'Élysée", "Complot à l'Élysée"),
    "pioche_empty": ("pioche vide", "the pioche is empty", "抽牌堆已空"),
}
#: What happened at a table with hidden hands, event → (French, English, Chinese): one
#: sentence that says what happened and what to do next.
TABLE_EVENTS = {
    "turn": ("À {next} de jouer.", "{next}'s turn.", "輪到 {next}。"),
    "discarded": ("{player} a défaussé {card}.", "{player} discarded {card}.",
                  "{player} 棄了 {card}。"),
    "top": ("Sur la défausse : {card}.", "On top of the défausse: {card}.",
            "棄牌堆頂：{card}。"),
    "claimed": ("{player} marque {points} points ({combination}) et sort de la manche.",
                "{player} scores {points} points ({combination}) and is out of the manche.",
                "{player} 得 {points} 分（{combination}），退出本局。"),
    "wrong_claim": ("{player} : {reason}", "{player}: {reason}", "{player}：{reason}"),
    "action": ("{player} lance {action} contre {targets}.",
               "{player} launches {action} against {targets}.",
               "{player} 對 {targets} 發動 {action}。"),
    "defendable": ("{target} peut l'arrêter en montrant un État-Major plus gradé.",
                   "{target} may stop it by showing a higher-ranked General Staff card.",
                   "{target} 可以亮出軍階更高的參謀部牌來阻擋。"),
    "defended": ("{target} montre {defence} : {the_action} est arrêté(e), sans saisie.",
                 "{target} shows {defence}: {the_action} is stopped, nothing is seized.",
                 "{target} 亮出 {defence}：{the_action} 被擋下，不能奪牌。"),
    "manche_over": ("Fin de la manche ({reason}) : distribuez la suivante.",
                    "End of the manche ({reason}): deal the next one.",
                    "本局結束（{reason}）：請發下一局的牌。"),
    "game_over": ("Partie terminée ! Victoire : {winners}.", "Game over! Won by {winners}.",
                  "遊戲結束！獲勝者：{winners}。"),
    "manche_started": ("Manche {manche} : {dealer} distribue.",
                       "Manche {manche}: {dealer} deals.",
                       "第 {manche} 局：{dealer} 發牌。"),
}
#: What the table puts back when an action is undone, by the action's type (fr, en, zh).
UNDONE = {
    "turn": ("Annulé : à {player} de jouer de nouveau.",
             "Undone: it is {player}'s turn again.",
             "已復原：又輪到 {player}。"),
    "claim": ("Annulé : l'annonce de {player} ; {player} reprend en main les cartes posées.",
              "Undone: {player}'s claim; {player} picks the laid cards up again.",
              "已復原：{player} 的宣告；{player} 收回攤出的牌。"),
    "wrong_claim": ("Annulé : l'annonce refusée de {player} ; {player} ne passe plus de tour.",
                    "Undone: {player}'s refused claim; {player} no longer misses a turn.",
                    "已復原：{player} 被拒的宣告；{player} 不必再跳過一輪。"),
    "claim_points": ("Annulé : les points de l'annonce de {player}.",
                     "Undone: the points of {player}'s claim.",
                     "已復原：{player} 宣告的分數。"),
    "action": ("Annulé : l'action de {player} ; rendez les cartes prises, {player} reprend "
               "ses cartes d'action.",
               "Undone: {player}'s action; give back any card taken, {player} picks the "
               "action cards up.",
               "已復原：{player} 的行動；歸還被取走的牌，{player} 收回行動牌。"),
    "defence": ("Annulé : la défense ; l'action reprend son cours.",
                "Undone: the defence; the action goes ahead again.",
                "已復原：防禦；行動恢復進行。"),
    "end_manche": ("Annulé : la fin de la manche ; elle continue.",
                   "Undone: the end of the manche; it goes on.",
                   "已復原：本局結束；本局繼續。"),
    "next_manche": ("Annulé : la nouvelle manche ; retour à la fin de la précédente.",
                    "Undone: the new manche; back to the end of the last one.",
                    "已復原：新的一局；回到上一局結束時。"),
    "defausse": ("Annulé : la carte montrée sur la défausse.",
                 "Undone: the card shown on top of the défausse.",
                 "已復原：棄牌堆頂的牌。"),
    "note": ("Annulé : une note.", "Undone: a note.", "已復原：一則備註。"),
}
_FALLBACK = ("Action refusée.", "Action refused.", "無法接受這個動作。")


def sentence(code: str, language: str = "fr") -> str:
    """The sentence for a refusal ``code`` in ``language`` (fr, en or zh; French otherwise)."""
    index = LANGUAGES.index(language) if language in LANGUAGES else 0
    return REFUSALS.get(code, _FALLBACK)[index]


def table_sentence(event: str, params: Mapping[str, Any], players: Sequence[str],
                   language: str = "fr") -> str:
    """One event of a hidden-hands table (:data:`TABLE_EVENTS`) told in ``language``: seats
    become names, ids become the game's words.

    >>> table_sentence("claimed", {"player": 1, "combination": "six_leonards", "points": 50},
    ...                ["Ana", "Ben"], "en")
    'Ben scores 50 points (six Léonard) and is out of the manche.'
    >>> table_sentence("wrong_claim", {"player": 0, "code": "joker_not_noe"}, ["Ana", "Ben"])
    "Ana : Seul l'Archange Noé peut remplacer un Noé : reprenez vos cartes, vous passez un tour."
    """
    index = LANGUAGES.index(language) if language in LANGUAGES else 0
    words = {**params, **_names(params, players)}
    if "combination" in params:
        words["combination"] = COMBINATIONS[params["combination"]][index]
    if "action" in params:
        words["action"] = ACTION_NAMES[params["action"]][0][index]
        words["the_action"] = ACTION_NAMES[params["action"]][1][index]
    for key in ("defence", "card"):
        if key in params:
            words[key] = card_label(params[key], LANGUAGES[index])
    if "code" in params:
        words["reason"] = sentence(params["code"], LANGUAGES[index])
    elif "reason" in params:
        words["reason"] = END_REASONS[params["reason"]][index]
    templates = UNDONE.get(params.get("type", ""), UNDONE["note"]) if event == "undone" \
        else TABLE_EVENTS[event]
    return templates[index].format(**words)


def _names(params: Mapping[str, Any], players: Sequence[str]) -> dict[str, str]:
    """The seats of an event's params as the players' names (lists joined with commas)."""
    names = {key: players[params[key]] for key in ("player", "next", "target", "dealer")
             if is_seat(params.get(key), players)}
    for key in ("targets", "winners"):
        if key in params:
            names[key] = ", ".join(players[seat] for seat in params[key])
    return names


def card_label(card_id: str, language: str = "fr") -> str:
    """A card as people say it: « Sophie (État-Major) », « Sophie (General Staff) » (the id
    itself if it is unknown).

    >>> card_label("etat-major:sophie", "en"), card_label("leonard:emma", "zh")
    ('Sophie (General Staff)', 'Emma (Léonard)')
    """
    from .cards import default_deck

    card = default_deck().get(card_id)
    if card is None:
        return card_id
    return f"{card.first_name} ({category_name(card.category, language)})"


def category_name(category: str, language: str = "fr") -> str:
    """A category's name in ``language`` (fr, en, zh; French otherwise), from its code."""
    index = LANGUAGES.index(language) if language in LANGUAGES else 0
    return CATEGORY_NAMES[category][index]


def is_seat(value: object, players: Sequence[str]) -> bool:
    """A JSON integer naming one of the ``players``' seats."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(players)
