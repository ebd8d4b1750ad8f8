#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The Debian package (issue 14), checked without installing it system-wide:
# its control fields, its files under /usr, and a marked loop compiled and run
# by the memcoro-cc it holds, unpacked into a temporary root. scripts/check-deb
# installs it for real with apt-get.
#   deb.sh <build dir> <source dir>
set -euo pipefail
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cpack --config "$build/CPackConfig.cmake" -B "$tmp/pkg" >"$tmp/cpack.log" || { cat "$tmp/cpack.log"; fail "cpack failed"; }
debs=("$tmp"/pkg/memcoro_*_amd64.deb)
[ "${#debs[@]}" = 1 ] && [ -f "${debs[0]}" ] || fail "cpack made no memcoro_*_amd64.deb"
deb=${debs[0]}

dpkg-deb -f "$deb" Package Architecture Depends >"$tmp/fields"
cat "$tmp/fields"
grep -qx "Package: memcoro" "$tmp/fields" || fail "wrong package name"
grep -q "^Depends: .*clang-19 (>= 1:19.1)" "$tmp/fields" || fail "the package does not depend on Debian's clang-19"
grep -q "^Depends: .*python3" "$tmp/fields" || fail "the package does not depend on python3 (memcoro-report)"

dpkg-deb -c "$deb" | awk '{print $6}' >"$tmp/files"
for f in ./usr/bin/memcoro-cc ./usr/bin/memcoro-c++ ./usr/bin/memcoro-report ./usr/lib/MemcoroPasses.so \
         ./usr/lib/MemcoroPragma.so ./usr/lib/libmemcoro_rt.a ./usr/lib/libmemcoro_check.a \
         ./usr/include/memcoro/memcoro.h \
         ./usr/lib/cmake/memcoro/memcoroConfig.cmake ./usr/lib/pkgconfig/memcoro.pc \
         ./usr/share/doc/memcoro/install.md; do
  grep -qx "$f" "$tmp/files" || fail "$f is not in the package"
done
if grep -v '^\./usr/' "$tmp/files" | grep -v '^\./$'; then
  fail "the package installs the files above outside /usr"
fi

dpkg-deb -x "$deb" "$tmp/root"
cc=$tmp/root/usr/bin/memcoro-cc
(cd "$tmp" && "$cc" -O2 -Rpass=memcoro -fsave-optimization-record "$src/examples/gather/gather.c" -o gather) \
  2>"$tmp/remarks" || { cat "$tmp/remarks"; fail "the packaged memcoro-cc cannot build a marked loop"; }
grep -q "remark: loop turned into 16 interleaved coroutines" "$tmp/remarks" \
  || { cat "$tmp/remarks"; fail "the packaged memcoro-cc did not transform the loop"; }
"$tmp/gather" >"$tmp/answer" || fail "the program built by the packaged memcoro-cc failed: $(cat "$tmp/answer")"
grep -q ": right$" "$tmp/answer" || fail "wrong answer: $(cat "$tmp/answer")"
"$tmp/root/usr/bin/memcoro-report" "$tmp" >"$tmp/report"
grep -q "gather.c:[0-9]*: transformed, parallel(16)" "$tmp/report" || { cat "$tmp/report"; fail "the packaged memcoro-report does not see the loop"; }
echo "deb: OK ($(basename "$deb"))"
