// bfs_bitmap: a whole BFS, level by level, as the Graph500 reference writes it: int64 vertices, a CSR of start and end offsets, and a visited bitmap tested and set with shifts and masks before the parent and the queue slot are written; then the same with a visited byte per vertex (a constant stored behind the test). No pragma but the loop's: both claims run in iteration order (ring), so the parents and the queue equal the serial loop's.
#include "common.h"
enum { V = 4096 };
static int64_t xoff[2 * V + 2];

static uint64_t bfs_bitmap(const int64_t *xadj, int64_t *tree, int64_t *vlist, uint64_t *visited, int64_t root) {
  for (int64_t v = 0; v < V; ++v) tree[v] = -1;
  for (int64_t w = 0; w < V / 64; ++w) visited[w] = 0;
  tree[root] = root;
  visited[root >> 6] |= 1ull << (root & 63);
  vlist[0] = root;
  int64_t k1 = 0, k2 = 1;
  while (k1 != k2) {
    const int64_t oldk2 = k2;
#pragma memcoro parallel(N) remote(xoff, xadj, visited, tree)
    for (int64_t k = k1; k < oldk2; ++k) {
      const int64_t v = vlist[k];
      const int64_t veo = xoff[2 * v + 1];
      for (int64_t vo = xoff[2 * v]; vo < veo; ++vo) {
        const int64_t j = xadj[vo];
        if (!(visited[j >> 6] & (1ull << (j & 63)))) {
          visited[j >> 6] |= 1ull << (j & 63);
          tree[j] = v;
          vlist[k2++] = j;
        }
      }
    }
    k1 = oldk2;
  }
  return (uint64_t)k2;
}

static uint64_t bfs_flags(const int64_t *xadj, int64_t *tree, int64_t *vlist, unsigned char *seen, int64_t root) {
  for (int64_t v = 0; v < V; ++v) tree[v] = -1, seen[v] = 0;
  tree[root] = root;
  seen[root] = 1;
  vlist[0] = root;
  int64_t k1 = 0, k2 = 1;
  while (k1 != k2) {
    const int64_t oldk2 = k2;
#pragma memcoro parallel(N) remote(xoff, xadj, seen, tree)
    for (int64_t k = k1; k < oldk2; ++k) {
      const int64_t v = vlist[k];
      for (int64_t vo = xoff[2 * v]; vo < xoff[2 * v + 1]; ++vo) {
        const int64_t j = xadj[vo];
        if (!seen[j]) {
          seen[j] = 1;
          tree[j] = v;
          vlist[k2++] = j;
        }
      }
    }
    k1 = oldk2;
  }
  return (uint64_t)k2;
}

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  // Skewed degrees: a few vertices with many edges, most with few; the trip
  // count picks the root, so every run walks other levels.
  int64_t acc = 0;
  for (int v = 0; v < V; ++v) {
    xoff[2 * v] = xoff[2 * v + 1] = acc;
    acc += v % 97 == 0 ? 100 + diff_rand() % 100 : diff_rand() % 6;
  }
  int64_t *xadj = diff_alloc(sizeof *xadj * (acc + 1));
  for (int v = 0; v < V; ++v)
    for (int64_t end = v + 1 < V ? xoff[2 * v + 2] : acc; xoff[2 * v + 1] < end;)
      xadj[xoff[2 * v + 1]++] = diff_rand() % V;
  int64_t *tree = diff_alloc(sizeof *tree * V);
  int64_t *vlist = diff_alloc(sizeof *vlist * V);
  uint64_t *visited = diff_alloc(sizeof *visited * (V / 64));
  unsigned char *seen = diff_alloc(V);
  int64_t root = (int64_t)(n * 2654435761u % V);
  uint64_t reached = bfs_bitmap(xadj, tree, vlist, visited, root);
  printf("bitmap %llu %llx %llx\n", (unsigned long long)reached, (unsigned long long)diff_hash_u64((uint64_t *)tree, V),
         (unsigned long long)diff_hash_u64((uint64_t *)vlist, reached));
  reached = bfs_flags(xadj, tree, vlist, seen, root);
  printf("flags %llu %llx %llx\n", (unsigned long long)reached, (unsigned long long)diff_hash_u64((uint64_t *)tree, V),
         (unsigned long long)diff_hash_u64((uint64_t *)vlist, reached));
  return 0;
}
