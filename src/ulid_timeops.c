/*
 * ulid_timeops.c
 *		Comparison with a time (id < ts and the others), containment in a
 *		tstzrange (id <@ r), the bounds they put on an index, and their
 *		planner support.
 */
#include "postgres.h"

/* Some of these reach headers with unused parameters under -Wextra on 15. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "catalog/pg_am_d.h"
#include "catalog/pg_type_d.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "utils/lsyscache.h"
#include "utils/timestamp.h"
#pragma GCC diagnostic pop

#include "ulid.h"

static Const *make_ulid_const(Oid ulid_type, Ulid *u);
static Node *simplified_comparison(Node *key, Oid ulid_type, const char *symbol, Ulid *bound);

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

Ulid *
ulid_lower_bound_of_time(TimestampTz ts, bool inclusive)
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
Ulid *
ulid_upper_bound_of_time(TimestampTz ts, bool inclusive)
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
	Ulid	   *result = ulid_lower_bound_of_time(PG_GETARG_TIMESTAMPTZ(0), PG_GETARG_BOOL(1));

	if (result == NULL)
		PG_RETURN_NULL();
	PG_RETURN_ULID_P(result);
}

PG_FUNCTION_INFO_V1(ulid_time_upper_bound);
Datum
ulid_time_upper_bound(PG_FUNCTION_ARGS)
{
	Ulid	   *result = ulid_upper_bound_of_time(PG_GETARG_TIMESTAMPTZ(0), PG_GETARG_BOOL(1));

	if (result == NULL)
		PG_RETURN_NULL();
	PG_RETURN_ULID_P(result);
}

/*
 * What a comparison function of a ulid with a time means, from its C
 * symbol, as ulid_uuid_support reads its own: the B-tree strategy of "id op
 * ts" (ts < id is id > ts), and which argument is the ulid; 0 for any other
 * function.
 */
static int
time_comparison_strategy(Oid funcid, int *ulid_arg)
{
	const char *symbol = ulid_function_symbol(funcid);
	int			strategy;

	if (symbol == NULL)
		return 0;
	if (strncmp(symbol, "ulid_timestamptz_", 17) == 0)
		*ulid_arg = 0;
	else if (strncmp(symbol, "timestamptz_ulid_", 17) == 0)
		*ulid_arg = 1;
	else
		return 0;
	if (strcmp(symbol + 17, "lt") == 0)
		strategy = BTLessStrategyNumber;
	else if (strcmp(symbol + 17, "le") == 0)
		strategy = BTLessEqualStrategyNumber;
	else if (strcmp(symbol + 17, "ge") == 0)
		strategy = BTGreaterEqualStrategyNumber;
	else if (strcmp(symbol + 17, "gt") == 0)
		strategy = BTGreaterStrategyNumber;
	else
		return 0;
	return *ulid_arg == 1 ? BTMaxStrategyNumber + 1 - strategy : strategy;
}

/*
 * "id op ts" with ts a constant, simplified when the query is planned to
 * the same comparison of id with a constant ulid:
 *
 *	id >  ts	->	id >= the smallest ULID whose time is after ts
 *	id >= ts	->	id >= the smallest ULID whose time is at or after ts
 *	id <  ts	->	id <= the largest ULID whose time is before ts
 *	id <= ts	->	id <= the largest ULID whose time is at or before ts
 *	(none)		->	id < '00000000000000000000000000', false but for a NULL id
 *
 * exactly equivalent, NULLs included.  What matches a ulid constant and not
 * a time then serves a time too: partition pruning on a ulid range key,
 * TimescaleDB's chunk exclusion on a hypertable chunked through
 * ulid_time(), a ulid index of any class.  Any other ts (now(), a
 * parameter) is left as it is, for the index support below.
 */
static Node *
ulid_timestamptz_simplify(FuncExpr *fcall)
{
	int			ulid_arg;
	int			strategy = time_comparison_strategy(fcall->funcid, &ulid_arg);
	Node	   *key;
	Const	   *ts;
	Ulid	   *bound;

	if (strategy == 0 || list_length(fcall->args) != 2)
		return NULL;
	key = (Node *) list_nth(fcall->args, ulid_arg);
	ts = (Const *) list_nth(fcall->args, 1 - ulid_arg);
	if (!IsA(ts, Const) || ts->consttype != TIMESTAMPTZOID || ts->constisnull)
		return NULL;
	if (strategy == BTGreaterStrategyNumber || strategy == BTGreaterEqualStrategyNumber)
		bound = ulid_lower_bound_of_time(DatumGetTimestampTz(ts->constvalue),
										 strategy == BTGreaterEqualStrategyNumber);
	else
		bound = ulid_upper_bound_of_time(DatumGetTimestampTz(ts->constvalue),
										 strategy == BTLessEqualStrategyNumber);
	return simplified_comparison(key, exprType(key), bound == NULL ? "ulid_lt" :
								 (strategy == BTGreaterStrategyNumber ||
								  strategy == BTGreaterEqualStrategyNumber) ? "ulid_ge" : "ulid_le",
								 bound);
}

/*
 * "key op bound" with op the ulid B-tree family's operator whose C function
 * is symbol, and bound a ulid constant (the zero ULID for NULL, the bound
 * of a comparison nothing satisfies); NULL if the family has no such
 * operator.
 */
static Node *
simplified_comparison(Node *key, Oid ulid_type, const char *symbol, Ulid *bound)
{
	/* the default B-tree class's family, which the type cache keeps */
	Oid			opfamily = lookup_type_cache(ulid_type, TYPECACHE_BTREE_OPFAMILY)->btree_opf;
	Oid			op;
	OpExpr	   *result;

	if (!OidIsValid(opfamily))
		return NULL;
	op = ulid_family_operator(opfamily, ulid_type, InvalidOid, symbol);
	if (!OidIsValid(op))
		return NULL;
	if (bound == NULL)
		bound = palloc0(sizeof(Ulid));
	result = (OpExpr *) make_opclause(op, BOOLOID, false, (Expr *) key,
									  (Expr *) make_ulid_const(ulid_type, bound),
									  InvalidOid, InvalidOid);
	result->opfuncid = get_opcode(op);
	return (Node *) result;
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
 * no index entry satisfies, when none does.  A constant ts never gets here:
 * ulid_timestamptz_simplify() has made the clause a ulid comparison; any
 * other (now() - interval '1 day', a parameter, an outer column) is computed
 * when the scan starts.
 */
PG_FUNCTION_INFO_V1(ulid_timestamptz_support);
Datum
ulid_timestamptz_support(PG_FUNCTION_ARGS)
{
	Node	   *rawreq = (Node *) PG_GETARG_POINTER(0);
	SupportRequestIndexCondition *req;
	OpExpr	   *clause;
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

	if (IsA(rawreq, SupportRequestSimplify))
		PG_RETURN_POINTER(ulid_timestamptz_simplify(((SupportRequestSimplify *) rawreq)->fcall));

	clause = ulid_support_clause(rawreq, &req);
	if (clause == NULL)
		PG_RETURN_POINTER(NULL);

	/* What the clause means, from its C function. */
	strategy = time_comparison_strategy(clause->opfuncid, &ulid_arg);
	if (strategy == 0)
		PG_RETURN_POINTER(NULL);

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
		index_op = ulid_family_operator(req->opfamily, ulid_type, InvalidOid, "ulid_ge");
	}
	else
	{
		bound_name = "ulid_time_upper_bound";
		index_op = ulid_family_operator(req->opfamily, ulid_type, InvalidOid, "ulid_le");
	}
	inclusive = (strategy == BTGreaterEqualStrategyNumber ||
				 strategy == BTLessEqualStrategyNumber);
	if (!OidIsValid(index_op))
		PG_RETURN_POINTER(NULL);

	bound_func = ulid_own_function(bound_name, argtypes, 2, get_func_namespace(clause->opfuncid));
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
 * zero or the largest ULID for an unbounded end, otherwise ulid_lower_bound_of_time()
 * or ulid_upper_bound_of_time() of that end; NULL when the range is empty or no ULID
 * is within that end.  "id >= ulid_range_lower_bound(r) AND id <=
 * ulid_range_upper_bound(r)" is exactly "id <@ r" (a NULL bound admits no
 * row): the index conditions the planner support below builds.  *infinite
 * tells whether that end is unbounded.
 */
Ulid *
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
		return ulid_lower_bound_of_time(DatumGetTimestampTz(end->val), end->inclusive);
	return ulid_upper_bound_of_time(DatumGetTimestampTz(end->val), end->inclusive);
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
 * Which argument of a containment function of a ulid in a tstzrange is the
 * ulid, from its C symbol; -1 for any other function.
 */
static int
containment_ulid_arg(Oid funcid)
{
	const char *symbol = ulid_function_symbol(funcid);

	if (symbol == NULL)
		return -1;
	if (strcmp(symbol, "ulid_contained_by_tstzrange") == 0)
		return 0;
	if (strcmp(symbol, "tstzrange_contains_ulid") == 0)
		return 1;
	return -1;
}

/*
 * "id <@ r" (or "r @> id") with r a constant, simplified when the query is
 * planned to comparisons of id with constant ulids: id >= the lower bound
 * and id <= the upper one, each left out for an unbounded end (but
 * "id >= '000...'" kept when both are, so that a NULL id stays NULL), and
 * "id < '000...'" when no ULID is in r.  Exactly equivalent; what it serves
 * is said at ulid_timestamptz_simplify.
 */
static Node *
ulid_tstzrange_simplify(FuncExpr *fcall)
{
	int			ulid_arg = containment_ulid_arg(fcall->funcid);
	Node	   *key;
	Const	   *r;
	Oid			ulid_type;
	TypeCacheEntry *typcache;
	Ulid	   *lo;
	Ulid	   *hi;
	bool		lo_inf;
	bool		hi_inf;
	List	   *conds = NIL;
	Node	   *cond;

	if (ulid_arg < 0 || list_length(fcall->args) != 2)
		return NULL;
	key = (Node *) list_nth(fcall->args, ulid_arg);
	r = (Const *) list_nth(fcall->args, 1 - ulid_arg);
	if (!IsA(r, Const) || r->consttype != TSTZRANGEOID || r->constisnull)
		return NULL;
	ulid_type = exprType(key);
	typcache = lookup_type_cache(TSTZRANGEOID, TYPECACHE_RANGE_INFO);
	lo = range_bound_ulid(typcache, DatumGetRangeTypeP(r->constvalue), true, &lo_inf);
	hi = range_bound_ulid(typcache, DatumGetRangeTypeP(r->constvalue), false, &hi_inf);
	if (lo == NULL || hi == NULL)
		return simplified_comparison(key, ulid_type, "ulid_lt", NULL);
	if (!lo_inf || hi_inf)
	{
		if ((cond = simplified_comparison(key, ulid_type, "ulid_ge", lo)) == NULL)
			return NULL;
		conds = lappend(conds, cond);
	}
	if (!hi_inf)
	{
		if ((cond = simplified_comparison(key, ulid_type, "ulid_le", hi)) == NULL)
			return NULL;
		conds = lappend(conds, cond);
	}
	return list_length(conds) == 1 ? (Node *) linitial(conds) : (Node *) make_andclause(conds);
}

/*
 * Planner support for "id <@ r" and "r @> id" on a B-tree or BRIN index of
 * a ulid column:
 *
 *	id <@ r	->	id >= ulid_range_lower_bound(r) AND id <= ulid_range_upper_bound(r)
 *
 * exact (not lossy), each bound computed when the scan starts: r is not a
 * constant (tstzrange(now() - interval '1 day', now()), a parameter), since
 * ulid_tstzrange_simplify() has made a constant r's clause ulid comparisons.
 */
PG_FUNCTION_INFO_V1(ulid_tstzrange_support);
Datum
ulid_tstzrange_support(PG_FUNCTION_ARGS)
{
	Node	   *rawreq = (Node *) PG_GETARG_POINTER(0);
	SupportRequestIndexCondition *req;
	OpExpr	   *clause;
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

	if (IsA(rawreq, SupportRequestSimplify))
		PG_RETURN_POINTER(ulid_tstzrange_simplify(((SupportRequestSimplify *) rawreq)->fcall));

	clause = ulid_support_clause(rawreq, &req);
	if (clause == NULL)
		PG_RETURN_POINTER(NULL);
	ulid_arg = containment_ulid_arg(clause->opfuncid);
	if (ulid_arg < 0)
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
	ge_op = ulid_family_operator(req->opfamily, ulid_type, InvalidOid, "ulid_ge");
	le_op = ulid_family_operator(req->opfamily, ulid_type, InvalidOid, "ulid_le");
	if (!OidIsValid(ge_op) || !OidIsValid(le_op))
		PG_RETURN_POINTER(NULL);

	namespace = get_func_namespace(clause->opfuncid);
	argtypes[0] = TSTZRANGEOID;
	for (int i = 0; i < 2; i++)
	{
		bound_func[i] = ulid_own_function(bound_name[i], argtypes, 1, namespace);
		if (!OidIsValid(bound_func[i]))
			PG_RETURN_POINTER(NULL);
	}

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
	foreach(lc, result)
		((OpExpr *) lfirst(lc))->opfuncid = get_opcode(((OpExpr *) lfirst(lc))->opno);

	req->lossy = false;
	PG_RETURN_POINTER(result);
}
