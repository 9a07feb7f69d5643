// SPDX-License-Identifier: BSD-2-Clause
/*
 * Placement, preflight and the new device/port facts in the reports: the
 * rperf info JSON contract (pcie, irq_cpus, sl2vl, vlarb, preflight), its
 * text, and the placement/preflight of a run report (JSON and text).
 */
#include "report_fixture.h"

static void fill_host(struct rperf_device_info *d, struct rperf_port_info *p,
		      struct rperf_preflight *pf)
{
	memset(p, 0, sizeof(*p));
	*p = (struct rperf_port_info){ .port = 1,
				       .state = "ACTIVE",
				       .link_layer = "InfiniBand",
				       .rate_gbps = 100,
				       .mtu = 4096,
				       .max_vl_num = 8,
				       .lid = 7,
				       .speed = "EDR",
				       .width = "4x",
				       .encoding = "64b/66b",
				       .has_sl2vl = true,
				       .has_vlarb = true };
	for (int sl = 0; sl < 16; sl++)
		p->sl2vl[sl] = (uint8_t)(sl % 4);
	p->vlarb_vl[0][0] = 0;
	p->vlarb_weight[0][0] = 64;
	p->vlarb_vl[1][0] = 3;
	p->vlarb_weight[1][0] = 255;
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "mlx5_0");
	d->numa_node = 1;
	snprintf(d->fw_ver, sizeof(d->fw_ver), "16.35.2000");
	snprintf(d->pcie_speed, sizeof(d->pcie_speed), "16.0 GT/s PCIe");
	d->pcie_width = 16;
	snprintf(d->irq_cpus, sizeof(d->irq_cpus), "2-3,8");
	d->nports = 1;
	d->ports = p;
	memset(pf, 0, sizeof(*pf));
	pf->n = 2;
	pf->c[0] =
		(struct rperf_check){ "invariant_tsc", false,
				      "TSC not invariant; clocksource hpet" };
	pf->c[1] = (struct rperf_check){ "governor", true, "performance" };
}

/* rperf info over one device (fill_host) and its preflight. */
struct host_info {
	struct rperf_device_info d;
	struct rperf_port_info p;
	struct rperf_preflight pf;
	struct rperf_device_list l;
	struct rperf_info info;
};

static void host_info(struct host_info *h, struct fixture *fx)
{
	fill_host(&h->d, &h->p, &h->pf);
	h->l = (struct rperf_device_list){ .n = 1, .dev = &h->d };
	h->info = (struct rperf_info){ .clock = &fx->clk,
				       .platform = &fx->plat,
				       .devices = &h->l,
				       .preflight = &h->pf };
}

static void test_info_host_json(void **state)
{
	static struct host_info h;
	struct rperf_device_info *d = &h.d;
	struct rperf_port_info *p = &h.p;
	json_t *root, *dev, *port, *c;
	char *out;

	host_info(&h, *state);
	out = render_info(rperf_info_json, &h.info);
	root = parse(out);
	dev = json_array_get(get(root, "devices"), 0);
	assert_int_equal(get_int(dev, "numa_node"), 1);
	assert_string_equal(get_str(dev, "fw_ver"), "16.35.2000");
	assert_string_equal(get_str(get(dev, "pcie"), "speed"),
			    "16.0 GT/s PCIe");
	assert_int_equal(get_int(get(dev, "pcie"), "width"), 16);
	assert_string_equal(get_str(dev, "irq_cpus"), "2-3,8");
	port = json_array_get(get(dev, "ports"), 0);
	assert_int_equal(get_int(port, "lid"), 7);
	assert_string_equal(get_str(port, "speed"), "EDR");
	assert_string_equal(get_str(port, "width"), "4x");
	assert_string_equal(get_str(port, "encoding"), "64b/66b");
	assert_int_equal(json_array_size(get(port, "sl2vl")), 16);
	assert_int_equal(
		json_integer_value(json_array_get(get(port, "sl2vl"), 5)), 1);
	c = json_array_get(get(get(port, "vlarb"), "high"), 0);
	assert_int_equal(get_int(c, "vl"), 3);
	assert_int_equal(get_int(c, "weight"), 255);
	assert_int_equal(json_array_size(get(get(port, "vlarb"), "low")), 1);
	assert_true(json_is_null(get(port, "vl_note")));
	c = json_array_get(get(root, "preflight"), 0);
	assert_string_equal(get_str(c, "check"), "invariant_tsc");
	assert_true(json_is_false(get(c, "ok")));
	assert_string_equal(get_str(c, "detail"),
			    "TSC not invariant; clocksource hpet");
	json_decref(root);
	free(out);

	/* Soft-RoCE: no PCIe, no IRQs, no tables: nulls and the note */
	d->pcie_speed[0] = '\0';
	d->pcie_width = 0;
	d->irq_cpus[0] = '\0';
	p->has_sl2vl = p->has_vlarb = false;
	snprintf(p->vl_note, sizeof(p->vl_note), "needs umad access");
	out = render_info(rperf_info_json, &h.info);
	root = parse(out);
	dev = json_array_get(get(root, "devices"), 0);
	port = json_array_get(get(dev, "ports"), 0);
	assert_true(json_is_null(get(dev, "pcie")));
	assert_true(json_is_null(get(dev, "irq_cpus")));
	assert_null(json_object_get(port, "sl2vl"));
	assert_null(json_object_get(port, "vlarb"));
	assert_string_equal(get_str(port, "vl_note"), "needs umad access");
	json_decref(root);
	free(out);
}

static void test_info_host_text(void **state)
{
	static struct host_info h;
	char *out;

	host_info(&h, *state);
	out = render_info(rperf_info_text, &h.info);
	assert_non_null(strstr(out, "mlx5_0 (numa node 1, node guid"));
	assert_non_null(strstr(out, "fw 16.35.2000"));
	assert_non_null(strstr(out, "pcie: 16.0 GT/s PCIe x16"));
	assert_non_null(strstr(out, "irq cpus: 2-3,8"));
	assert_non_null(strstr(out, "4x EDR (64b/66b), lid 7"));
	assert_non_null(strstr(out, "sl2vl: 0:0 1:1 2:2 3:3 4:0"));
	assert_non_null(strstr(out, "vlarb high: 3:255 (VL:weight)"));
	assert_non_null(strstr(out, "invariant_tsc: WARN TSC not invariant"));
	assert_non_null(strstr(out, "governor     : ok   performance"));
	free(out);
}

static void test_run_placement(void **state)
{
	struct fixture *fx = *state;
	struct rperf_placement pl = { .nic_node = 1,
				      .cpu_node = 0,
				      .mem_node = 1,
				      .cpu = -1,
				      .cpu_source = "--cpu-node",
				      .mem_source = "the NIC's node",
				      .remote = true,
				      .hugepages = "2M",
				      .buffers_note = "no free 2M huge pages" };
	struct rperf_device_info d;
	struct rperf_port_info p;
	struct rperf_preflight pf;
	json_t *root, *o;
	char *out;

	fill_host(&d, &p, &pf);
	fx->r.placement = &pl;
	fx->r.preflight = &pf;
	out = render(rperf_report_json, &fx->r);
	root = parse(out);
	o = get(root, "placement");
	assert_int_equal(get_int(o, "nic_node"), 1);
	assert_int_equal(get_int(o, "cpu_node"), 0);
	assert_int_equal(get_int(o, "mem_node"), 1);
	assert_true(json_is_null(get(o, "cpu")));
	assert_string_equal(get_str(o, "cpu_source"), "--cpu-node");
	assert_true(json_is_true(get(o, "remote")));
	assert_string_equal(get_str(o, "hugepages"), "2M");
	assert_string_equal(get_str(o, "buffers_note"),
			    "no free 2M huge pages");
	assert_int_equal(json_array_size(get(root, "preflight")), 2);
	json_decref(root);
	free(out);

	out = render(rperf_report_text, &fx->r);
	assert_non_null(strstr(
		out,
		"placement    : cpu node 0 (--cpu-node), memory node 1 (the NIC's node), NIC node 1 - REMOTE"));
	assert_non_null(strstr(
		out, "buffers      : hugepages 2M; no free 2M huge pages"));
	assert_non_null(strstr(out, "preflight    : failed invariant_tsc"));
	free(out);

	/* without placement: no keys at all (older consumers unaffected) */
	fx->r.placement = NULL;
	fx->r.preflight = NULL;
	out = render(rperf_report_json, &fx->r);
	root = parse(out);
	assert_null(json_object_get(root, "placement"));
	assert_null(json_object_get(root, "preflight"));
	json_decref(root);
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_info_host_json, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_info_host_text, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_run_placement, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
