/*
 * ulid_objectid.c
 *		MongoDB ObjectIds in and out: ulid_from_objectid(text),
 *		ulid_from_objectid(bytea) and ulid_to_objectid(ulid).
 *
 * The mapping is ulid_objectid.h's: the ObjectId's seconds become the
 * ULID's milliseconds, its last 8 bytes follow, then two zero bytes.  It
 * keeps byte order, so keys converted from ObjectIds sort as they did.
 */
#include "postgres.h"

#if PG_VERSION_NUM >= 160000
#include "varatt.h"
#endif
#include "mb/pg_wchar.h"
#include "utils/builtins.h"

#include "ulid.h"
#include "ulid_base32.h"
#include "ulid_objectid.h"

/* The ULID of 12 bytes of ObjectId, palloc'd. */
static Ulid *
ulid_of_objectid(const uint8 *oid)
{
	Ulid	   *result = palloc(sizeof(Ulid));

	ulid_from_objectid_bytes(oid, result->data);
	return result;
}

/*
 * From the 24 hexadecimal digits, either case, and nothing else: no
 * braces, spaces or ObjectId("...") around them.  Judged as the type's own
 * input is: the wrapper, then the length in characters, then the first
 * character that is not a digit.
 */
PG_FUNCTION_INFO_V1(ulid_from_objectid_text);
Datum
ulid_from_objectid_text(PG_FUNCTION_ARGS)
{
	text	   *t = PG_GETARG_TEXT_PP(0);
	const char *s = VARDATA_ANY(t);
	int			len = VARSIZE_ANY_EXHDR(t);
	uint8		oid[ULID_OBJECTID_LEN];
	int			nchars;
	int			bad;

	if (len == ULID_OBJECTID_HEX_LEN && (bad = ulid_objectid_parse_hex(s, oid)) < 0)
		PG_RETURN_ULID_P(ulid_of_objectid(oid));

	if (len >= 9 && strncmp(s, "ObjectId(", 9) == 0)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				errmsg("invalid input syntax for an ObjectId: \"%s\"", text_to_cstring(t)),
				errdetail("An ObjectId is read as its 24 hexadecimal digits alone, without ObjectId(...) around them."));
	nchars = pg_mbstrlen_with_len(s, len);
	if (nchars != ULID_OBJECTID_HEX_LEN)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				errmsg("invalid input syntax for an ObjectId: \"%s\"", text_to_cstring(t)),
				errdetail("Expected %d hexadecimal digits, got %d characters.",
						  ULID_OBJECTID_HEX_LEN, nchars));

	/*
	 * 24 characters, but more bytes, or 24 bytes with a bad one: find the
	 * first character that is not a digit.
	 */
	for (const char *p = s; p < s + len; p += pg_mblen(p))
	{
		if (ulid_hex_value((unsigned char) *p) < 0)
			ereport(ERROR,
					errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					errmsg("invalid input syntax for an ObjectId: \"%s\"", text_to_cstring(t)),
					errdetail("Character \"%.*s\" at position %d is not a hexadecimal digit.",
							  pg_mblen(p), p, pg_mbstrlen_with_len(s, p - s) + 1));
	}
	pg_unreachable();
}

/* From the 12 bytes, as BSON stores an ObjectId. */
PG_FUNCTION_INFO_V1(ulid_from_objectid_bytea);
Datum
ulid_from_objectid_bytea(PG_FUNCTION_ARGS)
{
	bytea	   *b = PG_GETARG_BYTEA_PP(0);

	if (VARSIZE_ANY_EXHDR(b) != ULID_OBJECTID_LEN)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				errmsg("invalid length for an ObjectId"),
				errdetail("Expected %d bytes, got %d.",
						  ULID_OBJECTID_LEN, (int) VARSIZE_ANY_EXHDR(b)));
	PG_RETURN_ULID_P(ulid_of_objectid((const uint8 *) VARDATA_ANY(b)));
}

/*
 * The ObjectId's 24 lower-case digits back, for a ULID that is the image of
 * one; an error that says why for any other.
 */
PG_FUNCTION_INFO_V1(ulid_to_objectid);
Datum
ulid_to_objectid(PG_FUNCTION_ARGS)
{
	Ulid	   *u = PG_GETARG_ULID_P(0);
	UlidObjectIdShape shape = ulid_objectid_shape(u->data);
	uint8		oid[ULID_OBJECTID_LEN];
	char		digits[ULID_OBJECTID_HEX_LEN + 1];

	if (shape != ULID_OBJECTID_OK)
	{
		char		utext[ULID_TEXT_LEN + 1];

		ulid_base32_encode(u->data, utext);
		utext[ULID_TEXT_LEN] = '\0';
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("ulid \"%s\" does not hold an ObjectId", utext),
				shape == ULID_OBJECTID_FRACTION ?
				errdetail("Its time has a fraction of a second (%d ms): an ObjectId holds whole seconds.",
						  (int) (ulid_get_time(u->data) % 1000)) :
				shape == ULID_OBJECTID_TOO_LATE ?
				errdetail("Its time is after 2106-02-07 06:28:15 UTC, the last an ObjectId can hold.") :
				errdetail("Its last two bytes are not zero."));
	}
	ulid_to_objectid_bytes(u->data, oid);
	ulid_objectid_format_hex(oid, digits);
	PG_RETURN_TEXT_P(cstring_to_text(digits));
}
