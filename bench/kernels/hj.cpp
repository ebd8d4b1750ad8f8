// SPDX-License-Identifier: Apache-2.0
// hj: the classic no-partitioning hash join. A chained hash table is built on
// relation R (set-up, not timed); the timed part probes it with relation S and
// counts the matches and sums the matched payloads. One op = one probe.
#include "../harness.h"

namespace hj {

struct Entry {
  uint64_t key;
  uint64_t payload;
  uint32_t next; // index of the next entry in the bucket's chain, or kNil
  uint32_t pad[3];
};
static_assert(sizeof(Entry) == 32, "two entries per cache line, never straddling one");

constexpr uint32_t kNil = ~0u;

struct Join {
  uint64_t matches;
  uint64_t payload_sum;
};

struct Table {
  const Entry *entries;
  const uint32_t *buckets; // head of each chain
  unsigned shift;          // bucket = hash(key) >> shift
};

inline uint64_t bucket_of(uint64_t key, unsigned shift) { return (key * 0x9e3779b97f4a7c15ull) >> shift; }

using SerialFn = void (*)(Table t, const uint64_t *probe, size_t nprobe, Join *out);

} // namespace hj
using namespace hj;

namespace {

// The loop as a user writes it.
void hj_serial(Table t, const uint64_t *probe, size_t nprobe, Join *out) {
  const Entry *entries = t.entries;
  const uint32_t *buckets = t.buckets;
  uint64_t matches = 0, payload_sum = 0;
#pragma memcoro MEMCORO_PARALLEL remote(entries, buckets)
  for (size_t i = 0; i < nprobe; ++i) {
    const uint64_t key = probe[i];
    for (uint32_t e = buckets[bucket_of(key, t.shift)]; e != kNil; e = entries[e].next) {
      if (entries[e].key == key) {
        ++matches;
        payload_sum += entries[e].payload;
      }
    }
  }
  out->matches = matches;
  out->payload_sum = payload_sum;
}
BENCH_REGISTER_SERIAL(SerialFn, hj_serial);

} // namespace

#ifndef MEMCORO_ONLY
namespace {

// AMAC (as in Kocberber et al.): a ring of n probes, each either waiting for
// its bucket head or for a chain entry; every visit consumes the line that was
// prefetched on the previous visit and prefetches the next one.
void hj_amac(Table t, const uint64_t *probe, size_t nprobe, Join *out, int n) {
  struct Slot {
    uint64_t key;
    const uint32_t *bucket; // non-null: the head is the next thing to read
    uint32_t entry;
  } slot[64];
  uint64_t matches = 0, payload_sum = 0;
  size_t next = 0;
  int live = 0;
  auto start = [&](Slot &sl) {
    sl.key = probe[next++];
    sl.bucket = &t.buckets[bucket_of(sl.key, t.shift)];
    __builtin_prefetch(sl.bucket);
  };
  for (; live < n && next < nprobe; ++live)
    start(slot[live]);
  while (live > 0) {
    for (int s = 0; s < live;) {
      Slot &sl = slot[s];
      uint32_t e;
      if (sl.bucket) {
        e = *sl.bucket;
        sl.bucket = nullptr;
      } else {
        const Entry &en = t.entries[sl.entry];
        // Branch-free: a match is a coin flip. Without the hint clang's x86
        // cmov conversion turns the select back into a branch.
        const bool hit = en.key == sl.key;
        const uint64_t payload = en.payload; // same line as the key: free
        matches += hit;
        payload_sum += __builtin_unpredictable(hit) ? payload : 0;
        e = en.next;
      }
      if (e != kNil) {
        sl.entry = e;
        __builtin_prefetch(&t.entries[e]);
        ++s;
      } else if (next < nprobe) {
        start(sl);
        ++s;
      } else {
        sl = slot[--live];
      }
    }
  }
  out->matches = matches;
  out->payload_sum = payload_sum;
}

// The user's loop with prefetches added, two stages ahead: the bucket head of
// probe i + 2d, and the first entry of probe i + d's chain (its head was
// prefetched d probes ago). Chains average under two entries, so the rest of
// a chain is left to miss.
void hj_pfd(Table t, const uint64_t *probe, size_t nprobe, Join *out, int d) {
  uint64_t matches = 0, payload_sum = 0;
  for (size_t i = 0; i < nprobe; ++i) {
    if (i + 2 * (size_t)d < nprobe)
      __builtin_prefetch(&t.buckets[bucket_of(probe[i + 2 * d], t.shift)]);
    if (i + (size_t)d < nprobe) {
      const uint32_t head = t.buckets[bucket_of(probe[i + d], t.shift)];
      if (head != kNil)
        __builtin_prefetch(&t.entries[head]);
    }
    const uint64_t key = probe[i];
    for (uint32_t e = t.buckets[bucket_of(key, t.shift)]; e != kNil; e = t.entries[e].next) {
      if (t.entries[e].key == key) {
        ++matches;
        payload_sum += t.entries[e].payload;
      }
    }
  }
  out->matches = matches;
  out->payload_sum = payload_sum;
}

// Group prefetching: g probes at a time; prefetch their bucket heads, then
// their first entries, then walk the g chains.
void hj_group(Table t, const uint64_t *probe, size_t nprobe, Join *out, int g) {
  uint64_t matches = 0, payload_sum = 0;
  uint32_t head[64];
  for (size_t base = 0; base < nprobe; base += (size_t)g) {
    const size_t width = std::min(nprobe - base, (size_t)g);
    for (size_t j = 0; j < width; ++j)
      __builtin_prefetch(&t.buckets[bucket_of(probe[base + j], t.shift)]);
    for (size_t j = 0; j < width; ++j) {
      head[j] = t.buckets[bucket_of(probe[base + j], t.shift)];
      if (head[j] != kNil)
        __builtin_prefetch(&t.entries[head[j]]);
    }
    for (size_t j = 0; j < width; ++j) {
      const uint64_t key = probe[base + j];
      for (uint32_t e = head[j]; e != kNil; e = t.entries[e].next) {
        if (t.entries[e].key == key) {
          ++matches;
          payload_sum += t.entries[e].payload;
        }
      }
    }
  }
  out->matches = matches;
  out->payload_sum = payload_sum;
}

bench::Task hj_worker(Table t, const uint64_t *probe, size_t nprobe, size_t &cursor, Join &total) {
  uint64_t matches = 0, payload_sum = 0;
  for (size_t i; (i = cursor++) < nprobe;) {
    const uint64_t key = probe[i];
    const uint32_t *bucket = &t.buckets[bucket_of(key, t.shift)];
    co_await bench::prefetch{bucket};
    for (uint32_t e = *bucket; e != kNil; e = t.entries[e].next) {
      co_await bench::prefetch{&t.entries[e]};
      if (t.entries[e].key == key) {
        ++matches;
        payload_sum += t.entries[e].payload;
      }
    }
  }
  total.matches += matches;
  total.payload_sum += payload_sum;
}

void hj_coro(Table t, const uint64_t *probe, size_t nprobe, Join *out, int n) {
  size_t cursor = 0;
  Join total{0, 0};
  bench::run_interleaved(n, [&](int) { return hj_worker(t, probe, nprobe, cursor, total); });
  *out = total;
}

} // namespace

int main(int argc, char **argv) {
  bench::Options o = bench::parse_options(argc, argv, 1ull << 30);
  // 32 bytes per entry plus about one 4-byte bucket head per entry.
  const size_t nr = o.bytes / 36;
  if (nr < 2 || nr >= kNil)
    bench::die("--bytes gives an unusable relation size");
  unsigned log_buckets = 1;
  while ((2ull << log_buckets) <= nr)
    ++log_buckets;
  const size_t nbuckets = 1ull << log_buckets;
  const size_t nprobe = o.ops ? o.ops : 1u << 19;

  bench::RemoteArray<Entry> entries(nr);
  bench::RemoteArray<uint32_t> buckets(nbuckets);
  std::fill(buckets.data, buckets.data + nbuckets, kNil);
  const unsigned shift = 64 - log_buckets;
  // R: unique keys; the payload is the row number. Built by head insertion.
  for (size_t i = 0; i < nr; ++i) {
    const uint64_t key = bench::mix64(i + 1);
    uint32_t &head = buckets[bucket_of(key, shift)];
    entries[i] = {key, i, head, {0, 0, 0}};
    head = (uint32_t)i;
  }
  // S: half the probes hit a random row of R, half miss (keys beyond R's).
  bench::Rng rng(o.seed);
  std::vector<uint64_t> probe(nprobe);
  Join expected{0, 0};
  for (size_t j = 0; j < nprobe; ++j) {
    if (rng.next() & 1) {
      const uint64_t row = rng.below(nr);
      probe[j] = bench::mix64(row + 1);
      ++expected.matches;
      expected.payload_sum += row;
    } else {
      probe[j] = bench::mix64(nr + 1 + rng.below(nr));
    }
  }

  const Table t{entries.data, buckets.data, shift};
  const uint64_t *p = probe.data();
  Join result{0, 0};
  Join *r = &result;
  auto variants = bench::standard_variants<SerialFn>(
      o, [=](SerialFn fn) { fn(t, p, nprobe, r); }, [=](int n) { hj_coro(t, p, nprobe, r, n); },
      [=](int n) { hj_amac(t, p, nprobe, r, n); });
  bench::add_swept(variants, o, "pfd", o.ds, [=](int d) { hj_pfd(t, p, nprobe, r, d); });
  bench::add_swept(variants, o, "group", o.ns, [=](int g) { hj_group(t, p, nprobe, r, g); });

  bench::Kernel k;
  k.name = "hj";
  k.ops = nprobe;
  k.reset = [&] { result = {~0ull, ~0ull}; };
  k.verify = [&](std::string &why) {
    if (result.matches == expected.matches && result.payload_sum == expected.payload_sum)
      return true;
    why = "matches " + std::to_string(result.matches) + " (expected " +
          std::to_string(expected.matches) + "), payload sum " + std::to_string(result.payload_sum) +
          " (expected " + std::to_string(expected.payload_sum) + ")";
    return false;
  };
  return bench::run_all(o, k, variants);
}
#endif // MEMCORO_ONLY
