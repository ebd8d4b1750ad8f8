// Projects built with CC=memcoro-cc compile their assembly sources with it
// too, and -save-temps ends each C file with an assembler step: the integrated
// assembler loads no plugin, so memcoro's -mllvm options must not reach it
// (it stopped with "Unknown command line argument '-memcoro-adapt'").
// RUN: rm -rf %t && mkdir -p %t
// RUN: printf '.globl answer\nanswer:\n  movl $42, %%%%eax\n  ret\n' > %t/answer.s
// RUN: printf '#define RESULT $7\n.globl seven\nseven:\n  movl RESULT, %%%%eax\n  ret\n' > %t/seven.S
// RUN: %memcoro-cc -Werror -c %t/answer.s -o %t/answer.o
// RUN: %memcoro-cc -Werror -c %t/seven.S -o %t/seven.o
// RUN: %memcoro-cc -Werror -fno-memcoro -c %t/answer.s -o %t/answer-serial.o
// RUN: %memcoro-cc -Werror -fmemcoro-check -fno-memcoro-adapt -c %t/answer.s -o %t/answer-check.o
// RUN: cd %t && %memcoro-cc -O2 -save-temps -Rpass=memcoro %s %t/answer.s %t/seven.S -o %t/prog 2>&1 | %FileCheck %s --check-prefix=REMARK
// RUN: %t/prog | %FileCheck %s
// REMARK: driver-assembly.c:[[@LINE+16]]:{{[0-9]+}}:{{.*}} loop turned into
// CHECK: sum 1015

int answer(void);
int seven(void);
int printf(const char *, ...);

static int table[4096], ix[1024];

int main(void) {
  for (int i = 0; i < 4096; i++)
    table[i] = i & 1;
  for (int i = 0; i < 1024; i++)
    ix[i] = (i * 2654435761u) % 4096;
  int sum = 0;
#pragma memcoro parallel(8) insist
  for (int i = 0; i < 1024; i++)
    sum += table[ix[i]];
  printf("sum %d\n", sum + answer() + seven() + 1015 - 49 - 512);
  return 0;
}
