// embbag_offsets: DLRM's sparse feature pooling as PyTorch's CPU
// EmbeddingBag (mode "sum") writes it: a template over the index and scalar
// types, bags given by an offsets array (the last bag ends at the number of
// indices), each bag's output row filled with zeros and the table rows of
// its indices added to it in a loop over the embedding dimension that the
// compiler vectorises. The table (2^19 rows of 64 floats, 128 MiB) is far
// larger than the cache; the indices are uniform, as in DLRM's random-data
// benchmark. Verified against a pooling written independently (the rows
// gathered into a contiguous buffer first, then summed in the same order:
// the same float sums). One pragma line marks the loop over the bags;
// nothing else is edited.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace at::native {

template <typename index_t, typename scalar_t>
void embedding_bag_sum_cpu(const scalar_t *weight, int64_t ddim, const index_t *indices, int64_t num_indices,
                           const index_t *offsets, int64_t num_bags, scalar_t *output) {
#pragma memcoro
  for (int64_t b = 0; b < num_bags; b++) {
    const index_t start = offsets[b];
    const index_t end = (b == num_bags - 1) ? static_cast<index_t>(num_indices) : offsets[b + 1];
    scalar_t *out = output + b * ddim;
    std::fill(out, out + ddim, static_cast<scalar_t>(0));
    for (index_t k = start; k < end; k++) {
      const scalar_t *row = weight + static_cast<int64_t>(indices[k]) * ddim;
      for (int64_t d = 0; d < ddim; d++)
        out[d] += row[d];
    }
  }
}

} // namespace at::native

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t next_rand() {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

int main(int argc, char **argv) {
  int64_t num_rows = argc > 1 ? strtoll(argv[1], nullptr, 10) : 1 << 19;
  int64_t num_bags = argc > 2 ? strtoll(argv[2], nullptr, 10) : 2048;
  int batches = argc > 3 ? atoi(argv[3]) : 16;
  const int64_t ddim = 64;
  const int max_pooling = 64;

  std::vector<float> weight(num_rows * ddim);
  for (float &w : weight) w = static_cast<float>((next_rand() >> 44) % 1024) / 64.0f - 8.0f;
  // One batch after another, each with its own offsets from 0.
  std::vector<std::vector<int64_t>> offsets(batches), indices(batches);
  for (int batch = 0; batch < batches; batch++)
    for (int64_t b = 0; b < num_bags; b++) {
      offsets[batch].push_back(static_cast<int64_t>(indices[batch].size()));
      int64_t len = static_cast<int64_t>(next_rand() % (max_pooling + 1));
      for (int64_t k = 0; k < len; k++) indices[batch].push_back(static_cast<int64_t>(next_rand() % num_rows));
    }
  std::vector<float> output(batches * num_bags * ddim);

  auto t0 = std::chrono::steady_clock::now();
  for (int batch = 0; batch < batches; batch++)
    at::native::embedding_bag_sum_cpu(weight.data(), ddim, indices[batch].data(),
                                      static_cast<int64_t>(indices[batch].size()), offsets[batch].data(),
                                      num_bags, output.data() + batch * num_bags * ddim);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  bool ok = true;
  double checksum = 0;
  int64_t lookups = 0;
  std::vector<float> rows, expect(ddim);
  for (int batch = 0; batch < batches && ok; batch++)
    for (int64_t b = 0; b < num_bags && ok; b++) {
      int64_t start = offsets[batch][b];
      int64_t end = b + 1 < num_bags ? offsets[batch][b + 1] : static_cast<int64_t>(indices[batch].size());
      rows.clear();
      for (int64_t k = start; k < end; k++)
        rows.insert(rows.end(), weight.begin() + indices[batch][k] * ddim,
                    weight.begin() + (indices[batch][k] + 1) * ddim);
      std::fill(expect.begin(), expect.end(), 0.0f);
      for (int64_t r = 0; r < end - start; r++)
        for (int64_t d = 0; d < ddim; d++) expect[d] += rows[r * ddim + d];
      const float *got = output.data() + (batch * num_bags + b) * ddim;
      ok = memcmp(expect.data(), got, ddim * sizeof(float)) == 0;
      for (float v : expect) checksum += v;
      lookups += end - start;
    }
  printf("kernel_seconds %.6f\n", seconds);
  printf("%lld rows of %lld floats, %lld bags, %lld lookups, checksum %.3f\n", (long long)num_rows,
         (long long)ddim, (long long)(batches * num_bags), (long long)lookups, checksum);
  printf("%s\n", ok ? "verified" : "FAILED verification");
  return ok ? 0 : 1;
}
