#!/usr/bin/env bash
# Issue 21's mypyc trial (docs/benchmarks.md, "simulate speed compiled with mypyc"): the Complot
# engine and its simulated players compiled with mypyc, measured against the same source run by
# CPython, out of the source tree. Nothing here is used by the app.
#
#   docs/mypyc-trial/run.sh [ROUNDS] [GAMES]      (from a checkout whose ./run.sh setup ran)
#
# 1. git archive HEAD's companion/ twice into a scratch folder; complot.patch on both (the four
#    changes mypyc needs, listed in docs/benchmarks.md): "pure" and "compiled" hold the same code.
# 2. mypyc compiles the modules the simulate path imports in "compiled" (the time is printed).
# 3. ROUNDS rounds (5) of GAMES seeded 4-player level-3 games (20) in fresh processes, pure then
#    compiled, on the same seeds: games per CPU second and a hash of the logs (must be equal).
# 4. tests/complot against the compiled modules.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
python=$here/.venv/bin/python
rounds=${1:-5} games=${2:-20}
scratch=$(mktemp -d /tmp/mypyc-trial.XXXXXX)
echo "scratch folder: $scratch"
for side in pure compiled; do
    mkdir -p "$scratch/$side"
    git -C "$here" archive HEAD companion | tar -x -C "$scratch/$side"
    patch -s -d "$scratch/$side" -p1 < "$here/docs/mypyc-trial/complot.patch" || {
        echo "complot.patch no longer applies to HEAD: the engine changed since the trial." >&2
        exit 1
    }
done
modules=()
for name in cards combos engine judge messages narrate state simulate; do
    modules+=("companion/complot/$name.py")
done
(cd "$scratch/compiled" && time "$here/.venv/bin/mypyc" "${modules[@]}" > "$scratch/mypyc.log" \
    2>&1) 2>&1 | sed 's/^/mypyc /' || true
ls "$scratch"/compiled/companion/complot/engine.*.so > /dev/null || {
    echo "mypyc failed: see $scratch/mypyc.log" >&2
    exit 1
}
child='
import hashlib, os, sys, time
import companion.complot.engine as engine
from companion.complot.simulate import play_game
seed, count = sys.argv[1], int(sys.argv[2])
play_game(seed + ":warm-up", 4, 3, check=False)
logs = hashlib.sha256()
started = time.process_time()
for index in range(count):
    logs.update(play_game(f"{seed}:{index}", 4, 3, check=False).log.encode())
print(f"{count / (time.process_time() - started):.1f} games/CPU s, logs {logs.hexdigest()[:12]}, "
      f"engine {os.path.basename(engine.__file__)}")
'
for round in $(seq "$rounds"); do
    for side in pure compiled; do
        echo "round $round $side: $(cd "$scratch/$side" && PYTHONPATH=. "$python" -c "$child" \
            "bench:$round" "$games")"
    done
done
for folder in tests vision hardware examples pyproject.toml; do
    ln -s "$here/$folder" "$scratch/compiled/$folder"
done
(cd "$scratch/compiled" && PYTHONPATH=. "$python" -m pytest -q -p no:xdist -p no:cacheprovider \
    tests/complot | tail -5) || true
