// SPDX-License-Identifier: Apache-2.0
#include "memcoro/memcoro.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

TEST(RemoteAlloc, IsHugePageAlignedZeroedAndWritable) {
  const size_t bytes = (5u << 20) + 123;
  auto *p = static_cast<unsigned char *>(memcoro_remote_alloc(bytes));
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % (2u << 20), 0u);
  for (size_t i = 0; i < bytes; i += 4096)
    ASSERT_EQ(p[i], 0) << "at offset " << i;
  std::memset(p, 0xab, bytes);
  EXPECT_EQ(p[bytes - 1], 0xab);
  memcoro_remote_free(p);
}

TEST(RemoteAlloc, RejectsZeroAndImpossibleSizes) {
  EXPECT_EQ(memcoro_remote_alloc(0), nullptr);
  EXPECT_EQ(memcoro_remote_alloc(SIZE_MAX), nullptr);
  memcoro_remote_free(nullptr);
}

TEST(RemoteAlloc, ManySmallBlocksAreIndependent) {
  void *blocks[16];
  for (int i = 0; i < 16; ++i) {
    blocks[i] = memcoro_remote_alloc(64);
    ASSERT_NE(blocks[i], nullptr);
    std::memset(blocks[i], i, 64);
  }
  for (int i = 0; i < 16; ++i) {
    EXPECT_EQ(static_cast<unsigned char *>(blocks[i])[63], i);
    memcoro_remote_free(blocks[i]);
  }
}
