// prefetch_csr_sum: cost_inner_loop.c's neighbour sum under -memcoro-prefetch-overlapped: kept in serial order, nbr[] read ahead up to each list's end and contrib[] prefetched ahead.
// cost-model: on
// flags: -mllvm -memcoro-prefetch-overlapped
#include "cost_inner_loop.c"
