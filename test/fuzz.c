/*
 * test/fuzz.c
 *		libFuzzer harness for the Crockford Base32 codec (ulid_base32.h) and
 *		the UUID text form on input (ulid_uuidtext.h).
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
 * - any 16 bytes encode to 26 characters that decode to the same 16 bytes;
 * - the UUID decoder accepts exactly the canonical 8-4-4-4-12 form in any case,
 *   judged by a reference, and reads the value the digits spell;
 * - the spellings that errors correct: a digit count is the count of digits
 *   in the input, and a canonical form written is one the decoder reads, with
 *   the input's digits in order;
 * - no input is both a ULID and a UUID.
 * A violation aborts, which libFuzzer reports with the input that caused it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../src/ulid_base32.h"
#include "../src/ulid_layout.h"
#include "../src/ulid_uuidtext.h"

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

/* The value of a hexadecimal digit, or -1; written without the header's. */
static int
reference_hex(unsigned char c)
{
	static const char lower[] = "0123456789abcdef";
	static const char upper[] = "0123456789ABCDEF";
	const char *p;

	if (c == 0)
		return -1;
	if ((p = strchr(lower, c)) != NULL)
		return (int) (p - lower);
	if ((p = strchr(upper, c)) != NULL)
		return (int) (p - upper);
	return -1;
}

/*
 * The digits of a UUID spelled another way, or -1, by the rules of
 * ulid_uuid_other_spelling(); written without it, on a copy cut down step
 * by step.
 */
static int
reference_spelling(const uint8_t *data, size_t size)
{
	char		buf[4096];
	char	   *p = buf;
	char	   *end;
	int			framed = 0,
				hyphen = 0,
				n = 0;

	if (size >= sizeof(buf))
		return -2;				/* not judged */
	memcpy(buf, data, size);
	end = buf + size;
	while (p < end && strchr(" \t\r\n", *p) && *p)
		p++;
	while (end > p && strchr(" \t\r\n", end[-1]) && end[-1])
		end--;
	if (end - p >= 9 && strncasecmp(p, "urn:uuid:", 9) == 0)
		p += 9, framed = 1;
	if (end - p >= 2 && p[0] == '{' && end[-1] == '}')
		p++, end--, framed = 1;
	for (; p < end; p++)
	{
		if (*p == '-')
			hyphen = 1;
		else if (reference_hex((unsigned char) *p) >= 0)
			n++;
		else
			return -1;
	}
	return (n == 32 || (framed && n > 0) || (hyphen && n >= 16)) ? n : -1;
}

/* The UUID text properties above. */
static void
check_uuid_text(const uint8_t *data, size_t size)
{
	uint8_t		u[ULID_LEN];
	char		canonical[ULID_UUID_TEXT_LEN];
	int			expect_ok = (size == ULID_UUID_TEXT_LEN);
	int			digits,
				ndigits = 0;

	for (size_t i = 0; expect_ok && i < size; i++)
	{
		int			hyphen = (i == 8 || i == 13 || i == 18 || i == 23);

		expect_ok = hyphen ? data[i] == '-' : reference_hex(data[i]) >= 0;
	}
	REQUIRE(ulid_uuid_decode((const char *) data, size, u) == expect_ok);
	if (expect_ok)
	{
		char		again[ULID_UUID_TEXT_LEN + 1];

		snprintf(again, sizeof(again),
				 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
				 u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7],
				 u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
		for (size_t i = 0; i < size; i++)
			REQUIRE(again[i] == data[i] ||
					(reference_hex(data[i]) >= 10 && again[i] == data[i] - 'A' + 'a'));
	}

	/*
	 * Every hexadecimal digit of the input is one of the UUID's, but the d
	 * of a urn:uuid: prefix.
	 */
	digits = ulid_uuid_other_spelling((const char *) data, size, canonical);
	REQUIRE(digits == -1 || digits > 0);
	REQUIRE(reference_spelling(data, size) == -2 ||
			digits == reference_spelling(data, size));
	for (size_t i = 0; i < size; i++)
		ndigits += reference_hex(data[i]) >= 0;
	if (digits > 0)
		REQUIRE(digits == ndigits || digits == ndigits - 1);
	if (digits == ULID_UUID_DIGITS)
	{
		char		want[ULID_UUID_DIGITS];
		int			d = ULID_UUID_DIGITS;

		/* the input's last 32 digits, in lower case, in order */
		for (size_t i = size; i-- > 0 && d > 0;)
			if (reference_hex(data[i]) >= 0)
				want[--d] = "0123456789abcdef"[reference_hex(data[i])];
		REQUIRE(d == 0);
		for (int i = 0, k = 0; i < ULID_UUID_TEXT_LEN; i++)
			if (i == 8 || i == 13 || i == 18 || i == 23)
				REQUIRE(canonical[i] == '-');
			else
				REQUIRE(canonical[i] == want[k++]);
		REQUIRE(ulid_uuid_decode(canonical, ULID_UUID_TEXT_LEN, u));
	}

	/* a ULID has 26 characters, a UUID 36: never both */
	REQUIRE(!(expect_ok && ulid_base32_decode((const char *) data, size, u) == ULID_DECODE_OK));
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

	check_uuid_text(data, size);

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
