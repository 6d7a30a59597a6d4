"""The error a person sees when the lights cannot start: what happened, and what to do next."""


class HardwareError(Exception):
    """A wiring, setting or permission problem the user can fix.

    It has the same shape as :class:`companion.errors.UserError` (``what`` and ``fix``) without
    importing it, because :mod:`hardware` never imports :mod:`companion`.

    >>> error = HardwareError("GPIO 17 is used twice.", "Give each part its own pin.")
    >>> str(error)
    'GPIO 17 is used twice. Give each part its own pin.'
    """

    def __init__(self, what: str, fix: str = "") -> None:
        super().__init__(f"{what} {fix}".strip())
        self.what = what
        self.fix = fix
