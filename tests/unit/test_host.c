/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * NIC locality, placement decisions and preflight checks over the fixture
 * trees in tests/unit/fixtures (host1: a NUMA server with a ConnectX on
 * node 1 and a VM-like CPU; host2: bare metal with an invariant TSC).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "host/locality.h"
#include "host/place.h"
#include "host/preflight.h"
#include "host/sysread.h"

static void root(const char *host, const char *sub, char *buf, size_t len)
{
	const char *src = getenv("RPERF_SRC");

	snprintf(buf, len, "%s/tests/unit/fixtures/%s/%s", src ? src : ".",
		 host, sub);
}

static void cpusets(void **state)
{
	struct rperf_cpuset s = { { 0 } }, t = { { 0 } };
	char buf[64];

	(void)state;
	assert_int_equal(rperf_cpuset_parse("0-3,8,10-11\n", &s), 0);
	rperf_cpuset_format(&s, buf, sizeof(buf));
	assert_string_equal(buf, "0-3,8,10-11");
	assert_true(rperf_cpuset_has(&s, 2));
	assert_false(rperf_cpuset_has(&s, 9));
	assert_int_equal(rperf_cpuset_parse("8", &t), 0);
	assert_true(rperf_cpuset_intersects(&s, &t));
	assert_int_equal(rperf_cpuset_parse("", &t), 0);
	/* hostile */
	assert_int_equal(rperf_cpuset_parse("3-1", &t), EINVAL);
	assert_int_equal(rperf_cpuset_parse("1,,2", &t), EINVAL);
	assert_int_equal(rperf_cpuset_parse("99999999999", &t), EINVAL);
	assert_int_equal(rperf_cpuset_parse("1 2", &t), EINVAL);
	assert_int_equal(rperf_cpuset_parse("-1", &t), EINVAL);
	assert_false(rperf_safe_name("../x"));
	assert_false(rperf_safe_name(".."));
	assert_false(rperf_safe_name(""));
	assert_true(rperf_safe_name("mlx5_0"));
	assert_int_equal(rperf_read_line("/", "../etc/passwd", buf,
					 sizeof(buf)),
			 EINVAL);
}

static void locality(void **state)
{
	struct rperf_nic_locality l;
	char sys[512], proc[512];

	(void)state;
	root("host1", "sys", sys, sizeof(sys));
	root("host1", "proc", proc, sizeof(proc));
	assert_int_equal(rperf_nic_locality(sys, proc, "mlx5_0", &l), 0);
	assert_int_equal(l.numa_node, 1);
	assert_string_equal(l.pcie_speed, "16.0 GT/s PCIe");
	assert_int_equal(l.pcie_width, 16);
	assert_string_equal(l.fw_ver, "16.35.2000");
	assert_int_equal(l.nirqs, 2);
	assert_string_equal(l.irq_cpus_str, "2-3,8");
	/* Soft-RoCE: no PCI device at all */
	assert_int_equal(rperf_nic_locality(sys, proc, "rxe0", &l), 0);
	assert_int_equal(l.numa_node, -1);
	assert_string_equal(l.pcie_speed, "");
	assert_int_equal(l.pcie_width, 0);
	assert_string_equal(l.irq_cpus_str, "");
	/* hostile contents: node 99999, "Unknown" speed, "1x", bad list */
	assert_int_equal(rperf_nic_locality(sys, proc, "bad0", &l), 0);
	assert_int_equal(l.numa_node, -1);
	assert_string_equal(l.pcie_speed, "");
	assert_int_equal(l.pcie_width, 0);
	assert_int_equal(l.nirqs, 1);
	assert_string_equal(l.irq_cpus_str, "");
	assert_int_equal(rperf_nic_locality(sys, proc, "../../etc", &l),
			 EINVAL);
	assert_int_equal(rperf_nic_locality(sys, proc, "nodev", &l), 0);
	assert_int_equal(l.numa_node, -1);
}

static void placement(void **state)
{
	struct rperf_place_req r = { -1, -1, -1, false };
	struct rperf_placement p;
	char msg[256], line[256];

	(void)state;
	/* default: both on the NIC's node */
	assert_int_equal(rperf_place_decide(&r, 1, -1, 2, &p, msg, sizeof(msg)),
			 0);
	assert_int_equal(p.cpu_node, 1);
	assert_int_equal(p.mem_node, 1);
	assert_false(p.remote);
	assert_string_equal(p.cpu_source, "the NIC's node");
	/* overrides, and the remote warning */
	r.mem_node = 0;
	assert_int_equal(rperf_place_decide(&r, 1, -1, 2, &p, msg, sizeof(msg)),
			 0);
	assert_int_equal(p.cpu_node, 1);
	assert_int_equal(p.mem_node, 0);
	assert_true(p.remote);
	rperf_place_format(&p, line, sizeof(line));
	assert_non_null(strstr(line, "memory node 0 (--mem-node)"));
	assert_non_null(strstr(line, "REMOTE"));
	/* --cpu decides the CPU's node; a contradicting --cpu-node fails */
	r = (struct rperf_place_req){ 3, 0, -1, false };
	assert_int_equal(rperf_place_decide(&r, 1, 1, 2, &p, msg, sizeof(msg)),
			 EINVAL);
	assert_non_null(strstr(msg, "--cpu-node"));
	r.cpu_node = -1;
	assert_int_equal(rperf_place_decide(&r, 1, 1, 2, &p, msg, sizeof(msg)),
			 0);
	assert_int_equal(p.cpu, 3);
	assert_string_equal(p.cpu_source, "--cpu");
	/* an inherited restricted affinity (taskset) is kept by default;
	 * the memory still goes to the NIC's node */
	r = (struct rperf_place_req){ -1, -1, -1, true };
	assert_int_equal(rperf_place_decide(&r, 1, -1, 2, &p, msg, sizeof(msg)),
			 0);
	assert_int_equal(p.cpu_node, -1);
	assert_int_equal(p.mem_node, 1);
	assert_non_null(strstr(p.cpu_source, "taskset"));
	/* NIC node unknown (-1): nothing bound, nothing remote */
	r = (struct rperf_place_req){ -1, -1, -1, false };
	assert_int_equal(
		rperf_place_decide(&r, -1, -1, 1, &p, msg, sizeof(msg)), 0);
	assert_int_equal(p.cpu_node, -1);
	assert_int_equal(p.mem_node, -1);
	assert_false(p.remote);
	/* explicit node 0 on a one-node host (the lab VM) */
	r = (struct rperf_place_req){ -1, 0, 0, false };
	assert_int_equal(
		rperf_place_decide(&r, -1, -1, 1, &p, msg, sizeof(msg)), 0);
	assert_int_equal(p.cpu_node, 0);
	assert_int_equal(p.mem_node, 0);
	/* nodes that do not exist; a hostile NIC node */
	r = (struct rperf_place_req){ -1, 2, -1, false };
	assert_int_equal(rperf_place_decide(&r, 1, -1, 2, &p, msg, sizeof(msg)),
			 EINVAL);
	assert_non_null(strstr(msg, "accepted: 0 to 1"));
	r = (struct rperf_place_req){ -1, -1, 1, false };
	assert_int_equal(rperf_place_decide(&r, -1, -1, 0, &p, msg,
					    sizeof(msg)),
			 EINVAL);
	r = (struct rperf_place_req){ -1, -1, -1, false };
	assert_int_equal(rperf_place_decide(&r, 7, -1, 2, &p, msg, sizeof(msg)),
			 0);
	assert_int_equal(p.nic_node, -1);
}

/* Applying a placement on this host (node 0 exists wherever NUMA does). */
static void placement_apply(void **state)
{
	struct rperf_place_req r = { -1, 0, 0, false };
	struct rperf_placement p;
	char msg[256] = "";

	(void)state;
	if (rperf_place_nnodes() < 1)
		skip();
	assert_int_equal(rperf_place_decide(&r, -1, -1, rperf_place_nnodes(),
					    &p, msg, sizeof(msg)),
			 0);
	assert_int_equal(rperf_place_apply(&p, msg, sizeof(msg)), 0);
	/* a node that the kernel does not have: an errno and a message */
	p.cpu_node = 4000;
	assert_int_not_equal(rperf_place_apply(&p, msg, sizeof(msg)), 0);
	assert_non_null(strstr(msg, "cannot run on node 4000"));
	/* a CPU beyond the set: refused before any system call */
	p.cpu = 1 << 20;
	assert_int_equal(rperf_place_apply(&p, msg, sizeof(msg)), EINVAL);
	assert_non_null(strstr(msg, "--cpu"));
}

static const struct rperf_check *find(const struct rperf_preflight *pf,
				      const char *name)
{
	for (size_t i = 0; i < pf->n; i++)
		if (strcmp(pf->c[i].check, name) == 0)
			return &pf->c[i];
	fail_msg("no check %s", name);
	return NULL;
}

static void preflight_vm(void **state)
{
	struct rperf_nic_locality nic;
	struct rperf_placement pl;
	struct rperf_place_req r = { -1, 0, -1, false };
	struct rperf_preflight pf;
	char sys[512], proc[512], msg[128];
	struct rperf_preflight_in in = { .sys = sys, .proc = proc, .cpu = 2 };

	(void)state;
	root("host1", "sys", sys, sizeof(sys));
	root("host1", "proc", proc, sizeof(proc));
	assert_int_equal(rperf_nic_locality(sys, proc, "mlx5_0", &nic), 0);
	assert_int_equal(rperf_place_decide(&r, nic.numa_node, -1, 2, &pl, msg,
					    sizeof(msg)),
			 0);
	in.nic = &nic;
	in.place = &pl;
	rperf_preflight_run(&in, &pf);
	assert_int_equal(pf.n, 7);
	assert_false(find(&pf, "governor")->ok);
	assert_non_null(strstr(find(&pf, "governor")->detail, "powersave"));
	assert_false(find(&pf, "cstates")->ok);
	assert_non_null(strstr(find(&pf, "cstates")->detail, "C6"));
	assert_false(find(&pf, "hypervisor")->ok);
	assert_false(find(&pf, "invariant_tsc")->ok);
	assert_non_null(
		strstr(find(&pf, "invariant_tsc")->detail, "constant_tsc"));
	assert_non_null(strstr(find(&pf, "invariant_tsc")->detail, "hpet"));
	assert_false(find(&pf, "nic_local")->ok);
	assert_false(find(&pf, "irq_core")->ok); /* cpu 2 takes IRQ 40 */
	/* one read of the same file: no time passed, not a failure */
	assert_true(find(&pf, "busy_cpu")->ok);
	/* cpu 5: performance, C6 disabled, core 5,13 free of IRQs */
	in.cpu = 5;
	rperf_preflight_run(&in, &pf);
	assert_true(find(&pf, "governor")->ok);
	assert_true(find(&pf, "cstates")->ok);
	assert_true(find(&pf, "irq_core")->ok);
}

static void preflight_metal(void **state)
{
	struct rperf_preflight pf;
	char sys[512], proc[512];
	struct rperf_preflight_in in = { .sys = sys, .proc = proc, .cpu = 0 };

	(void)state;
	root("host2", "sys", sys, sizeof(sys));
	root("host2", "proc", proc, sizeof(proc));
	rperf_preflight_run(&in, &pf);
	assert_true(find(&pf, "hypervisor")->ok);
	assert_true(find(&pf, "invariant_tsc")->ok);
	assert_true(find(&pf, "governor")->ok); /* no cpufreq */
	assert_true(find(&pf, "cstates")->ok); /* no cpuidle */
	assert_true(find(&pf, "nic_local")->ok);
	assert_true(find(&pf, "irq_core")->ok);
}

static void busy(void **state)
{
	const char *a = "cpu  10 0 10 100 0 0 0 0 0 0\n"
			"cpu0 5 0 5 50 0 0 0 0 0 0\n"
			"cpu1 5 0 5 50 0 0 0 0 0 0\n";
	const char *b = "cpu  60 0 10 150 0 0 0 0 0 0\n"
			"cpu0 55 0 5 50 0 0 0 0 0 0\n"
			"cpu1 5 0 5 100 0 0 0 0 0 0\n";
	double pct = -1;

	(void)state;
	assert_int_equal(rperf_stat_busy_pct(a, b, 0, &pct), 0);
	assert_true(pct == 100.0);
	assert_int_equal(rperf_stat_busy_pct(a, b, 1, &pct), 0);
	assert_true(pct == 0.0);
	assert_int_equal(rperf_stat_busy_pct(a, a, 1, &pct), ENODATA);
	assert_int_equal(rperf_stat_busy_pct(a, b, 2, &pct), EINVAL);
	assert_int_equal(rperf_stat_busy_pct("cpu0 x\n", b, 0, &pct), EINVAL);
	assert_int_equal(rperf_stat_busy_pct(b, a, 0, &pct), ENODATA);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cpusets),
		cmocka_unit_test(locality),
		cmocka_unit_test(placement),
		cmocka_unit_test(placement_apply),
		cmocka_unit_test(preflight_vm),
		cmocka_unit_test(preflight_metal),
		cmocka_unit_test(busy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
