// A marked loop keeps its meaning: break and continue still bind to the loop, and the program prints the same with -fmemcoro, -fno-memcoro and plain clang.
// RUN: %memcoro-cc -O1 %s -o %t.on && %t.on > %t.on.txt
// RUN: %memcoro-cc -fno-memcoro -O1 %s -o %t.off && %t.off > %t.off.txt
// RUN: %clang-plain -Wno-unknown-pragmas -O1 %s -o %t.plain && %t.plain > %t.plain.txt
// RUN: diff %t.on.txt %t.off.txt
// RUN: diff %t.on.txt %t.plain.txt
// RUN: %FileCheck %s < %t.on.txt

#include <stdio.h>

static long data[100];

int main(void) {
  for (int i = 0; i < 100; i++)
    data[i] = i % 7 == 3 ? -i : i;
  long kept = 0, until = 0, nested = 0;
#pragma memcoro parallel(4) remote(data)
  for (int i = 0; i < 100; i++) {
    if (data[i] < 0)
      continue;
    kept += data[i];
  }
#pragma memcoro parallel(4) remote(data)
  for (int i = 0; i < 100; i++)
    if (data[i] < 0)
      break;
    else
      until += data[i];
  for (int r = 0; r < 3; r++)
#pragma memcoro
    for (int i = 0; i < 10; i++) {
      if (i == r + 5)
        break;
      nested += data[i];
    }
  printf("kept %ld until %ld nested %ld\n", kept, until, nested);
  return 0;
}
// CHECK: kept 4271 until 3 nested 28
