// C CSR loops with `int` offsets and an `int` store (issue 17, item 1): the claim `dist[adj[e]] = level` may, to alias analysis, write `off[v + 1]`, so LLVM reads the bound again after it and hands the last read to the next iteration through phis. Each iteration reads its row's start again, on the pragma's word that no other iteration writes it (the remark names the store); a loop that writes the offsets themselves stays serial.
// RUN: %memcoro-cc -O2 -fno-memcoro-cost-model -Rpass=memcoro -Rpass-missed=memcoro -Rpass-analysis=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %memcoro-cc -O1 -fno-memcoro-cost-model -Rpass=memcoro -Rpass-missed=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=O1

void claim(int *off, int *adj, int *dist, int n, int level) {
#pragma memcoro parallel(8) remote(adj, dist)
  for (int v = 0; v < n; v++)
    for (int e = off[v]; e < off[v + 1]; e++)
      if (dist[adj[e]] < 0)
        dist[adj[e]] = level;
}
// CHECK: split-carried-load-int.c:[[@LINE-4]]:{{[0-9]+}}: remark: a value loaded in one iteration and handed to the next (as LLVM hands on off[u + 1] as the next off[u]) is read again by each iteration, from where the previous one read it; assumed, as the pragma asserts, that the store {{.*}}at {{.*}}split-carried-load-int.c:10:22 writes nothing another iteration reads there
// CHECK: split-carried-load-int.c:[[@LINE-6]]:3: remark: loop turned into 8 interleaved coroutines
// O1: split-carried-load-int.c:[[@LINE-7]]:3: remark: loop turned into 8 interleaved coroutines

void cut(int *off, int *adj, int *dist, int n, int level) {
#pragma memcoro parallel(8) remote(adj, dist)
  for (int v = 0; v < n; v++)
    for (int e = off[v]; e < off[v + 1]; e++)
      if (dist[adj[e]] < 0) {
        dist[adj[e]] = level;
        off[v + 1] = e + 1;
      }
}
// CHECK-NOT: read again by each iteration
// CHECK: split-carried-load-int.c:[[@LINE-7]]:{{[0-9]+}}: remark: marked loop left serial
// O1: split-carried-load-int.c:{{[0-9]+}}:{{[0-9]+}}: remark: marked loop left serial
