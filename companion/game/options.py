"""Game options: the table-log header's ``options`` object, plus the score-only mode."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any

from .errors import InputError

END_RULES = ("rounds", "score26")


@dataclass(frozen=True, slots=True)
class Options:
    """How this table plays (TABLE-LOG header ``options``).

    ``hidden``: hands are known only by count (a real table with a camera referee, R48).
    ``frog`` / ``crocodile``: promo animals replace snails / donkeys (R6). ``roommates``: R47.
    ``pair_mf``: the pair bonus needs a male and a female (R27). ``end_rule``: ``"rounds"``
    (3 rounds, R40) or ``"score26"`` (until someone has 26 or more, R41). ``score_only``: no
    cards are followed, people type each round's tears (:class:`~.actions.ScoreRound`).

    >>> Options.from_dict({"hidden": True, "end_rule": "score26"}).end_rule
    'score26'
    >>> Options(frog=True).to_dict()["frog"]
    True
    """

    hidden: bool = False
    frog: bool = False
    crocodile: bool = False
    roommates: bool = False
    pair_mf: bool = False
    end_rule: str = "rounds"
    score_only: bool = False

    def __post_init__(self) -> None:
        for item in fields(self):
            value = getattr(self, item.name)
            if item.name == "end_rule":
                if value not in END_RULES:
                    raise InputError(
                        f"Option end_rule is {value!r}: use \"rounds\" (3 rounds) or "
                        "\"score26\" (until someone has 26 or more).",
                        field="end_rule",
                    )
            elif not isinstance(value, bool):
                raise InputError(
                    f"Option {item.name} is {value!r}: use true or false.", field=item.name
                )

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Options:
        """Options from a table-log header; unknown keys are ignored (TABLE-LOG)."""
        known = {item.name for item in fields(cls)}
        return cls(**{key: value for key, value in data.items() if key in known})

    def to_dict(self) -> dict[str, Any]:
        """The header's ``options`` object (``score_only`` included)."""
        return asdict(self)
