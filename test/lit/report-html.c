// memcoro-report --html writes a page listing each marked loop, linked to its lines in a listing of the source, where the pragma's line carries the outcome.
// RUN: rm -rf %t && mkdir -p %t
// RUN: cp %s %t/loops.c
// RUN: cd %t && %memcoro-cc -O2 -fsave-optimization-record -foptimization-record-passes=memcoro -c loops.c -o loops.o
// RUN: cd %t && memcoro-report --html %t/report.html loops.opt.yaml | %FileCheck %s --check-prefix=TEXT
// RUN: %FileCheck %s < %t/report.html
#include <stddef.h>
#include <stdint.h>

// TEXT: loops.c:[[# @LINE + 11]]: transformed
// CHECK: <table class='loops'>
// CHECK-NEXT: <tr><td><a href='#f0-L[[# @LINE + 9]]'>loops.c:[[# @LINE + 9]]</a></td><td class='transformed'>transformed, parallel(8),
// CHECK-NEXT: <tr><td><a href='#f0-L[[# @LINE + 17]]'>loops.c:[[# @LINE + 17]]</a></td><td class='serial'>serial, parallel(2): a value is carried
// CHECK: <h2 id='f0'>loops.c</h2>
// The listing escapes the source and highlights the pragma and the loop head.
// CHECK: <tr id='f0-L[[# @LINE + 3]]'><td class='n'>[[# @LINE + 3]]</td><td>uint64_t gather(const uint64_t *d, const uint32_t *ix, size_t n) {</td><td class='note'></td></tr>
// CHECK: <tr id='f0-L[[# @LINE + 4]]' class='mark'><td class='n'>[[# @LINE + 4]]</td><td>#pragma memcoro parallel(8) remote(d)</td><td class='note'>transformed, parallel(8),
// CHECK-NEXT: <tr id='f0-L[[# @LINE + 4]]' class='loop'><td class='n'>[[# @LINE + 4]]</td><td>  for (size_t i = 0; i &lt; n; ++i)</td><td class='note'></td></tr>
uint64_t gather(const uint64_t *d, const uint32_t *ix, size_t n) {
  uint64_t s = 0;
#pragma memcoro parallel(8) remote(d)
  for (size_t i = 0; i < n; ++i)
    s += d[ix[i]];
  return s;
}

// CHECK: <tr id='f0-L[[# @LINE + 3]]' class='mark'><td class='n'>[[# @LINE + 3]]</td><td>#pragma memcoro parallel(2)</td><td class='note'>serial, parallel(2): a value is carried
size_t horner(const uint32_t *a, uint32_t *out, size_t n) {
  size_t k = 0;
#pragma memcoro parallel(2)
  for (size_t i = 0; i < n; ++i)
    if (a[i] & 1)
      k = k * 3 + out[i];
  return k;
}
// CHECK: </html>
