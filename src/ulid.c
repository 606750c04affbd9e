/*
 * ulid.c
 *		The ulid type: text and binary I/O, casts, comparison, sort support,
 *		hashing, BRIN support, the range type's subtype_diff and the
 *		aggregates.  A 16-byte ULID stored as its 128-bit big-endian value.
 *
 * Modelled on PostgreSQL's src/backend/utils/adt/uuid.c.  The other concerns
 * have files of their own (CONTRIBUTING.md maps them); what they share is in
 * ulid.h.
 */
#include "postgres.h"

/* First, so that it is the first error a too old server's headers give. */
#if PG_VERSION_NUM < 150000
#error "ulid supports PostgreSQL 15 and later"
#endif

/* Some of these reach headers with unused parameters under -Wextra on 15. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "common/hashfn.h"
#include "lib/hyperloglog.h"
#include "libpq/pqformat.h"
#include "mb/pg_wchar.h"
#include "port/pg_bswap.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/sortsupport.h"
#include "utils/timestamp.h"
#pragma GCC diagnostic pop

#include "ulid.h"
#include "ulid_abbrev.h"
#include "ulid_base32.h"
#include "ulid_uuidtext.h"

#ifdef PG_MODULE_MAGIC_EXT
PG_MODULE_MAGIC_EXT(.name = "ulid",.version = ULID_VERSION);
#else
PG_MODULE_MAGIC;
#endif

#if PG_VERSION_NUM < 160000
/* Before PostgreSQL 16 there are no soft errors: every input error throws. */
#define errsave(context, ...) \
	do { (void) (context); ereport(ERROR, __VA_ARGS__); } while (0)
#endif

/*****************************************************************************
 *	Text I/O
 *****************************************************************************/

/*
 * The character at p (len bytes), for an error detail: quoted as written,
 * or, in a SQL_ASCII database, by its value if it is a byte above 127.
 * SQL_ASCII declares no encoding: core counts each byte as a character
 * (length(), substr() and pg_mblen() agree) and leaves bytes above 127
 * uninterpreted, so such a byte is one character, but one that cannot be
 * shown: quoted alone, it may be the half of a UTF-8 character the client
 * sent.  Every other server encoding defines its characters, and the server
 * has checked that the input is valid in it.
 */
static char *
describe_char(const char *p, int len)
{
	if (GetDatabaseEncoding() == PG_SQL_ASCII && IS_HIGHBIT_SET(*p))
		return psprintf("Byte 0x%02X", (unsigned char) *p);
	return psprintf("Character \"%.*s\"", len, p);
}

/*
 * Report why str is neither a ULID nor a UUID in its canonical form, as a
 * soft error where the caller allows it.  Runs only on failure, so it may
 * walk the string again to count its characters, as the database encoding
 * defines them (see describe_char()), and find the first bad one; the
 * bounded length never steps past the terminator.  26 characters are judged
 * as a ULID, in the order a reader would check: characters, then range.  A
 * UUID written another way is shown in the form to write, or its count of
 * digits is; other strings of 36 characters are judged as a canonical UUID;
 * any other length is reported as such.
 */
static void
report_bad_text(const char *str, Node *escontext)
{
	int			encoding = GetDatabaseEncoding();
	size_t		len = strlen(str);
	const char *end = str + len;
	const char *bad_ulid = NULL;	/* first non-Base32 character */
	const char *bad_uuid = NULL;	/* first misplaced one for a UUID */
	int			bad_ulid_pos = 0;
	int			bad_uuid_pos = 0;
	int			nchars = 0;
	bool		high_bytes = false;
	char		canonical[ULID_UUID_TEXT_LEN];
	int			digits;

	for (const char *p = str; p < end; p += pg_encoding_mblen_bounded(encoding, p))
	{
		/* a multibyte character's first byte is above 127: never valid */
		unsigned char c = (unsigned char) *p;

		nchars++;
		high_bytes |= IS_HIGHBIT_SET(c);
		if (bad_ulid == NULL && ulid_base32_value[c] < 0)
		{
			bad_ulid = p;
			bad_ulid_pos = nchars;
		}
		if (bad_uuid == NULL && nchars <= ULID_UUID_TEXT_LEN &&
			!ulid_uuid_char_ok(nchars - 1, c))
		{
			bad_uuid = p;
			bad_uuid_pos = nchars;
		}
	}

	if (nchars == ULID_TEXT_LEN && bad_ulid != NULL)
		errsave(escontext,
				errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				errmsg("invalid input syntax for type %s: \"%s\"", "ulid", str),
				errdetail("%s at position %d is not a Crockford Base32 digit.",
						  describe_char(bad_ulid, pg_encoding_mblen_bounded(encoding, bad_ulid)),
						  bad_ulid_pos));
	else if (nchars == ULID_TEXT_LEN)
		errsave(escontext,
				errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				errmsg("invalid input syntax for type %s: \"%s\"", "ulid", str),
				errdetail("The first character is \"%c\", but it must be 0-7: the value does not fit in 128 bits.",
						  str[0]));
	else if ((digits = ulid_uuid_other_spelling(str, len, canonical)) == ULID_UUID_DIGITS)
		errsave(escontext,
				errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				errmsg("invalid input syntax for type %s: \"%s\"", "ulid", str),
				errdetail("A UUID is read only in its canonical 8-4-4-4-12 hyphenated form, here \"%.*s\"; cast other spellings from uuid.",
						  ULID_UUID_TEXT_LEN, canonical));
	else if (digits > 0)
		errsave(escontext,
				errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				errmsg("invalid input syntax for type %s: \"%s\"", "ulid", str),
				errdetail("A UUID has %d hexadecimal digits, got %d.",
						  ULID_UUID_DIGITS, digits));
	else if (nchars == ULID_UUID_TEXT_LEN && bad_uuid != NULL &&
			 ulid_uuid_hyphen_at(bad_uuid_pos - 1))
		errsave(escontext,
				errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				errmsg("invalid input syntax for type %s: \"%s\"", "ulid", str),
				errdetail("%s at position %d is not a hyphen: a UUID is written in the 8-4-4-4-12 hyphenated form.",
						  describe_char(bad_uuid, pg_encoding_mblen_bounded(encoding, bad_uuid)),
						  bad_uuid_pos));
	else if (nchars == ULID_UUID_TEXT_LEN && bad_uuid != NULL)
		errsave(escontext,
				errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				errmsg("invalid input syntax for type %s: \"%s\"", "ulid", str),
				errdetail("%s at position %d is not a hexadecimal digit: a UUID is written in the 8-4-4-4-12 hyphenated form.",
						  describe_char(bad_uuid, pg_encoding_mblen_bounded(encoding, bad_uuid)),
						  bad_uuid_pos));
	else if (encoding == PG_SQL_ASCII && high_bytes)
		errsave(escontext,
				errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				errmsg("invalid input syntax for type %s: \"%s\"", "ulid", str),
				errdetail("Expected %d characters, got %d; in a SQL_ASCII database every byte is a character.",
						  ULID_TEXT_LEN, nchars));
	else
		errsave(escontext,
				errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				errmsg("invalid input syntax for type %s: \"%s\"", "ulid", str),
				errdetail("Expected %d characters, got %d.", ULID_TEXT_LEN, nchars));
}

/*
 * Text input: 26 Crockford Base32 characters, case-insensitive, or a UUID in
 * its canonical hyphenated form, any case (the bytes of the uuid cast).
 */
PG_FUNCTION_INFO_V1(ulid_in);
Datum
ulid_in(PG_FUNCTION_ARGS)
{
	char	   *str = PG_GETARG_CSTRING(0);
	size_t		len = strlen(str);
	Ulid	   *result = palloc(sizeof(Ulid));

	if (ulid_base32_decode(str, len, result->data) != ULID_DECODE_OK &&
		!ulid_uuid_decode(str, len, result->data))
	{
		report_bad_text(str, fcinfo->context);
		PG_RETURN_NULL();
	}
	PG_RETURN_ULID_P(result);
}

/* Text output: the 26 canonical upper-case characters. */
PG_FUNCTION_INFO_V1(ulid_out);
Datum
ulid_out(PG_FUNCTION_ARGS)
{
	Ulid	   *u = PG_GETARG_ULID_P(0);
	char	   *result = palloc(ULID_TEXT_LEN + 1);

	ulid_base32_encode(u->data, result);
	result[ULID_TEXT_LEN] = '\0';
	PG_RETURN_CSTRING(result);
}

/*****************************************************************************
 *	Binary I/O
 *****************************************************************************/

/* Raise an error unless a binary ulid value is exactly ULID_LEN bytes. */
static void
check_binary_length(int len)
{
	if (len != ULID_LEN)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				errmsg("invalid length in external \"ulid\" value"),
				errdetail("Expected %d bytes, got %d.", ULID_LEN, len));
}

/* Binary input: exactly the 16 bytes. */
PG_FUNCTION_INFO_V1(ulid_recv);
Datum
ulid_recv(PG_FUNCTION_ARGS)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);
	Ulid	   *result = palloc(sizeof(Ulid));

	check_binary_length(buf->len - buf->cursor);
	memcpy(result->data, pq_getmsgbytes(buf, ULID_LEN), ULID_LEN);
	PG_RETURN_ULID_P(result);
}

/* Binary output: the 16 bytes; also the ulid-to-bytea cast. */
PG_FUNCTION_INFO_V1(ulid_send);
Datum
ulid_send(PG_FUNCTION_ARGS)
{
	Ulid	   *u = PG_GETARG_ULID_P(0);
	StringInfoData buf;

	pq_begintypsend(&buf);
	pq_sendbytes(&buf, (char *) u->data, ULID_LEN);
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

/*****************************************************************************
 *	Casts
 *
 *	bytea: the 16 bytes.  timestamptz: the embedded millisecond, and the
 *	smallest ulid of a millisecond.
 *****************************************************************************/

/* The bytea-to-ulid cast: the 16 bytes as they are. */
PG_FUNCTION_INFO_V1(ulid_from_bytea);
Datum
ulid_from_bytea(PG_FUNCTION_ARGS)
{
	bytea	   *b = PG_GETARG_BYTEA_PP(0);
	Ulid	   *result = palloc(sizeof(Ulid));

	check_binary_length(VARSIZE_ANY_EXHDR(b));
	memcpy(result->data, VARDATA_ANY(b), ULID_LEN);
	PG_RETURN_ULID_P(result);
}

/*
 * The ULID millisecond of ts, floored; an error outside what 48 bits hold
 * (1970-01-01 to 10889-08-02 05:31:50.655 UTC) and for infinity.
 */
uint64
timestamptz_to_ulid_ms(TimestampTz ts)
{
	if (TIMESTAMP_NOT_FINITE(ts) ||
		ts < -UNIX_TO_PG_EPOCH_USECS ||
		ts >= (int64) (ULID_TIME_MAX + 1) * 1000 - UNIX_TO_PG_EPOCH_USECS)
		ereport(ERROR,
				errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				errmsg("timestamp out of range for type ulid"),
				errdetail("A ulid holds times from 1970-01-01 00:00:00 UTC to 10889-08-02 05:31:50.655 UTC."));
	return (uint64) (ts + UNIX_TO_PG_EPOCH_USECS) / 1000;
}

/* The time a ULID carries, as timestamptz.  Cannot fail: 48 bits of ms fit. */
PG_FUNCTION_INFO_V1(ulid_time);
Datum
ulid_time(PG_FUNCTION_ARGS)
{
	Ulid	   *u = PG_GETARG_ULID_P(0);

	PG_RETURN_TIMESTAMPTZ((TimestampTz) ulid_get_time(u->data) * 1000 -
						  UNIX_TO_PG_EPOCH_USECS);
}

/*
 * The smallest or the largest ULID of ts's millisecond: the time, then 80
 * zero bits or 80 one bits.
 */
static Ulid *
ulid_bound_of_ms(TimestampTz ts, uint8 random_fill)
{
	Ulid	   *result = palloc(sizeof(Ulid));

	ulid_set_time(result->data, timestamptz_to_ulid_ms(ts));
	memset(result->data + ULID_TIME_BYTES, random_fill, ULID_RANDOM_BYTES);
	return result;
}

/* The timestamptz-to-ulid cast: the smallest ULID of ts's millisecond. */
PG_FUNCTION_INFO_V1(ulid_from_time);
Datum
ulid_from_time(PG_FUNCTION_ARGS)
{
	PG_RETURN_ULID_P(ulid_bound_of_ms(PG_GETARG_TIMESTAMPTZ(0), 0x00));
}

/* The smallest ULID of ts's millisecond, the inclusive lower bound. */
PG_FUNCTION_INFO_V1(ulid_min_at);
Datum
ulid_min_at(PG_FUNCTION_ARGS)
{
	PG_RETURN_ULID_P(ulid_bound_of_ms(PG_GETARG_TIMESTAMPTZ(0), 0x00));
}

/* The largest ULID of ts's millisecond, the inclusive upper bound. */
PG_FUNCTION_INFO_V1(ulid_max_at);
Datum
ulid_max_at(PG_FUNCTION_ARGS)
{
	PG_RETURN_ULID_P(ulid_bound_of_ms(PG_GETARG_TIMESTAMPTZ(0), 0xFF));
}

/*****************************************************************************
 *	Comparison
 *****************************************************************************/

PG_FUNCTION_INFO_V1(ulid_lt);
Datum
ulid_lt(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(ulid_internal_cmp(PG_GETARG_ULID_P(0), PG_GETARG_ULID_P(1)) < 0);
}

PG_FUNCTION_INFO_V1(ulid_le);
Datum
ulid_le(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(ulid_internal_cmp(PG_GETARG_ULID_P(0), PG_GETARG_ULID_P(1)) <= 0);
}

PG_FUNCTION_INFO_V1(ulid_eq);
Datum
ulid_eq(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(ulid_internal_cmp(PG_GETARG_ULID_P(0), PG_GETARG_ULID_P(1)) == 0);
}

PG_FUNCTION_INFO_V1(ulid_ne);
Datum
ulid_ne(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(ulid_internal_cmp(PG_GETARG_ULID_P(0), PG_GETARG_ULID_P(1)) != 0);
}

PG_FUNCTION_INFO_V1(ulid_ge);
Datum
ulid_ge(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(ulid_internal_cmp(PG_GETARG_ULID_P(0), PG_GETARG_ULID_P(1)) >= 0);
}

PG_FUNCTION_INFO_V1(ulid_gt);
Datum
ulid_gt(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(ulid_internal_cmp(PG_GETARG_ULID_P(0), PG_GETARG_ULID_P(1)) > 0);
}

/* btree support function 1. */
PG_FUNCTION_INFO_V1(ulid_cmp);
Datum
ulid_cmp(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(ulid_internal_cmp(PG_GETARG_ULID_P(0), PG_GETARG_ULID_P(1)));
}

/*****************************************************************************
 *	Sort support
 *****************************************************************************/

/*
 * Sort support.  The abbreviated key is the first 8 bytes (the 48-bit time
 * and 16 random bits) as an unsigned integer, so most comparisons in a sort
 * are integer comparisons on the Datum itself and never touch the 16 bytes.
 * Where a Datum has 32 bits (wasm32, PGlite; 32-bit servers before 19), it
 * is the time relative to the sort's first value instead (ulid_abbrev.h):
 * the first 4 bytes would change once a minute.
 */
typedef struct UlidSortState
{
	int64		input_count;	/* values abbreviated so far */
	bool		estimating;		/* still counting distinct abbreviations? */
	hyperLogLogState distinct;	/* distinct abbreviated keys seen */
	bool		have_base;		/* 32-bit keys: base_ms is set */
	uint64		base_ms;		/* 32-bit keys: the first value's time */
} UlidSortState;

/* The full comparison, for sorts without abbreviation and for ties. */
static int
ulid_fast_cmp(Datum x, Datum y, SortSupport ssup)
{
	(void) ssup;
	return ulid_internal_cmp(DatumGetUlidP(x), DatumGetUlidP(y));
}

/* The abbreviated key: the first 8 bytes, big-endian, or ulid_abbrev32(). */
static Datum
ulid_abbrev_convert(Datum original, SortSupport ssup)
{
	UlidSortState *state = (UlidSortState *) ssup->ssup_extra;
	const uint8 *u = DatumGetUlidP(original)->data;
	Datum		key;

	if (sizeof(Datum) >= sizeof(uint64))
	{
		uint64		prefix;

		memcpy(&prefix, u, sizeof(prefix));
		key = (Datum) pg_ntoh64(prefix);
	}
	else
	{
		if (!state->have_base)
		{
			state->base_ms = ulid_get_time(u);
			state->have_base = true;
		}
		key = (Datum) ulid_abbrev32(u, state->base_ms);
	}

	state->input_count++;
	if (state->estimating)
	{
		uint64		k = (uint64) key;

		addHyperLogLog(&state->distinct,
					   DatumGetUInt32(hash_uint32((uint32) (k ^ (k >> 32)))));
	}
	return key;
}

/*
 * Give up on abbreviation when the keys are too alike to pay for themselves:
 * many copies of few values (a foreign key to a handful of parents).  After
 * 10,000 inputs, abort if there is less than one distinct abbreviation per
 * 2,000 inputs; once 100,000 distinct abbreviations are seen, abbreviation
 * has won and counting stops.  Ids generated apart in time are always
 * distinct here: the time alone differs.
 */
static bool
ulid_abbrev_abort(int memtupcount, SortSupport ssup)
{
	UlidSortState *state = (UlidSortState *) ssup->ssup_extra;
	double		distinct;

	if (memtupcount < 10000 || state->input_count < 10000 || !state->estimating)
		return false;

	distinct = estimateHyperLogLog(&state->distinct);
	if (distinct > 100000.0)
	{
		state->estimating = false;
		return false;
	}
	if (distinct < state->input_count / 2000.0 + 0.5)
	{
		if (trace_sort)
			elog(LOG, "ulid_abbrev: aborting abbreviation at %.0f distinct keys after " INT64_FORMAT " values (%d rows)",
				 distinct, state->input_count, memtupcount);
		return true;
	}
	return false;
}

/* btree support function 2. */
PG_FUNCTION_INFO_V1(ulid_sortsupport);
Datum
ulid_sortsupport(PG_FUNCTION_ARGS)
{
	SortSupport ssup = (SortSupport) PG_GETARG_POINTER(0);

	ssup->comparator = ulid_fast_cmp;
	ssup->ssup_extra = NULL;

	if (ssup->abbreviate)
	{
		UlidSortState *state;
		MemoryContext oldcontext = MemoryContextSwitchTo(ssup->ssup_cxt);

		state = palloc(sizeof(UlidSortState));
		state->input_count = 0;
		state->estimating = true;
		state->have_base = false;
		state->base_ms = 0;
		initHyperLogLog(&state->distinct, 10);
		MemoryContextSwitchTo(oldcontext);

		ssup->ssup_extra = state;
#ifdef __PGLITE__
		ssup->comparator = ulid_pglite_unsigned_cmp();
#else
		ssup->comparator = ssup_datum_unsigned_cmp;
#endif
		ssup->abbrev_converter = ulid_abbrev_convert;
		ssup->abbrev_abort = ulid_abbrev_abort;
		ssup->abbrev_full_comparator = ulid_fast_cmp;
	}
	PG_RETURN_VOID();
}

/*****************************************************************************
 *	Hashing
 *****************************************************************************/

/* hash support function 1: the same hash as uuid's for the same bytes. */
PG_FUNCTION_INFO_V1(ulid_hash);
Datum
ulid_hash(PG_FUNCTION_ARGS)
{
	return hash_any(PG_GETARG_ULID_P(0)->data, ULID_LEN);
}

/* hash support function 2: seeded 64-bit hash (hash partitioning). */
PG_FUNCTION_INFO_V1(ulid_hash_extended);
Datum
ulid_hash_extended(PG_FUNCTION_ARGS)
{
	return hash_any_extended(PG_GETARG_ULID_P(0)->data, ULID_LEN,
							 PG_GETARG_INT64(1));
}

/*****************************************************************************
 *	BRIN support
 *****************************************************************************/

/* BRIN minmax-multi support: how far apart two ULIDs are (ulid_distance()). */
PG_FUNCTION_INFO_V1(ulid_brin_distance);
Datum
ulid_brin_distance(PG_FUNCTION_ARGS)
{
	PG_RETURN_FLOAT8(ulid_distance(PG_GETARG_ULID_P(0)->data,
								   PG_GETARG_ULID_P(1)->data));
}

/*****************************************************************************
 *	Range type
 *****************************************************************************/

/*
 * subtype_diff of ulidrange: a - b as a double, negative when a < b, for GiST
 * penalties and range selectivity.  ulid_distance() measures upwards only, so
 * the order decides which way it is taken and the sign.
 */
PG_FUNCTION_INFO_V1(ulidrange_subdiff);
Datum
ulidrange_subdiff(PG_FUNCTION_ARGS)
{
	Ulid	   *a = PG_GETARG_ULID_P(0);
	Ulid	   *b = PG_GETARG_ULID_P(1);

	if (ulid_internal_cmp(a, b) >= 0)
		PG_RETURN_FLOAT8(ulid_distance(b->data, a->data));
	PG_RETURN_FLOAT8(-ulid_distance(a->data, b->data));
}

/*****************************************************************************
 *	Aggregates
 *****************************************************************************/

/* The smaller of two ULIDs, for min(ulid). */
PG_FUNCTION_INFO_V1(ulid_smaller);
Datum
ulid_smaller(PG_FUNCTION_ARGS)
{
	Ulid	   *a = PG_GETARG_ULID_P(0);
	Ulid	   *b = PG_GETARG_ULID_P(1);

	PG_RETURN_ULID_P(ulid_internal_cmp(a, b) <= 0 ? a : b);
}

/* The larger of two ULIDs, for max(ulid). */
PG_FUNCTION_INFO_V1(ulid_larger);
Datum
ulid_larger(PG_FUNCTION_ARGS)
{
	Ulid	   *a = PG_GETARG_ULID_P(0);
	Ulid	   *b = PG_GETARG_ULID_P(1);

	PG_RETURN_ULID_P(ulid_internal_cmp(a, b) >= 0 ? a : b);
}
