// internal/ndshard_platform.h - the platform under tt-metal's kernel API: what these
// headers need from the machine a kernel runs on, and the one place they get it.
//
// NDSHARD_TT_PLATFORM names the platform's header (for example
// -DNDSHARD_TT_PLATFORM='"ndshard/ttsim/kernel_platform.hpp"' for ndshard's simulated
// device). It must declare, with tt-metal's names and signatures:
//   template <typename T> T get_arg_val(int);         template <typename T> T get_common_arg_val(int);
//   get_arg_addr(int), get_common_arg_addr(int)        an address a kernel may turn into a pointer
//   noc_index, my_x[noc], my_y[noc]                    this kernel's NoC and its core's coordinates
//   get_my_thread_id(), get_num_threads()              this data-movement thread among those of the kernel
//   FORCE_INLINE                                       and, for dataflow_api.h, the NoC, circular
//                                                      buffer, semaphore and DPRINT calls
// and, in namespace ndshard::tt::platform, the bank tables of the interleaved generators
// and the DRAM accessor:
//   std::uint32_t num_dram_banks(), num_l1_banks();
//   std::uint32_t dram_bank_xy(std::uint32_t bank, std::uint8_t noc);   // (y << 6) | x of its NoC endpoint
//   std::uint32_t dram_bank_offset(std::uint32_t bank);                 // added to every address in it
//   std::uint32_t l1_bank_xy(std::uint32_t bank, std::uint8_t noc), l1_bank_offset(std::uint32_t bank);
//   std::uint32_t common_arg_count();   // common runtime words, so an accessor reading past them is refused
//   std::uint32_t cb_page_size(std::uint32_t cb), cb_num_pages(std::uint32_t cb);   // a DataflowBuffer's entries
// and, for dataflow_api.h, noc_read_page(src, dst_l1, size, noc) and noc_write_page(src_l1,
// dst, size, noc): a transfer of one page (a platform may check it stays in one page).
// api/dataflow/noc.h (the NoC object) needs no more: it calls those transfers and barriers,
// noc_async_write_multicast(_loopback_src) and get_noc_multicast_addr, with tt-metal's
// NOC_MAX_BURST_SIZE and NOC_UNICAST_WRITE_VC, noc_inline_dw_write (tt-metal's, with
// InlineWriteDst) and ndshard::tt::platform::zero_l1(l1_addr, size, noc): zeros into this
// core's L1 that complete at the read barrier (async_write_zeros).
// A platform that defines NDSHARD_TT_CHECKED also provides
//   [[noreturn]] void out_of_range(const char* what, std::uint32_t index, std::uint32_t limit);
// and the accessor then checks every page id, shard id and coordinate it is given.
#pragma once

#ifndef NDSHARD_TT_PLATFORM
#error \
    "tt-metal's kernel API needs a platform: define NDSHARD_TT_PLATFORM as its header (see internal/ndshard_platform.h)"
#endif
#include NDSHARD_TT_PLATFORM
