/*
 * test/unit.c
 *		Unit tests for the server-free headers: the byte layout and the
 *		distance (ulid_layout.h), the Crockford Base32 codec (ulid_base32.h),
 *		the UUID text form on input (ulid_uuidtext.h), the monotonic step in both
 *		shapes (ulid_monotonic.h), gen_ulid()'s packed step (ulid_packed.h) and
 *		the random pool (ulid_random.h), the 32-bit abbreviated key
 *		(ulid_abbrev.h) and the ObjectId mapping (ulid_objectid.h).
 *
 * Self-contained C99, no framework and no PostgreSQL headers; `make
 * unitcheck` builds and runs it.
 *
 * Most tests are tables of cases (input, expected result, a name), each
 * walked by one function that checks a single row: to add a test, add a row.
 * What a row cannot say (properties over many random values, the decode table
 * rebuilt from the rules, the random pool's refills) are functions, listed in
 * tables of their own.  Every row is one check.
 *
 * The output is TAP: "ok N - table: case" or "not ok N - table: case: why"
 * per check, then the plan "1..N" as the last line.  The exit status is 1 if
 * any check failed.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/ulid_layout.h"
#include "../src/ulid_base32.h"
#include "../src/ulid_uuidtext.h"
#include "../src/ulid_monotonic.h"
#include "../src/ulid_packed.h"
#include "../src/ulid_random.h"
#include "../src/ulid_abbrev.h"
#include "../src/ulid_objectid.h"

#define lengthof(array) (sizeof(array) / sizeof((array)[0]))

/* ---------------------------------------------------------------- harness */

static int	checks_run;
static int	checks_failed;
static bool check_failed;		/* the running check has failed */
static char check_why[512];		/* and why: the first failure only */

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 1, 2)))
#endif
static void
fail(const char *fmt,...)
{
	va_list		ap;

	if (check_failed)
		return;
	check_failed = true;
	va_start(ap, fmt);
	vsnprintf(check_why, sizeof(check_why), fmt, ap);
	va_end(ap);
}

/* Report the check that just ran as one TAP line. */
static void
check_done(const char *table, const char *name)
{
	checks_run++;
	if (check_failed)
	{
		checks_failed++;
		printf("not ok %d - %s: %s: %s\n", checks_run, table, name, check_why);
	}
	else
		printf("ok %d - %s: %s\n", checks_run, table, name);
	check_failed = false;
	check_why[0] = '\0';
}

/*
 * Check every row of the array cases with fn, one TAP line per row.  Each
 * table's rows are structs whose member name names the case.
 */
#define RUN_TABLE(table, cases, fn) \
	for (size_t row_ = 0; row_ < lengthof(cases); row_++) \
	{ \
		fn(&(cases)[row_]); \
		check_done((table), (cases)[row_].name); \
	}

/* Fail the running check and return from it if cond is false. */
#define CHECK(cond) \
	do { \
		if (!(cond)) \
		{ \
			fail("CHECK(%s) at line %d", #cond, __LINE__); \
			return; \
		} \
	} while (0)

/* The same inside a loop: also report the loop counter i. */
#define CHECK_AT(cond, i) \
	do { \
		if (!(cond)) \
		{ \
			fail("CHECK(%s) at line %d, iteration %ld", #cond, __LINE__, \
				 (long) (i)); \
			return; \
		} \
	} while (0)

/* Fail and return unless the n bytes at got equal those at want. */
#define CHECK_BYTES(what, got, want, n) \
	do { \
		if (!same_bytes((what), (got), (want), (n))) \
			return; \
	} while (0)

/* Fail and return unless a decode status is the expected one. */
#define CHECK_STATUS(got, want) \
	do { \
		if ((got) != (want)) \
		{ \
			fail("status %s, expected %s", status_name(got), \
				 status_name(want)); \
			return; \
		} \
	} while (0)

static void
format_hex(char *buf, const uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		snprintf(buf + 2 * i, 3, "%02x", b[i]);
}

static bool
same_bytes(const char *what, const uint8_t *got, const uint8_t *want, size_t n)
{
	char		g[2 * ULID_LEN + 1] = "",
				w[2 * ULID_LEN + 1] = "";

	if (memcmp(got, want, n) == 0)
		return true;
	format_hex(g, got, n < ULID_LEN ? n : ULID_LEN);
	format_hex(w, want, n < ULID_LEN ? n : ULID_LEN);
	fail("%s is %s, expected %s", what, g, w);
	return false;
}

static const char *
status_name(ulid_decode_status s)
{
	switch (s)
	{
		case ULID_DECODE_OK:
			return "OK";
		case ULID_DECODE_BAD_LENGTH:
			return "BAD_LENGTH";
		case ULID_DECODE_BAD_CHAR:
			return "BAD_CHAR";
		case ULID_DECODE_OVERFLOW:
			return "OVERFLOW";
	}
	return "(unknown)";
}

/* ------------------------------------------------------------- test data */

/* The example from the ULID specification. */
#define VECTOR_BYTES { \
	0x01, 0x56, 0x3D, 0xF3, 0x64, 0x81, 0xD6, 0x76, \
	0x4C, 0x61, 0xEF, 0xB9, 0x93, 0x02, 0xBD, 0x5B }
static const char vector_text[] = "01ARYZ6S41TSV4RRFFQ69G5FAV";
static const uint8_t vector_bytes[ULID_LEN] = VECTOR_BYTES;

static const uint8_t zero_bytes[ULID_LEN] = {0};
static const uint8_t max_bytes[ULID_LEN] = {
	0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
	0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF
};

/* The example with its first character 7: the top three bits set. */
static const uint8_t vector7_bytes[ULID_LEN] = {
	0xE1, 0x56, 0x3D, 0xF3, 0x64, 0x81, 0xD6, 0x76,
	0x4C, 0x61, 0xEF, 0xB9, 0x93, 0x02, 0xBD, 0x5B
};

static const char alphabet[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/* Random parts (10 bytes) for the step and layout tables. */
#define FRESH	{0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6, 0x07, 0x18, 0x29, 0x3A}
#define ONES	{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}
#define ZEROS	{0}

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

/* Sign of an int: -1, 0 or 1. */
static int
sign(int v)
{
	return (v > 0) - (v < 0);
}

/* Build a ULID from a time and a 10-byte random part. */
static void
make_ulid(uint8_t *u, uint64_t ms, const uint8_t *random)
{
	ulid_set_time(u, ms);
	memcpy(u + ULID_TIME_BYTES, random, ULID_RANDOM_BYTES);
}

/* ------------------------------------------------- codec: known values */

/* A value and its canonical text: each encodes to the other and back. */
typedef struct encode_case
{
	const char *name;
	uint8_t		bytes[ULID_LEN];
	const char *text;
} encode_case;

static const encode_case encode_cases[] = {
	{"specification example", VECTOR_BYTES, "01ARYZ6S41TSV4RRFFQ69G5FAV"},
	{"smallest value", {0}, "00000000000000000000000000"},
	{"largest value",
		{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
		0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF},
	"7ZZZZZZZZZZZZZZZZZZZZZZZZZ"},
	{"lowest bit", {[15] = 0x01}, "00000000000000000000000001"},
	{"highest bit", {0x80}, "40000000000000000000000000"},
	{"last millisecond, random part zero: time is the first 10 characters",
		{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF},
	"7ZZZZZZZZZ0000000000000000"},
	{"time zero, random part all ones: random is the last 16 characters",
		{0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF},
	"0000000000ZZZZZZZZZZZZZZZZ"},
	{"symbols 0 to S ascending",
		{0x01, 0x10, 0xC8, 0x53, 0x1D, 0x09, 0x52, 0xD8,
		0xD7, 0x3E, 0x11, 0x94, 0xE9, 0x5B, 0x5F, 0x19},
	"0123456789ABCDEFGHJKMNPQRS"},
	{"symbols 7 to E descending, T to Z among them",
		{0xE6, 0x29, 0x06, 0x20, 0x83, 0xFE, 0xEF, 0x37,
		0xAC, 0xE2, 0xF6, 0xAD, 0x27, 0x28, 0xC1, 0xEE},
	"76543210ZYXWVTSRQPNMKJHGFE"},
};

static void
check_encode(const encode_case *c)
{
	char		text[ULID_TEXT_LEN + 1];
	uint8_t		bytes[ULID_LEN];

	CHECK(strlen(c->text) == ULID_TEXT_LEN);

	memset(text, '#', sizeof(text));
	ulid_base32_encode(c->bytes, text);
	if (memcmp(text, c->text, ULID_TEXT_LEN) != 0)
	{
		fail("encoded as %.26s, expected %s", text, c->text);
		return;
	}
	CHECK(text[ULID_TEXT_LEN] == '#');	/* no terminator written */

	for (int i = 0; i < ULID_LEN; i++)
		bytes[i] = (uint8_t) ~c->bytes[i];	/* every byte must be written */
	CHECK_STATUS(ulid_base32_decode(c->text, ULID_TEXT_LEN, bytes),
				 ULID_DECODE_OK);
	CHECK_BYTES("decoded value", bytes, c->bytes, ULID_LEN);
}

/* -------------------------------------------- codec: what decode accepts */

/* TEXT("...") is a string literal and its length, NULs included. */
#define TEXT(s) s, sizeof(s) - 1

/* A string, its length, the status it decodes to and, if OK, the value. */
typedef struct decode_case
{
	const char *name;
	const char *text;
	size_t		len;
	ulid_decode_status status;
	const uint8_t *bytes;
} decode_case;

static const decode_case decode_cases[] = {
	/* non-canonical spellings: case and Crockford's aliases */
	{"lower case", TEXT("01aryz6s41tsv4rrffq69g5fav"), ULID_DECODE_OK, vector_bytes},
	{"mixed case", TEXT("01ArYz6S41tSv4RrFfQ69g5FaV"), ULID_DECODE_OK, vector_bytes},
	{"aliases o, I, l for 0 and 1", TEXT("oIARYZ6S4lTSV4RRFFQ69G5FAV"), ULID_DECODE_OK, vector_bytes},
	{"O and o for every 0", TEXT("OoOoOoOoOoOoOoOoOoOoOoOoOo"), ULID_DECODE_OK, zero_bytes},
	{"largest value in lower case", TEXT("7zzzzzzzzzzzzzzzzzzzzzzzzz"), ULID_DECODE_OK, max_bytes},
	{"first character 7, the largest allowed", TEXT("71ARYZ6S41TSV4RRFFQ69G5FAV"), ULID_DECODE_OK, vector7_bytes},

	/* length is checked first, whatever the characters are */
	{"empty", TEXT(""), ULID_DECODE_BAD_LENGTH, NULL},
	{"25 characters", TEXT("01ARYZ6S41TSV4RRFFQ69G5FA"), ULID_DECODE_BAD_LENGTH, NULL},
	{"27 characters", TEXT("01ARYZ6S41TSV4RRFFQ69G5FAV0"), ULID_DECODE_BAD_LENGTH, NULL},
	{"two ULIDs back to back", TEXT("01ARYZ6S41TSV4RRFFQ69G5FAV01ARYZ6S41TSV4RRFFQ69G5FAV"), ULID_DECODE_BAD_LENGTH, NULL},
	{"25 characters with a U: length before characters", TEXT("01ARYZ6S41TSV4RRFFQ69G5FU"), ULID_DECODE_BAD_LENGTH, NULL},
	{"27 characters with a U: length before characters", TEXT("U1ARYZ6S41TSV4RRFFQ69G5FAV0"), ULID_DECODE_BAD_LENGTH, NULL},
	{"27 characters from 8: length before range", TEXT("81ARYZ6S41TSV4RRFFQ69G5FAV0"), ULID_DECODE_BAD_LENGTH, NULL},

	/* then every character */
	{"U first", TEXT("U1ARYZ6S41TSV4RRFFQ69G5FAV"), ULID_DECODE_BAD_CHAR, NULL},
	{"U last", TEXT("01ARYZ6S41TSV4RRFFQ69G5FAU"), ULID_DECODE_BAD_CHAR, NULL},
	{"* in position 7", TEXT("01ARYZ6*41TSV4RRFFQ69G5FAV"), ULID_DECODE_BAD_CHAR, NULL},
	{"leading space", TEXT(" 1ARYZ6S41TSV4RRFFQ69G5FAV"), ULID_DECODE_BAD_CHAR, NULL},
	{"trailing space", TEXT("01ARYZ6S41TSV4RRFFQ69G5FA "), ULID_DECODE_BAD_CHAR, NULL},
	{"byte 0xC3 (UTF-8 lead) in position 12", TEXT("01ARYZ6S41TS\xC3" "4RRFFQ69G5FAV"), ULID_DECODE_BAD_CHAR, NULL},
	{"NUL last", TEXT("01ARYZ6S41TSV4RRFFQ69G5FA\0"), ULID_DECODE_BAD_CHAR, NULL},
	{"hyphen as in a UUID", TEXT("01ARYZ6S-1TSV4RRFFQ69G5FAV"), ULID_DECODE_BAD_CHAR, NULL},

	/* then the range: the first character carries only 3 bits */
	{"8 first", TEXT("81ARYZ6S41TSV4RRFFQ69G5FAV"), ULID_DECODE_OVERFLOW, NULL},
	{"9 first", TEXT("91ARYZ6S41TSV4RRFFQ69G5FAV"), ULID_DECODE_OVERFLOW, NULL},
	{"Z first", TEXT("Z1ARYZ6S41TSV4RRFFQ69G5FAV"), ULID_DECODE_OVERFLOW, NULL},
	{"z first", TEXT("z1ARYZ6S41TSV4RRFFQ69G5FAV"), ULID_DECODE_OVERFLOW, NULL},
	{"8 first and U in position 20: characters before range", TEXT("81ARYZ6S41TSV4RRFFQ6UG5FAV"), ULID_DECODE_BAD_CHAR, NULL},
	{"8 first and 0xC3 in position 20: characters before range", TEXT("81ARYZ6S41TSV4RRFFQ6\xC3" "G5FAV"), ULID_DECODE_BAD_CHAR, NULL},
};

static void
check_decode(const decode_case *c)
{
	uint8_t		bytes[ULID_LEN];

	/* a length case must have another length, every other case 26 */
	CHECK((c->status == ULID_DECODE_BAD_LENGTH) == (c->len != ULID_TEXT_LEN));
	CHECK((c->status == ULID_DECODE_OK) == (c->bytes != NULL));

	for (int i = 0; i < ULID_LEN; i++)
		bytes[i] = c->bytes ? (uint8_t) ~c->bytes[i] : 0xAA;
	CHECK_STATUS(ulid_base32_decode(c->text, c->len, bytes), c->status);
	if (c->bytes)
		CHECK_BYTES("decoded value", bytes, c->bytes, ULID_LEN);
}

/* ---------------------------------- codec: one byte in every position */

/*
 * A byte put in each of the 26 positions of the specification's example in
 * turn, and the value it reads as (-1: invalid).
 */
typedef struct substitute_case
{
	const char *name;
	unsigned char byte;
	int			value;
} substitute_case;

static const substitute_case substitute_cases[] = {
	{"O reads as 0", 'O', 0},
	{"o reads as 0", 'o', 0},
	{"I reads as 1", 'I', 1},
	{"i reads as 1", 'i', 1},
	{"L reads as 1", 'L', 1},
	{"l reads as 1", 'l', 1},
	{"z reads as 31", 'z', 31},
	{"8 reads as 8", '8', 8},
	{"U is invalid", 'U', -1},
	{"u is invalid", 'u', -1},
	{"* is invalid", '*', -1},
	{"space is invalid", ' ', -1},
	{"hyphen is invalid", '-', -1},
	{"NUL is invalid", '\0', -1},
	{"byte 0xC3 is invalid", 0xC3, -1},
	{"byte 0x80 is invalid", 0x80, -1},
	{"byte 0xFF is invalid", 0xFF, -1},
};

/*
 * An invalid byte is BAD_CHAR anywhere.  A valid one gives the value whose
 * canonical text is the example with alphabet[value] in that position
 * (OVERFLOW in the first position above 7), and the example's own value
 * where it replaces a character of the same value.
 */
static void
check_substitute(const substitute_case *c)
{
	int			same_value = 0;

	for (int pos = 0; pos < ULID_TEXT_LEN; pos++)
	{
		char		text[ULID_TEXT_LEN];
		char		canonical[ULID_TEXT_LEN];
		char		again[ULID_TEXT_LEN];
		uint8_t		bytes[ULID_LEN];
		ulid_decode_status status;

		memcpy(text, vector_text, ULID_TEXT_LEN);
		text[pos] = (char) c->byte;
		memset(bytes, 0, ULID_LEN);
		status = ulid_base32_decode(text, ULID_TEXT_LEN, bytes);
		if (c->value < 0)
		{
			CHECK_AT(status == ULID_DECODE_BAD_CHAR, pos);
			continue;
		}
		if (pos == 0 && c->value > 7)
		{
			CHECK_AT(status == ULID_DECODE_OVERFLOW, pos);
			continue;
		}
		CHECK_AT(status == ULID_DECODE_OK, pos);
		memcpy(canonical, vector_text, ULID_TEXT_LEN);
		canonical[pos] = alphabet[c->value];
		ulid_base32_encode(bytes, again);
		CHECK_AT(memcmp(again, canonical, ULID_TEXT_LEN) == 0, pos);
		if (ulid_base32_value[(unsigned char) vector_text[pos]] == c->value)
		{
			same_value++;
			CHECK_AT(memcmp(bytes, vector_bytes, ULID_LEN) == 0, pos);
		}
	}
	/* the aliases of 0 and 1 met a 0 or a 1 in the example */
	if (c->value == 0 || c->value == 1)
		CHECK(same_value > 0);
}

/* --------------------------------------------------- codec: sort order */

/* Two values, lo < hi: their texts sort the same way. */
typedef struct order_case
{
	const char *name;
	uint8_t		lo[ULID_LEN];
	uint8_t		hi[ULID_LEN];
} order_case;

static const order_case order_cases[] = {
	{"lowest bit", {0}, {[15] = 0x01}},
	{"carry across the last 5-byte group",
		{[11] = 0xFF, 0xFF, 0xFF, 0xFF, 0xFF},
	{[10] = 0x01}},
	{"random part full, next millisecond",
		{0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF},
	{0, 0, 0, 0, 0, 0x01}},
	{"carry into byte 0 (second character)",
		{0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF},
	{0x01}},
	{"carry into the first character",
		{0x1F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF},
	{0x20}},
	{"time decides before the random part",
		{0, 0, 0, 0, 0, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF},
	{0, 0, 0, 0, 0, 0x02}},
	{"the two largest values",
		{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE},
	{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}},
};

static void
check_order(const order_case *c)
{
	char		lo[ULID_TEXT_LEN + 1];
	char		hi[ULID_TEXT_LEN + 1];

	CHECK(memcmp(c->lo, c->hi, ULID_LEN) < 0);
	lo[ULID_TEXT_LEN] = hi[ULID_TEXT_LEN] = '\0';
	ulid_base32_encode(c->lo, lo);
	ulid_base32_encode(c->hi, hi);
	if (strcmp(lo, hi) >= 0)
		fail("%s does not sort before %s", lo, hi);
}

/* ------------------------------------------------ codec: the functions */

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

/* A test that is a function, not a row: the name says what it checks. */
typedef struct function_case
{
	const char *name;
	void		(*fn) (void);
} function_case;

static void
check_function(const function_case *c)
{
	c->fn();
}

static const function_case codec_functions[] = {
	{"decode table rebuilt from the rules", test_decode_table},
	{"100,000 random values round trip, in mixed case too", test_round_trip},
	{"200,000 random pairs sort as their texts", test_sort_order},
};

/* ------------------------------------------- UUID text: what decode reads */

/* 550e8400-e29b-41d4-a716-446655440000, the example of the uuid docs. */
static const uint8_t uuid_bytes[ULID_LEN] = {
	0x55, 0x0E, 0x84, 0x00, 0xE2, 0x9B, 0x41, 0xD4,
	0xA7, 0x16, 0x44, 0x66, 0x55, 0x44, 0x00, 0x00
};
static const uint8_t hexdigits_bytes[ULID_LEN] = {
	0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF,
	0xAB, 0xCD, 0xEF, 0x01, 0x23, 0x45, 0x67, 0x89
};

/* A string, its length, whether ulid_uuid_decode() reads it and, if so, the value. */
typedef struct uuid_decode_case
{
	const char *name;
	const char *text;
	size_t		len;
	const uint8_t *bytes;		/* NULL: refused */
} uuid_decode_case;

static const uuid_decode_case uuid_decode_cases[] = {
	{"lower case", TEXT("550e8400-e29b-41d4-a716-446655440000"), uuid_bytes},
	{"upper case", TEXT("550E8400-E29B-41D4-A716-446655440000"), uuid_bytes},
	{"mixed case", TEXT("550e8400-E29B-41d4-A716-446655440000"), uuid_bytes},
	{"every digit, both cases", TEXT("01234567-89ab-cdef-ABCD-EF0123456789"), hexdigits_bytes},
	{"smallest", TEXT("00000000-0000-0000-0000-000000000000"), zero_bytes},
	{"largest", TEXT("ffffffff-FFFF-ffff-FFFF-ffffffffffff"), max_bytes},
	{"the ULID example as a uuid", TEXT("01563df3-6481-d676-4c61-efb99302bd5b"), vector_bytes},

	{"empty", TEXT(""), NULL},
	{"no hyphens", TEXT("550e8400e29b41d4a716446655440000"), NULL},
	{"braces", TEXT("{550e8400-e29b-41d4-a716-446655440000}"), NULL},
	{"urn:uuid: prefix", TEXT("urn:uuid:550e8400-e29b-41d4-a716-446655440000"), NULL},
	{"leading space", TEXT(" 550e8400-e29b-41d4-a716-446655440000"), NULL},
	{"trailing space", TEXT("550e8400-e29b-41d4-a716-446655440000 "), NULL},
	{"35 characters", TEXT("550e8400-e29b-41d4-a716-44665544000"), NULL},
	{"37 characters", TEXT("550e8400-e29b-41d4-a716-4466554400000"), NULL},
	{"hyphen moved, still 36", TEXT("550e8400e-29b-41d4-a716-446655440000"), NULL},
	{"hyphens every 4 digits", TEXT("550e-8400-e29b-41d4-a716-4466-5544-0000"), NULL},
	{"g in the last position", TEXT("550e8400-e29b-41d4-a716-44665544000g"), NULL},
	{"G in the first position", TEXT("G50e8400-e29b-41d4-a716-446655440000"), NULL},
	{"underscore for the last hyphen", TEXT("550e8400-e29b-41d4-a716_446655440000"), NULL},
	{"digit for the first hyphen", TEXT("550e84000e29b-41d4-a716-446655440000"), NULL},
	{"NUL in a digit", TEXT("550e8400-e29b-41d4-a716-4466554400\0" "0"), NULL},
	{"byte 0xC3 in a digit", TEXT("550e8400-e29b-41d4-a716-4466554400\xC3" "0"), NULL},
	{"a ULID of 26 characters", TEXT("01ARYZ6S41TSV4RRFFQ69G5FAV"), NULL},
};

static void
check_uuid_decode(const uuid_decode_case *c)
{
	uint8_t		bytes[ULID_LEN];
	uint8_t		before[ULID_LEN];

	for (int i = 0; i < ULID_LEN; i++)
		bytes[i] = c->bytes ? (uint8_t) ~c->bytes[i] : 0xAA;
	memcpy(before, bytes, ULID_LEN);
	if (ulid_uuid_decode(c->text, c->len, bytes) != (c->bytes != NULL))
	{
		fail("%s, expected %s", c->bytes ? "refused" : "read",
			 c->bytes ? "read" : "refused");
		return;
	}
	if (c->bytes)
		CHECK_BYTES("decoded value", bytes, c->bytes, ULID_LEN);
	else
		CHECK_BYTES("value after a refusal", bytes, before, ULID_LEN);
}

/* ------------------------------- UUID text: the spellings errors correct */

/*
 * A string refused by decode, the digits ulid_uuid_other_spelling() counts
 * (-1: not a UUID) and, with 32 digits, the canonical form it writes.
 */
typedef struct uuid_spelling_case
{
	const char *name;
	const char *text;
	size_t		len;
	int			digits;
	const char *canonical;
} uuid_spelling_case;

#define UUID_CANON "550e8400-e29b-41d4-a716-446655440000"

static const uuid_spelling_case uuid_spelling_cases[] = {
	{"braces", TEXT("{550e8400-e29b-41d4-a716-446655440000}"), 32, UUID_CANON},
	{"no hyphens", TEXT("550e8400e29b41d4a716446655440000"), 32, UUID_CANON},
	{"no hyphens, upper case: canonical is lower", TEXT("550E8400E29B41D4A716446655440000"), 32, UUID_CANON},
	{"hyphens every 4 digits", TEXT("550e-8400-e29b-41d4-a716-4466-5544-0000"), 32, UUID_CANON},
	{"hyphen moved, still 36", TEXT("550e8400e-29b-41d4-a716-446655440000"), 32, UUID_CANON},
	{"braces without hyphens", TEXT("{550e8400e29b41d4a716446655440000}"), 32, UUID_CANON},
	{"urn:uuid: prefix", TEXT("urn:uuid:550e8400-e29b-41d4-a716-446655440000"), 32, UUID_CANON},
	{"URN:UUID: prefix, upper case", TEXT("URN:UUID:550E8400-E29B-41D4-A716-446655440000"), 32, UUID_CANON},
	{"prefix and braces", TEXT("urn:uuid:{550e8400-e29b-41d4-a716-446655440000}"), 32, UUID_CANON},
	{"leading space", TEXT(" 550e8400-e29b-41d4-a716-446655440000"), 32, UUID_CANON},
	{"trailing line break", TEXT("550e8400-e29b-41d4-a716-446655440000\r\n"), 32, UUID_CANON},
	{"tab around braces", TEXT("\t{550e8400-e29b-41d4-a716-446655440000}\t"), 32, UUID_CANON},
	{"canonical upper case counts too", TEXT("550E8400-E29B-41D4-A716-446655440000"), 32, UUID_CANON},

	{"a digit short", TEXT("550e8400-e29b-41d4-a716-44665544000"), 31, NULL},
	{"a digit too many", TEXT("550e8400-e29b-41d4-a716-4466554400000"), 33, NULL},
	{"two UUIDs back to back", TEXT("550e8400-e29b-41d4-a716-446655440000550e8400-e29b-41d4-a716-446655440000"), 64, NULL},
	{"one group in braces", TEXT("{550e8400}"), 8, NULL},
	{"33 digits without a hyphen: not a UUID", TEXT("550e8400e29b41d4a7164466554400000"), -1, NULL},
	{"31 digits without a hyphen: not a UUID", TEXT("550e8400e29b41d4a71644665544000"), -1, NULL},
	{"hexadecimal ULID-like text: not a UUID", TEXT("01ABCDEF0123456789ABCDEF01"), -1, NULL},
	{"hyphens only", TEXT("----"), -1, NULL},
	{"1-2: two digits and a hyphen, no UUID", TEXT("1-2"), -1, NULL},
	{"a date: eight digits and hyphens, no UUID", TEXT("2024-01-01"), -1, NULL},
	{"15 digits and a hyphen: no UUID", TEXT("550e8400-e29b-41d"), -1, NULL},
	{"16 digits and a hyphen: half a UUID", TEXT("550e8400-e29b-41d4"), 16, NULL},
	{"empty braces", TEXT("{}"), -1, NULL},
	{"empty", TEXT(""), -1, NULL},
	{"g among the digits", TEXT("{550e8400-e29b-41d4-a716-44665544000g}"), -1, NULL},
	{"brace not closed", TEXT("{550e8400-e29b-41d4-a716-446655440000"), -1, NULL},
	{"braces inside the prefix", TEXT("{urn:uuid:550e8400-e29b-41d4-a716-446655440000}"), -1, NULL},
	{"space inside", TEXT("550e8400 e29b-41d4-a716-446655440000"), -1, NULL},
	{"NUL inside", TEXT("550e8400\0e29b-41d4-a716-446655440000"), -1, NULL},
	{"prefix without colon", TEXT("urn:uuid550e8400-e29b-41d4-a716-446655440000"), -1, NULL},
	{"byte 0xC3 inside", TEXT("550e8400-e29b-41d4-a716-4466554400\xC3" "0"), -1, NULL},
};

static void
check_uuid_spelling(const uuid_spelling_case *c)
{
	char		canonical[ULID_UUID_TEXT_LEN + 1];
	uint8_t		from_canonical[ULID_LEN];
	int			digits;

	CHECK((c->digits == ULID_UUID_DIGITS) == (c->canonical != NULL));
	memset(canonical, '#', sizeof(canonical));
	digits = ulid_uuid_other_spelling(c->text, c->len, canonical);
	if (digits != c->digits)
	{
		fail("%d digits, expected %d", digits, c->digits);
		return;
	}
	if (c->canonical == NULL)
	{
		CHECK(canonical[0] == '#');	/* nothing written */
		return;
	}
	if (memcmp(canonical, c->canonical, ULID_UUID_TEXT_LEN) != 0)
	{
		fail("canonical form %.36s, expected %s", canonical, c->canonical);
		return;
	}
	CHECK(canonical[ULID_UUID_TEXT_LEN] == '#');	/* no terminator written */
	/* what the detail says to write is read */
	CHECK(ulid_uuid_decode(canonical, ULID_UUID_TEXT_LEN, from_canonical));
}

/* --------------------------------------------- UUID text: the functions */

/* The digit values and the hyphen positions follow from the rules. */
static void
test_uuid_rules(void)
{
	static const char lower[] = "0123456789abcdef";
	static const char upper[] = "0123456789ABCDEF";
	int			hyphens = 0;

	for (int c = 0; c < 256; c++)
	{
		const char *l = c ? strchr(lower, c) : NULL;
		const char *u = c ? strchr(upper, c) : NULL;
		int			expect = l ? (int) (l - lower) : u ? (int) (u - upper) : -1;

		CHECK_AT(ulid_hex_value((unsigned char) c) == expect, c);
	}
	for (size_t i = 0; i < ULID_UUID_TEXT_LEN; i++)
	{
		hyphens += ulid_uuid_hyphen_at(i);
		for (int c = 0; c < 256; c++)
			CHECK_AT(ulid_uuid_char_ok(i, (unsigned char) c) ==
					 (ulid_uuid_hyphen_at(i) ? c == '-' : ulid_hex_value((unsigned char) c) >= 0),
					 i * 256 + c);
	}
	/* 8-4-4-4-12: hyphens before each group but the first */
	CHECK(hyphens == 4);
	CHECK(ULID_UUID_TEXT_LEN - hyphens == ULID_UUID_DIGITS);
	CHECK(ulid_uuid_hyphen_at(8) && ulid_uuid_hyphen_at(13) &&
		  ulid_uuid_hyphen_at(18) && ulid_uuid_hyphen_at(23));
}

/*
 * Random values written as uuid text, in random case, read back as the
 * same 16 bytes; the other spelling of the same value without hyphens gives
 * the canonical form in lower case.
 */
static void
test_uuid_round_trip(void)
{
	uint8_t		u[ULID_LEN];
	uint8_t		back[ULID_LEN];
	char		text[ULID_UUID_TEXT_LEN + 1];
	char		plain[ULID_UUID_DIGITS + 1];
	char		canonical[ULID_UUID_TEXT_LEN];

	prng_seed(0x5555AAAA1234ULL);
	for (long n = 0; n < 100000; n++)
	{
		prng_fill(u, ULID_LEN);
		snprintf(text, sizeof(text),
				 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
				 u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7],
				 u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
		for (int i = 0, d = 0; i < ULID_UUID_TEXT_LEN; i++)
			if (text[i] != '-')
				plain[d++] = text[i];
		plain[ULID_UUID_DIGITS] = '\0';
		CHECK_AT(ulid_uuid_other_spelling(plain, ULID_UUID_DIGITS, canonical) == ULID_UUID_DIGITS, n);
		CHECK_AT(memcmp(canonical, text, ULID_UUID_TEXT_LEN) == 0, n);

		for (int i = 0; i < ULID_UUID_TEXT_LEN; i++)
			if (text[i] >= 'a' && text[i] <= 'f' && (prng_next() & 1))
				text[i] = (char) (text[i] - 'a' + 'A');
		memset(back, ~u[0], ULID_LEN);
		CHECK_AT(ulid_uuid_decode(text, ULID_UUID_TEXT_LEN, back), n);
		CHECK_AT(memcmp(back, u, ULID_LEN) == 0, n);
	}
}

/* Any one byte changed in a canonical UUID: read iff the rules allow it there. */
static void
test_uuid_every_byte(void)
{
	for (size_t pos = 0; pos < ULID_UUID_TEXT_LEN; pos++)
		for (int c = 0; c < 256; c++)
		{
			char		text[ULID_UUID_TEXT_LEN];
			uint8_t		u[ULID_LEN];
			bool		ok;

			memcpy(text, UUID_CANON, ULID_UUID_TEXT_LEN);
			text[pos] = (char) c;
			ok = ulid_uuid_decode(text, ULID_UUID_TEXT_LEN, u);
			CHECK_AT(ok == (ulid_uuid_hyphen_at(pos) ? c == '-' : ulid_hex_value((unsigned char) c) >= 0),
					 pos * 256 + c);
			/* the changed digit is the changed nibble */
			if (ok && !ulid_uuid_hyphen_at(pos))
			{
				size_t		d = pos - (pos > 8) - (pos > 13) - (pos > 18) - (pos > 23);
				int			nibble = (d % 2) ? u[d / 2] & 15 : u[d / 2] >> 4;

				CHECK_AT(nibble == ulid_hex_value((unsigned char) c), pos * 256 + c);
			}
		}
}

static const function_case uuid_functions[] = {
	{"digit values and hyphen positions rebuilt from the rules", test_uuid_rules},
	{"100,000 random values round trip as uuid text, in mixed case too", test_uuid_round_trip},
	{"every byte in every position of a canonical UUID", test_uuid_every_byte},
};

/* ------------------------------------------------------- layout: time */

/* A millisecond time and its 6 big-endian bytes. */
typedef struct time_case
{
	const char *name;
	uint64_t	ms;
	uint8_t		bytes[ULID_TIME_BYTES];
} time_case;

static const time_case time_cases[] = {
	{"zero", 0, {0}},
	{"one", 1, {0, 0, 0, 0, 0, 0x01}},
	{"255", 255, {0, 0, 0, 0, 0, 0xFF}},
	{"256", 256, {0, 0, 0, 0, 0x01, 0x00}},
	{"byte order", 0x0123456789ABULL, {0x01, 0x23, 0x45, 0x67, 0x89, 0xAB}},
	{"specification example", 1469918176385ULL, {0x01, 0x56, 0x3D, 0xF3, 0x64, 0x81}},
	{"last millisecond but one", ULID_TIME_MAX - 1, {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE}},
	{"last millisecond", ULID_TIME_MAX, {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}},
};

/* set_time writes the bytes and only them; get_time reads them back. */
static void
check_time(const time_case *c)
{
	uint8_t		u[ULID_LEN];

	memset(u, 0xA5, ULID_LEN);
	ulid_set_time(u, c->ms);
	CHECK_BYTES("time bytes", u, c->bytes, ULID_TIME_BYTES);
	for (int b = ULID_TIME_BYTES; b < ULID_LEN; b++)
		CHECK_AT(u[b] == 0xA5, b);
	CHECK(ulid_get_time(u) == c->ms);

	/* read from bytes set by hand, with another random part */
	memset(u, 0x5A, ULID_LEN);
	memcpy(u, c->bytes, ULID_TIME_BYTES);
	CHECK(ulid_get_time(u) == c->ms);
}

/* ---------------------------------------------------- layout: distance */

/* Two values a <= b and ulid_distance(a, b). */
typedef struct distance_case
{
	const char *name;
	uint8_t		a[ULID_LEN];
	uint8_t		b[ULID_LEN];
	double		distance;
} distance_case;

static const distance_case distance_cases[] = {
	{"same value", VECTOR_BYTES, VECTOR_BYTES, 0.0},
	{"one apart",
		VECTOR_BYTES,
		{0x01, 0x56, 0x3D, 0xF3, 0x64, 0x81, 0xD6, 0x76, 0x4C, 0x61, 0xEF, 0xB9, 0x93, 0x02, 0xBD, 0x5C},
	1.0},
	{"one apart across the two 64-bit words",
		{0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF},
		{[7] = 0x01},
	1.0},
	{"2^52 + 1 in the low word, exact", {0}, {[9] = 0x10, [15] = 0x01}, 0x1.0000000000001p52},
	{"2^64: one in the high word", {0}, {[7] = 0x01}, 0x1p64},
	{"2^64 + 2^12 from both words, exact", {0}, {[7] = 0x01, [14] = 0x10}, 0x1.0000000000001p64},
	{"one millisecond is 2^80", {0}, {[5] = 0x01}, 0x1p80},
	{"high-word gap 2^53: the low word is dropped", {0}, {[1] = 0x20, [15] = 0x01}, 0x1p117},
	{"the whole range, 2^128 - 1, rounds to 2^128",
		{0},
		{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF},
	0x1p128},
};

static void
check_distance(const distance_case *c)
{
	double		d = ulid_distance(c->a, c->b);

	if (d != c->distance)
		fail("distance %.17g, expected %.17g", d, c->distance);
}

/* --------------------------------------------------- layout: functions */

/* set_time/get_time round trip for random times, touching bytes 0-5 only. */
static void
test_time_round_trip(void)
{
	uint8_t		u[ULID_LEN];

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

static int
cmp_ulid(const void *x, const void *y)
{
	return memcmp(x, y, ULID_LEN);
}

/*
 * Sorted random values, many sharing high words or close to the 2^53
 * boundary of the high-word difference: distances from the smallest never
 * decrease, and no distance between neighbours is negative.
 */
static void
test_distance_monotone(void)
{
	static uint8_t many[20000][ULID_LEN];

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

static const function_case layout_functions[] = {
	{"100,000 random times round trip", test_time_round_trip},
	{"distance monotone over 20,000 sorted values", test_distance_monotone},
};

/* ------------------------------------------------------ the monotonic step */

/*
 * One call of ulid_monotonic_step(): the state before (last, unless this is
 * the first call), the clock and the fresh random bytes; whether it succeeds
 * and, if so, the ULID it returns.  A refused step must leave last as it was.
 */
typedef struct step_case
{
	const char *name;
	bool		have_last;
	uint64_t	last_ms;
	uint8_t		last_random[ULID_RANDOM_BYTES];
	uint64_t	now_ms;
	uint8_t		random[ULID_RANDOM_BYTES];
	bool		ok;
	uint64_t	next_ms;
	uint8_t		next_random[ULID_RANDOM_BYTES];
} step_case;

static const step_case step_cases[] = {
	/* first call: now_ms and the fresh bytes, whatever last holds */
	{.name = "first call ignores last, even the largest ULID",
		.have_last = false, .last_ms = ULID_TIME_MAX, .last_random = ONES,
		.now_ms = 1469918176385ULL, .random = FRESH,
	.ok = true, .next_ms = 1469918176385ULL, .next_random = FRESH},
	{.name = "first call at time zero",
		.have_last = false, .last_ms = 0x5A5A5A5A5A5AULL,
		.last_random = {0x5A, 0x5A, 0x5A, 0x5A, 0x5A, 0x5A, 0x5A, 0x5A, 0x5A, 0x5A},
		.now_ms = 0, .random = FRESH,
	.ok = true, .next_ms = 0, .next_random = FRESH},
	{.name = "first call at the last millisecond",
		.have_last = false, .last_ms = 0, .last_random = ZEROS,
		.now_ms = ULID_TIME_MAX, .random = FRESH,
	.ok = true, .next_ms = ULID_TIME_MAX, .next_random = FRESH},

	/* clock ahead of last's millisecond: the new time and the fresh bytes */
	{.name = "clock 1 ms ahead, last's larger random part does not matter",
		.have_last = true, .last_ms = 1000, .last_random = ONES,
		.now_ms = 1001, .random = FRESH,
	.ok = true, .next_ms = 1001, .next_random = FRESH},
	{.name = "clock jumps to the last millisecond",
		.have_last = true, .last_ms = 1001, .last_random = FRESH,
		.now_ms = ULID_TIME_MAX, .random = FRESH,
	.ok = true, .next_ms = ULID_TIME_MAX, .next_random = FRESH},

	/* same millisecond: last plus one, the fresh bytes ignored */
	{.name = "same ms: last plus one",
		.have_last = true, .last_ms = 5000,
		.last_random = {0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC, 0xDE, 0xF0, 0x00, 0x05},
		.now_ms = 5000, .random = FRESH,
		.ok = true, .next_ms = 5000,
	.next_random = {0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC, 0xDE, 0xF0, 0x00, 0x06}},
	{.name = "same ms again: plus one more",
		.have_last = true, .last_ms = 5000,
		.last_random = {0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC, 0xDE, 0xF0, 0x00, 0x06},
		.now_ms = 5000, .random = FRESH,
		.ok = true, .next_ms = 5000,
	.next_random = {0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC, 0xDE, 0xF0, 0x00, 0x07}},
	{.name = "same ms at time zero",
		.have_last = true, .last_ms = 0, .last_random = ZEROS,
		.now_ms = 0, .random = FRESH,
	.ok = true, .next_ms = 0, .next_random = {[9] = 0x01}},

	/* clock behind: last plus one, keeping last's time */
	{.name = "clock 1 ms behind: last plus one, last's time",
		.have_last = true, .last_ms = 9000, .last_random = ZEROS,
		.now_ms = 8999, .random = FRESH,
	.ok = true, .next_ms = 9000, .next_random = {[9] = 0x01}},
	{.name = "clock far behind, at time zero",
		.have_last = true, .last_ms = 9000, .last_random = {[9] = 0x01},
		.now_ms = 0, .random = FRESH,
	.ok = true, .next_ms = 9000, .next_random = {[9] = 0x02}},

	/* the increment carries across the bytes of the random part */
	{.name = "carry: ...00 FF FF becomes ...01 00 00",
		.have_last = true, .last_ms = 777,
		.last_random = {0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x00, 0xFF, 0xFF},
		.now_ms = 777, .random = FRESH,
		.ok = true, .next_ms = 777,
	.next_random = {0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x01, 0x00, 0x00}},
	{.name = "carry: the longest that stays inside the random part",
		.have_last = true, .last_ms = 0x00FF00FF00FFULL,
		.last_random = {0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF},
		.now_ms = 0x00FF00FF00FFULL, .random = FRESH,
	.ok = true, .next_ms = 0x00FF00FF00FFULL, .next_random = {0x01}},

	/* random part all ones: the next millisecond with fresh bytes */
	{.name = "random part full, same ms: next ms, fresh bytes",
		.have_last = true, .last_ms = 0x0000FFFFFFFFULL, .last_random = ONES,
		.now_ms = 0x0000FFFFFFFFULL, .random = FRESH,
	.ok = true, .next_ms = 0x000100000000ULL, .next_random = FRESH},
	{.name = "random part full, clock behind: next ms, all-zero fresh bytes",
		.have_last = true, .last_ms = 0x0000FFFFFFFFULL, .last_random = ONES,
		.now_ms = 0x0000FFFFFFFFULL - 10, .random = ZEROS,
	.ok = true, .next_ms = 0x000100000000ULL, .next_random = ZEROS},
	{.name = "random part full in the last millisecond but one: the last",
		.have_last = true, .last_ms = ULID_TIME_MAX - 1, .last_random = ONES,
		.now_ms = ULID_TIME_MAX - 1, .random = FRESH,
	.ok = true, .next_ms = ULID_TIME_MAX, .next_random = FRESH},

	/* the last millisecond: up to the largest ULID, then refused */
	{.name = "last millisecond: ...FE becomes the largest ULID",
		.have_last = true, .last_ms = ULID_TIME_MAX,
		.last_random = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE},
		.now_ms = ULID_TIME_MAX, .random = FRESH,
	.ok = true, .next_ms = ULID_TIME_MAX, .next_random = ONES},
	{.name = "after the largest ULID, same ms: refused",
		.have_last = true, .last_ms = ULID_TIME_MAX, .last_random = ONES,
		.now_ms = ULID_TIME_MAX, .random = FRESH,
	.ok = false},
	{.name = "after the largest ULID, clock behind: refused",
		.have_last = true, .last_ms = ULID_TIME_MAX, .last_random = ONES,
		.now_ms = 12345, .random = FRESH,
	.ok = false},
};

static void
check_step(const step_case *c)
{
	uint8_t		last[ULID_LEN];
	uint8_t		prev[ULID_LEN];
	uint8_t		next[ULID_LEN];
	uint8_t		expect[ULID_LEN];
	bool		ok;

	CHECK(c->now_ms <= ULID_TIME_MAX);	/* the step's precondition */

	make_ulid(last, c->last_ms, c->last_random);
	memcpy(prev, last, ULID_LEN);
	make_ulid(expect, c->next_ms, c->next_random);
	for (int i = 0; i < ULID_LEN; i++)
		next[i] = (uint8_t) ~expect[i];	/* every byte must be written */

	ok = ulid_monotonic_step(last, c->have_last, c->now_ms, c->random, next);
	if (ok != c->ok)
	{
		fail("returned %s, expected %s", ok ? "true" : "false",
			 c->ok ? "true" : "false");
		return;
	}
	if (!ok)
	{
		CHECK_BYTES("last", last, prev, ULID_LEN);
		return;
	}
	CHECK_BYTES("next", next, expect, ULID_LEN);
	CHECK_BYTES("last", last, next, ULID_LEN);
	if (c->have_last)
		CHECK(memcmp(next, prev, ULID_LEN) > 0);
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

static const function_case step_functions[] = {
	{"a million steps against the rules, strictly increasing", test_step_long_sequence},
};

/* -------------------------------------------- the monotonic step, UUIDv7 */

/*
 * The UUIDv7 shape's fields, computed here from RFC 9562's layout rather
 * than through ulid_layout.h: rand_a is 12 bits, rand_b 62.
 */
#define V7_RAND_A_MAX	0xFFFU
#define V7_RAND_B_MAX	((UINT64_C(1) << 62) - 1)
#define V7_FRESH_A		0x1B2U	/* FRESH's rand_a and rand_b */
#define V7_FRESH_B		UINT64_C(0x03D4E5F60718293A)

/* Build a UUIDv7-shaped ULID from a time and its two random fields. */
static void
make_v7(uint8_t *u, uint64_t ms, uint16_t a, uint64_t b)
{
	ulid_set_time(u, ms);
	u[6] = (uint8_t) (0x70 | (a >> 8));
	u[7] = (uint8_t) a;
	u[8] = (uint8_t) (0x80 | (b >> 56));
	for (int i = 9; i < ULID_LEN; i++)
		u[i] = (uint8_t) (b >> (8 * (ULID_LEN - 1 - i)));
}

/* Whether u has version 0111 (byte 6's high nibble) and variant 10 (byte 8's high bits). */
static bool
has_v7_bits(const uint8_t *u)
{
	return (u[6] >> 4) == 0x7 && (u[8] >> 6) == 0x2;
}

/* rand_a and rand_b of a UUIDv7-shaped ULID. */
static void
v7_fields(const uint8_t *u, uint16_t *a, uint64_t *b)
{
	*a = (uint16_t) (((u[6] & 0x0F) << 8) | u[7]);
	*b = u[8] & 0x3F;
	for (int i = 9; i < ULID_LEN; i++)
		*b = (*b << 8) | u[i];
}

/*
 * One call of ulid_monotonic_step_v7(), as step_case, with the values given
 * by their time and random fields.
 */
typedef struct step_v7_case
{
	const char *name;
	bool		have_last;
	uint64_t	last_ms;
	uint16_t	last_a;
	uint64_t	last_b;
	uint64_t	now_ms;
	uint8_t		random[ULID_RANDOM_BYTES];
	bool		ok;
	uint64_t	next_ms;
	uint16_t	next_a;
	uint64_t	next_b;
} step_v7_case;

static const step_v7_case step_v7_cases[] = {
	/* first call: now_ms and the fresh bytes, version and variant written over */
	{.name = "first call ignores last, even the largest value",
		.have_last = false, .last_ms = ULID_TIME_MAX,
		.last_a = V7_RAND_A_MAX, .last_b = V7_RAND_B_MAX,
		.now_ms = 1469918176385ULL, .random = FRESH,
	.ok = true, .next_ms = 1469918176385ULL, .next_a = V7_FRESH_A, .next_b = V7_FRESH_B},
	{.name = "first call, fresh bytes all ones: 6 of them become version and variant",
		.have_last = false, .now_ms = 1000, .random = ONES,
	.ok = true, .next_ms = 1000, .next_a = V7_RAND_A_MAX, .next_b = V7_RAND_B_MAX},
	{.name = "first call, fresh bytes all zeros: version and variant set",
		.have_last = false, .now_ms = 0, .random = ZEROS,
	.ok = true, .next_ms = 0, .next_a = 0, .next_b = 0},

	/* clock ahead of last's millisecond: the new time and the fresh bytes */
	{.name = "clock 1 ms ahead, last's full random bits do not matter",
		.have_last = true, .last_ms = 1000,
		.last_a = V7_RAND_A_MAX, .last_b = V7_RAND_B_MAX,
		.now_ms = 1001, .random = FRESH,
	.ok = true, .next_ms = 1001, .next_a = V7_FRESH_A, .next_b = V7_FRESH_B},

	/* same millisecond: last plus one in rand_b */
	{.name = "same ms: last plus one",
		.have_last = true, .last_ms = 5000, .last_a = 0x123, .last_b = 5,
		.now_ms = 5000, .random = FRESH,
	.ok = true, .next_ms = 5000, .next_a = 0x123, .next_b = 6},
	{.name = "same ms at time zero, from all zeros",
		.have_last = true, .last_ms = 0, .last_a = 0, .last_b = 0,
		.now_ms = 0, .random = FRESH,
	.ok = true, .next_ms = 0, .next_a = 0, .next_b = 1},

	/* clock behind: last plus one, keeping last's time */
	{.name = "clock 1 ms behind: last plus one, last's time",
		.have_last = true, .last_ms = 9000, .last_a = 0x800, .last_b = 0,
		.now_ms = 8999, .random = FRESH,
	.ok = true, .next_ms = 9000, .next_a = 0x800, .next_b = 1},
	{.name = "clock far behind, at time zero",
		.have_last = true, .last_ms = 9000, .last_a = 0x800, .last_b = 1,
		.now_ms = 0, .random = FRESH,
	.ok = true, .next_ms = 9000, .next_a = 0x800, .next_b = 2},

	/* carries inside rand_b, across bytes and into the variant byte */
	{.name = "carry: rand_b ...00 FF FF becomes ...01 00 00",
		.have_last = true, .last_ms = 777, .last_a = 0xABC,
		.last_b = UINT64_C(0x1122334455660000) | 0xFFFF,
		.now_ms = 777, .random = FRESH,
		.ok = true, .next_ms = 777, .next_a = 0xABC,
	.next_b = UINT64_C(0x1122334455670000)},
	{.name = "carry: rand_b's low 56 bits into the 6 below the variant",
		.have_last = true, .last_ms = 777, .last_a = 0xABC,
		.last_b = UINT64_C(0x00FFFFFFFFFFFFFF),
		.now_ms = 777, .random = FRESH,
	.ok = true, .next_ms = 777, .next_a = 0xABC, .next_b = UINT64_C(0x0100000000000000)},
	{.name = "carry: the 6 bits below the variant full, rand_b not",
		.have_last = true, .last_ms = 777, .last_a = 0xABC,
		.last_b = UINT64_C(0x3F00000000000000),
		.now_ms = 777, .random = FRESH,
	.ok = true, .next_ms = 777, .next_a = 0xABC, .next_b = UINT64_C(0x3F00000000000001)},

	/* rand_b all ones: carry into rand_a, rand_b to zero */
	{.name = "rand_b full: into rand_a's low byte",
		.have_last = true, .last_ms = 4242, .last_a = 0x005, .last_b = V7_RAND_B_MAX,
		.now_ms = 4242, .random = FRESH,
	.ok = true, .next_ms = 4242, .next_a = 0x006, .next_b = 0},
	{.name = "rand_b full, rand_a 0x0FF: into the 4 bits below the version",
		.have_last = true, .last_ms = 4242, .last_a = 0x0FF, .last_b = V7_RAND_B_MAX,
		.now_ms = 4242, .random = FRESH,
	.ok = true, .next_ms = 4242, .next_a = 0x100, .next_b = 0},
	{.name = "rand_b full, rand_a 0xFFE, clock behind: rand_a 0xFFF",
		.have_last = true, .last_ms = 4242, .last_a = 0xFFE, .last_b = V7_RAND_B_MAX,
		.now_ms = 4000, .random = FRESH,
	.ok = true, .next_ms = 4242, .next_a = 0xFFF, .next_b = 0},

	/* all 74 random bits ones: the next millisecond with fresh bytes */
	{.name = "74 bits full, same ms: next ms, fresh bytes",
		.have_last = true, .last_ms = 0x0000FFFFFFFFULL,
		.last_a = V7_RAND_A_MAX, .last_b = V7_RAND_B_MAX,
		.now_ms = 0x0000FFFFFFFFULL, .random = FRESH,
	.ok = true, .next_ms = 0x000100000000ULL, .next_a = V7_FRESH_A, .next_b = V7_FRESH_B},
	{.name = "74 bits full, clock behind: next ms, all-zero fresh bytes",
		.have_last = true, .last_ms = 0x0000FFFFFFFFULL,
		.last_a = V7_RAND_A_MAX, .last_b = V7_RAND_B_MAX,
		.now_ms = 0x0000FFFFFFFFULL - 10, .random = ZEROS,
	.ok = true, .next_ms = 0x000100000000ULL, .next_a = 0, .next_b = 0},
	{.name = "74 bits full in the last millisecond but one: the last",
		.have_last = true, .last_ms = ULID_TIME_MAX - 1,
		.last_a = V7_RAND_A_MAX, .last_b = V7_RAND_B_MAX,
		.now_ms = ULID_TIME_MAX - 1, .random = FRESH,
	.ok = true, .next_ms = ULID_TIME_MAX, .next_a = V7_FRESH_A, .next_b = V7_FRESH_B},

	/* the last millisecond: up to the largest value of the shape, then refused */
	{.name = "last millisecond: ...FE becomes the largest value",
		.have_last = true, .last_ms = ULID_TIME_MAX,
		.last_a = V7_RAND_A_MAX, .last_b = V7_RAND_B_MAX - 1,
		.now_ms = ULID_TIME_MAX, .random = FRESH,
	.ok = true, .next_ms = ULID_TIME_MAX, .next_a = V7_RAND_A_MAX, .next_b = V7_RAND_B_MAX},
	{.name = "after the largest value, same ms: refused",
		.have_last = true, .last_ms = ULID_TIME_MAX,
		.last_a = V7_RAND_A_MAX, .last_b = V7_RAND_B_MAX,
		.now_ms = ULID_TIME_MAX, .random = FRESH,
	.ok = false},
	{.name = "after the largest value, clock behind: refused",
		.have_last = true, .last_ms = ULID_TIME_MAX,
		.last_a = V7_RAND_A_MAX, .last_b = V7_RAND_B_MAX,
		.now_ms = 12345, .random = ONES,
	.ok = false},
};

static void
check_step_v7(const step_v7_case *c)
{
	uint8_t		last[ULID_LEN];
	uint8_t		prev[ULID_LEN];
	uint8_t		next[ULID_LEN];
	uint8_t		expect[ULID_LEN];
	bool		ok;

	/* the step's preconditions, and the table's own sanity */
	CHECK(c->now_ms <= ULID_TIME_MAX);
	CHECK(c->last_a <= V7_RAND_A_MAX && c->last_b <= V7_RAND_B_MAX);
	CHECK(c->next_a <= V7_RAND_A_MAX && c->next_b <= V7_RAND_B_MAX);

	make_v7(last, c->last_ms, c->last_a, c->last_b);
	memcpy(prev, last, ULID_LEN);
	make_v7(expect, c->next_ms, c->next_a, c->next_b);
	for (int i = 0; i < ULID_LEN; i++)
		next[i] = (uint8_t) ~expect[i];	/* every byte must be written */

	ok = ulid_monotonic_step_v7(last, c->have_last, c->now_ms, c->random, next);
	if (ok != c->ok)
	{
		fail("returned %s, expected %s", ok ? "true" : "false",
			 c->ok ? "true" : "false");
		return;
	}
	if (!ok)
	{
		CHECK_BYTES("last", last, prev, ULID_LEN);
		return;
	}
	CHECK(has_v7_bits(next));
	CHECK_BYTES("next", next, expect, ULID_LEN);
	CHECK_BYTES("last", last, next, ULID_LEN);
	if (c->have_last)
		CHECK(memcmp(next, prev, ULID_LEN) > 0);
}

/*
 * A million steps of the UUIDv7 shape, as test_step_long_sequence: every
 * value has the version and variant, the fields follow the rules computed on
 * the two numbers, and the values strictly increase.  The fresh bytes are
 * sometimes all ones in rand_b alone, to carry into rand_a without
 * overflowing it, and sometimes all ones in both, to overflow.
 */
static void
test_step_v7_long_sequence(void)
{
	uint8_t		last[ULID_LEN];
	uint8_t		prev[ULID_LEN];
	uint8_t		next[ULID_LEN];
	uint8_t		random[ULID_RANDOM_BYTES];
	uint64_t	now = 1700000000000ULL;
	long		n_fresh = 0,
				n_increment = 0,
				n_carry_a = 0,
				n_overflow = 0,
				n_behind = 0;

	prng_seed(7);
	memset(last, 0, ULID_LEN);
	for (long n = 0; n < 1000000; n++)
	{
		uint64_t	r = prng_next();
		uint64_t	prev_ms = ulid_get_time(last);
		uint16_t	a,
					next_a;
		uint64_t	b,
					next_b;

		/* the clock as in test_step_long_sequence */
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

		prng_fill(random, ULID_RANDOM_BYTES);
		switch ((r >> 8) % 16)
		{
			case 0:				/* rand_a and rand_b (nearly) full */
				memset(random, 0xFF, ULID_RANDOM_BYTES);
				random[ULID_RANDOM_BYTES - 1] -= (uint8_t) ((r >> 12) & 3);
				break;
			case 1:				/* rand_b (nearly) full, rand_a random */
				memset(random + 2, 0xFF, ULID_RANDOM_BYTES - 2);
				random[ULID_RANDOM_BYTES - 1] -= (uint8_t) ((r >> 12) & 3);
				break;
			default:
				break;
		}

		memcpy(prev, last, ULID_LEN);
		CHECK_AT(ulid_monotonic_step_v7(last, n > 0, now, random, next), n);
		CHECK_AT(memcmp(last, next, ULID_LEN) == 0, n);
		CHECK_AT(has_v7_bits(next), n);
		if (n > 0)
			CHECK_AT(memcmp(next, prev, ULID_LEN) > 0, n);

		v7_fields(prev, &a, &b);
		v7_fields(next, &next_a, &next_b);
		if (n == 0 || now > prev_ms)
		{
			n_fresh++;
			CHECK_AT(ulid_get_time(next) == now, n);
			CHECK_AT(next_a == (((random[0] & 0x0F) << 8) | random[1]), n);
			CHECK_AT((next[8] & 0x3F) == (random[2] & 0x3F), n);
			CHECK_AT(memcmp(next + 9, random + 3, ULID_RANDOM_BYTES - 3) == 0, n);
		}
		else if (a == V7_RAND_A_MAX && b == V7_RAND_B_MAX)
		{
			n_overflow++;
			CHECK_AT(ulid_get_time(next) == prev_ms + 1, n);
			CHECK_AT(next_a == (((random[0] & 0x0F) << 8) | random[1]), n);
			CHECK_AT((next[8] & 0x3F) == (random[2] & 0x3F), n);
			CHECK_AT(memcmp(next + 9, random + 3, ULID_RANDOM_BYTES - 3) == 0, n);
		}
		else
		{
			n_increment++;
			if (now < prev_ms)
				n_behind++;
			if (b == V7_RAND_B_MAX)
			{
				n_carry_a++;
				b = 0;
				a++;
			}
			else
				b++;
			CHECK_AT(ulid_get_time(next) == prev_ms, n);
			CHECK_AT(next_a == a && next_b == b, n);
		}
	}

	/* every branch was exercised */
	CHECK(n_fresh > 0);
	CHECK(n_increment > 0);
	CHECK(n_carry_a > 0);
	CHECK(n_overflow > 0);
	CHECK(n_behind > 0);
}

/*
 * The two shapes' steps are independent: interleaved, each sequence strictly
 * increases on its own and keeps its shape, whatever the other one does.
 */
static void
test_step_shapes_interleaved(void)
{
	uint8_t		last[ULID_LEN],
				last_v7[ULID_LEN],
				next[ULID_LEN],
				prev[ULID_LEN],
				prev_v7[ULID_LEN];
	uint8_t		random[ULID_RANDOM_BYTES];

	prng_seed(0x5EED);
	memset(last, 0, ULID_LEN);
	memset(last_v7, 0, ULID_LEN);
	for (long n = 0; n < 100000; n++)
	{
		uint64_t	now = 1700000000000ULL + (uint64_t) (n / 1000);

		memcpy(prev, last, ULID_LEN);
		memcpy(prev_v7, last_v7, ULID_LEN);
		prng_fill(random, ULID_RANDOM_BYTES);
		if (prng_next() & 1)
		{
			CHECK_AT(ulid_monotonic_step(last, n > 0, now, random, next), n);
			if (n > 0)
				CHECK_AT(memcmp(next, prev, ULID_LEN) > 0, n);
			CHECK_AT(memcmp(last_v7, prev_v7, ULID_LEN) == 0, n);
		}
		else
		{
			CHECK_AT(ulid_monotonic_step_v7(last_v7, n > 0, now, random, next), n);
			CHECK_AT(has_v7_bits(next), n);
			if (n > 0)
				CHECK_AT(memcmp(next, prev_v7, ULID_LEN) > 0, n);
			CHECK_AT(memcmp(last, prev, ULID_LEN) == 0, n);
		}
	}
}

static const function_case step_v7_functions[] = {
	{"a million steps against the rules, strictly increasing, all version 7", test_step_v7_long_sequence},
	{"interleaved with the plain step, each sequence increases alone", test_step_shapes_interleaved},
};

/* ------------------------------- the packed step of gen_ulid(), gen_ulid_v7() */

/*
 * One call of ulid_packed_step(): the shape, the state before, the clock and
 * the fresh random bytes; whether the counter was stepped, and the value.
 */
typedef struct packed_case
{
	const char *name;
	bool		v7;
	bool		have_last;
	uint64_t	last_ms;
	uint8_t		last_random[ULID_RANDOM_BYTES];
	uint64_t	now_ms;
	uint8_t		random[ULID_RANDOM_BYTES];
	bool		stepped;
	uint8_t		next_random[ULID_RANDOM_BYTES];	/* the time is always now_ms */
} packed_case;

/* FRESH in the UUIDv7 shape: version 7 over 0xA1's top nibble, variant 10 over 0xC3's top bits. */
#define FRESH_V7	{0x71, 0xB2, 0x83, 0xD4, 0xE5, 0xF6, 0x07, 0x18, 0x29, 0x3A}
/* FRESH's last 8 bytes below a counter, plain and UUIDv7-shaped. */
#define BELOW(c)	{(c) >> 8, (c) & 0xFF, 0xC3, 0xD4, 0xE5, 0xF6, 0x07, 0x18, 0x29, 0x3A}
#define BELOW_V7(c)	{0x70 | (c) >> 8, (c) & 0xFF, 0x83, 0xD4, 0xE5, 0xF6, 0x07, 0x18, 0x29, 0x3A}

static const packed_case packed_cases[] = {
	{.name = "first call: the fresh bytes, whatever last holds",
		.have_last = false, .last_ms = 5000, .last_random = ZEROS,
		.now_ms = 5000, .random = FRESH,
	.stepped = false, .next_random = FRESH},
	{.name = "another millisecond, ahead: the fresh bytes",
		.have_last = true, .last_ms = 5000, .last_random = ZEROS,
		.now_ms = 5001, .random = FRESH,
	.stepped = false, .next_random = FRESH},
	{.name = "clock behind: its own millisecond and the fresh bytes, not last's time",
		.have_last = true, .last_ms = 5000, .last_random = ZEROS,
		.now_ms = 4999, .random = FRESH,
	.stepped = false, .next_random = FRESH},
	{.name = "same ms: last's counter plus one, then the fresh bytes' last 8",
		.have_last = true, .last_ms = 5000,
		.last_random = {0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC, 0xDE, 0xF0, 0x00, 0x05},
		.now_ms = 5000, .random = FRESH,
	.stepped = true, .next_random = BELOW(0x1235)},
	{.name = "same ms: the low 64 bits are fresh, not last's (all ones there)",
		.have_last = true, .last_ms = 5000,
		.last_random = {0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF},
		.now_ms = 5000, .random = FRESH,
	.stepped = true, .next_random = BELOW(0x0001)},
	{.name = "same ms: the counter carries from byte 7 into byte 6",
		.have_last = true, .last_ms = 777,
		.last_random = {0x12, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0},
		.now_ms = 777, .random = FRESH,
	.stepped = true, .next_random = BELOW(0x1300)},
	{.name = "same ms: the counter reaches its largest, 0xFFFF",
		.have_last = true, .last_ms = 777,
		.last_random = {0xFF, 0xFE, 0, 0, 0, 0, 0, 0, 0, 0},
		.now_ms = 777, .random = FRESH,
	.stepped = true, .next_random = BELOW(0xFFFF)},
	{.name = "same ms, counter at its largest: the fresh bytes, same millisecond",
		.have_last = true, .last_ms = 777,
		.last_random = {0xFF, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0},
		.now_ms = 777, .random = FRESH,
	.stepped = false, .next_random = FRESH},
	{.name = "same ms at the last millisecond: a step as any other",
		.have_last = true, .last_ms = ULID_TIME_MAX, .last_random = ZEROS,
		.now_ms = ULID_TIME_MAX, .random = FRESH,
	.stepped = true, .next_random = BELOW(0x0001)},
	{.name = "same ms at time zero",
		.have_last = true, .last_ms = 0, .last_random = {0x00, 0x07},
		.now_ms = 0, .random = FRESH,
	.stepped = true, .next_random = BELOW(0x0008)},
	{.name = "v7, first call: the fresh bytes with the version and variant",
		.v7 = true, .have_last = false, .last_ms = 5000, .last_random = ZEROS,
		.now_ms = 5000, .random = FRESH,
	.stepped = false, .next_random = FRESH_V7},
	{.name = "v7, another millisecond: the fresh bytes, shaped",
		.v7 = true, .have_last = true, .last_ms = 5000, .last_random = BELOW_V7(0x123),
		.now_ms = 5001, .random = FRESH,
	.stepped = false, .next_random = FRESH_V7},
	{.name = "v7, same ms: rand_a plus one below the version, then fresh rand_b with the variant",
		.v7 = true, .have_last = true, .last_ms = 5000,
		.last_random = {0x71, 0x23, 0xBF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF},
		.now_ms = 5000, .random = FRESH,
	.stepped = true, .next_random = BELOW_V7(0x124)},
	{.name = "v7, same ms: rand_a carries from byte 7 into byte 6's low nibble",
		.v7 = true, .have_last = true, .last_ms = 5000, .last_random = BELOW_V7(0x0FF),
		.now_ms = 5000, .random = FRESH,
	.stepped = true, .next_random = BELOW_V7(0x100)},
	{.name = "v7, same ms: rand_a reaches its largest, 0xFFF",
		.v7 = true, .have_last = true, .last_ms = 5000, .last_random = BELOW_V7(0xFFE),
		.now_ms = 5000, .random = FRESH,
	.stepped = true, .next_random = BELOW_V7(0xFFF)},
	{.name = "v7, same ms, rand_a at its largest: the fresh bytes, shaped, never into the version",
		.v7 = true, .have_last = true, .last_ms = 5000, .last_random = BELOW_V7(0xFFF),
		.now_ms = 5000, .random = FRESH,
	.stepped = false, .next_random = FRESH_V7},
	{.name = "v7, first of a millisecond: rand_a's top bit cleared (the rollover guard)",
		.v7 = true, .have_last = true, .last_ms = 5000, .last_random = BELOW_V7(0x123),
		.now_ms = 5001, .random = ONES,
	.stepped = false, .next_random = {0x77, 0xFF, 0xBF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}},
	{.name = "v7, restart within a millisecond: guarded as well",
		.v7 = true, .have_last = true, .last_ms = 5000, .last_random = BELOW_V7(0xFFF),
		.now_ms = 5000, .random = {0x0C, 0x00, 0, 0, 0, 0, 0, 0, 0, 0},
	.stepped = false, .next_random = {0x74, 0x00, 0x80, 0, 0, 0, 0, 0, 0, 0}},
	{.name = "plain, first of a millisecond: no guard, all 80 bits fresh",
		.have_last = false, .last_ms = 5000, .last_random = ZEROS,
		.now_ms = 5000, .random = ONES,
	.stepped = false, .next_random = ONES},
};

static void
check_packed(const packed_case *c)
{
	uint8_t		last[ULID_LEN];
	uint8_t		next[ULID_LEN];
	uint8_t		expect[ULID_LEN];
	uint8_t		prev[ULID_LEN];
	bool		stepped;

	make_ulid(last, c->last_ms, c->last_random);
	memcpy(prev, last, ULID_LEN);
	make_ulid(expect, c->now_ms, c->next_random);
	for (int i = 0; i < ULID_LEN; i++)
		next[i] = (uint8_t) ~expect[i];	/* every byte must be written */

	stepped = ulid_packed_step(last, c->have_last, c->now_ms, c->random, next, c->v7);
	if (stepped != c->stepped)
		fail("stepped is %s, expected %s", stepped ? "true" : "false",
			 c->stepped ? "true" : "false");
	CHECK_BYTES("next", next, expect, ULID_LEN);
	CHECK_BYTES("last", last, next, ULID_LEN);
	if (stepped)
	{
		CHECK(memcmp(next, prev, ULID_LEN) > 0);
		/* the first 8 bytes differ: the abbreviated keys of the two differ */
		CHECK(memcmp(next, prev, 8) > 0);
	}
}

/* Whether u has the UUIDv7 shape's version and variant bits. */
static bool
v7_shaped(const uint8_t *u)
{
	return (u[ULID_V7_VERSION_BYTE] & 0xF0) == 0x70 &&
		(u[ULID_V7_VARIANT_BYTE] & 0xC0) == 0x80;
}

/*
 * A million values of one shape at a thousand a millisecond, the clock
 * sometimes going back, checked against the rules computed here: each
 * carries the clock's millisecond; within a millisecond each has the
 * counter of the one before plus one and fresh bytes below it (so it is
 * greater, and greater in its first 8 bytes), or, only when that counter was
 * at its largest, the fresh bytes.  The restarts come as often as the
 * arithmetic says: a millisecond's counter starts uniform in 0..max, so a
 * thousand values restart in about 999 / 65,536 of the milliseconds (15 in
 * these thousand); the UUIDv7 shape's starts below 2,048 of its 4,096, so a
 * thousand never restart.  The sequence is deterministic; the bounds say
 * that the rule, not luck, keeps the restarts that rare.
 */
static void
packed_long_sequence(bool v7, long min_restarts, long max_restarts)
{
	uint8_t		last[ULID_LEN] = {0};
	uint8_t		prev[ULID_LEN];
	uint8_t		next[ULID_LEN];
	uint8_t		random[ULID_RANDOM_BYTES];
	uint8_t		shaped[ULID_LEN];
	uint64_t	now = 1700000000000ULL;
	unsigned	max = v7 ? ULID_PACKED_COUNTER_MAX_V7 : ULID_PACKED_COUNTER_MAX;
	bool		have_last = false;
	long		n_step = 0,
				n_restart = 0,
				n_new_ms = 0;

	prng_seed(v7 ? 77 : 7);
	for (long n = 0; n < 1000000; n++)
	{
		bool		same_ms;
		bool		stepped;

		if (n % 1000 == 0)
			now = (n % 7000 == 0) ? now - 3 : now + 1;	/* back now and then */
		for (int i = 0; i < ULID_RANDOM_BYTES; i++)
			random[i] = (uint8_t) prng_next();
		same_ms = have_last && ulid_get_time(last) == now;
		memcpy(prev, last, ULID_LEN);

		stepped = ulid_packed_step(last, have_last, now, random, next, v7);
		have_last = true;
		if (ulid_get_time(next) != now || (v7 && !v7_shaped(next)))
		{
			fail("value %ld: time %llu, clock %llu, or not shaped", n,
				 (unsigned long long) ulid_get_time(next), (unsigned long long) now);
			return;
		}
		/* the fresh bytes as this shape writes them */
		make_ulid(shaped, now, random);
		if (v7)
			ulid_set_v7_bits(shaped);
		if (v7 && !stepped)
			shaped[6] &= (uint8_t) ~ULID_PACKED_GUARD_V7;
		if (stepped)
		{
			if (!same_ms ||
				ulid_packed_counter(next, v7) != ulid_packed_counter(prev, v7) + 1 ||
				memcmp(next + 8, shaped + 8, ULID_LEN - 8) != 0 ||
				memcmp(next, prev, 8) <= 0)
			{
				fail("value %ld: a step where none was due, or not last's counter plus one over the fresh bytes", n);
				return;
			}
			n_step++;
		}
		else
		{
			if (memcmp(next, shaped, ULID_LEN) != 0)
			{
				fail("value %ld: not a step, yet not the fresh bytes", n);
				return;
			}
			if (same_ms)
			{
				if (ulid_packed_counter(prev, v7) != max)
				{
					fail("value %ld: restarted though the counter had room", n);
					return;
				}
				n_restart++;
			}
			else
				n_new_ms++;
			if (v7 && (next[6] & ULID_PACKED_GUARD_V7) != 0)
			{
				fail("value %ld: a fresh v7 value with rand_a's top bit set", n);
				return;
			}
		}
	}
	CHECK(n_new_ms >= 1000 && n_new_ms <= 1001);
	if (n_restart < min_restarts || n_restart > max_restarts)
		fail("%ld restarts, expected %ld to %ld", n_restart, min_restarts, max_restarts);
	CHECK(n_step + n_restart + n_new_ms == 1000000);
}

static void
test_packed_long_sequence(void)
{
	packed_long_sequence(false, 3, 45);
}

static void
test_packed_long_sequence_v7(void)
{
	packed_long_sequence(true, 0, 0);
}

static const function_case packed_functions[] = {
	{"a million values, a thousand a millisecond, against the rules", test_packed_long_sequence},
	{"a million UUIDv7-shaped values, a thousand a millisecond, against the rules", test_packed_long_sequence_v7},
};

/* -------------------------------------------------------- the random pool */

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

static const function_case pool_functions[] = {
	{"one fill serves 1,600 ULIDs, never the same bytes twice", test_pool_batches},
	{"a forked process refills before taking", test_pool_fork},
	{"a failing source takes nothing, then recovers", test_pool_fill_failure},
};


/* ------------------------------------------ the 32-bit abbreviated key */

/*
 * Sorted values whose times cluster around a base (many in one millisecond,
 * many within the exact region, some across each step of the coarse one)
 * and spread to both ends of the 48 bits: the keys never decrease, and equal
 * values get equal keys.  A base at each end and in the middle.
 */
static void
test_abbrev32_monotone(void)
{
	static uint8_t many[30000][ULID_LEN];
	uint64_t	bases[] = {0, 1469918176385ULL, ULID_TIME_MAX, (uint64_t) 1 << 20};

	for (size_t b = 0; b < lengthof(bases); b++)
	{
		prng_seed(0xABB4ULL + b);
		for (int i = 0; i < 30000; i++)
		{
			uint64_t	r = prng_next();
			int64_t		d;
			uint64_t	t;

			prng_fill(many[i], ULID_LEN);
			switch (i % 5)
			{
				case 0:
					d = (int64_t) (r % 3) - 1;	/* the base's millisecond and its neighbours */
					break;
				case 1:
					d = (int64_t) (r % (1 << 22)) - (1 << 21);	/* around the exact region's edge */
					break;
				case 2:
					d = (int64_t) (r >> (r % 64));	/* every scale */
					break;
				case 3:
					d = -(int64_t) (r >> (r % 64));
					break;
				default:
					d = 0;
					if (i % 10 == 4)
						memcpy(many[i], many[i - 1], ULID_LEN);	/* duplicates */
					break;
			}
			if (i % 10 == 4)
				continue;
			t = (d < 0 && (uint64_t) -d > bases[b]) ? 0 :
				(d > 0 && (uint64_t) d > ULID_TIME_MAX - bases[b]) ? ULID_TIME_MAX :
				(uint64_t) ((int64_t) bases[b] + d);
			ulid_set_time(many[i], t);
		}
		qsort(many, 30000, ULID_LEN, cmp_ulid);
		for (int i = 1; i < 30000; i++)
		{
			uint32_t	k0 = ulid_abbrev32(many[i - 1], bases[b]);
			uint32_t	k1 = ulid_abbrev32(many[i], bases[b]);

			CHECK_AT(k0 <= k1, i);
			if (memcmp(many[i - 1], many[i], ULID_LEN) == 0)
				CHECK_AT(k0 == k1, i);
		}
	}
}

/*
 * Within 17.5 minutes of the base, every millisecond and the next 10 bits
 * tell keys apart; beyond, a step of 2^e ms at 2^(20+e) ms away.
 */
static void
test_abbrev32_resolution(void)
{
	uint8_t		a[ULID_LEN] = {0};
	uint8_t		b[ULID_LEN] = {0};
	uint64_t	base = 1469918176385ULL;

	/* the same millisecond, random bits apart: keys apart, both sides */
	ulid_set_time(a, base + 5);
	ulid_set_time(b, base + 5);
	b[ULID_TIME_BYTES + 1] = 0x40;	/* the 10th bit after the time */
	CHECK(ulid_abbrev32(a, base) < ulid_abbrev32(b, base));
	ulid_set_time(a, base - 5);
	ulid_set_time(b, base - 5);
	CHECK(ulid_abbrev32(a, base) < ulid_abbrev32(b, base));
	/* a millisecond apart at the exact region's edge */
	ulid_set_time(a, base + (1 << 20) - 2);
	ulid_set_time(b, base + (1 << 20) - 1);
	CHECK(ulid_abbrev32(a, base) < ulid_abbrev32(b, base));
	/* one step of 2 ms just past it, and a millisecond within a step ties */
	ulid_set_time(a, base + (1 << 20));
	ulid_set_time(b, base + (1 << 20) + 1);
	CHECK(ulid_abbrev32(a, base) == ulid_abbrev32(b, base));
	ulid_set_time(b, base + (1 << 20) + 2);
	CHECK(ulid_abbrev32(a, base) < ulid_abbrev32(b, base));
	/* a year away (2^35 ms): a step of 2^16 ms (66 s) */
	ulid_set_time(a, base + ((uint64_t) 1 << 35));
	ulid_set_time(b, base + ((uint64_t) 1 << 35) + (1 << 16));
	CHECK(ulid_abbrev32(a, base) < ulid_abbrev32(b, base));
	/* the extremes, either side of a base at either end */
	ulid_set_time(a, 0);
	ulid_set_time(b, ULID_TIME_MAX);
	CHECK(ulid_abbrev32(a, 0) < ulid_abbrev32(b, 0));
	CHECK(ulid_abbrev32(a, ULID_TIME_MAX) < ulid_abbrev32(b, ULID_TIME_MAX));
}

static const function_case abbrev_functions[] = {
	{"30,000 sorted values, four bases: keys never decrease, equal values equal keys", test_abbrev32_monotone},
	{"every millisecond near the base, a coarser step far from it", test_abbrev32_resolution},
};

/* ------------------------------------------------------------- ObjectId */

/* One ULID and whether it is an ObjectId's, and why not. */
typedef struct objectid_shape_case
{
	const char *name;
	uint64_t	ms;
	uint8_t		tail[2];		/* bytes 14 and 15 */
	UlidObjectIdShape shape;
} objectid_shape_case;

static const objectid_shape_case objectid_shape_cases[] = {
	{"the epoch", 0, {0, 0}, ULID_OBJECTID_OK},
	{"2012-10-17 21:13:27 UTC", UINT64_C(1350508407) * 1000, {0, 0}, ULID_OBJECTID_OK},
	{"the last second an ObjectId holds", ULID_OBJECTID_SECS_MAX * 1000, {0, 0}, ULID_OBJECTID_OK},
	{"a millisecond past a whole second", UINT64_C(1350508407) * 1000 + 1, {0, 0}, ULID_OBJECTID_FRACTION},
	{"a millisecond before the epoch's next second", 999, {0, 0}, ULID_OBJECTID_FRACTION},
	{"one second past the last", (ULID_OBJECTID_SECS_MAX + 1) * 1000, {0, 0}, ULID_OBJECTID_TOO_LATE},
	{"the last ulid time: a fraction, said first", ULID_TIME_MAX, {0, 0}, ULID_OBJECTID_FRACTION},
	{"byte 15 set", 0, {0, 1}, ULID_OBJECTID_TAIL},
	{"byte 14 set", 0, {0x80, 0}, ULID_OBJECTID_TAIL},
	{"a fraction and a tail: the fraction is said", 1, {1, 1}, ULID_OBJECTID_FRACTION},
};

static void
check_objectid_shape(const objectid_shape_case *c)
{
	uint8_t		u[ULID_LEN] = {0};

	ulid_set_time(u, c->ms);
	u[6] = 0xFF;				/* the ObjectId's bytes may be anything */
	u[13] = 0xFF;
	u[14] = c->tail[0];
	u[15] = c->tail[1];
	if (ulid_objectid_shape(u) != c->shape)
		fail("shape %d, want %d", (int) ulid_objectid_shape(u), (int) c->shape);
}

/* The example of MongoDB's docs, both ways, and its digits. */
static void
test_objectid_example(void)
{
	static const uint8_t oid[ULID_OBJECTID_LEN] = {
		0x50, 0x7f, 0x1f, 0x77, 0xbc, 0xf8, 0x6c, 0xd7, 0x99, 0x43, 0x90, 0x11
	};
	uint8_t		parsed[ULID_OBJECTID_LEN];
	uint8_t		u[ULID_LEN];
	uint8_t		back[ULID_OBJECTID_LEN];
	char		text[ULID_OBJECTID_HEX_LEN + 1];

	CHECK(ulid_objectid_parse_hex("507f1f77bcf86cd799439011", parsed) == -1);
	CHECK_BYTES("parsed", parsed, oid, ULID_OBJECTID_LEN);
	CHECK(ulid_objectid_parse_hex("507F1F77BCF86CD799439011", parsed) == -1);
	CHECK_BYTES("parsed upper case", parsed, oid, ULID_OBJECTID_LEN);
	ulid_from_objectid_bytes(oid, u);
	CHECK(ulid_get_time(u) == UINT64_C(1350508407000));
	CHECK(memcmp(u + ULID_TIME_BYTES, oid + 4, 8) == 0);
	CHECK(u[14] == 0 && u[15] == 0);
	CHECK(ulid_objectid_shape(u) == ULID_OBJECTID_OK);
	ulid_to_objectid_bytes(u, back);
	CHECK_BYTES("back", back, oid, ULID_OBJECTID_LEN);
	ulid_objectid_format_hex(back, text);
	CHECK(strcmp(text, "507f1f77bcf86cd799439011") == 0);
}

/* The offset of the first byte that is not a hexadecimal digit. */
static void
test_objectid_bad_digits(void)
{
	static const char good[] = "507f1f77bcf86cd799439011";
	static const char bad[] = "gG/:@`{ -x";
	uint8_t		oid[ULID_OBJECTID_LEN];
	char		s[ULID_OBJECTID_HEX_LEN + 1];

	for (int pos = 0; pos < ULID_OBJECTID_HEX_LEN; pos++)
		for (size_t b = 0; b < strlen(bad); b++)
		{
			memcpy(s, good, sizeof(s));
			s[pos] = bad[b];
			CHECK_AT(ulid_objectid_parse_hex(s, oid) == pos, pos);
		}
	for (int c = 0; c < 256; c++)
		CHECK_AT((ulid_hex_value((unsigned char) c) >= 0) ==
				 (strchr("0123456789abcdefABCDEF", c) != NULL && c != 0), c);
}

static int
cmp_objectid(const void *x, const void *y)
{
	return memcmp(x, y, ULID_OBJECTID_LEN);
}

/*
 * 200,000 random ObjectIds, a tenth of them in one second: each round trips
 * through its ULID and its digits, and ULIDs sort as the ObjectIds' bytes.
 */
static void
test_objectid_random(void)
{
	static uint8_t oids[200000][ULID_OBJECTID_LEN];
	uint8_t		u[ULID_LEN];
	uint8_t		prev[ULID_LEN];
	uint8_t		back[ULID_OBJECTID_LEN];
	char		text[ULID_OBJECTID_HEX_LEN + 1];

	prng_seed(0xF00DFACE12345678ULL);
	for (long n = 0; n < 200000; n++)
	{
		prng_fill(oids[n], ULID_OBJECTID_LEN);
		if (n % 10 == 0)
			memcpy(oids[n], "\x50\x7f\x1f\x77", 4);
	}
	qsort(oids, 200000, ULID_OBJECTID_LEN, cmp_objectid);
	for (long n = 0; n < 200000; n++)
	{
		ulid_from_objectid_bytes(oids[n], u);
		CHECK_AT(ulid_objectid_shape(u) == ULID_OBJECTID_OK, n);
		ulid_to_objectid_bytes(u, back);
		CHECK_AT(memcmp(back, oids[n], ULID_OBJECTID_LEN) == 0, n);
		ulid_objectid_format_hex(back, text);
		CHECK_AT(strlen(text) == ULID_OBJECTID_HEX_LEN, n);
		CHECK_AT(ulid_objectid_parse_hex(text, back) == -1, n);
		CHECK_AT(memcmp(back, oids[n], ULID_OBJECTID_LEN) == 0, n);
		if (n > 0)
		{
			int			o = memcmp(oids[n - 1], oids[n], ULID_OBJECTID_LEN);
			int			m = memcmp(prev, u, ULID_LEN);

			CHECK_AT((o < 0) == (m < 0) && (o == 0) == (m == 0), n);
		}
		memcpy(prev, u, ULID_LEN);
	}
}

static const function_case objectid_functions[] = {
	{"507f1f77bcf86cd799439011 both ways, either case", test_objectid_example},
	{"every bad digit at every position is found", test_objectid_bad_digits},
	{"200,000 random ObjectIds round trip and keep their order", test_objectid_random},
};

/* ----------------------------------------------------------------- driver */

int
main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);	/* every line out before a crash */

	RUN_TABLE("encode", encode_cases, check_encode);
	RUN_TABLE("decode", decode_cases, check_decode);
	RUN_TABLE("substitute", substitute_cases, check_substitute);
	RUN_TABLE("sort order", order_cases, check_order);
	RUN_TABLE("codec", codec_functions, check_function);
	RUN_TABLE("uuid decode", uuid_decode_cases, check_uuid_decode);
	RUN_TABLE("uuid spelling", uuid_spelling_cases, check_uuid_spelling);
	RUN_TABLE("uuid text", uuid_functions, check_function);
	RUN_TABLE("time", time_cases, check_time);
	RUN_TABLE("distance", distance_cases, check_distance);
	RUN_TABLE("layout", layout_functions, check_function);
	RUN_TABLE("step", step_cases, check_step);
	RUN_TABLE("step", step_functions, check_function);
	RUN_TABLE("step v7", step_v7_cases, check_step_v7);
	RUN_TABLE("step v7", step_v7_functions, check_function);
	RUN_TABLE("packed step", packed_cases, check_packed);
	RUN_TABLE("packed step", packed_functions, check_function);
	RUN_TABLE("pool", pool_functions, check_function);
	RUN_TABLE("abbreviated key, 32 bits", abbrev_functions, check_function);
	RUN_TABLE("objectid shape", objectid_shape_cases, check_objectid_shape);
	RUN_TABLE("objectid", objectid_functions, check_function);

	printf("1..%d\n", checks_run);
	return checks_failed > 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
