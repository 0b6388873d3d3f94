#!/usr/bin/env bash
# The issue-39 series: N alternating runs of --threads 1 and 2 (ScInOL2 and AdaGrad, shared state),
# each printing wall, whole and steady seconds, the ratio to the 1-thread run before it, and the
# thread report (per worker CPU/wall, blocks, waits; other threads' CPU), with perf stat's context
# switches and CPU migrations. A summary line per configuration: median and spread.
#
# usage: series.sh [N] [EPOCHS] [MODE] [RULES]
#   N       pairs of runs (default 10)
#   EPOCHS  epochs (default 10)
#   MODE    mem (--shuffle-buffer 200000: the rows held in memory, as on 2026-11-28) or
#           stream (the default buffer: the 200,000 rows are streamed), default mem
#   RULES   default "scinol2 adagrad"
# env: WT (the checkout whose bin/online-kernels runs; default this one), DATA (default the 200,000-row Zipf file here),
#      THREADS (default "1 2"), EXTRA (more train options), PROBE (the machine probe run before each
#      run; default "probe 2 60000000", the spinning threads; "cores 0.5": lab/scripts/threads/cores.c,
#      register-only, private-array and shared-array speedups, printed as REG/PRIV/SHARED)
set -u
N=${1:-10}
EPOCHS=${2:-10}
MODE=${3:-mem}
RULES=${4:-"scinol2 adagrad"}
WT=${WT:-$(cd "$(dirname "$0")/../../.." && pwd)}
HERE=$(cd "$(dirname "$0")" && pwd)
RUN=${RUN:-$WT/target/threads}   # data files, the probe and each series' folder
mkdir -p "$RUN"
[[ -x $RUN/probe ]] || gcc -O2 -pthread -o "$RUN/probe" "$HERE/probe.c"
[[ -x $RUN/cores ]] || gcc -O2 -march=native -pthread -o "$RUN/cores" "$HERE/cores.c"
PROBE=${PROBE:-probe 2 60000000}
DATA=${DATA:-$RUN/zipf_20_40-200000.svm}
THREADS=${THREADS:-"1 2"}
EXTRA=${EXTRA:-}
[[ -f $DATA ]] || { echo "no $DATA: write it from the checkout: mvn -B -q -Plab -pl lab -am compile exec:exec@zipf-file -Dlab.args=\"$DATA 200000\"" >&2; exit 2; }
buf=""
[[ $MODE == mem ]] && buf="--shuffle-buffer 200000"
OUT=$RUN/series-$(date -u +%H%M%S)-$MODE
mkdir -p "$OUT"
echo "# $(date -u) $(uptime)" | tee "$OUT/log"
echo "# $(lscpu | grep 'Model name' | sed 's/  */ /g'); avx512f: $(grep -c avx512f /proc/cpuinfo) cpus; commit $(git -C "$WT" rev-parse --short HEAD)" | tee -a "$OUT/log"
echo "# N=$N epochs=$EPOCHS mode=$MODE rules=$RULES threads=$THREADS extra=$EXTRA" | tee -a "$OUT/log"
"$WT/bin/online-kernels" train --help >/dev/null 2>&1 # builds the jars if needed, outside the timing
printf '%-8s %-3s %-3s %7s %7s %7s %6s %6s %6s  %s\n' rule T run wall whole steady ratioW ratioS ctxsw "per thread: cpu/wall blocks wait | other cpu; migrations" | tee -a "$OUT/log"
for rule in $RULES; do
  declare -A last=()
  for ((i = 1; i <= N; i++)); do
    for t in $THREADS; do
      f=$OUT/$rule-t$t-$i
      # The machine now: two independent spinning threads against one (no shared memory).
      "$RUN/"$PROBE >"$f.probe"
      start=$(date +%s.%N)
      ONLINE_KERNELS_JAVA_OPTS="-Xlog:gc:file=$f.gc ${JOPTS:-}" \
        perf stat -x, -e context-switches,cpu-migrations -o "$f.perf" \
        "$WT/bin/online-kernels" train --data "$DATA" --algorithm "$rule" --no-shuffle \
        --threads "$t" --epochs "$EPOCHS" --json $buf $EXTRA >"$f.json" 2>"$f.err"
      end=$(date +%s.%N)
      python3 - "$f" "$rule" "$t" "$i" "$start" "$end" "${last[$rule]:-}" >>"$OUT/rows" <<'EOF'
import json, sys
f, rule, t, i, start, end, base = sys.argv[1:]
j = json.load(open(f + ".json"))
perf = {}
for l in open(f + ".perf"):
    p = l.strip().split(",")
    if len(p) > 2 and p[0].replace(".", "").isdigit():
        perf[p[2]] = p[0]
wall = float(end) - float(start)
whole = j["seconds"]
# Steady: seconds per million examples of the steady span (one thread and the in-memory parallel
# trainer: the second half; a streamed parallel run: all its fits), so runs compare.
steady = j["steady_seconds"] / j["steady_examples"] * 1e6 if j["steady_examples"] else float("nan")
rw = rs = float("nan")
if base:
    bw, bs = map(float, base.split(":"))
    rw, rs = bw / whole, bs / steady
tr = j.get("thread_report")
per = ""
if tr:
    per = " ".join("%.2f/%.2f %d %.2f" % (w["cpu_seconds"], w["wall_seconds"], w["blocks"], w["wait_seconds"]) for w in tr["workers"])
    per += " | %.2f" % tr["other_cpu_seconds"]
    hs = [w["handed_over_at"] for w in tr["workers"] if w["handed_over_at"] is not None]
    per += " h@%d" % min(hs) if hs else " h-"
    per += " alone %.2f" % sum(w["alone_seconds"] for w in tr["workers"])
per += "; %s" % perf.get("cpu-migrations", "?")
try:
    per += "; probe %s" % open(f + ".probe").read().split("speedup=")[1].strip()
except Exception:
    per += "; probe ?"
try:
    per += "; gc %d" % sum(1 for l in open(f + ".gc") if "Pause" in l)
except Exception:
    pass
print("%-8s %-3s %-3s %7.3f %7.3f %7.3f %6.2f %6.2f %6s  %s" % (rule, t, i, wall, whole, steady, rw, rs, perf.get("context-switches", "?"), per))
EOF
      tail -1 "$OUT/rows" | tee -a "$OUT/log"
      if [[ $t == 1 ]]; then
        last[$rule]=$(python3 -c "import json;j=json.load(open('$f.json'));print('%s:%s'%(j['seconds'],j['steady_seconds']/j['steady_examples']*1e6))")
      fi
    done
  done
done
python3 - "$OUT/rows" <<'EOF' | tee -a "$OUT/log"
import sys, statistics as st
rows = [l.split() for l in open(sys.argv[1])]
def q(v):
    v = sorted(x for x in v if x == x)
    return "median %.3f (%.3f-%.3f)" % (st.median(v), v[0], v[-1]) if v else "-"
for rule in dict.fromkeys(r[0] for r in rows):
    for t in dict.fromkeys(r[1] for r in rows if r[0] == rule):
        rs = [r for r in rows if r[0] == rule and r[1] == t]
        line = "%s T=%s n=%d: whole %s, steady s/1M %s" % (rule, t, len(rs), q([float(r[4]) for r in rs]), q([float(r[5]) for r in rs]))
        if t != "1":
            rw = [float(r[6]) for r in rs]
            rsr = [float(r[7]) for r in rs]
            line += "; ratio whole %s, steady %s; whole >= 1.7x in %d of %d" % (q(rw), q(rsr), sum(x >= 1.7 for x in rw), len(rw))
        print(line)
EOF
echo "# $(date -u) $(uptime)" | tee -a "$OUT/log"
