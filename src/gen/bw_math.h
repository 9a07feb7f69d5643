/* SPDX-License-Identifier: BSD-2-Clause */
/* Pure arithmetic of bandwidth (unit tested): rate limits, wire overhead,
 * Gb/s and Mpps, for rperf bw and the run report. */
#ifndef RPERF_BW_MATH_H
#define RPERF_BW_MATH_H

#include <stdbool.h>
#include <stdint.h>

/*
 * A --rate_limit in --rate_units (perftest's meanings: M = MB/s with
 * MB = 2^20 bytes, g = Gb/s with Gb = 10^9 bits, p = messages per second)
 * as messages per second at @size bytes. 0 when @limit <= 0.
 */
double rperf_bw_limit_msgs(double limit, int units, uint64_t size);
/* The same limit as payload Gb/s at @size. */
double rperf_bw_limit_gbps(double limit, int units, uint64_t size);

/* Packets of a @size-byte message at path MTU @mtu (at least 1). */
uint64_t rperf_bw_packets(uint64_t size, int mtu);

/*
 * Payload bytes / bytes on the wire for messages of @size at path MTU @mtu.
 * roce: RoCE v2 over IPv4 Ethernet (preamble + SFD 8, Ethernet 14, FCS 4,
 * inter-frame gap 12, IPv4 20, UDP 8, BTH 12, ICRC 4; frames padded to 64 B);
 * else InfiniBand (LRH 8, GRH 40 when @grh, BTH 12, ICRC 4, VCRC 2).
 * WRITEs add RETH (16) to their first packet; write_imm adds ImmDt (4) once
 * per @post_list messages (on the last WR of each list). Payloads are padded
 * to 4 bytes. ACKs (the other direction) are not counted. READ: the
 * responses carry the data, AETH (4) on the first and the last (the
 * request, the other direction, is not counted); atomic: 8 B in one
 * response with AETH (4) and AtomicAckETH (8, the payload itself).
 * 0 if @mtu <= 0.
 */
double rperf_bw_wire_efficiency(uint64_t size, int mtu, bool roce, bool grh,
				int verb, uint64_t post_list);

/* Payload Gb/s and millions of messages per second; 0 when seconds <= 0. */
double rperf_bw_gbps(uint64_t bytes, double seconds);
double rperf_bw_mpps(uint64_t messages, double seconds);

/*
 * The fewest bytes a BW peak window must hold: RPERF_BW_PEAK_MIN_SIGNALS
 * signaled completions (every @cq_mod-th message) on each of @qps QPs of
 * @size-byte messages. Completions come in steps of @cq_mod messages per
 * QP, so a window's count is uncertain by one step per QP: below this the
 * peak is that step's quantum, not a rate (UINT64_MAX on overflow).
 */
uint64_t rperf_bw_peak_min_bytes(uint64_t size, uint64_t qps, uint64_t cq_mod);

#endif
