/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Experiment protocol between `rperf run` (the controller) and `rperf agent`
 * (one per host). Same framing as src/ctrl/ctrl.h (12-byte header validated
 * before the payload is read, 1 MiB bound, one JSON object per frame); the
 * message types below extend enum rperf_ctrl_type. Every read has a timeout
 * (the job's `timeout`, default 10 s).
 *
 *   controller                       agent
 *   HELLO     ---------------->      {"version":1,"command":"run",
 *                                     "features":[]}
 *             <----------------  WELCOME {"version":1,"max_size":N,
 *                                     "features":[],"nonce":"<64 hex>",
 *                                     "auth":true|false}
 *                                 or REFUSE {"reason":"busy: running an
 *                                     experiment for ADDR since TIME"}
 *   AUTH      ---------------->      {"mac":"<64 hex>"}  HMAC-SHA256(key,
 *                                     nonce bytes || "rperf-agent-v1");
 *                                     "" when the agent has no key
 *             <----------------  READY {"what":"auth"}
 *                                 or REFUSE {"reason":"wrong key ..."}:
 *                                 nothing was created, connection closed
 *   PLAN      ---------------->      {"experiment":"job name","host":"h2",
 *                                     "device":{host_sel},
 *                                     "sources":[spec...],
 *                                     "sinks":[spec...]}
 *                                     sources: instances with from = host;
 *                                     sinks: instances with to = host
 *             <----------------  ENDPOINTS {"instances":[{"id":N,
 *                                     "role":"source"|"sink",
 *                                     "qps":[endpoint...]}]}
 *                                 or ERROR {"reason"} (device, QP ...)
 *   CONNECT   ---------------->      {"peers":[{"id":N,"role":"source"|
 *                                     "sink","qps":[endpoint...]}]}
 *                                     role is the LOCAL role; qps are the
 *                                     other end's endpoints, in order
 *             <----------------  ARMED {}   (or ERROR)
 *   GO        ---------------->      {"start_in_ns":u64} every agent starts
 *                                     its instances at receipt +
 *                                     start_in_ns + spec.start_ns (the
 *                                     barrier; sinks are live once ARMED)
 *             <----------------  FINISHED {} when all its sources ended
 *                                     (optional hint; may never come)
 *   STOP      ---------------->      {} stop everything still running
 *             <----------------  REPORT {"host":"h2","instances":[result]}
 *   BYE       ---------------->
 *             <----------------  BYE  then the agent frees every QP, MR,
 *                                     CQ and thread and waits for the next
 *                                     controller
 *
 * An endpoint is the object of rperf_ctrl_endpoint_encode(). A result:
 *   {"id":N, "role":"source"|"sink", "kind":"lsg"|"bsg",
 *    "error": "" or why it stopped early (partial figures kept),
 *    "seconds": measured window (double),
 *    "cpu_seconds": CPU time of its thread (RUSAGE_THREAD),
 *    LSG source: "samples","warmup","nonpositive","precompleted",
 *                "loop_precompleted","rtt_hist","wire_hist","loop_hist"
 *                (rperf_hist_serialize() bytes as lowercase hex),
 *    BSG source: "messages","bytes","posted","post_calls",
 *    sink (both kinds): "messages","bytes" received }
 * Percentiles never travel: the controller merges histograms.
 *
 * ERROR {"reason"} may come from either side at any step and ends the
 * experiment for that agent (it frees everything). A controller that goes
 * away (EOF) has the same effect. The agent serves one controller at a time;
 * another connection meanwhile gets REFUSE "busy ..." at once.
 */
#ifndef RPERF_ENGINE_PROTO_H
#define RPERF_ENGINE_PROTO_H

#define RPERF_PROTO_AUTH_CONTEXT "rperf-agent-v1"
#define RPERF_PROTO_NONCE_LEN 32 /* bytes; 64 hex chars on the wire */
#define RPERF_PROTO_MAC_LEN 32 /* HMAC-SHA256 */

#endif
