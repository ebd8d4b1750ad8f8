//===- Profile.cpp - naming candidate accesses, reading profile files -----===//
//
// Site names and the text profile of -fmemcoro-profile-generate/-use (see
// Profile.h). A file is read whole; a line that does not parse makes the
// whole file garbage (reported once, as a warning, by the use step), since a
// half-read profile would silently turn off suspension points.
//
//   memcoro-profile 1
//   miss-threshold-ns 20.0
//   site main 12:3 load 13:22 0 3103 198592 0.0003 0.0 120.2
//   loop main 12:3 1 3500000
//
//===----------------------------------------------------------------------===//
#include "Profile.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/DebugLoc.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/MemoryBuffer.h"

#include <map>
#include <memory>
#include <tuple>

using namespace llvm;
using namespace memcoro;

std::string ProfileSite::loopKey() const {
  return Function + " " + utostr(LoopLine) + ":" + utostr(LoopColumn);
}

std::string ProfileSite::key() const {
  return loopKey() + " " + Kind.str() + " " + utostr(Line) + ":" + utostr(Column) + " " + utostr(Ordinal);
}

SmallVector<ProfileSite, 8> memcoro::profileSites(const Function &F, const Loop &L,
                                                  ArrayRef<RemoteAccess> Candidates) {
  DebugLoc LoopLoc = L.getStartLoc();
  std::map<std::tuple<StringRef, unsigned, unsigned>, unsigned> Seen;
  SmallVector<ProfileSite, 8> Sites;
  for (const RemoteAccess &RA : Candidates) {
    ProfileSite S;
    S.Function = F.getName().str();
    S.LoopLine = LoopLoc ? LoopLoc.getLine() : 0;
    S.LoopColumn = LoopLoc ? LoopLoc.getCol() : 0;
    S.Kind = isa<LoadInst>(RA.Access) ? "load" : isa<StoreInst>(RA.Access) ? "store" : "atomic";
    if (const DebugLoc &Loc = RA.Access->getDebugLoc()) {
      S.Line = Loc.getLine();
      S.Column = Loc.getCol();
    }
    S.Ordinal = Seen[{S.Kind, S.Line, S.Column}]++;
    Sites.push_back(std::move(S));
  }
  return Sites;
}

namespace {

bool parsePlace(StringRef Text, unsigned &Line, unsigned &Column) {
  auto [L, C] = Text.split(':');
  return !L.getAsInteger(10, Line) && !C.getAsInteger(10, Column);
}

/// Fills \p P from \p Text, or says in P.Error what is wrong.
void parseProfile(StringRef Text, AccessProfile &P) {
  SmallVector<StringRef, 0> Lines;
  Text.split(Lines, '\n');
  bool SawHeader = false;
  for (unsigned N = 0; N < Lines.size(); ++N) {
    StringRef Line = Lines[N].trim();
    if (Line.empty() || Line.starts_with("#"))
      continue;
    SmallVector<StringRef, 12> F;
    Line.split(F, ' ', -1, /*KeepEmpty=*/false);
    auto bad = [&](const Twine &What) {
      P.Error = ("line " + Twine(N + 1) + ": " + What).str();
      P.Sites.clear();
      P.SitesPerLoop.clear();
    };
    if (!SawHeader) {
      if (F.size() != 2 || F[0] != "memcoro-profile" || F[1] != "1")
        return bad("not a memcoro profile (the first line must be 'memcoro-profile 1')");
      SawHeader = true;
      continue;
    }
    if (F[0] == "miss-threshold-ns") {
      if (F.size() != 2 || F[1].getAsDouble(P.MissThresholdNs))
        return bad("miss-threshold-ns takes one number");
      continue;
    }
    ProfileSite S;
    if (F[0] == "loop") {
      LoopSamples Loop;
      if (F.size() != 5 || !parsePlace(F[2], S.LoopLine, S.LoopColumn) || F[3].getAsInteger(10, Loop.Entries) ||
          F[4].getAsDouble(Loop.SerialNs) || Loop.SerialNs < 0)
        return bad("malformed loop '" + Line + "'");
      S.Function = F[1].str();
      // Copies of one loop (versioned, unswitched) have one line each.
      LoopSamples &Sum = P.Loops[S.loopKey()];
      Sum.Entries += Loop.Entries;
      Sum.SerialNs += Loop.SerialNs;
      continue;
    }
    SiteSamples Samples;
    if (F[0] != "site" || F.size() != 11)
      return bad("expected 'site function loop kind access ordinal samples executions miss-fraction mean-ns "
                 "mean-miss-ns' or 'loop function place entries serial-ns'");
    S.Function = F[1].str();
    S.Kind = F[3];
    if (!parsePlace(F[2], S.LoopLine, S.LoopColumn) || !parsePlace(F[4], S.Line, S.Column) ||
        F[5].getAsInteger(10, S.Ordinal) || F[6].getAsInteger(10, Samples.Samples) ||
        F[7].getAsInteger(10, Samples.Executions) || F[8].getAsDouble(Samples.MissFraction) ||
        F[9].getAsDouble(Samples.MeanNs) || F[10].getAsDouble(Samples.MeanMissNs) || !(S.Kind == "load" || S.Kind == "store" || S.Kind == "atomic") ||
        Samples.MissFraction < 0 || Samples.MissFraction > 1 || Samples.MeanNs < 0 || Samples.MeanMissNs < 0)
      return bad("malformed site '" + Line + "'");
    P.Sites[S.key()] = Samples;
    ++P.SitesPerLoop[S.loopKey()];
  }
  if (!SawHeader)
    P.Error = "empty file, not a memcoro profile";
}

} // namespace

const AccessProfile &memcoro::readAccessProfile(StringRef Path) {
  // One compilation reads one profile; keep every one asked for, keyed by path.
  static StringMap<std::unique_ptr<AccessProfile>> Read;
  std::unique_ptr<AccessProfile> &P = Read[Path];
  if (P)
    return *P;
  P = std::make_unique<AccessProfile>();
  P->Path = Path.str();
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer = MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buffer)
    P->Error = "cannot read it: " + Buffer.getError().message();
  else
    parseProfile((*Buffer)->getBuffer(), *P);
  return *P;
}
