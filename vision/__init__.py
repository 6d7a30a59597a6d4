"""Camera capture, QR decoding and detection tracking for the Noah Table Companion.

Frames in, decoded QR texts and stable "card shown" events out. This package knows nothing of
the game's rules and never imports :mod:`companion`.

* :mod:`vision.sources` and :mod:`vision.synthetic`: where frames come from;
* :mod:`vision.decoders`: QR decoders behind one interface;
* :mod:`vision.tracker`: detections per frame to one event per presentation;
* :mod:`vision.pipeline`: the threads, the newest frame only, camera faults;
* :mod:`vision.events`: what comes out; :mod:`vision.config`: ``[camera]`` and ``[decoder]``.

See docs/vision.md.
"""
