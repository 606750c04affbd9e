/*
 * ulid.c
 *		The ulid type: a 16-byte ULID stored as its 128-bit big-endian value.
 *
 * Modelled on PostgreSQL's src/backend/utils/adt/uuid.c.  The sections follow
 * the order of the SQL script: text I/O, binary I/O, casts, comparison,
 * comparison with uuid, comparison with a time, sort support, hashing, BRIN
 * support, GIN support, GiST support, the range type, aggregates,
 * generators, converting uuid columns.  The logic that needs no server lives
 * in headers the unit tests and the fuzzer include alone: the byte layout
 * and the value as a number (ulid_layout.h), the Base32 codec
 * (ulid_base32.h), the UUID text form on input (ulid_uuidtext.h), the
 * monotonic step (ulid_monotonic.h) and the
 * pool of random bytes (ulid_random.h).
 */

#include "postgres.h"

/* First, so that it is the first error a too old server's headers give. */
#if PG_VERSION_NUM < 150000
#error "ulid supports PostgreSQL 15 and later"
#endif

#include <float.h>
#include <sys/time.h>

#include "access/stratnum.h"
#include "catalog/pg_am_d.h"
#include "catalog/pg_type_d.h"
#include "common/hashfn.h"
#include "datatype/timestamp.h"
#include "fmgr.h"
#include "lib/hyperloglog.h"
#include "libpq/pqformat.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "nodes/nodeFuncs.h"
#include "nodes/pathnodes.h"
#include "nodes/supportnodes.h"
#include "port/pg_bswap.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "storage/spin.h"
#include "utils/builtins.h"
/*
 * utils/guc.h (for trace_sort) and nodes/makefuncs.h reach storage/bufpage.h,
 * whose inline functions have unused parameters under -Wextra in PostgreSQL 15.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "access/gist.h"
#include "nodes/makefuncs.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/rangetypes.h"
#include "utils/selfuncs.h"
#include "commands/defrem.h"
#pragma GCC diagnostic pop
#include "utils/sortsupport.h"
#include "utils/timestamp.h"

/* For converting uuid columns; these reach storage/bufpage.h too. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "access/genam.h"
#include "access/relation.h"
#include "access/relscan.h"
#include "access/table.h"
#include "optimizer/paths.h"
#include "utils/snapmgr.h"
#include "access/xact.h"
#include "catalog/dependency.h"
#include "catalog/objectaddress.h"
#include "catalog/partition.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_language.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_statistic.h"
#include "catalog/pg_type.h"
#include "commands/event_trigger.h"
#include "commands/extension.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "optimizer/optimizer.h"
#include "storage/lmgr.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/rel.h"
#include "utils/ruleutils.h"
#include "utils/syscache.h"
#include "utils/tuplestore.h"
#include "catalog/pg_amop.h"
#include "utils/catcache.h"
#include "utils/fmgroids.h"
#include "utils/inval.h"
#pragma GCC diagnostic pop

#include "ulid_base32.h"
#include "ulid_random.h"
#include "ulid_layout.h"
#include "ulid_monotonic.h"
#include "ulid_packed.h"
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

typedef struct Ulid
{
	uint8		data[ULID_LEN];
} Ulid;

#define DatumGetUlidP(X)		((Ulid *) DatumGetPointer(X))
#define PG_GETARG_ULID_P(n)		DatumGetUlidP(PG_GETARG_DATUM(n))
#define PG_RETURN_ULID_P(x)		PG_RETURN_POINTER(x)

/* Microseconds from the Unix epoch to PostgreSQL's (2000-01-01). */
#define UNIX_TO_PG_EPOCH_USECS \
	((int64) (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * USECS_PER_DAY)

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
static uint64
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

/*
 * Comparison: byte order, which is numeric, text and time order.  Two 64-bit
 * big-endian compares, inlined, instead of a call to memcmp(): sorts call this
 * for every tie of abbreviated keys, and btree searches for every probe.
 */
static inline int
ulid_internal_cmp(const Ulid *a, const Ulid *b)
{
	uint64		x,
				y;

	memcpy(&x, a->data, 8);
	memcpy(&y, b->data, 8);
	if (x == y)
	{
		memcpy(&x, a->data + 8, 8);
		memcpy(&y, b->data + 8, 8);
		if (x == y)
			return 0;
	}
	return pg_ntoh64(x) < pg_ntoh64(y) ? -1 : 1;
}

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
 *	Comparison with uuid
 *****************************************************************************/

/*
 * The SQL functions behind the ulid/uuid operators are the same-type C
 * functions above: a uuid is the same 16 bytes in the same order.
 *
 * Planner support for them.  The ulid operator families hold the cross-type
 * operators, so an index on a ulid column serves a uuid value directly.  An
 * index on a uuid column has core's uuid_ops, which knows nothing of ulid:
 * asked about "uuid_col < ulid_value" (or "ulid_value > uuid_col"), this
 * answers with "uuid_col < ulid_value::uuid" in the index's own operator,
 * an exact equivalent (not lossy), so that index is used too.
 */
/*
 * The C symbol (prosrc) of each C function asked about, and "" for any
 * other function, remembered for the backend's life: the planner support
 * functions and the estimators ask for every clause they see, and reading
 * prosrc from pg_proc's tuple is slow.  Any change to pg_proc invalidates
 * them all (function_symbols_stale); they are dropped on the next look-up,
 * so that a symbol returned stays valid until then.
 */
typedef struct FunctionSymbol
{
	Oid			funcid;
	char		symbol[64];		/* "" for none, or one too long to be ours */
} FunctionSymbol;

static HTAB *function_symbols = NULL;
static bool function_symbols_stale = false;

static void
function_symbols_invalidate(Datum arg pg_attribute_unused(), int cacheid pg_attribute_unused(),
							uint32 hashvalue pg_attribute_unused())
{
	function_symbols_stale = true;
}

/* The C symbol (prosrc) of a C function, or NULL if funcid is no C function. */
static const char *
function_symbol(Oid funcid)
{
	static bool callback_registered = false;
	FunctionSymbol *entry;
	bool		found;

	if (function_symbols_stale && function_symbols != NULL)
	{
		hash_destroy(function_symbols);
		function_symbols = NULL;
	}
	function_symbols_stale = false;
	if (function_symbols == NULL)
	{
		HASHCTL		ctl;

		if (!callback_registered)
		{
			CacheRegisterSyscacheCallback(PROCOID, function_symbols_invalidate, (Datum) 0);
			callback_registered = true;
		}
		memset(&ctl, 0, sizeof(ctl));
		ctl.keysize = sizeof(Oid);
		ctl.entrysize = sizeof(FunctionSymbol);
		ctl.hcxt = CacheMemoryContext;
		function_symbols = hash_create("ulid function symbols", 64, &ctl,
									   HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	}

	entry = hash_search(function_symbols, &funcid, HASH_FIND, NULL);
	if (entry == NULL)
	{
		HeapTuple	proctup = SearchSysCache1(PROCOID, ObjectIdGetDatum(funcid));
		char	   *prosrc = NULL;
		bool		isnull;

		if (!HeapTupleIsValid(proctup))
			return NULL;		/* not remembered: it may yet be made */
		if (((Form_pg_proc) GETSTRUCT(proctup))->prolang == ClanguageId)
			prosrc = TextDatumGetCString(SysCacheGetAttr(PROCOID, proctup,
														 Anum_pg_proc_prosrc, &isnull));
		ReleaseSysCache(proctup);
		entry = hash_search(function_symbols, &funcid, HASH_ENTER, &found);
		entry->symbol[0] = '\0';
		if (prosrc != NULL && strlen(prosrc) < sizeof(entry->symbol))
			strcpy(entry->symbol, prosrc);
	}
	return entry->symbol[0] != '\0' ? entry->symbol : NULL;
}

/*
 * The operator clause of a planner support request for an index condition,
 * with its request; NULL for any other request.  The planner support
 * functions below share this.
 */
static OpExpr *
support_clause(Node *rawreq, SupportRequestIndexCondition **req)
{
	if (!IsA(rawreq, SupportRequestIndexCondition))
		return NULL;
	*req = (SupportRequestIndexCondition *) rawreq;
	if (!is_opclause((*req)->node) || list_length(((OpExpr *) (*req)->node)->args) != 2)
		return NULL;
	return (OpExpr *) (*req)->node;
}

/*
 * The extension's function name(argtypes) in namespace (the schema of the
 * function asking, since the extension is relocatable), if its C symbol is
 * that name too; else InvalidOid.  For the bounds a support function puts
 * in the index conditions it builds.
 */
static Oid
own_function(const char *name, Oid *argtypes, int nargs, Oid namespace)
{
	Oid			funcid = GetSysCacheOid3(PROCNAMEARGSNSP, Anum_pg_proc_oid,
										 CStringGetDatum(name),
										 PointerGetDatum(buildoidvector(argtypes, nargs)),
										 ObjectIdGetDatum(namespace));
	const char *symbol;

	if (!OidIsValid(funcid))
		return InvalidOid;
	symbol = function_symbol(funcid);
	return symbol != NULL && strcmp(symbol, name) == 0 ? funcid : InvalidOid;
}

/*
 * The search operator of the index's operator family on (type, type) whose
 * function is wanted (by its OID, or by its C symbol for the extension's
 * own functions, whose OIDs are not fixed), at whatever strategy number the
 * family gives it; InvalidOid if the family has none.  What an index
 * condition means is read from the operator's function, never from a
 * strategy number: a B-tree class may sort the other way round (its
 * strategy 1 then is ">"), and whatever the index method, an operator of
 * its family returns the rows that operator's function admits.
 */
static Oid
family_operator(Oid opfamily, Oid type, Oid wanted_funcid, const char *wanted_symbol)
{
	CatCList   *members = SearchSysCacheList3(AMOPSTRATEGY, ObjectIdGetDatum(opfamily),
											  ObjectIdGetDatum(type), ObjectIdGetDatum(type));
	Oid			result = InvalidOid;

	for (int i = 0; i < members->n_members && !OidIsValid(result); i++)
	{
		Form_pg_amop amop = (Form_pg_amop) GETSTRUCT(&members->members[i]->tuple);
		Oid			funcid;
		const char *symbol;

		if (amop->amoppurpose != AMOP_SEARCH)
			continue;
		funcid = get_opcode(amop->amopopr);
		if (wanted_symbol == NULL)
		{
			if (funcid == wanted_funcid)
				result = amop->amopopr;
			continue;
		}
		symbol = function_symbol(funcid);
		if (symbol != NULL && strcmp(symbol, wanted_symbol) == 0)
			result = amop->amopopr;
	}
	ReleaseSysCacheList(members);
	return result;
}

PG_FUNCTION_INFO_V1(ulid_uuid_support);
Datum
ulid_uuid_support(PG_FUNCTION_ARGS)
{
	Node	   *rawreq = (Node *) PG_GETARG_POINTER(0);
	SupportRequestIndexCondition *req;
	OpExpr	   *clause = support_clause(rawreq, &req);
	Node	   *key;
	Node	   *value;
	const char *prosrc;
	int			strategy;
	static const Oid uuid_functions[BTMaxStrategyNumber] = {
		F_UUID_LT, F_UUID_LE, F_UUID_EQ, F_UUID_GE, F_UUID_GT
	};
	Oid			uuid_op;
	RelabelType *relabel;
	OpExpr	   *result;

	if (clause == NULL)
		PG_RETURN_POINTER(NULL);
	key = (Node *) list_nth(clause->args, req->indexarg);
	value = (Node *) list_nth(clause->args, 1 - req->indexarg);
	/* A uuid index column; the other argument is then the ulid. */
	if (exprType(key) != UUIDOID ||
		req->index->opcintype[req->indexcol] != UUIDOID)
		PG_RETURN_POINTER(NULL);

	/*
	 * What the clause means, from the C function it calls (not from the
	 * operator's name, which anyone can give to any function), seen from the
	 * index key's side.  By its symbol's name: comparing function addresses
	 * could be fooled by another library exporting the same names.
	 */
	prosrc = function_symbol(clause->opfuncid);
	if (prosrc == NULL)
		PG_RETURN_POINTER(NULL);
	if (strcmp(prosrc, "ulid_lt") == 0)
		strategy = BTLessStrategyNumber;
	else if (strcmp(prosrc, "ulid_le") == 0)
		strategy = BTLessEqualStrategyNumber;
	else if (strcmp(prosrc, "ulid_eq") == 0)
		strategy = BTEqualStrategyNumber;
	else if (strcmp(prosrc, "ulid_ge") == 0)
		strategy = BTGreaterEqualStrategyNumber;
	else if (strcmp(prosrc, "ulid_gt") == 0)
		strategy = BTGreaterStrategyNumber;
	else
		PG_RETURN_POINTER(NULL);
	if (req->indexarg == 1)
		strategy = BTMaxStrategyNumber + 1 - strategy;	/* < and >, <= and >= swap */

	/* The family's operator with core's uuid function of that meaning. */
	uuid_op = family_operator(req->opfamily, UUIDOID, uuid_functions[strategy - 1], NULL);
	if (!OidIsValid(uuid_op))
		PG_RETURN_POINTER(NULL);

	/* key uuid_op value::uuid */
	relabel = makeNode(RelabelType);
	relabel->arg = (Expr *) value;
	relabel->resulttype = UUIDOID;
	relabel->resulttypmod = -1;
	relabel->resultcollid = InvalidOid;
	relabel->relabelformat = COERCE_IMPLICIT_CAST;
	relabel->location = -1;
	result = makeNode(OpExpr);
	result->opno = uuid_op;
	result->opfuncid = InvalidOid;
	result->opresulttype = BOOLOID;
	result->opretset = false;
	result->opcollid = InvalidOid;
	result->inputcollid = InvalidOid;
	result->args = list_make2(key, relabel);
	result->location = -1;

	req->lossy = false;
	PG_RETURN_POINTER(list_make1(result));
}

/*****************************************************************************
 *	Comparison with a time
 *****************************************************************************/

/*
 * "id < ts" and the others compare the ULID's time (a whole millisecond, as
 * ulid_time() gives it) with the instant ts, exactly as "ulid_time(id) < ts"
 * would: both are microseconds, so a timestamptz within a millisecond is
 * neither equal to nor rounded to it.  Infinities are the int64 extremes, as
 * in core's timestamp comparison, so every ULID is before +infinity and after
 * -infinity, and every ULID is after any time before 1970.  Never an error.
 */
static inline int
ulid_time_cmp_ts(const Ulid *u, TimestampTz ts)
{
	TimestampTz t = (TimestampTz) ulid_get_time(u->data) * 1000 -
		UNIX_TO_PG_EPOCH_USECS;

	return t < ts ? -1 : (t > ts ? 1 : 0);
}

PG_FUNCTION_INFO_V1(ulid_timestamptz_lt);
Datum
ulid_timestamptz_lt(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(ulid_time_cmp_ts(PG_GETARG_ULID_P(0), PG_GETARG_TIMESTAMPTZ(1)) < 0);
}

PG_FUNCTION_INFO_V1(ulid_timestamptz_le);
Datum
ulid_timestamptz_le(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(ulid_time_cmp_ts(PG_GETARG_ULID_P(0), PG_GETARG_TIMESTAMPTZ(1)) <= 0);
}

PG_FUNCTION_INFO_V1(ulid_timestamptz_ge);
Datum
ulid_timestamptz_ge(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(ulid_time_cmp_ts(PG_GETARG_ULID_P(0), PG_GETARG_TIMESTAMPTZ(1)) >= 0);
}

PG_FUNCTION_INFO_V1(ulid_timestamptz_gt);
Datum
ulid_timestamptz_gt(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(ulid_time_cmp_ts(PG_GETARG_ULID_P(0), PG_GETARG_TIMESTAMPTZ(1)) > 0);
}

PG_FUNCTION_INFO_V1(timestamptz_ulid_lt);
Datum
timestamptz_ulid_lt(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(ulid_time_cmp_ts(PG_GETARG_ULID_P(1), PG_GETARG_TIMESTAMPTZ(0)) > 0);
}

PG_FUNCTION_INFO_V1(timestamptz_ulid_le);
Datum
timestamptz_ulid_le(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(ulid_time_cmp_ts(PG_GETARG_ULID_P(1), PG_GETARG_TIMESTAMPTZ(0)) >= 0);
}

PG_FUNCTION_INFO_V1(timestamptz_ulid_ge);
Datum
timestamptz_ulid_ge(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(ulid_time_cmp_ts(PG_GETARG_ULID_P(1), PG_GETARG_TIMESTAMPTZ(0)) <= 0);
}

PG_FUNCTION_INFO_V1(timestamptz_ulid_gt);
Datum
timestamptz_ulid_gt(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(ulid_time_cmp_ts(PG_GETARG_ULID_P(1), PG_GETARG_TIMESTAMPTZ(0)) < 0);
}

/*
 * The smallest ULID whose time is at or after ts (inclusive) or after it;
 * NULL if there is none (ts at or past the last ULID millisecond, +infinity).
 * Before 1970 and at -infinity every ULID qualifies: the zero ULID.  So
 * "id >= ulid_time_lower_bound(ts, inclusive)" is exactly "id >= ts" or
 * "id > ts": the index condition the planner support below builds.
 */
/*
 * The time of the last ULID millisecond as a timestamptz.  Later finite
 * times are compared with it, not converted: ts + UNIX_TO_PG_EPOCH_USECS
 * overflows int64 for the last thirty years timestamptz can hold.
 */
#define ULID_LAST_TIMESTAMPTZ ((TimestampTz) ULID_TIME_MAX * 1000 - UNIX_TO_PG_EPOCH_USECS)

static Ulid *
time_lower_bound(TimestampTz ts, bool inclusive)
{
	int64		us;
	uint64		ms;
	Ulid	   *result;

	if (TIMESTAMP_IS_NOBEGIN(ts))
		us = 0;
	else if (TIMESTAMP_IS_NOEND(ts) || ts > ULID_LAST_TIMESTAMPTZ)
		return NULL;
	else
		us = ts + UNIX_TO_PG_EPOCH_USECS + (inclusive ? 0 : 1);

	/* The first whole millisecond at or after us: a ceiling. */
	if (us <= 0)
		ms = 0;
	else if ((uint64) (us - 1) / 1000 + 1 > ULID_TIME_MAX)
		return NULL;
	else
		ms = (uint64) (us - 1) / 1000 + 1;

	result = palloc(sizeof(Ulid));
	ulid_set_time(result->data, ms);
	memset(result->data + ULID_TIME_BYTES, 0x00, ULID_RANDOM_BYTES);
	return result;
}

/*
 * The largest ULID whose time is at or before ts (inclusive) or before it;
 * NULL if there is none (ts before 1970, or at its first millisecond when
 * exclusive, -infinity).  Past the last ULID millisecond and at +infinity
 * every ULID qualifies: the largest ULID.  "id <= ulid_time_upper_bound(ts,
 * inclusive)" is exactly "id <= ts" or "id < ts".
 */
static Ulid *
time_upper_bound(TimestampTz ts, bool inclusive)
{
	int64		us;
	uint64		ms;
	Ulid	   *result;

	if (TIMESTAMP_IS_NOBEGIN(ts))
		return NULL;
	else if (TIMESTAMP_IS_NOEND(ts) || ts > ULID_LAST_TIMESTAMPTZ)
		us = PG_INT64_MAX;
	else
		us = ts + UNIX_TO_PG_EPOCH_USECS - (inclusive ? 0 : 1);

	/* The last whole millisecond at or before us: a floor. */
	if (us < 0)
		return NULL;
	ms = Min((uint64) us / 1000, ULID_TIME_MAX);

	result = palloc(sizeof(Ulid));
	ulid_set_time(result->data, ms);
	memset(result->data + ULID_TIME_BYTES, 0xFF, ULID_RANDOM_BYTES);
	return result;
}

PG_FUNCTION_INFO_V1(ulid_time_lower_bound);
Datum
ulid_time_lower_bound(PG_FUNCTION_ARGS)
{
	Ulid	   *result = time_lower_bound(PG_GETARG_TIMESTAMPTZ(0), PG_GETARG_BOOL(1));

	if (result == NULL)
		PG_RETURN_NULL();
	PG_RETURN_ULID_P(result);
}

PG_FUNCTION_INFO_V1(ulid_time_upper_bound);
Datum
ulid_time_upper_bound(PG_FUNCTION_ARGS)
{
	Ulid	   *result = time_upper_bound(PG_GETARG_TIMESTAMPTZ(0), PG_GETARG_BOOL(1));

	if (result == NULL)
		PG_RETURN_NULL();
	PG_RETURN_ULID_P(result);
}

/*
 * Planner support for the ulid/timestamptz comparisons: on a B-tree or BRIN
 * index of a ulid column, "id op ts" (or "ts op id") becomes
 *
 *	id >  ts	->	id >= ulid_time_lower_bound(ts, false)
 *	id >= ts	->	id >= ulid_time_lower_bound(ts, true)
 *	id <  ts	->	id <= ulid_time_upper_bound(ts, false)
 *	id <= ts	->	id <= ulid_time_upper_bound(ts, true)
 *
 * an exact equivalent (not lossy): the bound is the first or last ULID of the
 * first or last millisecond that satisfies the comparison, and NULL, which
 * no index entry satisfies, when none does.  A constant ts is folded into a
 * constant bound here; any other (now() - interval '1 day', a parameter, an
 * outer column) is computed when the scan starts.
 */
PG_FUNCTION_INFO_V1(ulid_timestamptz_support);
Datum
ulid_timestamptz_support(PG_FUNCTION_ARGS)
{
	Node	   *rawreq = (Node *) PG_GETARG_POINTER(0);
	SupportRequestIndexCondition *req;
	OpExpr	   *clause;
	const char *symbol;
	int			ulid_arg;
	int			strategy;
	Node	   *key;
	Node	   *value;
	Oid			ulid_type;
	const char *bound_name;
	bool		inclusive;
	Oid			argtypes[2] = {TIMESTAMPTZOID, BOOLOID};
	Oid			bound_func;
	Oid			index_op;
	FuncExpr   *bound;
	OpExpr	   *result;

	clause = support_clause(rawreq, &req);
	if (clause == NULL)
		PG_RETURN_POINTER(NULL);

	/* What the clause means, from its C function, as ulid_uuid_support does. */
	symbol = function_symbol(clause->opfuncid);
	if (symbol == NULL)
		PG_RETURN_POINTER(NULL);
	if (strncmp(symbol, "ulid_timestamptz_", 17) == 0)
		ulid_arg = 0;
	else if (strncmp(symbol, "timestamptz_ulid_", 17) == 0)
		ulid_arg = 1;
	else
		PG_RETURN_POINTER(NULL);
	if (strcmp(symbol + 17, "lt") == 0)
		strategy = BTLessStrategyNumber;
	else if (strcmp(symbol + 17, "le") == 0)
		strategy = BTLessEqualStrategyNumber;
	else if (strcmp(symbol + 17, "ge") == 0)
		strategy = BTGreaterEqualStrategyNumber;
	else if (strcmp(symbol + 17, "gt") == 0)
		strategy = BTGreaterStrategyNumber;
	else
		PG_RETURN_POINTER(NULL);
	if (ulid_arg == 1)
		strategy = BTMaxStrategyNumber + 1 - strategy;	/* ts < id is id > ts */

	/* Only an index on the ulid argument, of the ulid's own classes. */
	if (req->indexarg != ulid_arg)
		PG_RETURN_POINTER(NULL);
	key = (Node *) list_nth(clause->args, ulid_arg);
	value = (Node *) list_nth(clause->args, 1 - ulid_arg);
	ulid_type = exprType(key);
	if (exprType(value) != TIMESTAMPTZOID ||
		req->index->opcintype[req->indexcol] != ulid_type)
		PG_RETURN_POINTER(NULL);

	if (strategy == BTGreaterStrategyNumber || strategy == BTGreaterEqualStrategyNumber)
	{
		bound_name = "ulid_time_lower_bound";
		index_op = family_operator(req->opfamily, ulid_type, InvalidOid, "ulid_ge");
	}
	else
	{
		bound_name = "ulid_time_upper_bound";
		index_op = family_operator(req->opfamily, ulid_type, InvalidOid, "ulid_le");
	}
	inclusive = (strategy == BTGreaterEqualStrategyNumber ||
				 strategy == BTLessEqualStrategyNumber);
	if (!OidIsValid(index_op))
		PG_RETURN_POINTER(NULL);

	bound_func = own_function(bound_name, argtypes, 2, get_func_namespace(clause->opfuncid));
	if (!OidIsValid(bound_func))
		PG_RETURN_POINTER(NULL);

	bound = makeFuncExpr(bound_func, ulid_type,
						 list_make2(value, makeBoolConst(inclusive, false)),
						 InvalidOid, InvalidOid, COERCE_EXPLICIT_CALL);
	result = (OpExpr *) make_opclause(index_op, BOOLOID, false, (Expr *) key,
									  (Expr *) eval_const_expressions(req->root, (Node *) bound),
									  InvalidOid, InvalidOid);
	result->opfuncid = get_opcode(index_op);

	req->lossy = false;
	PG_RETURN_POINTER(list_make1(result));
}

/*
 * "id <@ r" (and "r @> id"): the ULID's time, ulid_time(id), lies in the
 * tstzrange r, each end inclusive or exclusive as r says, an unbounded end
 * admitting every time; an empty range holds no ULID.  The same comparison
 * of a whole millisecond with instants as "id < ts" above, never an error.
 */
static bool
ulid_in_tstzrange(FunctionCallInfo fcinfo, const Ulid *u, RangeType *r)
{
	TypeCacheEntry *typcache = range_get_typcache(fcinfo, RangeTypeGetOid(r));
	RangeBound	lower;
	RangeBound	upper;
	bool		empty;
	int			c;

	range_deserialize(typcache, r, &lower, &upper, &empty);
	if (empty)
		return false;
	if (!lower.infinite)
	{
		c = ulid_time_cmp_ts(u, DatumGetTimestampTz(lower.val));
		if (c < 0 || (c == 0 && !lower.inclusive))
			return false;
	}
	if (!upper.infinite)
	{
		c = ulid_time_cmp_ts(u, DatumGetTimestampTz(upper.val));
		if (c > 0 || (c == 0 && !upper.inclusive))
			return false;
	}
	return true;
}

PG_FUNCTION_INFO_V1(ulid_contained_by_tstzrange);
Datum
ulid_contained_by_tstzrange(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(ulid_in_tstzrange(fcinfo, PG_GETARG_ULID_P(0), PG_GETARG_RANGE_P(1)));
}

PG_FUNCTION_INFO_V1(tstzrange_contains_ulid);
Datum
tstzrange_contains_ulid(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(ulid_in_tstzrange(fcinfo, PG_GETARG_ULID_P(1), PG_GETARG_RANGE_P(0)));
}

/*
 * The smallest (is_lower) or largest ULID whose time lies in the range: the
 * zero or the largest ULID for an unbounded end, otherwise time_lower_bound()
 * or time_upper_bound() of that end; NULL when the range is empty or no ULID
 * is within that end.  "id >= ulid_range_lower_bound(r) AND id <=
 * ulid_range_upper_bound(r)" is exactly "id <@ r" (a NULL bound admits no
 * row): the index conditions the planner support below builds.  *infinite
 * tells whether that end is unbounded.
 */
static Ulid *
range_bound_ulid(TypeCacheEntry *typcache, RangeType *r, bool is_lower, bool *infinite)
{
	RangeBound	lower;
	RangeBound	upper;
	RangeBound *end;
	bool		empty;
	Ulid	   *result;

	range_deserialize(typcache, r, &lower, &upper, &empty);
	*infinite = false;
	if (empty)
		return NULL;
	end = is_lower ? &lower : &upper;
	if (end->infinite)
	{
		*infinite = true;
		result = palloc(sizeof(Ulid));
		memset(result->data, is_lower ? 0x00 : 0xFF, sizeof(result->data));
		return result;
	}
	if (is_lower)
		return time_lower_bound(DatumGetTimestampTz(end->val), end->inclusive);
	return time_upper_bound(DatumGetTimestampTz(end->val), end->inclusive);
}

static Datum
ulid_range_bound(FunctionCallInfo fcinfo, bool is_lower)
{
	RangeType  *r = PG_GETARG_RANGE_P(0);
	bool		infinite;
	Ulid	   *result;

	result = range_bound_ulid(range_get_typcache(fcinfo, RangeTypeGetOid(r)),
							  r, is_lower, &infinite);
	if (result == NULL)
		PG_RETURN_NULL();
	PG_RETURN_ULID_P(result);
}

PG_FUNCTION_INFO_V1(ulid_range_lower_bound);
Datum
ulid_range_lower_bound(PG_FUNCTION_ARGS)
{
	return ulid_range_bound(fcinfo, true);
}

PG_FUNCTION_INFO_V1(ulid_range_upper_bound);
Datum
ulid_range_upper_bound(PG_FUNCTION_ARGS)
{
	return ulid_range_bound(fcinfo, false);
}

/*
 * A ulid Const, or a NULL ulid Const for a NULL bound.
 */
static Const *
make_ulid_const(Oid ulid_type, Ulid *u)
{
	return makeConst(ulid_type, -1, InvalidOid, sizeof(Ulid),
					 u ? PointerGetDatum(u) : (Datum) 0, u == NULL, false);
}

/*
 * Planner support for "id <@ r" and "r @> id" on a B-tree or BRIN index of
 * a ulid column:
 *
 *	id <@ r	->	id >= ulid_range_lower_bound(r) AND id <= ulid_range_upper_bound(r)
 *
 * exact (not lossy).  A constant r is folded here: a condition is left out
 * for an unbounded end (but one is kept, so that the index still serves
 * "id <@ '(,)'"), and an empty range gives "id >= NULL", which no index
 * entry meets.  Any other r (tstzrange(now() - interval '1 day', now()), a
 * parameter) is computed when the scan starts.
 */
PG_FUNCTION_INFO_V1(ulid_tstzrange_support);
Datum
ulid_tstzrange_support(PG_FUNCTION_ARGS)
{
	Node	   *rawreq = (Node *) PG_GETARG_POINTER(0);
	SupportRequestIndexCondition *req;
	OpExpr	   *clause;
	const char *symbol;
	int			ulid_arg;
	Node	   *key;
	Node	   *value;
	Oid			ulid_type;
	Oid			range_type;
	Oid			ge_op;
	Oid			le_op;
	Oid			namespace;
	Oid			argtypes[1];
	Oid			bound_func[2];
	const char *bound_name[2] = {"ulid_range_lower_bound", "ulid_range_upper_bound"};
	List	   *result = NIL;
	ListCell   *lc;

	clause = support_clause(rawreq, &req);
	if (clause == NULL)
		PG_RETURN_POINTER(NULL);

	symbol = function_symbol(clause->opfuncid);
	if (symbol == NULL)
		PG_RETURN_POINTER(NULL);
	if (strcmp(symbol, "ulid_contained_by_tstzrange") == 0)
		ulid_arg = 0;
	else if (strcmp(symbol, "tstzrange_contains_ulid") == 0)
		ulid_arg = 1;
	else
		PG_RETURN_POINTER(NULL);

	if (req->indexarg != ulid_arg)
		PG_RETURN_POINTER(NULL);
	key = (Node *) list_nth(clause->args, ulid_arg);
	value = (Node *) list_nth(clause->args, 1 - ulid_arg);
	ulid_type = exprType(key);
	range_type = exprType(value);
	if (range_type != TSTZRANGEOID ||
		req->index->opcintype[req->indexcol] != ulid_type)
		PG_RETURN_POINTER(NULL);
	ge_op = family_operator(req->opfamily, ulid_type, InvalidOid, "ulid_ge");
	le_op = family_operator(req->opfamily, ulid_type, InvalidOid, "ulid_le");
	if (!OidIsValid(ge_op) || !OidIsValid(le_op))
		PG_RETURN_POINTER(NULL);

	namespace = get_func_namespace(clause->opfuncid);
	argtypes[0] = TSTZRANGEOID;
	for (int i = 0; i < 2; i++)
	{
		bound_func[i] = own_function(bound_name[i], argtypes, 1, namespace);
		if (!OidIsValid(bound_func[i]))
			PG_RETURN_POINTER(NULL);
	}

	if (IsA(value, Const))
	{
		Const	   *c = (Const *) value;
		TypeCacheEntry *typcache = lookup_type_cache(range_type, TYPECACHE_RANGE_INFO);
		Ulid	   *lo;
		Ulid	   *hi;
		bool		lo_inf;
		bool		hi_inf;

		if (c->constisnull)
			PG_RETURN_POINTER(NULL);	/* strict: the clause is NULL anyway */
		lo = range_bound_ulid(typcache, DatumGetRangeTypeP(c->constvalue), true, &lo_inf);
		hi = range_bound_ulid(typcache, DatumGetRangeTypeP(c->constvalue), false, &hi_inf);
		if (!lo_inf || hi_inf)
			result = lappend(result,
							 make_opclause(ge_op, BOOLOID, false, (Expr *) key,
										   (Expr *) make_ulid_const(ulid_type, lo),
										   InvalidOid, InvalidOid));
		if (!hi_inf && lo != NULL)
			result = lappend(result,
							 make_opclause(le_op, BOOLOID, false, (Expr *) key,
										   (Expr *) make_ulid_const(ulid_type, hi),
										   InvalidOid, InvalidOid));
	}
	else
	{
		for (int i = 0; i < 2; i++)
		{
			FuncExpr   *bound = makeFuncExpr(bound_func[i], ulid_type, list_make1(value),
											 InvalidOid, InvalidOid, COERCE_EXPLICIT_CALL);

			result = lappend(result,
							 make_opclause(i == 0 ? ge_op : le_op, BOOLOID, false,
										   (Expr *) key,
										   (Expr *) eval_const_expressions(req->root, (Node *) bound),
										   InvalidOid, InvalidOid));
		}
	}
	foreach(lc, result)
		((OpExpr *) lfirst(lc))->opfuncid = get_opcode(((OpExpr *) lfirst(lc))->opno);

	req->lossy = false;
	PG_RETURN_POINTER(result);
}

/*****************************************************************************
 *	Estimates
 *
 *	Core's scalarltsel family finds a constant's bucket in the column's
 *	histogram, but for a type it does not know it places the constant in
 *	the middle of that bucket (convert_to_scalar), and it pairs "id >= a AND
 *	id < b" into one range only when both estimators are its own
 *	(clausesel.c).  A one-hour window inside a bucket of a month's history
 *	then comes out at one row.  ulid_ineqsel, the estimator of every ulid
 *	comparison (with a ulid, a uuid or a time), interpolates within the
 *	bucket by the 128-bit value, and finds the other end of a window among
 *	the relation's restriction clauses, so that the two estimates multiply
 *	to the window's: the more selective end gives its own figure, the other
 *	the window's divided by it.  The window's figure is combined as core
 *	combines a range pair, over these better per-end figures.
 *****************************************************************************/

/*
 * One bound that a clause puts on a ulid (or uuid) column, in ULID terms:
 * "col >= value" (is_lower) or "col <= value", or strict.  A time becomes
 * the first or last ULID of its millisecond, as in the index conditions;
 * none when no ULID satisfies it.  Not known when the other side is no
 * constant at planning time (a parameter of a generic plan).  sel is the
 * selectivity of the bound alone.
 */
typedef struct UlidBound
{
	bool		is_lower;
	bool		known;
	bool		none;
	bool		inclusive;
	Ulid		value;
	Selectivity sel;
} UlidBound;

/*
 * The comparison an operator makes, from its function's C symbol as the
 * planner support functions read it: the strategy as written (args[0] op
 * args[1]) and which argument is a time (-1: both are ulid or uuid).
 */
static bool
comparison_of(Oid opno, StrategyNumber *strategy, int *time_arg)
{
	const char *symbol = function_symbol(get_opcode(opno));
	const char *op;

	if (symbol == NULL)
		return false;
	if (strncmp(symbol, "ulid_timestamptz_", 17) == 0)
	{
		*time_arg = 1;
		op = symbol + 17;
	}
	else if (strncmp(symbol, "timestamptz_ulid_", 17) == 0)
	{
		*time_arg = 0;
		op = symbol + 17;
	}
	else if (strncmp(symbol, "ulid_", 5) == 0)
	{
		*time_arg = -1;
		op = symbol + 5;
	}
	else
		return false;
	if (strcmp(op, "lt") == 0)
		*strategy = BTLessStrategyNumber;
	else if (strcmp(op, "le") == 0)
		*strategy = BTLessEqualStrategyNumber;
	else if (strcmp(op, "ge") == 0)
		*strategy = BTGreaterEqualStrategyNumber;
	else if (strcmp(op, "gt") == 0)
		*strategy = BTGreaterStrategyNumber;
	else
		return false;
	return true;
}

/*
 * The bound "var op other" puts on var, the argument var_arg of a comparison
 * of that strategy; other is the other argument, already estimated.  False
 * if var is the time.
 */
static bool
make_bound(StrategyNumber strategy, int time_arg, int var_arg, Node *other,
		   UlidBound *b)
{
	Const	   *c;
	Ulid	   *u;

	if (var_arg == time_arg)
		return false;
	if (var_arg == 1)
		strategy = BTMaxStrategyNumber + 1 - strategy;	/* a < id is id > a */
	memset(b, 0, sizeof(UlidBound));
	b->is_lower = (strategy == BTGreaterStrategyNumber ||
				   strategy == BTGreaterEqualStrategyNumber);
	if (!IsA(other, Const))
		return true;
	c = (Const *) other;
	b->known = true;
	if (c->constisnull)
	{
		b->none = true;
		return true;
	}
	if (time_arg < 0)
	{
		memcpy(b->value.data, DatumGetUlidP(c->constvalue)->data, ULID_LEN);
		b->inclusive = (strategy == BTGreaterEqualStrategyNumber ||
						strategy == BTLessEqualStrategyNumber);
		return true;
	}
	if (b->is_lower)
		u = time_lower_bound(DatumGetTimestampTz(c->constvalue),
							 strategy == BTGreaterEqualStrategyNumber);
	else
		u = time_upper_bound(DatumGetTimestampTz(c->constvalue),
							 strategy == BTLessEqualStrategyNumber);
	if (u == NULL)
		b->none = true;
	else
		memcpy(b->value.data, u->data, ULID_LEN);
	b->inclusive = true;
	return true;
}

/* Whether the value v meets the bound b. */
static bool
bound_admits(const UlidBound *b, const Ulid *v)
{
	int			c = ulid_internal_cmp(v, &b->value);

	if (b->none)
		return false;
	if (c == 0)
		return b->inclusive;
	return b->is_lower ? c > 0 : c < 0;
}

/*
 * What bound_selectivity() reads of a column, read once while a relation
 * is planned (ColumnBounds), in the memory context cxt: the most common
 * values and their frequencies, the histogram's bounds (16-byte values
 * only, as the statistics give them), and the smallest and largest values
 * an index gives (index_endpoint), each when first needed.
 */
typedef struct ColumnStats
{
	MemoryContext cxt;
	bool		read;
	int			nmcv;
	Ulid	   *mcv;
	float4	   *mcv_freq;
	int			nhist;
	Ulid	   *hist;
	bool		end_read[2];	/* [0] the smallest, [1] the largest */
	bool		end_found[2];
	Ulid		end[2];
} ColumnStats;

/*
 * The smallest (or the largest) value of the column now, from the first
 * column of a btree index on it that sorts in byte order: the first entry
 * at that end, whether its row is visible or not (SnapshotAny, one descent,
 * however many dead entries precede it).  Rows made since ANALYZE lie past
 * the histogram's last bound, and "id > now() - interval '1 hour'" falls
 * there; core reads the index the same way for its own types
 * (get_actual_variable_range, which is not exported).
 */
static bool
index_endpoint(PlannerInfo *root, VariableStatData *vardata, bool largest, Ulid *result)
{
	RangeTblEntry *rte;
	ListCell   *lc;

	if (vardata->rel == NULL || vardata->rel->indexlist == NIL)
		return false;
	rte = root->simple_rte_array[vardata->rel->relid];
	if (rte->rtekind != RTE_RELATION || rte->inh)
		return false;
	foreach(lc, vardata->rel->indexlist)
	{
		IndexOptInfo *index = lfirst_node(IndexOptInfo, lc);
		Oid			opclass;
		Relation	heap;
		Relation	indexrel;
		IndexScanDesc scan;
		ScanKeyData key;
		bool		found = false;

		if (index->relam != BTREE_AM_OID || index->indpred != NIL ||
			index->hypothetical || !index->canreturn[0] ||
			!match_index_to_operand(vardata->var, 0, index))
			continue;
		opclass = GetDefaultOpClass(index->opcintype[0], BTREE_AM_OID);
		if (!OidIsValid(opclass) || get_opclass_family(opclass) != index->opfamily[0] ||
			get_typlen(index->opcintype[0]) != ULID_LEN)
			continue;

		heap = table_open(rte->relid, NoLock);
		indexrel = index_open(index->indexoid, NoLock);
		ScanKeyEntryInitialize(&key, SK_ISNULL | SK_SEARCHNOTNULL, 1, InvalidStrategy,
							   InvalidOid, InvalidOid, InvalidOid, (Datum) 0);
#if PG_VERSION_NUM >= 190000
		scan = index_beginscan(heap, indexrel, SnapshotAny, NULL, 1, 0, 0);
#elif PG_VERSION_NUM >= 180000
		scan = index_beginscan(heap, indexrel, SnapshotAny, NULL, 1, 0);
#else
		scan = index_beginscan(heap, indexrel, SnapshotAny, 1, 0);
#endif
		scan->xs_want_itup = true;
		index_rescan(scan, &key, 1, NULL, 0);
		if (index_getnext_tid(scan, largest != index->reverse_sort[0] ?
							  BackwardScanDirection : ForwardScanDirection) != NULL &&
			scan->xs_itup != NULL)
		{
			bool		isnull;
			Datum		value = index_getattr(scan->xs_itup, 1, scan->xs_itupdesc, &isnull);

			if (!isnull)
			{
				memcpy(result->data, DatumGetUlidP(value)->data, ULID_LEN);
				found = true;
			}
		}
		index_endscan(scan);
		index_close(indexrel, NoLock);
		table_close(heap, NoLock);
		if (found)
			return true;
	}
	return false;
}

/* index_endpoint(), remembered in stats. */
static bool
column_endpoint(PlannerInfo *root, VariableStatData *vardata, ColumnStats *stats,
				bool largest, Ulid *result)
{
	if (!stats->end_read[largest])
	{
		stats->end_found[largest] = index_endpoint(root, vardata, largest, &stats->end[largest]);
		stats->end_read[largest] = true;
	}
	if (stats->end_found[largest])
		*result = stats->end[largest];
	return stats->end_found[largest];
}

/* The 16-byte values of a statistics slot, copied into cxt. */
static Ulid *
slot_values(AttStatsSlot *sslot, MemoryContext cxt)
{
	Ulid	   *values = MemoryContextAlloc(cxt, sizeof(Ulid) * Max(sslot->nvalues, 1));

	for (int i = 0; i < sslot->nvalues; i++)
		values[i] = *DatumGetUlidP(sslot->values[i]);
	return values;
}

/* Read the column's statistics into stats, once. */
static void
read_column_stats(VariableStatData *vardata, ColumnStats *stats)
{
	AttStatsSlot sslot;

	if (stats->read)
		return;
	stats->read = true;
	if (get_attstatsslot(&sslot, vardata->statsTuple, STATISTIC_KIND_MCV,
						 InvalidOid, ATTSTATSSLOT_VALUES | ATTSTATSSLOT_NUMBERS))
	{
		if (get_typlen(sslot.valuetype) == ULID_LEN)
		{
			stats->nmcv = sslot.nvalues;
			stats->mcv = slot_values(&sslot, stats->cxt);
			stats->mcv_freq = MemoryContextAlloc(stats->cxt, sizeof(float4) * Max(sslot.nnumbers, 1));
			memcpy(stats->mcv_freq, sslot.numbers, sizeof(float4) * sslot.nnumbers);
		}
		free_attstatsslot(&sslot);
	}
	if (get_attstatsslot(&sslot, vardata->statsTuple, STATISTIC_KIND_HISTOGRAM,
						 InvalidOid, ATTSTATSSLOT_VALUES))
	{
		if (sslot.nvalues >= 2 && get_typlen(sslot.valuetype) == ULID_LEN)
		{
			stats->nhist = sslot.nvalues;
			stats->hist = slot_values(&sslot, stats->cxt);
		}
		free_attstatsslot(&sslot);
	}
}

/*
 * The fraction of the histogram's population below v.  The bounds divide
 * it into equally populated buckets; within its bucket v is placed by the
 * 128-bit value (its time, then its random bits), as core places a time.
 * In the first or last bucket, or beyond, that end of the histogram is
 * moved to the column's smallest or largest value now, if an index knows a
 * farther one, as core's ineq_histogram_selectivity does.
 */
static double
histogram_fraction_below(PlannerInfo *root, VariableStatData *vardata, ColumnStats *stats,
						 const Ulid *v)
{
	const Ulid *hist = stats->hist;
	int			n = stats->nhist;
	int			lo = 0;
	int			hi = n;
	const Ulid *first = &hist[0];
	const Ulid *last = &hist[n - 1];
	const Ulid *a;
	const Ulid *b;
	Ulid		actual_first;
	Ulid		actual_last;

	/* The first bound above v. */
	while (lo < hi)
	{
		int			mid = lo + (hi - lo) / 2;

		if (ulid_internal_cmp(&hist[mid], v) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo <= 1 && column_endpoint(root, vardata, stats, false, &actual_first) &&
		ulid_internal_cmp(&actual_first, first) < 0)
	{
		first = &actual_first;
		if (lo == 0 && ulid_internal_cmp(v, first) >= 0)
			lo = 1;
	}
	if (lo >= n - 1 && column_endpoint(root, vardata, stats, true, &actual_last) &&
		ulid_internal_cmp(&actual_last, last) > 0)
	{
		last = &actual_last;
		if (lo == n && ulid_internal_cmp(v, last) < 0)
			lo = n - 1;
	}
	if (lo == 0)
		return 0.0;
	if (lo == n)
		return 1.0;
	a = (lo - 1 == 0) ? first : &hist[lo - 1];
	b = (lo == n - 1) ? last : &hist[lo];
	return (lo - 1 + ulid_distance(a->data, v->data) / ulid_distance(a->data, b->data)) /
		(n - 1);
}

/*
 * The selectivity of the known bound b alone (NULLs count in the whole),
 * from the column's statistics read as core's scalarineqsel reads them: the
 * most common values that meet it, then the histogram for the rest, half
 * of the rest without one.  False without statistics of 16-byte values, or
 * when core would not read them for this user with the operator's function
 * (statistic_proc_security_check: ours calls none, but says no more than
 * core would).
 */
static bool
bound_selectivity(PlannerInfo *root, VariableStatData *vardata, ColumnStats *stats,
				  Oid opfunc, UlidBound *b)
{
	ColumnStats local;
	double		mcv_sel = 0.0;
	double		sumcommon = 0.0;
	double		below = 0.5;
	double		sel;

	if (!b->known || !HeapTupleIsValid(vardata->statsTuple) ||
		get_typlen(vardata->atttype) != ULID_LEN ||
		!statistic_proc_security_check(vardata, opfunc))
		return false;
	if (b->none)
	{
		b->sel = 0.0;
		return true;
	}
	if (stats == NULL)
	{
		memset(&local, 0, sizeof(local));
		local.cxt = CurrentMemoryContext;
		stats = &local;
	}
	read_column_stats(vardata, stats);
	for (int i = 0; i < stats->nmcv; i++)
	{
		if (bound_admits(b, &stats->mcv[i]))
			mcv_sel += stats->mcv_freq[i];
		sumcommon += stats->mcv_freq[i];
	}
	if (stats->nhist >= 2)
		below = histogram_fraction_below(root, vardata, stats, &b->value);
	sel = (1.0 - ((Form_pg_statistic) GETSTRUCT(vardata->statsTuple))->stanullfrac - sumcommon) *
		(b->is_lower ? 1.0 - below : below) + mcv_sel;
	CLAMP_PROBABILITY(sel);
	b->sel = sel;
	return true;
}

/* Core's estimator for a comparison of this strategy, for what ours cannot read. */
static Selectivity
core_ineqsel(StrategyNumber strategy, PlannerInfo *root, Oid opno, List *args,
			 int varRelid, Oid collation)
{
	PGFunction	fn;

	switch (strategy)
	{
		case BTLessStrategyNumber:
			fn = scalarltsel;
			break;
		case BTLessEqualStrategyNumber:
			fn = scalarlesel;
			break;
		case BTGreaterEqualStrategyNumber:
			fn = scalargesel;
			break;
		default:
			fn = scalargtsel;
			break;
	}
	return DatumGetFloat8(DirectFunctionCall4Coll(fn, collation,
												  PointerGetDatum(root),
												  ObjectIdGetDatum(opno),
												  PointerGetDatum(args),
												  Int32GetDatum(varRelid)));
}

/*
 * The selectivity of a window, both ends' figures combined as core's
 * clauselist_selectivity combines a range pair: lo + hi - 1, plus the NULLs
 * both excluded; a default if either end is a default, a small positive
 * figure for an empty or very narrow one.
 */
static Selectivity
window_selectivity(Selectivity lo, Selectivity hi, Selectivity nullfrac)
{
	Selectivity sel;

	if (lo == DEFAULT_INEQ_SEL || hi == DEFAULT_INEQ_SEL)
		return DEFAULT_RANGE_INEQ_SEL;
	sel = lo + hi - 1.0 + nullfrac;
	if (sel <= 0.0)
		sel = (sel < -0.01) ? DEFAULT_RANGE_INEQ_SEL : 1.0e-10;
	CLAMP_PROBABILITY(sel);
	return sel;
}

/* node without the binary-compatible casts above it (uuid_col::ulid). */
static Node *
strip_relabel(Node *node)
{
	while (node && IsA(node, RelabelType))
		node = (Node *) ((RelabelType *) node)->arg;
	return node;
}

/*
 * One bound on the column among the relation's restriction clauses: from an
 * operator clause (args) estimated by ulid_ineqsel, or one end of an
 * "id <@ r" with a constant r (range > 0 numbers that clause, args NULL).
 * Its selectivity is read when first needed (sel_known), with the
 * operator's function (opfunc) for the statistics' security check and,
 * where our reading of the statistics does not apply, core's estimator for
 * the operator (opno, strategy, collation).
 */
typedef struct BoundClause
{
	List	   *args;
	int			range;
	int			group;
	int			seq;			/* its place among all the bounds, in group order */
	Oid			opno;
	Oid			opfunc;
	StrategyNumber strategy;
	Oid			collation;
	bool		sel_known;
	UlidBound	bound;
} BoundClause;

/*
 * Every bound that the restriction clauses of one relation put on one of
 * its columns, found once per planning: each conjunction the planner
 * estimates on its own (a group: and_lists()), the bounds in it, and two
 * sorted indexes over them, by the clause (args) and by the bound, each
 * sorted then by seq so that a search finds the first in group order.
 * Without it each of the 2N clauses of N OR-ed windows searched all N
 * groups, and planning grew with N squared.  The column's statistics and
 * the smallest and largest values an index gives are read once too.  Valid
 * for this root, rel, varRelid and column while the rel's restriction
 * clauses are the same list of the same length.
 */
typedef struct ColumnBounds
{
	PlannerInfo *root;
	RelOptInfo *rel;
	List	   *restrictinfo;
	int			nrestrict;
	int			varRelid;
	Node	   *column;
	int			ngroups;
	List	  **groups;			/* of BoundClause */
	int			nbounds;
	BoundClause **by_args;		/* those with args, by args then seq */
	int			nby_args;
	BoundClause **by_value;		/* those known, by bound_key_cmp() then seq */
	int			nby_value;
	ColumnStats stats;
} ColumnBounds;

/*
 * Every list of clauses that the planner estimates as a conjunction on the
 * relation: its restriction clauses, and each AND arm of an OR among them,
 * at any depth.  Core pairs the ends of a window within each such list.
 */
static void
and_lists(List *clauses, List **lists)
{
	ListCell   *lc;

	*lists = lappend(*lists, clauses);
	foreach(lc, clauses)
	{
		Node	   *node = (Node *) lfirst(lc);
		ListCell   *arm;

		if (IsA(node, RestrictInfo))
			node = (Node *) ((RestrictInfo *) node)->orclause;
		if (node == NULL || !is_orclause(node))
			continue;
		foreach(arm, ((BoolExpr *) node)->args)
		{
			if (is_andclause(lfirst(arm)))
				and_lists(((BoolExpr *) lfirst(arm))->args, lists);
		}
	}
}

/*
 * The ColumnBounds of the plannings going on, one list a memory context: the
 * context of the PlannerInfo they point into (planner_cxt), which a query
 * planned inside a planning (a function that estimation runs) may not share.
 * A reset or deletion of that context unlinks its list (column_bounds_forget)
 * before any address an entry compares with can be reused.
 */
typedef struct ColumnBoundsCache
{
	MemoryContext cxt;
	List	   *entries;		/* of ColumnBounds, the newest last */
	MemoryContextCallback forget;
	struct ColumnBoundsCache *next;
} ColumnBoundsCache;

static ColumnBoundsCache *column_bounds_caches = NULL;

/* At most this many relations' columns are remembered in one context. */
#define COLUMN_BOUNDS_KEPT 64

static void
column_bounds_forget(void *arg)
{
	for (ColumnBoundsCache **c = &column_bounds_caches; *c != NULL; c = &(*c)->next)
	{
		if (*c == arg)
		{
			*c = (*c)->next;
			break;
		}
	}
}

/* The cache of a memory context, made on first use. */
static ColumnBoundsCache *
column_bounds_cache(MemoryContext cxt)
{
	ColumnBoundsCache *c;

	for (c = column_bounds_caches; c != NULL; c = c->next)
		if (c->cxt == cxt)
			return c;
	c = MemoryContextAllocZero(cxt, sizeof(ColumnBoundsCache));
	c->cxt = cxt;
	c->forget.func = column_bounds_forget;
	c->forget.arg = c;
	MemoryContextRegisterResetCallback(cxt, &c->forget);
	c->next = column_bounds_caches;
	column_bounds_caches = c;
	return c;
}

/* The order of the by_value index: direction, kind, value. */
static int
bound_key_cmp(const UlidBound *a, const UlidBound *b)
{
	if (a->is_lower != b->is_lower)
		return a->is_lower ? 1 : -1;
	if (a->none != b->none)
		return a->none ? 1 : -1;
	if (a->inclusive != b->inclusive)
		return a->inclusive ? 1 : -1;
	return a->none ? 0 : ulid_internal_cmp(&a->value, &b->value);
}

static int
by_args_qsort_cmp(const void *a, const void *b)
{
	const BoundClause *x = *(BoundClause *const *) a;
	const BoundClause *y = *(BoundClause *const *) b;

	if (x->args != y->args)
		return (uintptr_t) x->args < (uintptr_t) y->args ? -1 : 1;
	return x->seq - y->seq;
}

static int
by_value_qsort_cmp(const void *a, const void *b)
{
	const BoundClause *x = *(BoundClause *const *) a;
	const BoundClause *y = *(BoundClause *const *) b;
	int			c = bound_key_cmp(&x->bound, &y->bound);

	return c != 0 ? c : x->seq - y->seq;
}

/* Add a bound to its group, and to all in group order. */
static void
add_bound(ColumnBounds *cb, BoundClause *bc, List **all)
{
	bc->seq = list_length(*all);
	cb->groups[bc->group] = lappend(cb->groups[bc->group], bc);
	*all = lappend(*all, bc);
}

/*
 * The bounds that the clauses of one conjunction (group g) put on the
 * column of vardata, their selectivities not yet read.
 */
static void
group_bounds(PlannerInfo *root, ColumnBounds *cb, int g, List *clauses, List **all)
{
	int			ranges = 0;
	ListCell   *lc;

	foreach(lc, clauses)
	{
		Node	   *node = (Node *) lfirst(lc);
		OpExpr	   *op;
		StrategyNumber strategy;
		int			time_arg;
		int			var_arg;
		Node	   *other;
		const char *symbol;

		CHECK_FOR_INTERRUPTS();
		if (IsA(node, RestrictInfo))
		{
			if (((RestrictInfo *) node)->pseudoconstant)
				continue;
			node = (Node *) ((RestrictInfo *) node)->clause;
		}
		op = (OpExpr *) node;
		if (!is_opclause(op) || list_length(op->args) != 2)
			continue;
		if (equal(strip_relabel(linitial(op->args)), cb->column))
			var_arg = 0;
		else if (equal(strip_relabel(lsecond(op->args)), cb->column))
			var_arg = 1;
		else
			continue;
		other = (Node *) list_nth(op->args, 1 - var_arg);
		if (contain_var_clause(other) || contain_volatile_functions(other))
			continue;
		other = estimate_expression_value(root, other);

		if (comparison_of(op->opno, &strategy, &time_arg))
		{
			BoundClause *bc;

			symbol = function_symbol(get_oprrest(op->opno));
			if (symbol == NULL || strcmp(symbol, "ulid_ineqsel") != 0)
				continue;
			bc = palloc0(sizeof(BoundClause));
			if (!make_bound(strategy, time_arg, var_arg, other, &bc->bound))
				continue;
			bc->args = op->args;
			bc->group = g;
			bc->opno = op->opno;
			bc->opfunc = get_opcode(op->opno);
			bc->strategy = strategy;
			bc->collation = op->inputcollid;
			add_bound(cb, bc, all);
			continue;
		}

		/* id <@ r, r @> id: its two ends, for the index conditions made of them */
		symbol = function_symbol(get_opcode(op->opno));
		if (symbol != NULL && IsA(other, Const) && !((Const *) other)->constisnull &&
			exprType(other) == TSTZRANGEOID &&
			strcmp(symbol, var_arg == 0 ? "ulid_contained_by_tstzrange" : "tstzrange_contains_ulid") == 0)
		{
			TypeCacheEntry *typcache = lookup_type_cache(TSTZRANGEOID, TYPECACHE_RANGE_INFO);
			RangeType  *r = DatumGetRangeTypeP(((Const *) other)->constvalue);

			ranges++;
			for (int end = 0; end < 2; end++)
			{
				BoundClause *bc = palloc0(sizeof(BoundClause));
				bool		infinite;
				Ulid	   *u = range_bound_ulid(typcache, r, end == 0, &infinite);

				if (infinite)
					continue;
				bc->range = ranges;
				bc->group = g;
				bc->opfunc = get_opcode(op->opno);
				bc->bound.is_lower = (end == 0);
				bc->bound.known = true;
				bc->bound.none = (u == NULL);
				bc->bound.inclusive = true;
				if (u != NULL)
					memcpy(bc->bound.value.data, u->data, ULID_LEN);
				add_bound(cb, bc, all);
			}
		}
	}
}

/*
 * The ColumnBounds of the column of vardata (a column of vardata->rel) for
 * this planning: remembered, or found now.  NULL without a relation.
 */
static ColumnBounds *
column_bounds(PlannerInfo *root, VariableStatData *vardata, int varRelid)
{
	RelOptInfo *rel = vardata->rel;
	Node	   *column = strip_relabel(vardata->var);
	MemoryContext cxt = root->planner_cxt;
	ColumnBoundsCache *cache;
	ColumnBounds *cb;
	MemoryContext old;
	List	   *lists = NIL;
	List	   *all = NIL;
	ListCell   *lc;
	int			g;

	if (rel == NULL)
		return NULL;
	if (cxt == NULL)
		cxt = CurrentMemoryContext; /* made here, remembered nowhere */
	else
	{
		cache = column_bounds_cache(cxt);
		foreach(lc, cache->entries)
		{
			cb = lfirst(lc);
			if (cb->root == root && cb->rel == rel && cb->varRelid == varRelid &&
				cb->restrictinfo == rel->baserestrictinfo &&
				cb->nrestrict == list_length(rel->baserestrictinfo) &&
				equal(cb->column, column))
				return cb;
		}
	}

	old = MemoryContextSwitchTo(cxt);
	cb = palloc0(sizeof(ColumnBounds));
	cb->root = root;
	cb->rel = rel;
	cb->restrictinfo = rel->baserestrictinfo;
	cb->nrestrict = list_length(rel->baserestrictinfo);
	cb->varRelid = varRelid;
	cb->column = copyObject(column);
	cb->stats.cxt = cxt;

	and_lists(rel->baserestrictinfo, &lists);
	cb->ngroups = list_length(lists);
	cb->groups = palloc0(sizeof(List *) * Max(cb->ngroups, 1));
	g = 0;
	foreach(lc, lists)
		group_bounds(root, cb, g++, (List *) lfirst(lc), &all);
	list_free(lists);

	/* The two indexes. */
	cb->nbounds = list_length(all);
	cb->by_args = palloc(sizeof(BoundClause *) * Max(cb->nbounds, 1));
	cb->by_value = palloc(sizeof(BoundClause *) * Max(cb->nbounds, 1));
	foreach(lc, all)
	{
		BoundClause *bc = lfirst(lc);

		if (bc->args != NULL)
			cb->by_args[cb->nby_args++] = bc;
		if (bc->bound.known)
			cb->by_value[cb->nby_value++] = bc;
	}
	list_free(all);
	qsort(cb->by_args, cb->nby_args, sizeof(BoundClause *), by_args_qsort_cmp);
	qsort(cb->by_value, cb->nby_value, sizeof(BoundClause *), by_value_qsort_cmp);

	/*
	 * Remembered only now that it is whole; and looked up again, since
	 * group_bounds() may have planned other queries meanwhile (a STABLE
	 * function estimated), which changes the caches.
	 */
	if (root->planner_cxt != NULL)
	{
		cache = column_bounds_cache(cxt);
		if (list_length(cache->entries) >= COLUMN_BOUNDS_KEPT)
			cache->entries = list_delete_first(cache->entries);
		cache->entries = lappend(cache->entries, cb);
	}
	MemoryContextSwitchTo(old);
	return cb;
}

/* The selectivity of one bound of cb, read once. */
static Selectivity
bound_clause_sel(PlannerInfo *root, VariableStatData *vardata, ColumnBounds *cb,
				 BoundClause *bc)
{
	if (!bc->sel_known)
	{
		if (!bound_selectivity(root, vardata, &cb->stats, bc->opfunc, &bc->bound))
			bc->bound.sel = bc->range > 0 ? DEFAULT_INEQ_SEL :
				core_ineqsel(bc->strategy, root, bc->opno, bc->args,
							 cb->varRelid, bc->collation);
		bc->sel_known = true;
	}
	return bc->bound.sel;
}

/*
 * The clause among the bounds that the one being estimated is: the same
 * clause (its args and operator), or, for a clause the planner made from
 * one (the index conditions of "id > ts" or "id <@ r", an index predicate,
 * a negated clause sharing the args of another), the first with the same
 * known bound.
 */
static BoundClause *
find_bound(ColumnBounds *cb, List *args, Oid opno, const UlidBound *b)
{
	int			lo = 0;
	int			hi = cb->nby_args;

	/* The first with these args. */
	while (lo < hi)
	{
		int			mid = lo + (hi - lo) / 2;

		if ((uintptr_t) cb->by_args[mid]->args < (uintptr_t) args)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < cb->nby_args && cb->by_args[lo]->args == args && cb->by_args[lo]->opno == opno)
		return cb->by_args[lo];
	if (!b->known)
		return NULL;

	/* The first with this bound. */
	lo = 0;
	hi = cb->nby_value;
	while (lo < hi)
	{
		int			mid = lo + (hi - lo) / 2;

		if (bound_key_cmp(&cb->by_value[mid]->bound, b) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < cb->nby_value && bound_key_cmp(&cb->by_value[lo]->bound, b) == 0)
		return cb->by_value[lo];
	return NULL;
}

/*
 * The tightest bound of each direction in the group of self (inequalities,
 * range 0, or one "id <@ r"): the smallest selectivity, the first of equals,
 * as clauselist_selectivity keeps the more restrictive of two.
 */
static void
tightest_bounds(PlannerInfo *root, VariableStatData *vardata, ColumnBounds *cb,
				BoundClause *self, BoundClause **lower, BoundClause **upper)
{
	ListCell   *lc;

	*lower = *upper = NULL;
	foreach(lc, cb->groups[self->group])
	{
		BoundClause *bc = lfirst(lc);
		BoundClause **best = bc->bound.is_lower ? lower : upper;

		if (bc->range != self->range)
			continue;
		bound_clause_sel(root, vardata, cb, bc);
		if (*best == NULL || bc->bound.sel < (*best)->bound.sel)
			*best = bc;
	}
}

/*
 * Restriction selectivity of every ulid comparison ("id < x" with x a ulid,
 * a uuid or a time, either way round).  Alone, a bound's own figure.  When
 * the relation's restriction clauses bound the same column from the other
 * side too, this clause and its partner share the window's figure: the more
 * selective end gives its own, the other the window's divided by it, and a
 * looser bound of the same side 1.  So the clauses multiply to the window,
 * each end alone is right for the more selective end, and the planner's
 * index conditions made from these clauses pair the same way.  What the
 * statistics cannot answer (no statistics, the time's side of a
 * comparison) goes to core's estimator.
 */
PG_FUNCTION_INFO_V1(ulid_ineqsel);
Datum
ulid_ineqsel(PG_FUNCTION_ARGS)
{
	PlannerInfo *root = (PlannerInfo *) PG_GETARG_POINTER(0);
	Oid			opno = PG_GETARG_OID(1);
	List	   *args = (List *) PG_GETARG_POINTER(2);
	int			varRelid = PG_GETARG_INT32(3);
	StrategyNumber strategy;
	int			time_arg;
	VariableStatData vardata;
	Node	   *other;
	bool		varonleft;
	UlidBound	b;
	ColumnBounds *cb;
	BoundClause *self = NULL;
	BoundClause *lower;
	BoundClause *upper;
	BoundClause *carrier;
	Selectivity window;
	Selectivity sel;

	CHECK_FOR_INTERRUPTS();
	if (!comparison_of(opno, &strategy, &time_arg))
		PG_RETURN_FLOAT8(DEFAULT_INEQ_SEL);
	if (!get_restriction_variable(root, args, varRelid, &vardata, &other, &varonleft))
		PG_RETURN_FLOAT8(core_ineqsel(strategy, root, opno, args, varRelid, PG_GET_COLLATION()));
	if (!make_bound(strategy, time_arg, varonleft ? 0 : 1, other, &b))
	{
		ReleaseVariableStats(vardata);
		PG_RETURN_FLOAT8(core_ineqsel(strategy, root, opno, args, varRelid, PG_GET_COLLATION()));
	}

	/*
	 * The conjunction this clause is in: the relation's restriction clauses
	 * or an AND arm of an OR among them, found by the clause itself, else
	 * (a clause the planner made) by its bound.
	 */
	cb = column_bounds(root, &vardata, varRelid);
	if (cb != NULL)
		self = find_bound(cb, args, opno, &b);
	if (self != NULL && self->args == args && self->opno == opno)
		sel = bound_clause_sel(root, &vardata, cb, self);
	else if (bound_selectivity(root, &vardata, cb ? &cb->stats : NULL, get_opcode(opno), &b))
		sel = b.sel;
	else
		sel = core_ineqsel(strategy, root, opno, args, varRelid, PG_GET_COLLATION());

	if (self != NULL)
	{
		tightest_bounds(root, &vardata, cb, self, &lower, &upper);
		if (self != lower && self != upper)
			sel = 1.0;			/* a looser bound of the same side */
		else if (lower != NULL && upper != NULL)
		{
			window = window_selectivity(lower->bound.sel, upper->bound.sel,
										nulltestsel(root, IS_NULL, vardata.var,
													varRelid, JOIN_INNER, NULL));
			carrier = lower->bound.sel <= upper->bound.sel ? lower : upper;
			if (self == carrier)
				sel = carrier->bound.sel;
			else if (carrier->bound.sel > 0.0)
				sel = window / carrier->bound.sel;
			else
				sel = 1.0;
		}
	}
	ReleaseVariableStats(vardata);
	CLAMP_PROBABILITY(sel);
	PG_RETURN_FLOAT8(sel);
}

/*
 * Restriction selectivity of "id <@ r" and "r @> id": for a constant range,
 * its two ends' figures (from ulid_ineqsel's reading of the statistics)
 * combined as a window; an unbounded end admits every non-NULL row.  Core's
 * rangesel does not apply (it expects a range on the other side too).
 * Without statistics, or for a range known only at execution,
 * DEFAULT_RANGE_INEQ_SEL (0.005), core's guess for an unknown window.
 */
PG_FUNCTION_INFO_V1(ulid_tstzrange_sel);
Datum
ulid_tstzrange_sel(PG_FUNCTION_ARGS)
{
	PlannerInfo *root = (PlannerInfo *) PG_GETARG_POINTER(0);
	List	   *args = (List *) PG_GETARG_POINTER(2);
	int			varRelid = PG_GETARG_INT32(3);
	VariableStatData vardata;
	Node	   *other;
	bool		varonleft;
	TypeCacheEntry *typcache;
	RangeType  *r;
	UlidBound	end[2];
	bool		infinite[2];
	ColumnBounds *cb;
	Selectivity nullfrac;
	Selectivity sel;

	if (!get_restriction_variable(root, args, varRelid, &vardata, &other, &varonleft))
		PG_RETURN_FLOAT8(DEFAULT_RANGE_INEQ_SEL);
	if (!IsA(other, Const) || exprType(other) != TSTZRANGEOID)
	{
		ReleaseVariableStats(vardata);
		PG_RETURN_FLOAT8(DEFAULT_RANGE_INEQ_SEL);
	}
	if (((Const *) other)->constisnull)
	{
		ReleaseVariableStats(vardata);
		PG_RETURN_FLOAT8(0.0);
	}

	typcache = lookup_type_cache(TSTZRANGEOID, TYPECACHE_RANGE_INFO);
	r = DatumGetRangeTypeP(((Const *) other)->constvalue);
	nullfrac = nulltestsel(root, IS_NULL, vardata.var, varRelid, JOIN_INNER, NULL);
	cb = column_bounds(root, &vardata, varRelid);
	for (int i = 0; i < 2; i++)
	{
		Ulid	   *u = range_bound_ulid(typcache, r, i == 0, &infinite[i]);

		if (u == NULL)
		{
			/* Empty, or no ULID within an end: no row. */
			ReleaseVariableStats(vardata);
			PG_RETURN_FLOAT8(0.0);
		}
		memset(&end[i], 0, sizeof(UlidBound));
		end[i].is_lower = (i == 0);
		end[i].known = true;
		end[i].inclusive = true;
		end[i].value = *u;
		if (infinite[i])
			end[i].sel = 1.0 - nullfrac;
		else if (!bound_selectivity(root, &vardata, cb ? &cb->stats : NULL,
									 get_opcode(PG_GETARG_OID(1)), &end[i]))
		{
			ReleaseVariableStats(vardata);
			PG_RETURN_FLOAT8(DEFAULT_RANGE_INEQ_SEL);
		}
	}
	ReleaseVariableStats(vardata);

	sel = window_selectivity(end[0].sel, end[1].sel, nullfrac);
	PG_RETURN_FLOAT8(sel);
}

/*****************************************************************************
 *	Sort support
 *****************************************************************************/

/*
 * Sort support.  The abbreviated key is the first 8 bytes (the 48-bit time
 * and 16 random bits) as an unsigned integer, so most comparisons in a sort
 * are integer comparisons on the Datum itself and never touch the 16 bytes.
 */
typedef struct UlidSortState
{
	int64		input_count;	/* values abbreviated so far */
	bool		estimating;		/* still counting distinct abbreviations? */
	hyperLogLogState distinct;	/* distinct abbreviated keys seen */
} UlidSortState;

/* The full comparison, for sorts without abbreviation and for ties. */
static int
ulid_fast_cmp(Datum x, Datum y, SortSupport ssup)
{
	(void) ssup;
	return ulid_internal_cmp(DatumGetUlidP(x), DatumGetUlidP(y));
}

/* The abbreviated key: the leading bytes, big-endian, as many as a Datum holds. */
static Datum
ulid_abbrev_convert(Datum original, SortSupport ssup)
{
	UlidSortState *state = (UlidSortState *) ssup->ssup_extra;
	uint64		prefix;
	Datum		key;

	memcpy(&prefix, DatumGetUlidP(original)->data, sizeof(prefix));
	prefix = pg_ntoh64(prefix);
	key = (Datum) (prefix >> (64 - 8 * sizeof(Datum)));

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
		initHyperLogLog(&state->distinct, 10);
		MemoryContextSwitchTo(oldcontext);

		ssup->ssup_extra = state;
		ssup->comparator = ssup_datum_unsigned_cmp;
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
 *	GIN support
 *
 *	One key per row, the ulid itself, the way contrib/btree_gin indexes a
 *	scalar, so that a ulid column can sit in a multi-column GIN index beside
 *	arrays, jsonb or tsvector.  Equality is an exact match; a range operator
 *	is a partial match that walks the sorted keys from where the range
 *	starts (the smallest ULID for < and <=, the bound for >= and >) until
 *	comparePartial says it is over.  The same functions serve the (ulid,
 *	uuid) operators: a uuid query holds the same 16 bytes, in the same order.
 *****************************************************************************/

/* A range query, for comparePartial: its strategy and its bound. */
typedef struct UlidGinQuery
{
	StrategyNumber strategy;
	Ulid		bound;
} UlidGinQuery;

/* The smallest ULID, where a scan for < or <= starts. */
static const Ulid ulid_gin_smallest = {{0}};

/* GIN support function 2: the one key of a row is its value. */
PG_FUNCTION_INFO_V1(ulid_gin_extract_value);
Datum
ulid_gin_extract_value(PG_FUNCTION_ARGS)
{
	int32	   *nentries = (int32 *) PG_GETARG_POINTER(1);
	Datum	   *entries = palloc(sizeof(Datum));

	entries[0] = PG_GETARG_DATUM(0);
	*nentries = 1;
	PG_RETURN_POINTER(entries);
}

/*
 * GIN support function 3: the one key a query looks for, or where its partial
 * match starts.  The query is a ulid or a uuid; only its bytes are read.
 */
PG_FUNCTION_INFO_V1(ulid_gin_extract_query);
Datum
ulid_gin_extract_query(PG_FUNCTION_ARGS)
{
	const Ulid *query = PG_GETARG_ULID_P(0);
	int32	   *nentries = (int32 *) PG_GETARG_POINTER(1);
	StrategyNumber strategy = PG_GETARG_UINT16(2);
	bool	  **partialmatch = (bool **) PG_GETARG_POINTER(3);
	Pointer   **extra_data = (Pointer **) PG_GETARG_POINTER(4);
	UlidGinQuery *q = palloc(sizeof(UlidGinQuery));
	Ulid	   *start = palloc(sizeof(Ulid));
	Datum	   *entries = palloc(sizeof(Datum));

	q->strategy = strategy;
	memcpy(q->bound.data, query->data, ULID_LEN);

	*partialmatch = palloc(sizeof(bool));
	switch (strategy)
	{
		case BTLessStrategyNumber:
		case BTLessEqualStrategyNumber:
			*start = ulid_gin_smallest;
			(*partialmatch)[0] = true;
			break;
		case BTEqualStrategyNumber:
			*start = q->bound;
			(*partialmatch)[0] = false;
			break;
		case BTGreaterEqualStrategyNumber:
		case BTGreaterStrategyNumber:
			*start = q->bound;
			(*partialmatch)[0] = true;
			break;
		default:
			elog(ERROR, "unrecognized strategy number: %d", strategy);
	}

	*extra_data = palloc(sizeof(Pointer));
	(*extra_data)[0] = (Pointer) q;
	entries[0] = PointerGetDatum(start);
	*nentries = 1;
	PG_RETURN_POINTER(entries);
}

/*
 * GIN support function 4: a query has one key and a row one value, so a row
 * matches exactly when it has the key, and needs no recheck.
 */
PG_FUNCTION_INFO_V1(ulid_gin_consistent);
Datum
ulid_gin_consistent(PG_FUNCTION_ARGS)
{
	bool	   *check = (bool *) PG_GETARG_POINTER(0);
	bool	   *recheck = (bool *) PG_GETARG_POINTER(5);

	*recheck = false;
	PG_RETURN_BOOL(check[0]);
}

/*
 * GIN support function 5: whether an index key, met on the walk from the
 * partial match's start, is in the range (0), is not but later keys may be
 * (-1), or ends the walk (1).
 */
PG_FUNCTION_INFO_V1(ulid_gin_compare_partial);
Datum
ulid_gin_compare_partial(PG_FUNCTION_ARGS)
{
	const Ulid *key = PG_GETARG_ULID_P(1);
	const UlidGinQuery *q = (const UlidGinQuery *) PG_GETARG_POINTER(3);
	int			cmp = ulid_internal_cmp(key, &q->bound);

	switch (q->strategy)
	{
		case BTLessStrategyNumber:
			PG_RETURN_INT32(cmp < 0 ? 0 : 1);
		case BTLessEqualStrategyNumber:
			PG_RETURN_INT32(cmp <= 0 ? 0 : 1);
		case BTGreaterEqualStrategyNumber:
			PG_RETURN_INT32(cmp >= 0 ? 0 : -1);
		case BTGreaterStrategyNumber:
			PG_RETURN_INT32(cmp > 0 ? 0 : -1);
		default:
			elog(ERROR, "unrecognized strategy number: %d", q->strategy);
	}
	PG_RETURN_INT32(1);			/* not reached */
}

/*****************************************************************************
 *	GiST support
 *
 *	ulid_gist_ops, in the manner of contrib/btree_gist for fixed-size keys:
 *	each entry's key is the [lower, upper] pair of the ulids under it, a leaf
 *	holding [v, v].  The tree is then a B-tree whose pages may overlap, which
 *	is what an exclusion constraint needs next to a range column.
 *****************************************************************************/

typedef struct UlidGistKey
{
	Ulid		lower;
	Ulid		upper;
} UlidGistKey;

StaticAssertDecl(sizeof(UlidGistKey) == 2 * ULID_LEN,
				 "ulid_gist_key is INTERNALLENGTH 32 in the SQL script");

#define DatumGetUlidGistKeyP(X)	((UlidGistKey *) DatumGetPointer(X))

/* Strategy 6, <>, for exclusion constraints (btree_gist's number). */
#define ULID_GIST_NE_STRATEGY		6
/* Strategy 15, <->, the ordering operator (btree_gist's number). */
#define ULID_GIST_DISTANCE_STRATEGY	15

/* The key type has no text input: it exists only inside the index. */
PG_FUNCTION_INFO_V1(ulid_gist_key_in);
Datum
ulid_gist_key_in(PG_FUNCTION_ARGS)
{
	(void) fcinfo;
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("cannot accept a value of type %s", "ulid_gist_key"),
			 errdetail("It is the key of the ulid GiST operator class, made only by the index.")));
	PG_RETURN_VOID();			/* keep the compiler quiet */
}

/* The two bounds, as "[lower,upper]" (gist_page_items() shows keys so). */
PG_FUNCTION_INFO_V1(ulid_gist_key_out);
Datum
ulid_gist_key_out(PG_FUNCTION_ARGS)
{
	UlidGistKey *key = DatumGetUlidGistKeyP(PG_GETARG_DATUM(0));
	char	   *result = palloc(2 * ULID_TEXT_LEN + 4);
	char	   *p = result;

	*p++ = '[';
	ulid_base32_encode(key->lower.data, p);
	p += ULID_TEXT_LEN;
	*p++ = ',';
	ulid_base32_encode(key->upper.data, p);
	p += ULID_TEXT_LEN;
	*p++ = ']';
	*p = '\0';
	PG_RETURN_CSTRING(result);
}

/* The <-> operator: the milliseconds between the times of two ulids. */
PG_FUNCTION_INFO_V1(ulid_dist);
Datum
ulid_dist(PG_FUNCTION_ARGS)
{
	uint64		a = ulid_get_time(PG_GETARG_ULID_P(0)->data);
	uint64		b = ulid_get_time(PG_GETARG_ULID_P(1)->data);

	PG_RETURN_FLOAT8((float8) (a > b ? a - b : b - a));
}

/*
 * GiST support function 1: can the subtree under this key hold a value v
 * with "v op query"?  On a leaf (lower = upper = v) the answer is exact, so
 * no recheck.
 */
PG_FUNCTION_INFO_V1(ulid_gist_consistent);
Datum
ulid_gist_consistent(PG_FUNCTION_ARGS)
{
	GISTENTRY  *entry = (GISTENTRY *) PG_GETARG_POINTER(0);
	Ulid	   *query = PG_GETARG_ULID_P(1);
	StrategyNumber strategy = (StrategyNumber) PG_GETARG_UINT16(2);
	bool	   *recheck = (bool *) PG_GETARG_POINTER(4);
	UlidGistKey *key = DatumGetUlidGistKeyP(entry->key);
	bool		result;

	*recheck = false;
	switch (strategy)
	{
		case BTLessStrategyNumber:
			result = ulid_internal_cmp(&key->lower, query) < 0;
			break;
		case BTLessEqualStrategyNumber:
			result = ulid_internal_cmp(&key->lower, query) <= 0;
			break;
		case BTEqualStrategyNumber:
			result = ulid_internal_cmp(&key->lower, query) <= 0 &&
				ulid_internal_cmp(&key->upper, query) >= 0;
			break;
		case BTGreaterEqualStrategyNumber:
			result = ulid_internal_cmp(&key->upper, query) >= 0;
			break;
		case BTGreaterStrategyNumber:
			result = ulid_internal_cmp(&key->upper, query) > 0;
			break;
		case ULID_GIST_NE_STRATEGY:
			/* Only a subtree holding nothing but the query itself is out. */
			result = !(ulid_internal_cmp(&key->lower, query) == 0 &&
					   ulid_internal_cmp(&key->upper, query) == 0);
			break;
		default:
			elog(ERROR, "unrecognized strategy number: %d", strategy);
			result = false;		/* keep the compiler quiet */
	}
	PG_RETURN_BOOL(result);
}

/* GiST support function 2: the key covering every key of the vector. */
PG_FUNCTION_INFO_V1(ulid_gist_union);
Datum
ulid_gist_union(PG_FUNCTION_ARGS)
{
	GistEntryVector *entryvec = (GistEntryVector *) PG_GETARG_POINTER(0);
	int		   *size = (int *) PG_GETARG_POINTER(1);
	UlidGistKey *result = palloc(sizeof(UlidGistKey));

	*result = *DatumGetUlidGistKeyP(entryvec->vector[0].key);
	for (int i = 1; i < entryvec->n; i++)
	{
		UlidGistKey *key = DatumGetUlidGistKeyP(entryvec->vector[i].key);

		if (ulid_internal_cmp(&key->lower, &result->lower) < 0)
			result->lower = key->lower;
		if (ulid_internal_cmp(&key->upper, &result->upper) > 0)
			result->upper = key->upper;
	}
	*size = sizeof(UlidGistKey);
	PG_RETURN_POINTER(result);
}

/* GiST support function 3: a leaf's ulid v becomes the key [v, v]. */
PG_FUNCTION_INFO_V1(ulid_gist_compress);
Datum
ulid_gist_compress(PG_FUNCTION_ARGS)
{
	GISTENTRY  *entry = (GISTENTRY *) PG_GETARG_POINTER(0);
	GISTENTRY  *result;
	UlidGistKey *key;

	if (!entry->leafkey)
		PG_RETURN_POINTER(entry);

	key = palloc(sizeof(UlidGistKey));
	key->lower = *DatumGetUlidP(entry->key);
	key->upper = key->lower;
	result = palloc(sizeof(GISTENTRY));
	gistentryinit(*result, PointerGetDatum(key), entry->rel, entry->page,
				  entry->offset, false);
	PG_RETURN_POINTER(result);
}

/*
 * GiST support function 5: the cost of adding a key under an entry, as
 * btree_gist gives it for numbers: how much the entry's range must grow,
 * relative to the grown range, in (0, 1], and 0 if it need not grow.  The
 * lengths are 128-bit differences as doubles (ulid_distance()), and a ratio
 * keeps the result inside a float4 whatever the values.
 */
PG_FUNCTION_INFO_V1(ulid_gist_penalty);
Datum
ulid_gist_penalty(PG_FUNCTION_ARGS)
{
	UlidGistKey *orig = DatumGetUlidGistKeyP(((GISTENTRY *) PG_GETARG_POINTER(0))->key);
	UlidGistKey *add = DatumGetUlidGistKeyP(((GISTENTRY *) PG_GETARG_POINTER(1))->key);
	float	   *penalty = (float *) PG_GETARG_POINTER(2);
	double		growth = 0.0;

	if (ulid_internal_cmp(&add->lower, &orig->lower) < 0)
		growth += ulid_distance(add->lower.data, orig->lower.data);
	if (ulid_internal_cmp(&add->upper, &orig->upper) > 0)
		growth += ulid_distance(orig->upper.data, add->upper.data);

	*penalty = 0.0f;
	if (growth > 0.0)
	{
		double		width = ulid_distance(orig->lower.data, orig->upper.data);

		/* FLT_MIN: any growth at all costs more than none. */
		*penalty = FLT_MIN + (float) (growth / (growth + width));
	}
	PG_RETURN_POINTER(penalty);
}

/* An entry of a page being split, for sorting. */
typedef struct UlidGistSortItem
{
	OffsetNumber offset;
	UlidGistKey *key;
} UlidGistSortItem;

/* Order by lower bound, then upper bound. */
static int
ulid_gist_sort_cmp(const void *a, const void *b)
{
	const UlidGistKey *ka = ((const UlidGistSortItem *) a)->key;
	const UlidGistKey *kb = ((const UlidGistSortItem *) b)->key;
	int			cmp = ulid_internal_cmp(&ka->lower, &kb->lower);

	return cmp != 0 ? cmp : ulid_internal_cmp(&ka->upper, &kb->upper);
}

/* Widen *into to cover key. */
static void
ulid_gist_extend(UlidGistKey *into, const UlidGistKey *key)
{
	if (ulid_internal_cmp(&key->lower, &into->lower) < 0)
		into->lower = key->lower;
	if (ulid_internal_cmp(&key->upper, &into->upper) > 0)
		into->upper = key->upper;
}

/*
 * GiST support function 6: split a full page in two.  One dimension, so the
 * split that keeps the halves apart is the sorted order cut in the middle:
 * the lower half left, the upper half right.
 */
PG_FUNCTION_INFO_V1(ulid_gist_picksplit);
Datum
ulid_gist_picksplit(PG_FUNCTION_ARGS)
{
	GistEntryVector *entryvec = (GistEntryVector *) PG_GETARG_POINTER(0);
	GIST_SPLITVEC *v = (GIST_SPLITVEC *) PG_GETARG_POINTER(1);
	OffsetNumber maxoff = entryvec->n - 1;
	int			nitems = maxoff - FirstOffsetNumber + 1;
	UlidGistSortItem *items = palloc(nitems * sizeof(UlidGistSortItem));
	UlidGistKey *left = palloc(sizeof(UlidGistKey));
	UlidGistKey *right = palloc(sizeof(UlidGistKey));

	for (OffsetNumber i = FirstOffsetNumber; i <= maxoff; i = OffsetNumberNext(i))
	{
		items[i - FirstOffsetNumber].offset = i;
		items[i - FirstOffsetNumber].key = DatumGetUlidGistKeyP(entryvec->vector[i].key);
	}
	qsort(items, nitems, sizeof(UlidGistSortItem), ulid_gist_sort_cmp);

	v->spl_left = palloc(nitems * sizeof(OffsetNumber));
	v->spl_right = palloc(nitems * sizeof(OffsetNumber));
	v->spl_nleft = 0;
	v->spl_nright = 0;
	*left = *items[0].key;
	*right = *items[nitems - 1].key;
	for (int i = 0; i < nitems; i++)
	{
		if (i < nitems / 2)
		{
			v->spl_left[v->spl_nleft++] = items[i].offset;
			ulid_gist_extend(left, items[i].key);
		}
		else
		{
			v->spl_right[v->spl_nright++] = items[i].offset;
			ulid_gist_extend(right, items[i].key);
		}
	}
	v->spl_ldatum = PointerGetDatum(left);
	v->spl_rdatum = PointerGetDatum(right);
	pfree(items);
	PG_RETURN_POINTER(v);
}

/* GiST support function 7: are two keys equal? */
PG_FUNCTION_INFO_V1(ulid_gist_same);
Datum
ulid_gist_same(PG_FUNCTION_ARGS)
{
	UlidGistKey *a = DatumGetUlidGistKeyP(PG_GETARG_DATUM(0));
	UlidGistKey *b = DatumGetUlidGistKeyP(PG_GETARG_DATUM(1));
	bool	   *result = (bool *) PG_GETARG_POINTER(2);

	*result = ulid_internal_cmp(&a->lower, &b->lower) == 0 &&
		ulid_internal_cmp(&a->upper, &b->upper) == 0;
	PG_RETURN_POINTER(result);
}

/*
 * GiST support function 8: the least <-> distance from the query to any
 * value under the key: 0 if the query's millisecond lies between the
 * bounds' milliseconds, else the gap to the nearer bound.  Exact on a leaf.
 */
PG_FUNCTION_INFO_V1(ulid_gist_distance);
Datum
ulid_gist_distance(PG_FUNCTION_ARGS)
{
	GISTENTRY  *entry = (GISTENTRY *) PG_GETARG_POINTER(0);
	uint64		t = ulid_get_time(PG_GETARG_ULID_P(1)->data);
	StrategyNumber strategy = (StrategyNumber) PG_GETARG_UINT16(2);
	UlidGistKey *key = DatumGetUlidGistKeyP(entry->key);
	uint64		lower = ulid_get_time(key->lower.data);
	uint64		upper = ulid_get_time(key->upper.data);

	if (strategy != ULID_GIST_DISTANCE_STRATEGY)
		elog(ERROR, "unrecognized strategy number: %d", strategy);
	if (t < lower)
		PG_RETURN_FLOAT8((float8) (lower - t));
	if (t > upper)
		PG_RETURN_FLOAT8((float8) (t - upper));
	PG_RETURN_FLOAT8(0.0);
}

/* Sorted build: keys in the order of their lower, then upper bounds. */
static int
ulid_gist_key_cmp(Datum a, Datum b, SortSupport ssup)
{
	UlidGistKey *ka = DatumGetUlidGistKeyP(a);
	UlidGistKey *kb = DatumGetUlidGistKeyP(b);
	int			cmp = ulid_internal_cmp(&ka->lower, &kb->lower);

	(void) ssup;
	return cmp != 0 ? cmp : ulid_internal_cmp(&ka->upper, &kb->upper);
}

/*
 * GiST support function 11: CREATE INDEX sorts the leaf keys and packs the
 * pages bottom-up instead of inserting one key at a time: a faster build
 * and full pages, as a B-tree build gives.
 */
PG_FUNCTION_INFO_V1(ulid_gist_sortsupport);
Datum
ulid_gist_sortsupport(PG_FUNCTION_ARGS)
{
	SortSupport ssup = (SortSupport) PG_GETARG_POINTER(0);

	ssup->comparator = ulid_gist_key_cmp;
	PG_RETURN_VOID();
}

/* GiST support function 9: the ulid of a leaf key, for index-only scans. */
PG_FUNCTION_INFO_V1(ulid_gist_fetch);
Datum
ulid_gist_fetch(PG_FUNCTION_ARGS)
{
	GISTENTRY  *entry = (GISTENTRY *) PG_GETARG_POINTER(0);
	GISTENTRY  *result = palloc(sizeof(GISTENTRY));
	Ulid	   *value = palloc(sizeof(Ulid));

	*value = DatumGetUlidGistKeyP(entry->key)->lower;
	gistentryinit(*result, PointerGetDatum(value), entry->rel, entry->page,
				  entry->offset, false);
	PG_RETURN_POINTER(result);
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

/*****************************************************************************
 *	Generators
 *
 *	gen_ulid() and gen_monotonic_ulid(), their UUIDv7-shaped twins
 *	gen_ulid_v7() and gen_monotonic_ulid_v7(), the random pool and the clock
 *	they share, and the shared memory that makes the monotonic ones
 *	cluster-wide when the library is preloaded.
 *****************************************************************************/

/* Random bytes for the generators; ulid_random.h says why a pool. */
static ulid_random_pool random_pool = ULID_RANDOM_POOL_INIT;

/*
 * Copy ULID_RANDOM_BYTES fresh random bytes to dst.  The pid check uses
 * MyProcPid, not getpid(): a system call per ULID would cost more than all
 * the rest of the work.
 */
static inline void
take_random(uint8 *dst)
{
	if (unlikely(!ulid_random_take(&random_pool, MyProcPid, pg_strong_random,
								   dst, ULID_RANDOM_BYTES)))
		ereport(ERROR,
				errcode(ERRCODE_INTERNAL_ERROR),
				errmsg("could not generate random values"));
}

/* The error of a system clock a ulid cannot hold; out of line, as it is cold. */
static pg_noinline void
clock_out_of_range(void)
{
	ereport(ERROR,
			errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
			errmsg("system clock is outside the range of type ulid"),
			errdetail("A ulid holds times from 1970-01-01 00:00:00 UTC to 10889-08-02 05:31:50.655 UTC."),
			errhint("Check the server's system clock."));
}

/*
 * The current Unix time in milliseconds, for the generators.  Straight from
 * gettimeofday(), which PostgreSQL provides on every platform; going through
 * GetCurrentTimestamp() would convert to PostgreSQL's epoch and back on every
 * ULID.  A clock set before 1970 or after the year 10889 is an error, as the
 * same time given to gen_ulid(timestamptz) would be.
 */
static inline uint64
current_ulid_ms(void)
{
	struct timeval tp;
	uint64		ms;

	gettimeofday(&tp, NULL);
	/* the seconds are checked first, so that the multiplication cannot wrap */
	if (unlikely(tp.tv_sec < 0 || (uint64) tp.tv_sec > ULID_TIME_MAX / 1000))
		clock_out_of_range();
	ms = (uint64) tp.tv_sec * 1000 + (uint64) tp.tv_usec / 1000;
	if (unlikely(ms > ULID_TIME_MAX))
		clock_out_of_range();
	return ms;
}

/*
 * The millisecond of a new ULID: the current time, or the one given as the
 * first argument (the timestamptz forms of the generators).
 */
static inline uint64
new_ulid_ms(FunctionCallInfo fcinfo)
{
	return PG_NARGS() > 0 ?
		timestamptz_to_ulid_ms(PG_GETARG_TIMESTAMPTZ(0)) : current_ulid_ms();
}

/* A new ULID of the millisecond new_ulid_ms() gives and 80 fresh random bits. */
static inline Ulid *
new_random_ulid(FunctionCallInfo fcinfo)
{
	Ulid	   *result = palloc(sizeof(Ulid));

	ulid_set_time(result->data, new_ulid_ms(fcinfo));
	take_random(result->data + ULID_TIME_BYTES);
	return result;
}

/*
 * gen_ulid()'s last value in this process, for ulid_packed.h's step.  pid
 * says whose it is: a process forked after a call starts afresh.
 */
static struct
{
	pid_t		pid;
	uint8		last[ULID_LEN];
}			packed_state;

/*
 * A new ULID: gen_ulid() and gen_ulid(timestamptz).  Within one millisecond
 * the values of this process ascend by random increments (ulid_packed.h says
 * why and exactly how); the first of each millisecond is 80 random bits.
 */
PG_FUNCTION_INFO_V1(gen_ulid);
Datum
gen_ulid(PG_FUNCTION_ARGS)
{
	uint64		ms = new_ulid_ms(fcinfo);
	uint8		random[ULID_RANDOM_BYTES];
	Ulid	   *result = palloc(sizeof(Ulid));

	take_random(random);
	(void) ulid_packed_step(packed_state.last, packed_state.pid == MyProcPid,
							ms, random, result->data);
	packed_state.pid = MyProcPid;
	PG_RETURN_ULID_P(result);
}

/*
 * A new UUIDv7-shaped ULID: the time and 80 fresh random bits, with the
 * version and variant bits written over 6 of them (ulid_layout.h has the
 * shape).  Each value is drawn independently: gen_ulid()'s ascending step
 * is not applied to this shape.
 */
PG_FUNCTION_INFO_V1(gen_ulid_v7);
Datum
gen_ulid_v7(PG_FUNCTION_ARGS)
{
	Ulid	   *result = new_random_ulid(fcinfo);

	ulid_set_v7_bits(result->data);
	PG_RETURN_ULID_P(result);
}

/*
 * The last value gen_monotonic_ulid() or gen_monotonic_ulid_v7() returned,
 * in one scope or the other.
 *
 * Each of the two has a state of its own, in both scopes.  A shared one would
 * make each disturb the other: after a plain value whose random bits begin
 * above the version's 0111 (about half do), no UUIDv7-shaped value of that
 * millisecond is greater, so the v7 step would have to move to the next
 * millisecond, stamping values ahead of the clock on every interleaved call;
 * and after a v7 value the plain step would count up from it, its 80 random
 * bits no longer fresh but a v7 value's plus one.  Apart, each sequence is strictly
 * increasing on its own however calls interleave, and the two order against
 * each other by millisecond, as gen_ulid() values do.
 */
typedef struct MonotonicState
{
	bool		have_last;
	uint8		last[ULID_LEN];
} MonotonicState;

/*
 * With the library in shared_preload_libraries the state lives in shared
 * memory and is cluster-wide; otherwise each backend keeps its own.
 *
 * A spinlock guards the shared state.  The critical section is a compare
 * and a 16-byte increment or copy: a few dozen instructions with no call
 * that can fail, block or allocate, which is what spinlocks are for.  An
 * LWLock costs more even uncontended and sleeps where a waiter should spin;
 * atomics cannot update 128 bits at once.  The clock and the random bytes
 * are read before taking the lock.  A backend killed while holding it takes
 * the server through crash restart, which rebuilds shared memory, so the
 * lock cannot be left held.
 */
typedef struct SharedMonotonicState
{
	slock_t		mutex;
	MonotonicState state;
} SharedMonotonicState;

static SharedMonotonicState *shared_monotonic = NULL;
static SharedMonotonicState *shared_monotonic_v7 = NULL;
static MonotonicState backend_monotonic;
static MonotonicState backend_monotonic_v7;

static shmem_startup_hook_type prev_shmem_startup_hook = NULL;
static shmem_request_hook_type prev_shmem_request_hook = NULL;

#if PG_VERSION_NUM < 160000
extern PGDLLEXPORT void _PG_init(void);
#endif

/*
 * Reserve the shared states (from PostgreSQL 15 on, only this hook may).
 * Two structs, each its own allocation and spinlock, so that callers of one
 * generator never wait on callers of the other; ShmemInitStruct() puts each
 * on cache lines of its own.
 */
static void
ulid_shmem_request(void)
{
	if (prev_shmem_request_hook)
		prev_shmem_request_hook();
	RequestAddinShmemSpace(add_size(CACHELINEALIGN(sizeof(SharedMonotonicState)),
									CACHELINEALIGN(sizeof(SharedMonotonicState))));
}

/* Create one shared state, or attach to it. */
static SharedMonotonicState *
shmem_init_monotonic(const char *name)
{
	bool		found;
	SharedMonotonicState *shared;

	shared = ShmemInitStruct(name, sizeof(SharedMonotonicState), &found);
	if (!found)
	{
		SpinLockInit(&shared->mutex);
		shared->state.have_last = false;
	}
	return shared;
}

/* Create the shared states, or attach to them; crash restart creates them anew. */
static void
ulid_shmem_startup(void)
{
	if (prev_shmem_startup_hook)
		prev_shmem_startup_hook();

	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	shared_monotonic = shmem_init_monotonic("ulid monotonic state");
	shared_monotonic_v7 = shmem_init_monotonic("ulid monotonic v7 state");
	LWLockRelease(AddinShmemInitLock);
}

/* Only when preloaded: ask for the shared states that make the monotonic generators cluster-wide. */
void
_PG_init(void)
{
	if (!process_shared_preload_libraries_in_progress)
		return;
	prev_shmem_request_hook = shmem_request_hook;
	shmem_request_hook = ulid_shmem_request;
	prev_shmem_startup_hook = shmem_startup_hook;
	shmem_startup_hook = ulid_shmem_startup;
}

/* Advance state to the next monotonic value of its shape, written to out. */
static inline bool
monotonic_next(MonotonicState *state, uint64 now_ms, const uint8 *random,
			   uint8 *out, bool v7)
{
	bool		ok = ulid_monotonic_step_shaped(state->last, state->have_last,
												now_ms, random, out, v7);

	state->have_last = true;
	return ok;
}

/*
 * The next value of a monotonic generator: in shared, under its spinlock,
 * when preloaded, else in the backend's state.  Inlined into each caller
 * with v7 a constant, so each gets the step of its own shape.
 */
static inline Ulid *
monotonic_generate(SharedMonotonicState *shared, MonotonicState *backend,
				   bool v7)
{
	uint64		now_ms = current_ulid_ms();
	Ulid	   *result = palloc(sizeof(Ulid));
	uint8		random[ULID_RANDOM_BYTES];
	bool		ok;

	take_random(random);
	if (shared != NULL)
	{
		SpinLockAcquire(&shared->mutex);
		ok = monotonic_next(&shared->state, now_ms, random, result->data, v7);
		SpinLockRelease(&shared->mutex);
	}
	else
		ok = monotonic_next(backend, now_ms, random, result->data, v7);

	if (!ok)
		ereport(ERROR,
				errcode(ERRCODE_SEQUENCE_GENERATOR_LIMIT_EXCEEDED),
				errmsg("no ulid is greater than the last one generated"),
				v7 ?
				errdetail("The last UUIDv7-shaped ulid generated is the largest value of that shape.") :
				errdetail("The last ulid generated is the largest possible value."));
	return result;
}

/*
 * A new ULID strictly greater than every earlier one in its scope (the
 * cluster when preloaded, else this backend); ulid_monotonic_step() has the
 * rules.
 */
PG_FUNCTION_INFO_V1(gen_monotonic_ulid);
Datum
gen_monotonic_ulid(PG_FUNCTION_ARGS)
{
	(void) fcinfo;				/* takes no arguments */
	PG_RETURN_ULID_P(monotonic_generate(shared_monotonic, &backend_monotonic,
										false));
}

/*
 * A new UUIDv7-shaped ULID strictly greater than every earlier one of
 * gen_monotonic_ulid_v7() in its scope, which is gen_monotonic_ulid()'s;
 * ulid_monotonic_step_shaped() has the rules.
 */
PG_FUNCTION_INFO_V1(gen_monotonic_ulid_v7);
Datum
gen_monotonic_ulid_v7(PG_FUNCTION_ARGS)
{
	(void) fcinfo;				/* takes no arguments */
	PG_RETURN_ULID_P(monotonic_generate(shared_monotonic_v7,
										&backend_monotonic_v7, true));
}

/* 'cluster' or 'backend': where the monotonic generators keep their last values. */
PG_FUNCTION_INFO_V1(ulid_monotonic_scope);
Datum
ulid_monotonic_scope(PG_FUNCTION_ARGS)
{
	(void) fcinfo;				/* takes no arguments */
	PG_RETURN_TEXT_P(cstring_to_text(shared_monotonic != NULL ? "cluster" : "backend"));
}

/*****************************************************************************
 *	Converting uuid columns
 *
 *	ulid_convert_column() turns a uuid column into a ulid column in place and
 *	replaces a default that generates uuids with gen_ulid().  The event
 *	trigger function ulid_check_defaults() warns when DDL leaves a ulid
 *	column whose default is such a generator cast to ulid, which is what a
 *	plain ALTER COLUMN ... TYPE ulid does to DEFAULT gen_random_uuid().
 *****************************************************************************/

/* Whether roleid owns a relation (object_ownercheck() from 16 on). */
#if PG_VERSION_NUM < 160000
#define relation_ownercheck(relid, roleid) pg_class_ownercheck(relid, roleid)
#else
#define relation_ownercheck(relid, roleid) object_ownercheck(RelationRelationId, relid, roleid)
#endif

/* What becomes of a default of type uuid when its column becomes ulid. */
typedef enum UuidDefaultKind
{
	UUID_DEFAULT_NONE,			/* no default */
	UUID_DEFAULT_KEEP,			/* right as a ulid too: converted with the
								 * column */
	UUID_DEFAULT_UNCAST,		/* a ulid expression cast to uuid: becomes
								 * that expression, its cast dropped */
	UUID_DEFAULT_GENERATOR,		/* a uuid generator: becomes gen_ulid() */
	UUID_DEFAULT_UNKNOWN		/* volatile, and no generator we know */
} UuidDefaultKind;

/* Whether funcid is core's uuidv7() (PostgreSQL 18 on), either form. */
static bool
is_core_uuidv7(Oid funcid)
{
	char	   *name;

	if (get_func_namespace(funcid) != PG_CATALOG_NAMESPACE)
		return false;
	name = get_func_name(funcid);
	return name != NULL && strcmp(name, "uuidv7") == 0;
}

/*
 * Whether funcid is a uuid generator whose values mean nothing as a time:
 * core's gen_random_uuid() and uuidv4() (18 on), uuid-ossp's
 * uuid_generate_v1(), _v1mc() and _v4().  A function of one's own is not
 * guessed at: it may hand out ids from somewhere that gen_ulid() does not.
 */
static bool
is_known_uuid_generator(Oid funcid)
{
	char	   *name = get_func_name(funcid);
	Oid			ossp;

	if (name == NULL)
		return false;
	if (get_func_namespace(funcid) == PG_CATALOG_NAMESPACE)
		return strcmp(name, "gen_random_uuid") == 0 || strcmp(name, "uuidv4") == 0;
	if (strcmp(name, "uuid_generate_v1") != 0 && strcmp(name, "uuid_generate_v1mc") != 0 &&
		strcmp(name, "uuid_generate_v4") != 0)
		return false;
	ossp = get_extension_oid("uuid-ossp", true);
	return OidIsValid(ossp) && getExtensionOfObject(ProcedureRelationId, funcid) == ossp;
}

/*
 * The expression of type ulid under the binary casts of expr (a uuid
 * default "gen_ulid()::uuid", RelabelTypes), or NULL.
 */
static Node *
ulid_under_cast(Node *expr, Oid ulid_type)
{
	while (OidIsValid(ulid_type) && expr != NULL && IsA(expr, RelabelType))
	{
		expr = (Node *) ((RelabelType *) expr)->arg;
		if (exprType(expr) == ulid_type)
			return expr;
	}
	return NULL;
}

/*
 * Classify a default expression of type uuid.  A known uuid generator
 * (is_known_uuid_generator()) makes values whose time means nothing once
 * cast to ulid, so it must become gen_ulid().  Kept as they are: core's
 * uuidv7(), whose first 48 bits are the Unix millisecond, so its values are
 * ULIDs of the right time (and stay valid UUIDv7), monotonic in a session as
 * before; a ulid expression cast to uuid (a uuid column defaulting to
 * gen_ulid() or gen_ulid_v7(), whose cast the conversion drops); and a
 * default that is not volatile (a constant), which gives the same bytes.
 * Anything else volatile, one's own generator included, is not guessed at.
 */
static UuidDefaultKind
classify_uuid_default(Node *expr, Oid ulid_type)
{
	FuncExpr   *call = expr != NULL && IsA(expr, FuncExpr) ? (FuncExpr *) expr : NULL;

	if (expr == NULL)
		return UUID_DEFAULT_NONE;
	if (ulid_under_cast(expr, ulid_type) != NULL)
		return UUID_DEFAULT_UNCAST;
	if (call != NULL && is_core_uuidv7(call->funcid))
		return UUID_DEFAULT_KEEP;
	if (!contain_volatile_functions(expr))
		return UUID_DEFAULT_KEEP;
	if (call != NULL && call->args == NIL && is_known_uuid_generator(call->funcid))
		return UUID_DEFAULT_GENERATOR;
	return UUID_DEFAULT_UNKNOWN;
}

/*
 * The expression of type uuid that a ulid default casts, or NULL.  The
 * binary cast is a RelabelType: implicit when ALTER COLUMN TYPE converted
 * the default or when a uuid expression was given as the default, explicit
 * when written (gen_random_uuid()::ulid).
 */
static Node *
uuid_under_cast(Node *expr)
{
	while (expr != NULL && IsA(expr, RelabelType))
	{
		expr = (Node *) ((RelabelType *) expr)->arg;
		if (exprType(expr) == UUIDOID)
			return expr;
	}
	return NULL;
}

/* The default expression of column attnum of rel, or NULL. */
static Node *
column_default(Relation rel, AttrNumber attnum)
{
	TupleConstr *constr = RelationGetDescr(rel)->constr;

	if (constr == NULL)
		return NULL;
	for (int i = 0; i < constr->num_defval; i++)
		if (constr->defval[i].adnum == attnum)
			return stringToNode(constr->defval[i].adbin);
	return NULL;
}

/* An expression of a column default of rel as pg_get_expr() shows it, or NULL. */
static char *
default_text(Relation rel, Node *expr)
{
	if (expr == NULL)
		return NULL;
	return deparse_expression(expr,
							  deparse_context_for(RelationGetRelationName(rel),
												  RelationGetRelid(rel)),
							  false, false);
}

/* The name of a relation, schema-qualified and quoted, for a statement. */
static char *
qualified_relation_name(Oid relid)
{
	return quote_qualified_identifier(get_namespace_name(get_rel_namespace(relid)),
									  get_rel_name(relid));
}

/* Run one ALTER TABLE through SPI. */
static void
run_alter(const char *sql)
{
	int			rc = SPI_execute(sql, false, 0);

	if (rc != SPI_OK_UTILITY)
		elog(ERROR, "SPI_execute failed for \"%s\": %s", sql, SPI_result_code_string(rc));
}

/* The ulid type of the extension that holds function fn_oid (relocatable). */
static Oid
extension_ulid_type(Oid fn_oid)
{
	return GetSysCacheOid2(TYPENAMENSP, Anum_pg_type_oid, CStringGetDatum("ulid"),
						   ObjectIdGetDatum(get_func_namespace(fn_oid)));
}

/*
 * The BRIN indexes of the tables being converted (relids, parents first)
 * that index column col with a class of core's for uuid that has a ulid
 * counterpart: uuid_bloom_ops and uuid_minmax_multi_ops.  ALTER COLUMN TYPE
 * would rebuild them with the same uuid class (it names a class that is not
 * the type's default, and the ulid column is binary-coercible to uuid), and
 * then neither id = '...'::ulid nor id = '...'::uuid could use them.  So
 * they are dropped before the ALTER and made again after it, each as it
 * was (name, columns, options, predicate, tablespace, comment; a partitioned
 * index made ON ONLY its table, its partitions' indexes attached again)
 * with the ulid class; the repair of a column already ulid does the same
 * without the ALTER.  An index attached to one of a table outside relids
 * (the repair of a partition alone) is left as it is.  The default classes
 * (B-tree, hash, BRIN minmax, btree_gist's and btree_gin's) need none of
 * this: the ALTER picks ulid's.  One row per index, the indexes of the
 * deepest tables first.  Read-write SPI, so that a second conversion in the
 * same statement sees the first's indexes.
 */
static const char *const convert_index_query =
	"WITH tables AS (\n"
	"	SELECT relid, pos FROM unnest($1::pg_catalog.oid[]) WITH ORDINALITY t(relid, pos)),\n"
	"keys AS (\n"
	"	SELECT i.indexrelid, i.indrelid, k.n, k.attnum, k.opclass, k.coll\n"
	"	FROM pg_catalog.pg_index i JOIN tables t ON t.relid = i.indrelid,\n"
	"		unnest(i.indkey::pg_catalog.int2[], i.indclass::pg_catalog.oid[],\n"
	"			   i.indcollation::pg_catalog.oid[]) WITH ORDINALITY k(attnum, opclass, coll, n)\n"
	"	WHERE k.n <= i.indnkeyatts),\n"
	"mapped AS (\n"
	"	SELECT k.indexrelid, k.n, m.ulid_class\n"
	"	FROM keys k\n"
	"	JOIN pg_catalog.pg_attribute a ON a.attrelid = k.indrelid AND a.attnum = k.attnum AND a.attname = $2\n"
	"	JOIN pg_catalog.pg_opclass oc ON oc.oid = k.opclass\n"
	"		AND oc.opcnamespace = 'pg_catalog'::pg_catalog.regnamespace\n"
	"	JOIN pg_catalog.pg_am am ON am.oid = oc.opcmethod AND am.amname = 'brin'\n"
	"	JOIN (VALUES ('uuid_bloom_ops', 'ulid_bloom_ops'),\n"
	"				 ('uuid_minmax_multi_ops', 'ulid_minmax_multi_ops')) m(uuid_class, ulid_class)\n"
	"		ON m.uuid_class = oc.opcname)\n"
	"SELECT c.oid AS index, c.relkind = 'I' AS partitioned,\n"
	"	pg_catalog.format('%I.%I', ns.nspname, c.relname) AS name,\n"
	"	EXISTS (SELECT FROM pg_catalog.pg_inherits h WHERE h.inhrelid = c.oid) AS attached,\n"
	"	pg_catalog.format('CREATE INDEX %I ON %s%I.%I USING %I (%s)%s%s%s',\n"
	"		c.relname, CASE WHEN c.relkind = 'I' THEN 'ONLY ' ELSE '' END, tns.nspname, t.relname, am.amname,\n"
	"		(SELECT pg_catalog.string_agg(\n"
	"			CASE WHEN k.attnum = 0 THEN '(' || pg_catalog.pg_get_indexdef(k.indexrelid, k.n::int, false) || ')'\n"
	"				 ELSE pg_catalog.quote_ident(ta.attname) END\n"
	"			|| CASE WHEN k.coll <> 0 THEN ' COLLATE ' || pg_catalog.format('%I.%I', cns.nspname, co.collname) ELSE '' END\n"
	"			|| ' ' || CASE WHEN m.ulid_class IS NOT NULL THEN pg_catalog.format('%I.%I', $3, m.ulid_class)\n"
	"						   ELSE pg_catalog.format('%I.%I', ons.nspname, oc.opcname) END\n"
	"			|| COALESCE((SELECT '(' || pg_catalog.string_agg(pg_catalog.format('%I = %L',\n"
	"							pg_catalog.split_part(o, '=', 1), pg_catalog.substr(o, pg_catalog.strpos(o, '=') + 1)), ', ') || ')'\n"
	"						 FROM pg_catalog.unnest(ia.attoptions) o), ''),\n"
	"			', ' ORDER BY k.n)\n"
	"		 FROM keys k\n"
	"		 JOIN pg_catalog.pg_opclass oc ON oc.oid = k.opclass\n"
	"		 JOIN pg_catalog.pg_namespace ons ON ons.oid = oc.opcnamespace\n"
	"		 JOIN pg_catalog.pg_attribute ia ON ia.attrelid = k.indexrelid AND ia.attnum = k.n\n"
	"		 LEFT JOIN pg_catalog.pg_attribute ta ON ta.attrelid = k.indrelid AND ta.attnum = k.attnum\n"
	"		 LEFT JOIN pg_catalog.pg_collation co ON co.oid = k.coll\n"
	"		 LEFT JOIN pg_catalog.pg_namespace cns ON cns.oid = co.collnamespace\n"
	"		 LEFT JOIN mapped m ON m.indexrelid = k.indexrelid AND m.n = k.n\n"
	"		 WHERE k.indexrelid = c.oid),\n"
	"		COALESCE(' WITH (' || (SELECT pg_catalog.string_agg(pg_catalog.format('%I = %L',\n"
	"					pg_catalog.split_part(o, '=', 1), pg_catalog.substr(o, pg_catalog.strpos(o, '=') + 1)), ', ')\n"
	"				 FROM pg_catalog.unnest(c.reloptions) o) || ')', ''),\n"
	"		CASE WHEN c.reltablespace <> 0\n"
	"			 THEN ' TABLESPACE ' || pg_catalog.quote_ident((SELECT spcname FROM pg_catalog.pg_tablespace WHERE oid = c.reltablespace))\n"
	"			 ELSE '' END,\n"
	"		COALESCE(' WHERE ' || pg_catalog.pg_get_expr(i.indpred, i.indrelid), '')) AS definition,\n"
	"	pg_catalog.obj_description(c.oid, 'pg_class') AS comment,\n"
	"	ARRAY(SELECT pg_catalog.format('%I.%I', hns.nspname, hc.relname)\n"
	"		  FROM pg_catalog.pg_inherits h JOIN pg_catalog.pg_class hc ON hc.oid = h.inhrelid\n"
	"		  JOIN pg_catalog.pg_namespace hns ON hns.oid = hc.relnamespace\n"
	"		  WHERE h.inhparent = c.oid) AS children\n"
	"FROM (SELECT DISTINCT indexrelid FROM mapped) x\n"
	"JOIN pg_catalog.pg_index i ON i.indexrelid = x.indexrelid\n"
	"JOIN pg_catalog.pg_class c ON c.oid = i.indexrelid\n"
	"JOIN pg_catalog.pg_namespace ns ON ns.oid = c.relnamespace\n"
	"JOIN pg_catalog.pg_class t ON t.oid = i.indrelid\n"
	"JOIN pg_catalog.pg_namespace tns ON tns.oid = t.relnamespace\n"
	"JOIN pg_catalog.pg_am am ON am.oid = c.relam\n"
	"JOIN tables tb ON tb.relid = i.indrelid\n"
	"WHERE (SELECT r.indrelid FROM pg_catalog.pg_index r\n"
	"       WHERE r.indexrelid = COALESCE(pg_catalog.pg_partition_root(c.oid), c.oid))\n"
	"      IN (SELECT relid FROM tables)\n"
	"ORDER BY tb.pos DESC, c.oid\n";

/* One index that the conversion makes again with ulid's classes. */
typedef struct ConvertIndex
{
	char	   *name;			/* schema-qualified, quoted */
	bool		partitioned;
	bool		attached;		/* to a partitioned index: dropped with it */
	char	   *definition;
	char	   *comment;		/* or NULL */
	Datum		children;		/* text[]: the partitions' indexes to attach */
} ConvertIndex;

/* The indexes to make again, from convert_index_query; under SPI. */
static ConvertIndex *
convert_indexes(List *relids, const char *col, const char *ext_schema_name, int *n)
{
	Datum	   *oids = palloc(sizeof(Datum) * list_length(relids));
	Oid			argtypes[3] = {OIDARRAYOID, NAMEOID, TEXTOID};
	Datum		args[3];
	NameData	colname;
	ConvertIndex *result;
	int			i = 0;
	ListCell   *lc;

	foreach(lc, relids)
		oids[i++] = ObjectIdGetDatum(lfirst_oid(lc));
	namestrcpy(&colname, col);
	args[0] = PointerGetDatum(construct_array(oids, list_length(relids), OIDOID,
											  sizeof(Oid), true, TYPALIGN_INT));
	args[1] = NameGetDatum(&colname);
	args[2] = CStringGetTextDatum(ext_schema_name);
	if (SPI_execute_with_args(convert_index_query, 3, argtypes, args, NULL, false, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not read the indexes of column \"%s\"", col);
	*n = (int) SPI_processed;
	result = palloc0(sizeof(ConvertIndex) * Max(*n, 1));
	for (i = 0; i < *n; i++)
	{
		HeapTuple	tuple = SPI_tuptable->vals[i];
		TupleDesc	desc = SPI_tuptable->tupdesc;
		bool		isnull;

		result[i].name = SPI_getvalue(tuple, desc, 3);
		result[i].partitioned = DatumGetBool(SPI_getbinval(tuple, desc, 2, &isnull));
		result[i].attached = DatumGetBool(SPI_getbinval(tuple, desc, 4, &isnull));
		result[i].definition = SPI_getvalue(tuple, desc, 5);
		result[i].comment = SPI_getvalue(tuple, desc, 6);
		result[i].children = SPI_getbinval(tuple, desc, 7, &isnull);
	}
	return result;
}

/*
 * Make the indexes again after the ALTER, children before their parents,
 * with default_tablespace empty: an index without a TABLESPACE clause goes
 * where it was, the database's default, whatever the session's setting.
 */
static void
remake_indexes(ConvertIndex *indexes, int n)
{
	int			nestlevel = NewGUCNestLevel();

	(void) set_config_option("default_tablespace", "", PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_SAVE, true, 0, false);
	for (int i = 0; i < n; i++)
	{
		run_alter(indexes[i].definition);
		if (indexes[i].comment != NULL)
			run_alter(psprintf("COMMENT ON INDEX %s IS %s", indexes[i].name,
							   quote_literal_cstr(indexes[i].comment)));
		if (indexes[i].partitioned)
		{
			ArrayType  *children = DatumGetArrayTypeP(indexes[i].children);
			Datum	   *names;
			int			nchildren;

			deconstruct_array(children, TEXTOID, -1, false, TYPALIGN_INT,
							  &names, NULL, &nchildren);
			for (int c = 0; c < nchildren; c++)
				run_alter(psprintf("ALTER INDEX %s ATTACH PARTITION %s", indexes[i].name,
								   TextDatumGetCString(names[c])));
		}
	}
	AtEOXact_GUC(true, nestlevel);
}

/* One table a conversion changes: the named one and each inheriting one. */
typedef struct ConvertTarget
{
	Oid			relid;
	UuidDefaultKind kind;
	char	   *old_default;	/* as pg_get_expr() shows it, or NULL */
	char	   *uncast_default; /* UUID_DEFAULT_UNCAST: the ulid expression */
} ConvertTarget;

/*
 * ulid_convert_column(tab, col): convert column col of table tab from uuid to
 * ulid in place, in the caller's transaction, and replace a default that
 * generates uuids with gen_ulid().  The ALTER TABLE converts the inheriting
 * tables (partitions) too, so each of their defaults is treated the same
 * way.  A column already of type ulid gets only its default replaced: the
 * repair after a plain ALTER COLUMN TYPE.  One row per table: the table, its
 * default before and after.
 *
 * Ownership is checked first, with ALTER TABLE's error, so that no one else
 * waits for a lock; every other check runs under the lock the ALTER takes,
 * before anything changes, and refuses what it cannot do safely: the
 * statements then run with quoted, schema-qualified names.
 */
PG_FUNCTION_INFO_V1(ulid_convert_column);
Datum
ulid_convert_column(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);
	char	   *col = NameStr(*PG_GETARG_NAME(1));
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	Oid			ext_schema = get_func_namespace(fcinfo->flinfo->fn_oid);
	Oid			ulid_type = extension_ulid_type(fcinfo->flinfo->fn_oid);
	char		relkind = get_rel_relkind(relid);
	Relation	rel;
	AttrNumber	attnum;
	Form_pg_attribute att;
	bool		already_ulid;
	List	   *tree;
	ConvertTarget *targets;
	int			ntargets = 0;
	ListCell   *lc;
	const char *qcol = quote_identifier(col);

	InitMaterializedSRF(fcinfo, 0);

	/*
	 * Ownership first, as ALTER TABLE checks it, before taking a lock that
	 * would make others wait; then the lock ALTER COLUMN TYPE takes.
	 */
	if (relkind == '\0')
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_TABLE),
				errmsg("relation with OID %u does not exist", relid));
	if (!relation_ownercheck(relid, GetUserId()))
		aclcheck_error(ACLCHECK_NOT_OWNER, get_relkind_objtype(relkind),
					   get_rel_name(relid));
	LockRelationOid(relid, AccessExclusiveLock);
	rel = try_relation_open(relid, NoLock);
	if (rel == NULL)
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_TABLE),
				errmsg("relation with OID %u does not exist", relid));

	relkind = rel->rd_rel->relkind;
	if (relkind == RELKIND_FOREIGN_TABLE)
		ereport(ERROR,
				errcode(ERRCODE_WRONG_OBJECT_TYPE),
				errmsg("cannot convert a column of foreign table \"%s\"",
					   RelationGetRelationName(rel)),
				errdetail("Only the local declaration would change; the remote column would stay uuid."),
				errhint("Convert the remote column, then change the declaration with ALTER FOREIGN TABLE."));
	if (relkind != RELKIND_RELATION && relkind != RELKIND_PARTITIONED_TABLE)
		ereport(ERROR,
				errcode(ERRCODE_WRONG_OBJECT_TYPE),
				errmsg("\"%s\" is not a table", RelationGetRelationName(rel)));

	attnum = get_attnum(relid, col);
	if (attnum == InvalidAttrNumber)
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_COLUMN),
				errmsg("column \"%s\" of relation \"%s\" does not exist",
					   col, RelationGetRelationName(rel)));
	if (attnum < 0)
		ereport(ERROR,
				errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				errmsg("cannot alter system column \"%s\"", col));
	att = TupleDescAttr(RelationGetDescr(rel), attnum - 1);

	if (att->attgenerated != '\0')
		ereport(ERROR,
				errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				errmsg("cannot convert generated column \"%s\"", col),
				errdetail("A generated column has no default to replace."),
				errhint("ALTER TABLE ... ALTER COLUMN ... TYPE ulid converts it with its expression."));

	/*
	 * uuid, or ulid already (then only the default is replaced).  No identity
	 * column is of either type: identity needs an integer.  A domain over
	 * uuid is refused: its constraints would not follow the column to ulid.
	 */
	already_ulid = OidIsValid(ulid_type) && att->atttypid == ulid_type;
	if (att->atttypid != UUIDOID && !already_ulid)
		ereport(ERROR,
				errcode(ERRCODE_DATATYPE_MISMATCH),
				errmsg("column \"%s\" of relation \"%s\" is of type %s, not uuid",
					   col, RelationGetRelationName(rel), format_type_be(att->atttypid)),
				getBaseType(att->atttypid) == UUIDOID ?
				errdetail("A domain's constraints would not apply to the column once it is of type ulid.") : 0);
	/*
	 * A partition's or child's column changes type with its parent's: ALTER
	 * TABLE refuses it alone, and so does this, naming the table to convert.
	 * Already ulid, its own default (and its partitions') can be replaced.
	 */
	if (att->attinhcount > 0 && !already_ulid)
	{
		if (rel->rd_rel->relispartition)
			ereport(ERROR,
					errcode(ERRCODE_INVALID_TABLE_DEFINITION),
					errmsg("cannot convert inherited column \"%s\"", col),
					errhint("Convert the column of partitioned table \"%s\" instead: that converts every partition.",
							get_rel_name(llast_oid(get_partition_ancestors(relid)))));
		ereport(ERROR,
				errcode(ERRCODE_INVALID_TABLE_DEFINITION),
				errmsg("cannot convert inherited column \"%s\"", col),
				errhint("Convert the column of the table it inherits from instead: that converts every inheriting table."));
	}
	relation_close(rel, NoLock);

	/*
	 * The tables ALTER TABLE would change, each locked as it locks them: this
	 * one first, then every table inheriting from it.  Each default is
	 * classified before anything changes.
	 */
	tree = find_all_inheritors(relid, AccessExclusiveLock, NULL);
	targets = palloc0(sizeof(ConvertTarget) * list_length(tree));
	foreach(lc, tree)
	{
		ConvertTarget *t = &targets[ntargets++];
		Relation	r = relation_open(lfirst_oid(lc), NoLock);
		Node	   *expr = column_default(r, get_attnum(RelationGetRelid(r), col));
		Node	   *uuid_expr = already_ulid ? uuid_under_cast(expr) : expr;

		if (r->rd_rel->relkind == RELKIND_FOREIGN_TABLE)
			ereport(ERROR,
					errcode(ERRCODE_WRONG_OBJECT_TYPE),
					errmsg("cannot convert a column of foreign table \"%s\"",
						   RelationGetRelationName(r)),
					errdetail("It inherits column \"%s\" from \"%s\"; only its local declaration would change.",
							  col, get_rel_name(relid)));
		t->relid = RelationGetRelid(r);
		t->old_default = default_text(r, expr);
		/* a ulid default that casts no uuid is the column's own: kept */
		t->kind = expr == NULL ? UUID_DEFAULT_NONE :
			uuid_expr == NULL ? UUID_DEFAULT_KEEP : classify_uuid_default(uuid_expr, ulid_type);
		if (t->kind == UUID_DEFAULT_UNCAST)
			t->uncast_default = default_text(r, ulid_under_cast(uuid_expr, ulid_type));
		if (t->kind == UUID_DEFAULT_UNKNOWN)
			ereport(ERROR,
					errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					errmsg("cannot convert the default of column \"%s\" of relation \"%s\"",
						   col, RelationGetRelationName(r)),
					errdetail("The default %s is volatile and is not a uuid generator this function knows (gen_random_uuid(), uuidv4(), uuid-ossp's uuid_generate_v1(), _v1mc(), _v4()).",
							  t->old_default),
					errhint("Drop the default, convert the column, then set the default it should have, such as gen_ulid()."));
		relation_close(r, NoLock);
	}

	/*
	 * Drop the generators first, so that no statement leaves a uuid
	 * generator on a ulid column (and the event trigger has nothing to warn
	 * about); convert (recursing, as it must); set gen_ulid().
	 */
	SPI_connect();
	for (int i = 0; i < ntargets && !already_ulid; i++)
		if (targets[i].kind == UUID_DEFAULT_GENERATOR)
			run_alter(psprintf("ALTER TABLE ONLY %s ALTER COLUMN %s DROP DEFAULT",
							   qualified_relation_name(targets[i].relid), qcol));
	{
		int			nindexes;
		ConvertIndex *indexes = convert_indexes(tree, col, get_namespace_name(ext_schema),
												&nindexes);

		for (int i = 0; i < nindexes; i++)
			if (!indexes[i].attached)
				run_alter(psprintf("DROP INDEX %s", indexes[i].name));
		if (!already_ulid)
			run_alter(psprintf("ALTER TABLE %s ALTER COLUMN %s TYPE %s",
							   qualified_relation_name(relid), qcol,
							   quote_qualified_identifier(get_namespace_name(ext_schema), "ulid")));
		remake_indexes(indexes, nindexes);
	}
	for (int i = 0; i < ntargets; i++)
	{
		if (targets[i].kind == UUID_DEFAULT_GENERATOR)
			run_alter(psprintf("ALTER TABLE ONLY %s ALTER COLUMN %s SET DEFAULT %s()",
							   qualified_relation_name(targets[i].relid), qcol,
							   quote_qualified_identifier(get_namespace_name(ext_schema),
														  "gen_ulid")));
		else if (targets[i].kind == UUID_DEFAULT_UNCAST)
			run_alter(psprintf("ALTER TABLE ONLY %s ALTER COLUMN %s SET DEFAULT %s",
							   qualified_relation_name(targets[i].relid), qcol,
							   targets[i].uncast_default));
	}
	SPI_finish();

	for (int i = 0; i < ntargets; i++)
	{
		Relation	r = relation_open(targets[i].relid, NoLock);
		char	   *new_default = default_text(r, column_default(r, get_attnum(targets[i].relid, col)));
		Datum		values[3];
		bool		nulls[3] = {false, targets[i].old_default == NULL, new_default == NULL};

		values[0] = ObjectIdGetDatum(targets[i].relid);
		values[1] = nulls[1] ? (Datum) 0 : CStringGetTextDatum(targets[i].old_default);
		values[2] = nulls[2] ? (Datum) 0 : CStringGetTextDatum(new_default);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
		relation_close(r, NoLock);
	}
	return (Datum) 0;
}

/*
 * Whether a statement can leave a column with a new default: CREATE TABLE
 * (any column), or ALTER TABLE adding a column, setting a default or changing
 * a type (those columns, added to *columns).  Most ALTER TABLEs (constraints,
 * owners, storage), and so most of what a restore runs, stop here.
 */
static bool
statement_sets_defaults(Node *parsetree, List **columns)
{
	ListCell   *lc;

	*columns = NIL;
	/*
	 * Any CREATE TABLE: by ddl_command_end its statement no longer shows
	 * whether a LIKE copied defaults (the parse tree has been transformed in
	 * place on some majors), so it is not used to skip the check.
	 */
	if (IsA(parsetree, CreateStmt) || IsA(parsetree, CreateForeignTableStmt))
		return true;
	if (!IsA(parsetree, AlterTableStmt))
		return false;
	foreach(lc, ((AlterTableStmt *) parsetree)->cmds)
	{
		AlterTableCmd *cmd = lfirst_node(AlterTableCmd, lc);

		if (cmd->subtype == AT_AddColumn)
			*columns = lappend(*columns, ((ColumnDef *) cmd->def)->colname);
		else if (cmd->subtype == AT_ColumnDefault || cmd->subtype == AT_AlterColumnType)
			*columns = lappend(*columns, cmd->name);
	}
	return *columns != NIL;
}

/*
 * Warn about each ulid column, of the tables the command created or altered,
 * whose default is a uuid generator cast to ulid.  columns, if not NIL,
 * limits the check to the columns the statement named.
 */
static void
warn_uuid_defaults(Oid ulid_type, List *columns)
{
	List	   *relids = NIL;
	ListCell   *lc;

	SPI_connect();
	if (SPI_execute("SELECT classid, objid FROM pg_catalog.pg_event_trigger_ddl_commands()",
					false, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not read pg_event_trigger_ddl_commands()");
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		bool		isnull;
		Oid			classid = DatumGetObjectId(SPI_getbinval(SPI_tuptable->vals[i],
															 SPI_tuptable->tupdesc, 1, &isnull));
		Oid			objid = DatumGetObjectId(SPI_getbinval(SPI_tuptable->vals[i],
														   SPI_tuptable->tupdesc, 2, &isnull));
		char		relkind = classid == RelationRelationId ? get_rel_relkind(objid) : '\0';

		if (relkind == RELKIND_RELATION || relkind == RELKIND_PARTITIONED_TABLE ||
			relkind == RELKIND_FOREIGN_TABLE)
			relids = list_append_unique_oid(relids, objid);
	}

	/* The command holds a lock on each: AccessShareLock does not wait. */
	foreach(lc, relids)
	{
		Relation	rel = relation_open(lfirst_oid(lc), AccessShareLock);
		TupleDesc	desc = RelationGetDescr(rel);

		for (int i = 0; i < desc->natts; i++)
		{
			Form_pg_attribute att = TupleDescAttr(desc, i);
			const char *name = NameStr(att->attname);
			Node	   *uuid_expr;
			UuidDefaultKind kind;
			ListCell   *c;
			bool		named = columns == NIL;
			char	   *table;

			if (att->attisdropped || att->atttypid != ulid_type || !att->atthasdef)
				continue;
			foreach(c, columns)
				named |= strcmp(lfirst(c), name) == 0;
			if (!named)
				continue;
			uuid_expr = uuid_under_cast(column_default(rel, att->attnum));
			if (uuid_expr == NULL)
				continue;
			kind = classify_uuid_default(uuid_expr, ulid_type);
			if (kind == UUID_DEFAULT_KEEP || kind == UUID_DEFAULT_UNCAST)
				continue;
			table = DatumGetCString(DirectFunctionCall1(regclassout,
														ObjectIdGetDatum(RelationGetRelid(rel))));
			ereport(WARNING,
					errcode(ERRCODE_WARNING),
					errmsg("default of ulid column \"%s\" of table \"%s\" generates uuids",
						   name, RelationGetRelationName(rel)),
					errdetail("The default %s returns uuid values, which the cast to ulid keeps byte for byte: their ulid_time() is not the time of the insert.",
							  default_text(rel, uuid_expr)),
					errhint("Replace it: SELECT * FROM ulid_convert_column(%s, %s), or ALTER TABLE %s ALTER COLUMN %s SET DEFAULT gen_ulid().",
							quote_literal_cstr(table), quote_literal_cstr(name),
							table, quote_identifier(name)));
		}
		relation_close(rel, AccessShareLock);
	}
	SPI_finish();
}

/*
 * The event trigger on ddl_command_end: warn_uuid_defaults() for the
 * statements that can set a default.  It must never make DDL fail, so the
 * check runs in a subtransaction and an error in it becomes a WARNING (a
 * cancel is still a cancel).  DDL only: nothing here runs on INSERT.
 */
PG_FUNCTION_INFO_V1(ulid_check_defaults);
Datum
ulid_check_defaults(PG_FUNCTION_ARGS)
{
	MemoryContext oldcontext = CurrentMemoryContext;
	ResourceOwner oldowner = CurrentResourceOwner;
	List	   *columns;
	Oid			ulid_type;

	if (!CALLED_AS_EVENT_TRIGGER(fcinfo))
		ereport(ERROR,
				errcode(ERRCODE_E_R_I_E_EVENT_TRIGGER_PROTOCOL_VIOLATED),
				errmsg("ulid_check_defaults() was not called by an event trigger"));
	if (!statement_sets_defaults(((EventTriggerData *) fcinfo->context)->parsetree, &columns))
		PG_RETURN_VOID();
	ulid_type = extension_ulid_type(fcinfo->flinfo->fn_oid);
	if (!OidIsValid(ulid_type))
		PG_RETURN_VOID();

	BeginInternalSubTransaction(NULL);
	MemoryContextSwitchTo(oldcontext);
	PG_TRY();
	{
		warn_uuid_defaults(ulid_type, columns);
		ReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(oldcontext);
		CurrentResourceOwner = oldowner;
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(oldcontext);
		edata = CopyErrorData();
		FlushErrorState();
		RollbackAndReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(oldcontext);
		CurrentResourceOwner = oldowner;
		if (edata->sqlerrcode == ERRCODE_QUERY_CANCELED)
			ReThrowError(edata);
		ereport(WARNING,
				errcode(ERRCODE_WARNING),
				errmsg("could not check the defaults of ulid columns"),
				errdetail("%s", edata->message));
	}
	PG_END_TRY();
	PG_RETURN_VOID();
}
