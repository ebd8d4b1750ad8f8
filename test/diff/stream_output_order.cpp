// stream_output_order: a marked loop that prints with the C++ streams (`std::cout << i << ':' << v << '\n'`, std::endl, a std::string) writes its lines in the serial loop's order, as one calling printf does: the stream members and operators are input and output, run in iteration order. They ran in place, unordered, and the lines came out interleaved ("0:1:2:3:4:0\n5:335\n"). The second loop sets the stream's state inline (std::setw, std::hex store into std::cout) after a walk that suspends: that state is in order with the output too, or another iteration's output in between reset it (lines lost their padding, values printed in decimal).
#include "common.h"
#include <iomanip>
#include <iostream>
#include <string>
enum { TABLE = 1 << 15 };
static int T[TABLE];
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  int32_t *idx = static_cast<int32_t *>(diff_alloc(sizeof *idx * (n + 1)));
  for (int k = 0; k < TABLE; ++k) T[k] = (int)(diff_rand() % 1000);
  for (int i = 0; i < n; ++i) idx[i] = diff_rand() % TABLE;
  const std::string tag = "row ";
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    int v = T[idx[i]];
    if (v % 3 == 0)
      std::cout << tag << i << ':' << v << std::endl;
    else
      std::cout << i << ' ' << v * 0.5 << '\n';
  }
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    long s = 0;
    for (int e = idx[i]; e % 7 != 0 && s < 100000; e = T[e] % TABLE)
      s += e;
    std::cout << std::setw(8) << s << ' ' << std::hex << s << std::dec << '\n';
  }
  return 0;
}
