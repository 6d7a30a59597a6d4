"""Announce the page on the local network as "Noah table" (mDNS/DNS-SD, python-zeroconf).

The announcement carries the address and port, never the token: a phone that finds the table
this way gets the page saying to scan the QR code on the table's screen. Failing to announce
(no multicast, zeroconf missing) is a warning in the log, never a crash: the QR code and the
address on the screen work without it.
"""

from __future__ import annotations

import logging
import socket
import threading
from typing import Any

log = logging.getLogger(__name__)

SERVICE = "_http._tcp.local."
NAME = "Noah table"


class Announcer:
    """Registers the service in a thread of its own (zeroconf probes for about a second)."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self._zeroconf: Any = None
        self._info: Any = None
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._register, name="noah-mdns", daemon=True)
        self._thread.start()

    def _register(self) -> None:
        try:
            from zeroconf import ServiceInfo, Zeroconf

            self._info = ServiceInfo(
                SERVICE, f"{NAME}.{SERVICE}", addresses=[socket.inet_aton(self.host)],
                port=self.port, properties={"path": "/"}, server="noah-table.local.",
            )
            self._zeroconf = Zeroconf()
            self._zeroconf.register_service(self._info, allow_name_change=True)
        except Exception as error:  # any failure only costs the discovery
            log.warning("The table could not announce itself on the network (%s); the QR code "
                        "and the address on the screen still work.", error)
            self._zeroconf = None

    def stop(self) -> None:
        if self._thread is not None:
            self._thread.join(5)
        if self._zeroconf is not None:
            try:
                self._zeroconf.unregister_service(self._info)
                self._zeroconf.close()
            except Exception as error:
                log.warning("The announcement could not be withdrawn: %s", error)
