#!/usr/bin/env bash
# Issue #38's campaign in one command: per vector width, today's metal-rules run (trusted trainer
# and C loop), the first design's (run.sh beside this script), and the comparison page.
#
#   lab/scripts/first-design/campaign.sh OUT [WIDTHS]     WIDTHS: "512 256" (default), "512", "256"
#
# Writes OUT/main-W/, OUT/first-W/ and OUT/compare-W.md per width W. Environment: ONLY (SPEC,SPEC:
# a subset of the profile's streams, both designs), ONLY_256 (the same for the 256-bit side only,
# e.g. zipf:14:40,zipf:20:40,zipf:20:200 to fit a short window), PROFILE (default metal-rules;
# metal-rules-quick for a dry run), NICE (default "nice -n 19"; set it empty in a quiet window),
# FORKS (JMH forks per combination, both designs), MAIN_ARGS (more -D options for today's runs
# only, e.g. -Dworkload.warmSeconds=5: the first design has no such property), and run.sh's WT.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(git -C "$here" rev-parse --show-toplevel)
out=$(realpath -m "${1:?usage: campaign.sh OUT [WIDTHS]}")
widths=${2:-512 256}
profile=${PROFILE:-metal-rules}
nice_cmd=${NICE-nice -n 19}
export NICE="$nice_cmd"
mkdir -p "$out"
cd "$repo"
lab() {
  # shellcheck disable=SC2086
  $nice_cmd mvn -B -q -Plab -pl lab -am compile exec:exec@metal-streams "$@"
}
for w in $widths; do
  case $w in
    512) jvm="" cflags="" only=${ONLY:-} ;;
    256) jvm="-XX:UseAVX=2" cflags="-mno-avx512f" only=${ONLY_256:-${ONLY:-}} ;;
    *) echo "width must be 512 or 256, got $w" >&2; exit 1 ;;
  esac
  echo "[$(date -u +%T)] today's design, $w bits"
  # shellcheck disable=SC2086
  lab -Dlab.args="$profile $out/main-$w $only" -Dworkload.contenders=trainer-trusted \
    -Dworkload.jvmArgs="$jvm" -Dworkload.cflags="$cflags" -Dworkload.forks="${FORKS:-}" \
    ${MAIN_ARGS:-}
  echo "[$(date -u +%T)] first design, $w bits"
  JVM_ARGS="$jvm" ONLY="$only" FORKS="${FORKS:-}" "$here/run.sh" "$out/first-$w" "$profile"
  lab -Dlab.args="compare $out/main-$w $out/first-$w $out/compare-$w.md"
done
echo "[$(date -u +%T)] done: $out/compare-*.md"
