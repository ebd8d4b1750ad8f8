#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Real programs, one pragma line each: built with memcoro and with -fno-memcoro,
run, verified by their own verifiers, and compared.

Each program in this folder is written the way the code it stands for is
written (HPCC RandomAccess, a no-partitioning hash join probe and build, NPB
IS and CG, GAP's BFS (top-down, and direction-optimizing), PageRank, Afforest connected components, triangle
counting and betweenness centrality, Bellman-Ford and delta-stepping SSSP, B+-tree,
binary-search-tree, skip list, Bloom filter and LSM sorted-run lookup batches,
k-mer counting, XSBench cross-section lookups, Graph500 CSR construction,
Shiloach-Vishkin connected components, a memcached multi-key GET, an OpenMP
COO SpMV, XGBoost-style tree ensemble prediction, Caffe2's SparseLengthsSum
and PyTorch's EmbeddingBag, a Redis MGET over a dictionary in incremental rehash, DBx1000's
read-only YCSB transactions, the Graph500 reference BFS with its visited
bitmap, LDBC Graphalytics label propagation, Ligra's BFS edgeMap, PKC k-core
peeling, a string dictionary lookup batch over std::unordered_map<std::string,
uint32_t>, a radix join's partitioning pass, a GROUP BY hash aggregation, a
bitmap-filtered semijoin, adaptive radix tree lookups, asynchronous
union-find, HyperLogLog distinct counts per group), with one
`#pragma memcoro` line on its hot loop and no other edit.
For each: what memcoro did with the marked loop (its remark), whether both
builds pass the program's own verification, and the memcoro build's speed over
the serial build (kernel time as the program reports it; best of --runs runs,
the two builds alternating).

  bench/programs/run.py                 default sizes (about 12 minutes)
  bench/programs/run.py --quick         tiny sizes: verification and remarks only (CI)
  bench/programs/run.py --programs hashjoin,intsort --runs 5
  bench/programs/run.py --programs pr --args 23   another size
  bench/programs/run.py --cpu-time      kernels timed in CPU time (a shared machine)
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# program: (sources, arguments at the default size, arguments for --quick)
PROGRAMS = {
    "randomaccess": ("randomaccess.c", ["25"], ["14"]),
    "hashjoin": ("hashjoin.c", ["16777216"], ["20000"]),
    "intsort": ("intsort.c", ["B"], ["S"]),
    "bfs": ("bfs.cpp", ["21", "4"], ["12", "2"]),
    "dobfs": ("bfs.cpp", ["21", "4", "do"], ["12", "2", "do"]),
    "pr": ("pr.cpp", ["21"], ["12"]),
    "cc": ("cc.cpp", ["23", "2"], ["12", "2"]),
    "cg": ("cg.c", ["4194304", "2", "1"], ["3000", "3", "2"]),
    "btree": ("btree.c", ["16777216", "1048576"], ["20000", "50000"]),
    "bst": ("bst.cpp", ["4194304", "1048576"], ["20000", "50000"]),
    "hashbuild": ("hashbuild.c", ["8388608"], ["20000"]),
    "kmer": ("kmer.c", ["25", "131072"], ["16", "2000"]),
    "skiplist": ("skiplist.c", ["2097152", "524288"], ["20000", "50000"]),
    "sssp": ("sssp.cpp", ["22", "2"], ["12", "4"]),
    "deltastep": ("deltastep.cpp", ["22", "4"], ["12", "2"]),
    "tc": ("tc.cpp", ["20", "8", "2"], ["11", "4", "1"]),
    "bc": ("bc.cpp", ["20", "4"], ["11", "2"]),
    "bloom": ("bloom.c", ["33554432", "4194304"], ["20000", "50000"]),
    "lsm": ("lsm.c", ["23", "1048576"], ["14", "50000"]),
    "xsbench": ("xsbench.c", ["11303", "1000000"], ["200", "20000"]),
    "csr": ("csr.c", ["22", "4"], ["14", "4"]),
    "ccsv": ("ccsv.cpp", ["23", "2"], ["12", "2"]),
    "kvget": ("kvget.c kvget_assoc.c", ["4194304", "20000", "100"], ["20000", "200", "50"]),
    "spmv": ("spmv.c", ["8388608", "3", "2"], ["20000", "3", "2"]),
    "gbdt": ("gbdt.cpp", ["2048", "192", "14"], ["200", "8", "8"]),
    "embbag": ("embbag.c", ["524288", "2048", "16"], ["4096", "64", "2"]),
    "embbag_offsets": ("embbag_offsets.cpp", ["524288", "2048", "16"], ["4096", "64", "2"]),
    "dictget": ("dictget.c dictget_dict.c", ["1048576", "8000", "100"], ["20000", "50", "100"]),
    "ycsb": ("ycsb.cpp", ["262144", "131072"], ["20000", "2000"]),
    "g500bfs": ("g500bfs.c", ["22", "4", "2"], ["12", "8", "2"]),
    "cdlp": ("cdlp.cpp", ["22", "2"], ["12", "2"]),
    "ligra": ("ligra.cpp", ["22", "4"], ["12", "2"]),
    "kcore": ("kcore.c", ["23", "4"], ["12", "4"]),
    "strdict": ("strdict.cpp", ["2097152", "2097152"], ["20000", "50000"]),
    "radixpart": ("radixpart.c", ["16777216", "14"], ["20000", "8"]),
    "groupby": ("groupby.cpp", ["8388608", "2097152"], ["20000", "5000"]),
    "semijoin": ("semijoin.c", ["30", "2097152", "8388608"], ["20", "20000", "50000"]),
    "art": ("art.c", ["4194304", "2097152"], ["20000", "50000"]),
    "unionfind": ("unionfind.c", ["24", "1"], ["14", "1"]),
    "hll": ("hll.c", ["524288", "8388608"], ["1000", "50000"]),
}
# Programs whose printed answer, besides what their verifier checks, may
# differ between two correct runs: each iteration's update (a CAS minimum,
# a hook whose races the program allows) lands in whatever order the
# iterations run, so the result a round reaches, and the number of rounds,
# depend on it. Their outputs are shown, not compared.
ORDER_DEPENDENT = {
    "sssp": "Bellman-Ford's rounds: a distance lowered earlier in a round propagates further in it",
    "ccsv": "Shiloach-Vishkin's rounds: a root hooked earlier in a round lets later edges of it hook further",
}
REMARK = re.compile(r"^(?P<file>[^:\s]+):(?P<line>\d+):\d+: remark: (?P<text>.*?) \[-Rpass(?P<kind>-missed)?=memcoro\]$")


def build(driver, src, out, flags):
    sources = [os.path.join(HERE, s) for s in src.split()]
    cmd = [driver, "-O3", *flags, "-Rpass=memcoro", "-Rpass-missed=memcoro", *sources, "-o", out]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"error: building {src} failed:\n{proc.stderr}")
    outcomes = []
    for line in proc.stderr.splitlines():
        m = REMARK.match(line.strip())
        if not m or "loop marked for coroutine interleaving" in m["text"]:
            continue
        # What became of a marked loop (a remark about a callee is not one). A
        # loop the contract keeps in serial order (stores before an early
        # exit) that memcoro prefetches ahead is transformed too.
        text = m["text"]
        prefetched = "kept in serial order with prefetches ahead" in text
        if text.startswith("marked loop") or "interleaved coroutines" in text or "prefetching loop" in text:
            outcomes.append((f"{os.path.basename(m['file'])}:{m['line']}", text, not m["kind"] or prefetched))
    return outcomes


def run(binary, args, env=None):
    proc = subprocess.run([binary, *args], capture_output=True, text=True, env=env)
    seconds = re.search(r"kernel_seconds ([0-9.]+)", proc.stdout)
    # A sanitizer that recovers (UBSan's default) reports on stderr and exits 0.
    sanitizer = re.search(r"runtime error:|ERROR: \w+Sanitizer", proc.stderr)
    verified = proc.returncode == 0 and "verified" in proc.stdout.splitlines() and not sanitizer
    if not verified:
        print(f"   {os.path.basename(binary)}: exit {proc.returncode}\n{proc.stdout[-1000:]}{proc.stderr[-3000:]}",
              flush=True)
    # What the program printed besides its time: the two builds must agree.
    answer = [line for line in proc.stdout.splitlines() if not line.startswith("kernel_seconds")]
    return (float(seconds.group(1)) if seconds else None), verified, answer


# The programs time their kernels with CLOCK_MONOTONIC (clock_gettime, or
# std::chrono::steady_clock through it); preloaded, this reads the process's
# CPU time instead.
CPU_TIME_SHIM = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <time.h>
int clock_gettime(clockid_t id, struct timespec *ts) {
  static int (*real)(clockid_t, struct timespec *);
  if (!real)
    real = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
  return real(id == CLOCK_MONOTONIC ? CLOCK_PROCESS_CPUTIME_ID : id, ts);
}
"""


def cpu_time_shim(tmp):
    src, lib = os.path.join(tmp, "cputime.c"), os.path.join(tmp, "cputime.so")
    with open(src, "w") as f:
        f.write(CPU_TIME_SHIM)
    subprocess.run(["cc", "-O2", "-shared", "-fPIC", src, "-o", lib, "-ldl"], check=True)
    return lib


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    ap.add_argument("--programs", help="comma-separated subset of " + ",".join(PROGRAMS))
    ap.add_argument("--runs", type=int, default=3, help="runs of each build; the best is kept (default 3)")
    ap.add_argument("--quick", action="store_true", help="tiny sizes, one run: verification and remarks only")
    ap.add_argument("--flags", default="", help="extra compiler flags for both builds (e.g. -fopenmp)")
    ap.add_argument("--threads", type=int,
                    help="OMP_NUM_THREADS for the runs (the OpenMP programs' marked loops then run in that many "
                         "threads at once; with --flags=-fopenmp)")
    ap.add_argument("--args", help="the program's arguments instead of its default size (one program), "
                    "e.g. --programs pr --args 23")
    ap.add_argument("--require-transformed", action="store_true",
                    help="fail when a marked loop stays serial")
    ap.add_argument("--cpu-time", action="store_true",
                    help="time the kernels in process CPU time instead of wall-clock time (a shared machine: "
                         "a program waiting for a CPU is not slower); single-threaded runs only")
    args = ap.parse_args()
    names = args.programs.split(",") if args.programs else list(PROGRAMS)
    if args.args is not None and len(names) != 1:
        sys.exit("error: --args needs exactly one program in --programs")
    unknown = [n for n in names if n not in PROGRAMS]
    if unknown:
        sys.exit(f"error: unknown program(s) {', '.join(unknown)}; known: {', '.join(PROGRAMS)}")
    bindir = os.path.join(os.path.abspath(args.build_dir), "bin")
    runs = 1 if args.quick else args.runs
    env = dict(os.environ, OMP_NUM_THREADS=str(args.threads)) if args.threads else None
    rows, failed = [], False
    with tempfile.TemporaryDirectory(prefix="memcoro-programs-") as tmp:
        if args.cpu_time:
            env = dict(env or os.environ, LD_PRELOAD=cpu_time_shim(tmp))
        for name in names:
            src, default_args, quick_args = PROGRAMS[name]
            driver = os.path.join(bindir, "memcoro-c++" if src.endswith(".cpp") else "memcoro-cc")
            extra = args.flags.split()
            print(f"== {name}: building", flush=True)
            outcomes = build(driver, src, os.path.join(tmp, name), extra)
            build(driver, src, os.path.join(tmp, name + ".serial"), ["-fno-memcoro", *extra])
            run_args = args.args.split() if args.args is not None else quick_args if args.quick else default_args
            best = {"memcoro": None, "serial": None}
            verified = True
            answers = set()
            for r in range(runs):
                for variant, binary in (("serial", name + ".serial"), ("memcoro", name)):
                    print(f"== {name}: run {r + 1}/{runs}, {variant} {' '.join(run_args)}", flush=True)
                    seconds, ok, answer = run(os.path.join(tmp, binary), run_args, env)
                    verified = verified and ok
                    answers.add(tuple(answer))
                    if seconds is not None and (best[variant] is None or seconds < best[variant]):
                        best[variant] = seconds
            if len(answers) > 1:
                print(f"   {name}: the builds printed different answers: {sorted(answers)}", flush=True)
                if name in ORDER_DEPENDENT:
                    print(f"   {name}: allowed, as its answer depends on the order of atomic updates "
                          f"({ORDER_DEPENDENT[name]})", flush=True)
                else:
                    verified = False
            transformed = bool(outcomes) and all(t for _, _, t in outcomes)
            if not verified or (args.require_transformed and not transformed):
                failed = True
            speed = best["serial"] / best["memcoro"] if best["serial"] and best["memcoro"] else None
            for where, text, _ in outcomes or [(src, "no remark: the pragma was not seen", False)]:
                rows.append((name, where, text, verified, speed))
    print()
    print("| program | loop | what memcoro did | verified | memcoro / serial |")
    print("|---|---|---|---|---|")
    for name, where, text, verified, speed in rows:
        shown = "—" if args.quick or speed is None else f"{speed:.2f}x"
        print(f"| {name} | {where} | {text} | {'yes' if verified else 'NO'} | {shown} |")
    if not args.quick:
        print("\n'memcoro / serial': the serial build's kernel time over the memcoro build's (best of "
              f"{runs} runs each, alternating{', process CPU time' if args.cpu_time else ''}); above 1 means "
              "memcoro is faster.")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
