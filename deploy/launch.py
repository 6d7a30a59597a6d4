"""Start the Noah Table Companion under systemd so that any crash ends the whole process.

A worker thread (camera pipeline, game store, lights) that dies of an uncaught exception would
otherwise leave the touchscreen app running with nothing behind it: systemd sees a live process
and never restarts it. Here the thread's traceback goes to the journal, then the process exits
with status 70 (EX_SOFTWARE) and ``Restart=on-failure`` starts a fresh app, which resumes the
game from its store.

Installed by deploy/install.sh as /opt/noah-companion/launch.py; the unit runs it with
``python -X faulthandler`` so that a fatal signal in a C library also leaves a traceback.
Arguments are passed on: ``launch.py --simulate`` starts the app with virtual cards and lights.

A problem a person must fix (a bad config or deck file, the record held by another copy) is not
a crash: the app shows it on the touchscreen's error screen and waits for a touch (see
companion/ui/errorscreen.py), whose "Try again" starts this same command afresh in this process
(``os.execv`` of ``sys.orig_argv``, so ``-X faulthandler`` and this hook stay). With no screen at
all the app exits with status 2, which the unit does not restart (``RestartPreventExitStatus``).
"""

from __future__ import annotations

import os
import sys
import threading

THREAD_DIED_STATUS = 70  # EX_SOFTWARE from sysexits.h


def end_process_when_a_thread_dies() -> None:
    """Make an uncaught exception in any thread fatal to the process.

    >>> end_process_when_a_thread_dies()
    >>> threading.excepthook is _log_and_exit
    True
    """
    threading.excepthook = _log_and_exit


def _log_and_exit(args: threading.ExceptHookArgs) -> None:
    if issubclass(args.exc_type, SystemExit):  # a thread that asked to stop, not a crash
        return
    threading.__excepthook__(args)  # the usual traceback, on stderr, which is the journal
    thread_name = args.thread.name if args.thread else "a worker thread"
    print(f"noah-companion: {thread_name} stopped on an error; restarting the app.",
          file=sys.stderr, flush=True)
    os._exit(THREAD_DIED_STATUS)  # at once: the main loop may be waiting on the dead thread


def main() -> int:
    end_process_when_a_thread_dies()
    from companion.cli import main as companion_main

    return companion_main(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
