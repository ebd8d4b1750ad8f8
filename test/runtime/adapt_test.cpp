// SPDX-License-Identifier: Apache-2.0
// The run-time adaptation controller (runtime/adapt/adapt.c) driven as a
// loop's window loop drives it (compiler/split/Adaptation.cpp), with
// synthetic cycle counts: which way it runs the iterations, and at which n.
extern "C" {
#include "../../runtime/adapt/adapt.h"
}

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>

namespace {

// Cycles per iteration run serially (n = 0) or with n coroutines.
using Cost = std::function<uint64_t(uint32_t n)>;
// The same for iteration i: iterations differ in cost along the loop.
using SiteCost = std::function<uint64_t(uint32_t n, uint64_t i)>;

struct Tally {
  uint64_t serial = 0, interleaved = 0; // iterations run each way
  uint64_t at_n[256] = {};
  uint64_t windows = 0; // the controller was asked about
};

// One execution of a loop of `trips` iterations, as the generated code runs it.
// `drain`: cycles each interleaved window adds (a pipeline's fill and drain);
// `window`: cycles every window adds beyond the controller's estimate of the
// cycle counter's own cost.
void execute(memcoro_adapt &s, uint32_t flags, uint32_t n0, uint32_t nmax, uint64_t trips, const SiteCost &cost,
             Tally &run, uint64_t drain = 0, uint64_t window = 0) {
  auto account = [&](uint64_t n, uint64_t iters) {
    (n ? run.interleaved : run.serial) += iters;
    run.at_n[n] += iters;
  };
  if (trips < 16 || trips <= s.budget) {
    if (trips <= s.budget)
      s.budget -= trips;
    account(s.run ? s.run - 1 : n0, trips);
    return;
  }
  uint64_t decision = __memcoro_adapt_begin(&s, flags, n0, nmax);
  for (uint64_t lo = 0; lo < trips;) {
    uint64_t len = std::max<uint64_t>(decision >> 8, 1), n = decision & 255;
    uint64_t hi = std::min(lo + len, trips);
    account(n, hi - lo);
    ++run.windows;
    uint64_t cycles = (n ? drain : 0) + s.overhead + window;
    for (uint64_t i = lo; i < hi; ++i)
      cycles += cost(uint32_t(n), i);
    decision = __memcoro_adapt_next(&s, hi - lo, cycles);
    lo = hi;
  }
}

void execute(memcoro_adapt &s, uint32_t flags, uint32_t n0, uint32_t nmax, uint64_t trips, const Cost &cost,
             Tally &run, uint64_t drain = 0, uint64_t window = 0) {
  execute(s, flags, n0, nmax, trips, [&](uint32_t n, uint64_t) { return cost(n); }, run, drain, window);
}

Tally simulate(uint32_t flags, uint32_t n0, uint32_t nmax, uint64_t trips, uint64_t executions, const Cost &cost,
             memcoro_adapt &s, uint64_t drain = 0) {
  Tally run;
  for (uint64_t e = 0; e < executions; ++e)
    execute(s, flags, n0, nmax, trips, cost, run, drain);
  return run;
}

constexpr uint32_t Sample = MEMCORO_ADAPT_SAMPLE, ChooseN = MEMCORO_ADAPT_N;

TEST(Adapt, CacheResidentDataStaysSerial) {
  memcoro_adapt s = {};
  // Interleaving three times slower at every n: the t[ix[i]] ^= i on 256 KiB.
  Tally r = simulate(Sample | ChooseN, 32, 64, 1 << 20, 4, [](uint32_t n) { return n ? 300 : 100; }, s);
  EXPECT_EQ(s.run, 1u) << "decided serial";
  EXPECT_LT(r.interleaved * 100, (r.serial + r.interleaved) * 3) << "checks cost under 3% of the iterations";
}

TEST(Adapt, FarDataInterleavesAtTheBestN) {
  memcoro_adapt s = {};
  // Serial 400 cycles; interleaved best at n = 24 on the ladder, from 32.
  Cost cost = [](uint32_t n) -> uint64_t { return n ? 40 + 4 * (n > 24 ? n - 24 : 24 - n) : 400; };
  Tally r = simulate(Sample | ChooseN, 32, 64, 1 << 20, 4, cost, s);
  EXPECT_EQ(s.run, 25u) << "decided n = 24";
  EXPECT_GT(r.at_n[24] * 100, (r.serial + r.interleaved) * 95);
  EXPECT_LT(r.serial * 100, (r.serial + r.interleaved) * 1) << "serial samples under 1% of the iterations";
}

// ptrchase at 1 MiB: the curve is flat from 64 to 48 and falls below
// (32 3%, 16 10% under 64, 12 above 16). A descent that stopped at the flat
// step ran at 0.87x of n = 16; one flat step is passed, two end it.
TEST(Adapt, ADescentPassesOneFlatStep) {
  memcoro_adapt s = {};
  Cost cost = [](uint32_t n) -> uint64_t {
    switch (n) {
    case 0:
      return 4000;
    case 64:
      return 1000;
    case 48:
      return 990;
    case 32:
      return 965;
    case 24:
      return 940;
    case 16:
      return 900;
    default:
      return 1000;
    }
  };
  Tally r = simulate(Sample | ChooseN, 64, 64, 1 << 20, 4, cost, s);
  EXPECT_EQ(s.run, 17u) << "decided n = 16";
  EXPECT_GT(r.at_n[16] * 100, (r.serial + r.interleaved) * 90);
  // Flat everywhere below 64: two flat steps, then the foot, and no further.
  memcoro_adapt t = {};
  Tally f = simulate(Sample | ChooseN, 64, 64, 1 << 20, 4, [](uint32_t n) -> uint64_t { return n ? 1000 : 4000; }, t);
  EXPECT_EQ(f.at_n[24] + f.at_n[16] + f.at_n[12], 0u) << "no step past the second flat one";
}

TEST(Adapt, ClimbsUpToTheMostSlots) {
  memcoro_adapt s = {};
  Tally r = simulate(Sample | ChooseN, 32, 64, 1 << 18, 8, [](uint32_t n) { return n ? 2000 / n : 400; }, s);
  EXPECT_EQ(s.run, 65u);
  EXPECT_EQ(r.at_n[96], 0u) << "never past the slots there are";
}

// A trial the machine's other jobs preempted (3x its time, at n = 64) is
// measured again before the climb turns on it, and the first decision is 64,
// not the step below it.
TEST(Adapt, APreemptedTrialIsMeasuredAgain) {
  memcoro_adapt s = {};
  unsigned preempted = 0;
  Cost cost = [&](uint32_t n) -> uint64_t {
    if (n == 64 && preempted < 4096) // the first trial at 64, all of it
      return ++preempted, 3 * 2000 / n;
    return n ? 2000 / n : 400;
  };
  Tally r = simulate(Sample | ChooseN, 32, 64, 1 << 15, 1, cost, s);
  EXPECT_EQ(preempted, 4096u);
  EXPECT_EQ(s.run, 65u);
  // Two checks fit in the loop (the first decision is provisional): a trial
  // of 48 in each (64 iterations a slot), never a decision for 48.
  EXPECT_LT(r.at_n[48], 3u * 48 * 64) << "n = 48 ran a trial in each check and nothing more";
}

// The loop's first trial ran on a cold cache (1.5x its time at n = 64): it is
// measured again, warm, and the climb does not settle a step below.
TEST(Adapt, TheFirstTrialIsMeasuredWarm) {
  memcoro_adapt s = {};
  unsigned cold = 0;
  Cost cost = [&](uint32_t n) -> uint64_t {
    if (n == 64 && cold < 4096) // the first trial at 64, all of it
      return ++cold, 3 * 2000 / n / 2;
    return n ? 2000 / n : 400;
  };
  Tally r = simulate(Sample | ChooseN, 64, 64, 1 << 15, 1, cost, s);
  EXPECT_EQ(s.run, 65u);
  EXPECT_LT(r.at_n[48], 3u * 48 * 64) << "n = 48 ran a trial in each of the two checks and nothing more";
}

// hj at 1 MiB: its entries in the L2, interleaving 1.4x the serial loop from
// the top of the ladder down to 16 coroutines, and faster only at a few.
// The climb stops on the plateau; the check tries the foot of the ladder.
TEST(Adapt, NearTheCoreTheFootOfTheLadderIsTried) {
  memcoro_adapt s = {};
  Cost cost = [](uint32_t n) -> uint64_t { return !n ? 40 : n >= 16 ? 56 : n >= 8 ? 48 : n == 4 ? 34 : 38; };
  Tally r = simulate(Sample | ChooseN, 64, 64, 1 << 18, 4, cost, s);
  EXPECT_EQ(s.run, 5u) << "decided n = 4";
  EXPECT_GT(r.at_n[4] * 100, (r.serial + r.interleaved) * 90);
  // A serial sample three times its cost (hj's, in one check of three on
  // the shared machine) makes the plateau look twice as fast: the flat top
  // of the ladder still sends the check to its foot.
  memcoro_adapt u = {};
  Cost inflated = [&](uint32_t n) -> uint64_t { return n ? cost(n) : 150; };
  r = simulate(Sample | ChooseN, 64, 64, 1 << 18, 4, inflated, u);
  EXPECT_EQ(u.run, 5u) << "decided n = 4";
  // Where interleaving wins by far and more coroutines keep helping, the
  // foot is never tried.
  memcoro_adapt t = {};
  r = simulate(Sample | ChooseN, 64, 64, 1 << 18, 4, [](uint32_t n) { return n ? 2000 / n : 400; }, t);
  EXPECT_EQ(t.run, 65u);
  EXPECT_EQ(r.at_n[4], 0u);
}

// bs at 1 MiB: the climb settles on 16 (48 cycles an iteration), the foot
// costs 3.5x that. A foot trial that far behind ends after its first
// thousand iterations, and is not measured again: it ran 4096 iterations
// twice a check, 8% of the loop's run.
TEST(Adapt, AFootFarBehindEndsEarly) {
  memcoro_adapt s = {};
  Cost cost = [](uint32_t n) -> uint64_t {
    return !n ? 70 : n == 4 ? 170 : n == 16 ? 48 : n == 12 ? 55 : n == 24 ? 50 : 53;
  };
  Tally r = simulate(Sample | ChooseN, 32, 64, 1 << 18, 2, cost, s);
  EXPECT_EQ(s.run, 17u) << "decided n = 16";
  EXPECT_GT(r.at_n[4], 0u) << "the foot was tried";
  EXPECT_LE(r.at_n[4], 2u * 1024) << "each foot trial ended after its first thousand iterations";
}

// update at 1 GiB: the loop's first check runs cold, where its pipeline at
// n = 128 costs 2.3x the serial loop and n = 4 as much as it; warm, the
// pipeline's cost falls steadily from n = 8 to 128 (0.75x serial there) and
// is flat below. The foot is not tried cold, and one that does not beat
// the serial loop is not climbed on: the checks stayed at n = 6.
TEST(Adapt, AColdFootDoesNotPullTheClimbDown) {
  memcoro_adapt s = {};
  Tally r;
  uint64_t seen = 0;
  Cost cost = [&](uint32_t n) -> uint64_t {
    bool cold = ++seen < 40000;
    if (!n)
      return cold ? 420 : 125;
    if (cold)
      return n >= 16 ? 950 : 430;
    return n >= 96 ? 96 : n >= 64 ? 105 : n >= 32 ? 125 : n >= 16 ? 145 : n >= 8 ? 158 : 160;
  };
  for (int e = 0; e < 4; ++e)
    execute(s, Sample | ChooseN | MEMCORO_ADAPT_PIPELINE, 128, 128, 1 << 21, cost, r);
  EXPECT_GE(s.run, 97u) << "interleaved at the top of the ladder";
  EXPECT_GT((r.at_n[96] + r.at_n[128]) * 10, (r.serial + r.interleaved) * 8);
}

TEST(Adapt, WithoutNItKeepsThePragmasN) {
  memcoro_adapt s = {};
  Tally r = simulate(Sample, 16, 16, 1 << 18, 4, [](uint32_t n) { return n ? 2000 / n : 400; }, s);
  EXPECT_EQ(s.run, 17u);
  EXPECT_EQ(r.interleaved, r.at_n[16]);
}

// is at 1 GiB: the pipeline is 15% faster than the serial loop, and each
// window's drain costs about one miss nothing overlaps. Measured in short
// ramped windows it looked slower; a pipeline's trials are long windows, and
// any trial's windows, once one is timed, run at least LEAST_WINDOW
// iterations (adapt.c), ramped or not.
TEST(Adapt, PipelinesAreMeasuredInWindowsLongEnoughForTheirDrain) {
  auto cost = [](uint32_t n) -> uint64_t { return n ? 85 : 100; };
  memcoro_adapt pipelined = {}, ramped = {};
  simulate(Sample | MEMCORO_ADAPT_PIPELINE, 16, 16, 1 << 16, 1, cost, pipelined, 6000);
  simulate(Sample, 16, 16, 1 << 16, 1, cost, ramped, 6000);
  EXPECT_EQ(pipelined.run, 17u);
  EXPECT_EQ(ramped.run, 17u);
}

// hj at 1 MiB with parallel(4): a ring of four runs the first few hundred
// iterations of a window at up to twice their cost while the predictor
// learns its period, and 20% faster than the serial copy after. In the
// ramped trial windows of 32 iterations up it measured slower than the
// serial copy and the loop flipped between the two ways; trials of a few
// coroutines are FEW_TRIAL long, in windows of at least LEAST_WINDOW.
TEST(Adapt, AFewCoroutinesAreMeasuredPastTheirWarmUp) {
  memcoro_adapt s = {};
  Tally r;
  uint64_t window_start = 0, last = ~0ull;
  SiteCost cost = [&](uint32_t n, uint64_t i) -> uint64_t {
    if (!n)
      return 40;
    if (i != last + 1)
      window_start = i;
    last = i;
    return i - window_start < 300 ? 64 : 32;
  };
  for (int e = 0; e < 4; ++e)
    execute(s, Sample, 4, 4, 1 << 16, cost, r);
  EXPECT_EQ(s.run, 5u) << "interleaved at n = 4";
  EXPECT_GT(r.at_n[4] * 10, (r.serial + r.interleaved) * 9);
}

TEST(Adapt, ShortLoopsRunOftenAreMeasuredAcrossExecutions) {
  memcoro_adapt s = {};
  // gups: 128 iterations per execution.
  Tally r = simulate(Sample | ChooseN, 32, 64, 128, 1 << 14, [](uint32_t n) { return n ? 300 : 100; }, s);
  EXPECT_EQ(s.run, 1u);
  EXPECT_LT(r.interleaved * 100, (r.serial + r.interleaved) * 3);
}

TEST(Adapt, TinyLoopsRunAsDecidedWithoutTheController) {
  memcoro_adapt s = {};
  Tally r = simulate(Sample | ChooseN, 32, 64, 15, 100, [](uint32_t n) { return n ? 300 : 100; }, s);
  EXPECT_EQ(s.phase, 0u) << "never called";
  EXPECT_EQ(r.at_n[32], 1500u) << "the pragma's N before any decision";
}

TEST(Adapt, ForcedDecisionsHoldAfterTheSamples) {
  memcoro_adapt s = {};
  Tally r = simulate(Sample | MEMCORO_ADAPT_FORCE_SERIAL, 16, 16, 1 << 18, 2, [](uint32_t n) { return n ? 10 : 400; },
                   s);
  EXPECT_EQ(s.run, 1u);
  EXPECT_GT(r.interleaved, 0u) << "the trials still ran interleaved";
  memcoro_adapt t = {};
  r = simulate(Sample | MEMCORO_ADAPT_FORCE_INTERLEAVED, 16, 16, 1 << 18, 2,
               [](uint32_t n) { return n ? 400 : 10; }, t);
  EXPECT_EQ(t.run, 17u);
  EXPECT_GT(r.serial, 0u) << "the samples still ran serially";
}

// sssp's vertices: iterations grow dearer along the loop (here by half over
// the check), and interleaving is 10% faster than the serial loop at every
// iteration. A serial sample of the first iterations followed by a trial of
// the next ones found the trial dearer and kept the loop serial; serial and
// interleaved windows that alternate compare like with like.
TEST(Adapt, SerialAndInterleavedAreMeasuredOnTheSameStretch) {
  SiteCost dearer = [](uint32_t n, uint64_t i) -> uint64_t { return (n ? 90 : 100) * (2048 + i) / 2048; };
  memcoro_adapt s = {};
  Tally r;
  execute(s, Sample, 16, 16, 4096, dearer, r);
  EXPECT_EQ(s.run, 17u) << "interleaved";
  // And the other way: cheaper along the loop, interleaving 10% slower.
  SiteCost cheaper = [](uint32_t n, uint64_t i) -> uint64_t { return (n ? 110 : 100) * 8192 / (2048 + i); };
  memcoro_adapt t = {};
  execute(t, Sample, 16, 16, 4096, cheaper, r);
  EXPECT_EQ(t.run, 1u) << "serial";
}

// sssp's unreached vertices: a cycle each serially, too short to time in a
// serial sample of 256. The trial, measured long before, waits for the
// serial side in short windows instead of doubling along with it.
TEST(Adapt, PairedTrialsWaitForTheirSerialSideInShortWindows) {
  memcoro_adapt s = {};
  Tally r;
  execute(s, Sample | ChooseN, 32, 64, 1 << 15, [](uint32_t n) -> uint64_t { return n ? 2 : 1; }, r);
  EXPECT_EQ(s.run, 1u) << "serial";
  EXPECT_LT(r.interleaved * 2, r.serial);
}

TEST(Adapt, FollowsDataThatMovesNearer) {
  memcoro_adapt s = {};
  simulate(Sample | ChooseN, 32, 64, 1 << 20, 2, [](uint32_t n) { return n ? 40 : 400; }, s);
  EXPECT_GT(s.run, 1u);
  // The table now fits in the cache: interleaving is the slower way.
  simulate(Sample | ChooseN, 32, 64, 1 << 20, 16, [](uint32_t n) { return n ? 120 : 40; }, s);
  EXPECT_EQ(s.run, 1u);
}

// An execution longer than the decision's budget runs measured: every window
// reads the cycle counter twice (trapped to the hypervisor, about 70 ns each)
// and calls the controller. Once decided, the rest of the budget is one
// window, not windows of 16 Ki iterations: sssp's rounds of 2 Mi vertices
// cost about a cycle each where most are unreached.
TEST(Adapt, ADecidedBudgetRunsAsOneWindow) {
  memcoro_adapt s = {};
  Tally r;
  for (int e = 0; e < 8; ++e)
    execute(s, Sample | ChooseN, 64, 64, 1 << 21, [](uint32_t n) -> uint64_t { return n ? 3 : 1; }, r);
  EXPECT_EQ(s.run, 1u) << "serial";
  // The checks' own windows: about one per 64 Ki iterations here (one per
  // 16 Ki when decided budgets ran in windows of 16 Ki).
  EXPECT_LT(r.windows * 32768, r.serial);
}

// sssp at 2^21 vertices in its early rounds: interleaving is 15% slower, and
// each window costs more than the controller takes off for it (the trapped
// reads of the cycle counter vary by about a thousand cycles; the serial
// loop's streams restart). Serial windows a sixteenth of the trial's took
// that at several times its share and made interleaving look faster; serial
// windows that keep pace with the trial take it at the same share.
TEST(Adapt, SerialWindowsKeepPaceWithTheTrial) {
  memcoro_adapt s = {};
  Tally r;
  for (int e = 0; e < 4; ++e)
    execute(s, Sample | ChooseN, 64, 64, 1 << 20, Cost([](uint32_t n) -> uint64_t { return n ? 23 : 20; }), r, 0, 700);
  EXPECT_EQ(s.run, 1u) << "serial";
  EXPECT_LT(r.interleaved * 100, (r.serial + r.interleaved) * 5) << "checks cost under 5% of the iterations";
}

// A serial sample that a preemption spoilt (sssp at 2^21 vertices: 70 times
// its cost) makes interleaving look more than twice as fast. The reversal is
// provisional, and the check that would confirm it samples again instead of
// skipping the sample for the wide margin.
TEST(Adapt, APreemptedSerialSampleIsSampledAgain) {
  memcoro_adapt s = {};
  Tally r;
  bool spoilt = false; // the serial samples after the first decision, until the loop interleaves
  SiteCost cost = [&](uint32_t n, uint64_t) -> uint64_t {
    if (n) {
      spoilt = spoilt || s.phase == 4;
      return 110;
    }
    return s.phase != 4 && s.run == 1 && !spoilt ? 100 * 70 : 100;
  };
  for (int e = 0; e < 16; ++e)
    execute(s, Sample | ChooseN, 64, 64, 1 << 18, cost, r);
  EXPECT_EQ(s.run, 1u) << "serial";
  EXPECT_LT(r.interleaved * 100, (r.serial + r.interleaved) * 3) << "interleaved only in trials and the one reversal";
}

// Iterations grow cheaper along the loop and interleaving is 5% slower at
// every n: the pair at the first n loses, and a trial of the climb, on a
// cheaper stretch further on, beats the serial sample of the earlier one.
// A decision to interleave at that n is paired again first.
TEST(Adapt, AClimbsBestNIsPairedBeforeItInterleaves) {
  SiteCost cheaper = [](uint32_t n, uint64_t i) -> uint64_t { return (n ? 105 : 100) * 65536 / (16384 + i); };
  memcoro_adapt s = {};
  Tally r;
  execute(s, Sample | ChooseN, 64, 64, 1 << 16, cheaper, r);
  EXPECT_EQ(s.run, 1u) << "serial";
  EXPECT_LT(r.interleaved, r.serial) << "interleaved in the trials only (two thirds of the loop without the pair)";
}

} // namespace
