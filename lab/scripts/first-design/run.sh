#!/usr/bin/env bash
# Issue #38's campaign on the first design: the metal-rules profile run by commit 09c30d6's own
# harness (bench/.../WorkloadReport, exec@metal-report), patched by first-design.patch beside this
# script (the profile, workload.contenders / forks / jvmArgs back-ported, the C loop off unless
# C_REPEAT says), in a git worktree of its own; the run's files are copied to OUT_DIR, where
# `MetalStreams compare TODAY_DIR OUT_DIR PAGE.md` reads them (lab/README.md).
#
#   lab/scripts/first-design/run.sh OUT_DIR [PROFILE]     PROFILE: metal-rules (default) or
#                                                          metal-rules-quick (the dry run)
#   lab/scripts/first-design/run.sh --clean               removes the worktree
#
# Environment: CONTENDERS (default trainer-trusted; empty: all), JVM_ARGS (the report's JVM and its
# forks, e.g. -XX:UseAVX=2), ONLY (SPEC,SPEC: those streams only), FORKS (JMH forks per combination; empty: the profile's 1), C_REPEAT
# (C loop passes; default 0: the C figures come from today's run), WT (the worktree, default
# /tmp/first-design-09c30d6; kept between runs so that the second run skips the build), NICE
# (default "nice -n 19"; empty in a quiet window).
set -euo pipefail
FIRST=09c30d6
here=$(cd "$(dirname "$0")" && pwd)
repo=$(git -C "$here" rev-parse --show-toplevel)
patch="$here/first-design.patch"
wt=${WT:-/tmp/first-design-$FIRST}
if [[ ${1:-} == --clean ]]; then
  git -C "$repo" worktree remove --force "$wt"
  exit 0
fi
out=${1:?usage: run.sh OUT_DIR [PROFILE] | --clean}
profile=${2:-metal-rules}
contenders=${CONTENDERS-trainer-trusted}
nice_cmd=${NICE-nice -n 19}
if [[ ! -d $wt ]]; then
  git -C "$repo" worktree add --detach "$wt" "$FIRST"
  git -C "$wt" apply "$patch"
else
  [[ $(git -C "$wt" rev-parse --short=7 HEAD) == "$FIRST" ]] || { echo "$wt is not at $FIRST" >&2; exit 1; }
  git -C "$wt" apply --reverse --check "$patch" 2>/dev/null \
    || { echo "$wt does not hold first-design.patch (run.sh --clean)" >&2; exit 1; }
fi
rm -rf "$wt/bench-report/$profile"
cd "$wt"
# shellcheck disable=SC2086
$nice_cmd mvn -B -q -pl bench -am compile exec:exec@metal-report \
  -Dmetal.profile="$profile" \
  -Dworkload.contenders="$contenders" \
  -Dworkload.forks="${FORKS:-}" \
  -Dworkload.cRepeat="${C_REPEAT:-0}" \
  -Dworkload.jvmArgs="${JVM_ARGS:-}" \
  -Dworkload.only="${ONLY:-}"
mkdir -p "$out"
cp -r "$wt/bench-report/$profile/." "$out/"
echo "first design ($FIRST) $profile: $out/workload-results.csv"
