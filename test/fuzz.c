/*
 * test/fuzz.c
 *		libFuzzer harness for the Crockford Base32 codec (ulid_base32.h).
 *
 * `make fuzzcheck` builds it with clang (libFuzzer, ASan, UBSan) and runs it
 * for FUZZ_SECONDS (default 60) from the seeds in test/corpus; the inputs it
 * finds go to a temporary directory, so the seeds stay as they are.
 *
 * Properties checked on every input:
 * - the decoder accepts exactly the strings the rules describe (26 bytes, each
 *   in the alphabet or an alias, the first 0-7), judged by an independent
 *   reference written from the rules;
 * - an accepted string encodes back to the canonical form of the same value:
 *   upper case, aliases replaced, and decoding that gives the same 16 bytes;
 * - any 16 bytes encode to 26 characters that decode to the same 16 bytes.
 * A violation aborts, which libFuzzer reports with the input that caused it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ulid_base32.h"
#include "../ulid_layout.h"

#define REQUIRE(cond) \
	do { \
		if (!(cond)) \
		{ \
			fprintf(stderr, "fuzz: %s failed at line %d\n", #cond, __LINE__); \
			abort(); \
		} \
	} while (0)

/* The value of c by the rules, or -1; written without the decoder's table. */
static int
reference_value(unsigned char c)
{
	static const char alphabet[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
	const char *p;

	if (c >= 'a' && c <= 'z')
		c = (unsigned char) (c - 'a' + 'A');
	if (c == 'I' || c == 'L')
		return 1;
	if (c == 'O')
		return 0;
	if (c == 0)
		return -1;
	p = strchr(alphabet, c);
	return p ? (int) (p - alphabet) : -1;
}

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t		u[ULID_LEN],
				again[ULID_LEN];
	char		text[ULID_TEXT_LEN];
	int			expect_ok = (size == ULID_TEXT_LEN);
	ulid_decode_status status;

	for (size_t i = 0; expect_ok && i < size; i++)
		expect_ok = reference_value(data[i]) >= 0;
	if (expect_ok)
		expect_ok = reference_value(data[0]) <= 7;

	status = ulid_base32_decode((const char *) data, size, u);
	REQUIRE((status == ULID_DECODE_OK) == expect_ok);

	if (status == ULID_DECODE_OK)
	{
		ulid_base32_encode(u, text);
		for (int i = 0; i < ULID_TEXT_LEN; i++)
		{
			/* canonical: the alphabet character of the same value */
			REQUIRE(reference_value((unsigned char) text[i]) ==
					reference_value(data[i]));
			REQUIRE(strchr("0123456789ABCDEFGHJKMNPQRSTVWXYZ", text[i]) != NULL);
		}
		REQUIRE(ulid_base32_decode(text, ULID_TEXT_LEN, again) == ULID_DECODE_OK);
		REQUIRE(memcmp(u, again, ULID_LEN) == 0);
	}

	/* Any 16 bytes round-trip through the text form. */
	if (size >= ULID_LEN)
	{
		ulid_base32_encode(data, text);
		REQUIRE(text[0] >= '0' && text[0] <= '7');
		REQUIRE(ulid_base32_decode(text, ULID_TEXT_LEN, again) == ULID_DECODE_OK);
		REQUIRE(memcmp(data, again, ULID_LEN) == 0);
	}
	return 0;
}
