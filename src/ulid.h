/*
 * ulid.h
 *		What the extension's C files share: the Ulid value and its macros,
 *		the byte comparison, the time conversions, the planner support
 *		helpers and the estimator's reading of a column's statistics.
 *
 * The logic that needs no server lives in headers of its own, which the
 * unit tests and the fuzzer include alone: the byte layout and the value as
 * a number (ulid_layout.h), the Base32 codec (ulid_base32.h), the UUID text
 * form (ulid_uuidtext.h), the monotonic step (ulid_monotonic.h), gen_ulid()'s
 * packed step (ulid_packed.h) and the pool of random bytes (ulid_random.h).
 */
#ifndef ULID_H
#define ULID_H

#include "fmgr.h"
#include "access/stratnum.h"
#include "datatype/timestamp.h"
#include "nodes/supportnodes.h"
#include "port/pg_bswap.h"
/*
 * These reach storage/bufpage.h, whose inline functions have unused
 * parameters under -Wextra in PostgreSQL 15.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "utils/rangetypes.h"
#include "utils/selfuncs.h"
#pragma GCC diagnostic pop

#include "ulid_layout.h"

/* The value: 16 bytes, the 128-bit big-endian number. */
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

/* ulid.c: the Unix millisecond of a time (casts, generators). */
extern uint64 timestamptz_to_ulid_ms(TimestampTz ts);

/* ulid_timeops.c: the first and last ULID a time or a tstzrange admits. */
extern Ulid *ulid_lower_bound_of_time(TimestampTz ts, bool inclusive);
extern Ulid *ulid_upper_bound_of_time(TimestampTz ts, bool inclusive);
extern Ulid *range_bound_ulid(TypeCacheEntry *typcache, RangeType *r, bool is_lower, bool *infinite);

/* ulid_planner.c: what planner support functions and estimators share. */
extern const char *ulid_function_symbol(Oid funcid);
extern OpExpr *ulid_support_clause(Node *rawreq, SupportRequestIndexCondition **req);
extern Oid ulid_own_function(const char *name, Oid *argtypes, int nargs, Oid namespace);
extern Oid ulid_family_operator(Oid opfamily, Oid type, Oid wanted_funcid, const char *wanted_symbol);

/* ulid_histogram.c: a bound on a column and its selectivity. */
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
 * What ulid_bound_selectivity() reads of a column, read once while a relation
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

extern bool ulid_comparison_of(Oid opno, StrategyNumber *strategy, int *time_arg);
extern bool ulid_make_bound(StrategyNumber strategy, int time_arg, int var_arg, Node *other, UlidBound *b);
extern bool ulid_bound_selectivity(PlannerInfo *root, VariableStatData *vardata, ColumnStats *stats, Oid opfunc, UlidBound *b);
extern Selectivity ulid_core_ineqsel(StrategyNumber strategy, PlannerInfo *root, Oid opno, List *args, int varRelid, Oid collation);
extern Selectivity ulid_window_selectivity(Selectivity lo, Selectivity hi, Selectivity nullfrac);

/* src/ulid_public.c: defines ulid.public_id_key_file; _PG_init calls it. */
extern void ulid_public_id_init(void);

#ifdef __PGLITE__
#include "utils/sortsupport.h"

/* src/ulid_pglite.c: core's unsigned Datum comparator, for the sorts' fast path. */
typedef int (*UlidUnsignedCmp) (Datum x, Datum y, SortSupport ssup);
extern UlidUnsignedCmp ulid_pglite_unsigned_cmp(void);
#endif

#endif							/* ULID_H */
