#!/usr/bin/env bash
# The render benchmark: `smfplay render` against `fluidsynth -ni -F`, side by side in one run.
#
#   bench/render.sh           # build, time, print the table; non-zero if a target is missed
#
# Builds the release smfplay (in the default .build folder unless BENCH_SCRATCH says otherwise),
# installs what is missing (fluidsynth, fluid-soundfont-gm, openttd-openmsx and GNU time with
# apt-get), then renders every song of the openttd-openmsx corpus with FluidR3_GM at 44100 Hz,
# 16-bit WAV, gain 0.16 (RenderSettings.defaultGain) for both, and each program's default effects
# (the same: reverb and chorus on, FluidSynth 2.3's parameters, which smfplay writes out):
#   (a) one file at a time, each a whole process that loads the SoundFont itself:
#         smfplay render F -o OUT/F.wav --jobs 1        against
#         fluidsynth -ni -F OUT/F.wav -r 44100 -g 0.16 FluidR3_GM.sf2 F
#       total wall time of each over the corpus, and the peak RSS of each (GNU time) on the largest file;
#   (b) smfplay render CORPUS -o OUT --jobs 2, one process, against the fluidsynth calls of (a) run
#       one after another: throughput ratio, and how busy smfplay kept the cores until its last
#       second (bench/cores_busy.py: its CPU time sampled every 0.1 s);
#   (c) the same for a folder of four long songs of about the same length (linked: the 3rd to 6th
#       longest of (a)'s fluidsynth renders), against fluidsynth rendering them one after another.
# Targets: (a) smfplay / fluidsynth wall time <= 1.0, smfplay's peak RSS within 10% of
# fluidsynth's; (b) and (c) fluidsynth one after another / smfplay --jobs 2 >= 1.9, and the cores
# >= 90% busy until the last second.
#
# Environment: BENCH_OUT (bench/out/render), BENCH_SCRATCH (unset: .build), BENCH_BUILD_FLAGS (the
# `swift build` flags; unset: --static-swift-stdlib, as `make release` and `make install` build it), BENCH_CORPUS (/usr/share/games/openttd/baseset/openmsx), BENCH_SOUNDFONT (FluidR3_GM.sf2).
set -euo pipefail
cd "$(dirname "$0")/.."

OUT=${BENCH_OUT:-bench/out/render}
CORPUS=${BENCH_CORPUS:-/usr/share/games/openttd/baseset/openmsx}
SOUNDFONT=${BENCH_SOUNDFONT:-/usr/share/sounds/sf2/FluidR3_GM.sf2}
RATE=44100
GAIN=0.16
JOBS=2

MAX_WALL_RATIO=1.0
MIN_THROUGHPUT_RATIO=1.9
MIN_BUSY=0.90
MAX_MEMORY_RATIO=1.10

# shellcheck source=bench/common.sh
source bench/common.sh

# --- Tools: install only what is missing. ---
install_missing fluidsynth time fluid-soundfont-gm openttd-openmsx

# --- Build. ---
build_release smfplay
BIN="$BIN_DIR/smfplay"

shopt -s nullglob
files=("$CORPUS"/*.mid)
[ ${#files[@]} -gt 0 ] || { echo "no .mid files in $CORPUS: run \`make deps\`" >&2; exit 1; }
largest=$(ls -SL "${files[@]}" | head -n 1)

rm -rf "$OUT"
mkdir -p "$OUT/smfplay" "$OUT/fluidsynth" "$OUT/batch"
# No configuration file may change smfplay's settings: everything is on the command line.
export XDG_CONFIG_HOME="$OUT/config"
mkdir -p "$XDG_CONFIG_HOME"
smfplay_render=("$BIN" render --soundfont "$SOUNDFONT" --sample-rate "$RATE" --gain "$GAIN" --bits 16 --quiet --force)

cat "$SOUNDFONT" "${files[@]}" >/dev/null # in the page cache for both
note_load

# --- (a) One file at a time, alternating which program goes first. ---
say "(a) ${#files[@]} files one at a time: smfplay render --jobs 1 and fluidsynth -ni -F"
smf_total=0
fs_total=0
smf_cpu=0
fs_cpu=0
smf_largest_kb=0
fs_largest_kb=0
smf_max_kb=0
fs_max_kb=0
index=0
fs_times=()
run_smfplay() { measure "${smfplay_render[@]}" --jobs 1 "$1" -o "$OUT/smfplay/$(basename "$1" .mid).wav"; }
run_fluidsynth() { measure fluidsynth -ni -F "$OUT/fluidsynth/$(basename "$1" .mid).wav" -r "$RATE" -g "$GAIN" "$SOUNDFONT" "$1"; }
for file in "${files[@]}"; do
    name=$(basename "$file" .mid)
    if ((index % 2 == 0)); then
        smf=$(run_smfplay "$file")
        fs=$(run_fluidsynth "$file")
    else
        fs=$(run_fluidsynth "$file")
        smf=$(run_smfplay "$file")
    fi
    index=$((index + 1))
    read -r smf_s smf_kb smf_c <<<"$smf"
    read -r fs_s fs_kb fs_c <<<"$fs"
    fs_times+=("$fs_s $file")
    printf '   %-28s smfplay %7.3f s %7.1f MB   fluidsynth %7.3f s %7.1f MB\n' "$name" "$smf_s" "$(awk -v k="$smf_kb" 'BEGIN { print k / 1024 }')" \
        "$fs_s" "$(awk -v k="$fs_kb" 'BEGIN { print k / 1024 }')" >&2
    smf_total=$(awk -v a="$smf_total" -v b="$smf_s" 'BEGIN { print a + b }')
    fs_total=$(awk -v a="$fs_total" -v b="$fs_s" 'BEGIN { print a + b }')
    smf_cpu=$(awk -v a="$smf_cpu" -v b="$smf_c" 'BEGIN { print a + b }')
    fs_cpu=$(awk -v a="$fs_cpu" -v b="$fs_c" 'BEGIN { print a + b }')
    smf_max_kb=$((smf_kb > smf_max_kb ? smf_kb : smf_max_kb))
    fs_max_kb=$((fs_kb > fs_max_kb ? fs_kb : fs_max_kb))
    if [ "$file" = "$largest" ]; then
        smf_largest_kb=$smf_kb
        fs_largest_kb=$fs_kb
    fi
done

# --- (b) The whole folder in one smfplay process with two jobs. ---
say "(b) smfplay render $CORPUS --jobs $JOBS"
read -r batch_s batch_cpu batch_busy batch_busy_to_last batch_kb <<<"$(python3 bench/cores_busy.py "$JOBS" "${smfplay_render[@]}" --jobs "$JOBS" "$CORPUS" -o "$OUT/batch")"
echo "   smfplay --jobs $JOBS: $batch_s s, CPU $batch_cpu s, cores busy $batch_busy ($batch_busy_to_last to its last second), peak RSS $((batch_kb / 1024)) MB" >&2

# --- (c) Four long songs of about the same length: the 3rd to 6th longest renders of (a)'s fluidsynth. ---
mapfile -t similar < <(printf '%s\n' "${fs_times[@]}" | sort -gr | sed -n '3,6p' | cut -d ' ' -f 2-)
mkdir -p "$OUT/similar" "$OUT/similar-batch"
for file in "${similar[@]}"; do ln -sf "$file" "$OUT/similar/"; done
say "(c) four songs of about the same length: smfplay --jobs $JOBS against fluidsynth one after another"
similar_fs=0
for file in "${similar[@]}"; do
    read -r s _ _ <<<"$(run_fluidsynth "$file")"
    similar_fs=$(awk -v a="$similar_fs" -v b="$s" 'BEGIN { print a + b }')
done
read -r similar_s _ similar_busy similar_busy_to_last _ <<<"$(python3 bench/cores_busy.py "$JOBS" "${smfplay_render[@]}" --jobs "$JOBS" "$OUT/similar" -o "$OUT/similar-batch")"
echo "   smfplay --jobs $JOBS: $similar_s s (fluidsynth one after another $similar_fs s), cores busy $similar_busy ($similar_busy_to_last to its last second)" >&2

# Every render is there, and how much audio each program wrote (16-bit stereo: 4 bytes a frame).
audio_seconds() { find "$1" -name '*.wav' -printf '%s\n' | awk -v r="$RATE" '{ s += ($1 - 44) / 4 / r } END { printf "%.0f", s }'; }
expect_renders() {
    count=$(find "$OUT/$1" -name '*.wav' | wc -l)
    [ "$count" -eq "$2" ] || { echo "$OUT/$1 has $count renders, expected $2" >&2; exit 1; }
}
for folder in smfplay fluidsynth batch; do expect_renders "$folder" ${#files[@]}; done
expect_renders similar-batch ${#similar[@]}

failures=()
wall_ratio=$(awk -v s="$smf_total" -v f="$fs_total" 'BEGIN { printf "%.3f", s / f }')
throughput_ratio=$(awk -v b="$batch_s" -v f="$fs_total" 'BEGIN { printf "%.2f", f / b }')
similar_ratio=$(awk -v b="$similar_s" -v f="$similar_fs" 'BEGIN { printf "%.2f", f / b }')
memory_ratio=$(awk -v s="$smf_largest_kb" -v f="$fs_largest_kb" 'BEGIN { printf "%.3f", s / f }')
awk -v r="$wall_ratio" -v m="$MAX_WALL_RATIO" 'BEGIN { exit !(r <= m) }' ||
    failures+=("(a) smfplay / fluidsynth wall time = $wall_ratio, target <= $MAX_WALL_RATIO")
awk -v r="$throughput_ratio" -v m="$MIN_THROUGHPUT_RATIO" 'BEGIN { exit !(r >= m) }' ||
    failures+=("(b) throughput smfplay --jobs $JOBS / fluidsynth one after another = $throughput_ratio, target >= $MIN_THROUGHPUT_RATIO")
awk -v r="$similar_ratio" -v m="$MIN_THROUGHPUT_RATIO" 'BEGIN { exit !(r >= m) }' ||
    failures+=("(c) four similar songs: smfplay --jobs $JOBS / fluidsynth one after another = $similar_ratio, target >= $MIN_THROUGHPUT_RATIO")
for busy in "(b) $batch_busy_to_last" "(c) $similar_busy_to_last"; do
    awk -v r="${busy#* }" -v m="$MIN_BUSY" 'BEGIN { exit !(r >= m) }' ||
        failures+=("${busy% *} cores busy until the last second = ${busy#* }, target >= $MIN_BUSY")
done
awk -v r="$memory_ratio" -v m="$MAX_MEMORY_RATIO" 'BEGIN { exit !(r <= m) }' ||
    failures+=("(a) peak RSS smfplay / fluidsynth on $(basename "$largest") = $memory_ratio, target <= $MAX_MEMORY_RATIO")

mb() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
echo
echo "smfplay render benchmark: $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), $(fluidsynth --version | sed -n 's/^FluidSynth runtime version /FluidSynth /p')"
echo "${#files[@]} files from $CORPUS, $(basename "$SOUNDFONT"), $RATE Hz, 16-bit WAV, gain $GAIN, default reverb and chorus."
echo "audio written: smfplay $(audio_seconds "$OUT/smfplay") s (tail until -90 dBFS, at most 10 s), fluidsynth $(audio_seconds "$OUT/fluidsynth") s."
echo "load average at start: $load_at_start, at end: $(cut -d ' ' -f 1-3 /proc/loadavg)"
echo
echo "| measure | smfplay | fluidsynth | ratio | target |"
echo "|---|---:|---:|---:|---:|"
echo "| (a) one file at a time, total wall s | $smf_total | $fs_total | $wall_ratio (smfplay / fluidsynth) | <= $MAX_WALL_RATIO |"
echo "| (b) smfplay --jobs $JOBS vs fluidsynth one after another, wall s | $batch_s | $fs_total | $throughput_ratio (throughput) | >= $MIN_THROUGHPUT_RATIO |"
echo "| (c) four songs of similar length, smfplay --jobs $JOBS vs fluidsynth one after another, wall s | $similar_s | $similar_fs | $similar_ratio (throughput) | >= $MIN_THROUGHPUT_RATIO |"
echo "| (b) cores busy until the last second (whole run) | $batch_busy_to_last ($batch_busy) | | | >= $MIN_BUSY |"
echo "| (c) cores busy until the last second (whole run) | $similar_busy_to_last ($similar_busy) | | | >= $MIN_BUSY |"
echo "| (a) one file at a time, total CPU s (user + system) | $smf_cpu | $fs_cpu | $(awk -v s="$smf_cpu" -v f="$fs_cpu" 'BEGIN { printf "%.3f", s / f }') | |"
echo "| (b) smfplay --jobs $JOBS, CPU s (user + system) | $batch_cpu | | | |"
echo "| (a) peak RSS MB, largest file ($(basename "$largest")) | $(mb "$smf_largest_kb") | $(mb "$fs_largest_kb") | $memory_ratio | <= $MAX_MEMORY_RATIO |"
echo "| (a) peak RSS MB, largest over the corpus | $(mb "$smf_max_kb") | $(mb "$fs_max_kb") | | |"
echo "| (b) peak RSS MB, smfplay --jobs $JOBS | $(mb "$batch_kb") | | | |"
echo
if [ ${#failures[@]} -gt 0 ]; then
    printf 'MISSED: %s\n' "${failures[@]}"
    exit 1
fi
echo "all targets met"
