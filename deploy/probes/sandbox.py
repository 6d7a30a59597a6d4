"""Run as the service (deploy/test-in-chroot.sh puts it in place of the app): print, one line
each, what the hardened unit lets the app do and what it refuses."""

import grp
import os
import socket
from pathlib import Path


def attempt(what: str, action) -> None:
    try:
        action()
    except OSError as error:
        print(f"refused: {what} ({error.strerror or error})")
    else:
        print(f"allowed: {what}")


def write(path: str) -> None:
    Path(path).write_text("probe\n")
    Path(path).unlink()


attempt("write in the state directory", lambda: write("/var/lib/noah-companion/probe"))
attempt("write in the working directory (lgpio's .lgd-nfy files)", lambda: write(".lgd-nfy-probe"))
attempt("write in the cache directory", lambda: write("/var/cache/noah-companion/probe"))
attempt("write in /etc", lambda: write("/etc/noah-probe"))
attempt("write in /opt/noah-companion", lambda: write("/opt/noah-companion/probe"))
attempt("list /home/pi", lambda: os.listdir("/home/pi"))
attempt("open an internet socket", lambda: socket.socket(socket.AF_INET).close())
attempt("open a netlink socket (udev)",
        lambda: socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 15).close())
attempt("open a local socket", lambda: socket.socket(socket.AF_UNIX).close())
attempt("change the process priority (setpriority)", lambda: os.setpriority(
    os.PRIO_PROCESS, 0, -5))
print("user:", os.getuid(), "groups:", " ".join(sorted(grp.getgrgid(g).gr_name
                                                      for g in os.getgroups())))
print("working directory:", os.getcwd())
print("KIVY_HOME:", os.environ.get("KIVY_HOME"), "SDL_VIDEODRIVER:",
      os.environ.get("SDL_VIDEODRIVER"))
