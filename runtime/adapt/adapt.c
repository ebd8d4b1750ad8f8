// SPDX-License-Identifier: Apache-2.0
// The controller of run-time adaptation (adapt.h; docs/compiler.md,
// "Run-time adaptation"). A loop that adapts asks here, before each measured
// window of iterations, how many to run and how, and reports their cycles
// after:
//
//   pair     interleaved at n = best, in windows that alternate with serial
//            ones (a quarter as many iterations in all,
//            MEMCORO_ADAPT_SAMPLE_ITERS per trial): both ways measured on
//            neighbouring stretches of the iteration space and at the same
//            time (without MEMCORO_ADAPT_SAMPLE, a plain trial)
//   trial    then (MEMCORO_ADAPT_N) hill climbing
//            on the ladder 2 3 4 6 8 12 16 24 32 48 64 ...: up while each step
//            is 3% faster, else down from where it started, as CoroAMU's
//            return block "periodically adjusts concurrency levels"; a climb
//            that stops on a flat top tries the foot of the ladder (foot())
//   run      serial unless interleaving was at least 3% faster than the
//            sample; the decision gets a budget of iterations that the loop
//            spends without calling here (state->budget, state->run), then
//            the next check samples and climbs again. A check that confirms
//            the decision doubles the budget (from 16 Ki to 4 Mi
//            iterations), so that a memory-bound loop pays little for serial
//            samples and a cache-resident one little for interleaved trials.
//
// The measurements accumulate over windows and over executions of the loop
// (the state is per loop and per thread), so a loop of few iterations run
// many times is measured too. Reading the cycle counter may trap to the
// hypervisor (about 70 ns on the KVM guest we measure on); what the two
// reads of a window add is measured once and taken off every window.
#include "adapt.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

// The serial sample and the first trial of a check alternate windows
// (PAIRED_SERIAL, PAIRED_TRIAL) instead of running one after the other:
// iterations differ in cost along the iteration space (sssp's vertices,
// whose distance is still infinite in one stretch and not in the next), and
// the first iterations of an execution run on a cold cache and TLB, so a
// sample and a trial of different stretches misjudged (sssp kept
// interleaving at 0.84-0.90x serial, a list walk stayed serial while
// interleaving was faster).
enum { FRESH, PAIRED_SERIAL, PAIRED_TRIAL, TRIAL, RUN };

// Ties and noise favour the serial loop and the n already chosen.
enum { BETTER_PERCENT = 97 };

// A measurement also lasts at least this many cycles (a few microseconds), so
// that the cycle counter's own cost and its jitter stay a small part of it:
// a serial sample of cache-resident data grows, which costs nothing, as the
// loop would run serially anyway.
enum { MIN_CYCLES = 16384 };

// And at most this many (a fraction of a millisecond) once it has a few
// iterations: a loop whose iterations are long (a list walk each) would
// otherwise spend a whole sample of them serially. Its windows start small
// and double, so that the measurement can stop early.
enum { MAX_CYCLES = 512 * 1024, FIRST_SAMPLE_WINDOW = 2, FIRST_TRIAL_WINDOW_PER_SLOT = 8 };

// A decision's budget runs at least this many times longer than what its
// check cost beyond running the chosen way throughout, so that checks cost a
// few percent at most even when the path not chosen is several times slower.
enum { BUDGET_PER_CHECK = 32 };

// When interleaving was at least twice as fast as the serial loop, a serial
// sample costs more than it can tell: checks only climb on n, and sample
// again every SAMPLE_EVERY checks (or when interleaving got much slower).
enum { WIDE_MARGIN = 2, SAMPLE_EVERY = 4 };

// The most cycles a decision's budget may stand for (about 45 ms at 3 GHz).
#define MAX_BUDGET_CYCLES (1ull << 27)

static const uint32_t ladder[] = {2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 255};

// The next n up (or down) the ladder from n within the slots, or 0.
static uint32_t step(const struct memcoro_adapt *s, uint32_t n, bool up) {
  if (!(s->flags & MEMCORO_ADAPT_N))
    return 0;
  uint32_t found = 0;
  for (unsigned i = 0; i < sizeof ladder / sizeof ladder[0]; ++i) {
    uint32_t m = ladder[i];
    if (m > s->nmax)
      break;
    if (up && m > n)
      return m;
    if (!up && m < n)
      found = m;
  }
  return found;
}

static bool better(uint64_t cpi, uint64_t than) { return cpi * 100 < than * BETTER_PERCENT; }

// Enough iterations for every slot to run a few, and for the ramp-up and
// drain of the window to be a small part of it. A pipeline's window drains
// to its last iteration's last phase, about one miss latency that nothing
// overlaps: is at 1 GiB measured its pipeline 14% slower in ramped trials of
// 64 iterations per slot than it runs, and chose serial half the time; its
// trials are one window of 256 per slot.
//
// A ring of a few coroutines runs its first thousand iterations or so at up
// to twice the cost of the rest (not understood; its dispatch's branches
// repeat with the ring's period, which a predictor can learn): hj at 1 MiB
// measured n = 4 at
// 42-47K cycles per 1024 iterations in trials of 1024 and runs at 34K in
// long windows, where the serial copy runs at 38-40K. A trial of FEW or
// fewer paired with serial windows, or reached from the foot of the ladder
// (foot()), is FEW_TRIAL iterations long; one the climb steps down to stays
// short, as the climb's trials are not paired (iterations that grow cheaper
// along the loop made long ones look twice as fast as the serial sample).
enum { PER_SLOT = 64, PIPELINE_PER_SLOT = 256, FEW = 4, FEW_TRIAL = 8 * MEMCORO_ADAPT_TRIAL };
static uint64_t trial_iters(const struct memcoro_adapt *s) {
  bool pipeline = s->flags & MEMCORO_ADAPT_PIPELINE;
  uint64_t per_slot = (pipeline ? PIPELINE_PER_SLOT : PER_SLOT) * (uint64_t)s->trial;
  bool few = !pipeline && s->trial <= FEW && (s->jumped || s->phase != TRIAL);
  uint64_t least = few ? FEW_TRIAL : MEMCORO_ADAPT_TRIAL;
  return per_slot > least ? per_slot : least;
}

static void measure(struct memcoro_adapt *s, uint32_t phase, uint32_t n) {
  s->check_iters += s->iters;
  s->check_cycles += s->cycles;
  s->phase = phase;
  s->trial = n;
  s->iters = 0;
  s->cycles = 0;
}

// Executions of the loop come here, measured, until the check has decided.
static bool wide_margin(const struct memcoro_adapt *s) {
  return !s->serial && s->best_cpi * WIDE_MARGIN < s->serial_cpi;
}

// A paired measurement of n = best, starting with a serial window.
static void pair(struct memcoro_adapt *s) {
  s->paired_iters = 0;
  s->paired_cycles = 0;
  measure(s, PAIRED_SERIAL, s->best);
}

static void start_check(struct memcoro_adapt *s) {
  s->budget = 0;
  s->iters = 0;
  s->cycles = 0;
  s->check_iters = 0;
  s->check_cycles = 0;
  // A decision that no check has confirmed yet (its budget is the first)
  // is checked with a sample again: a serial sample that a preemption
  // spoilt (sssp at 2^21 vertices: 14 M cycles per 1024 iterations, against
  // 20-200 K) gave a wide margin that then skipped the samples which would
  // have shown it, and the loop interleaved at half the serial speed for
  // three more checks.
  bool unconfirmed = s->recheck <= MEMCORO_ADAPT_RECHECK_FIRST;
  bool sample = (s->flags & MEMCORO_ADAPT_SAMPLE) &&
                (!wide_margin(s) || unconfirmed || ++s->unsampled >= SAMPLE_EVERY);
  s->start = s->best;
  s->last_cpi = s->best_cpi;
  s->best_cpi = UINT64_MAX;
  s->retried = 0;
  s->retry_cpi = 0;
  s->jumped = 0;
  s->flat = 0;
  if (s->foot_wait)
    --s->foot_wait;
  if (sample)
    pair(s);
  else
    measure(s, TRIAL, s->best);
}

bool __memcoro_adapt_tracing(void) {
  static int on = -1;
  if (on < 0)
    on = getenv("MEMCORO_ADAPT_TRACE") != NULL;
  return on;
}

static void decide(struct memcoro_adapt *s) {
  bool serial = (s->flags & MEMCORO_ADAPT_SAMPLE) && !better(s->best_cpi, s->serial_cpi);
  if (s->flags & MEMCORO_ADAPT_FORCE_SERIAL)
    serial = true;
  if (s->flags & MEMCORO_ADAPT_FORCE_INTERLEAVED)
    serial = false;
  bool first = !s->run, confirmed = !first && serial == (bool)s->serial;
  s->recheck = !confirmed                                   ? MEMCORO_ADAPT_RECHECK_FIRST
               : s->recheck >= MEMCORO_ADAPT_RECHECK_LAST ? MEMCORO_ADAPT_RECHECK_LAST
                                                          : 2 * s->recheck;
  s->serial = serial;
  s->run = serial ? 1 : s->best + 1;
  s->check_iters += s->iters;
  s->check_cycles += s->cycles;
  // The check's extra cost, in iterations run the chosen way.
  uint64_t chosen = serial ? s->serial_cpi : s->best_cpi, spent = chosen * s->check_iters / 1024;
  uint64_t overhead = s->check_cycles > spent ? s->check_cycles - spent : 0;
  uint64_t extra = chosen ? overhead / chosen * 1024 : 0;
  // The extra cost is floored by the check's length and capped at four times
  // it: a measurement that a preemption spoilt is mostly extra cost.
  uint64_t cap = 4 * s->check_iters;
  uint64_t floor = BUDGET_PER_CHECK * (extra < s->check_iters ? s->check_iters : extra > cap ? cap : extra);
  s->budget = s->recheck > floor ? s->recheck : floor;
  // And at most a few hundredths of a second's worth: an iteration that walks
  // a whole list serially costs 180K cycles, and 16 Ki of them would bind a
  // wrong decision for seconds.
  uint64_t longest = chosen ? (uint64_t)MAX_BUDGET_CYCLES * 1024 / chosen : s->budget;
  if (s->budget > longest)
    s->budget = longest > s->check_iters ? longest : s->check_iters;
  // A loop's first decision ran on whatever it found cold, and a reversal
  // rests on one measurement, which a preemption or a burst of another
  // process's traffic can spoil: either holds only for as long as its check
  // took, until a second check agrees.
  // The first decision is not a reversal: one that reverses it is
  // provisional too.
  bool provisional = first || (!confirmed && !s->reversing);
  s->reversing = provisional && !first;
  if (provisional)
    s->budget = s->check_iters;
  s->phase = RUN;
  if (__memcoro_adapt_tracing())
    fprintf(stderr, "memcoro-adapt %p: %s (serial %" PRIu64 ", best n %u %" PRIu64 " cycles per 1024 iterations), budget %" PRIu64 "\n",
            (void *)s, serial ? "serial" : "interleaved", s->serial_cpi, s->best, s->best_cpi, s->budget);
}

// Trials measured again before they count, once per check each (bits of
// s->retried). The cycle counter runs while the thread is preempted: on the
// shared machine trials of ptrchase at 1 GiB took 3-7x their time, and a
// climb that turned on one settled a step below the best n (0.83x of it) for
// the rest of the run; a real slowdown is slow twice. And a loop's very
// first trial runs on a cold cache and TLB: ptrchase's first trial at 64
// measured 1.3x what it runs at, and the climb settled at 48 as well. Either
// only makes a trial slower: the faster of its two measurements counts.
enum { RETRY_SLOWER_PERCENT = 150, RETRIED_SPOILT = 1, RETRIED_COLD = 2 };

// Where the data is near the core, the curve of cost over n is flat from the
// top of the ladder down to a few coroutines, and cheaper only there: hj at
// 1 MiB (its 1 MiB of entries in the L2) measured n = 64, 48 and 32 within
// 3% of each other and 1.3-1.5x the serial copy, and n = 4 0.9x it (AMAC's
// best width there is 4 too). A climb that stops on the plateau never sees
// the foot, so a check whose climb ended on a step within 3% of the best n
// (`flat`: more coroutines than that buy nothing), or without interleaving
// twice as fast as the serial loop, tries n = FOOT once; a better foot is
// climbed on from there (down first, as its n is below the start). The
// serial sample alone does not tell: hj's, taken right after interleaved
// windows, measured 2-3x its cost in one check of three on the shared
// machine and hid the plateau behind a wide margin. One trial of FEW_TRIAL
// iterations a check, and none where a serial iteration costs a few cycles
// (FOOT_SERIAL_CPI: nothing in it for a few coroutines to overlap, and a
// trial of such iterations is long to time: sssp's unreached vertices cost a
// cycle each) nor where the curve falls steeply to the top of the ladder
// (far data: few coroutines are slow). A foot that lost is tried again
// every FOOT_EVERY checks: where interleaving is 10% slower at every n, a
// foot in every check ran 3.8% of the loop's iterations interleaved, over
// the 3% the checks may cost (adapt_test). A loop's first check, which
// runs cold, does not try it: update at 1 GiB measured its pipeline at
// n = 128 2.3x the serial loop there (and 0.75x it warm), and n = 4 on a par
// with the serial loop.
enum { FOOT = FEW, FOOT_SERIAL_CPI = 16 * 1024, FOOT_EVERY = 4 };
static uint32_t foot(const struct memcoro_adapt *s, bool flat) {
  bool sampled = s->flags & MEMCORO_ADAPT_SAMPLE;
  bool near = sampled && s->best_cpi * WIDE_MARGIN >= s->serial_cpi;
  if (!(s->flags & MEMCORO_ADAPT_N) || !(near || flat) || (sampled && s->serial_cpi < FOOT_SERIAL_CPI) ||
      !s->run || s->jumped || s->foot_wait || s->best < 2 * FOOT || s->nmax < FOOT)
    return 0;
  return FOOT;
}

// A trial of n = s->trial has ended at `cpi`: climb on, turn, or decide.
static void after_trial(struct memcoro_adapt *s, uint64_t cpi) {
  uint32_t n = s->trial, next;
  // Interleaving a quarter slower than the serial loop at the usual n: the
  // data is near the core, and no n near the top will change that (nor a
  // warmer trial: the serial side of its pair ran as cold); the foot of the
  // ladder may (foot()).
  bool near_core = (s->flags & MEMCORO_ADAPT_SAMPLE) && cpi * 4 > s->serial_cpi * 5;
  // The foot is not: it is tried again every FOOT_EVERY checks anyway, and
  // where it loses it loses by far (bs at 1 MiB: n = 4 measured 3.5x and
  // then 5.5x the best n, 8% of the loop's run in the two).
  bool foot_trial = n == FOOT && s->jumped;
  uint16_t retry = s->best_cpi == UINT64_MAX ? (s->run || near_core ? 0 : RETRIED_COLD)
                   : cpi * 100 > s->best_cpi * RETRY_SLOWER_PERCENT && !foot_trial ? RETRIED_SPOILT
                                                                                   : 0;
  if (retry && !(s->retried & retry)) {
    s->retried |= retry;
    // A cold first trial paired with serial windows is paired again, warm,
    // and the warm pair alone counts: a bare trial on the next stretch would
    // compare unlike stretches again.
    if (retry == RETRIED_COLD && s->paired_iters) {
      pair(s);
      return;
    }
    s->retry_cpi = cpi < UINT32_MAX ? (uint32_t)cpi : UINT32_MAX;
    measure(s, TRIAL, n);
    return;
  }
  if (s->retry_cpi && s->retry_cpi < cpi)
    cpi = s->retry_cpi;
  s->retry_cpi = 0;
  // A foot better than the climb's best but not than the serial loop is not
  // climbed on: the next check would climb from there, and a pipeline's
  // cost is flat from 3 to 8 and falls only beyond (update at 1 GiB, whose
  // checks stayed at n = 6, 0.8x the top, after one such foot).
  bool beats_serial = !(s->flags & MEMCORO_ADAPT_SAMPLE) || better(cpi, s->serial_cpi);
  bool flat = false;
  if (s->best_cpi == UINT64_MAX) {
    s->best_cpi = cpi;
    if (near_core)
      next = 0;
    else if (!(next = step(s, n, true)))
      next = step(s, n, false);
  } else if (better(cpi, s->best_cpi) && !(foot_trial && !beats_serial)) {
    if (foot_trial)
      s->foot_wait = 0;
    s->best = n;
    s->best_cpi = cpi;
    s->flat = 0;
    next = step(s, n, n > s->start);
  } else {
    // Going up made it worse at once: try going down from the start.
    next = n > s->start && s->best == s->start ? step(s, s->start, false) : 0;
    flat = cpi * 100 <= s->best_cpi * (200 - BETTER_PERCENT);
    // Going down, one step within the noise of the best is not the end of
    // the descent: ptrchase at 1 MiB measured 64 and 48 within 3% of each
    // other, 32 3% and 16 10% faster than 64, and its climb stopped at 48
    // (the default ran at 0.87x of n = 16). Two such steps in a row end it:
    // where the curve is flat throughout, a descent to the foot of the
    // ladder ran 17% of a loop's iterations in trials (adapt_test). And
    // only while interleaving wins: a flat curve above the serial loop's
    // cost is the foot's to try (foot()).
    bool winning = !(s->flags & MEMCORO_ADAPT_SAMPLE) || better(s->best_cpi, s->serial_cpi);
    if (!next && flat && winning && n < s->start && !foot_trial && !s->flat++)
      next = step(s, n, false);
    if (foot_trial)
      s->foot_wait = FOOT_EVERY - 1;
  }
  if (!next && (next = foot(s, flat)))
    s->jumped = 1;
  // A check whose trials were not paired with serial windows (interleaving
  // won by far at the check before) pairs again when interleaving got much
  // slower than then: the data may have moved nearer the core.
  bool repair = (s->flags & MEMCORO_ADAPT_SAMPLE) && s->unsampled && s->best_cpi * 2 > s->last_cpi * 3;
  // The climb's trials ran on later stretches than the serial sample, which
  // was paired with the first trial only: a decision to interleave at
  // another n rests on a pair of its own, unless it wins by far. sssp at
  // 2^21 vertices lost to serial in the pair at 64 (32,715 against 33,840
  // cycles per 1024 iterations) and interleaved at 48 on a trial of the next
  // stretch (28,471), where interleaving runs at half the serial speed.
  bool unpaired = (s->flags & MEMCORO_ADAPT_SAMPLE) && !s->unsampled && s->best != s->start &&
                  better(s->best_cpi, s->serial_cpi) && s->best_cpi * WIDE_MARGIN >= s->serial_cpi;
  if (next)
    measure(s, TRIAL, next);
  else if (repair || unpaired)
    pair(s);
  else
    decide(s);
}

// A pipeline's windows start long enough for their drain to be a small part.
static uint64_t first_trial_window(const struct memcoro_adapt *s) {
  uint64_t per_slot = s->flags & MEMCORO_ADAPT_PIPELINE ? PER_SLOT : FIRST_TRIAL_WINDOW_PER_SLOT;
  return per_slot * (uint64_t)s->trial;
}

static bool trial_measured(const struct memcoro_adapt *s);
static bool serial_measured(const struct memcoro_adapt *s);

// The rest of the trial's quota (past it, as many iterations again as the
// measurement has: it was too short to time), in windows that double. A
// paired trial already measured waits for its serial side in short windows:
// sssp's unreached vertices cost a cycle each serially, and doubling trials
// ran 16 times the serial sample's 32 Ki iterations at 1.5x its cost.
static uint64_t remaining(const struct memcoro_adapt *s) {
  if (s->phase == PAIRED_TRIAL && trial_measured(s) && !serial_measured(s))
    return first_trial_window(s);
  uint64_t quota = trial_iters(s);
  uint64_t want = s->iters < quota ? quota - s->iters : s->iters;
  uint64_t ramp = s->iters > first_trial_window(s) ? s->iters : first_trial_window(s);
  return want < ramp ? want : ramp;
}

static bool long_enough(uint64_t iters, uint64_t cycles, uint64_t quota, uint64_t first) {
  return (iters >= quota && cycles >= MIN_CYCLES) || (cycles >= MAX_CYCLES && iters >= first);
}

static bool trial_measured(const struct memcoro_adapt *s) {
  return long_enough(s->iters, s->cycles, trial_iters(s), first_trial_window(s));
}

static bool serial_measured(const struct memcoro_adapt *s) {
  return long_enough(s->paired_iters, s->paired_cycles, MEMCORO_ADAPT_SAMPLE_ITERS, FIRST_SAMPLE_WINDOW);
}

// The next serial window of a pair keeps the serial iterations in proportion
// to the interleaved ones measured so far (MEMCORO_ADAPT_SAMPLE_ITERS to a
// trial's quota), and doubles once the trial is measured and the serial side
// is still too short to time (cache-resident data).
//
// Beyond that it keeps pace with the trial, growing at most PACE_GROWTH
// times a window: as many iterations as the trial has run, or as many cycles
// where the serial loop is the dearer way, so that both ways are measured on
// equal shares of the same stretch. With serial windows a sixteenth of the
// trial's, sssp at 2^21 vertices measured interleaving 10-35% faster than
// the serial loop in its early rounds, where it runs at 0.43-0.85x serial
// (`-mllvm -memcoro-adapt-force=interleaved`), and interleaved a tenth of
// its iterations (0.84-0.94x serial); paced by cycles alone, it still did.
enum { PACE_GROWTH = 8 };
static uint64_t serial_window(const struct memcoro_adapt *s) {
  uint64_t target = s->iters * MEMCORO_ADAPT_SAMPLE_ITERS / trial_iters(s);
  uint64_t window = target > s->paired_iters ? target - s->paired_iters : 0;
  if (s->paired_cycles && s->iters > s->paired_iters && s->cycles > s->paired_cycles) {
    uint64_t by_iters = s->iters - s->paired_iters;
    uint64_t by_cycles = (s->cycles - s->paired_cycles) * s->paired_iters / s->paired_cycles;
    uint64_t pace = by_iters < by_cycles ? by_iters : by_cycles, most = PACE_GROWTH * s->paired_iters;
    pace = pace < most ? pace : most;
    window = window > pace ? window : pace;
  }
  if (trial_measured(s) && window < s->paired_iters)
    window = s->paired_iters;
  return window > FIRST_SAMPLE_WINDOW ? window : FIRST_SAMPLE_WINDOW;
}

static void trace(const struct memcoro_adapt *s, uint32_t n, uint64_t iters, uint64_t cpi) {
  if (__memcoro_adapt_tracing())
    fprintf(stderr, "memcoro-adapt %p: n %u: %" PRIu64 " iterations, %" PRIu64 " cycles per 1024\n", (void *)s, n,
            iters, cpi);
}

// Both sides of a pair are measured: the serial cost, and the trial's.
static void end_pair(struct memcoro_adapt *s) {
  uint64_t cpi = s->cycles * 1024 / s->iters;
  s->serial_cpi = s->paired_cycles * 1024 / s->paired_iters;
  trace(s, 0, s->paired_iters, s->serial_cpi);
  trace(s, s->trial, s->iters, cpi);
  s->unsampled = 0;
  if (s->best_cpi == UINT64_MAX) {
    after_trial(s, cpi);
  } else {
    s->best_cpi = cpi;
    decide(s);
  }
}

// A measured window runs at least LEAST_WINDOW iterations where the cost of
// an iteration is known (from the windows the measurement has timed, else
// from the check before: `estimate`), or LEAST_WINDOW_CYCLES where they are
// long (a list walk each). A window of coroutines costs its first hundreds
// of iterations at up to twice their cost, whatever its length: hj at 1 MiB
// measured n = 4 at 88 cycles per iteration in trial windows of 32, 70 in
// windows of 512 and 36 in the long windows it then ran. Trial windows that
// started at 32 iterations and doubled put most of a trial in short ones,
// and the foot of the ladder never won a check. A pair's serial windows keep
// pace with the trial's (serial_window()), so they grow with them.
enum { LEAST_WINDOW = 1024, LEAST_WINDOW_CYCLES = 64 * 1024 };
static uint64_t least(uint64_t iters, uint64_t cycles, uint64_t estimate) {
  uint64_t cpi = iters && cycles ? cycles * 1024 / iters : estimate == UINT64_MAX ? 0 : estimate;
  if (!cpi)
    return 0;
  uint64_t by_cycles = (uint64_t)LEAST_WINDOW_CYCLES * 1024 / cpi;
  return by_cycles < LEAST_WINDOW ? by_cycles : LEAST_WINDOW;
}

static uint64_t at_least(uint64_t window, uint64_t floor) { return window > floor ? window : floor; }

// A trial of the climb that has run LEAST_WINDOW iterations at more than
// HOPELESS_PERCENT of the best n's cost ends there: the rest of its quota
// could not make it the better one, and a few coroutines on data near the
// core cost several times the best n (bs at 1 MiB: n = 4 ran 4096
// iterations at 3.5x, where 1024 said as much). A window of few coroutines
// may run its first iterations at twice its cost (trial_iters()), so the
// bar is above that.
enum { HOPELESS_PERCENT = 250 };
static bool trial_hopeless(const struct memcoro_adapt *s) {
  return s->best_cpi != UINT64_MAX && s->iters >= LEAST_WINDOW && s->cycles >= MIN_CYCLES &&
         s->cycles * 1024 * 100 > s->best_cpi * s->iters * HOPELESS_PERCENT;
}

static uint64_t decision(const struct memcoro_adapt *s) {
  switch (s->phase) {
  case PAIRED_SERIAL:
    return MEMCORO_ADAPT_DECISION(serial_window(s), 0);
  case PAIRED_TRIAL:
  case TRIAL:
    return MEMCORO_ADAPT_DECISION(
        at_least(remaining(s), least(s->iters, s->cycles, s->best_cpi != UINT64_MAX ? s->best_cpi : s->last_cpi)),
        s->trial);
  default:
    // The rest of the budget in one window: an execution that began measured
    // reads the cycle counter and calls here around every window, and in
    // windows of 16 Ki that cost sssp's cheap rounds (a cycle per unreached
    // vertex) about 3% of their time.
    return MEMCORO_ADAPT_DECISION(s->budget, s->serial ? 0 : s->best);
  }
}

// What two back-to-back reads of the cycle counter measure: the least of a
// few, as the loop's own reads sit at a window's two ends.
uint64_t __memcoro_counter_overhead(void) {
  uint64_t least = UINT64_MAX;
  for (int i = 0; i < 4; ++i) {
    uint64_t t0 = __builtin_readcyclecounter();
    uint64_t t1 = __builtin_readcyclecounter();
    if (t1 - t0 < least)
      least = t1 - t0;
  }
  return least;
}

uint64_t __memcoro_adapt_begin(struct memcoro_adapt *s, uint32_t flags, uint32_t n0, uint32_t nmax) {
  if (nmax > 255)
    nmax = 255;
  if (n0 > nmax)
    n0 = nmax;
  if (n0 == 0)
    n0 = 1;
  if (s->phase == FRESH || s->flags != flags || s->n0 != n0 || s->nmax != nmax) {
    *s = (struct memcoro_adapt){.flags = flags, .n0 = n0, .nmax = nmax, .best = n0, .overhead = __memcoro_counter_overhead()};
    start_check(s);
  } else if (s->phase == RUN && s->budget == 0) {
    start_check(s);
  }
  return decision(s);
}

uint64_t __memcoro_adapt_next(struct memcoro_adapt *s, uint64_t iters, uint64_t cycles) {
  uint64_t net = cycles > s->overhead ? cycles - s->overhead : 0;
  switch (s->phase) {
  case PAIRED_SERIAL:
  case PAIRED_TRIAL:
    if (s->phase == PAIRED_SERIAL) {
      s->paired_iters += iters;
      s->paired_cycles += net;
      s->check_iters += iters;
      s->check_cycles += net;
    } else {
      s->iters += iters;
      s->cycles += net;
    }
    if (serial_measured(s) && trial_measured(s))
      end_pair(s);
    else
      s->phase = s->phase == PAIRED_SERIAL ? PAIRED_TRIAL : PAIRED_SERIAL;
    break;
  case TRIAL:
    s->iters += iters;
    s->cycles += net;
    if (trial_measured(s) || trial_hopeless(s)) {
      uint64_t cpi = s->cycles * 1024 / s->iters;
      trace(s, s->trial, s->iters, cpi);
      after_trial(s, cpi);
    }
    break;
  default:
    s->budget -= iters < s->budget ? iters : s->budget;
    if (s->budget == 0)
      start_check(s);
    break;
  }
  return decision(s);
}
