#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# What a user of an installed memcoro does (issue 14), in a temporary prefix
# that is then moved, so nothing may point back into the source or build tree:
#   install.sh <build dir> <source dir>
set -euo pipefail
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$tmp/staged" >/dev/null
# No installed text file (driver, CMake package, pkg-config file) may name
# the trees it came from.
if grep -rIl -e "$src" -e "$build" "$tmp/staged"; then
  fail "the installed files above refer to the source or build tree"
fi
mv "$tmp/staged" "$tmp/prefix"
prefix=$tmp/prefix
for f in bin/memcoro-cc bin/memcoro-c++ bin/memcoro-report lib/MemcoroPasses.so lib/MemcoroPragma.so \
         lib/libmemcoro_rt.a lib/libmemcoro_check.a include/memcoro/memcoro.h lib/cmake/memcoro/memcoroConfig.cmake \
         lib/cmake/memcoro/memcoroConfigVersion.cmake lib/pkgconfig/memcoro.pc \
         share/doc/memcoro/install.md; do
  [ -e "$prefix/$f" ] || fail "$f is not installed"
done

# The example project, outside the source tree, against the moved prefix.
cp -r "$src/examples/gather" "$tmp/gather"
example=$tmp/gather
pragma_lines=($(grep -n '^#pragma memcoro' "$example/gather.c" | cut -d: -f1))
cmake -S "$example" -B "$tmp/gather-build" -G Ninja -DCMAKE_C_COMPILER=clang-19 \
      -DCMAKE_PREFIX_PATH="$prefix" >"$tmp/configure.log" \
  || { cat "$tmp/configure.log"; fail "the example does not configure against the installed package"; }
cmake --build "$tmp/gather-build" >"$tmp/build.log" || { cat "$tmp/build.log"; fail "the example does not build"; }
(cd "$tmp/gather-build" && ctest --output-on-failure) || fail "the example's tests fail"
grep -q -- "-fplugin=$prefix/lib/MemcoroPragma.so" "$tmp/gather-build/build.ninja" \
  || fail "memcoro::memcoro does not load the plugins from the installed prefix"

"$prefix/bin/memcoro-report" --root "$example" "$tmp/gather-build" | tee "$tmp/report"
grep -qx "gather.c:${pragma_lines[0]}: transformed, parallel(16), [a-z]* dispatch, [0-9]* suspension points\?, [0-9]* bytes of context" "$tmp/report" \
  || fail "the report does not show the example's first loop transformed"
grep -q "^gather.c:${pragma_lines[1]}: serial, parallel(16), remote(table): a value is carried from one iteration to the next" "$tmp/report" \
  || fail "the report does not show why the example's second loop stays serial"
grep -qx "2 marked loops: 1 transformed, 1 serial" "$tmp/report" || fail "the report's count is wrong"
"$prefix/bin/memcoro-report" --root "$example" --html "$tmp/report.html" "$tmp/gather-build" >/dev/null
grep -q "href='#f0-L${pragma_lines[0]}'" "$tmp/report.html" || fail "the HTML report does not link the loop to its source"

# Another compiler is refused at configure time, with a message that says why.
if cmake -S "$example" -B "$tmp/gcc-build" -G Ninja -DCMAKE_C_COMPILER=gcc \
         -DCMAKE_PREFIX_PATH="$prefix" >"$tmp/gcc.log" 2>&1; then
  fail "find_package(memcoro) accepted gcc"
fi
# CMake wraps the message: compare it with the line breaks taken out.
tr -s ' \n' '  ' <"$tmp/gcc.log" | grep -q "memcoro's plugins run inside clang 19, but this project's C compiler is GNU [0-9.]* ([^)]*gcc). Configure a fresh build directory with -DCMAKE_C_COMPILER=clang-19" \
  || { cat "$tmp/gcc.log"; fail "no clear message for a compiler other than clang 19"; }

# The installed driver, reached through a symlink on PATH as a packager would.
mkdir "$tmp/path"
ln -s "$prefix/bin/memcoro-cc" "$tmp/path/memcoro-cc"
PATH="$tmp/path:$PATH" memcoro-cc --version >"$tmp/version"
grep -qx "memcoro-cc (memcoro [0-9.]*) with plugins from $prefix/lib" "$tmp/version" \
  || fail "memcoro-cc --version does not name the installed plugins"
PATH="$tmp/path:$PATH" memcoro-cc -O2 -Rpass=memcoro "$example/gather.c" -o "$tmp/gather-cc" 2>"$tmp/remarks" \
  || { cat "$tmp/remarks"; fail "the installed memcoro-cc cannot build the example"; }
grep -q "remark: loop turned into 16 interleaved coroutines" "$tmp/remarks" || { cat "$tmp/remarks"; fail "memcoro-cc did not transform the loop"; }
"$tmp/gather-cc" >"$tmp/answer"
grep -q ": right$" "$tmp/answer" || fail "the program built by memcoro-cc gives a wrong answer"

# pkg-config gives the same flags, for builds without CMake.
flags=$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs memcoro)
clang-19 -O2 -Rpass=memcoro "$example/gather.c" $flags -o "$tmp/gather-pc" 2>"$tmp/remarks" \
  || { cat "$tmp/remarks"; fail "clang-19 with pkg-config's flags cannot build the example"; }
grep -q "remark: loop turned into 16 interleaved coroutines" "$tmp/remarks" || { cat "$tmp/remarks"; fail "the pkg-config flags do not transform the loop"; }
"$tmp/gather-pc" >"$tmp/answer"
grep -q ": right$" "$tmp/answer" || fail "the program built with pkg-config's flags gives a wrong answer"
echo "install: OK"
