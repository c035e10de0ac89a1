#!/usr/bin/env bash
# bench/gobench.sh — the Go benchmarks of issue 5 (go test -bench, -benchmem), then CPU and
# memory profiles of the cases that miss their targets.
#
#   bash bench/gobench.sh [OUTDIR]               # build the test binaries, run, profile
#   bash bench/gobench.sh --build-only OUTDIR    # only build OUTDIR/bin/*.test (a snapshot of the tree)
#   QUICK=1 bash bench/gobench.sh                # every benchmark once (-benchtime 1x)
#   BENCH='PlanFirstSync' bash bench/gobench.sh  # a -bench filter (PROFILES=0 skips the profiles)
#
# Test binaries already in OUTDIR/bin are reused, so that bench/run.sh can build them at the
# same moment as the repo binary it times (other people edit the tree meanwhile).
# Writes OUTDIR/gobench.txt (benchmark output) and OUTDIR/profiles.txt (go tool pprof -top of
# each profiled case, cut to the timed work with -focus=writers_test.timed). The profiles stay
# in OUTDIR (<case>.cpu, <case>.mem; binary OUTDIR/bin/writers.test) for further `go tool pprof`.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
MAIN=$(dirname "$HERE")
BUILD_ONLY=0
if [ "${1:-}" = --build-only ]; then BUILD_ONLY=1; shift; fi
OUTDIR=${1:-$(mktemp -d /tmp/repo-gobench.XXXXXX)}
mkdir -p "$OUTDIR/bin"
BENCH=${BENCH:-.}
PROFILES=${PROFILES:-1}
PKGS=(extensions translator internal/jsonedit internal/tomledit internal/yamledit writers)
# the Codex benchmarks' sizes (BenchmarkPlanCodex, tomledit's BenchmarkBatch) and the other editors'
# (BenchmarkBatch in jsonedit and yamledit): 1,000, 2,000 and 10,000 servers
[ "${QUICK:-0}" = 1 ] && export REPO_BENCH_CODEX_SIZES=${REPO_BENCH_CODEX_SIZES:-100,200,1000}
[ "${QUICK:-0}" = 1 ] && export REPO_BENCH_EDITOR_SIZES=${REPO_BENCH_EDITOR_SIZES:-100,200,1000}
cd "$MAIN"
PKGS+=(cmd toolprofiles) # the start-up benchmarks (issue 21): BenchmarkRootCmd, BenchmarkExpansionMatch

for pkg in "${PKGS[@]}"; do
	bin=$OUTDIR/bin/${pkg//\//-}.test
	[ -x "$bin" ] || go test -c -o "$bin" "./$pkg"
done
[ "$BUILD_ONLY" = 1 ] && exit 0

ARGS=(-test.run '^$' -test.bench "$BENCH" -test.benchmem -test.timeout 60m)
[ "${QUICK:-0}" = 1 ] && ARGS+=(-test.benchtime 1x)
: >"$OUTDIR/gobench.txt"
for pkg in "${PKGS[@]}"; do
	bin=$OUTDIR/bin/${pkg//\//-}.test
	echo "# ($pkg) go test -bench $BENCH -benchmem$([ "${QUICK:-0}" = 1 ] && echo ' -benchtime 1x')" | tee -a "$OUTDIR/gobench.txt" >&2
	(cd "$pkg" && "$bin" "${ARGS[@]}") 2>&1 | tee -a "$OUTDIR/gobench.txt" >&2
done

[ "$PROFILES" = 1 ] || exit 0
# case name, -bench regexp (writers package; the timed work runs inside writers_test.timed)
CASES=(
	"local-plan-100MB-n5 ^BenchmarkLocalClaude$/^plan$/^100MB$/^n=5$"
	"local-noop-100MB-n5 ^BenchmarkLocalClaude$/^noop$/^100MB$/^n=5$"
	"first-sync-plan-n300 ^BenchmarkPlanFirstSync$/^n=300$"
	"noop-check-n300 ^BenchmarkNoopCheck$/^n=300$"
	"update-all-n300 ^BenchmarkPlanChangeAll$/^update$/^n=300$"
	"check-example ^BenchmarkCheckExample$/^all$"
)
WT=$OUTDIR/bin/writers.test
: >"$OUTDIR/profiles.txt"
for c in "${CASES[@]}"; do
	name=${c%% *}; re=${c#* }
	echo "# profiling $name ($re)" >&2
	bt=3x
	case $name in check-example) bt=2s ;; update-all-*) bt=1x ;; esac
	[ "${QUICK:-0}" = 1 ] && bt=1x
	line=$(cd writers && "$WT" -test.run '^$' -test.bench "$re" -test.benchmem -test.benchtime "$bt" \
		-test.cpuprofile "$OUTDIR/$name.cpu" -test.memprofile "$OUTDIR/$name.mem" -test.memprofilerate 65536 |
		grep -E '^Benchmark' | tail -1)
	echo "$line" >&2
	{
		echo "## $name"
		echo
		echo "$line"
		echo
		echo "### CPU, by cumulative time (timed work only)"
		go tool pprof -top -cum -nodecount=32 -focus='writers_test\.timed' -relative_percentages "$WT" "$OUTDIR/$name.cpu" 2>/dev/null | sed -n '/flat%/,$p'
		echo
		echo "### CPU, by own time"
		go tool pprof -top -nodecount=15 -focus='writers_test\.timed' -relative_percentages "$WT" "$OUTDIR/$name.cpu" 2>/dev/null | sed -n '/flat%/,$p'
		echo
		echo "### Allocated bytes (timed work only; every profiled iteration)"
		go tool pprof -sample_index=alloc_space -top -nodecount=12 -focus='writers_test\.timed' -relative_percentages "$WT" "$OUTDIR/$name.mem" 2>/dev/null | sed -n '/flat%/,$p'
		echo
	} >>"$OUTDIR/profiles.txt"
done
echo "# results in $OUTDIR/gobench.txt, profiles in $OUTDIR/profiles.txt" >&2
