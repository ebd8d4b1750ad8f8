// -fmemcoro-profile-generate[=FILE]: the driver's flags, the instrumented IR (a site and loop table in the section memcoro_profile, a countdown per site, an unlikely call of the runtime's sampler in front of each candidate access, the loop clock around the loop, the loop left serial), the profile the program writes at exit (MEMCORO_PROFILE_FILE overrides the name), and a profile-use build that finds every site of it.
// RUN: %memcoro-cc -### -fmemcoro-profile-generate -c %s 2>&1 | FileCheck %s --check-prefix=DEFAULT
// RUN: %memcoro-cc -### -fmemcoro-profile-generate=%t.x -c %s 2>&1 | FileCheck %s --check-prefix=NAMED
// RUN: not %memcoro-cc -fmemcoro-profile-generate -fmemcoro-profile-use=%t.x -c %s 2>&1 | FileCheck %s --check-prefix=BOTH
// RUN: not %memcoro-cc -fmemcoro-profile-generate -fmemcoro-amu -c %s 2>&1 | FileCheck %s --check-prefix=AMU
// RUN: %memcoro-cc -O2 -Rpass=memcoro -fmemcoro-profile-generate=%t.profile -S -emit-llvm %s -o - 2>%t.remarks | FileCheck %s --check-prefix=IR
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %memcoro-cc -O2 -fmemcoro-profile-generate=%t.profile %s -o %t
// RUN: rm -f %t.profile && env MEMCORO_PROFILE_PERIOD=1 %t 1000 && FileCheck %s --check-prefix=FILE < %t.profile
// RUN: env MEMCORO_PROFILE_FILE=%t.other %t 10 && FileCheck %s --check-prefix=FILE < %t.other
// RUN: %memcoro-cc -O2 -Rpass=memcoro -fmemcoro-profile-use=%t.profile -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=USE

// DEFAULT: "-debug-info-kind=line-tables-only"
// DEFAULT-SAME: "-mllvm" "-memcoro-profile-generate=memcoro.profile"
// NAMED: "-mllvm" "-memcoro-profile-generate={{.*}}.x"
// BOTH: error: -fmemcoro-profile-generate and -fmemcoro-profile-use={{.*}} exclude each other
// AMU: error: -fmemcoro-profile-generate measures DRAM latency; under -fmemcoro-amu far memory is emulated

// IR: @memcoro.profile.sites = private global [2 x { ptr, ptr, i32, i32, i32, i32, i32, i32, i64, i64, i64, i64, i64 }]
// IR: @memcoro.profile.loops = private global [1 x { ptr, i32, i32, i64, i64, i64 }]
// IR: @memcoro.profile.table = private global { ptr, i32, ptr, i32, ptr } { ptr @{{.*}}, i32 2, ptr @memcoro.profile.sites, i32 1, ptr @memcoro.profile.loops }, section "memcoro_profile"
// IR-LABEL: define {{.*}} @main(
// IR: call i64 @__memcoro_profile_loop_enter(ptr nonnull @memcoro.profile.loops)
// IR: call void @__memcoro_profile_loop_exit(ptr nonnull @memcoro.profile.loops, i64
// IR: load atomic i32, ptr getelementptr inbounds (i8, ptr @memcoro.profile.sites, i64 36) monotonic
// IR: store atomic i32 {{.*}}, ptr getelementptr inbounds (i8, ptr @memcoro.profile.sites, i64 36) monotonic
// IR: call void @__memcoro_profile_sample(ptr nonnull @memcoro.profile.sites, ptr
// IR: load atomic i32, ptr getelementptr inbounds (i8, ptr @memcoro.profile.sites, i64 116) monotonic
// IR-NOT: memcoro.slot

// REMARK: 52:3: remark: loop instrumented for -fmemcoro-profile-generate: 2 candidate suspension points sample their access latency; the loop runs serially in this build
// FILE: memcoro-profile 1
// FILE: miss-threshold-ns {{[0-9.]+}}
// FILE: site main 52:3 load 53:10 0 {{[0-9]+}} {{[0-9]+}} {{[0-9.]+}} {{[0-9.]+}} {{[0-9.]+}}
// FILE-NEXT: site main 52:3 load 53:23 0 {{[0-9]+}} {{[0-9]+}} {{[0-9.]+}} {{[0-9.]+}} {{[0-9.]+}}
// FILE-NEXT: loop main 52:3 0 0
// USE-NOT: warning
// USE: 53:10: remark: {{suspension point kept|not a suspension point}}: the profile says this load takes
// USE: 53:23: remark: {{suspension point kept|not a suspension point}}: the profile says this load takes

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int n = atoi(argv[1]);
  long *hot = calloc(64, sizeof *hot), *cold = calloc(1 << 16, sizeof *cold);
  int *ix = malloc(n * sizeof *ix), *iy = malloc(n * sizeof *iy);
  for (int i = 0; i < n; ++i)
    ix[i] = i % 64, iy[i] = (i * 7919) % (1 << 16), cold[iy[i]] = i;
  long s = 0;
#pragma memcoro parallel(16)
  for (int i = 0; i < n; ++i)
    s += hot[ix[i]] + cold[iy[i]];
  printf("%ld\n", s);
  return 0;
}
