#!/usr/bin/env bash
# The library benchmark: `smfplay index` and `smfplay search` on a generated library of 100,000
# MIDI files, with `find -iname` (what a person does without an index) side by side.
#
#   bench/library.sh        # build, generate, time, print the table; non-zero if a target is missed
#
# Builds the release smfplay (BENCH_SCRATCH as in bench/common.sh), then makes BENCH_FILES (100,000)
# hard links to the openttd-openmsx songs and the demo library under BENCH_OUT/Library, named
# <Composer>/<Category>/<Title> <n>.mid with accented and Japanese names, and measures:
#   (a) the first index, from no database, on all cores (wall time, files a second);
#   (b) index again with nothing changed: median of 5 (target < 5 s);
#   (c) 100 searches, each a whole `smfplay search` process (folders, names, titles, Japanese parts,
#       two-letter words, two words, filters): p50 and p99 (target p99 < 50 ms); and the same
#       words with `find LIB -iname '*WORD*'`, which sees names only.
# Environment: BENCH_OUT (bench/out/library), BENCH_FILES (100000), BENCH_SCRATCH, BENCH_BUILD_FLAGS.
set -euo pipefail
cd "$(dirname "$0")/.."

OUT=${BENCH_OUT:-bench/out/library}
FILES=${BENCH_FILES:-100000}
MAX_REINDEX_SECONDS=5
MAX_SEARCH_P99_MS=50

# shellcheck source=bench/common.sh
source bench/common.sh

install_missing openttd-openmsx python3
build_release smfplay
BIN="$BIN_DIR/smfplay"

rm -rf "$OUT"
mkdir -p "$OUT"
LIBRARY="$(cd "$OUT" && pwd)/Library"
export XDG_DATA_HOME="$(cd "$OUT" && pwd)/data" XDG_CONFIG_HOME="$(cd "$OUT" && pwd)/config"
mkdir -p "$XDG_CONFIG_HOME"

say "making $FILES hard links in $LIBRARY"
python3 - "$LIBRARY" "$FILES" /usr/share/games/openttd/baseset/openmsx Examples/Library <<'PY'
import os, sys, random
library, count, sources = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
songs = [os.path.join(folder, name) for source in sources for folder, _, names in os.walk(source) for name in names if name.endswith(".mid")]
composers = ["Chopin", "Dvořák", "Fauré", "Satie", "Bach", "Beethoven", "Debussy", "Schubert", "Liszt", "Mozart",
             "ショパン", "久石譲", "すぎやまこういち", "植松伸夫", "Game Music", "Karaoke", "Joplin", "Grieg", "Ravel", "Händel"]
categories = ["Ballades", "Études", "Preludes", "Nocturnes", "Sonatas", "交響曲", "ドラゴンクエスト", "ファイナルファンタジー", "Waltzes", "Misc"]
words = ["Ballade", "Prélude", "Nocturne", "Sonate", "Walzer", "序曲", "戦闘", "フィールド", "Rhapsody", "Lullaby", "Mazurka", "Polonaise", "Fantaisie", "夜想曲", "Impromptu"]
random.seed(7)
for number in range(count):
    composer = composers[number % len(composers)]
    category = categories[(number // len(composers)) % len(categories)]
    folder = os.path.join(library, f"{composer} {number % 500:03d}", category)
    os.makedirs(folder, exist_ok=True)
    title = f"{random.choice(words)} {random.choice(words)} {number:06d}.mid"
    os.link(songs[number % len(songs)], os.path.join(folder, title))
PY

TIMEFORMAT=%3R
# The wall time of a command; a search that finds nothing (status 1) is timed as any other.
seconds() { { time { "$@" >/dev/null 2>&1 || true; }; } 2>&1; }
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
percentile() { sort -n | awk -v p="$1" '{ v[NR] = $1 } END { i = int(NR * p / 100 + 0.999); if (i < 1) i = 1; print v[i] }'; }

note_load
say "indexing from nothing"
cold=$(seconds "$BIN" index --library "$LIBRARY" --quiet)
indexed=$("$BIN" index --library "$LIBRARY" | grep -o '[0-9]* MIDI files indexed' | cut -d ' ' -f 1)
say "indexing again, nothing changed (5 times)"
reindex=$(for _ in 1 2 3 4 5; do seconds "$BIN" index --library "$LIBRARY" --quiet; done | median)

queries=(chopin frederic dvorak faure ショパン ショパ 久石 序曲 戦闘 バトル nocturne prelude "prélude" walzer mazurka polonaise
         fantaisie impromptu 夜想曲 ドラゴン ファイナル "ballade chopin" "nocturne 042" "sonate beethoven" lullaby rhapsody
         ravel grieg joplin satie bach liszt debussy schubert mozart händel haendel karaoke "game music" études etudes waltzes
         preludes nocturnes sonatas 交響曲 クエスト ファンタジー "012345" "000777" "099999" xx zz "nothing like this" fi ba
         "ballade 0001" "序曲 戦闘" "chopin ballades" "dvořák nocturne" "fauré sonate" 003 042 499 "bach 123" "mozart 456"
         植松 すぎやま こういち "伸夫" "久石譲" walz noct prel sona rhap lull maz pol fant impr "op.28" "bwv" "no.1" tt
         "ballade ballade" "序曲 序曲" "nocturne nocturne" ショ パン ド ラ "chopin 000" "satie 001" "grieg 002" "ravel 003"
         "joplin 004" "liszt 005" "debussy 006" "schubert 007" "beethoven 008" "händel 009")
queries=("${queries[@]:0:100}")
say "searching ${#queries[@]} times, and find -iname with the same words"
ours=(); theirs=()
for query in "${queries[@]}"; do
    # shellcheck disable=SC2086 # the query's words are separate arguments
    ours+=("$(seconds "$BIN" search $query --library "$LIBRARY")")
    theirs+=("$(seconds find "$LIBRARY" -iname "*${query%% *}*")")
done
p50=$(printf '%s\n' "${ours[@]}" | percentile 50); p99=$(printf '%s\n' "${ours[@]}" | percentile 99)
find50=$(printf '%s\n' "${theirs[@]}" | percentile 50); find99=$(printf '%s\n' "${theirs[@]}" | percentile 99)
database_size=$(du -k "$XDG_DATA_HOME/smfplay/library.sqlite" | cut -f 1)

ms() { awk -v s="$1" 'BEGIN { printf "%.0f", s * 1000 }'; }
echo
echo "library benchmark, $(date -u +%Y-%m-%d), $indexed files, load at start $load_at_start, $(nproc) cores"
printf '%-44s %12s %12s %s\n' "" smfplay "find -iname" target
printf '%-44s %12s %12s %s\n' "(a) first index, from no database" "${cold} s" "" "($(awk -v n="$indexed" -v s="$cold" 'BEGIN { printf "%.0f", n / s }') files/s, ${database_size} KB)"
printf '%-44s %12s %12s %s\n' "(b) index again, nothing changed (median of 5)" "${reindex} s" "" "< ${MAX_REINDEX_SECONDS} s"
printf '%-44s %12s %12s %s\n' "(c) search p50, 100 queries (whole process)" "$(ms "$p50") ms" "$(ms "$find50") ms" ""
printf '%-44s %12s %12s %s\n' "(c) search p99" "$(ms "$p99") ms" "$(ms "$find99") ms" "< ${MAX_SEARCH_P99_MS} ms"

status=0
if awk -v r="$reindex" -v t="$MAX_REINDEX_SECONDS" 'BEGIN { exit !(r >= t) }'; then echo "MISSED: re-index ${reindex} s" >&2; status=1; fi
if awk -v p="$p99" -v t="$MAX_SEARCH_P99_MS" 'BEGIN { exit !(p * 1000 >= t) }'; then echo "MISSED: search p99 $(ms "$p99") ms" >&2; status=1; fi
exit $status
