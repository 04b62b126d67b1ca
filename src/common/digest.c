/*
 * The content digest of a body: a 200 whose digest equals the stored one
 * counts as unchanged for the revisit schedule, as a 304 does. SHA-256
 * from OpenSSL's libcrypto, which libheed links already for TLS: a
 * collision would make heed miss a change, so a fast non-cryptographic
 * hash is not enough.
 */
#include <openssl/evp.h>

#include "common/common-int.h"

bool heed__sha256_hex(const void *data, size_t len, char hex[HEED_SHA256_HEX])
{
	static const char digits[] = "0123456789abcdef";
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int md_len = 0;

	if (!EVP_Digest(data ? data : "", data ? len : 0, md, &md_len,
	                EVP_sha256(), NULL) ||
	    md_len * 2 + 1 != HEED_SHA256_HEX)
		return false;
	for (unsigned int i = 0; i < md_len; i++) {
		hex[2 * i] = digits[md[i] >> 4];
		hex[2 * i + 1] = digits[md[i] & 15];
	}
	hex[2 * md_len] = '\0';
	return true;
}
