// A driver without its plugins beside it (build not done, or copied away) says what is missing instead of letting clang fail obscurely.
// RUN: rm -rf %t && mkdir -p %t/bin
// RUN: cp %memcoro-cc %t/bin/memcoro-cc
// RUN: not %t/bin/memcoro-cc -c %s -o %t/x.o 2>&1 | %FileCheck %s
// CHECK: memcoro-cc: error: MemcoroPragma.so not found in the lib directory beside memcoro-cc; build memcoro first (make build)
// RUN: mkdir -p %t/lib
// RUN: not %t/bin/memcoro-cc -c %s -o %t/x.o 2>&1 | %FileCheck %s --check-prefix=EMPTY
// EMPTY: memcoro-cc: error: MemcoroPragma.so not found in {{.*}}/lib; build memcoro first (make build)
// The headers are found in ../include beside the driver, as in an installed prefix:
// RUN: cp %memcoro_lib/MemcoroPragma.so %memcoro_lib/MemcoroPasses.so %memcoro_lib/libmemcoro_rt.a %memcoro_lib/libmemcoro_check.a \
// RUN:   %t/lib/
// RUN: not %t/bin/memcoro-cc -c %s -o %t/x.o 2>&1 | %FileCheck %s --check-prefix=NOHEADERS
// NOHEADERS: memcoro-cc: error: memcoro/memcoro.h not found in the include directory beside memcoro-cc
// RUN: mkdir -p %t/include && cp -r %memcoro_src/include/memcoro %t/include/
// RUN: %t/bin/memcoro-cc -c %s -o %t/x.o
#include <memcoro/memcoro.h>
int x;
