#!/usr/bin/env python3
"""Differential fuzzing: random marked loops, built with memcoro and with
-fno-memcoro, must print the same thing for every parallelism and trip count.

Each program is generated from a seed: a loop body of random statements
(indirect loads, dependent loads, bounded inner loops and list walks with a
remote load per step, conditionals, `continue`, integer reductions of every
kind memcoro recognises, private and commutative remote stores, and code
that must run in iteration order: appends `AP[na++] = x`, a first-writer-wins
test, `#pragma memcoro ordered` regions with order-dependent updates). One
seed in four (drawn apart, so the other seeds' programs stay as they were)
makes a search loop instead: `break` on a match, carrying a value out, and no
stores, so that memcoro interleaves it (early exits). Programs
memcoro leaves serial are compared too: the answer must be right either way.

  test/diff/fuzz.py --bin build/bin --seeds 0-199        a local campaign
  test/diff/fuzz.py --bin build/bin --seeds 0-9          what CI runs
  test/diff/fuzz.py --bin build/bin --memcoro-flags='-mllvm -memcoro-dispatch=ring'
                                                         the ring scheduler on every loop
  test/diff/fuzz.py --bin build/bin --conflicts          loops that also break the contract
With --conflicts the bodies also store into tables other iterations read or
write (indirect: only the checking build can tell) and into C[i + d] (affine:
dependence analysis proves it). Each loop must then print what the serial loop
prints, or, where it does not, its -fmemcoro-check build must report the
conflict: never a silent wrong answer.
A failing seed's program is kept (--keep DIR) for a bug report.
The tables are small, so memcoro's cost model would keep most loops serial:
the memcoro builds insist (-fno-memcoro-cost-model) unless --cost-model is
given, which fuzzes the loops as the cost model plans them (some accesses
without a suspension)."""
import argparse
import os
import random
import subprocess
import sys
import tempfile

PARALLELISMS = [1, 3, 8]
TRIPS = [0, 1, 7, 100, 1001]
MASK = 4095


class Body:
    def __init__(self, rng, conflicts=False, search=False):
        self.rng = rng
        self.search = search
        self.conflicts = conflicts
        self.lines = []
        self.vars = ["(long)i", "(long)idx[i]"]
        self.n = 0
        self.depth = 0
        self.appends = 0
        self.fww = False

    def expr(self):
        a, b = self.rng.choice(self.vars), self.rng.choice(self.vars)
        op = self.rng.choice(["+", "^", "*", "-"])
        return f"({a} {op} {b})"

    def fresh(self):
        self.n += 1
        return f"v{self.n}"

    def emit(self, text):
        self.lines.append("  " * (self.depth + 2) + text)

    def statement(self, budget):
        kinds = ["load", "load", "load", "chain", "inner", "walk", "if", "reduce", "reduce", "store", "hist",
                 "continue", "append", "fww", "ordered"]
        if self.conflicts:
            kinds += ["overwrite", "overwrite", "carried"]
        if self.search:
            # Iterations after the exiting one leave no effect: no stores.
            kinds = [k for k in kinds if k not in ("store", "hist", "append", "fww", "ordered", "overwrite",
                                                   "carried")] + ["break", "break"]
        kind = self.rng.choice(kinds)
        if kind == "load":
            v = self.fresh()
            self.emit(f"long {v} = T{self.rng.randrange(3)}[({self.expr()}) & {MASK}];")
            self.vars.append(v)
        elif kind == "chain":
            v = self.fresh()
            self.emit(f"long {v} = T0[T1[({self.expr()}) & {MASK}] & {MASK}];")
            self.vars.append(v)
        elif kind == "inner":
            v, j = self.fresh(), self.fresh()
            self.emit(f"long {v} = 0;")
            self.emit(f"for (long {j} = 0; {j} < ({self.rng.choice(self.vars)} & 3); ++{j})")
            self.emit(f"  {v} += T2[({v} + {j} * 7 + {self.rng.choice(self.vars)}) & {MASK}];")
            self.vars.append(v)
        elif kind == "walk":
            p, s, k = self.fresh(), self.fresh(), self.fresh()
            self.emit(f"long {p} = ({self.expr()}) & {MASK}, {s} = 0;")
            self.emit(f"for (int {k} = 0; {k} < 6 && NXT[{p}] >= 0; ++{k}) {{ {s} += T1[{p}]; {p} = NXT[{p}]; }}")
            self.vars.append(s)
        elif kind == "if" and budget > 1 and self.depth < 2:
            self.emit(f"if ({self.rng.choice(self.vars)} % 3 {self.rng.choice(['<', '>', '=='])} 1) {{")
            self.depth += 1
            saved = list(self.vars)
            for _ in range(self.rng.randint(1, 2)):
                self.statement(budget - 1)
            self.vars = saved  # names declared inside the block end with it
            self.depth -= 1
            self.emit("}")
        elif kind == "reduce":
            x = self.rng.choice(self.vars)
            self.emit(self.rng.choice([
                f"r_add += {x};", f"r_xor ^= {x};", f"r_or |= {x} & 0xff0;",
                f"r_min = {x} < r_min ? {x} : r_min;",
                f"r_umax = (unsigned long){x} > r_umax ? (unsigned long){x} : r_umax;",
                f"r_cnt += ({x} & 1) != 0;"]))
        elif kind == "store":
            self.emit(f"out[i] = {self.rng.choice(self.vars)};")
        elif kind == "hist":
            self.emit(f"H[({self.rng.choice(self.vars)}) & 255] += 1;")
        elif kind == "overwrite":
            # A plain store into a table the loop also reads: iterations meet
            # through memory at addresses only the run can compare.
            self.emit(f"T{self.rng.randrange(3)}[({self.expr()}) & {MASK}] = {self.rng.choice(self.vars)};")
        elif kind == "carried":
            d = self.rng.randint(1, 3)
            self.emit(self.rng.choice([f"C[i + {d}] = C[i] + {self.rng.choice(self.vars)};",
                                       f"C[i] = C[i + {d}] ^ {self.rng.choice(self.vars)};"]))
        elif kind == "append" and self.appends < 2:
            # Both appends share one counter: it runs in iteration order.
            self.appends += 1
            self.emit(f"if (({self.rng.choice(self.vars)} & 3) != 1) AP[na++] = {self.rng.choice(self.vars)};")
        elif kind == "fww" and not self.fww:
            # The only access to OWN in the loop, as memcoro requires.
            self.fww = True
            x = self.rng.choice(self.vars)
            self.emit(f"if (OWN[({x}) & 1023] < 0) OWN[({x}) & 1023] = i;")
        elif kind == "ordered":
            x = self.rng.choice(self.vars)
            self.emit("#pragma memcoro ordered")
            self.emit(f"G[({x}) & 63] = G[({x}) & 63] * 31 + {self.rng.choice(self.vars)};")
        elif kind == "break":
            self.emit(f"if (({self.rng.choice(self.vars)} & 255) == 7) {{ r_brk = {self.rng.choice(self.vars)}; "
                      "break; }")
        elif kind == "continue" and self.depth == 0:
            self.emit(f"if (({self.rng.choice(self.vars)} & 15) == 3) continue;")


def program(seed, conflicts=False):
    rng = random.Random(seed)
    search = random.Random(seed ^ 0x5EA4C4).random() < 0.25
    body = Body(rng, conflicts, search)
    for _ in range(rng.randint(2, 6)):
        body.statement(3)
    if search:
        body.emit(f"if (({body.rng.choice(body.vars)} & 63) == 9) {{ r_brk = -2 - i; break; }}")
        body.emit(f"r_add += {body.rng.choice(body.vars)};")
    else:
        body.emit(f"out[i] ^= {body.rng.choice(body.vars)};")
    stmts = "\n".join(body.lines)
    return f"""// fuzz seed {seed}
#include <stdio.h>
#include <stdlib.h>
static long T0[{MASK + 1}], T1[{MASK + 1}], T2[{MASK + 1}], NXT[{MASK + 1}], H[256], G[64], OWN[1024];
int main(int argc, char **argv) {{
  int n = atoi(argv[1]);
  unsigned long x = {seed} * 2654435761ul + 1;
  for (int k = 0; k <= {MASK}; ++k) {{
    x ^= x << 13; x ^= x >> 7; x ^= x << 17; T0[k] = (long)(x % 100003) - 50000;
    x ^= x << 13; x ^= x >> 7; x ^= x << 17; T1[k] = (long)(x % 1000);
    x ^= x << 13; x ^= x >> 7; x ^= x << 17; T2[k] = (long)x;
    x ^= x << 13; x ^= x >> 7; x ^= x << 17; NXT[k] = x % 5 == 0 ? -1 : (long)(x % {MASK + 1});
  }}
  int *idx = calloc(n + 1, sizeof *idx);
  long *out = calloc(n + 1, sizeof *out);
  long *C = calloc(n + 4, sizeof *C);
  long *AP = calloc(2 * n + 1, sizeof *AP);
  long na = 0;
  for (int k = 0; k < 1024; ++k) OWN[k] = -1;
  for (int k = 0; k < n; ++k) {{ x ^= x << 13; x ^= x >> 7; x ^= x << 17; idx[k] = (int)(x % {MASK + 1}); }}
  long r_add = 0, r_xor = 0, r_or = 0, r_min = 1L << 62, r_cnt = 0, r_brk = -1;
  unsigned long r_umax = 0;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {{
{stmts}
  }}
  unsigned long h = 1469598103934665603ul;
  for (int k = 0; k < n; ++k) h = (h ^ (unsigned long)out[k]) * 1099511628211ul;
  for (int k = 0; k < 256; ++k) h = (h ^ (unsigned long)H[k]) * 1099511628211ul;
  for (int k = 0; k < n + 4; ++k) h = (h ^ (unsigned long)C[k]) * 1099511628211ul;
  for (int k = 0; k <= {MASK}; ++k) h = (h ^ (unsigned long)(T0[k] + 3 * T1[k] + 7 * T2[k])) * 1099511628211ul;
  for (long k = 0; k < na; ++k) h = (h ^ (unsigned long)AP[k]) * 1099511628211ul;
  for (int k = 0; k < 64; ++k) h = (h ^ (unsigned long)G[k]) * 1099511628211ul;
  for (int k = 0; k < 1024; ++k) h = (h ^ (unsigned long)OWN[k]) * 1099511628211ul;
  printf("%ld %ld %ld %ld %ld %lu %ld %ld %lx\\n", r_add, r_xor, r_or, r_min, r_cnt, r_umax, na, r_brk, h);
  return 0;
}}
"""


def seeds(spec):
    lo, _, hi = spec.partition("-")
    return range(int(lo), int(hi or lo) + 1)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", required=True, help="directory holding memcoro-cc")
    ap.add_argument("--seeds", default="0-9", help="seed range, e.g. 0-199")
    ap.add_argument("--keep", help="directory to copy failing programs into")
    ap.add_argument("--conflicts", action="store_true",
                    help="also generate loops whose iterations conflict through memory")
    ap.add_argument("--cost-model", action="store_true",
                    help="let the cost model decide, instead of a suspension at every remote access")
    ap.add_argument("--memcoro-flags", default="",
                    help="extra flags for the memcoro build, e.g. '-mllvm -memcoro-dispatch=ring'")
    args = ap.parse_args()
    cc = os.path.join(args.bin, "memcoro-cc")
    failures, transformed, total, reported = [], 0, 0, 0
    with tempfile.TemporaryDirectory() as tmp:
        for seed in seeds(args.seeds):
            failures_before = len(failures)
            src = os.path.join(tmp, f"fuzz{seed}.c")
            with open(src, "w") as f:
                f.write(program(seed, args.conflicts))
            for n in PARALLELISMS:
                exes = []
                modes = ["-fno-memcoro", "-fmemcoro"] + (["-fmemcoro-check"] if args.conflicts else [])
                for mode in modes:
                    exe = os.path.join(tmp, f"fuzz{seed}-{n}{mode}")
                    extra = args.memcoro_flags.split() if mode != "-fno-memcoro" else []
                    if mode != "-fno-memcoro" and not args.cost_model:
                        extra.append("-fno-memcoro-cost-model")
                    r = subprocess.run([cc, mode, "-O2", f"-DN={n}", "-Rpass=memcoro", *extra, src, "-o", exe],
                                       capture_output=True, text=True)
                    if r.returncode != 0:
                        failures.append(f"seed {seed} N={n} {mode}: compile failed\n{r.stderr[-2000:]}")
                        break
                    if mode == "-fmemcoro" and "turned into" in r.stderr:
                        transformed += 1
                    exes.append(exe)
                if len(exes) != len(modes):
                    continue
                total += 1
                for trips in TRIPS:
                    outs = [subprocess.run([e, str(trips)], capture_output=True, text=True, timeout=60)
                            for e in exes[:2]]
                    same = not outs[0].returncode and not outs[1].returncode and outs[0].stdout == outs[1].stdout
                    if same:
                        continue
                    if args.conflicts and not outs[0].returncode:
                        # A different answer is allowed only where the
                        # checking build reports the conflict behind it.
                        check = subprocess.run([exes[2], str(trips)], capture_output=True, text=True, timeout=600)
                        if check.returncode == 66 and "memcoro-check: loop at" in check.stderr:
                            reported += 1
                            continue
                    failures.append(f"seed {seed} N={n} trips={trips}: serial {outs[0].stdout.strip()!r} "
                                    f"(exit {outs[0].returncode}), memcoro {outs[1].stdout.strip()!r} "
                                    f"(exit {outs[1].returncode})"
                                    + (", and -fmemcoro-check reported nothing" if args.conflicts else ""))
                    break
            failed = len(failures) > failures_before
            if failed and args.keep:
                os.makedirs(args.keep, exist_ok=True)
                subprocess.run(["cp", src, args.keep])
            print(f"seed {seed}: {'FAIL' if failed else 'ok'}", flush=True)
    print(f"{total} builds compared, {transformed} of them transformed by memcoro"
          + (f"; {reported} different answers, each reported by -fmemcoro-check" if args.conflicts else ""))
    if failures:
        print("\n".join(failures))
        print(f"FAIL: {len(failures)} differences")
        sys.exit(1)
    print("PASS: every fuzzed loop printed what the serial loop printed"
          + (", or its conflict was reported by -fmemcoro-check" if args.conflicts else ""))


if __name__ == "__main__":
    main()
