/*
 * test/unit.c
 *		Unit tests for the server-free parts of the ULID extension: the
 *		Crockford Base32 codec (ulid_base32.h), the byte layout, monotonic
 *		step and distance (ulid_step.h), and the random pool (ulid_random.h).
 *
 * Self-contained C99, no framework and no PostgreSQL headers.  Build and run
 * from the top directory:
 *
 *		cc -std=c99 -O2 -Wall -Wextra -Werror -o test/unit test/unit.c
 *		./test/unit
 *
 * Each test is a function.  A failed CHECK reports its expression and line
 * and ends that test.  The last line is "unit: N passed, M failed", counting
 * test functions; the exit status is 1 if any test failed.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ulid_base32.h"
#include "../ulid_random.h"
#include "../ulid_layout.h"
#include "../ulid_monotonic.h"

/* ---------------------------------------------------------------- harness */

static bool test_failed;
static char test_failure[512];

static void
test_fail(const char *expr, int line, long iter)
{
	test_failed = true;
	if (iter < 0)
		snprintf(test_failure, sizeof(test_failure), "CHECK(%s) at line %d",
				 expr, line);
	else
		snprintf(test_failure, sizeof(test_failure),
				 "CHECK(%s) at line %d, iteration %ld", expr, line, iter);
}

/* Fail the running test and return from it if cond is false. */
#define CHECK(cond) \
	do { \
		if (!(cond)) \
		{ \
			test_fail(#cond, __LINE__, -1); \
			return; \
		} \
	} while (0)

/* The same inside a loop: also report the loop counter i. */
#define CHECK_AT(cond, i) \
	do { \
		if (!(cond)) \
		{ \
			test_fail(#cond, __LINE__, (long) (i)); \
			return; \
		} \
	} while (0)

/* ------------------------------------------------------------ test data */

/* The example from the ULID specification. */
static const char vector_text[] = "01ARYZ6S41TSV4RRFFQ69G5FAV";
static const uint8_t vector_bytes[ULID_LEN] = {
	0x01, 0x56, 0x3d, 0xf3, 0x64, 0x81, 0xd6, 0x76,
	0x4c, 0x61, 0xef, 0xb9, 0x93, 0x02, 0xbd, 0x5b
};

static const char alphabet[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/* xorshift64: a deterministic source of test data, nothing more. */
static uint64_t prng_state;

static void
prng_seed(uint64_t seed)
{
	prng_state = seed ? seed : 0x9E3779B97F4A7C15ULL;
}

static uint64_t
prng_next(void)
{
	uint64_t	x = prng_state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	prng_state = x;
	return x;
}

static void
prng_fill(uint8_t *buf, size_t len)
{
	for (size_t i = 0; i < len; i++)
		buf[i] = (uint8_t) (prng_next() >> 56);
}

/* Status of decoding the vector with the byte at pos replaced by c. */
static ulid_decode_status
decode_with_byte(int pos, unsigned char c)
{
	char		text[ULID_TEXT_LEN];
	uint8_t		out[ULID_LEN];

	memcpy(text, vector_text, ULID_TEXT_LEN);
	text[pos] = (char) c;
	return ulid_base32_decode(text, ULID_TEXT_LEN, out);
}

/* Sign of an int: -1, 0 or 1. */
static int
sign(int v)
{
	return (v > 0) - (v < 0);
}

/* ------------------------------------------------------------ codec tests */

/* The specification's example encodes and decodes both ways. */
static void
test_known_vector(void)
{
	char		text[ULID_TEXT_LEN + 1];
	uint8_t		bytes[ULID_LEN];

	memset(text, '#', sizeof(text));
	ulid_base32_encode(vector_bytes, text);
	CHECK(memcmp(text, vector_text, ULID_TEXT_LEN) == 0);
	CHECK(text[ULID_TEXT_LEN] == '#');	/* no terminator written */

	CHECK(ulid_base32_decode(vector_text, ULID_TEXT_LEN, bytes) == ULID_DECODE_OK);
	CHECK(memcmp(bytes, vector_bytes, ULID_LEN) == 0);
}

/* The smallest and largest values encode and decode both ways. */
static void
test_extremes(void)
{
	static const char zero_text[] = "00000000000000000000000000";
	static const char max_text[] = "7ZZZZZZZZZZZZZZZZZZZZZZZZZ";
	uint8_t		zero[ULID_LEN];
	uint8_t		max[ULID_LEN];
	uint8_t		bytes[ULID_LEN];
	char		text[ULID_TEXT_LEN];

	memset(zero, 0x00, ULID_LEN);
	memset(max, 0xFF, ULID_LEN);

	ulid_base32_encode(zero, text);
	CHECK(memcmp(text, zero_text, ULID_TEXT_LEN) == 0);
	memset(bytes, 0xAA, ULID_LEN);
	CHECK(ulid_base32_decode(zero_text, ULID_TEXT_LEN, bytes) == ULID_DECODE_OK);
	CHECK(memcmp(bytes, zero, ULID_LEN) == 0);

	ulid_base32_encode(max, text);
	CHECK(memcmp(text, max_text, ULID_TEXT_LEN) == 0);
	memset(bytes, 0xAA, ULID_LEN);
	CHECK(ulid_base32_decode(max_text, ULID_TEXT_LEN, bytes) == ULID_DECODE_OK);
	CHECK(memcmp(bytes, max, ULID_LEN) == 0);
}

/* All 256 entries of the decode table follow from the documented rules. */
static void
test_decode_table(void)
{
	int			expected[256];

	for (int c = 0; c < 256; c++)
		expected[c] = -1;
	for (int v = 0; v < 32; v++)
	{
		unsigned char c = (unsigned char) alphabet[v];

		expected[c] = v;
		if (c >= 'A' && c <= 'Z')
			expected[c - 'A' + 'a'] = v;
	}
	expected['I'] = expected['i'] = 1;
	expected['L'] = expected['l'] = 1;
	expected['O'] = expected['o'] = 0;

	CHECK(strlen(alphabet) == 32);
	CHECK(memcmp(ulid_base32_alphabet, alphabet, 32) == 0);
	CHECK(expected['U'] == -1 && expected['u'] == -1);
	for (int c = 0; c < 256; c++)
		CHECK_AT(ulid_base32_value[c] == expected[c], c);
}

/* Lower case and the aliases O, I and L decode like the canonical form. */
static void
test_case_and_aliases(void)
{
	static const char *const zero_aliases[] = {"O", "o"};
	static const char *const one_aliases[] = {"I", "i", "L", "l"};
	char		text[ULID_TEXT_LEN];
	uint8_t		bytes[ULID_LEN];

	/* whole string in lower case */
	for (int i = 0; i < ULID_TEXT_LEN; i++)
	{
		char		c = vector_text[i];

		text[i] = (c >= 'A' && c <= 'Z') ? (char) (c - 'A' + 'a') : c;
	}
	CHECK(ulid_base32_decode(text, ULID_TEXT_LEN, bytes) == ULID_DECODE_OK);
	CHECK(memcmp(bytes, vector_bytes, ULID_LEN) == 0);

	/* each 0 and 1 of the vector replaced, one at a time, by an alias */
	for (int pos = 0; pos < ULID_TEXT_LEN; pos++)
	{
		const char *const *aliases;
		int			naliases;

		if (vector_text[pos] == '0')
		{
			aliases = zero_aliases;
			naliases = 2;
		}
		else if (vector_text[pos] == '1')
		{
			aliases = one_aliases;
			naliases = 4;
		}
		else
			continue;
		for (int a = 0; a < naliases; a++)
		{
			memcpy(text, vector_text, ULID_TEXT_LEN);
			text[pos] = aliases[a][0];
			memset(bytes, 0, ULID_LEN);
			CHECK_AT(ulid_base32_decode(text, ULID_TEXT_LEN, bytes) == ULID_DECODE_OK, pos);
			CHECK_AT(memcmp(bytes, vector_bytes, ULID_LEN) == 0, pos);
		}
	}

	/* all aliases at once: O/o for 0 and I/i/L/l for 1 */
	{
		static const char alias_text[] = "oIARYZ6S4lTSV4RRFFQ69G5FAV";
		static const char zero_text[] = "OoOoOoOoOoOoOoOoOoOoOoOoOo";
		uint8_t		zero[ULID_LEN];

		CHECK(ulid_base32_decode(alias_text, ULID_TEXT_LEN, bytes) == ULID_DECODE_OK);
		CHECK(memcmp(bytes, vector_bytes, ULID_LEN) == 0);

		memset(zero, 0, ULID_LEN);
		memset(bytes, 0xAA, ULID_LEN);
		CHECK(ulid_base32_decode(zero_text, ULID_TEXT_LEN, bytes) == ULID_DECODE_OK);
		CHECK(memcmp(bytes, zero, ULID_LEN) == 0);
	}

	/* lower-case "7zzz..." is the largest value, too */
	{
		static const char max_lower[] = "7zzzzzzzzzzzzzzzzzzzzzzzzz";
		uint8_t		max[ULID_LEN];

		memset(max, 0xFF, ULID_LEN);
		CHECK(ulid_base32_decode(max_lower, ULID_TEXT_LEN, bytes) == ULID_DECODE_OK);
		CHECK(memcmp(bytes, max, ULID_LEN) == 0);
	}
}

/* A length other than 26 is BAD_LENGTH, whatever the characters are. */
static void
test_bad_length(void)
{
	static const char long_text[] = "01ARYZ6S41TSV4RRFFQ69G5FAV0";
	static const char short_bad[] = "01ARYZ6S41TSV4RRFFQ69G5FU";	/* 25, with U */
	static const char long_bad[] = "U1ARYZ6S41TSV4RRFFQ69G5FAV0";	/* 27, with U */
	static const char long_over[] = "81ARYZ6S41TSV4RRFFQ69G5FAV0";	/* 27, 8 first */
	uint8_t		bytes[ULID_LEN];

	CHECK(ulid_base32_decode("", 0, bytes) == ULID_DECODE_BAD_LENGTH);
	CHECK(ulid_base32_decode(vector_text, 25, bytes) == ULID_DECODE_BAD_LENGTH);
	CHECK(ulid_base32_decode(long_text, 27, bytes) == ULID_DECODE_BAD_LENGTH);

	/* length is checked before the characters and the range */
	CHECK(strlen(short_bad) == 25);
	CHECK(ulid_base32_decode(short_bad, 25, bytes) == ULID_DECODE_BAD_LENGTH);
	CHECK(ulid_base32_decode(long_bad, 27, bytes) == ULID_DECODE_BAD_LENGTH);
	CHECK(ulid_base32_decode(long_over, 27, bytes) == ULID_DECODE_BAD_LENGTH);
}

/* Bytes outside the alphabet are BAD_CHAR, in any position. */
static void
test_bad_char(void)
{
	static const unsigned char bad[] = {'U', 'u', '*', ' ', 0xC3, 0x80, 0xFF, '\0', '-'};
	const int	last = ULID_TEXT_LEN - 1;

	CHECK(decode_with_byte(0, 'U') == ULID_DECODE_BAD_CHAR);
	CHECK(decode_with_byte(last, 'U') == ULID_DECODE_BAD_CHAR);
	CHECK(decode_with_byte(7, '*') == ULID_DECODE_BAD_CHAR);
	CHECK(decode_with_byte(0, ' ') == ULID_DECODE_BAD_CHAR);
	CHECK(decode_with_byte(last, ' ') == ULID_DECODE_BAD_CHAR);
	CHECK(decode_with_byte(12, 0xC3) == ULID_DECODE_BAD_CHAR);

	/* every listed byte in every position */
	for (size_t b = 0; b < sizeof(bad); b++)
		for (int pos = 0; pos < ULID_TEXT_LEN; pos++)
			CHECK_AT(decode_with_byte(pos, bad[b]) == ULID_DECODE_BAD_CHAR,
					 b * ULID_TEXT_LEN + pos);
}

/* A first character above 7 is OVERFLOW, but only once all are valid. */
static void
test_overflow(void)
{
	char		text[ULID_TEXT_LEN];
	uint8_t		bytes[ULID_LEN];

	CHECK(decode_with_byte(0, '8') == ULID_DECODE_OVERFLOW);
	CHECK(decode_with_byte(0, 'Z') == ULID_DECODE_OVERFLOW);
	CHECK(decode_with_byte(0, 'z') == ULID_DECODE_OVERFLOW);
	CHECK(decode_with_byte(0, '9') == ULID_DECODE_OVERFLOW);
	CHECK(decode_with_byte(0, '7') == ULID_DECODE_OK);

	/* bad character is checked before overflow */
	memcpy(text, vector_text, ULID_TEXT_LEN);
	text[0] = '8';
	text[20] = 'U';
	CHECK(ulid_base32_decode(text, ULID_TEXT_LEN, bytes) == ULID_DECODE_BAD_CHAR);
	text[20] = (char) 0xC3;
	CHECK(ulid_base32_decode(text, ULID_TEXT_LEN, bytes) == ULID_DECODE_BAD_CHAR);
}

/* Random values survive encode/decode; the output is canonical. */
static void
test_round_trip(void)
{
	uint8_t		u[ULID_LEN];
	uint8_t		back[ULID_LEN];
	char		text[ULID_TEXT_LEN];

	prng_seed(0x0123456789ABCDEFULL);
	for (long n = 0; n < 100000; n++)
	{
		prng_fill(u, ULID_LEN);
		ulid_base32_encode(u, text);
		for (int i = 0; i < ULID_TEXT_LEN; i++)
			CHECK_AT(text[i] != '\0' && strchr(alphabet, text[i]) != NULL, n);
		CHECK_AT(text[0] <= '7', n);
		memset(back, ~u[0], ULID_LEN);
		CHECK_AT(ulid_base32_decode(text, ULID_TEXT_LEN, back) == ULID_DECODE_OK, n);
		CHECK_AT(memcmp(back, u, ULID_LEN) == 0, n);

		/* the same text with random letters in lower case decodes alike */
		for (int i = 0; i < ULID_TEXT_LEN; i++)
			if (text[i] >= 'A' && text[i] <= 'Z' && (prng_next() & 1))
				text[i] = (char) (text[i] - 'A' + 'a');
		CHECK_AT(ulid_base32_decode(text, ULID_TEXT_LEN, back) == ULID_DECODE_OK, n);
		CHECK_AT(memcmp(back, u, ULID_LEN) == 0, n);
	}
}

/* memcmp order of two values is strcmp order of their encodings. */
static void
test_sort_order(void)
{
	uint8_t		a[ULID_LEN];
	uint8_t		b[ULID_LEN];
	char		ta[ULID_TEXT_LEN + 1];
	char		tb[ULID_TEXT_LEN + 1];

	ta[ULID_TEXT_LEN] = tb[ULID_TEXT_LEN] = '\0';
	prng_seed(0xFEEDFACECAFEBEEFULL);
	for (long n = 0; n < 200000; n++)
	{
		prng_fill(a, ULID_LEN);
		memcpy(b, a, ULID_LEN);

		/* keep a common prefix of random length, so that late bytes matter */
		{
			int			keep = (int) (prng_next() % (ULID_LEN + 1));

			prng_fill(b + keep, ULID_LEN - keep);
			if (keep < ULID_LEN && (prng_next() & 1))
				b[keep] ^= 1;	/* often differ in one low bit only */
		}
		ulid_base32_encode(a, ta);
		ulid_base32_encode(b, tb);
		CHECK_AT(sign(memcmp(a, b, ULID_LEN)) == sign(strcmp(ta, tb)), n);
	}
}

/* ------------------------------------------------------------- step tests */

/* Random part used as the "fresh" input in the step tests. */
static const uint8_t fresh[ULID_RANDOM_BYTES] = {
	0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6, 0x07, 0x18, 0x29, 0x3A
};

/* Build a ULID from a time and a 10-byte random part. */
static void
make_ulid(uint8_t *u, uint64_t ms, const uint8_t *random)
{
	ulid_set_time(u, ms);
	memcpy(u + ULID_TIME_BYTES, random, ULID_RANDOM_BYTES);
}

/* First call: now_ms and the fresh bytes, whatever last holds. */
static void
test_step_first(void)
{
	uint8_t		last[ULID_LEN];
	uint8_t		next[ULID_LEN];
	uint8_t		expect[ULID_LEN];

	/* last holds the largest ULID: it must be ignored */
	memset(last, 0xFF, ULID_LEN);
	make_ulid(expect, 1469918176385ULL, fresh);
	CHECK(ulid_monotonic_step(last, false, 1469918176385ULL, fresh, next));
	CHECK(memcmp(next, expect, ULID_LEN) == 0);
	CHECK(memcmp(last, next, ULID_LEN) == 0);

	/* also at time zero */
	memset(last, 0x5A, ULID_LEN);
	make_ulid(expect, 0, fresh);
	CHECK(ulid_monotonic_step(last, false, 0, fresh, next));
	CHECK(memcmp(next, expect, ULID_LEN) == 0);
	CHECK(memcmp(last, next, ULID_LEN) == 0);
}

/* Clock ahead of last's millisecond: the new time and the fresh bytes. */
static void
test_step_clock_ahead(void)
{
	static const uint8_t ones[ULID_RANDOM_BYTES] = {
		0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF
	};
	uint8_t		last[ULID_LEN];
	uint8_t		next[ULID_LEN];
	uint8_t		expect[ULID_LEN];

	/* even a larger random part in last does not matter */
	make_ulid(last, 1000, ones);
	make_ulid(expect, 1001, fresh);
	CHECK(ulid_monotonic_step(last, true, 1001, fresh, next));
	CHECK(memcmp(next, expect, ULID_LEN) == 0);
	CHECK(memcmp(last, next, ULID_LEN) == 0);

	/* a large jump, up to the last millisecond */
	make_ulid(expect, ULID_TIME_MAX, fresh);
	CHECK(ulid_monotonic_step(last, true, ULID_TIME_MAX, fresh, next));
	CHECK(memcmp(next, expect, ULID_LEN) == 0);
	CHECK(memcmp(last, next, ULID_LEN) == 0);
}

/* Same millisecond: last plus one, time unchanged, fresh bytes ignored. */
static void
test_step_same_ms(void)
{
	static const uint8_t r[ULID_RANDOM_BYTES] = {
		0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC, 0xDE, 0xF0, 0x00, 0x05
	};
	uint8_t		last[ULID_LEN];
	uint8_t		prev[ULID_LEN];
	uint8_t		next[ULID_LEN];
	uint8_t		expect[ULID_LEN];

	make_ulid(last, 5000, r);
	memcpy(prev, last, ULID_LEN);
	memcpy(expect, last, ULID_LEN);
	expect[ULID_LEN - 1] = 0x06;

	CHECK(ulid_monotonic_step(last, true, 5000, fresh, next));
	CHECK(memcmp(next, expect, ULID_LEN) == 0);
	CHECK(ulid_get_time(next) == 5000);
	CHECK(memcmp(last, next, ULID_LEN) == 0);
	CHECK(memcmp(next, prev, ULID_LEN) > 0);

	/* and again: 07 */
	expect[ULID_LEN - 1] = 0x07;
	CHECK(ulid_monotonic_step(last, true, 5000, fresh, next));
	CHECK(memcmp(next, expect, ULID_LEN) == 0);
	CHECK(memcmp(last, next, ULID_LEN) == 0);
}

/* Clock behind last's millisecond: last plus one, keeping last's time. */
static void
test_step_clock_behind(void)
{
	static const uint8_t r[ULID_RANDOM_BYTES] = {
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00
	};
	uint8_t		last[ULID_LEN];
	uint8_t		next[ULID_LEN];
	uint8_t		expect[ULID_LEN];

	make_ulid(last, 9000, r);
	memcpy(expect, last, ULID_LEN);
	expect[ULID_LEN - 1] = 0x01;

	CHECK(ulid_monotonic_step(last, true, 8999, fresh, next));
	CHECK(memcmp(next, expect, ULID_LEN) == 0);
	CHECK(ulid_get_time(next) == 9000);
	CHECK(memcmp(last, next, ULID_LEN) == 0);

	/* far behind, even at time zero */
	expect[ULID_LEN - 1] = 0x02;
	CHECK(ulid_monotonic_step(last, true, 0, fresh, next));
	CHECK(memcmp(next, expect, ULID_LEN) == 0);
	CHECK(memcmp(last, next, ULID_LEN) == 0);
}

/* The increment carries across bytes of the random part. */
static void
test_step_carry(void)
{
	static const uint8_t r1[ULID_RANDOM_BYTES] = {
		0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x00, 0xFF, 0xFF
	};
	static const uint8_t e1[ULID_RANDOM_BYTES] = {
		0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x01, 0x00, 0x00
	};
	static const uint8_t r2[ULID_RANDOM_BYTES] = {
		0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF
	};
	static const uint8_t e2[ULID_RANDOM_BYTES] = {
		0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00
	};
	uint8_t		last[ULID_LEN];
	uint8_t		next[ULID_LEN];
	uint8_t		expect[ULID_LEN];

	/* ...00 FF FF -> ...01 00 00 */
	make_ulid(last, 777, r1);
	make_ulid(expect, 777, e1);
	CHECK(ulid_monotonic_step(last, true, 777, fresh, next));
	CHECK(memcmp(next, expect, ULID_LEN) == 0);
	CHECK(memcmp(last, next, ULID_LEN) == 0);

	/* the longest carry that stays inside the random part */
	make_ulid(last, 0x00FF00FF00FFULL, r2);
	make_ulid(expect, 0x00FF00FF00FFULL, e2);
	CHECK(ulid_monotonic_step(last, true, 0x00FF00FF00FFULL, fresh, next));
	CHECK(memcmp(next, expect, ULID_LEN) == 0);
	CHECK(memcmp(last, next, ULID_LEN) == 0);
}

/* Random part all ones: move to the next millisecond with fresh bytes. */
static void
test_step_random_overflow(void)
{
	static const uint8_t ones[ULID_RANDOM_BYTES] = {
		0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF
	};
	static const uint8_t zeros[ULID_RANDOM_BYTES] = {0};
	const uint64_t t = 0x0000FFFFFFFFULL;	/* time carries into byte 1 too */
	uint8_t		last[ULID_LEN];
	uint8_t		prev[ULID_LEN];
	uint8_t		next[ULID_LEN];
	uint8_t		expect[ULID_LEN];

	/* same millisecond */
	make_ulid(last, t, ones);
	memcpy(prev, last, ULID_LEN);
	make_ulid(expect, t + 1, fresh);
	CHECK(ulid_monotonic_step(last, true, t, fresh, next));
	CHECK(memcmp(next, expect, ULID_LEN) == 0);
	CHECK(ulid_get_time(next) == t + 1);
	CHECK(memcmp(next, prev, ULID_LEN) > 0);
	CHECK(memcmp(last, next, ULID_LEN) == 0);

	/* clock behind: the same, and all-zero fresh bytes are still greater */
	make_ulid(last, t, ones);
	memcpy(prev, last, ULID_LEN);
	make_ulid(expect, t + 1, zeros);
	CHECK(ulid_monotonic_step(last, true, t - 10, zeros, next));
	CHECK(memcmp(next, expect, ULID_LEN) == 0);
	CHECK(memcmp(next, prev, ULID_LEN) > 0);
	CHECK(memcmp(last, next, ULID_LEN) == 0);
}

/* At ULID_TIME_MAX the step works until the largest ULID, then refuses. */
static void
test_step_time_max(void)
{
	static const uint8_t almost[ULID_RANDOM_BYTES] = {
		0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE
	};
	uint8_t		last[ULID_LEN];
	uint8_t		saved[ULID_LEN];
	uint8_t		next[ULID_LEN];
	uint8_t		max[ULID_LEN];

	memset(max, 0xFF, ULID_LEN);

	/* ...FE -> ...FF: the largest ULID */
	make_ulid(last, ULID_TIME_MAX, almost);
	CHECK(ulid_monotonic_step(last, true, ULID_TIME_MAX, fresh, next));
	CHECK(memcmp(next, max, ULID_LEN) == 0);
	CHECK(memcmp(last, max, ULID_LEN) == 0);

	/* nothing is greater: false, last unchanged, same ms or clock behind */
	memcpy(saved, last, ULID_LEN);
	CHECK(!ulid_monotonic_step(last, true, ULID_TIME_MAX, fresh, next));
	CHECK(memcmp(last, saved, ULID_LEN) == 0);
	CHECK(!ulid_monotonic_step(last, true, 12345, fresh, next));
	CHECK(memcmp(last, saved, ULID_LEN) == 0);
}

/* Random part of u as a 16-bit high and a 64-bit low half. */
static void
random_halves(const uint8_t *u, uint64_t *hi, uint64_t *lo)
{
	*hi = ((uint64_t) u[6] << 8) | u[7];
	*lo = 0;
	for (int i = 8; i < ULID_LEN; i++)
		*lo = (*lo << 8) | u[i];
}

/*
 * A million steps with a clock that stays, advances or goes back, checked
 * against the rules computed another way, and strictly increasing.
 */
static void
test_step_long_sequence(void)
{
	uint8_t		last[ULID_LEN];
	uint8_t		prev[ULID_LEN];
	uint8_t		next[ULID_LEN];
	uint8_t		random[ULID_RANDOM_BYTES];
	uint64_t	now = 1700000000000ULL;
	long		n_fresh = 0,
				n_increment = 0,
				n_overflow = 0,
				n_behind = 0;

	prng_seed(42);
	memset(last, 0, ULID_LEN);
	for (long n = 0; n < 1000000; n++)
	{
		uint64_t	r = prng_next();
		uint64_t	prev_ms = ulid_get_time(last);
		uint64_t	hi,
					lo,
					next_hi,
					next_lo;

		/*
		 * clock: 3/8 advances 1-4 ms, 1/8 goes back 0-7 ms, else stays; the
		 * drift is forward, so the clock keeps overtaking last's time
		 */
		switch (r & 7)
		{
			case 0:
			case 1:
			case 2:
				now += 1 + ((r >> 3) & 3);
				break;
			case 3:
				now -= (r >> 3) & 7;
				break;
			default:
				break;
		}

		/* random part: sometimes all or nearly all ones, to force carries */
		prng_fill(random, ULID_RANDOM_BYTES);
		if ((r >> 8) % 16 == 0)
		{
			memset(random, 0xFF, ULID_RANDOM_BYTES);
			random[ULID_RANDOM_BYTES - 1] -= (uint8_t) ((r >> 12) & 3);
		}

		memcpy(prev, last, ULID_LEN);
		CHECK_AT(ulid_monotonic_step(last, n > 0, now, random, next), n);
		CHECK_AT(memcmp(last, next, ULID_LEN) == 0, n);
		if (n > 0)
			CHECK_AT(memcmp(next, prev, ULID_LEN) > 0, n);

		random_halves(prev, &hi, &lo);
		random_halves(next, &next_hi, &next_lo);
		if (n == 0 || now > prev_ms)
		{
			n_fresh++;
			CHECK_AT(ulid_get_time(next) == now, n);
			CHECK_AT(memcmp(next + ULID_TIME_BYTES, random, ULID_RANDOM_BYTES) == 0, n);
		}
		else if (hi == 0xFFFF && lo == UINT64_MAX)
		{
			n_overflow++;
			CHECK_AT(ulid_get_time(next) == prev_ms + 1, n);
			CHECK_AT(memcmp(next + ULID_TIME_BYTES, random, ULID_RANDOM_BYTES) == 0, n);
		}
		else
		{
			n_increment++;
			if (now < prev_ms)
				n_behind++;
			if (++lo == 0)
				hi++;
			CHECK_AT(ulid_get_time(next) == prev_ms, n);
			CHECK_AT(next_hi == hi && next_lo == lo, n);
		}
	}

	/* every branch was exercised */
	CHECK(n_fresh > 0);
	CHECK(n_increment > 0);
	CHECK(n_overflow > 0);
	CHECK(n_behind > 0);
}

/* set_time/get_time round trip, big-endian, touching bytes 0-5 only. */
static void
test_time_round_trip(void)
{
	static const uint64_t fixed[] = {0, 1, 255, 256, ULID_TIME_MAX - 1, ULID_TIME_MAX};
	static const uint8_t be[ULID_TIME_BYTES] = {0x01, 0x23, 0x45, 0x67, 0x89, 0xAB};
	uint8_t		u[ULID_LEN];

	/* the time in the specification's example */
	CHECK(ulid_get_time(vector_bytes) == 1469918176385ULL);

	/* byte order */
	memset(u, 0xA5, ULID_LEN);
	ulid_set_time(u, 0x0123456789ABULL);
	CHECK(memcmp(u, be, ULID_TIME_BYTES) == 0);

	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
	{
		memset(u, 0xA5, ULID_LEN);
		ulid_set_time(u, fixed[i]);
		CHECK_AT(ulid_get_time(u) == fixed[i], i);
		for (int b = ULID_TIME_BYTES; b < ULID_LEN; b++)
			CHECK_AT(u[b] == 0xA5, i);
	}

	prng_seed(0xDEADBEEFULL);
	for (long n = 0; n < 100000; n++)
	{
		uint64_t	ms = prng_next() & ULID_TIME_MAX;
		uint8_t		fill = (uint8_t) n;

		memset(u, fill, ULID_LEN);
		ulid_set_time(u, ms);
		CHECK_AT(ulid_get_time(u) == ms, n);
		for (int b = ULID_TIME_BYTES; b < ULID_LEN; b++)
			CHECK_AT(u[b] == fill, n);
	}
}

/* ulid_distance: exact for small gaps, monotone in the gap everywhere. */
static int
cmp_ulid(const void *x, const void *y)
{
	return memcmp(x, y, ULID_LEN);
}

static void
test_distance(void)
{
	uint8_t		a[ULID_LEN],
				b[ULID_LEN];
	static uint8_t many[20000][ULID_LEN];

	/* zero, one, and one across the boundary of the two 64-bit words */
	memcpy(a, vector_bytes, ULID_LEN);
	CHECK(ulid_distance(a, a) == 0.0);
	memcpy(b, a, ULID_LEN);
	b[ULID_LEN - 1]++;
	CHECK(ulid_distance(a, b) == 1.0);
	memset(a, 0, ULID_LEN);
	memset(a + 8, 0xFF, 8);
	memset(b, 0, ULID_LEN);
	b[7] = 1;
	CHECK(ulid_distance(a, b) == 1.0);
	/* one millisecond is 2^80 */
	memset(a, 0, ULID_LEN);
	memset(b, 0, ULID_LEN);
	ulid_set_time(b, 1);
	CHECK(ulid_distance(a, b) == 1208925819614629174706176.0);
	/* the whole range is 2^128 - 1, which rounds to 2^128 */
	memset(b, 0xFF, ULID_LEN);
	CHECK(ulid_distance(a, b) == 340282366920938463463374607431768211456.0);

	/*
	 * Sorted random values, many sharing high words or close to the 2^53
	 * boundary of the high-word difference: distances from the smallest
	 * never decrease.
	 */
	prng_seed(0xB121ULL);
	for (int i = 0; i < 20000; i++)
	{
		prng_fill(many[i], ULID_LEN);
		if (i % 3 == 0)
			memcpy(many[i], many[0], 8);	/* same high word as the first */
		else if (i % 3 == 1)
			memset(many[i], 0, 1);	/* high-word gaps around 2^53..2^56 */
	}
	qsort(many, 20000, ULID_LEN, cmp_ulid);
	for (int i = 1; i < 20000; i++)
		CHECK_AT(ulid_distance(many[0], many[i - 1]) <= ulid_distance(many[0], many[i]), i);
	for (int i = 1; i < 20000; i++)
		CHECK_AT(ulid_distance(many[i - 1], many[i]) >= 0.0, i);
}

/* ------------------------------------------------------- random pool tests */

/*
 * A fake strong source, counts its calls: fills with a running 16-bit
 * big-endian counter, one value per two bytes, so that the first two bytes
 * of a 10-byte slice name the slice uniquely over 65,536 pairs (far more
 * than a pool holds); a one-byte counter would repeat every 256 bytes.
 */
static int	fills;
static bool fill_fails;
static uint32_t fill_next;		/* bytes handed out so far */

static bool
fake_fill(void *buf, size_t len)
{
	if (fill_fails)
		return false;
	fills++;
	for (size_t i = 0; i < len; i++, fill_next++)
		((uint8_t *) buf)[i] = (fill_next % 2 == 0) ?
			(uint8_t) (fill_next / 2 >> 8) : (uint8_t) (fill_next / 2);
	return true;
}

/* The fake source's counter at the start of a 10-byte slice. */
static unsigned
slice_counter(const uint8_t *r)
{
	return (unsigned) r[0] << 8 | r[1];
}

/* One fill serves SIZE / 10 ULIDs; the next one refills; bytes are never reused. */
static void
test_pool_batches(void)
{
	ulid_random_pool pool = ULID_RANDOM_POOL_INIT;
	uint8_t		r[ULID_RANDOM_BYTES],
				first[ULID_RANDOM_BYTES];

	fills = 0;
	fill_fails = false;
	fill_next = 0;
	CHECK(ulid_random_take(&pool, 100, fake_fill, first, ULID_RANDOM_BYTES));
	CHECK(fills == 1);
	for (int i = 1; i < ULID_RANDOM_POOL_SIZE / ULID_RANDOM_BYTES; i++)
	{
		CHECK_AT(ulid_random_take(&pool, 100, fake_fill, r, ULID_RANDOM_BYTES), i);
		/* consecutive slices of the counter: nothing handed out twice */
		CHECK_AT(slice_counter(r) == (unsigned) i * ULID_RANDOM_BYTES / 2, i);
	}
	CHECK(fills == 1);
	CHECK(ulid_random_take(&pool, 100, fake_fill, r, ULID_RANDOM_BYTES));
	CHECK(fills == 2);
	/* the first slice of the new fill, not the old pool again */
	CHECK(slice_counter(r) == ULID_RANDOM_POOL_SIZE / 2);
}

/*
 * A process that inherited the pool (another pid) refills before taking
 * anything, so parent and child never hand out the same bytes.
 */
static void
test_pool_fork(void)
{
	ulid_random_pool parent = ULID_RANDOM_POOL_INIT;
	ulid_random_pool child;
	uint8_t		p[ULID_RANDOM_BYTES],
				c[ULID_RANDOM_BYTES];

	fills = 0;
	fill_fails = false;
	fill_next = 0;
	CHECK(ulid_random_take(&parent, 100, fake_fill, p, ULID_RANDOM_BYTES));
	memcpy(&child, &parent, sizeof(child));		/* what fork() does */
	CHECK(ulid_random_take(&parent, 100, fake_fill, p, ULID_RANDOM_BYTES));
	CHECK(fills == 1);
	CHECK(ulid_random_take(&child, 200, fake_fill, c, ULID_RANDOM_BYTES));
	CHECK(fills == 2);
	CHECK(child.owner == 200);
	CHECK(memcmp(p, c, ULID_RANDOM_BYTES) != 0);
	/* the child keeps its own pool from then on */
	CHECK(ulid_random_take(&child, 200, fake_fill, c, ULID_RANDOM_BYTES));
	CHECK(fills == 2);
}

/* A failing source: false, nothing taken, the pool unchanged; then recovery. */
static void
test_pool_fill_failure(void)
{
	ulid_random_pool pool = ULID_RANDOM_POOL_INIT;
	uint8_t		r[ULID_RANDOM_BYTES];

	fills = 0;
	fill_next = 0;
	fill_fails = true;
	CHECK(!ulid_random_take(&pool, 100, fake_fill, r, ULID_RANDOM_BYTES));
	CHECK(pool.pos == ULID_RANDOM_POOL_SIZE);
	CHECK(pool.owner == 0);
	fill_fails = false;
	CHECK(ulid_random_take(&pool, 100, fake_fill, r, ULID_RANDOM_BYTES));
	CHECK(fills == 1);
}

/* ----------------------------------------------------------------- driver */

static const struct
{
	const char *name;
	void		(*fn) (void);
}			tests[] =
{
	{"known_vector", test_known_vector},
	{"extremes", test_extremes},
	{"decode_table", test_decode_table},
	{"case_and_aliases", test_case_and_aliases},
	{"bad_length", test_bad_length},
	{"bad_char", test_bad_char},
	{"overflow", test_overflow},
	{"round_trip", test_round_trip},
	{"sort_order", test_sort_order},
	{"step_first", test_step_first},
	{"step_clock_ahead", test_step_clock_ahead},
	{"step_same_ms", test_step_same_ms},
	{"step_clock_behind", test_step_clock_behind},
	{"step_carry", test_step_carry},
	{"step_random_overflow", test_step_random_overflow},
	{"step_time_max", test_step_time_max},
	{"step_long_sequence", test_step_long_sequence},
	{"time_round_trip", test_time_round_trip},
	{"distance", test_distance},
	{"pool_batches", test_pool_batches},
	{"pool_fork", test_pool_fork},
	{"pool_fill_failure", test_pool_fill_failure},
};

int
main(void)
{
	int			passed = 0;
	int			failed = 0;

	for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
	{
		test_failed = false;
		test_failure[0] = '\0';
		tests[i].fn();
		if (test_failed)
		{
			printf("FAILED - %s: %s\n", tests[i].name, test_failure);
			failed++;
		}
		else
		{
			printf("ok - %s\n", tests[i].name);
			passed++;
		}
	}
	printf("unit: %d passed, %d failed\n", passed, failed);
	return failed > 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
