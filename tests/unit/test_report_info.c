// SPDX-License-Identifier: BSD-2-Clause
/*
 * Unit tests of the report module, rperf info: the JSON (parsed back with
 * jansson) and text renderings, with and without an RDMA device.
 */
#include "report_fixture.h"

/* ---- rperf info -------------------------------------------------------- */

struct fake_dev {
	struct rperf_gid_info gids[3];
	struct rperf_port_info ports[2];
	struct rperf_device_info dev;
	struct rperf_device_list list;
};

static void fake_device(struct fake_dev *d)
{
	memset(d, 0, sizeof(*d));
	d->gids[0] = (struct rperf_gid_info){ .index = 0,
					      .gid = "fe80:0000:0000:0000:"
						     "0000:00ff:fe00:0001",
					      .type = "RoCE v1",
					      .netdev = "eth0" };
	d->gids[1] = (struct rperf_gid_info){ .index = 1,
					      .gid = "0000:0000:0000:0000:"
						     "0000:ffff:0a00:0001",
					      .type = "RoCE v2",
					      .netdev = "eth0" };
	d->gids[2] = (struct rperf_gid_info){ .index = 0,
					      .gid = "fe80:0000:0000:0000:"
						     "0000:0000:0000:0002",
					      .type = "IB" };
	d->ports[0] = (struct rperf_port_info){
		.port = 1,
		.state = "ACTIVE",
		.link_layer = "Ethernet",
		.rate_gbps = 100,
		.mtu = 1024,
		.max_vl_num = 1,
		.ngids = 2,
		.gids = d->gids,
	};
	d->ports[1] = (struct rperf_port_info){
		.port = 2,
		.state = "DOWN",
		.link_layer = "InfiniBand",
		.rate_gbps = 56.25,
		.mtu = 4096,
		.max_vl_num = 8,
		.ngids = 1,
		.gids = &d->gids[2],
	};
	d->dev = (struct rperf_device_info){ .name = "rxe0",
					     .numa_node = -1,
					     .node_guid = "0011:2233:4455:6677",
					     .nports = 2,
					     .ports = d->ports };
	d->list = (struct rperf_device_list){ .n = 1, .dev = &d->dev };
}

static void check_port(json_t *p, const struct rperf_port_info *want)
{
	json_t *gids = get(p, "gids");
	size_t i;

	assert_int_equal(get_int(p, "port"), want->port);
	assert_string_equal(get_str(p, "state"), want->state);
	assert_string_equal(get_str(p, "link_layer"), want->link_layer);
	assert_close(json_number_value(get(p, "rate_gbps")), want->rate_gbps);
	assert_int_equal(get_int(p, "mtu"), want->mtu);
	assert_int_equal(get_int(p, "max_vl_num"), want->max_vl_num);
	assert_int_equal(json_array_size(gids), want->ngids);
	for (i = 0; i < want->ngids; i++) {
		json_t *g = json_array_get(gids, i);

		assert_int_equal(get_int(g, "index"), want->gids[i].index);
		assert_string_equal(get_str(g, "gid"), want->gids[i].gid);
		assert_string_equal(get_str(g, "type"), want->gids[i].type);
		assert_string_equal(get_str(g, "netdev"), want->gids[i].netdev);
	}
}

static void test_info_json_no_device(void **state)
{
	struct fixture *fx = *state;
	struct rperf_device_list l = { .n = 0, .list_errno = ENOSYS };
	struct rperf_info info = { .clock = &fx->clk,
				   .selftest = &fx->st,
				   .platform = &fx->plat,
				   .devices = &l };
	char *out = render_info(rperf_info_json, &info);
	json_t *root = parse(out);

	assert_int_equal(get_int(root, "schema_version"), RPERF_SCHEMA_VERSION);
	check_clock(get(root, "clock"), true);
	check_platform(get(root, "platform"));
	assert_true(json_is_array(get(root, "devices")));
	assert_int_equal(json_array_size(get(root, "devices")), 0);
	assert_int_equal(get_int(root, "devices_errno"), ENOSYS);
	assert_string_equal(get_str(root, "devices_note"),
			    "kernel has no RDMA support");
	json_decref(root);
	free(out);

	/* no list at all: still an empty array, no errno */
	info.devices = NULL;
	info.selftest = NULL;
	out = render_info(rperf_info_json, &info);
	root = parse(out);
	check_clock(get(root, "clock"), false);
	assert_int_equal(json_array_size(get(root, "devices")), 0);
	assert_null(json_object_get(root, "devices_errno"));
	assert_null(json_object_get(root, "devices_note"));
	json_decref(root);
	free(out);
}

static void test_info_json_device(void **state)
{
	struct fixture *fx = *state;
	struct fake_dev d;
	struct rperf_info info = { .clock = &fx->clk,
				   .selftest = &fx->st,
				   .platform = &fx->plat };
	json_t *root, *devs, *dev, *ports;
	char *out;

	fake_device(&d);
	info.devices = &d.list;
	out = render_info(rperf_info_json, &info);
	root = parse(out);
	devs = get(root, "devices");
	assert_int_equal(json_array_size(devs), 1);
	dev = json_array_get(devs, 0);
	assert_string_equal(get_str(dev, "name"), "rxe0");
	assert_int_equal(get_int(dev, "numa_node"), -1);
	assert_string_equal(get_str(dev, "node_guid"), "0011:2233:4455:6677");
	ports = get(dev, "ports");
	assert_int_equal(json_array_size(ports), 2);
	check_port(json_array_get(ports, 0), &d.ports[0]);
	check_port(json_array_get(ports, 1), &d.ports[1]);
	assert_null(json_object_get(root, "devices_errno"));
	json_decref(root);
	free(out);
}

static void test_info_text(void **state)
{
	struct fixture *fx = *state;
	struct fake_dev d;
	struct rperf_device_list none = { .n = 0, .list_errno = ENOSYS };
	struct rperf_info info = { .clock = &fx->clk,
				   .selftest = &fx->st,
				   .platform = &fx->plat,
				   .devices = &none };
	char *out = render_info(rperf_info_text, &info);

	assert_non_null(strstr(out, "source       : tsc (trusted)"));
	assert_non_null(strstr(out, "invariant_tsc=yes"));
	assert_non_null(strstr(out, "hypervisor=yes"));
	assert_non_null(strstr(out, "clocksource=tsc"));
	assert_non_null(strstr(out, "2400000000 Hz"));
	assert_non_null(strstr(out, "error 0.75 ppm"));
	assert_non_null(strstr(out, "min 18.5 ns, median 21.2"));
	assert_non_null(strstr(out, "while spinning 100 ms"));
	assert_non_null(strstr(out, "jansson 2.14"));
	assert_non_null(
		strstr(out, "no RDMA device found (ibv_get_device_list: "));
	assert_non_null(strstr(out, "tests/lab/rxe-lab demo"));
	free(out);

	fake_device(&d);
	info.devices = &d.list;
	out = render_info(rperf_info_text, &info);
	assert_non_null(strstr(out, "rxe0"));
	assert_non_null(strstr(out, "port 2: DOWN, InfiniBand, 56.25 Gb/s"));
	assert_non_null(strstr(out, "RoCE v2 eth0"));
	assert_null(strstr(out, "no RDMA device"));
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_info_json_no_device, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_info_json_device, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_info_text, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
