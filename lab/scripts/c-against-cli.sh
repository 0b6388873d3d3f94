#!/usr/bin/env bash
# Is the C contender bit-identical to the command line on the data files? Builds the contender
# (bench/c/contender), then for every rule it has (contender --rules) and type compares its mean
# progressive loss with `online-kernels train --json` on a JVM whose Math.exp is fdlibm's and on the
# default JVM. Exits 1 unless every case equals the fdlibm-exp command line. lab/README.md says
# what it answered; the workload report's metal profile runs the same check on the library.
#
# usage: lab/scripts/c-against-cli.sh
# Environment: DATA_DIR (default <repo>/data); RULES, TYPES, FILES; BUILD_DIR (default
# <repo>/bench/target/c-contender, where the workload report builds it too); CC (default gcc);
# EXTRA_CFLAGS. Exit 0 when gcc is missing ("skipped: no gcc").
set -u

here=$(cd -- "$(dirname -- "$0")" && pwd)
root=$(cd -- "$here/../.." && pwd)
src=$root/bench/c/contender
gen=$root/bench/target/generated-sources/c # the generated rules (mvn -B -q -pl bench -am compile)
CC=${CC:-gcc}
if ! command -v "$CC" >/dev/null 2>&1; then
  echo "skipped: no gcc"
  exit 0
fi
[[ -f $gen/rules.h ]] || { echo "error: $gen/rules.h is missing: mvn -B -q -pl bench -am compile"; exit 1; }
build=${BUILD_DIR:-$root/bench/target/c-contender}
mkdir -p "$build" || exit 1
bin=$build/contender
CFLAGS=(-O3 -march=native -fno-math-errno -fno-trapping-math -ffp-contract=off)
if [[ -n ${EXTRA_CFLAGS:-} ]]; then
  CFLAGS+=($EXTRA_CFLAGS)
  bin=$build/contender-custom
  rm -f "$bin"
fi
if [[ ! -x $bin || -n $(find "$src" "$gen" -newer "$bin" \( -name '*.c' -o -name '*.h' \) -print -quit) ]]; then
  "$CC" "${CFLAGS[@]}" -I "$gen" -I "$src" -o "$bin" "$src/contender.c" "$src/libsvm_read.c" -lm || { echo "error: build failed"; exit 1; }
fi
echo "built: $bin ($("$CC" --version | head -1); ${CFLAGS[*]})"

data=${DATA_DIR:-$root/data}
cli=$root/bin/online-kernels
# The JVM option under which Math.exp is fdlibm's (HotSpot's libm intrinsics off), as fdlibm.h.
FDLIBM_JVM="-XX:+UnlockDiagnosticVMOptions -XX:-UseLibmIntrinsic"

json_field() { # json_field NAME <<< one-line JSON: the first top-level-looking "NAME": value
  sed -n "s/.*\"$1\": \"\{0,1\}\([^,\"}]*\).*/\1/p"
}

cli_loss() { # cli_loss FILE RULE TYPE JVM_OPTS [EPOCHS] -> "LOSS STEADY_SECONDS STEADY_EXAMPLES" or "error"
  local out
  out=$(ONLINE_KERNELS_JAVA_OPTS="$4" "$cli" train --data "$1" --no-shuffle --epochs "${5:-1}" --algorithm "$2" --type "$3" --json 2>/dev/null) || { echo error; return; }
  local loss ss se
  loss=$(sed -n 's/.*"progressive": {[^}]*"loss": \([^,}]*\).*/\1/p' <<<"$out")
  ss=$(json_field steady_seconds <<<"$out")
  se=$(json_field steady_examples <<<"$out")
  echo "$loss $ss $se"
}

check() {
  local files=(${FILES:-heart_scale.svm breast_cancer.svm shuttle.train.svm austen_lines.train.svm})
  local rules=(${RULES:-$("$bin" --rules)})
  local types=(${TYPES:-float double})
  "$cli" --help >/dev/null 2>&1 || { echo "error: $cli does not run"; return 1; }
  printf '%-22s %-14s %-6s %-18s %-18s %-5s %-18s %-5s %9s %9s\n' file rule type "C loss bits" \
    "CLI (fdlibm exp)" equal "CLI (default JVM)" equal "C ns/row" "CLI ns/row"
  local f r t same=0 cases=0
  for f in "${files[@]}"; do
    for r in "${rules[@]}"; do
      for t in "${types[@]}"; do
        local c cbits cns a b abits bbits aeq beq cli_ns
        c=$("$bin" --data "$data/$f" --algorithm "$r" --type "$t" 2>&1)
        cbits=$(json_field loss_bits <<<"$c")
        cns=$(json_field steady_ns_per_row <<<"$c")
        [[ -z $cbits ]] && cbits="error" && cns="-"
        read -r a _ _ <<<"$(cli_loss "$data/$f" "$r" "$t" "$FDLIBM_JVM")"
        read -r b bss bse <<<"$(cli_loss "$data/$f" "$r" "$t" "")"
        abits=error; bbits=error
        [[ $a != error && -n $a ]] && abits=$("$bin" --bits "$a")
        [[ $b != error && -n $b ]] && bbits=$("$bin" --bits "$b")
        aeq=no; beq=no
        [[ $cbits == "$abits" && $cbits != error ]] && aeq=yes
        [[ $cbits == "$bbits" && $cbits != error ]] && beq=yes
        cli_ns=-
        [[ $b != error && -n ${bse:-} ]] && cli_ns=$(awk -v s="$bss" -v n="$bse" 'BEGIN { printf "%.1f", s / n * 1e9 }')
        cases=$((cases + 1))
        [[ $aeq == yes ]] && same=$((same + 1))
        printf '%-22s %-14s %-6s %-18s %-18s %-5s %-18s %-5s %9s %9s\n' "$f" "$r" "$t" "$cbits" "$abits" "$aeq" \
          "$bbits" "$beq" "$cns" "$cli_ns"
      done
    done
  done
  echo "bit-identical to the CLI with fdlibm exp ($FDLIBM_JVM): $same of $cases cases"
  ((same == cases))
}

check
