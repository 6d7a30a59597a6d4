"""The app's sounds, generated (no binary files in the repository), and whether there is
anything to play them on.

>>> import tempfile, wave
>>> path = refusal_sound(Path(tempfile.mkdtemp()))
>>> with wave.open(str(path)) as w: (w.getframerate(), round(w.getnframes() / w.getframerate(), 2))
(22050, 0.35)
"""

from __future__ import annotations

import wave
from pathlib import Path

import numpy as np

RATE = 22050


def refusal_sound(directory: Path) -> Path:
    """A short falling two-tone buzz for a refused play, written once as ``refused.wav``."""
    path = directory / "refused.wav"
    if path.exists():
        return path
    directory.mkdir(parents=True, exist_ok=True)
    tones = [_tone(frequency, 0.15) for frequency in (660, 440)]
    samples = np.concatenate([tones[0], np.zeros(int(RATE * 0.05)), tones[1]])
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes((samples * 0.5 * 32767).astype("<i2").tobytes())
    return path


def has_playback_device(sound_devices: Path = Path("/dev/snd")) -> bool:
    """Whether this machine has a sound card that plays (an ALSA playback device; PulseAudio
    and PipeWire play through one too).

    >>> has_playback_device(Path("/no/such/folder"))
    False
    """
    try:
        return any(sound_devices.glob("pcmC*D*p"))
    except OSError:
        return False


def _tone(frequency: float, seconds: float) -> np.ndarray:
    t = np.arange(int(RATE * seconds)) / RATE
    envelope = np.minimum(1, np.minimum(t, seconds - t) / 0.01)  # no clicks
    return np.sign(np.sin(2 * np.pi * frequency * t)) * 0.6 * envelope
