#!/usr/bin/env bash
# The cluster split (render --shard I/N): how even the shards of a large collection are, and how
# many files change shard when files are added.
#
#   bench/shards.sh           # build, simulate, print the table; non-zero if a target is missed
#
# Simulates SHARD_FILES made-up files (Lakh-like paths, log-normal sizes: median 30 KB, mean
# about 50 KB) split into SHARD_COUNT shards by the same code as smfplay render --shard
# (BalancedSplit, through smfplay-parse-bench shards), then again with SHARD_ADDED percent more
# files, for each seed in SHARD_SEEDS. Work is bytes (a proxy for render time).
# Targets: the fullest shard at most 1.06 x the mean (the capacity is 1.05 x the mean;
# a file placed when every shard is full goes to the lightest); adding 1% of the files moves at
# most 2% of the others.
#
# Environment: SHARD_FILES (1000000), SHARD_COUNT (1000), SHARD_ADDED (1), SHARD_SEEDS ("17 18 19"),
# BENCH_SCRATCH (unset: .build).
set -euo pipefail
cd "$(dirname "$0")/.."

SHARD_FILES=${SHARD_FILES:-1000000}
SHARD_COUNT=${SHARD_COUNT:-1000}
SHARD_ADDED=${SHARD_ADDED:-1}
SHARD_SEEDS=${SHARD_SEEDS:-"17 18 19"}

MAX_BALANCE=1.06
MAX_MOVED_PERCENT=2

# shellcheck source=bench/common.sh
source bench/common.sh

build_release smfplay-parse-bench

# Prints the value of key $1 in the key=value line $2.
value() { tr ' ' '\n' <<<"$2" | sed -n "s/^$1=//p"; }

failures=()
printf '| seed | files | shards | mean shard (MB) | largest file (KB) | max / mean | min / mean | after +%s%%: max / mean | files moved | moved %% | bytes moved %% | split (s) |\n' "$SHARD_ADDED"
printf '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n'
for seed in $SHARD_SEEDS; do
    line=$("$BIN_DIR/smfplay-parse-bench" shards --files "$SHARD_FILES" --shards "$SHARD_COUNT" --added-percent "$SHARD_ADDED" --seed "$seed")
    balance=$(value max_over_mean "$line")
    after=$(value after_max_over_mean "$line")
    moved=$(value moved_percent "$line")
    printf '| %s | %s | %s | %.2f | %.0f | %.4f | %.4f | %.4f | %s | %.3f | %.3f | %.1f |\n' "$seed" "$(value files "$line")" "$(value shards "$line")" \
        "$(value mean_shard_mb "$line")" "$(value largest_file_kb "$line")" "$balance" "$(value min_over_mean "$line")" "$after" \
        "$(value moved "$line")" "$moved" "$(value moved_bytes_percent "$line")" "$(value split_s "$line")"
    awk -v b="$balance" -v a="$after" -v m="$MAX_BALANCE" 'BEGIN { exit !(b <= m && a <= m) }' ||
        failures+=("seed $seed: the fullest shard is $balance (after adding: $after) x the mean, over $MAX_BALANCE")
    awk -v p="$moved" -v m="$MAX_MOVED_PERCENT" 'BEGIN { exit !(p <= m) }' ||
        failures+=("seed $seed: adding $SHARD_ADDED% moved $moved% of the files, over $MAX_MOVED_PERCENT%")
done
if [ ${#failures[@]} -gt 0 ]; then
    printf 'MISSED: %s\n' "${failures[@]}"
    exit 1
fi
echo "targets met: max / mean <= $MAX_BALANCE, moved <= $MAX_MOVED_PERCENT%"
