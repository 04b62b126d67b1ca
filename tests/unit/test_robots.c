#include "heed_test.h"

#include "heed/robots.h"

static void test_smoke(void **state)
{
	heed_robots *r;
	(void)state;
	assert_int_equal(
	        heed_robots_parse(&r, heed_test_allocator(), "", 0, NULL),
	        HEED_OK);
	heed_robots_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_smoke),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
