#!/usr/bin/env bash
# The compatibility benchmark: GS, XG and GM2 features as smfplay, `fluidsynth -F` and `timidity -Ow`
# play them, side by side in one run.
#
#   bench/compat.sh        # build, render, compare, print the table; non-zero if smfplay fails a feature
#
# Builds the release smfplay and smfplay-compat (BENCH_SCRATCH as in bench/common.sh), writes the
# compatibility songs (Sources/CompatibilitySongs: each feature song with the same music in plain GM,
# its reference, and as a player that ignores the feature plays it, its wrong version), renders all
# three with each player, and compares each player's feature rendering with that player's own
# reference and wrong renderings (SoundComparison: spectra over time, level, missing parts). A
# feature passes for a player when its rendering sounds like the reference and unlike the wrong one.
# SoundFonts: TimGM6mb for the features any GM SoundFont plays; FluidR3_GS over FluidR3_GM for those
# that need the Sound Canvas's SFX kit (fluidsynth: the SoundFont loaded last wins; timidity: both).
# Environment: BENCH_OUT (bench/out/compat), BENCH_SCRATCH, BENCH_BUILD_FLAGS.
set -euo pipefail
cd "$(dirname "$0")/.."

OUT=${BENCH_OUT:-bench/out/compat}
SF2=/usr/share/sounds/sf2

# shellcheck source=bench/common.sh
source bench/common.sh

install_missing fluidsynth timidity timgm6mb-soundfont fluid-soundfont-gm fluid-soundfont-gs
build_release smfplay smfplay-compat

rm -rf "$OUT"
mkdir -p "$OUT/songs" "$OUT/config"
export XDG_CONFIG_HOME="$(cd "$OUT" && pwd)/config"
"$BIN_DIR/smfplay-compat" write "$OUT/songs"

soundfonts() {  # the SoundFonts of a feature, first wins
    if [ "$1" = rolandStack ]; then echo "$SF2/FluidR3_GS.sf2 $SF2/FluidR3_GM.sf2"; else echo "$SF2/TimGM6mb.sf2"; fi
}

render() {  # player, SoundFonts kind, MIDI file, WAV file
    local player=$1 kind=$2 midi=$3 wav=$4 fonts
    read -r -a fonts <<< "$(soundfonts "$kind")"
    case $player in
        smfplay)
            local options=()
            for font in "${fonts[@]}"; do options+=(--soundfont "$font"); done
            "$BIN_DIR/smfplay" render "$midi" -o "$wav" --bits 32f --quiet --force "${options[@]}" ;;
        fluidsynth)
            # The SoundFont loaded last has the first say: the stack in reverse.
            local reversed=()
            for ((index = ${#fonts[@]} - 1; index >= 0; index--)); do reversed+=("${fonts[index]}"); done
            fluidsynth -ni -q -F "$wav" -r 44100 -g 0.16 -o audio.file.format=float "${reversed[@]}" "$midi" >/dev/null 2>&1 ;;
        timidity)
            local config="$OUT/timidity-$kind.cfg"
            printf 'soundfont %s\n' "${fonts[@]}" > "$config"
            timidity -c "$config" -Ow -o "$wav" --output-stereo -s 44100 "$midi" >/dev/null 2>&1 ;;
    esac
}

players=(smfplay fluidsynth timidity)
note_load
declare -A result
summaries=()
smfplay_failures=0
while IFS=$'\t' read -r name kind summary; do
    for player in "${players[@]}"; do
        for part in feature reference wrong; do
            render "$player" "$kind" "$OUT/songs/$name.$part.mid" "$OUT/$player.$name.$part.wav"
        done
        if verdict=$("$BIN_DIR/smfplay-compat" compare "$OUT/$player.$name.feature.wav" "$OUT/$player.$name.reference.wav" "$OUT/$player.$name.wrong.wav"); then :; fi
        read -r outcome like unlike _ <<< "$verdict"
        case $outcome in pass) mark="✓" ;; same) mark="≈" ;; *) mark="✗" ;; esac
        result[$name.$player]="$mark $like"
        if [ "$player" = smfplay ] && [ "$outcome" != pass ]; then smfplay_failures=$((smfplay_failures + 1)); fi
    done
    summaries[${#summaries[@]}]="$name|$summary"
done < "$OUT/songs/features.tsv"

echo
echo "compatibility benchmark, $(date -u +%Y-%m-%d), load at start $load_at_start; fluidsynth $(fluidsynth --version 2>/dev/null | head -n 1 | grep -o '[0-9][0-9.]*' | head -n 1), $(timidity --version 2>/dev/null | head -n 1)"
echo "(✓: sounds like the plain-GM reference and unlike the wrong rendering; ✗: does not sound like the reference;"
echo " ≈: sounds like both, as when a player's defaults happen to play the wrong version right; the number is the spectral similarity to the reference)"
echo
echo "| feature | smfplay | fluidsynth | timidity |"
echo "|---|---|---|---|"
counts=(0 0 0)
for entry in "${summaries[@]}"; do
    name=${entry%%|*}
    line="| $name: ${entry#*|} |"
    for index in "${!players[@]}"; do
        cell=${result[$name.${players[index]}]}
        line+=" $cell |"
        if [ "${cell%% *}" = "✓" ]; then counts[index]=$((counts[index] + 1)); fi
    done
    echo "$line"
done
echo "| features played right | ${counts[0]} of ${#summaries[@]} | ${counts[1]} of ${#summaries[@]} | ${counts[2]} of ${#summaries[@]} |"
if [ "$smfplay_failures" -gt 0 ]; then echo "MISSED: smfplay fails $smfplay_failures features" >&2; exit 1; fi
