// One block of one operand through the 2-D multicast matmul's hand-shake (the protocol of the SDK's
// matmul_multicore_reuse_mcast readers). Each core has two semaphores per operand:
//   receiver: mark its receiver semaphore INVALID, increment the sender's sender semaphore ("my CB has
//             room"), wait until the sender sets the receiver semaphore VALID (the block has landed);
//   sender:   once the block is in its own CB, wait until every receiver has incremented its sender
//             semaphore, reset it, multicast the block to the same CB address on the receivers (linked
//             to the next multicast), then multicast VALID into their receiver semaphores.
#pragma once

#include <cstdint>

#include "hostdevcommon/common_values.hpp"

// Where an operand's blocks come from and go to: 9 runtime args starting at first_arg: sender NOC x, y;
// multicast rectangle NOC start x, y and end x, y; number of receivers; sender and receiver semaphore ids.
struct McastGroup {
    uint32_t sender_x, sender_y;
    uint32_t start_x, start_y, end_x, end_y;
    uint32_t num_receivers;
    uint32_t sender_semaphore_addr, receiver_semaphore_addr;
};

inline McastGroup mcast_group_args(uint32_t first_arg) {
    return {get_arg_val<uint32_t>(first_arg),
            get_arg_val<uint32_t>(first_arg + 1),
            get_arg_val<uint32_t>(first_arg + 2),
            get_arg_val<uint32_t>(first_arg + 3),
            get_arg_val<uint32_t>(first_arg + 4),
            get_arg_val<uint32_t>(first_arg + 5),
            get_arg_val<uint32_t>(first_arg + 6),
            get_semaphore(get_arg_val<uint32_t>(first_arg + 7)),
            get_semaphore(get_arg_val<uint32_t>(first_arg + 8))};
}

inline volatile tt_l1_ptr uint32_t* semaphore_at(uint32_t addr) {
    return reinterpret_cast<volatile tt_l1_ptr uint32_t*>(addr);
}

// Receiver side: returns once the sender's block is in this core's reserved CB space.
inline void receive_mcast_block(const McastGroup& group) {
    volatile tt_l1_ptr uint32_t* landed = semaphore_at(group.receiver_semaphore_addr);
    noc_semaphore_set(landed, INVALID);
    noc_semaphore_inc(get_noc_addr(group.sender_x, group.sender_y, group.sender_semaphore_addr), 1);
    noc_semaphore_wait(landed, VALID);
}

// Sender side: multicasts `bytes` at l1_addr (this core's reserved CB space) to the receivers.
inline void send_mcast_block(const McastGroup& group, uint32_t l1_addr, uint32_t bytes) {
    if (group.num_receivers == 0) {
        return;
    }
    volatile tt_l1_ptr uint32_t* ready = semaphore_at(group.sender_semaphore_addr);
    noc_semaphore_wait(ready, group.num_receivers);
    noc_semaphore_set(ready, 0);
    const uint64_t block_dst = get_noc_multicast_addr(group.start_x, group.start_y, group.end_x, group.end_y, l1_addr);
    noc_async_write_multicast(l1_addr, block_dst, bytes, group.num_receivers, true);
    volatile tt_l1_ptr uint32_t* landed = semaphore_at(group.receiver_semaphore_addr);
    noc_semaphore_set(landed, VALID);
    const uint64_t landed_dst =
        get_noc_multicast_addr(group.start_x, group.start_y, group.end_x, group.end_y, group.receiver_semaphore_addr);
    noc_semaphore_set_multicast(group.receiver_semaphore_addr, landed_dst, group.num_receivers);
    noc_async_writes_flushed();
}
