// dictionary_decode: a column store's dictionary decode as a class writes it: the codes are a `const std::vector<uint32_t> &` member, the bound `codes_.size()` and the data pointer `codes_[i]` are read through that reference, and the body's `std::string` assignment is an out-of-line call (_M_assign) that may write anything. The bound is evaluated once, as OpenMP does, and the data pointer, read again after the call and handed to the next iteration, is read by each iteration at its start (the call given no pointer into the member is the contract's); the loop interleaves, and the strings equal the serial loop's.
#include <cstdint>
#include <string>
#include <vector>
#include "common.h"

class Decoder {
public:
  Decoder(const std::vector<uint32_t> &codes, const std::string *dict) : codes_(codes), dict_(dict) {}
  __attribute__((noinline)) size_t decode(std::vector<std::string> &out) const {
    size_t bytes = 0;
#pragma memcoro parallel(N)
    for (size_t i = 0; i < codes_.size(); i++) {
      bytes += dict_[codes_[i]].size();
      out[i] = dict_[codes_[i]];
    }
    return bytes;
  }

private:
  const std::vector<uint32_t> &codes_;
  const std::string *dict_;
};

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  std::vector<std::string> dict;
  for (int k = 0; k < 97; k++)
    dict.push_back(std::string(k % 23 + 1, (char)('a' + k % 26)) + std::to_string(k));
  std::vector<uint32_t> codes(n);
  for (int i = 0; i < n; i++) codes[i] = (uint32_t)(diff_rand() % dict.size());
  std::vector<std::string> out(n);
  size_t bytes = Decoder(codes, dict.data()).decode(out);
  uint64_t h = 0;
  for (const std::string &s : out)
    for (char c : s) h = h * 1000003 + (unsigned char)c;
  printf("%zu %zu %llx\n", out.size(), bytes, (unsigned long long)h);
  return 0;
}
