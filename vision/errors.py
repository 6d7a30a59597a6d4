"""The vision package's own error, with a message a player can act on.

:class:`VisionError` mirrors :class:`companion.errors.UserError` (what happened, what to do next)
without importing :mod:`companion`; the command line prints it in one or two sentences.
"""


class VisionError(Exception):
    """A problem with a setting, a source or a decoder that the user can fix.

    ``key`` names the config key at fault, if any; ``words`` and ``params``, when given, name
    the same sentences in the app's catalogs (``config.*``) and their facts, so a screen can
    say them in the table's language.

    >>> str(VisionError("The camera 'fps' must be a number, not 'fast'.", "Write e.g. fps = 15."))
    "The camera 'fps' must be a number, not 'fast'. Write e.g. fps = 15."
    """

    def __init__(self, what: str, fix: str = "", *, key: str | None = None,
                 words: str | None = None, **params: object) -> None:
        super().__init__(f"{what} {fix}".strip())
        self.what = what
        self.fix = fix
        self.key = key
        self.words = words
        self.params = params
