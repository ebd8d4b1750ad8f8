//===- PragmaPlugin.cpp - the #pragma memcoro front end ---------*- C++ -*-===//
//
// A Clang plugin (MemcoroPragma.so) that reads
//
//   #pragma memcoro parallel(N) remote(p, q)      or   _Pragma("memcoro ...")
//   for (HEADER) BODY
//
// and, inside BODY, `#pragma memcoro ordered` before a statement (an ordered
// region: it runs in iteration order),
// checks it, and leaves a marker inside the loop that survives to IR, where
// the memcoro-mark pass turns it into loop metadata:
//
//   for (HEADER)
//     if (((void)__builtin_annotation((unsigned long)(p), "memcoro.remote p"),
//          (void)__builtin_annotation((unsigned long)(q), "memcoro.remote q"),
//          (void)__builtin_annotation((int)(N), "memcoro.loop"), 0)) {}
//     else BODY
//
// An ordered region's statement gets the same kind of prefix:
//
//   if (((void)__builtin_annotation((int)(0), "memcoro.ordered"), 0)) {}
//   else STATEMENT
//
// The `if (...) {} else` goes between the loop head and its body so that the
// `for` stays the statement after an OpenMP directive and `break`/`continue`
// stay bound to the loop. Each remote annotation carries the location of its
// name, the loop annotation that of the pragma; N is `0` when parallel() is
// absent. With -fplugin-arg-memcoro-disable (what `memcoro-cc -fno-memcoro`
// passes) every annotation sits inside an unevaluated `sizeof`, so the
// diagnostics stay the same and no IR is emitted for them.
//
// Checked while preprocessing: clause syntax, duplicates, the names in
// remote() (by lookup in the parser's current scope), the `for`. Checked on
// the AST, where templates are instantiated: that N is an integer constant
// expression in 1..1024, the types of remote() names that were dependent, and
// that an ordered region sits in a marked loop's body and not in another
// ordered region.
//
// Run it alone:
//   clang -fplugin=build/lib/MemcoroPragma.so -Xclang -disable-llvm-passes \
//         -S -emit-llvm -o - x.c
//
//===----------------------------------------------------------------------===//
#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/Builtins.h"
#include "clang/Basic/CharInfo.h"
#include "clang/Basic/DiagnosticParse.h"
#include "clang/Basic/DiagnosticSema.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Sema/Lookup.h"
#include "clang/Sema/Scope.h"
#include "clang/Sema/Sema.h"
#include "clang/Sema/SemaConsumer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"

#include <memory>
#include <optional>
#include <tuple>
#include <utility>

using namespace clang;

namespace {

/// The largest parallel(N) accepted: the coroutine slots of one loop are
/// allocated on the stack, so N bounds the frame the split loop needs.
constexpr int64_t MaxParallel = 1024;

/// The strings the marking pass looks for in llvm.annotation calls.
constexpr llvm::StringLiteral LoopMarker = "memcoro.loop";
constexpr llvm::StringLiteral RemoteMarker = "memcoro.remote";
/// Appended to LoopMarker, then the operators: " reassoc +*".
constexpr llvm::StringLiteral ReassocSuffix = " reassoc ";
/// Appended last to LoopMarker for the `insist` clause.
constexpr llvm::StringLiteral InsistSuffix = " insist";
constexpr llvm::StringLiteral OrderedMarker = "memcoro.ordered";

/// Whether \p Text is a loop marker, with or without its suffixes.
bool isLoopMarker(llvm::StringRef Text) {
  return Text == LoopMarker || Text.starts_with((LoopMarker + " ").str());
}

/// Every diagnostic memcoro's front end can emit, registered once per
/// compilation. Messages name the construct in the user's words.
struct MemcoroDiags {
  unsigned UnknownClause, ExpectedClause, ExpectedLParen, ExpectedRParen,
      ExpectedExpr, ParallelComma, ExpectedName, ExpectedMember,
      ExpectedCommaOrRParen, DuplicateClause, DuplicateName, PreviousHere,
      Undeclared, NotPointer, NotVariable, NotFor, NotInteger,
      ReductionOperator, ReductionColon, ReductionName,
      ReductionCommaOrRParen, ReductionUndeclared, ReductionNotVariable,
      NotConstant, OutOfRange, InInstantiation, UnknownPluginArg,
      OrderedTrailing, OrderedNoStatement, OrderedOutside, OrderedNested,
      OrderedEnclosing;

  explicit MemcoroDiags(DiagnosticsEngine &D) {
    using L = DiagnosticsEngine::Level;
    auto Err = [&]<size_t N>(const char(&Msg)[N]) {
      return D.getCustomDiagID(L::Error, Msg);
    };
    auto Note = [&]<size_t N>(const char(&Msg)[N]) {
      return D.getCustomDiagID(L::Note, Msg);
    };
    UnknownClause = Err("unknown clause '%0' in '#pragma memcoro'; expected "
                        "'parallel', 'remote', 'reduction' or 'insist'");
    ExpectedClause = Err("expected a clause ('parallel', 'remote', "
                         "'reduction' or 'insist') in '#pragma memcoro'");
    ExpectedLParen = Err("expected '(' after '%0' in '#pragma memcoro'");
    ExpectedRParen = Err("expected ')' to close '%0(' in '#pragma memcoro'");
    ExpectedExpr = Err("expected an expression in 'parallel()'");
    ParallelComma = Err("'parallel()' takes one expression, not a list");
    ExpectedName = Err("expected the name of a pointer or array in 'remote()'");
    ExpectedMember = Err("expected a member name after '%0' in 'remote()'");
    ExpectedCommaOrRParen =
        Err("expected ',' or ')' after a name in 'remote()'");
    DuplicateClause = Err("duplicate '%0' clause in '#pragma memcoro'");
    DuplicateName = Err("'%0' appears twice in 'remote()'");
    PreviousHere = Note("first given here");
    Undeclared = Err("use of undeclared identifier '%0' in 'remote()'");
    NotPointer = Err("'%0' in 'remote()' is not a pointer or array: it has "
                     "type %1");
    NotVariable = Err("'%0' in 'remote()' is not a variable; expected a "
                      "pointer or array");
    NotFor = Err("'#pragma memcoro' must be followed by a 'for' or 'while' loop");
    NotInteger = Err("'parallel()' needs an integer, not an expression of "
                     "type %0");
    NotConstant = Err("'parallel()' needs an integer constant expression");
    OutOfRange = Err("parallel(%0) is out of range: the number of iterations "
                     "in flight must be in 1..1024");
    InInstantiation = Note("in instantiation of %0 requested here");
    UnknownPluginArg = Err("unknown argument '%0' for the memcoro plugin; "
                           "the only one is 'disable'");
    ReductionOperator = Err("expected a reduction operator ('+', '-', '*', "
                            "'&', '|', '^', '&&', '||', 'min' or 'max') in "
                            "'reduction()'");
    ReductionColon = Err("expected ':' after the operator in 'reduction()'");
    ReductionName = Err("expected the name of a variable in 'reduction()'");
    ReductionCommaOrRParen =
        Err("expected ',' or ')' after a name in 'reduction()'");
    ReductionUndeclared =
        Err("use of undeclared identifier '%0' in 'reduction()'");
    ReductionNotVariable =
        Err("'%0' in 'reduction()' is not a variable");
    OrderedTrailing = Err("'#pragma memcoro ordered' takes no clauses; "
                          "unexpected '%0'");
    OrderedNoStatement = Err("'#pragma memcoro ordered' must be followed by "
                             "a statement");
    OrderedOutside = Err("'#pragma memcoro ordered' must be inside the body "
                         "of a loop marked with '#pragma memcoro'");
    OrderedNested = Err("'#pragma memcoro ordered' inside another ordered "
                        "region of the same loop");
    OrderedEnclosing = Note("the enclosing ordered region starts here");
  }
};

/// The clauses of one pragma, as tokens to be re-injected.
struct Clauses {
  SourceLocation ParallelLoc; ///< invalid when parallel() is absent
  llvm::SmallVector<Token, 8> ParallelExpr;
  SourceLocation RemoteLoc; ///< invalid when remote() is absent
  /// Each a name, or a member path `a.b`, `p->q`, `this->m`, as tokens.
  llvm::SmallVector<llvm::SmallVector<Token, 1>, 4> RemoteNames;
  /// How the marker reaches each name's elements: as it is (a pointer or
  /// array), through `.data()`, or through `&(...)[0]` (a container).
  /// Deferred: a member declared after the member function whose body is
  /// lexed ahead of parsing, its type unknown here (see appendMarker).
  enum class Form { AsIs, Data, Subscript, Deferred };
  llvm::SmallVector<Form, 4> RemoteForms;
  SourceLocation PragmaLoc; ///< `#` of #pragma, or `_Pragma`
  /// Any of "+", "*" and "m" (min, max): the floating-point reductions whose reassociation the
  /// pragma's own reduction() clauses, or those of the OpenMP directive
  /// before it, permit.
  std::string ReductionOps;
  /// The variables named in the pragma's reduction() clauses, checked to be
  /// declared; the permission is the operator's, as for OpenMP's clause.
  llvm::SmallVector<Token, 2> ReductionNames;
  /// `insist`: every remote access is a suspension point, whatever memcoro's
  /// cost model says; invalid when absent.
  SourceLocation InsistLoc;
  /// The loops an OpenMP `collapse(k)` beside the pragma makes one: the
  /// marker goes into the body of the k-th loop of the nest.
  unsigned Collapse = 1;
};

/// The text after `#pragma omp` of the directive on the line(s) right before
/// \p PragmaLoc, or "" when that is no OpenMP directive, read from the source
/// text: with -fopenmp the parser has consumed that directive, without it the
/// directive is an ignored pragma, and its clauses mean the same either way.
/// Blank lines, comment lines and the opening of a conditional that holds
/// the pragma (`#ifdef USE_MEMCORO`) may come between: what lies above the
/// opening is as active as the pragma itself. A closing `#endif` may not (the
/// directive above it may be one the preprocessor skipped).
std::string precedingOpenMPDirective(const SourceManager &SM, SourceLocation PragmaLoc) {
  if (PragmaLoc.isMacroID())
    return "";
  auto [File, Offset] = SM.getDecomposedLoc(PragmaLoc);
  StringRef Text = SM.getBufferData(File);
  size_t LineStart = Text.rfind('\n', Offset); // rfind looks strictly before Offset
  if (LineStart == StringRef::npos || !Text.slice(LineStart + 1, Offset).trim().empty())
    return "";
  // The logical line ending at End: physical lines joined where the one
  // before ends in a backslash. End moves to the start of it.
  auto logicalLineBefore = [&](size_t &End) {
    std::string Line;
    while (End != StringRef::npos && End > 0) {
      size_t Start = Text.rfind('\n', End);
      StringRef Physical = Text.slice(Start == StringRef::npos ? 0 : Start + 1, End).rtrim();
      End = Start;
      Line = (Physical.ends_with("\\") ? Physical.drop_back() : Physical).str() + " " + Line;
      if (Start == StringRef::npos || !Text.slice(0, Start).rtrim().ends_with("\\"))
        break;
    }
    return StringRef(Line).trim().str();
  };
  auto opensConditional = [](StringRef Line) {
    if (!Line.consume_front("#"))
      return false;
    Line = Line.ltrim();
    return Line.starts_with("ifdef") || Line.starts_with("ifndef") ||
           (Line.starts_with("if") && (Line.size() == 2 || !isalnum(Line[2])));
  };
  size_t End = LineStart;
  std::string Directive;
  while (End != StringRef::npos && End > 0) {
    Directive = logicalLineBefore(End);
    if (!Directive.empty() && !StringRef(Directive).starts_with("//") && !opensConditional(Directive))
      break;
  }
  StringRef D = Directive;
  // The operator form, `_Pragma("omp parallel for reduction(max : mx)")`.
  if (D.consume_front("_Pragma")) {
    D = D.ltrim();
    if (!D.consume_front("("))
      return "";
    D = D.ltrim();
    if (!D.consume_front("\""))
      return "";
    D = D.take_until([](char C) { return C == '"'; }).trim();
    return D.starts_with("omp") ? D.drop_front(3).str() : "";
  }
  if (!D.consume_front("#"))
    return "";
  D = D.ltrim();
  if (!D.consume_front("pragma") || !D.ltrim().starts_with("omp"))
    return "";
  return D.ltrim().drop_front(3).str();
}

/// k of a `collapse(k)` clause in an OpenMP directive's text, or 1.
unsigned collapseDepth(StringRef D) {
  size_t At = D.find("collapse");
  if (At == StringRef::npos)
    return 1;
  StringRef Clause = D.drop_front(At + strlen("collapse")).ltrim();
  unsigned K = 1;
  if (!Clause.consume_front("(") || Clause.ltrim().consumeInteger(10, K) || K < 1 || K > 8)
    return 1;
  return K;
}

/// The reduction operators of an OpenMP directive's `reduction(op: list)`
/// clauses, which permit reassociating those reductions. "+" stands for + and
/// -, which reassociate alike, "m" for min and max (a floating-point minimum
/// then ignores which of two equal zeros came first).
std::string openmpReductionOps(StringRef D) {
  std::string Ops;
  for (size_t At = D.find("reduction"); At != StringRef::npos; At = D.find("reduction", At + 1)) {
    StringRef Clause = D.drop_front(At + strlen("reduction")).ltrim();
    if (!Clause.consume_front("("))
      continue;
    Clause = Clause.take_until([](char C) { return C == ':'; });
    // reduction([modifier,] op: list): the operator follows the last comma.
    StringRef Op = Clause.rsplit(',').second.empty() ? Clause.trim() : Clause.rsplit(',').second.trim();
    char Kind = Op == "+" || Op == "-" ? '+' : Op == "*" ? '*' : Op == "min" || Op == "max" ? 'm' : 0;
    if (Kind && Ops.find(Kind) == std::string::npos)
      Ops += Kind;
  }
  return Ops;
}

/// Records that floating-point reductions by \p Kind ('+', '*', or 'm' for
/// min and max) may be reassociated.
void addReductionOp(Clauses &C, char Kind) {
  if (C.ReductionOps.find(Kind) == std::string::npos)
    C.ReductionOps += Kind;
}

/// What an OpenMP directive beside the pragma (its text after `omp`) says
/// of the loop: the reductions it permits to reassociate, and the loops its
/// `collapse(k)` makes one.
void addOpenMPClauses(Clauses &C, StringRef Directive) {
  for (char Op : openmpReductionOps(Directive))
    addReductionOp(C, Op);
  C.Collapse = std::max(C.Collapse, collapseDepth(Directive));
}

/// What the pragma handler and the AST checker of one compilation share.
struct FrontendState {
  explicit FrontendState(DiagnosticsEngine &D) : Diags(D), Ids(D) {}
  DiagnosticsEngine &Diags;
  MemcoroDiags Ids;
  /// Set by memcoro-cc -fno-memcoro: check everything, emit no marker.
  bool Disabled = false;
  /// The parser's Sema while it runs; remote() names are looked up in it.
  Sema *S = nullptr;
  /// Clauses read by the memcoro handler, waiting for the loop-head handler.
  llvm::SmallVector<Clauses, 1> Pending;
  /// Lets the AST checker skip translation units without a pragma.
  bool SawPragma = false;
  /// Where the `0` that stands for an absent parallel() was placed; the AST
  /// checker accepts exactly these zeros.
  llvm::DenseSet<SourceLocation> AbsentParallel;
  /// What the AST checker already reported (location/diagnostic/arguments).
  llvm::StringSet<> Reported;
  /// Where OpenMPOrderedWatcher put an ordered region's marker for a
  /// `#pragma omp ordered`: a region only inside a marked loop's body, and
  /// never an error of memcoro's.
  llvm::DenseSet<SourceLocation> OpenMPOrdered;

  DiagnosticBuilder report(SourceLocation Loc, unsigned Id) {
    return Diags.Report(Loc, Id);
  }
};

/// The state of each compilation the plugin action runs in, by its
/// preprocessor. The pragma handlers are created by clang for every
/// preprocessor (PragmaHandlerRegistry), also for -E, where no action runs.
llvm::DenseMap<const Preprocessor *, FrontendState *> &activeStates() {
  static llvm::DenseMap<const Preprocessor *, FrontendState *> States;
  return States;
}

FrontendState *stateFor(const Preprocessor &PP) {
  return activeStates().lookup(&PP);
}

/// The memcoro handler while -E hands a pragma to clang's printer.
PragmaHandler *&parkedHandler() {
  static PragmaHandler *Parked = nullptr;
  return Parked;
}

/// A keyword or punctuator is read by its kind: a bare token placed at the
/// location the marker stands for is enough.
Token bareToken(tok::TokenKind K, SourceLocation Loc) {
  Token T;
  T.startToken();
  T.setKind(K);
  T.setLocation(Loc);
  return T;
}

/// A literal needs real spelling, which the parser reads back: it gets its
/// own scratch location, expanded at Loc.
Token literal(Preprocessor &PP, StringRef Spelling, tok::TokenKind K,
              SourceLocation Loc) {
  Token T;
  T.startToken();
  T.setKind(K);
  PP.CreateString(Spelling, T, Loc, Loc);
  return T;
}

/// A remote() path as written, for diagnostics and remarks: `t.entries`, `this->rows`.
std::string spell(llvm::ArrayRef<Token> Path) {
  std::string Text;
  for (const Token &T : Path)
    Text += T.is(tok::period)    ? "."
            : T.is(tok::arrow)   ? "->"
            : T.is(tok::kw_this) ? "this"
                                 : T.getIdentifierInfo()->getName().str();
  return Text;
}

/// Ignores the warnings \p Ids for the text of a pragma, once per pragma:
/// the diagnostic states of a file go by increasing location.
void quietWarnings(Preprocessor &PP, llvm::ArrayRef<unsigned> Ids,
                   SourceLocation PragmaLoc, SourceLocation EodLoc) {
  SourceManager &SM = PP.getSourceManager();
  SourceLocation Begin = SM.getExpansionRange(PragmaLoc).getBegin();
  SourceLocation End = Lexer::getLocForEndOfToken(
      SM.getExpansionRange(EodLoc).getEnd(), 0, SM, PP.getLangOpts());
  if (Begin.isInvalid() || End.isInvalid() ||
      SM.getFileID(Begin) != SM.getFileID(End))
    return;
  DiagnosticsEngine &D = PP.getDiagnostics();
  D.pushMappings(Begin);
  for (unsigned Id : Ids)
    D.setSeverity(Id, diag::Severity::Ignored, Begin);
  D.popMappings(End);
}

/// An ordered region's marker: `if (c) #pragma ... ordered S` is `if (c)
/// if (marker) {} else S`, which the user did not write (no -Wdangling-else
/// for it), and its C-style casts (see quietOldStyleCasts).
void quietOrderedMarker(Preprocessor &PP, SourceLocation PragmaLoc,
                        SourceLocation EodLoc) {
  if (PP.getLangOpts().CPlusPlus)
    quietWarnings(PP, {diag::warn_dangling_else, diag::warn_old_style_cast},
                  PragmaLoc, EodLoc);
  else
    quietWarnings(PP, diag::warn_dangling_else, PragmaLoc, EodLoc);
}

/// The marker's C-style casts all sit at locations within the pragma (or
/// within the macro invocation that produced a _Pragma); a C++ user with
/// -Wold-style-cast should not hear about them. The same as
/// `#pragma clang diagnostic push/ignored/pop` around that text.
void quietOldStyleCasts(Preprocessor &PP, SourceLocation PragmaLoc,
                        SourceLocation EodLoc) {
  if (PP.getLangOpts().CPlusPlus)
    quietWarnings(PP, diag::warn_old_style_cast, PragmaLoc, EodLoc);
}

/// Reads `#pragma memcoro CLAUSES` up to the end of the directive, and
/// hands the loop that follows to LoopHeadHandler through an internal
/// `_Pragma("__memcoro_loop")`. Reading past the end of the directive right
/// here would run the file's lexer to the next tokens while that lexer is
/// still in the middle of the directive; at the end of a file it is then
/// destroyed under its own feet. The re-entered _Pragma runs after the
/// directive is done, from a token stream, where lexing on is safe.
class MemcoroPragmaHandler : public PragmaHandler {
public:
  MemcoroPragmaHandler() : PragmaHandler("memcoro") {}

  void HandlePragma(Preprocessor &PP, PragmaIntroducer Introducer,
                    Token &FirstToken) override {
    State = stateFor(PP);
    if (!State) {
      if (PP.isPreprocessedOutput())
        printExpanded(PP);
      else
        discardDirective(PP);
      return;
    }
    State->SawPragma = true;
    Clauses C;
    C.PragmaLoc = Introducer.Loc;
    Token Tok;
    PP.Lex(Tok);
    if (Tok.is(tok::identifier) &&
        Tok.getIdentifierInfo()->getName() == "ordered") {
      handleOrdered(PP, Tok, Introducer.Loc);
      return;
    }
    if (!parseClauses(PP, Tok, C)) {
      while (Tok.isNot(tok::eod) && Tok.isNot(tok::eof))
        PP.Lex(Tok);
      return;
    }
    addOpenMPClauses(C, precedingOpenMPDirective(PP.getSourceManager(), Introducer.Loc));
    State->Pending.push_back(std::move(C));
    quietOldStyleCasts(PP, Introducer.Loc, Tok.getLocation());
    auto Toks = std::make_unique<Token[]>(4);
    Toks[0] = bareToken(tok::identifier, Introducer.Loc);
    Toks[0].setIdentifierInfo(PP.getIdentifierInfo("_Pragma"));
    Toks[1] = bareToken(tok::l_paren, Introducer.Loc);
    Toks[2] =
        literal(PP, "\"__memcoro_loop\"", tok::string_literal, Introducer.Loc);
    Toks[3] = bareToken(tok::r_paren, Introducer.Loc);
    PP.EnterTokenStream(std::move(Toks), 4, /*DisableMacroExpansion=*/false,
                        /*IsReinject=*/false);
  }

private:
  FrontendState *State = nullptr;

  DiagnosticBuilder diag(SourceLocation Loc, unsigned Id) {
    return State->report(Loc, Id);
  }

  /// `#pragma memcoro ordered`: nothing may follow on the line; the
  /// statement after it is OrderedHandler's to mark, once the directive is
  /// done (see the class comment for why not here).
  void handleOrdered(Preprocessor &PP, Token &Tok, SourceLocation PragmaLoc) {
    SourceLocation OrderedLoc = Tok.getLocation();
    PP.Lex(Tok);
    if (Tok.isNot(tok::eod)) {
      diag(Tok.getLocation(), State->Ids.OrderedTrailing)
          << PP.getSpelling(Tok);
      while (Tok.isNot(tok::eod) && Tok.isNot(tok::eof))
        PP.Lex(Tok);
      return;
    }
    quietOrderedMarker(PP, PragmaLoc, Tok.getLocation());
    auto Toks = std::make_unique<Token[]>(4);
    Toks[0] = bareToken(tok::identifier, OrderedLoc);
    Toks[0].setIdentifierInfo(PP.getIdentifierInfo("_Pragma"));
    Toks[1] = bareToken(tok::l_paren, OrderedLoc);
    Toks[2] =
        literal(PP, "\"__memcoro_ordered\"", tok::string_literal, OrderedLoc);
    Toks[3] = bareToken(tok::r_paren, OrderedLoc);
    PP.EnterTokenStream(std::move(Toks), 4, /*DisableMacroExpansion=*/false,
                        /*IsReinject=*/false);
  }

  static void discardDirective(Preprocessor &PP) {
    Token Tok;
    do
      PP.Lex(Tok);
    while (Tok.isNot(tok::eod) && Tok.isNot(tok::eof));
  }

  /// -E: the output must keep the pragma, with its macros expanded (the
  /// #defines are gone from the output, and -save-temps or distcc compile
  /// it later). Clang's printer writes unknown pragmas as they stand, so
  /// this handler steps aside and re-enters the expanded text as
  /// `_Pragma("memcoro ...")` for the printer, then
  /// `_Pragma("__memcoro_restore")`, which puts the handler back.
  void printExpanded(Preprocessor &PP) {
    std::string Text = "memcoro";
    Token Tok;
    bool First = true;
    for (PP.Lex(Tok); Tok.isNot(tok::eod) && Tok.isNot(tok::eof); PP.Lex(Tok)) {
      Text += First || Tok.hasLeadingSpace() ? " " : "";
      Text += PP.getSpelling(Tok);
      First = false;
    }
    std::string Quoted = "\"";
    for (char Ch : Text) {
      if (Ch == '"' || Ch == '\\')
        Quoted += '\\';
      Quoted += Ch;
    }
    Quoted += '"';
    SourceLocation Loc = Tok.getLocation();
    auto Toks = std::make_unique<Token[]>(8);
    unsigned N = 0;
    for (StringRef Str :
         {StringRef(Quoted), StringRef("\"__memcoro_restore\"")}) {
      Toks[N] = bareToken(tok::identifier, Loc);
      Toks[N++].setIdentifierInfo(PP.getIdentifierInfo("_Pragma"));
      Toks[N++] = bareToken(tok::l_paren, Loc);
      Toks[N++] = literal(PP, Str, tok::string_literal, Loc);
      Toks[N++] = bareToken(tok::r_paren, Loc);
    }
    PP.RemovePragmaHandler(this);
    parkedHandler() = this;
    PP.EnterTokenStream(std::move(Toks), N, /*DisableMacroExpansion=*/false,
                        /*IsReinject=*/false);
  }

  /// Parses `clause clause ...` up to the end of the directive, leaving Tok
  /// at eod. Returns false after a diagnostic.
  bool parseClauses(Preprocessor &PP, Token &Tok, Clauses &C) {
    while (Tok.isNot(tok::eod)) {
      if (Tok.isNot(tok::identifier)) {
        diag(Tok.getLocation(), State->Ids.ExpectedClause);
        return false;
      }
      StringRef Name = Tok.getIdentifierInfo()->getName();
      SourceLocation NameLoc = Tok.getLocation();
      if (Name == "insist") {
        if (C.InsistLoc.isValid()) {
          diag(NameLoc, State->Ids.DuplicateClause) << Name;
          diag(C.InsistLoc, State->Ids.PreviousHere);
          return false;
        }
        C.InsistLoc = NameLoc;
        PP.Lex(Tok);
        if (Tok.is(tok::comma))
          PP.Lex(Tok);
        continue;
      }
      // As in OpenMP, one reduction() clause per operator may appear.
      if (Name == "reduction") {
        PP.Lex(Tok);
        if (Tok.isNot(tok::l_paren)) {
          diag(Tok.getLocation(), State->Ids.ExpectedLParen) << Name;
          return false;
        }
        if (!parseReduction(PP, Tok, C))
          return false;
        PP.Lex(Tok);
        if (Tok.is(tok::comma))
          PP.Lex(Tok);
        continue;
      }
      bool IsParallel = Name == "parallel";
      if (!IsParallel && Name != "remote") {
        diag(NameLoc, State->Ids.UnknownClause) << Name;
        return false;
      }
      SourceLocation &Seen = IsParallel ? C.ParallelLoc : C.RemoteLoc;
      if (Seen.isValid()) {
        diag(NameLoc, State->Ids.DuplicateClause) << Name;
        diag(Seen, State->Ids.PreviousHere);
        return false;
      }
      Seen = NameLoc;
      PP.Lex(Tok);
      if (Tok.isNot(tok::l_paren)) {
        diag(Tok.getLocation(), State->Ids.ExpectedLParen) << Name;
        return false;
      }
      bool Ok =
          IsParallel ? parseParallel(PP, Tok, C) : parseRemote(PP, Tok, C);
      if (!Ok)
        return false;
      PP.Lex(Tok);
      // OpenMP habits: a comma between clauses is allowed.
      if (Tok.is(tok::comma))
        PP.Lex(Tok);
    }
    return true;
  }

  /// Collects the tokens between the parentheses of parallel(...), leaving
  /// Tok at the closing one.
  bool parseParallel(Preprocessor &PP, Token &Tok, Clauses &C) {
    unsigned Depth = 0;
    for (PP.Lex(Tok); !(Depth == 0 && Tok.is(tok::r_paren)); PP.Lex(Tok)) {
      if (Tok.is(tok::eod)) {
        diag(Tok.getLocation(), State->Ids.ExpectedRParen) << "parallel";
        return false;
      }
      if (Depth == 0 && Tok.is(tok::comma)) {
        diag(Tok.getLocation(), State->Ids.ParallelComma);
        return false;
      }
      if (Tok.isOneOf(tok::l_paren, tok::l_square, tok::l_brace))
        ++Depth;
      else if (Tok.isOneOf(tok::r_paren, tok::r_square, tok::r_brace) && Depth)
        --Depth;
      C.ParallelExpr.push_back(Tok);
    }
    if (C.ParallelExpr.empty()) {
      diag(Tok.getLocation(), State->Ids.ExpectedExpr);
      return false;
    }
    return true;
  }

  /// Parses `[modifier,] op : name (, name)*` of reduction(...), leaving Tok
  /// at the `)`. The operators OpenMP accepts are accepted; only + - and *
  /// change anything (integer reductions, min and max need no permission).
  bool parseReduction(Preprocessor &PP, Token &Tok, Clauses &C) {
    PP.Lex(Tok);
    // reduction(inscan, +: x), reduction(task, ...): the modifier is
    // OpenMP's business.
    if (Tok.is(tok::identifier) && PP.LookAhead(0).is(tok::comma)) {
      PP.Lex(Tok);
      PP.Lex(Tok);
    }
    char Kind = 0;
    if (Tok.isOneOf(tok::plus, tok::minus))
      Kind = '+';
    else if (Tok.is(tok::star))
      Kind = '*';
    else if (Tok.is(tok::identifier) &&
             (Tok.getIdentifierInfo()->getName() == "min" || Tok.getIdentifierInfo()->getName() == "max"))
      Kind = 'm';
    else if (!Tok.isOneOf(tok::amp, tok::pipe, tok::caret, tok::ampamp, tok::pipepipe)) {
      diag(Tok.getLocation(), State->Ids.ReductionOperator);
      return false;
    }
    PP.Lex(Tok);
    if (Tok.isNot(tok::colon)) {
      diag(Tok.getLocation(), State->Ids.ReductionColon);
      return false;
    }
    while (true) {
      PP.Lex(Tok);
      if (Tok.isNot(tok::identifier)) {
        diag(Tok.getLocation(), State->Ids.ReductionName);
        return false;
      }
      C.ReductionNames.push_back(Tok);
      PP.Lex(Tok);
      if (Tok.is(tok::r_paren))
        break;
      if (Tok.isNot(tok::comma)) {
        diag(Tok.getLocation(), State->Ids.ReductionCommaOrRParen);
        return false;
      }
    }
    if (Kind)
      addReductionOp(C, Kind);
    return true;
  }

  /// Parses `path (, path)*` of remote(...), leaving Tok at the `)`; a path
  /// is a name followed by any number of `.member` or `->member`.
  bool parseRemote(Preprocessor &PP, Token &Tok, Clauses &C) {
    while (true) {
      PP.Lex(Tok);
      if (!Tok.isOneOf(tok::identifier, tok::kw_this)) {
        diag(Tok.getLocation(), State->Ids.ExpectedName);
        return false;
      }
      llvm::SmallVector<Token, 1> Path{Tok};
      for (PP.Lex(Tok); Tok.isOneOf(tok::period, tok::arrow); PP.Lex(Tok)) {
        Path.push_back(Tok);
        PP.Lex(Tok);
        if (Tok.isNot(tok::identifier)) {
          diag(Tok.getLocation(), State->Ids.ExpectedMember) << spell(Path);
          return false;
        }
        Path.push_back(Tok);
      }
      for (const auto &Prev : C.RemoteNames)
        if (spell(Prev) == spell(Path)) {
          diag(Path.front().getLocation(), State->Ids.DuplicateName)
              << spell(Path);
          diag(Prev.front().getLocation(), State->Ids.PreviousHere);
          return false;
        }
      C.RemoteNames.push_back(std::move(Path));
      if (Tok.is(tok::r_paren))
        return true;
      if (Tok.isNot(tok::comma)) {
        diag(Tok.getLocation(), State->Ids.ExpectedCommaOrRParen);
        return false;
      }
    }
  }
};

/// Runs on the internal `_Pragma("__memcoro_loop")` that MemcoroPragmaHandler
/// leaves behind: lexes the `for ( ... )` that follows, checks the remote()
/// names in the parser's scope, and re-injects the head with the marker.
class LoopHeadHandler : public PragmaHandler {
public:
  LoopHeadHandler() : PragmaHandler("__memcoro_loop") {}

  void HandlePragma(Preprocessor &PP, PragmaIntroducer Introducer,
                    Token &FirstToken) override {
    State = stateFor(PP);
    Token Tok;
    do
      PP.Lex(Tok);
    while (Tok.isNot(tok::eod) && Tok.isNot(tok::eof));
    // Only ever entered by MemcoroPragmaHandler, with the location of its
    // pragma; anything else is ignored.
    if (!State)
      return;
    auto It = llvm::find_if(State->Pending, [&](const Clauses &P) {
      return P.PragmaLoc == Introducer.Loc;
    });
    if (It == State->Pending.end())
      return;
    Clauses C = std::move(*It);
    State->Pending.erase(It);
    llvm::SmallVector<Token, 32> Head;
    size_t MarkerAt = 0;
    if (!lexLoopHead(PP, C, Head, MarkerAt))
      return;
    // Both checks run, so that every bad name is reported at once.
    bool NamesOk = checkRemoteNames(C, Head);
    NamesOk &= checkReductionNames(C);
    if (NamesOk) {
      llvm::SmallVector<Token, 8> Body(Head.begin() + MarkerAt, Head.end());
      Head.truncate(MarkerAt);
      appendMarker(PP, C.PragmaLoc, C, Head);
      Head.append(Body.begin(), Body.end());
    }
    auto Toks = std::make_unique<Token[]>(Head.size());
    std::copy(Head.begin(), Head.end(), Toks.get());
    // The head's tokens are already macro-expanded, and the marker's must
    // not be expanded at all.
    PP.EnterTokenStream(std::move(Toks), Head.size(),
                        /*DisableMacroExpansion=*/true, /*IsReinject=*/false);
  }

private:
  FrontendState *State = nullptr;

  DiagnosticBuilder diag(SourceLocation Loc, unsigned Id) {
    return State->report(Loc, Id);
  }

  /// Lexes `for ( ... )` or `while ( ... )` into Head, and the heads of the
  /// loops nested in it that an OpenMP `collapse(k)` makes one with it, and
  /// sets MarkerAt to where the marker goes: after the last of those heads.
  /// Returns false, with every lexed token handed back to the parser, when
  /// the pragma is not followed by a loop.
  bool lexLoopHead(Preprocessor &PP, Clauses &C, llvm::SmallVectorImpl<Token> &Head, size_t &MarkerAt) {
    SourceLocation PragmaLoc = C.PragmaLoc;
    Token Tok;
    PP.Lex(Tok);
    // An OpenMP directive between the pragma and the loop (Ligra's
    // `parallel_for`, a macro for `_Pragma("omp parallel for") for`, where
    // the pragma cannot be written after the directive) is handed back
    // before the loop, as if the pragma followed it; so are the loop hints
    // (`#pragma unroll 4`, `#pragma clang loop ...`), which were an error.
    while (Tok.isOneOf(tok::annot_pragma_openmp, tok::annot_pragma_loop_hint)) {
      if (Tok.is(tok::annot_pragma_loop_hint)) {
        Head.push_back(Tok);
        PP.Lex(Tok);
        continue;
      }
      size_t Start = Head.size();
      while (Tok.isNot(tok::annot_pragma_openmp_end) && Tok.isNot(tok::eof)) {
        Head.push_back(Tok);
        PP.Lex(Tok);
      }
      if (Tok.is(tok::eof))
        return reinject(PP, Head);
      std::string Directive;
      for (const Token &T : llvm::ArrayRef<Token>(Head).drop_front(Start + 1))
        Directive += " " + PP.getSpelling(T);
      addOpenMPClauses(C, Directive);
      Head.push_back(Tok);
      PP.Lex(Tok);
    }
    // A while loop is a for loop without init and step: a list walk
    // `while (p)` is marked as it is written.
    if (Tok.isNot(tok::kw_for) && Tok.isNot(tok::kw_while)) {
      diag(Tok.is(tok::eof) ? PragmaLoc : Tok.getLocation(), State->Ids.NotFor);
      Head.push_back(Tok);
      return reinject(PP, Head);
    }
    Head.push_back(Tok);
    PP.Lex(Tok);
    Head.push_back(Tok);
    // Anything but a complete `for (...)` is the parser's to diagnose, as
    // written.
    if (Tok.isNot(tok::l_paren) || !lexParenthesised(PP, Head))
      return reinject(PP, Head);
    MarkerAt = Head.size();
    // OpenMP requires the collapsed loops perfectly nested: a marker between
    // two of them was an error (`expected 2 for loops after '#pragma omp
    // parallel for'`). It goes into the innermost body, where it marks the
    // one loop OpenMP makes of them, and without -fopenmp the innermost.
    for (unsigned Level = 1; Level < C.Collapse; ++Level) {
      PP.Lex(Tok);
      Head.push_back(Tok);
      if (Tok.is(tok::l_brace)) {
        PP.Lex(Tok);
        Head.push_back(Tok);
      }
      if (Tok.isNot(tok::kw_for))
        break;
      PP.Lex(Tok);
      Head.push_back(Tok);
      if (Tok.isNot(tok::l_paren))
        break;
      if (!lexParenthesised(PP, Head))
        return reinject(PP, Head);
      MarkerAt = Head.size();
    }
    return true;
  }

  /// Lexes up to the `)` that closes the `(` last in Head; false at the end
  /// of the file.
  static bool lexParenthesised(Preprocessor &PP, llvm::SmallVectorImpl<Token> &Head) {
    Token Tok = Head.back();
    for (unsigned Depth = 1; Depth != 0 && Tok.isNot(tok::eof);) {
      PP.Lex(Tok);
      Head.push_back(Tok);
      if (Tok.is(tok::l_paren))
        ++Depth;
      else if (Tok.is(tok::r_paren))
        --Depth;
    }
    return Tok.isNot(tok::eof);
  }

  bool reinject(Preprocessor &PP, llvm::ArrayRef<Token> Toks) {
    auto Copy = std::make_unique<Token[]>(Toks.size());
    std::copy(Toks.begin(), Toks.end(), Copy.get());
    PP.EnterTokenStream(std::move(Copy), Toks.size(),
                        /*DisableMacroExpansion=*/true, /*IsReinject=*/true);
    return false;
  }

  /// What the name of a clause means where the pragma stands; quiet, since
  /// the clause checks word their own diagnostics.
  static LookupResult lookupInCurrentScope(Sema &S, const Token &Name) {
    LookupResult R(S, DeclarationNameInfo(Name.getIdentifierInfo(), Name.getLocation()),
                   Sema::LookupOrdinaryName);
    R.suppressDiagnostics();
    if (Name.getIdentifierInfo())
      S.LookupName(R, S.getCurScope());
    return R;
  }

  /// Checks that each reduction() name is a variable in the parser's current
  /// scope. Outside a function body (a member function defined in its
  /// class) the AST is not there to look in yet, and nothing is checked.
  bool checkReductionNames(const Clauses &C) {
    Sema *S = State->S;
    if (!S || !inFunctionBody(S->getCurScope()))
      return true;
    bool Ok = true;
    for (const Token &Name : C.ReductionNames) {
      IdentifierInfo *II = Name.getIdentifierInfo();
      LookupResult R = lookupInCurrentScope(*S, Name);
      if (R.empty()) {
        diag(Name.getLocation(), State->Ids.ReductionUndeclared) << II->getName();
        Ok = false;
      } else if (!R.isSingleResult() || !isa<VarDecl, FieldDecl, BindingDecl>(R.getFoundDecl()->getUnderlyingDecl())) {
        diag(Name.getLocation(), State->Ids.ReductionNotVariable) << II->getName();
        Ok = false;
      }
    }
    return Ok;
  }

  /// Checks each remote() name against the parser's current scope. A name
  /// first declared in the loop head is only in scope inside the loop, and a
  /// dependent type is only known at instantiation: both are left to the AST
  /// checker, as is everything in a body lexed ahead of parsing.
  bool checkRemoteNames(Clauses &C, llvm::ArrayRef<Token> Head) {
    Sema *S = State->S;
    C.RemoteForms.assign(C.RemoteNames.size(), Clauses::Form::AsIs);
    if (!S)
      return true;
    if (!inFunctionBody(S->getCurScope())) {
      // A member function defined in its class: the members declared before
      // it are known, so a container among them is still recognised.
      for (const auto &[Path, Form] : llvm::zip(C.RemoteNames, C.RemoteForms)) {
        LookupResult R = lookupInCurrentScope(*S, Path.front());
        // Declared further down the class (private members at the end, as
        // classes are written): the body is parsed once the class is
        // complete, and the elements' address is chosen by the type then.
        // Before C++17, without if constexpr, `&(path)[0]`: a pointer, an
        // array, std::vector and std::array alike.
        if (R.empty() && Path.front().isNot(tok::kw_this)) {
          Form = S->getLangOpts().CPlusPlus17 ? Clauses::Form::Deferred : Clauses::Form::Subscript;
          continue;
        }
        if (auto *VD = R.isSingleResult() ? dyn_cast<ValueDecl>(R.getFoundDecl()) : nullptr)
          if (QualType T = pathType(*S, VD->getType().getNonReferenceType(), Path, Path.front().getLocation());
              !T.isNull())
            Form = containerForm(*S, T, Path.front().getLocation());
      }
      return true;
    }
    bool Ok = true;
    for (const auto &[Path, Form] : llvm::zip(C.RemoteNames, C.RemoteForms)) {
      // `this->m` is left to the AST checker.
      const Token &Name = Path.front();
      if (Name.is(tok::kw_this))
        continue;
      IdentifierInfo *II = Name.getIdentifierInfo();
      LookupResult R = lookupInCurrentScope(*S, Name);
      if (R.empty()) {
        bool InHead = llvm::any_of(
            Head, [&](const Token &T) { return T.getIdentifierInfo() == II; });
        if (!InHead) {
          diag(Name.getLocation(), State->Ids.Undeclared) << II->getName();
          Ok = false;
        }
        continue;
      }
      auto *VD =
          R.isSingleResult()
              ? dyn_cast<ValueDecl>(R.getFoundDecl()->getUnderlyingDecl())
              : nullptr;
      if (!VD || isa<FunctionDecl>(VD)) {
        diag(Name.getLocation(), State->Ids.NotVariable) << II->getName();
        Ok = false;
        continue;
      }
      // The type of a member path is the AST checker's to judge.
      QualType T = VD->getType().getNonReferenceType();
      if (QualType PathT = pathType(*S, T, Path, Name.getLocation()); !PathT.isNull())
        Form = containerForm(*S, PathT, Name.getLocation());
      else if (Path.size() == 1 && isa<TemplateSpecializationType>(T.getCanonicalType().getTypePtr()))
        // A template's `std::span<const T>` or `std::vector<T> &`: the
        // elements' address is chosen by the type at instantiation (a
        // template parameter's own type, a pointer at instantiation, stays
        // as it is).
        Form = S->getLangOpts().CPlusPlus17 ? Clauses::Form::Deferred : Clauses::Form::Subscript;
      if (Path.size() == 1 && !T->isDependentType() && !T->isPointerType() &&
          !T->isArrayType() && Form == Clauses::Form::AsIs) {
        diag(Name.getLocation(), State->Ids.NotPointer)
            << II->getName()
            << ("'" + T.getAsString(S->getASTContext().getPrintingPolicy()) +
                "'");
        Ok = false;
      }
    }
    return Ok;
  }

  /// The type a remote() path names, when it is known at the pragma: the
  /// variable's, then each member's (null for a dependent one).
  static QualType pathType(Sema &S, QualType T, llvm::ArrayRef<Token> Path,
                           SourceLocation Loc) {
    for (size_t I = 1; I + 1 < Path.size(); I += 2) {
      if (T->isDependentType())
        return QualType();
      if (Path[I].is(tok::arrow)) {
        if (!T->isPointerType())
          return QualType();
        T = T->getPointeeType();
      }
      auto *RD = T->getAsCXXRecordDecl();
      if (!RD || !S.isCompleteType(Loc, T))
        return QualType();
      LookupResult R(S, DeclarationNameInfo(Path[I + 1].getIdentifierInfo(), Loc),
                     Sema::LookupMemberName);
      R.suppressDiagnostics();
      S.LookupQualifiedName(R, RD);
      auto *FD = R.isSingleResult() ? dyn_cast<FieldDecl>(R.getFoundDecl()) : nullptr;
      if (!FD)
        return QualType();
      T = FD->getType().getNonReferenceType();
    }
    return T->isDependentType() ? QualType() : T;
  }

  /// A class that holds its elements in one block, as users hold their big
  /// arrays (std::vector, std::array, std::span, their own buffer class):
  /// its data(), or else its operator[], gives the elements' address.
  static Clauses::Form containerForm(Sema &S, QualType T, SourceLocation Loc) {
    auto *RD = T->getAsCXXRecordDecl();
    if (!RD || T->isPointerType() || T->isArrayType() || !S.isCompleteType(Loc, T))
      return Clauses::Form::AsIs;
    auto has = [&](DeclarationName Member) {
      LookupResult R(S, DeclarationNameInfo(Member, Loc), Sema::LookupMemberName);
      R.suppressDiagnostics();
      S.LookupQualifiedName(R, RD);
      return !R.empty();
    };
    ASTContext &Ctx = S.getASTContext();
    if (has(&Ctx.Idents.get("data")))
      return Clauses::Form::Data;
    if (has(Ctx.DeclarationNames.getCXXOperatorName(OO_Subscript)))
      return Clauses::Form::Subscript;
    return Clauses::Form::AsIs;
  }

  /// The bodies of member functions defined in their class are lexed (and
  /// so this handler runs) while the class is parsed, but parsed only after
  /// it: then the scope is the class, and a parameter is not yet visible.
  static bool inFunctionBody(Scope *Sc) {
    for (; Sc; Sc = Sc->getParent()) {
      if (Sc->isClassScope())
        return false;
      if (Sc->isFunctionScope())
        return true;
    }
    return false;
  }

  /// The elements' address of a remote() path whose type is known only
  /// when the body is parsed, chosen then:
  ///   [&](auto &&__memcoro_m) -> const volatile void * {
  ///     if constexpr (__is_class(__remove_cvref(decltype(__memcoro_m))))
  ///       return __memcoro_m.data();
  ///     else
  ///       return &__memcoro_m[0];
  ///   }(path)
  /// (a pointer's or an array's first element, a container's data()).
  /// Disabled, the marker is only checked inside sizeof, where no lambda may
  /// appear: `sizeof(path)` names it.
  static void deferredElements(Preprocessor &PP, llvm::ArrayRef<Token> Path, bool Disabled,
                               llvm::SmallVectorImpl<Token> &Out) {
    SourceLocation Loc = Path.front().getLocation();
    auto Punct = [&](tok::TokenKind K) { Out.push_back(bareToken(K, Loc)); };
    if (Disabled) {
      Punct(tok::kw_sizeof);
      Punct(tok::l_paren);
      Out.append(Path.begin(), Path.end());
      Punct(tok::r_paren);
      return;
    }
    auto Words = [&](std::initializer_list<StringRef> Spellings) {
      for (StringRef Spelling : Spellings) {
        IdentifierInfo *II = PP.getIdentifierInfo(Spelling);
        Punct(II->getTokenID());
        Out.back().setIdentifierInfo(II);
      }
    };
    Punct(tok::l_paren);
    Punct(tok::l_square);
    Punct(tok::amp);
    Punct(tok::r_square);
    Punct(tok::l_paren);
    Words({"auto"});
    Punct(tok::ampamp);
    Words({"__memcoro_m"});
    Punct(tok::r_paren);
    Punct(tok::arrow);
    Words({"const", "volatile", "void"});
    Punct(tok::star);
    Punct(tok::l_brace);
    Words({"if", "constexpr"});
    Punct(tok::l_paren);
    Words({"__is_class"});
    Punct(tok::l_paren);
    Words({"__remove_cvref"});
    Punct(tok::l_paren);
    Words({"decltype"});
    Punct(tok::l_paren);
    Words({"__memcoro_m"});
    Punct(tok::r_paren);
    Punct(tok::r_paren);
    Punct(tok::r_paren);
    Punct(tok::r_paren);
    Words({"return", "__memcoro_m"});
    Punct(tok::period);
    Words({"data"});
    Punct(tok::l_paren);
    Punct(tok::r_paren);
    Punct(tok::semi);
    Words({"else", "return"});
    Punct(tok::amp);
    Words({"__memcoro_m"});
    Punct(tok::l_square);
    Out.push_back(literal(PP, "0", tok::numeric_constant, Loc));
    Punct(tok::r_square);
    Punct(tok::semi);
    Punct(tok::r_brace);
    Punct(tok::r_paren);
    Punct(tok::l_paren);
    Out.append(Path.begin(), Path.end());
    Punct(tok::r_paren);
  }

  /// Appends `if (((void)__builtin_annotation(...), ..., 0)) {} else` to the
  /// loop head (see the banner for the exact shape).
  void appendMarker(Preprocessor &PP, SourceLocation PragmaLoc,
                    const Clauses &C, llvm::SmallVectorImpl<Token> &Out) {
    auto Punct = [&](tok::TokenKind K, SourceLocation Loc) {
      Out.push_back(bareToken(K, Loc));
    };
    auto Word = [&](StringRef Spelling, SourceLocation Loc) {
      IdentifierInfo *II = PP.getIdentifierInfo(Spelling);
      Punct(II->getTokenID(), Loc);
      Out.back().setIdentifierInfo(II);
    };
    // (void)__builtin_annotation((TYPE)(VALUE), "MARKER"), -- wrapped in
    // sizeof when memcoro is disabled, so that it is checked but not emitted.
    auto Annotation = [&](llvm::ArrayRef<StringRef> Type,
                          llvm::ArrayRef<Token> Value, StringRef Marker,
                          SourceLocation Loc) {
      Punct(tok::l_paren, Loc);
      Word("void", Loc);
      Punct(tok::r_paren, Loc);
      if (State->Disabled) {
        Word("sizeof", Loc);
        Punct(tok::l_paren, Loc);
      }
      Word("__builtin_annotation", Loc);
      Punct(tok::l_paren, Loc);
      Punct(tok::l_paren, Loc);
      for (StringRef W : Type)
        Word(W, Loc);
      Punct(tok::r_paren, Loc);
      Punct(tok::l_paren, Loc);
      Out.append(Value.begin(), Value.end());
      Punct(tok::r_paren, Loc);
      Punct(tok::comma, Loc);
      Out.push_back(
          literal(PP, ("\"" + Marker + "\"").str(), tok::string_literal, Loc));
      Punct(tok::r_paren, Loc);
      if (State->Disabled)
        Punct(tok::r_paren, Loc);
      Punct(tok::comma, Loc);
    };

    Word("if", PragmaLoc);
    Punct(tok::l_paren, PragmaLoc);
    Punct(tok::l_paren, PragmaLoc);
    // The marker string carries the name as written, so that remarks can say
    // remote(entries, buckets): IR keeps no source names.
    for (const auto &[Path, Form] : llvm::zip(C.RemoteNames, C.RemoteForms)) {
      // A container's elements: `(path).data()` or `&(path)[0]`.
      SourceLocation Loc = Path.front().getLocation();
      llvm::SmallVector<Token, 8> Value;
      if (Form == Clauses::Form::Deferred) {
        deferredElements(PP, Path, State->Disabled, Value);
        Annotation({"unsigned", "long"}, Value, (RemoteMarker + " " + spell(Path)).str(), Loc);
        continue;
      }
      if (Form == Clauses::Form::Subscript)
        Value.push_back(bareToken(tok::amp, Loc));
      if (Form != Clauses::Form::AsIs)
        Value.push_back(bareToken(tok::l_paren, Loc));
      Value.append(Path.begin(), Path.end());
      if (Form != Clauses::Form::AsIs)
        Value.push_back(bareToken(tok::r_paren, Loc));
      if (Form == Clauses::Form::Data) {
        Value.push_back(bareToken(tok::period, Loc));
        IdentifierInfo *Data = PP.getIdentifierInfo("data");
        Value.push_back(bareToken(Data->getTokenID(), Loc));
        Value.back().setIdentifierInfo(Data);
        Value.push_back(bareToken(tok::l_paren, Loc));
        Value.push_back(bareToken(tok::r_paren, Loc));
      } else if (Form == Clauses::Form::Subscript) {
        Value.push_back(bareToken(tok::l_square, Loc));
        Value.push_back(literal(PP, "0", tok::numeric_constant, Loc));
        Value.push_back(bareToken(tok::r_square, Loc));
      }
      Annotation({"unsigned", "long"}, Value, (RemoteMarker + " " + spell(Path)).str(), Loc);
    }
    std::string Loop = LoopMarker.str();
    if (!C.ReductionOps.empty())
      Loop += (ReassocSuffix + C.ReductionOps).str();
    if (C.InsistLoc.isValid())
      Loop += InsistSuffix;
    if (C.ParallelLoc.isValid()) {
      Annotation({"int"}, C.ParallelExpr, Loop, PragmaLoc);
    } else {
      Token Zero = literal(PP, "0", tok::numeric_constant, PragmaLoc);
      State->AbsentParallel.insert(Zero.getLocation());
      Annotation({"int"}, Zero, Loop, PragmaLoc);
    }
    Out.push_back(literal(PP, "0", tok::numeric_constant, PragmaLoc));
    Punct(tok::r_paren, PragmaLoc);
    Punct(tok::r_paren, PragmaLoc);
    Punct(tok::l_brace, PragmaLoc);
    Punct(tok::r_brace, PragmaLoc);
    Word("else", PragmaLoc);
  }
};

/// Runs on the internal `_Pragma("__memcoro_ordered")` that
/// MemcoroPragmaHandler leaves for `#pragma memcoro ordered`: puts
///   if (((void)__builtin_annotation((int)(0), "memcoro.ordered"), 0)) {} else
/// before the statement that follows, at the location of `ordered`. Whether
/// the region is inside a marked loop is checked on the AST.
class OrderedHandler : public PragmaHandler {
public:
  OrderedHandler() : PragmaHandler("__memcoro_ordered") {}

  void HandlePragma(Preprocessor &PP, PragmaIntroducer Introducer,
                    Token &FirstToken) override {
    FrontendState *State = stateFor(PP);
    Token Tok;
    do
      PP.Lex(Tok);
    while (Tok.isNot(tok::eod) && Tok.isNot(tok::eof));
    if (!State)
      return;
    SourceLocation Loc = Introducer.Loc;
    PP.Lex(Tok);
    if (Tok.isOneOf(tok::r_brace, tok::eof, tok::kw_else, tok::kw_case,
                    tok::kw_default)) {
      // An OpenMP directive is OpenMP's to diagnose (or, without -fopenmp,
      // nobody's).
      if (!State->OpenMPOrdered.contains(Loc))
        State->report(Tok.is(tok::eof) ? Loc : Tok.getLocation(),
                      State->Ids.OrderedNoStatement);
      PP.EnterToken(Tok, /*IsReinject=*/true);
      return;
    }
    llvm::SmallVector<Token, 24> Out;
    auto Punct = [&](tok::TokenKind K) { Out.push_back(bareToken(K, Loc)); };
    auto Word = [&](StringRef Spelling) {
      IdentifierInfo *II = PP.getIdentifierInfo(Spelling);
      Punct(II->getTokenID());
      Out.back().setIdentifierInfo(II);
    };
    Word("if");
    Punct(tok::l_paren);
    Punct(tok::l_paren);
    Punct(tok::l_paren);
    Word("void");
    Punct(tok::r_paren);
    // Checked but not emitted under -fno-memcoro, as the loop's marker.
    if (State->Disabled) {
      Word("sizeof");
      Punct(tok::l_paren);
    }
    Word("__builtin_annotation");
    Punct(tok::l_paren);
    Punct(tok::l_paren);
    Word("int");
    Punct(tok::r_paren);
    Punct(tok::l_paren);
    Out.push_back(literal(PP, "0", tok::numeric_constant, Loc));
    Punct(tok::r_paren);
    Punct(tok::comma);
    Out.push_back(literal(PP, ("\"" + OrderedMarker + "\"").str(),
                          tok::string_literal, Loc));
    Punct(tok::r_paren);
    if (State->Disabled)
      Punct(tok::r_paren);
    Punct(tok::comma);
    Out.push_back(literal(PP, "0", tok::numeric_constant, Loc));
    Punct(tok::r_paren);
    Punct(tok::r_paren);
    Punct(tok::l_brace);
    Punct(tok::r_brace);
    Word("else");
    Out.push_back(Tok);
    auto Toks = std::make_unique<Token[]>(Out.size());
    std::copy(Out.begin(), Out.end(), Toks.get());
    PP.EnterTokenStream(std::move(Toks), Out.size(),
                        /*DisableMacroExpansion=*/true, /*IsReinject=*/false);
  }
};

/// Whether the directive at \p HashLoc reads `#pragma omp ordered`.
bool startsOpenMPOrdered(const SourceManager &SM, SourceLocation HashLoc) {
  if (HashLoc.isMacroID())
    return false;
  auto [File, Offset] = SM.getDecomposedLoc(HashLoc);
  StringRef Line = SM.getBufferData(File).drop_front(Offset);
  Line = Line.take_until([](char C) { return C == '\n'; });
  if (!Line.consume_front("#"))
    return false;
  for (StringRef Word : {"pragma", "omp", "ordered"}) {
    Line = Line.ltrim(" \t");
    if (!Line.consume_front(Word) ||
        (!Line.empty() && isAsciiIdentifierContinue(Line.front())))
      return false;
  }
  return true;
}

/// `#pragma omp ordered` before a statement (no clause, `threads`, `simd`)
/// is OpenMP's ordered region, and an OpenMP user who marks the loop with
/// memcoro writes only that: inside a marked loop it is an ordered region of
/// memcoro's too, with -fopenmp and without (where clang drops the pragma
/// but the loop still has to give the serial answer). Clang's OpenMP
/// handler owns the directive and a plugin cannot wrap it, so this runs
/// right before it: it takes the directive's tokens and hands them back
/// followed by `_Pragma("__memcoro_ordered")`, which marks the statement
/// after the directive as for `#pragma memcoro ordered`. The marker so sits
/// inside the OpenMP region, after __kmpc_ordered; memcoro-mark puts it
/// before that call, so that libomp's calls run in turn too. Only the AST
/// says whether the directive is in a marked loop: MarkerChecker drops the
/// marker elsewhere, and memcoro reports nothing about it.
class OpenMPOrderedWatcher : public PPCallbacks {
public:
  explicit OpenMPOrderedWatcher(Preprocessor &PP) : PP(PP) {}

  void PragmaDirective(SourceLocation Loc,
                       PragmaIntroducerKind Introducer) override {
    FrontendState *State = stateFor(PP);
    // Before the first #pragma memcoro no marked loop can be open.
    if (!State || !State->SawPragma || Introducer != PIK_HashPragma ||
        !startsOpenMPOrdered(PP.getSourceManager(), Loc))
      return;
    llvm::SmallVector<Token, 8> Toks;
    Token Tok;
    do {
      PP.LexUnexpandedToken(Tok);
      Toks.push_back(Tok);
    } while (Tok.isNot(tok::eod) && Tok.isNot(tok::eof));
    // `omp ordered depend(...)` / `doacross(...)` stands alone: it orders
    // no statement.
    auto RegionClause = [](const Token &T) {
      return T.is(tok::comma) ||
             (T.is(tok::identifier) &&
              (T.getIdentifierInfo()->getName() == "threads" ||
               T.getIdentifierInfo()->getName() == "simd"));
    };
    if (Tok.is(tok::eod) && Toks.size() >= 3 &&
        llvm::all_of(llvm::ArrayRef(Toks).slice(2, Toks.size() - 3),
                     RegionClause)) {
      SourceLocation OrderedLoc = Toks[1].getLocation();
      State->OpenMPOrdered.insert(OrderedLoc);
      quietOrderedMarker(PP, Loc, Tok.getLocation());
      Token Pragma = bareToken(tok::identifier, OrderedLoc);
      Pragma.setIdentifierInfo(PP.getIdentifierInfo("_Pragma"));
      Toks.append({Pragma, bareToken(tok::l_paren, OrderedLoc),
                   literal(PP, "\"__memcoro_ordered\"", tok::string_literal,
                           OrderedLoc),
                   bareToken(tok::r_paren, OrderedLoc)});
    }
    auto Stream = std::make_unique<Token[]>(Toks.size());
    std::copy(Toks.begin(), Toks.end(), Stream.get());
    PP.EnterTokenStream(std::move(Stream), Toks.size(),
                        /*DisableMacroExpansion=*/false, /*IsReinject=*/false);
  }

private:
  Preprocessor &PP;
};

/// The end of MemcoroPragmaHandler::printExpanded: puts it back in place.
class RestoreHandler : public PragmaHandler {
public:
  RestoreHandler() : PragmaHandler("__memcoro_restore") {}

  void HandlePragma(Preprocessor &PP, PragmaIntroducer Introducer,
                    Token &FirstToken) override {
    Token Tok;
    do
      PP.Lex(Tok);
    while (Tok.isNot(tok::eod) && Tok.isNot(tok::eof));
    if (PragmaHandler *Parked = std::exchange(parkedHandler(), nullptr))
      PP.AddPragmaHandler(Parked);
  }
};

/// Checks on the AST what the preprocessor could not: the value of N, and
/// the types of remote() names that were dependent, declared in the loop
/// head or lexed ahead of parsing. Runs on each top-level declaration before
/// codegen sees it (template instantiations arrive as top-level declarations
/// of their own), because a valid N is also folded in place: a call to a
/// constexpr function would otherwise reach IR as a call, and the marking
/// pass needs a constant.
class MarkerChecker : public RecursiveASTVisitor<MarkerChecker> {
public:
  MarkerChecker(ASTContext &Ctx, FrontendState &State)
      : Ctx(Ctx), State(State) {}

  bool TraverseDecl(Decl *D) {
    auto *FD = dyn_cast_or_null<FunctionDecl>(D);
    if (FD)
      Functions.push_back(FD);
    bool Continue = RecursiveASTVisitor::TraverseDecl(D);
    if (FD)
      Functions.pop_back();
    return Continue;
  }

  /// The marker prefix `if ((annotation..., 0)) {} else S` of a marked
  /// loop's body or of an ordered region: S is inside it.
  bool TraverseIfStmt(IfStmt *If) {
    const CallExpr *Marker = markerIn(If->getCond());
    StringRef Kind = Marker ? markerText(Marker) : "";
    if (isLoopMarker(Kind)) {
      // A marked loop nested in another: its ordered regions are its own.
      auto Saved = std::exchange(EnclosingOrdered, SourceLocation());
      ++MarkedBodies;
      bool Continue = RecursiveASTVisitor::TraverseIfStmt(If);
      --MarkedBodies;
      EnclosingOrdered = Saved;
      return Continue;
    }
    if (Kind != OrderedMarker)
      return RecursiveASTVisitor::TraverseIfStmt(If);
    SourceLocation Loc = Marker->getBeginLoc();
    bool OpenMP = State.OpenMPOrdered.contains(Loc);
    bool Region = true;
    if (MarkedBodies == 0) {
      // OpenMP's ordered outside a marked loop is OpenMP's alone.
      if (OpenMP)
        Region = unmark(If);
      else
        error(Loc, State.Ids.OrderedOutside, SourceRange(), {});
    } else if (EnclosingOrdered.isValid()) {
      // `omp ordered` around `memcoro ordered` (or the other way round) says
      // the same twice: the outer region already runs in order to the
      // iteration's end.
      if (OpenMP || EnclosingIsOpenMP)
        Region = unmark(If);
      else if (error(Loc, State.Ids.OrderedNested, SourceRange(), {}))
        State.Diags.Report(EnclosingOrdered, State.Ids.OrderedEnclosing);
    }
    auto Saved = std::make_pair(EnclosingOrdered, EnclosingIsOpenMP);
    if (EnclosingOrdered.isInvalid() && Region) {
      EnclosingOrdered = Loc;
      EnclosingIsOpenMP = OpenMP;
    }
    bool Continue = RecursiveASTVisitor::TraverseIfStmt(If);
    std::tie(EnclosingOrdered, EnclosingIsOpenMP) = Saved;
    return Continue;
  }

  bool VisitCallExpr(CallExpr *CE) {
    if (CE->getBuiltinCallee() != Builtin::BI__builtin_annotation ||
        CE->getNumArgs() != 2 || CE->isInstantiationDependent())
      return true;
    auto *Marker =
        dyn_cast<StringLiteral>(CE->getArg(1)->IgnoreParenImpCasts());
    auto *Cast = dyn_cast<CStyleCastExpr>(CE->getArg(0)->IgnoreParens());
    if (!Marker || !Cast || !Marker->isOrdinary())
      return true;
    auto *Parens = dyn_cast<ParenExpr>(Cast->getSubExprAsWritten());
    if (!Parens)
      return true;
    if (isLoopMarker(Marker->getString()))
      checkParallel(Cast, Parens->getSubExpr());
    else if (Marker->getString().starts_with((RemoteMarker + " ").str()))
      checkRemote(Parens->getSubExpr());
    return true;
  }

private:
  ASTContext &Ctx;
  FrontendState &State;
  llvm::SmallVector<FunctionDecl *, 4> Functions;
  /// Marked loop bodies around the statement being visited, and where the
  /// ordered region around it starts (invalid when there is none).
  unsigned MarkedBodies = 0;
  SourceLocation EnclosingOrdered;
  /// Whether that region is a `#pragma omp ordered`.
  bool EnclosingIsOpenMP = false;

  /// Drops the annotation of an ordered region's marker prefix,
  /// `if (((void)annotation, 0)) {} else S`, that marks nothing: codegen
  /// then folds `if ((0, 0))` and emits S alone. Returns false (no region).
  bool unmark(IfStmt *If) {
    if (auto *Comma = dyn_cast<BinaryOperator>(If->getCond()->IgnoreParenImpCasts());
        Comma && Comma->isCommaOp())
      Comma->setLHS(IntegerLiteral::Create(
          Ctx, llvm::APInt(Ctx.getIntWidth(Ctx.IntTy), 0), Ctx.IntTy,
          Comma->getLHS()->getBeginLoc()));
    return false;
  }

  /// The loop or ordered-region annotation in a marker prefix's condition,
  /// if any (a loop's remote() annotations come before its loop marker).
  static const CallExpr *markerIn(const Stmt *S) {
    if (!S)
      return nullptr;
    if (const auto *CE = dyn_cast<CallExpr>(S);
        CE && CE->getBuiltinCallee() == Builtin::BI__builtin_annotation &&
        CE->getNumArgs() == 2 &&
        (isLoopMarker(markerText(CE)) || markerText(CE) == OrderedMarker))
      return CE;
    for (const Stmt *Child : S->children())
      if (const CallExpr *Found = markerIn(Child))
        return Found;
    return nullptr;
  }

  static StringRef markerText(const CallExpr *CE) {
    const auto *Str =
        dyn_cast<StringLiteral>(CE->getArg(1)->IgnoreParenImpCasts());
    return Str && Str->isOrdinary() ? Str->getString() : "";
  }

  void checkParallel(CStyleCastExpr *Cast, Expr *N) {
    // The operand of `(int)`, after lvalue conversion: what codegen reads.
    Expr *Operand = Cast->getSubExpr();
    if (isa<ConstantExpr>(Operand) ||
        State.AbsentParallel.contains(N->getBeginLoc()))
      return;
    if (!N->getType()->isIntegralOrEnumerationType()) {
      error(N->getBeginLoc(), State.Ids.NotInteger, N->getSourceRange(),
            {quoted(N->getType())});
      return;
    }
    std::optional<llvm::APSInt> V = N->getIntegerConstantExpr(Ctx);
    if (!V) {
      error(N->getBeginLoc(), State.Ids.NotConstant, N->getSourceRange(), {});
      return;
    }
    if (*V < 1 || *V > MaxParallel) {
      error(N->getBeginLoc(), State.Ids.OutOfRange, N->getSourceRange(),
            {toString(*V, 10)});
      return;
    }
    if (!Operand->isPRValue())
      return;
    if (std::optional<llvm::APSInt> Folded =
            Operand->getIntegerConstantExpr(Ctx))
      Cast->setSubExpr(ConstantExpr::Create(Ctx, Operand, APValue(*Folded)));
  }

  void checkRemote(const Expr *Name) {
    const Expr *E = Name->IgnoreParenImpCasts();
    QualType T = E->getType();
    // A member declared later, named by sizeof under -fno-memcoro.
    if (T->isPointerType() || T->isArrayType() || isa<UnaryExprOrTypeTraitExpr>(E))
      return;
    error(E->getBeginLoc(), State.Ids.NotPointer, E->getSourceRange(),
          {asWritten(Name), quoted(T)});
  }

  /// The remote() path as the user wrote it, for the message.
  std::string asWritten(const Expr *E) const {
    StringRef Text = Lexer::getSourceText(
        CharSourceRange::getTokenRange(E->getSourceRange()),
        Ctx.getSourceManager(), Ctx.getLangOpts());
    if (!Text.empty())
      return Text.str();
    if (auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
      return DRE->getDecl()->getNameAsString();
    if (auto *ME = dyn_cast<MemberExpr>(E->IgnoreParenImpCasts()))
      return ME->getMemberDecl()->getNameAsString();
    return "?";
  }

  std::string quoted(QualType T) const {
    return "'" + T.getAsString(Ctx.getPrintingPolicy()) + "'";
  }

  /// Reports an error once per location and message (a non-dependent marker
  /// in a template is seen again in each instantiation), followed, inside an
  /// instantiation, by a note naming it as Clang does for its own errors.
  /// Returns whether it was reported (not a repeat).
  bool error(SourceLocation Loc, unsigned Id, SourceRange Range,
             llvm::ArrayRef<std::string> Args) {
    std::string Key =
        std::to_string(Loc.getRawEncoding()) + "/" + std::to_string(Id);
    for (const std::string &A : Args)
      Key += "/" + A;
    if (!State.Reported.insert(Key).second)
      return false;
    {
      DiagnosticBuilder DB = State.Diags.Report(Loc, Id);
      for (const std::string &A : Args)
        DB << A;
      DB << Range;
    }
    for (auto It = Functions.rbegin(); It != Functions.rend(); ++It) {
      FunctionDecl *FD = *It;
      if (!FD->isTemplateInstantiation())
        continue;
      std::string Name;
      llvm::raw_string_ostream OS(Name);
      FD->getNameForDiagnostic(OS, Ctx.getPrintingPolicy(), /*Qualified=*/true);
      State.Diags.Report(FD->getPointOfInstantiation(),
                         State.Ids.InInstantiation)
          << ("'" + OS.str() + "'");
      return true;
    }
    return true;
  }
};

class MemcoroConsumer : public SemaConsumer {
public:
  MemcoroConsumer(const Preprocessor &PP, std::unique_ptr<FrontendState> S)
      : PP(PP), State(std::move(S)) {
    activeStates()[&PP] = State.get();
  }
  ~MemcoroConsumer() override { activeStates().erase(&PP); }

  void InitializeSema(Sema &S) override { State->S = &S; }
  void ForgetSema() override { State->S = nullptr; }

  bool HandleTopLevelDecl(DeclGroupRef Decls) override {
    if (!State->SawPragma)
      return true;
    for (Decl *D : Decls)
      MarkerChecker(D->getASTContext(), *State).TraverseDecl(D);
    return true;
  }

private:
  const Preprocessor &PP;
  std::unique_ptr<FrontendState> State;
};

/// Runs before the main action (codegen, -fsyntax-only, ...); not for -E,
/// where the pragma handler only prints the pragma.
class MemcoroAction : public PluginASTAction {
public:
  ActionType getActionType() override { return AddBeforeMainAction; }

  bool ParseArgs(const CompilerInstance &CI,
                 const std::vector<std::string> &Args) override {
    DiagnosticsEngine &D = CI.getDiagnostics();
    for (const std::string &Arg : Args) {
      if (Arg == "disable") {
        Disabled = true;
        continue;
      }
      D.Report(MemcoroDiags(D).UnknownPluginArg) << Arg;
      return false;
    }
    return true;
  }

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef) override {
    auto State = std::make_unique<FrontendState>(CI.getDiagnostics());
    State->Disabled = Disabled;
    CI.getPreprocessor().addPPCallbacks(
        std::make_unique<OpenMPOrderedWatcher>(CI.getPreprocessor()));
    return std::make_unique<MemcoroConsumer>(CI.getPreprocessor(),
                                             std::move(State));
  }

private:
  bool Disabled = false;
};

} // namespace

static FrontendPluginRegistry::Add<MemcoroAction>
    RegisterMemcoro("memcoro", "#pragma memcoro: check it and mark the loop");
static PragmaHandlerRegistry::Add<MemcoroPragmaHandler>
    RegisterPragma("memcoro", "#pragma memcoro");
static PragmaHandlerRegistry::Add<LoopHeadHandler>
    RegisterLoopHead("__memcoro_loop", "memcoro internal: the marked loop");
static PragmaHandlerRegistry::Add<OrderedHandler>
    RegisterOrdered("__memcoro_ordered",
                    "memcoro internal: an ordered region's statement");
static PragmaHandlerRegistry::Add<RestoreHandler>
    RegisterRestore("__memcoro_restore", "memcoro internal: after -E");
