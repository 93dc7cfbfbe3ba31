# Shared by the benchmark scripts (sourced, after `cd` to the repository's top).
#
# Environment: BENCH_SCRATCH (unset: .build), BENCH_BUILD_FLAGS (the `swift build` flags;
# unset: --static-swift-stdlib, as `make release` and `make install` build smfplay),
# BENCH_BIN_DIR (a folder that already holds the release binaries: nothing is built, so a
# benchmark can run while the build folder is busy or on binaries copied from elsewhere).

say() { printf '== %s\n' "$*" >&2; }

# Installs, with apt-get, those of the Debian packages named that are not installed.
install_missing() {
    local package missing=() sudo=()
    for package in "$@"; do
        dpkg-query -W -f='${Status}\n' "$package" 2>/dev/null | grep -q '^install ok installed$' || missing+=("$package")
    done
    [ ${#missing[@]} -gt 0 ] || return 0
    if [ "$(id -u)" -ne 0 ]; then sudo=(sudo); fi
    say "installing ${missing[*]} (apt-get)"
    "${sudo[@]}" apt-get update -qq
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# Installs symusic (pip), the Python MIDI library the reader is compared with, when missing.
install_symusic() {
    python3 -c 'import symusic' 2>/dev/null && return 0
    say "installing symusic (pip)"
    python3 -m pip install --quiet symusic
}

# Builds the products named in release mode; sets BIN_DIR to the absolute folder they are in.
build_release() {
    local build=(swift build -c release) product
    if [ -n "${BENCH_BIN_DIR:-}" ]; then
        BIN_DIR="$(cd "$BENCH_BIN_DIR" && pwd)"
        for product in "$@"; do
            [ -x "$BIN_DIR/$product" ] || { echo "BENCH_BIN_DIR: no $product in $BIN_DIR" >&2; exit 1; }
        done
        say "using $* in $BIN_DIR (BENCH_BIN_DIR: no build)"
        return
    fi
    # BENCH_SCRATCH: another build folder than the default .build (to keep out of a busy one).
    if [ -n "${BENCH_SCRATCH:-}" ]; then build+=(--scratch-path "$BENCH_SCRATCH"); fi
    # shellcheck disable=SC2206 # flags are words
    build+=(${BENCH_BUILD_FLAGS---static-swift-stdlib})
    say "building $* (release)"
    for product in "$@"; do "${build[@]}" --product "$product" >&2; done
    BIN_DIR="$(cd "$("${build[@]}" --show-bin-path)" && pwd)"
}

# Sets load_at_start to the load averages, and warns when the machine is busy.
note_load() {
    load_at_start=$(cut -d ' ' -f 1-3 /proc/loadavg)
    if awk -v l="${load_at_start%% *}" 'BEGIN { exit !(l > 0.5) }'; then
        say "warning: the machine is busy (load average $load_at_start): times will be high and noisy"
    fi
}

# Starts a private PulseAudio server in folder $1 with one null sink, bench_null, at $2 Hz (no
# sound card needed; see docs/testing.md); sets PULSE_PID and exports
# PULSE_SERVER. The caller stops it (kill "$PULSE_PID") when done.
start_null_sink() {
    local folder=$1 rate=$2
    say "starting a PulseAudio server with a null sink ($rate Hz)"
    XDG_RUNTIME_DIR="$folder" HOME="$folder" pulseaudio -D -n --exit-idle-time=-1 --system=false \
        --load=module-native-protocol-unix \
        --load="module-null-sink sink_name=bench_null rate=$rate channels=2" \
        --log-target=file:"$folder/pulse.log"
    for _ in $(seq 50); do [ -S "$folder/pulse/native" ] && [ -f "$folder/pulse/pid" ] && break; sleep 0.1; done
    [ -S "$folder/pulse/native" ] || { echo "pulseaudio did not start:" >&2; cat "$folder/pulse.log" >&2; exit 1; }
    PULSE_PID=$(cat "$folder/pulse/pid")
    export PULSE_SERVER="unix:$folder/pulse/native"
    pactl set-default-sink bench_null
}

# Makes a private folder, $WORK (/tmp/smfplay-$1-XXXXXX), removed on exit together with the
# PulseAudio server that start_null_sink may start in it.
make_work_folder() {
    WORK=$(mktemp -d "/tmp/smfplay-$1-XXXXXX")
    chmod 700 "$WORK"
    PULSE_PID=""
    trap remove_work_folder EXIT
}
remove_work_folder() {
    if [ -n "$PULSE_PID" ]; then
        kill "$PULSE_PID" 2>/dev/null || true
        # It removes its files in $WORK as it ends: removing the folder before would fail.
        for _ in $(seq 20); do kill -0 "$PULSE_PID" 2>/dev/null || break; sleep 0.1; done
    fi
    rm -rf "$WORK"
}

# Restarts the null sink's clock (suspend and resume): what a desktop's sink does when a stream wakes it.
reset_sink() { pactl suspend-sink bench_null 1 && pactl suspend-sink bench_null 0; }

# Runs "$@" with its output thrown away; prints "wall_seconds peak_rss_kb cpu_seconds" (user +
# system; GNU time). Fails if it fails.
measure() {
    local report seconds TIMEFORMAT=%3R
    report=$(mktemp)
    seconds=$({ time /usr/bin/time -f '%M %U %S' -o "$report" "$@" >/dev/null 2>&1; } 2>&1) || {
        echo "failed: $*" >&2
        rm -f "$report"
        return 1
    }
    echo "$seconds $(tail -n 1 "$report" | awk '{ print $1, $2 + $3 }')"
    rm -f "$report"
}

# The median of the numbers on standard input, one a line.
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# The ratio of two medians, by name, from the caller's associative array `medians`, to 2 places.
ratio() { awk -v a="${medians[$1]}" -v b="${medians[$2]}" 'BEGIN { printf "%.2f", a / b }'; }

# check VALUE MINIMUM WHAT: adds "WHAT = VALUE, target >= MINIMUM" to the caller's `failures`
# when VALUE is below MINIMUM.
check() { awk -v r="$1" -v m="$2" 'BEGIN { exit !(r >= m) }' || failures+=("$3 = $1, target >= $2"); }
