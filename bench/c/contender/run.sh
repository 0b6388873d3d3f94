#!/usr/bin/env bash
# The C contender (issue #21 part 1): builds it, checks its mean progressive loss against the
# command line's bit for bit, and measures it against the command line. README.md says more.
#
# usage: bench/c/contender/run.sh [check|libm|measure|incache|buffers|split|pages|all]   (default: check)
#   check    every rule (contender --rules) and type on the data files: C loss bits, the CLI's
#            loss bits on a JVM whose Math.exp is fdlibm's and on the default JVM, equal or not,
#            C ns per row; exits 1 unless every case equals the fdlibm-exp CLI
#   libm     fdlibm.h against Java's StrictMath.exp and log1p on 10 million arguments
#   measure  C against the CLI (one epoch, and WARM_EPOCHS epochs whose second half is warm) and
#            against the CLI's trainer call repeated in one JVM (TrainerCpu.java: wall and CPU
#            time), alternating, RUNS runs each, on the synthetic Zipf stream and on austen_lines
#            (median ns per row), with the CPU and the load
#   incache  C, C with its scalar bodies alone, the library's rounds (RoundsCpu.java) and the CLI on Zipf
#            streams over d = 2^12 (state in cache) with 8, 40, 200 nonzeros per row: ns per row,
#            ratios, a + b * nnz per contender (not part of all)
#   buffers  the round on the caller's own segments (per row, with and without the loss) and the
#            per-call path (predictSparse, update) against
#            the block rounds, alternating in one JVM, on those streams and zipf:20:40 (not part of all)
#   split    what the caller's-buffers round adds to the block rounds, split into the per-call cost
#            and the row's validation and copy (not part of all)
#   pages    huge pages on both sides: C with and without --hugepages, the CLI with and without
#            -XX:+UseTransparentHugePages, on Zipf streams over d = 2^20, 2^22, 2^24 (PAGE_STREAMS
#            LOG2D:NNZ:ROWS ...), with the AnonHugePages each got (not part of all)
#   all      check, libm and measure
#
# Environment: DATA_DIR (default <repo>/data); RULES, TYPES,
# FILES (check); MEASURE_RULES, MEASURE_TYPES, RUNS (default 3), WARM_EPOCHS (default 10)
# (measure); BUILD_DIR (default <repo>/bench/target/c-contender, where the workload report builds it too); CC (default gcc); EXTRA_CFLAGS (e.g.
# -DCONTENDER_NO_SIMD). Exit 0 when gcc is missing ("skipped: no gcc").
set -u

here=$(cd -- "$(dirname -- "$0")" && pwd)
root=$(cd -- "$here/../../.." && pwd)
mode=${1:-check}
CC=${CC:-gcc}
if ! command -v "$CC" >/dev/null 2>&1; then
  echo "skipped: no gcc"
  exit 0
fi
build=${BUILD_DIR:-$root/bench/target/c-contender}
mkdir -p "$build" || exit 1
bin=$build/contender
CFLAGS=(-O3 -march=native -fno-math-errno -fno-trapping-math -ffp-contract=off)
if [[ -n ${EXTRA_CFLAGS:-} ]]; then # e.g. -DCONTENDER_NO_SIMD: the scalar bodies alone
  CFLAGS+=($EXTRA_CFLAGS)
  bin=$build/contender-custom
  rm -f "$bin"
fi
if [[ ! -x $bin || -n $(find "$here" -newer "$bin" \( -name '*.c' -o -name '*.h' \) -print -quit) ]]; then
  "$CC" "${CFLAGS[@]}" -o "$bin" "$here/contender.c" "$here/libsvm_read.c" -lm || { echo "error: build failed"; exit 1; }
fi
echo "built: $bin ($("$CC" --version | head -1); ${CFLAGS[*]})"

data=${DATA_DIR:-$root/data}
cli=$root/bin/online-kernels
# The JVM option under which Math.exp is fdlibm's (HotSpot's libm intrinsics off), as fdlibm.h.
FDLIBM_JVM="-XX:+UnlockDiagnosticVMOptions -XX:-UseLibmIntrinsic"

find_jdk() {
  local c v
  for c in ${JAVA_HOME:-} /usr/lib/jvm/* "$HOME"/.jdks/*; do
    [[ -x $c/bin/java && -r $c/release ]] || continue
    v=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$c/release")
    [[ -n $v ]] && ((v >= 25)) && { printf '%s' "$c"; return 0; }
  done
  return 1
}

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

libm() {
  local jdk
  jdk=$(find_jdk) || { echo "libm: skipped (no JDK 25)"; return 0; }
  "$jdk/bin/java" "$here/LibmProbe.java" "$build/libm-probe.bin" 10000000 || return 1
  "$bin" --check-libm "$build/libm-probe.bin"
  local rc=$?
  rm -f "$build/libm-probe.bin"
  return $rc
}

stream_file() { # stream_file LOG2D NNZ ROWS: the workload's Zipf stream over d = 2^LOG2D, written once
  local out=$build/synthetic_zipf_$1_$2_$3.svm jdk
  if [[ -s $out ]]; then
    echo "$out"
    return 0
  fi
  jdk=$(find_jdk) || { echo "error: no JDK 25 for the synthetic stream" >&2; return 1; }
  if [[ ! -f $root/bench/target/classes/org/onlinekernels/bench/workload/LibSvmText.class ]]; then
    (cd "$root" && JAVA_HOME=$jdk mvn -q -B -o -pl bench -am -DskipTests compile) >&2 || return 1
  fi
  "$jdk/bin/java" -cp "$root/bench/target/classes:$root/library/target/classes" "$here/SyntheticSvm.java" "$out" "$3" "$1" "$2" >&2 || return 1
  echo "$out"
}

synthetic_file() { stream_file 20 40 200000; } # the workload benchmark's zipf:20:40, 200,000 rows

median() { sort -g | awk '{ a[NR] = $1 } END { if (NR) print a[int((NR + 1) / 2)] }'; }

library_classpath() { # the jars bin/online-kernels runs, or nothing
  local jar
  for jar in "$root"/library/target/online-kernels-*.jar; do
    case $jar in *-sources.jar | *-javadoc.jar | *-tests.jar) continue ;; esac
    [[ -f $jar && -d $root/cli/target/cli-lib ]] && { printf '%s' "$jar:$root/cli/target/cli-lib/*"; return 0; }
  done
  return 1
}

measure() {
  local runs=${RUNS:-3} warm=${WARM_EPOCHS:-10} syn jdk cp=""
  local rules=(${MEASURE_RULES:-scinol2 adagrad})
  local types=(${MEASURE_TYPES:-float double})
  syn=$(synthetic_file) || return 1
  "$cli" --help >/dev/null 2>&1 || { echo "error: $cli does not run"; return 1; }
  jdk=$(find_jdk) && cp=$(library_classpath) || cp=""
  echo "cpu: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), $(nproc) cores; load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "ns per row, median of $runs runs, the contenders alternating. C: steady state (second half of the pass), wall and"
  echo "thread CPU time; CLI: train --epochs 1, steady state as it reports it (JIT warm-up included); CLI warm: train"
  echo "--epochs $warm, second half; trainer: TrainerCpu.java, the CLI's OnlineTrainer.train call 5 times in one JVM, median"
  echo "of passes 2-5, wall and thread CPU time; equal: C loss bits = the CLI's on the fdlibm-exp JVM"
  printf '%-22s %-8s %-6s %-5s %7s %7s %8s %8s %8s %8s %8s %8s\n' data rule type equal "C" "C cpu" "CLI" "CLI warm" \
    "trainer" "tr. cpu" "CLIw/C" "cpu/cpu"
  local f r t i
  for f in "$syn" "$data/austen_lines.train.svm"; do
    for r in "${rules[@]}"; do
      for t in "${types[@]}"; do
        local cs=() cc=() js=() ws=() ts=() tc=() eq=no c j bits o
        c=$("$bin" --data "$f" --algorithm "$r" --type "$t")
        bits=$(json_field loss_bits <<<"$c")
        read -r j _ _ <<<"$(cli_loss "$f" "$r" "$t" "$FDLIBM_JVM")"
        [[ $j != error && $bits == "$("$bin" --bits "$j")" ]] && eq=yes
        for ((i = 0; i < runs; i++)); do
          c=$("$bin" --data "$f" --algorithm "$r" --type "$t")
          cs+=("$(json_field steady_ns_per_row <<<"$c")")
          cc+=("$(json_field steady_cpu_ns_per_row <<<"$c")")
          read -r j jss jse <<<"$(cli_loss "$f" "$r" "$t" "")"
          js+=("$(awk -v s="$jss" -v n="$jse" 'BEGIN { printf "%.1f", s / n * 1e9 }')")
          read -r j jss jse <<<"$(cli_loss "$f" "$r" "$t" "" "$warm")"
          ws+=("$(awk -v s="$jss" -v n="$jse" 'BEGIN { printf "%.1f", s / n * 1e9 }')")
          if [[ -n $cp ]]; then
            o=$("$jdk/bin/java" --add-modules jdk.incubator.vector -cp "$cp" "$here/TrainerCpu.java" "$f" "$r" "$t" 5 2>/dev/null)
            ts+=("$(json_field warm_ns_per_row <<<"$o")")
            tc+=("$(json_field warm_cpu_ns_per_row <<<"$o")")
          fi
        done
        local cm ccm jm wm tm tcm
        cm=$(printf '%s\n' "${cs[@]}" | median)
        ccm=$(printf '%s\n' "${cc[@]}" | median)
        jm=$(printf '%s\n' "${js[@]}" | median)
        wm=$(printf '%s\n' "${ws[@]}" | median)
        tm=$(printf '%s\n' "${ts[@]:-}" | median)
        tcm=$(printf '%s\n' "${tc[@]:-}" | median)
        printf '%-22s %-8s %-6s %-5s %7s %7s %8s %8s %8s %8s %8s %8s\n' "$(basename "$f" | cut -c1-22)" "$r" "$t" "$eq" \
          "$cm" "$ccm" "$jm" "$wm" "${tm:--}" "${tcm:--}" \
          "$(awk -v a="$wm" -v b="$cm" 'BEGIN { printf "%.2fx", a / b }')" \
          "$(awk -v a="${tcm:-0}" -v b="$ccm" 'BEGIN { if (a > 0) printf "%.2fx", a / b; else printf "-" }')"
        echo "    runs C: ${cs[*]} | C cpu: ${cc[*]} | CLI: ${js[*]} | CLI warm: ${ws[*]} | trainer: ${ts[*]:-} | cpu: ${tc[*]:-}"
      done
    done
  done
  echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
}

incache_file() { stream_file 12 "$1" "$2"; } # incache_file NNZ ROWS: d = 2^12, every model fits L1/L2

fit_line() { # fit_line "NNZ NS" lines on stdin -> "a b": least squares ns = a + b * nnz
  awk '{ n++; sx += $1; sy += $2; sxx += $1 * $1; sxy += $1 * $2 }
    END { b = (n * sxy - sx * sy) / (n * sxx - sx * sx); printf "%.0f %.2f", (sy - b * sx) / n, b }'
}

# The state in cache: C with its SIMD bodies, C with its scalar bodies alone (-DCONTENDER_NO_SIMD)
# and the library's rounds (RoundsCpu.java) on Zipf streams over d = 2^12 with 8, 40 and 200
# nonzeros per row (8 million nonzeros each), float, alternating; then a + b * nnz per contender.
incache() {
  local runs=${RUNS:-3} jdk cp scalar=$build/contender-scalar
  local rules=(${MEASURE_RULES:-scinol2 adagrad})
  jdk=$(find_jdk) || { echo "error: no JDK 25"; return 1; }
  cp=$(library_classpath) || { echo "error: build the CLI first (mvn -B -q install -DskipTests)"; return 1; }
  if [[ ! -x $scalar || $scalar -ot $bin ]]; then
    "$CC" "${CFLAGS[@]}" -DCONTENDER_NO_SIMD -o "$scalar" "$here/contender.c" "$here/libsvm_read.c" -lm || { echo "error: build failed"; return 1; }
  fi
  echo "cpu: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), $(nproc) cores; load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "ns per row, float, median of $runs runs, the contenders alternating. C: steady state (second half of the pass, median"
  echo "of --repeat 5); C scalar: the same binary built with -DCONTENDER_NO_SIMD; rounds: RoundsCpu.java, median of the"
  echo "second half of 10 passes; trainer: train --no-shuffle --epochs 4 -Donlinekernels.handover=0 (vector kernels"
  echo "from the start), its steady state (second half); equal: every rounds pass's mean loss bits = C's pass_loss_bits"
  printf '%-6s %-8s %-5s %8s %9s %8s %8s %9s %11s %10s\n' nnz rule equal "C" "C scalar" rounds trainer "rounds/C" "rounds/C sc." "trainer/C"
  local fits="" nnz rows f r i
  for r in "${rules[@]}"; do
    for nnz in 8 40 200; do
      rows=$((8000000 / nnz))
      f=$(incache_file "$nnz" "$rows") || return 1
      local cs=() ss=() rs=() ts=() eq=yes c o cbits tss tse
      for ((i = 0; i < runs; i++)); do
        c=$("$bin" --data "$f" --algorithm "$r" --type float --repeat 5 --prefetch 0)
        cs+=("$(json_field steady_ns_per_row <<<"$c")")
        cbits=$(json_field pass_loss_bits <<<"$c")
        ss+=("$("$scalar" --data "$f" --algorithm "$r" --type float --repeat 5 --prefetch 0 | json_field steady_ns_per_row)")
        o=$("$jdk/bin/java" --add-modules jdk.incubator.vector -cp "$cp" "$here/RoundsCpu.java" "$f" "$r" float 10 2>/dev/null)
        rs+=("$(json_field warm_ns_per_row <<<"$o")")
        [[ -n $cbits && $(grep -o '"0x[0-9a-f]*"' <<<"$o" | sort -u) == "\"$cbits\"" ]] || eq=no
        read -r _ tss tse <<<"$(cli_loss "$f" "$r" float "-Donlinekernels.handover=0" 4)"
        ts+=("$(awk -v s="$tss" -v n="$tse" 'BEGIN { printf "%.1f", s / n * 1e9 }')")
      done
      local cm sm rm tm
      cm=$(printf '%s\n' "${cs[@]}" | median)
      sm=$(printf '%s\n' "${ss[@]}" | median)
      rm=$(printf '%s\n' "${rs[@]}" | median)
      tm=$(printf '%s\n' "${ts[@]}" | median)
      printf '%-6s %-8s %-5s %8s %9s %8s %8s %9s %11s %10s\n' "$nnz" "$r" "$eq" "$cm" "$sm" "$rm" "$tm" \
        "$(awk -v a="$rm" -v b="$cm" 'BEGIN { printf "%.2fx", a / b }')" \
        "$(awk -v a="$rm" -v b="$sm" 'BEGIN { printf "%.2fx", a / b }')" \
        "$(awk -v a="$tm" -v b="$cm" 'BEGIN { printf "%.2fx", a / b }')"
      echo "    runs C: ${cs[*]} | C scalar: ${ss[*]} | rounds: ${rs[*]} | trainer: ${ts[*]}"
      fits+="$r C $nnz $cm"$'\n'"$r C-scalar $nnz $sm"$'\n'"$r rounds $nnz $rm"$'\n'"$r trainer $nnz $tm"$'\n'
    done
  done
  echo "fit ns per row = a + b * nnz (least squares over 8, 40, 200):"
  local who
  for r in "${rules[@]}"; do
    for who in C C-scalar rounds trainer; do
      printf '  %-8s %-9s a = %s ns, b = %s ns per nonzero\n' "$r" "$who" \
        $(awk -v r="$r" -v w="$who" '$1 == r && $2 == w { print $3, $4 }' <<<"$fits" | fit_line)
    done
  done
  echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
}

# For buffers and split: the JDK, the library's class path and the streams (the in-cache ones and
# zipf:20:40) into the caller's jdk, cp and files (bash's dynamic scope), and the table's first lines.
roundscpu_setup() {
  jdk=$(find_jdk) || { echo "error: no JDK 25"; return 1; }
  cp=$(library_classpath) || { echo "error: build the CLI first (mvn -B -q install -DskipTests)"; return 1; }
  files=("$(incache_file 8 1000000)" "$(incache_file 40 200000)" "$(incache_file 200 40000)" "$(synthetic_file)")
  echo "cpu: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), $(nproc) cores; load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "ns per row, float, median over $runs JVMs of RoundsCpu.java's median of the second half of 10 passes per path,"
}

# The round on the caller's own buffers against the block rounds (issue #21's 0.9x): RoundsCpu.java's
# three paths alternating pass by pass in one JVM, on the in-cache streams and the zipf:20:40 file.
buffers() {
  local runs=${RUNS:-3} jdk cp files f r i o
  local rules=(${MEASURE_RULES:-scinol2 adagrad})
  roundscpu_setup || return 1
  echo "the paths alternating pass by pass; equal: the buffers and per-call paths' loss bits = the rounds' in every pass"
  printf '%-36s %-8s %-5s %8s %8s %13s %8s %14s %16s %15s\n' data rule equal rounds buffers buffers-score per-call "buffers x rds" "score-only x rds" "per-call x rds"
  for f in "${files[@]}"; do
    for r in "${rules[@]}"; do
      local a=() b=() c=() p=() eq=yes
      for ((i = 0; i < runs; i++)); do
        o=$("$jdk/bin/java" --add-modules jdk.incubator.vector -cp "$cp" "$here/RoundsCpu.java" "$f" "$r" float 10 rounds,buffers,buffers-score,per-call 2>/dev/null)
        a+=("$(grep '"rounds"' <<<"$o" | json_field warm_ns_per_row)")
        b+=("$(grep '"buffers"' <<<"$o" | json_field warm_ns_per_row)")
        c+=("$(grep '"buffers-score"' <<<"$o" | json_field warm_ns_per_row)")
        p+=("$(grep '"per-call"' <<<"$o" | json_field warm_ns_per_row)")
        [[ -n $o && $(grep -e '"rounds"' -e '"buffers"' -e '"per-call"' <<<"$o" | grep -o '"0x[0-9a-f]*"' | sort -u | wc -l) == 1 ]] || eq=no
      done
      local am bm cm pm
      am=$(printf '%s\n' "${a[@]}" | median)
      bm=$(printf '%s\n' "${b[@]}" | median)
      cm=$(printf '%s\n' "${c[@]}" | median)
      pm=$(printf '%s\n' "${p[@]}" | median)
      printf '%-36s %-8s %-5s %8s %8s %13s %8s %14s %16s %15s\n' "$(basename "$f")" "$r" "$eq" "$am" "$bm" "$cm" "$pm" \
        "$(awk -v a="$am" -v b="$bm" 'BEGIN { printf "%.2fx", a / b }')" \
        "$(awk -v a="$am" -v b="$cm" 'BEGIN { printf "%.2fx", a / b }')" \
        "$(awk -v a="$am" -v b="$pm" 'BEGIN { printf "%.2fx", a / b }')"
      echo "    runs rounds: ${a[*]} | buffers: ${b[*]} | buffers-score: ${c[*]} | per-call: ${p[*]}"
    done
  done
  echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
}

# Huge pages on both sides: C with and without --hugepages (madvise on its state), the CLI with
# and without -XX:+UseTransparentHugePages (which bin/online-kernels asks for where the kernel
# offers them), and the rounds racing touch on and off, on Zipf streams over d = 2^20, 2^22 and
# 2^24, float, alternating; ns per row (medians) and the ratios, with the largest AnonHugePages
# seen during each run.
pages() {
  local runs=${RUNS:-3} r spec f i c cs=() chs=() ts=() ths=() tss tse
  local rules=(${MEASURE_RULES:-scinol2 adagrad})
  echo "cpu: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), $(nproc) cores; transparent huge pages: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo none); load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "ns per row, float, median of $runs runs, alternating. C: steady state (median of --repeat 5), prefetch 1 row;"
  echo "trainer: train --no-shuffle --epochs 4 -Donlinekernels.handover=0, steady state (second half); huge: the largest"
  echo "AnonHugePages (MiB) seen in /proc/meminfo during the runs of that column"
  printf '%-14s %-8s %8s %8s %9s %9s %8s %8s %10s %12s\n' stream rule "C" "C huge" trainer "tr. huge" "MiB C" "MiB tr." "trainer/C" "huge tr./C"
  for spec in ${PAGE_STREAMS:-20:40:200000 22:8:1000000 24:40:200000}; do
    IFS=: read -r lg nz rows <<<"$spec"
    f=$(stream_file "$lg" "$nz" "$rows") || return 1
    for r in "${rules[@]}"; do
      cs=() chs=() ts=() ths=()
      local mc=0 mt=0 m
      for ((i = 0; i < runs; i++)); do
        cs+=("$("$bin" --data "$f" --algorithm "$r" --type float --repeat 5 | json_field steady_ns_per_row)")
        m=$(anon_huge_during "$bin" --data "$f" --algorithm "$r" --type float --repeat 5 --hugepages)
        chs+=("${m#* }"); ((${m% *} > mc)) && mc=${m% *}
        read -r _ tss tse <<<"$(cli_loss "$f" "$r" float "-Donlinekernels.handover=0 -XX:-UseTransparentHugePages" 4)"
        ts+=("$(awk -v s="$tss" -v n="$tse" 'BEGIN { printf "%.1f", s / n * 1e9 }')")
        m=$(anon_huge_during cli_steady "$f" "$r")
        ths+=("${m#* }"); ((${m% *} > mt)) && mt=${m% *}
      done
      local cm chm tm thm
      cm=$(printf '%s\n' "${cs[@]}" | median); chm=$(printf '%s\n' "${chs[@]}" | median)
      tm=$(printf '%s\n' "${ts[@]}" | median); thm=$(printf '%s\n' "${ths[@]}" | median)
      printf '%-14s %-8s %8s %8s %9s %9s %8s %8s %10s %12s\n' "zipf:$lg:$nz" "$r" "$cm" "$chm" "$tm" "$thm" "$mc" "$mt" \
        "$(awk -v a="$cm" -v b="$tm" 'BEGIN { printf "%.2fx", a / b }')" \
        "$(awk -v a="$chm" -v b="$thm" 'BEGIN { printf "%.2fx", a / b }')"
    done
  done
  echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
}

# What the caller's-buffers round adds to the block rounds, split: RoundsCpu.java's rounds without
# losses, one round(rows, r, ...) call per row on the same SparseRows, and the round on the caller's
# segments (scores only, so no loss enters), alternating pass by pass; per-call cost = row calls
# over rounds, validation and copy = buffers over row calls.
buffer_split() {
  local runs=${RUNS:-3} jdk cp files f r i o
  local rules=(${MEASURE_RULES:-scinol2 adagrad})
  roundscpu_setup || return 1
  echo "alternating pass by pass; equal: the three paths' score sums have the same bits in every pass"
  printf '%-36s %-8s %-5s %8s %10s %8s %17s %17s\n' data rule equal rounds "row calls" buffers "rounds/row calls" "row calls/buffers"
  for f in "${files[@]}"; do
    for r in "${rules[@]}"; do
      local a=() b=() c=() eq=yes
      for ((i = 0; i < runs; i++)); do
        o=$("$jdk/bin/java" --add-modules jdk.incubator.vector -cp "$cp" "$here/RoundsCpu.java" "$f" "$r" float 10 rounds-score,row-calls-score,buffers-score 2>/dev/null)
        a+=("$(grep '"rounds-score"' <<<"$o" | json_field warm_ns_per_row)")
        b+=("$(grep '"row-calls-score"' <<<"$o" | json_field warm_ns_per_row)")
        c+=("$(grep '"buffers-score"' <<<"$o" | json_field warm_ns_per_row)")
        [[ -n $o && $(grep -o '"0x[0-9a-f]*"' <<<"$o" | sort -u | wc -l) == 1 ]] || eq=no
      done
      local am bm cm
      am=$(printf '%s\n' "${a[@]}" | median)
      bm=$(printf '%s\n' "${b[@]}" | median)
      cm=$(printf '%s\n' "${c[@]}" | median)
      printf '%-36s %-8s %-5s %8s %10s %8s %17s %17s\n' "$(basename "$f")" "$r" "$eq" "$am" "$bm" "$cm" \
        "$(awk -v a="$am" -v b="$bm" 'BEGIN { printf "%.2fx", a / b }')" \
        "$(awk -v a="$bm" -v b="$cm" 'BEGIN { printf "%.2fx", a / b }')"
      echo "    runs rounds: ${a[*]} | row calls: ${b[*]} | buffers: ${c[*]}"
    done
  done
  echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
}

cli_steady() { # cli_steady FILE RULE: the CLI as the launcher runs it (huge pages where offered), steady ns per row
  local tss tse
  read -r _ tss tse <<<"$(cli_loss "$1" "$2" float "-Donlinekernels.handover=0" 4)"
  awk -v s="$tss" -v n="$tse" 'BEGIN { printf "%.1f", s / n * 1e9 }'
}

anon_huge_during() { # anon_huge_during CMD...: "MiB OUTPUT": the largest AnonHugePages while CMD ran, and
  # CMD's steady ns per row (its JSON's steady_ns_per_row, or what it printed)
  local out m=0 v pid
  out=$(mktemp)
  "$@" >"$out" 2>/dev/null &
  pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    v=$(awk '/^AnonHugePages/ { print int($2 / 1024) }' /proc/meminfo)
    ((v > m)) && m=$v
    sleep 0.2
  done
  wait "$pid"
  local ns
  ns=$(json_field steady_ns_per_row <"$out")
  echo "$m ${ns:-$(cat "$out")}"
  rm -f "$out"
}

case $mode in
  check) check ;;
  pages) pages ;;
  split) buffer_split ;;
  incache) incache ;;
  buffers) buffers ;;
  libm) libm ;;
  measure) measure ;;
  all) check && libm && measure ;;
  *) echo "usage: $0 [check|libm|measure|incache|buffers|split|pages|all]" >&2; exit 2 ;;
esac
