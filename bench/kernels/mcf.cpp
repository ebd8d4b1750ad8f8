// SPDX-License-Identifier: Apache-2.0
// mcf: the pricing loop of 505.mcf (primal_bea_mpp): walk the arcs in order,
// compute each non-basic arc's reduced cost from the potentials of its tail
// and head nodes (reached through pointers, in random places), and collect the
// dual-infeasible arcs into a basket. One op = one arc priced.
#include "../harness.h"

namespace mcf {

struct alignas(64) Node {
  int64_t potential;
  int64_t depth;       // the rest of mcf's node, present to give the node its
  void *pred, *child;  // real size: a node is one cache line
  void *sibling, *basic_arc;
  int64_t orientation, flow;
};
static_assert(sizeof(Node) == 64, "one node per cache line");

enum : int32_t { kBasic = 0, kAtLower = 1, kAtUpper = 2 };

struct Arc {
  int64_t cost;
  Node *tail, *head;
  int32_t ident;
  int32_t pad;
  int64_t flow, org_cost, nextout, nextin; // as in mcf, unused by pricing
};
static_assert(sizeof(Arc) == 64, "one arc per cache line");

struct Candidate {
  const Arc *arc;
  int64_t abs_cost;
};

using SerialFn = size_t (*)(const Arc *arcs, size_t narcs, Candidate *basket);

} // namespace mcf
using namespace mcf;

namespace {

// The loop as mcf writes it; returns the basket size.
size_t mcf_serial(const Arc *arcs, size_t narcs, Candidate *basket) {
  size_t nbasket = 0;
#pragma memcoro MEMCORO_PARALLEL
  for (size_t i = 0; i < narcs; ++i) {
    const Arc *arc = &arcs[i];
    if (arc->ident > kBasic) {
      const int64_t red_cost = arc->cost - arc->tail->potential + arc->head->potential;
      if ((red_cost < 0 && arc->ident == kAtLower) || (red_cost > 0 && arc->ident == kAtUpper))
        basket[nbasket++] = {arc, red_cost < 0 ? -red_cost : red_cost};
    }
  }
  return nbasket;
}
BENCH_REGISTER_SERIAL(SerialFn, mcf_serial);

} // namespace

#ifndef MEMCORO_ONLY
namespace {

// The expert's form: arcs are read in order, so their tail and head nodes can
// be prefetched `distance` arcs ahead; the basket keeps mcf's order.
size_t mcf_amac(const Arc *arcs, size_t narcs, Candidate *basket, int distance) {
  size_t nbasket = 0;
  for (size_t i = 0; i < narcs; ++i) {
    if (i + distance < narcs) {
      const Arc *ahead = &arcs[i + distance];
      __builtin_prefetch(&arcs[i + 2 * distance]);
      __builtin_prefetch(ahead->tail);
      __builtin_prefetch(ahead->head);
    }
    const Arc *arc = &arcs[i];
    if (arc->ident > kBasic) {
      const int64_t red_cost = arc->cost - arc->tail->potential + arc->head->potential;
      if ((red_cost < 0 && arc->ident == kAtLower) || (red_cost > 0 && arc->ident == kAtUpper))
        basket[nbasket++] = {arc, red_cost < 0 ? -red_cost : red_cost};
    }
  }
  return nbasket;
}

// C++20 coroutines: n workers claim arcs; both node lines are prefetched
// before one suspension.
bench::Task mcf_worker(const Arc *arcs, size_t narcs, Candidate *basket, size_t &cursor,
                       size_t &nbasket) {
  for (size_t i; (i = cursor++) < narcs;) {
    const Arc *arc = &arcs[i];
    if (arc->ident == kBasic)
      continue;
    __builtin_prefetch(arc->tail);
    co_await bench::prefetch{arc->head};
    const int64_t red_cost = arc->cost - arc->tail->potential + arc->head->potential;
    if ((red_cost < 0 && arc->ident == kAtLower) || (red_cost > 0 && arc->ident == kAtUpper))
      basket[nbasket++] = {arc, red_cost < 0 ? -red_cost : red_cost};
  }
}

size_t mcf_coro(const Arc *arcs, size_t narcs, Candidate *basket, int n) {
  size_t cursor = 0, nbasket = 0;
  bench::run_interleaved(n, [&](int) { return mcf_worker(arcs, narcs, basket, cursor, nbasket); });
  return nbasket;
}

bool by_arc(const Candidate &x, const Candidate &y) { return x.arc < y.arc; }

} // namespace

int main(int argc, char **argv) {
  bench::Options o = bench::parse_options(argc, argv, 1ull << 30);
  const size_t nnodes = std::max<size_t>(2, o.bytes / 2 / sizeof(Node));
  const size_t narcs = o.ops ? o.ops : 2u << 20;
  bench::Rng rng(o.seed);
  bench::RemoteArray<Node> nodes(nnodes);
  for (size_t v = 0; v < nnodes; ++v)
    nodes[v].potential = (int64_t)rng.below(2000001) - 1000000;
  bench::RemoteArray<Arc> arcs(narcs);
  for (size_t i = 0; i < narcs; ++i) {
    Arc &a = arcs[i];
    a.cost = (int64_t)rng.below(2000001);
    a.tail = &nodes[rng.below(nnodes)];
    a.head = &nodes[rng.below(nnodes)];
    const uint64_t r = rng.below(10); // mostly at the lower bound, as in mcf
    a.ident = r == 0 ? kBasic : r < 8 ? kAtLower : kAtUpper;
  }
  // The expected basket, written independently of the loop's shape.
  std::vector<Candidate> expected;
  for (size_t i = 0; i < narcs; ++i) {
    const Arc &a = arcs[i];
    const int64_t red = a.cost - a.tail->potential + a.head->potential;
    const bool infeasible = (a.ident == kAtLower && red < 0) || (a.ident == kAtUpper && red > 0);
    if (infeasible)
      expected.push_back({&a, red < 0 ? -red : red});
  }

  std::vector<Candidate> basket(narcs);
  size_t nbasket = 0;
  const Arc *pa = arcs.data;
  Candidate *pb = basket.data();
  size_t *count = &nbasket;
  // Whether the last run must give mcf's basket in mcf's order: the serial
  // loop, memcoro's compilation of it (the append runs in iteration order),
  // and the prefetching baseline; the coroutine baseline fills it out of order.
  bool in_order = true;
  bool *last_in_order = &in_order;
  auto variants = bench::standard_variants<SerialFn>(
      o, [=](SerialFn fn) { *last_in_order = true; *count = fn(pa, narcs, pb); },
      [=](int n) { *last_in_order = false; *count = mcf_coro(pa, narcs, pb, n); },
      [=](int n) { *last_in_order = true; *count = mcf_amac(pa, narcs, pb, n); });

  bench::Kernel k;
  k.name = "mcf";
  k.ops = narcs;
  k.reset = [&] { nbasket = 0; };
  // In order, entry by entry; for the coroutine baseline as a set (mcf sorts
  // the basket next, so for mcf itself the order carries no meaning).
  k.verify = [&](std::string &why) {
    if (nbasket != expected.size()) {
      why = "basket holds " + std::to_string(nbasket) + " arcs, expected " +
            std::to_string(expected.size());
      return false;
    }
    std::vector<Candidate> got(basket.begin(), basket.begin() + (ptrdiff_t)nbasket);
    if (!in_order)
      std::sort(got.begin(), got.end(), by_arc);
    for (size_t i = 0; i < got.size(); ++i)
      if (got[i].arc != expected[i].arc || got[i].abs_cost != expected[i].abs_cost) {
        why = "basket entry " + std::to_string(i) + " (arc " + std::to_string(expected[i].arc - pa) +
              ") is wrong, missing or out of order";
        return false;
      }
    return true;
  };
  return bench::run_all(o, k, variants);
}
#endif // MEMCORO_ONLY
