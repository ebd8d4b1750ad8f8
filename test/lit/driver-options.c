// The driver's options: plugins, include path and __MEMCORO__ on every compile, the runtime only when linking, -fno-memcoro as a plugin argument, -Rpass options passed through, --version and -v.
// No unused-argument warnings in any mode:
// RUN: %memcoro-cc -Werror -c %s -o %t.o
// RUN: %memcoro-cc -Werror -S %s -o %t.s
// RUN: %memcoro-cc -Werror -E %s -o %t.i
// RUN: %memcoro-cc -Werror -fsyntax-only %s
// RUN: %memcoro-cc -Werror -M %s -o %t.d
// RUN: %memcoro-cc -Werror %t.o -o %t
//
// RUN: %memcoro-cc -### -O2 %s -o %t 2>&1 | %FileCheck %s --check-prefix=LINK
// LINK: "-cc1"
// LINK-SAME: "-I" "{{[^"]*}}/include"
// LINK-SAME: "-D" "__MEMCORO__=1"
// LINK-SAME: "-load" "{{[^"]*}}/lib/MemcoroPragma.so"
// LINK-SAME: "-load" "{{[^"]*}}/lib/MemcoroPasses.so"
// LINK-SAME: "-fpass-plugin={{[^"]*}}/lib/MemcoroPasses.so"
// LINK: "{{[^"]*}}/ld"
// LINK-SAME: "-L{{[^"]*}}/lib"
// LINK-SAME: "-lmemcoro_rt" "-lpthread"
//
// RUN: %memcoro-cc -### -c %s 2>&1 | %FileCheck %s --check-prefix=COMPILE --implicit-check-not=memcoro_rt --implicit-check-not=plugin-arg-memcoro
// COMPILE: "-load" "{{[^"]*}}/lib/MemcoroPragma.so"
//
// RUN: %memcoro-cc -### -c -fno-memcoro %s 2>&1 | %FileCheck %s --check-prefix=OFF
// OFF: "-load" "{{[^"]*}}/lib/MemcoroPragma.so"
// OFF-SAME: "-plugin-arg-memcoro" "disable"
// OFF-SAME: "-fpass-plugin={{[^"]*}}/lib/MemcoroPasses.so"
//
// RUN: %memcoro-cc -### -c -O2 -Rpass=memcoro -Rpass-missed=memcoro -Rpass-analysis=memcoro %s 2>&1 | %FileCheck %s --check-prefix=REMARKS
// REMARKS: "-Rpass=memcoro" "-Rpass-missed=memcoro" "-Rpass-analysis=memcoro"
//
// RUN: %memcoro-cc --version | %FileCheck %s --check-prefix=VERSION
// RUN: %memcoro-cxx --version | %FileCheck %s --check-prefix=VERSION
// VERSION: (memcoro 0.1) with plugins from {{.*}}/lib
// VERSION: clang version 19
// RUN: %memcoro-cc -v 2>&1 | %FileCheck %s --check-prefix=V
// V: clang version 19
//
// RUN: %memcoro-cc -E -dM %s | %FileCheck %s --check-prefix=MACRO
// MACRO: #define __MEMCORO__ 1

#include <memcoro/memcoro.h>

int main(void) { return memcoro_remote_alloc(0) != 0 && 0; }
