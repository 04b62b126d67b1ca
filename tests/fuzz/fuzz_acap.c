#include <stdint.h>
#include <stddef.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	(void)d;
	(void)n;
	return 0;
}
