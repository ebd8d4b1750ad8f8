// Tests the driver's -fno-memcoro-cost-model (every remote access of a marked
// loop suspends) and that the last of -fmemcoro-cost-model / -fno-... wins.
// RUN: %memcoro-cc -### -fno-memcoro-cost-model -c %s 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: %memcoro-cc -### -fno-memcoro-cost-model -fmemcoro-cost-model -c %s 2>&1 | FileCheck %s --check-prefix=ON
// RUN: %memcoro-cc -### -c %s 2>&1 | FileCheck %s --check-prefix=ON
// OFF: "-mllvm" "-memcoro-cost-model=0"
// ON-NOT: memcoro-cost-model
void f(void) {}
