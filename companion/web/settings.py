"""The ``[web]`` section of the config: the page on the local network (off by default).

::

    [web]
    enabled = no          # yes: serve the read-only page and show its QR code on the screen
    port = 8080           # 1024-65535
    host = 0.0.0.0        # the address to listen on (127.0.0.1: this machine only)
    mdns = yes            # announce "Noah table" on the network (python-zeroconf)
    max_clients = 32      # phones following the game at once; more are told to retry

>>> WebSettings.from_section({}).enabled
False
>>> WebSettings.from_section({"enabled": "yes", "port": "9000"}).port
9000
>>> WebSettings.from_section({"port": "80"})
Traceback (most recent call last):
...
companion.errors.UserError: [web] port = '80' is not a number from 1024 to 65535. Write a \
free port, e.g. port = 8080.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping
from dataclasses import dataclass

from companion.config import reject_unknown, setting_error, yes_or_no

KNOWN = ("enabled", "port", "host", "mdns", "max_clients")
DEFAULT_PORT = 8080


@dataclass(frozen=True)
class WebSettings:
    """The validated ``[web]`` section."""

    enabled: bool = False
    port: int = DEFAULT_PORT
    host: str = "0.0.0.0"
    mdns: bool = True
    max_clients: int = 32

    @classmethod
    def from_section(cls, values: Mapping[str, str]) -> WebSettings:
        reject_unknown("web", values, KNOWN)
        return cls(
            enabled=yes_or_no("web", "enabled", values.get("enabled", "no")),
            port=_number(values.get("port", str(DEFAULT_PORT)), "port", 1024, 65535,
                         "Write a free port, e.g. port = 8080."),
            host=_host(values.get("host", "0.0.0.0")),
            mdns=yes_or_no("web", "mdns", values.get("mdns", "yes")),
            max_clients=_number(values.get("max_clients", "32"), "max_clients", 1, 500,
                                "Write how many phones may follow the game, e.g. 32."),
        )


def _number(text: str, key: str, low: int, high: int, fix: str) -> int:
    value = text.strip()
    if value.isascii() and value.isdigit() and low <= int(value) <= high:
        return int(value)
    raise setting_error("web", f"{key} = {text!r} is not a number from {low} to {high}.", fix)


def _host(text: str) -> str:
    value = text.strip() or "0.0.0.0"
    try:
        ipaddress.ip_address(value)
    except ValueError:
        raise setting_error("web", f"host = {text!r} is not an IP address.",
                            "Write host = 0.0.0.0 (every network) or 127.0.0.1 (this "
                            "machine only).") from None
    return value
