"""What happened at the table, told in one short line per event (fr, en, zh), for ``complot demo``.

>>> from companion.complot.engine import Game, Verdict
>>> game = Game(["Ana", "Ben"])
>>> claimed = Verdict(True, changed=True, events=[
...     ("claimed", {"player": 1, "combination": "two_trios", "points": 15})])
>>> narrate(game, {"type": "claim", "player": 1, "claim": "complot"}, claimed, "fr")
['Ben : « Complot ! » — deux trios, 15 points. []']
"""

from __future__ import annotations

from typing import Any

from .engine import Game, Verdict
from .messages import ACTION_NAMES, COMBINATIONS, END_REASONS, LANGUAGES, sentence

WORDS = {"complot": "« Complot ! »", "prix_pulitzer": "« Prix Pulitzer ! »",
         "plan_etare": "« Plan Étaré ! »", "complot_elysee": "« Complot à l'Élysée ! »"}
#: event → (French, English, Chinese) templates.
EVENTS = {
    "dealt": ("— Manche {manche} : {dealer_name} distribue. —",
              "— Manche {manche}: {dealer_name} deals. —",
              "— 第 {manche} 局：{dealer_name} 發牌 —"),
    "claimed": ("{name} : {word} — {combination}, {points} points. [{cards}]",
                "{name}: {word} — {combination}, {points} points. [{cards}]",
                "{name}：{word} — {combination}，{points} 分。[{cards}]"),
    "wrong_claim": ("{name} : {word} — refusé. {reason} [{cards}]",
                    "{name}: {word} — refused. {reason} [{cards}]",
                    "{name}：{word} — 不成立。{reason} [{cards}]"),
    "action": ("{name} lance {action} contre {targets}.",
               "{name} launches {action} against {targets}.",
               "{name} 對 {targets} 發動 {action}。"),
    "defended": ("{target_name} montre {defence} : {the_action} est arrêté(e).",
                 "{target_name} shows {defence}: {the_action} is stopped.",
                 "{target_name} 亮出 {defence}：{the_action} 被擋下。"),
    "attentat": ("{name} pioche un Attentat !", "{name} draws an Attentat!",
                 "{name} 抽到 Attentat！"),
    "killed": ("{by_name} prend {card} à {name} : personnage tué.",
               "{by_name} takes {card} from {name}: a character killed.",
               "{by_name} 從 {name} 手中取走 {card}：角色遇害。"),
    "manche_over": ("Fin de la manche ({reason}) : {scores}.",
                    "End of the manche ({reason}): {scores}.",
                    "本局結束（{reason}）：{scores}。"),
}
_GAME_OVER = ("Partie terminée ! Victoire : {names}.", "Game over! Won by {names}.",
              "遊戲結束！獲勝者：{names}。")


def narrate(game: Game, action: dict[str, Any], verdict: Verdict, language: str) -> list[str]:
    """The lines telling ``verdict``'s events (after ``action`` was pushed on ``game``)."""
    index = LANGUAGES.index(language) if language in LANGUAGES else 0
    lines = []
    for kind, params in verdict.events:
        template = EVENTS.get(kind)
        if template is None:
            continue
        values = _values(game, action, params, index)
        lines.append(template[index].format(**values))
    if game.is_over and verdict.events and verdict.events[-1][0] == "manche_over":
        names = ", ".join(game.players[seat] for seat in game.winners)
        lines.append(_GAME_OVER[index].format(names=names))
    return lines


def _values(game: Game, action: dict[str, Any], params: dict[str, Any],
            index: int) -> dict[str, Any]:
    values = dict(params)
    for key in ("player", "dealer", "by", "target"):
        if key in params:
            values[f"{key}_name"] = game.players[params[key]]
    values["name"] = values.get("player_name", "")
    values["word"] = WORDS.get(action.get("claim", ""), "")
    if action.get("type") == "claim" and "player" in params:
        shown = game.laid(params["player"]) or game.hand(params["player"])
        values["cards"] = ", ".join(str(game.deck[card]) for card in shown)
    for key in ("card", "defence"):
        if key in params:
            values[key] = str(game.deck[params[key]])
    if "targets" in params:
        values["targets"] = ", ".join(game.players[seat] for seat in params["targets"])
    values.update(_words(game, params, index))
    return values


def _words(game: Game, params: dict[str, Any], index: int) -> dict[str, str]:
    """The event's words in the language ``index``: combination, reason, action, scores."""
    words = {}
    if "combination" in params:
        words["combination"] = COMBINATIONS[params["combination"]][index]
    if "code" in params:
        words["reason"] = sentence(params["code"], LANGUAGES[index])
    if "action" in params:
        words["action"] = ACTION_NAMES[params["action"]][0][index]
        words["the_action"] = ACTION_NAMES[params["action"]][1][index]
    if "reason" in params:
        words["reason"] = END_REASONS.get(params["reason"], ("", "", ""))[index]
    if isinstance(params.get("points"), list):
        words["scores"] = ", ".join(f"{name} {total}" for name, total
                                    in zip(game.players, game.scores, strict=True))
    return words
