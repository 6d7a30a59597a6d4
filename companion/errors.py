"""The one exception type that reaches a person.

Anything from outside the program (a file, a QR text, a setting, a device) that is wrong raises
:class:`UserError`. The CLI prints it as one or two plain sentences and exits with status 2; the
app shows it in a banner. Programming errors stay ordinary exceptions.
"""


class UserError(Exception):
    """A problem the user can fix: what happened, and what to do next (in English; ``key`` and
    ``params``, when given, let the app say it in the table's language).

    >>> str(UserError("The deck file has no 'species' column.", "Add a header line."))
    "The deck file has no 'species' column. Add a header line."
    """

    def __init__(self, what: str, fix: str = "", *, key: str | None = None,
                 **params: object) -> None:
        super().__init__(f"{what} {fix}".strip())
        self.what = what
        self.fix = fix
        self.key = key  # for translations: a catalog key worded from ``params`` (the app's)
        self.params = params
