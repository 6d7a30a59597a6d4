"""The synthetic camera: each frame its own sensor noise, cheap enough for a live 30 fps view."""

from __future__ import annotations

import itertools

import numpy as np

from vision.decoders import decode
from vision.synthetic import Scene, SyntheticSource, render_frame

CAT = "NOAH1 CAT F2"
SCENE = Scene(width=800, height=450, camera_height_mm=250.0, seed=7)


def _camera(scene: Scene = SCENE) -> SyntheticSource:
    camera = SyntheticSource(scene, fps=0)
    camera.open()
    return camera


def test_every_frame_gets_its_own_unbiased_noise_of_the_scenes_strength():
    camera = _camera()
    camera.present(CAT)
    clean = render_frame([CAT], SCENE.harder(noise=0)).astype(np.int16)
    frames = [camera.read() for _ in range(4)]
    for frame in frames:
        assert frame.dtype == np.uint8 and frame.shape == (450, 800, 3)
        noise = frame.astype(np.int16) - clean
        assert abs(float(noise.mean())) < 0.1
        assert 1.6 < float(noise.std()) < 2.4  # Scene.noise = 2 (clipping at 0 and 255 aside)
        assert (noise[:, :, 0] == noise[:, :, 1]).mean() > 0.99  # luminance noise
    for first, second in itertools.pairwise(frames):
        assert (first != second).mean() > 0.5  # not the same noise again


def test_noisy_frames_still_decode_and_a_seed_gives_the_same_frames():
    one, two = _camera(), _camera()
    one.present(CAT)
    two.present(CAT)
    frames = [one.read() for _ in range(3)]
    assert all(np.array_equal(a, two.read()) for a in frames)
    assert [d.text for d in decode(frames[-1])] == [CAT]


def test_without_noise_a_frame_is_the_rendered_table():
    camera = _camera(SCENE.harder(noise=0))
    camera.present(CAT)
    assert np.array_equal(camera.read(), render_frame([CAT], SCENE.harder(noise=0)))


def test_a_frame_renders_the_table_and_draws_the_noise_field_once(monkeypatch):
    """What makes a live 30 fps view cheap (its cost is measured by ``bench vision``, not here):
    the table is drawn once per presentation, the noise field once, and a frame is only a
    window of that field added to the drawn table."""
    import vision.synthetic as synthetic

    renders: list[int] = []
    draws: list[int] = []
    real_render = synthetic.render_frame
    monkeypatch.setattr(synthetic, "render_frame",
                        lambda *args, **kwargs: renders.append(1) or real_render(*args, **kwargs))
    camera = _camera()
    rng = camera._rng

    class CountingRng:  # numpy's Generator cannot be patched: count its normal draws around it
        def normal(self, *args, **kwargs):
            draws.append(1)
            return rng.normal(*args, **kwargs)

        def __getattr__(self, name):
            return getattr(rng, name)

    camera._rng = CountingRng()
    camera.present(CAT)
    for _ in range(30):
        camera.read()
    assert (len(renders), len(draws)) == (1, 1)


def test_a_bare_table_is_filmed_slowly_and_a_card_put_down_wakes_the_camera_at_once():
    """The simulator's camera over a bare table films at ``idle_fps``; a card presented wakes
    a read waiting at that pace, so it is filmed at once. With an idle pace of one frame in
    100 s, the read returns only if woken (fails without the wake)."""
    import threading
    import time

    from vision.synthetic import IDLE_AFTER

    waiting = threading.Event()

    class Watched(threading.Event):
        def wait(self, timeout: float | None = None) -> bool:
            waiting.set()  # the read waits at the idle pace now
            return super().wait(timeout)

    camera = SyntheticSource(SCENE, fps=30, idle_fps=0.01)
    camera.open()
    camera._presented = Watched()
    camera._bare_since -= IDLE_AFTER  # the table bare for long enough
    assert camera.idling(time.monotonic())
    frames: list[np.ndarray] = []
    reading = threading.Thread(target=lambda: frames.append(camera.read()), daemon=True)
    reading.start()
    assert waiting.wait(30)
    camera.present(CAT)
    reading.join(30)
    assert frames and [d.text for d in decode(frames[0])] == [CAT]
    assert not camera.idling(time.monotonic() + 60)  # a card in view: filmed at ``fps``
