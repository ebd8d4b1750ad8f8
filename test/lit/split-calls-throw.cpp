// C++ calls that may throw run in place: as in an OpenMP parallel for, an
// exception must not leave the marked loop, and one that does ends the
// program (std::terminate, after memcoro names the loop) instead of leaving
// later iterations half done. A noexcept callee needs no landing pad. The
// thrown run aborts with memcoro's message and the exception's own; the
// serial build (-fno-memcoro) still lets the exception reach the caller.
// RUN: %memcoro-cxx -fno-memcoro-adapt -fno-memcoro-cost-model -O2 -Rpass=memcoro -Rpass-missed=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %memcoro-cxx -fno-memcoro-adapt -fno-memcoro-cost-model -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// RUN: %memcoro-cxx -fno-memcoro-adapt -fno-memcoro-cost-model -O2 -g -DRUN %s -o %t && %t 10 2>&1 | FileCheck %s --check-prefix=QUIET
// RUN: not --crash %t 1000 2>&1 | FileCheck %s --check-prefix=THROWN
// RUN: %memcoro-cxx -fno-memcoro -O2 -DRUN %s -o %t.serial && %t.serial 1000 2>&1 | FileCheck %s --check-prefix=CAUGHT
// RUN: not --crash %t 1000 typed 2>&1 | FileCheck %s --check-prefix=UNCAUGHT
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

std::int64_t may_throw(std::int64_t v);
std::int64_t cannot_throw(std::int64_t v) noexcept;

// CHECK: split-calls-throw.cpp:[[# @LINE + 8]]:3: remark: loop turned into 8 interleaved coroutines{{.*}}; an exception thrown in it and not caught there terminates the program, as one leaving an OpenMP parallel for does; the call to 'may_throw(long)' runs in place
// IR-LABEL: define {{.*}}@_Z8throwing
// IR: invoke {{.*}}@_Z9may_throwl
// IR: landingpad { ptr, i32 }
// IR-NEXT: catch ptr null
// IR: call void @_ZSt9terminatev()
void throwing(std::int64_t *out, const std::int64_t *table, const std::uint32_t *idx, long n) {
#pragma memcoro parallel(8)
  for (long i = 0; i < n; i++)
    out[i] = may_throw(table[idx[i]]);
}

// CHECK: split-calls-throw.cpp:[[# @LINE + 6]]:3: remark: loop turned into {{.*}}; the call to 'cannot_throw(long)' runs in place
// CHECK-NOT: terminates the program
// IR-LABEL: define {{.*}}@_Z15noexcept_helper
// IR-NOT: landingpad
void noexcept_helper(std::int64_t *out, const std::int64_t *table, const std::uint32_t *idx, long n) {
#pragma memcoro parallel(8)
  for (long i = 0; i < n; i++)
    out[i] = cannot_throw(table[idx[i]]);
}

// A try/catch in the body catches what it names in the iteration; anything
// else it resumes would leave the loop, and ends the program instead.
// CHECK: split-calls-throw.cpp:[[# @LINE + 7]]:3: remark: loop turned into 8 interleaved coroutines{{.*}}; an exception thrown in it and not caught there terminates the program
// IR-LABEL: define {{.*}}@_Z11typed_catch
// IR-NOT: resume
// IR: call void @_ZSt9terminatev()
// IR-NOT: resume
void typed_catch(std::int64_t *out, const std::int64_t *table, const std::uint32_t *idx, long n) {
#pragma memcoro parallel(8)
  for (long i = 0; i < n; i++) {
    try {
      out[i] = may_throw(table[idx[i]]);
    } catch (const std::runtime_error &) {
      out[i] = -1;
    }
  }
}

#ifdef RUN
__attribute__((noinline)) std::int64_t may_throw(std::int64_t v) {
  if (v > 900)
    throw std::out_of_range("value above 900");
  return v * 3;
}
std::int64_t cannot_throw(std::int64_t v) noexcept { return v; }

// QUIET: sum 135
// THROWN: memcoro: an exception left the marked loop at {{.*}}split-calls-throw.cpp:29; as from an OpenMP parallel for, the program terminates
// THROWN: terminate called after throwing an instance of 'std::out_of_range'
// CAUGHT: caught: value above 900
// UNCAUGHT: memcoro: an exception left the marked loop at {{.*}}split-calls-throw.cpp:52; as from an OpenMP parallel for, the program terminates
// UNCAUGHT: terminate called after throwing an instance of 'std::out_of_range'
int main(int argc, char **argv) {
  long n = std::atol(argv[1]);
  std::int64_t table[1000], out[1000];
  std::uint32_t idx[1000];
  for (long i = 0; i < n; i++) {
    table[i] = i;
    idx[i] = static_cast<std::uint32_t>(n - 1 - i);
  }
  if (argc > 2)
    typed_catch(out, table, idx, n);
  try {
    throwing(out, table, idx, n);
  } catch (const std::exception &e) {
    std::printf("caught: %s\n", e.what());
    return 0;
  }
  std::int64_t sum = 0;
  for (long i = 0; i < n; i++)
    sum += out[i];
  std::printf("sum %lld\n", static_cast<long long>(sum));
  return 0;
}
#endif
