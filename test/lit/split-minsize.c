// At -Oz LLVM does not rotate loops: a marked loop's exit test stays at the
// top of its body, and the remark says why and what to do.
// RUN: %memcoro-cc -Oz -fno-memcoro-cost-model -Rpass-missed=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %memcoro-cc -Os -fno-memcoro-cost-model -Rpass=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=OS

unsigned long gather(unsigned long n, const unsigned *idx, const unsigned long *t) {
  unsigned long s = 0;
#pragma memcoro
  for (unsigned long i = 0; i < n; i++)
    s += t[idx[i]];
  return s;
}
// CHECK: split-minsize.c:[[@LINE-4]]:3: remark: marked loop left serial: the loop's exit test stays at the top of the body: -Oz (minsize) does not rotate loops, and memcoro needs the test at the end; build this code with -Os or -O2 to interleave it
// OS: split-minsize.c:[[@LINE-5]]:3: remark: loop turned into
