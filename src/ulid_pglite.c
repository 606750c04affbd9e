/*
 * ulid_pglite.c
 *		The server functions that ulid calls and PGlite does not export,
 *		made another way.  Compiled for PGlite only (bin/pglite defines
 *		__PGLITE__); a server build compiles this file to nothing.
 *
 * PGlite runs PostgreSQL as WebAssembly.  Its server, pglite.wasm, is linked
 * with -sMAIN_MODULE=2, which exports only the symbols that the extensions
 * it bundles import, and an extension is a side module whose imports are
 * resolved against those exports when it is loaded: one that imports
 * anything else fails to load ("could not load dynamic lib"), or fails
 * where it calls it.  So each function ulid calls that PGlite does not
 * export is defined here under its own name and with the server's
 * signature, hidden, so that ulid's calls to it resolve inside the module
 * and it imports nothing.  Each reaches the server through what PGlite
 * does export: the function manager by OID for a SQL-callable function
 * (the very function, run by the server), the catalog caches, or a few
 * lines of our own where the server's are a few lines too.
 *
 * pglite/check-imports.mjs, which bin/pglite runs on every build, fails it
 * when the module imports anything the pinned pglite.wasm does not export:
 * a new call to such a function, or a PGlite that exports less, shows up
 * there, not in a user's database.
 *
 * What behaves differently, said in docs/pglite.md: the abbreviated-key
 * sort gives up on abbreviation by an estimate of distinct keys of its own
 * (a linear-counting bitmap, not a HyperLogLog), the same decision in every
 * case the suite tries; trace_sort is off; and the planner's estimate for
 * ids past the last histogram bound (id > now() - interval '1 hour') has no
 * index endpoint probe (ulid_histogram.c leaves it out, as the index scan
 * API is not exported), so it uses the histogram's last bound as it stood at
 * ANALYZE.
 */
#ifdef __PGLITE__

#include "postgres.h"

#include <math.h>

/* Some of these reach headers with unused parameters under -Wextra. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "access/genam.h"
#include "access/htup_details.h"
#include "access/skey.h"
#include "access/table.h"
#include "catalog/objectaddress.h"
#include "catalog/pg_operator.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_publication.h"
#include "catalog/pg_publication_namespace.h"
#include "catalog/pg_publication_rel.h"
#include "catalog/pg_statistic.h"
#include "common/hashfn.h"
#include "lib/hyperloglog.h"
#include "libpq/pqformat.h"
#include "mb/pg_wchar.h"
#include "nodes/makefuncs.h"
#include "optimizer/optimizer.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rangetypes.h"
#include "utils/rel.h"
#include "utils/selfuncs.h"
#include "utils/sortsupport.h"
#include "utils/syscache.h"
#include "utils/typcache.h"
#pragma GCC diagnostic pop

#include "ulid.h"

/* Defined here for ulid's own calls; not exported from the module. */
#define ULID_PGLITE_LOCAL __attribute__((visibility("hidden")))

/*
 * Call a function of the server's own (a built-in, by OID) with four
 * arguments: fmgr_info() finds it in the server's table.
 */
static Datum
call_builtin4(Oid fn, Oid collation, Datum a, Datum b, Datum c, Datum d)
{
	LOCAL_FCINFO(fcinfo, 4);
	FmgrInfo	flinfo;
	Datum		result;

	fmgr_info(fn, &flinfo);
	InitFunctionCallInfoData(*fcinfo, &flinfo, 4, collation, NULL, NULL);
	fcinfo->args[0].value = a;
	fcinfo->args[1].value = b;
	fcinfo->args[2].value = c;
	fcinfo->args[3].value = d;
	for (int i = 0; i < 4; i++)
		fcinfo->args[i].isnull = false;
	result = FunctionCallInvoke(fcinfo);
	if (fcinfo->isnull)
		elog(ERROR, "function %u returned NULL", fn);
	return result;
}

/*
 * Restriction estimators of core's B-tree comparisons, run by the server
 * through the function manager.
 */
ULID_PGLITE_LOCAL Datum
scalarltsel(PG_FUNCTION_ARGS)
{
	return call_builtin4(F_SCALARLTSEL, PG_GET_COLLATION(), PG_GETARG_DATUM(0),
						 PG_GETARG_DATUM(1), PG_GETARG_DATUM(2), PG_GETARG_DATUM(3));
}

ULID_PGLITE_LOCAL Datum
scalarlesel(PG_FUNCTION_ARGS)
{
	return call_builtin4(F_SCALARLESEL, PG_GET_COLLATION(), PG_GETARG_DATUM(0),
						 PG_GETARG_DATUM(1), PG_GETARG_DATUM(2), PG_GETARG_DATUM(3));
}

ULID_PGLITE_LOCAL Datum
scalargtsel(PG_FUNCTION_ARGS)
{
	return call_builtin4(F_SCALARGTSEL, PG_GET_COLLATION(), PG_GETARG_DATUM(0),
						 PG_GETARG_DATUM(1), PG_GETARG_DATUM(2), PG_GETARG_DATUM(3));
}

ULID_PGLITE_LOCAL Datum
scalargesel(PG_FUNCTION_ARGS)
{
	return call_builtin4(F_SCALARGESEL, PG_GET_COLLATION(), PG_GETARG_DATUM(0),
						 PG_GETARG_DATUM(1), PG_GETARG_DATUM(2), PG_GETARG_DATUM(3));
}

/* regclass output, for the names in ulid_convert_column()'s messages. */
ULID_PGLITE_LOCAL Datum
regclassout(PG_FUNCTION_ARGS)
{
	return OidFunctionCall1(F_REGCLASSOUT, PG_GETARG_DATUM(0));
}

/*
 * The fraction of a column's rows that are NULL (or not), from its
 * statistics: for a column of a table, its stanullfrac (what ulid asks);
 * core's default otherwise.
 */
ULID_PGLITE_LOCAL Selectivity
nulltestsel(PlannerInfo *root, NullTestType nulltesttype, Node *arg, int varRelid,
			JoinType jointype, SpecialJoinInfo *sjinfo)
{
	Selectivity nullfrac = DEFAULT_UNK_SEL;

	(void) varRelid;
	(void) jointype;
	(void) sjinfo;
	while (arg != NULL && IsA(arg, RelabelType))
		arg = (Node *) ((RelabelType *) arg)->arg;
	if (arg != NULL && IsA(arg, Var) && ((Var *) arg)->varlevelsup == 0 &&
		((Var *) arg)->varno > 0 && ((Var *) arg)->varno < root->simple_rel_array_size)
	{
		Var		   *var = (Var *) arg;
		RangeTblEntry *rte = root->simple_rte_array[var->varno];

		if (rte != NULL && rte->rtekind == RTE_RELATION)
		{
			HeapTuple	tuple = SearchSysCache3(STATRELATTINH, ObjectIdGetDatum(rte->relid),
												Int16GetDatum(var->varattno),
												BoolGetDatum(rte->inh));

			if (HeapTupleIsValid(tuple))
			{
				nullfrac = ((Form_pg_statistic) GETSTRUCT(tuple))->stanullfrac;
				ReleaseSysCache(tuple);
			}
		}
	}
	return nulltesttype == IS_NULL ? nullfrac : 1.0 - nullfrac;
}

/* The restriction estimator of an operator, from the catalog cache. */
ULID_PGLITE_LOCAL RegProcedure
get_oprrest(Oid opno)
{
	HeapTuple	tuple = SearchSysCache1(OPEROID, ObjectIdGetDatum(opno));
	RegProcedure result = InvalidOid;

	if (HeapTupleIsValid(tuple))
	{
		result = ((Form_pg_operator) GETSTRUCT(tuple))->oprrest;
		ReleaseSysCache(tuple);
	}
	return result;
}

/* A boolean constant, for the bounds the planner support adds. */
ULID_PGLITE_LOCAL Node *
makeBoolConst(bool value, bool isnull)
{
	return (Node *) makeConst(BOOLOID, -1, InvalidOid, 1, BoolGetDatum(value), isnull, true);
}

/* The AND of a list of clauses. */
ULID_PGLITE_LOCAL Expr *
make_andclause(List *andclauses)
{
	BoolExpr   *expr = makeNode(BoolExpr);

	expr->boolop = AND_EXPR;
	expr->args = andclauses;
	expr->location = -1;
	return (Expr *) expr;
}

/*
 * A range type's cache entry, kept in fn_extra for the calls of one
 * expression.
 */
ULID_PGLITE_LOCAL TypeCacheEntry *
range_get_typcache(FunctionCallInfo fcinfo, Oid rngtypid)
{
	TypeCacheEntry *typcache = (TypeCacheEntry *) fcinfo->flinfo->fn_extra;

	if (typcache == NULL || typcache->type_id != rngtypid)
	{
		typcache = lookup_type_cache(rngtypid, TYPECACHE_RANGE_INFO);
		if (typcache->rngelemtype == NULL)
			elog(ERROR, "type %u is not a range type", rngtypid);
		fcinfo->flinfo->fn_extra = typcache;
	}
	return typcache;
}

/*
 * The bounds of a range, asked of the server's own lower(), upper(),
 * lower_inc(), upper_inc(), lower_inf(), upper_inf() and isempty().
 */
ULID_PGLITE_LOCAL void
range_deserialize(TypeCacheEntry *typcache, const RangeType *range, RangeBound *lower,
				  RangeBound *upper, bool *empty)
{
	Datum		r = RangeTypePGetDatum(range);

	(void) typcache;
	*empty = DatumGetBool(OidFunctionCall1(F_ISEMPTY_ANYRANGE, r));
	lower->lower = true;
	upper->lower = false;
	lower->infinite = !*empty && DatumGetBool(OidFunctionCall1(F_LOWER_INF_ANYRANGE, r));
	upper->infinite = !*empty && DatumGetBool(OidFunctionCall1(F_UPPER_INF_ANYRANGE, r));
	lower->inclusive = !*empty && DatumGetBool(OidFunctionCall1(F_LOWER_INC_ANYRANGE, r));
	upper->inclusive = !*empty && DatumGetBool(OidFunctionCall1(F_UPPER_INC_ANYRANGE, r));
	lower->val = *empty || lower->infinite ? (Datum) 0 : OidFunctionCall1(F_LOWER_ANYRANGE, r);
	upper->val = *empty || upper->infinite ? (Datum) 0 : OidFunctionCall1(F_UPPER_ANYRANGE, r);
}

/* The next datalen bytes of a binary message. */
ULID_PGLITE_LOCAL const char *
pq_getmsgbytes(StringInfo msg, int datalen)
{
	const char *result;

	if (datalen < 0 || datalen > msg->len - msg->cursor)
		ereport(ERROR,
				errcode(ERRCODE_PROTOCOL_VIOLATION),
				errmsg("insufficient data left in message"));
	result = &msg->data[msg->cursor];
	msg->cursor += datalen;
	return result;
}

/*
 * The length of the character at mbstr, not reaching past a NUL.  ulid asks
 * only of the database's encoding, which is what pg_mblen() reads.
 */
ULID_PGLITE_LOCAL int
pg_encoding_mblen_bounded(int encoding, const char *mbstr)
{
	int			len = pg_mblen(mbstr);
	int			n = 0;

	(void) encoding;
	while (n < len && mbstr[n] != '\0')
		n++;
	return n;
}

/* Datums compared as unsigned integers: abbreviated keys. */
ULID_PGLITE_LOCAL int
ssup_datum_unsigned_cmp(Datum x, Datum y, SortSupport ssup)
{
	(void) ssup;
	return x < y ? -1 : x > y ? 1 : 0;
}

/*
 * Core's own ssup_datum_unsigned_cmp, whose address PGlite does not export:
 * a sort recognizes that function by its address and then sorts abbreviated
 * keys with a quicksort specialized for it, about a third faster than one
 * calling the comparator (measured by bench/run pglite).  uuid's sort
 * support, run by the server, sets it as its comparator when it
 * abbreviates, so it is read from there, once; the copy above if not.
 */
UlidUnsignedCmp
ulid_pglite_unsigned_cmp(void)
{
	static UlidUnsignedCmp core_cmp = NULL;

	if (core_cmp == NULL)
	{
		MemoryContext cxt = AllocSetContextCreate(CurrentMemoryContext, "ulid uuid sortsupport",
												  ALLOCSET_SMALL_SIZES);
		SortSupportData ssup;

		memset(&ssup, 0, sizeof(ssup));
		ssup.ssup_cxt = cxt;
		ssup.abbreviate = true;
		OidFunctionCall1(F_UUID_SORTSUPPORT, PointerGetDatum(&ssup));
		core_cmp = ssup.comparator != NULL && ssup.abbrev_converter != NULL ?
			ssup.comparator : ssup_datum_unsigned_cmp;
		MemoryContextDelete(cxt);
	}
	return core_cmp;
}

/* Sorts are not traced in PGlite. */
ULID_PGLITE_LOCAL bool trace_sort = false;

/*
 * A hash of 32 bits, for the estimate below only: the finalizer of
 * MurmurHash3, which spreads every input bit over the output.
 */
ULID_PGLITE_LOCAL uint32
hash_bytes_uint32(uint32 k)
{
	k ^= k >> 16;
	k *= 0x85ebca6bU;
	k ^= k >> 13;
	k *= 0xc2b2ae35U;
	k ^= k >> 16;
	return k;
}

/*
 * The estimate of distinct abbreviated keys that decides whether a sort
 * keeps abbreviating, kept in core's hyperLogLogState but computed another
 * way: linear counting (Whang et al., 1990) over a bitmap of 2^(bwidth+7)
 * bits, with bwidth 10 as ulid asks: 131,072 bits (16 kB a sort), close up
 * to about a million distinct keys, which is all the decision needs (it
 * gives up below one distinct key in 2,000 inputs, and stops asking above
 * 100,000).  A full bitmap says "more than it can count".
 */
ULID_PGLITE_LOCAL void
initHyperLogLog(hyperLogLogState *cState, uint8 bwidth)
{
	cState->registerWidth = bwidth;
	cState->nRegisters = (Size) 1 << (bwidth + 7);
	cState->alphaMM = 0;
	cState->arrSize = cState->nRegisters / 8;
	cState->hashesArr = palloc0(cState->arrSize);
}

ULID_PGLITE_LOCAL void
addHyperLogLog(hyperLogLogState *cState, uint32 hash)
{
	Size		bit = hash & (cState->nRegisters - 1);

	cState->hashesArr[bit / 8] |= (uint8) (1 << (bit % 8));
}

ULID_PGLITE_LOCAL double
estimateHyperLogLog(hyperLogLogState *cState)
{
	Size		zeros = 0;
	double		m = (double) cState->nRegisters;

	for (Size i = 0; i < cState->arrSize; i++)
		zeros += 8 - __builtin_popcount(cState->hashesArr[i]);
	if (zeros == 0)
		return 1.0e12;
	return -m * log((double) zeros / m);
}

ULID_PGLITE_LOCAL void
freeHyperLogLog(hyperLogLogState *cState)
{
	pfree(cState->hashesArr);
	cState->hashesArr = NULL;
}

/*
 * Whether the planner may read a column's statistics with a function:
 * yes when the user may read the column, or when the function leaks
 * nothing (core's rule).
 */
ULID_PGLITE_LOCAL bool
statistic_proc_security_check(VariableStatData *vardata, Oid func_oid)
{
	HeapTuple	tuple;
	bool		leakproof = false;

	if (vardata->acl_ok)
		return true;
	tuple = SearchSysCache1(PROCOID, ObjectIdGetDatum(func_oid));
	if (HeapTupleIsValid(tuple))
	{
		leakproof = ((Form_pg_proc) GETSTRUCT(tuple))->proleakproof;
		ReleaseSysCache(tuple);
	}
	return leakproof;
}

/*
 * explicit_bzero (src/port): a memset the compiler may not drop as a dead
 * store, as it is called through a volatile pointer.
 */
static void *(*const volatile ulid_memset) (void *, int, size_t) = memset;

ULID_PGLITE_LOCAL void
explicit_bzero(void *buf, size_t len)
{
	ulid_memset(buf, 0, len);
}

/*
 * What ulid_convert_column() and its dry run ask of publications, read from
 * the catalogs.  PGlite, one backend with no replication, has none but
 * those a user makes, and they publish to no one.
 */

/* The OIDs found by a scan of a publication catalog on its first key. */
static List *
publication_scan(Oid catalog, Oid index, AttrNumber keycol, Oid key, AttrNumber pubcol)
{
	Relation	rel = table_open(catalog, AccessShareLock);
	ScanKeyData skey;
	SysScanDesc scan;
	HeapTuple	tuple;
	List	   *result = NIL;

	ScanKeyInit(&skey, keycol, BTEqualStrategyNumber, F_OIDEQ, ObjectIdGetDatum(key));
	scan = systable_beginscan(rel, index, true, NULL, 1, &skey);
	while (HeapTupleIsValid(tuple = systable_getnext(scan)))
	{
		bool		isnull;
		Datum		pubid = heap_getattr(tuple, pubcol, RelationGetDescr(rel), &isnull);

		result = lappend_oid(result, DatumGetObjectId(pubid));
	}
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	return result;
}

#if PG_VERSION_NUM >= 190000
/*
 * The publications that name a table, as published (FOR TABLE t) or as
 * excepted (FOR ALL TABLES EXCEPT (TABLE t)): pg_publication_rel.prexcept.
 */
static List *
relation_publications_where(Oid relid, bool except)
{
	Relation	rel = table_open(PublicationRelRelationId, AccessShareLock);
	ScanKeyData skey;
	SysScanDesc scan;
	HeapTuple	tuple;
	List	   *result = NIL;

	ScanKeyInit(&skey, Anum_pg_publication_rel_prrelid, BTEqualStrategyNumber, F_OIDEQ,
				ObjectIdGetDatum(relid));
	scan = systable_beginscan(rel, PublicationRelPrrelidPrpubidIndexId, true, NULL, 1, &skey);
	while (HeapTupleIsValid(tuple = systable_getnext(scan)))
	{
		Form_pg_publication_rel pr = (Form_pg_publication_rel) GETSTRUCT(tuple);

		if (pr->prexcept == except)
			result = lappend_oid(result, pr->prpubid);
	}
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	return result;
}

ULID_PGLITE_LOCAL List *
GetRelationIncludedPublications(Oid relid)
{
	return relation_publications_where(relid, false);
}

ULID_PGLITE_LOCAL List *
GetRelationExcludedPublications(Oid relid)
{
	return relation_publications_where(relid, true);
}

/* The members of list1 that list2 has not, in list1's order (pg_list.h). */
ULID_PGLITE_LOCAL List *
list_difference_oid(const List *list1, const List *list2)
{
	List	   *result = NIL;
	ListCell   *lc;

	foreach(lc, list1)
	{
		if (!list_member_oid(list2, lfirst_oid(lc)))
			result = lappend_oid(result, lfirst_oid(lc));
	}
	return result;
}
#else
/* The publications that name a table. */
ULID_PGLITE_LOCAL List *
GetRelationPublications(Oid relid)
{
	return publication_scan(PublicationRelRelationId, PublicationRelPrrelidPrpubidIndexId,
							Anum_pg_publication_rel_prrelid, relid,
							Anum_pg_publication_rel_prpubid);
}
#endif

/* The publications of all tables in a schema. */
ULID_PGLITE_LOCAL List *
GetSchemaPublications(Oid schemaid)
{
	return publication_scan(PublicationNamespaceRelationId,
							PublicationNamespacePnnspidPnpubidIndexId,
							Anum_pg_publication_namespace_pnnspid, schemaid,
							Anum_pg_publication_namespace_pnpubid);
}

/* The publications FOR ALL TABLES. */
ULID_PGLITE_LOCAL List *
GetAllTablesPublications(void)
{
	Relation	rel = table_open(PublicationRelationId, AccessShareLock);
	ScanKeyData skey;
	SysScanDesc scan;
	HeapTuple	tuple;
	List	   *result = NIL;

	ScanKeyInit(&skey, Anum_pg_publication_puballtables, BTEqualStrategyNumber, F_BOOLEQ,
				BoolGetDatum(true));
	scan = systable_beginscan(rel, InvalidOid, false, NULL, 1, &skey);
	while (HeapTupleIsValid(tuple = systable_getnext(scan)))
		result = lappend_oid(result, ((Form_pg_publication) GETSTRUCT(tuple))->oid);
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	return result;
}

/* A publication's name, from the catalog cache. */
ULID_PGLITE_LOCAL char *
get_publication_name(Oid pubid, bool missing_ok)
{
	HeapTuple	tuple = SearchSysCache1(PUBLICATIONOID, ObjectIdGetDatum(pubid));
	char	   *name;

	if (!HeapTupleIsValid(tuple))
	{
		if (!missing_ok)
			elog(ERROR, "cache lookup failed for publication %u", pubid);
		return NULL;
	}
	name = pstrdup(NameStr(((Form_pg_publication) GETSTRUCT(tuple))->pubname));
	ReleaseSysCache(tuple);
	return name;
}

/* An object as the server describes it, by its SQL-callable pg_describe_object(). */
ULID_PGLITE_LOCAL char *
getObjectDescription(const ObjectAddress *object, bool missing_ok)
{
	LOCAL_FCINFO(fcinfo, 3);
	FmgrInfo	flinfo;
	Datum		result;

	fmgr_info(F_PG_DESCRIBE_OBJECT, &flinfo);
	InitFunctionCallInfoData(*fcinfo, &flinfo, 3, InvalidOid, NULL, NULL);
	fcinfo->args[0].value = ObjectIdGetDatum(object->classId);
	fcinfo->args[0].isnull = false;
	fcinfo->args[1].value = ObjectIdGetDatum(object->objectId);
	fcinfo->args[1].isnull = false;
	fcinfo->args[2].value = Int32GetDatum(object->objectSubId);
	fcinfo->args[2].isnull = false;
	result = FunctionCallInvoke(fcinfo);
	if (fcinfo->isnull)
	{
		if (!missing_ok)
			elog(ERROR, "could not describe object %u/%u/%d", object->classId,
				 object->objectId, object->objectSubId);
		return NULL;
	}
	return TextDatumGetCString(result);
}

#endif							/* __PGLITE__ */
