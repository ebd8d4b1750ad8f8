// Under -fno-sanitize-recover=undefined a check that ends the program can become a marked loop's latch; unswitching and GVN prove it passes and SCCP folds its branch, dropping the loop's metadata. memcoro puts the metadata back on the latch (KeepLoopMarks.cpp) and rotates the loop (split/SanitizerChecks.cpp), so that memcoro-split sees it and says what it did, instead of reporting it as removed by earlier optimisations (issue 17, item 8: hashjoin's probe). The probe's checked match counter, whose overflow check now ends the program, still keeps it serial.
// RUN: %memcoro-cc -O3 -fsanitize=undefined -fno-sanitize-recover=undefined -Rpass=memcoro -Rpass-missed=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %memcoro-cc -O3 -fsanitize=undefined -fno-sanitize-recover=undefined -mllvm -debug-only=memcoro-keep-marks -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEBUG
#include <stdint.h>

typedef struct {
  uint32_t key, payload;
} tuple_t;
typedef struct bucket_t {
  volatile char latch;
  uint32_t count;
  tuple_t tuples[2];
  struct bucket_t *next;
} bucket_t;
typedef struct {
  bucket_t *buckets;
  uint32_t hash_mask, skip_bits;
} hashtable_t;
typedef struct {
  tuple_t *tuples;
  uint64_t num_tuples;
} relation_t;

int64_t probe(const hashtable_t *ht, const relation_t *rel, uint64_t *checksum) {
  int64_t matches = 0;
  uint64_t sum = 0;
  const uint32_t hashmask = ht->hash_mask, skipbits = ht->skip_bits;
#pragma memcoro
  for (uint64_t i = 0; i < rel->num_tuples; i++) {
    const bucket_t *b = ht->buckets + ((rel->tuples[i].key & hashmask) >> skipbits);
    do {
      for (uint32_t j = 0; j < b->count; j++)
        if (rel->tuples[i].key == b->tuples[j].key) {
          matches++;
          sum += b->tuples[j].payload;
        }
      b = b->next;
    } while (b);
  }
  *checksum = sum;
  return matches;
}
// CHECK-NOT: removed it
// CHECK: split-sanitizer-trap-latch.c:{{[0-9]+}}:{{[0-9]+}}: remark: marked loop left serial: a value is carried
// DEBUG: memcoro-keep-marks: SCCPPass dropped the metadata of a marked loop in probe; put back
