#!/usr/bin/env bash
# Issue 39 item 2: --threads 1 against 2 (and auto) over job sizes, whole training seconds from the
# JSON, runs alternated; the figures behind the --threads auto rule (docs/parallel, "auto").
# usage: shortjobs.sh [REPS] [RULES] [THREADS]   (default 3, "scinol2 adagrad", "1 2")
set -u
REPS=${1:-3}
RULES=${2:-"scinol2 adagrad"}
THREADS=${3:-"1 2"}
WT=${WT:-$(cd "$(dirname "$0")/../../.." && pwd)}
HERE=$(cd "$(dirname "$0")" && pwd)
RUN=${RUN:-$WT/target/threads}   # data files, the probe and each series' folder
mkdir -p "$RUN"
[[ -x $RUN/probe ]] || gcc -O2 -pthread -o "$RUN/probe" "$HERE/probe.c"
OUT=$RUN/shortjobs-$(date -u +%H%M%S)
mkdir -p "$OUT"
echo "# $(date -u) $(uptime); commit $(git -C "$WT" rev-parse --short HEAD)" | tee "$OUT/log"
"$WT/bin/online-kernels" train --help >/dev/null 2>&1
# rows:epochs
JOBS=${JOBS:-"1000:1 1000:10 10000:1 10000:5 50000:1 50000:2 50000:5 200000:1 200000:2 200000:3 200000:5 200000:10"}
for rule in $RULES; do
  for job in $JOBS; do
    rows=${job%%:*}
    ep=${job##*:}
    for ((i = 1; i <= REPS; i++)); do
      for t in $THREADS; do
        s=$("$WT/bin/online-kernels" train --data "$RUN/zipf_20_40-$rows.svm" --algorithm "$rule" \
          --no-shuffle --threads "$t" --epochs "$ep" --json --shuffle-buffer 200000 |
          python3 -c "import json,sys;j=json.load(sys.stdin);print(j['seconds'], j['threads'], j.get('threads_reason',''))")
        echo "$rule $rows $ep $t $i $s" | tee -a "$OUT/rows"
      done
    done
  done
done
python3 - "$OUT/rows" <<'EOF' | tee -a "$OUT/log"
import sys, statistics as st
rows = [l.split() for l in open(sys.argv[1])]
keys = dict.fromkeys((r[0], r[1], r[2]) for r in rows)
for k in keys:
    one = [float(r[5]) for r in rows if tuple(r[:3]) == k and r[3] == "1"]
    out = "%s rows=%s epochs=%s nnz-visits=%.1fM: T=1 %.3f s" % (k[0], k[1], k[2], int(k[1]) * int(k[2]) * 40 / 1e6, st.median(one))
    for t in dict.fromkeys(r[3] for r in rows if tuple(r[:3]) == k and r[3] != "1"):
        tt = [float(r[5]) for r in rows if tuple(r[:3]) == k and r[3] == t]
        ratios = sorted(a / b for a, b in zip(one, tt))
        out += "; T=%s %.3f s, ratio median %.2f (%.2f-%.2f)" % (t, st.median(tt), st.median(ratios), ratios[0], ratios[-1])
    print(out)
EOF
echo "# $(date -u) $(uptime)" | tee -a "$OUT/log"
