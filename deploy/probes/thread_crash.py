"""Run as the service (deploy/test-in-chroot.sh puts it in place of the app): a worker thread
dies while the main thread carries on, as a half-dead app would. launch.py's hook must end the
process (status 70) so that systemd restarts it."""

import runpy
import threading
import time

launch = runpy.run_path("/opt/noah-companion/launch.py", run_name="launch")
launch["end_process_when_a_thread_dies"]()
threading.Thread(target=lambda: 1 / 0, name="camera pipeline").start()
time.sleep(600)  # the main loop, still alive: without the hook systemd would never know
