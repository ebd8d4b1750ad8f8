// Tests that a marked loop which never reaches memcoro-split is reported: at
// -O0 (no transformation pipeline) and when the user's own full-unroll pragma
// removes it first. The marker is written as the pragma plugin emits it.
// RUN: %clang-plain -O0 -fpass-plugin=%passes-plugin -Rpass-missed=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=O0
// RUN: %clang-plain -O2 -fpass-plugin=%passes-plugin -Rpass-missed=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=O2
#define MARK(n) if (((void)__builtin_annotation((int)(n), "memcoro.loop"), 0)) {} else

long four(const long *a, const int *idx) {
  long s = 0;
#pragma clang loop unroll(full)
  for (int i = 0; i < 4; i++) MARK(4) s += a[idx[i]];
  return s;
}
// O0: finalize-vanished.c:[[@LINE-3]]:{{[0-9]+}}: remark: marked loop not transformed: memcoro transforms loops only when optimising (-O1 or higher)
// O2: finalize-vanished.c:[[@LINE-4]]:{{[0-9]+}}: remark: marked loop not transformed: earlier optimisations removed it (deleted, fully unrolled or folded away)
