/*
 * Scripts written without spaces (common-int.h): which code points, and a
 * UTF-8 reader for the tokenizers that cut them (the store's search index
 * and the public index's queries, src/store/grams-int.h).
 */
#include "common/common-int.h"

/* Keep in step with HEED__GRAM_CLASS: a unit test checks both agree. */
static const uint32_t gram_ranges[][2] = {
        {0x0E00, 0x0EFF},   /* Thai, Lao */
        {0x1000, 0x109F},   /* Myanmar */
        {0x1100, 0x11FF},   /* Hangul Jamo */
        {0x1780, 0x17FF},   /* Khmer */
        {0x3005, 0x3007},   /* ideographic iteration mark, closing, zero */
        {0x3040, 0x30FF},   /* Hiragana, Katakana */
        {0x3130, 0x318F},   /* Hangul compatibility Jamo */
        {0x31F0, 0x31FF},   /* Katakana phonetic extensions */
        {0x3400, 0x4DBF},   /* CJK extension A */
        {0x4E00, 0x9FFF},   /* CJK unified ideographs */
        {0xA960, 0xA97F},   /* Hangul Jamo extended A */
        {0xAC00, 0xD7AF},   /* Hangul syllables */
        {0xD7B0, 0xD7FF},   /* Hangul Jamo extended B */
        {0xF900, 0xFAFF},   /* CJK compatibility ideographs */
        {0xFF66, 0xFF9F},   /* halfwidth Katakana */
        {0x20000, 0x2FA1F}, /* CJK extensions B to F, compatibility */
};

bool heed__gram_cp(uint32_t cp)
{
	size_t lo = 0, hi = HEED_ARRAY_SIZE(gram_ranges);

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (cp < gram_ranges[mid][0])
			hi = mid;
		else if (cp > gram_ranges[mid][1])
			lo = mid + 1;
		else
			return true;
	}
	return false;
}

size_t heed__utf8_next(const char *str, size_t len, uint32_t *cp)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = s[0] < 0x80   ? 1
	           : s[0] < 0xC2 ? 0
	           : s[0] < 0xE0 ? 2
	           : s[0] < 0xF0 ? 3
	           : s[0] < 0xF5 ? 4
	                         : 0;
	uint32_t v;

	if (n == 1) {
		*cp = s[0];
		return 1;
	}
	if (n == 0 || n > len)
		goto bad;
	v = s[0] & (0x7Fu >> n);
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80)
			goto bad;
		v = (v << 6) | (s[i] & 0x3Fu);
	}
	/* Overlong forms, surrogates and values past U+10FFFF. */
	if ((n == 3 && v < 0x800) ||
	    (n == 4 && (v < 0x10000 || v > 0x10FFFF)) ||
	    (v >= 0xD800 && v <= 0xDFFF))
		goto bad;
	*cp = v;
	return n;
bad:
	*cp = 0xFFFD;
	return 1;
}
