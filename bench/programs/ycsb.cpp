// ycsb: a batch of read-only YCSB transactions, written the way DBx1000's
// YCSB workload writes them: a table of row_t objects whose field data is a
// separate allocation laid out by the schema (10 fields of 100 bytes, as
// YCSB's usertable), a hash index from the primary key to an itemid_t that
// points at the row (here open addressing with linear probing), queries of
// 16 requests over Zipfian keys (theta 0.6, DBx1000's default), and
// run_txn reading, for each request, the index, the row and the requested
// field, aborting when a key is missing. The batch loop runs one
// transaction per query, each with its own transaction context, and counts
// commits. Verified against the fields' contents, which are a function of
// the key: each transaction's checksum is recomputed without the index.
// One pragma line marks the batch loop; nothing else is edited.
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

typedef uint64_t idx_key_t;
enum RC { RCOK, Abort, ERROR };
enum access_t { RD, WR, SCAN };

struct Catalog {
  int field_cnt;
  int tuple_size;
  std::vector<int> field_size, field_index;
  void add_col(int size) {
    field_index.push_back(tuple_size);
    field_size.push_back(size);
    tuple_size += size;
    field_cnt++;
  }
  int get_field_cnt() const { return field_cnt; }
  int get_field_index(int id) const { return field_index[id]; }
};

struct table_t {
  Catalog *schema;
  const char *name;
};

class row_t {
public:
  void init(table_t *host_table, uint64_t row_id) {
    table = host_table;
    _row_id = row_id;
    data = static_cast<char *>(malloc(host_table->schema->tuple_size));
  }
  void set_primary_key(uint64_t key) { _primary_key = key; }
  uint64_t get_primary_key() const { return _primary_key; }
  char *get_data() { return data; }
  char *get_value(int id) { return &data[table->schema->get_field_index(id)]; }
  void set_value(int id, const void *ptr, int size) { memcpy(&data[table->schema->get_field_index(id)], ptr, size); }
  table_t *get_table() const { return table; }

  uint64_t _row_id;
  uint64_t _primary_key;
  table_t *table;
  char *data;
};

struct itemid_t {
  void *location;
  bool valid;
  itemid_t *next;
};

class IndexHash {
public:
  explicit IndexHash(uint64_t capacity) {
    uint64_t n = 1;
    while (n < 2 * capacity) n <<= 1;
    mask_ = n - 1;
    slots_ = static_cast<Slot *>(malloc(n * sizeof(Slot)));
    for (uint64_t i = 0; i < n; i++) slots_[i] = {kEmpty, nullptr};
  }
  RC index_insert(idx_key_t key, itemid_t *item) {
    uint64_t pos = hash(key) & mask_;
    while (slots_[pos].key != kEmpty) pos = (pos + 1) & mask_;
    slots_[pos] = {key, item};
    return RCOK;
  }
  RC index_read(idx_key_t key, itemid_t *&item) const {
    uint64_t pos = hash(key) & mask_;
    while (true) {
      const Slot &slot = slots_[pos];
      if (slot.key == key) {
        item = slot.item;
        return RCOK;
      }
      if (slot.key == kEmpty) return ERROR;
      pos = (pos + 1) & mask_;
    }
  }

private:
  static constexpr idx_key_t kEmpty = ~0ull;
  struct Slot {
    idx_key_t key;
    itemid_t *item;
  };
  static uint64_t hash(idx_key_t key) {
    key ^= key >> 31;
    key *= 0x7fb5d329728ea185ull;
    key ^= key >> 27;
    return key;
  }
  Slot *slots_;
  uint64_t mask_;
};

struct ycsb_request {
  idx_key_t key;
  access_t rtype;
  int field;
};

struct ycsb_query {
  static constexpr int max_req = 16;
  int request_cnt;
  ycsb_request requests[max_req];
};

struct ycsb_wl {
  table_t *the_table;
  IndexHash *the_index;
};

class ycsb_txn_man {
public:
  void init(ycsb_wl *wl) {
    _wl = wl;
    row_cnt = 0;
    checksum = 0;
  }
  RC run_txn(ycsb_query *query);
  uint64_t checksum;

private:
  row_t *get_row(row_t *row, access_t type) {
    if (row_cnt == ycsb_query::max_req) return nullptr;
    accesses[row_cnt].type = type;
    accesses[row_cnt].orig_row = row;
    row_cnt++;
    return row;
  }
  itemid_t *index_read(IndexHash *index, idx_key_t key) {
    itemid_t *item;
    return index->index_read(key, item) == RCOK ? item : nullptr;
  }
  RC finish(RC rc) {
    row_cnt = 0;
    return rc;
  }
  struct Access {
    access_t type;
    row_t *orig_row;
  };
  ycsb_wl *_wl;
  int row_cnt;
  Access accesses[ycsb_query::max_req];
};

RC ycsb_txn_man::run_txn(ycsb_query *query) {
  RC rc = RCOK;
  for (int rid = 0; rid < query->request_cnt; rid++) {
    ycsb_request *req = &query->requests[rid];
    itemid_t *m_item = index_read(_wl->the_index, req->key);
    if (m_item == nullptr) {
      rc = Abort;
      break;
    }
    row_t *row = static_cast<row_t *>(m_item->location);
    row_t *row_local = get_row(row, req->rtype);
    if (row_local == nullptr || row_local->get_primary_key() != req->key) {
      rc = Abort;
      break;
    }
    if (req->rtype == RD || req->rtype == SCAN) {
      uint64_t fval;
      memcpy(&fval, row_local->get_value(req->field), sizeof(fval));
      checksum += fval;
    }
  }
  return finish(rc);
}

// Gray et al.'s Zipfian generator, as DBx1000's ycsb_query uses it.
struct Zipf {
  uint64_t n;
  double theta, zetan, zeta2, alpha, eta;
  static double zeta(uint64_t n, double theta) {
    double sum = 0;
    for (uint64_t i = 1; i <= n; i++) sum += std::pow(1.0 / i, theta);
    return sum;
  }
  Zipf(uint64_t n_, double theta_) : n(n_), theta(theta_) {
    zetan = zeta(n, theta);
    zeta2 = zeta(2, theta);
    alpha = 1.0 / (1.0 - theta);
    eta = (1 - std::pow(2.0 / n, 1 - theta)) / (1 - zeta2 / zetan);
  }
  uint64_t next(double u) const {
    double uz = u * zetan;
    if (uz < 1) return 1;
    if (uz < 1 + std::pow(0.5, theta)) return 2;
    return 1 + (uint64_t)(n * std::pow(eta * u - eta + 1, alpha));
  }
};

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t next_rand() {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

static uint64_t field_word(uint64_t key, int field) { return (key * 0x9E3779B97F4A7C15ull) ^ (uint64_t)field << 56; }

int main(int argc, char **argv) {
  uint64_t table_size = argc > 1 ? strtoull(argv[1], nullptr, 10) : 1 << 18;
  uint64_t nqueries = argc > 2 ? strtoull(argv[2], nullptr, 10) : 1 << 17;
  const int field_cnt = 10, field_size = 100;

  Catalog schema{0, 0, {}, {}};
  for (int f = 0; f < field_cnt; f++) schema.add_col(field_size);
  table_t table{&schema, "MAIN_TABLE"};
  IndexHash index(table_size);
  ycsb_wl wl{&table, &index};
  // Rows are loaded in key order; their keys are scattered over the index.
  for (uint64_t key = 0; key < table_size; key++) {
    row_t *row = static_cast<row_t *>(malloc(sizeof(row_t)));
    row->init(&table, key);
    row->set_primary_key(key);
    char value[field_size] = {};
    for (int f = 0; f < field_cnt; f++) {
      uint64_t word = field_word(key, f);
      memcpy(value, &word, sizeof(word));
      row->set_value(f, value, field_size);
    }
    itemid_t *m_item = static_cast<itemid_t *>(malloc(sizeof(itemid_t)));
    m_item->location = row;
    m_item->valid = true;
    m_item->next = nullptr;
    index.index_insert(key, m_item);
  }

  // Zipfian ranks scattered over the keys, so that hot keys are not neighbours.
  Zipf zipf(table_size, 0.6);
  std::vector<ycsb_query> queries(nqueries);
  for (ycsb_query &q : queries) {
    q.request_cnt = ycsb_query::max_req;
    for (ycsb_request &req : q.requests) {
      uint64_t rank = zipf.next((next_rand() >> 11) * 0x1.0p-53) - 1;
      req.key = (rank * 0x9E3779B97F4A7C15ull) % table_size;
      req.rtype = RD;
      req.field = (int)(next_rand() % field_cnt);
    }
  }
  // One query in 1024 asks for a key the table does not hold: it aborts.
  for (uint64_t t = 0; t < nqueries; t += 1024) queries[t].requests[next_rand() % 16].key = table_size + t;
  std::vector<ycsb_txn_man> txns(nqueries);
  for (ycsb_txn_man &txn : txns) txn.init(&wl);

  uint64_t commits = 0;
  auto t0 = std::chrono::steady_clock::now();
#pragma memcoro
  for (uint64_t t = 0; t < nqueries; t++) {
    RC rc = txns[t].run_txn(&queries[t]);
    if (rc == RCOK) commits++;
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  bool ok = true;
  uint64_t expected_commits = 0, total = 0;
  for (uint64_t t = 0; t < nqueries && ok; t++) {
    uint64_t sum = 0;
    bool aborts = false;
    for (const ycsb_request &req : queries[t].requests) {
      if (req.key >= table_size) {
        aborts = true;
        break;
      }
      sum += field_word(req.key, req.field);
    }
    expected_commits += !aborts;
    ok = aborts || txns[t].checksum == sum;
    total += txns[t].checksum;
  }
  ok = ok && commits == expected_commits;
  printf("kernel_seconds %.6f\n", seconds);
  printf("%llu rows, %llu transactions, %llu committed, checksum %llx\n", (unsigned long long)table_size,
         (unsigned long long)nqueries, (unsigned long long)commits, (unsigned long long)total);
  printf("%s\n", ok ? "verified" : "FAILED verification");
  return ok ? 0 : 1;
}
