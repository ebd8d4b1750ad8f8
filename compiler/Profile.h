//===- Profile.h - memcoro's access-latency profile: sites and file -*- C++ -*-===//
//
// What the profile-generate pass (ProfileInstrument.cpp) and the plan's
// profile-use step (split/SplitProfile.cpp) agree on: how a candidate
// suspension point is named so that two builds of the same source find it
// again (function, loop and access by source place, never by address), and
// the text file that carries the samples from the instrumented run to the
// next build. The format is documented in docs/compiler.md, "Profile-guided
// suspension points". Private to the compiler plugin.
//
//===----------------------------------------------------------------------===//
#ifndef MEMCORO_COMPILER_PROFILE_H
#define MEMCORO_COMPILER_PROFILE_H

#include "RemoteAccesses.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace llvm {
class Function;
class Loop;
} // namespace llvm

namespace memcoro {

/// A candidate suspension point's name in a profile: `function loop kind
/// access ordinal`, e.g. `main 12:3 load 13:22 0` (places are line:column;
/// the ordinal tells apart the loop's candidates of one kind at one place).
struct ProfileSite {
  std::string Function;
  unsigned LoopLine = 0, LoopColumn = 0;
  llvm::StringRef Kind; ///< "load", "store" or "atomic"
  unsigned Line = 0, Column = 0;
  unsigned Ordinal = 0;

  /// `function loopline:col`: every site of one loop starts with it.
  std::string loopKey() const;
  std::string key() const;
};

/// The sites of the marked loop \p L's candidates, in their order. Both
/// builds compute them at the same point of the same pipeline (memcoro-split's
/// position), from the same IR, so the names agree.
llvm::SmallVector<ProfileSite, 8> profileSites(const llvm::Function &F, const llvm::Loop &L,
                                               llvm::ArrayRef<RemoteAccess> Candidates);

/// One site's line of the profile.
struct SiteSamples {
  uint64_t Samples = 0;
  /// How often the access ran.
  uint64_t Executions = 0;
  /// Fraction of the samples above the profile's miss threshold.
  double MissFraction = 0;
  double MeanNs = 0;
  /// Mean latency of the samples counted as misses.
  double MeanMissNs = 0;
};

/// One loop's line of the profile: its serial time, sampling excluded.
struct LoopSamples {
  uint64_t Entries = 0;
  double SerialNs = 0;
};

/// A profile file as read: its sites by key, the loops they belong to, or
/// what is wrong with it.
struct AccessProfile {
  std::string Path;
  /// Empty when the file was read; otherwise why it was ignored.
  std::string Error;
  double MissThresholdNs = 0;
  llvm::StringMap<SiteSamples> Sites;
  llvm::StringMap<unsigned> SitesPerLoop;
  /// By ProfileSite::loopKey().
  llvm::StringMap<LoopSamples> Loops;
};

/// The profile at \p Path, read once per process.
const AccessProfile &readAccessProfile(llvm::StringRef Path);

} // namespace memcoro

#endif // MEMCORO_COMPILER_PROFILE_H
