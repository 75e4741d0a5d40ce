#!/usr/bin/env bash
# Writes what the shipped rulesets make of the samples into OUT: every finding of `check` in every format,
# `lint` of the sample house files, `edge` of every version and house table, `rules list/show`, and seeded
# séances of every version (clean and with every plantable violation) with what `check` finds in them.
#
#   scripts/reference_outputs.sh OUT
#
# Run it before and after a change that must not change behaviour (a reorganisation of the modules), then
# `diff -r BEFORE AFTER`: nothing may differ (the folders and `edge`'s timings are written as constants). Each command's exit status is recorded beside its output.
# Paths in the outputs are relative to the repository root (the script runs from there).
set -u
out=${1:?usage: scripts/reference_outputs.sh OUT}
cd "$(dirname "$0")/.."
mkdir -p "$out"
out=$(cd "$out" && pwd)
cv=(casino-validator)
# `edge` computes its figures: its saved figures (the cache folder) would hide a change in the mathematics.
export CASINO_VALIDATOR_NO_CACHE=1

run() {  # run NAME ARGS...: stdout, stderr and exit status of the command under OUT/NAME.*
    local name=$1
    shift
    "${cv[@]}" "$@" >"$out/$name.out" 2>"$out/$name.err"
    echo $? >"$out/$name.rc"
}

logs=(samples/logs/clean/*.jsonl* samples/logs/disputes/*.jsonl samples/logs/side-bets/*.jsonl)
for log in "${logs[@]}"; do
    base=$(basename "$log")
    for format in text jsonl json sarif junit github; do
        run "check.$base.$format" check -q --no-config --sarif-root . --format "$format" "$log"
    done
done
run check.all.json check -q --no-config --format json "${logs[@]}"
run check.house.json check -q --no-config --format json --house samples/house/trouville.yaml "${logs[@]}"

for house in samples/house/*.yaml; do
    base=$(basename "$house")
    for format in text json sarif; do
        run "lint.$base.$format" lint --no-config --sarif-root . --date 2025-06-24 --format "$format" "$house"
    done
done

run rules.list rules list
versions=(fr/blackjack@2013-12-15 fr/blackjack@2019-08-12 fr/blackjack@2020-05-25 fr/blackjack@2024-11-01
    fr/bataille@2013-05-12 fr/usage-blackjack@2025-01-01 on/fair-blackjack@2025-01-01)
for version in "${versions[@]}"; do
    name=${version//\//_}
    run "rules.show.$name" rules show "$version"
    for format in text json; do
        run "edge.$name.$format" edge --ruleset "$version" --format "$format"
    done
    run "edge.$name.options" edge --ruleset "$version" --options
done
for table in BJ-03 BJ-07 ON-01 US-01 BA-01; do
    run "edge.trouville.$table.json" edge --house samples/house/trouville.yaml --table "$table" --format json
done

for version in "${versions[@]}"; do
    name=${version//\//_}
    limits=()
    case $version in
        on/*) limits=(--minimum 1 --maximum 5) ;;
        # The text leaves the blackjack's payout to the house: the sample casino's table declares it.
        fr/usage-*) limits=(--house samples/house/trouville.yaml --table US-01) ;;
    esac
    for seed in 1 7; do
        run "simulate.$name.$seed" simulate -q --ruleset "$version" "${limits[@]}" --rounds 120 --seed "$seed"
        cp "$out/simulate.$name.$seed.out" "$out/seance.$name.$seed.jsonl"
        run "check.seance.$name.$seed" check -q --no-config --format json "$out/seance.$name.$seed.jsonl"
    done
    # Every rule the simulator can break, planted at a fifth of the rounds.
    "${cv[@]}" simulate --ruleset "$version" "${limits[@]}" --inject '?' -o x 2>"$out/inject.$name.list"
    # The list: one rule a line, indented, after the line that ends "it can break:".
    rules=$(sed -n 's/^  \([a-z][^ ]*\)$/\1/p' "$out/inject.$name.list" | paste -sd, -)
    if [ -z "$rules" ]; then
        echo "reference_outputs.sh: no plantable rule read for $version (simulate --inject '?' changed?)" >&2
        exit 2
    fi
    run "simulate.$name.inject" simulate -q --ruleset "$version" "${limits[@]}" --rounds 200 --seed 3 \
        --inject "$rules" --rate 0.2 -o "$out/planted.$name.jsonl"
    run "check.planted.$name" check -q --no-config --format json "$out/planted.$name.jsonl"
done
# What may differ between two runs of the same program is written as a constant: the folders (the outputs',
# the checkout's, which SARIF names as its root) and the time `edge` took.
sed -i -E -e "s#$out#OUT#g" -e "s#$(pwd)/#CHECKOUT/#g" \
    -e 's/"(seconds|cpu_seconds)": "[0-9.]+"/"\1": "T"/' \
    -e 's/computed in [0-9.]+ s \([0-9.]+ s of processor time\)/computed in T s (T s of processor time)/' \
    "$out"/*.out "$out"/*.err "$out"/*.json 2>/dev/null
echo "reference outputs in $out"
