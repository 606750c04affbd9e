/*
 * ulid_planner.c
 *		What the planner support functions and the estimators share: what a
 *		function is (its C symbol, remembered), the clause of a support
 *		request, the extension's own functions, and an index family's
 *		operator by its meaning.
 */
#include "postgres.h"

/* Some of these reach headers with unused parameters under -Wextra on 15. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "access/htup_details.h"
#include "catalog/pg_amop.h"
#include "catalog/pg_language.h"
#include "catalog/pg_proc.h"
#include "nodes/nodeFuncs.h"
#include "utils/builtins.h"
#include "utils/catcache.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/syscache.h"
#pragma GCC diagnostic pop

#include "ulid.h"

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
const char *
ulid_function_symbol(Oid funcid)
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
OpExpr *
ulid_support_clause(Node *rawreq, SupportRequestIndexCondition **req)
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
Oid
ulid_own_function(const char *name, Oid *argtypes, int nargs, Oid namespace)
{
	Oid			funcid = GetSysCacheOid3(PROCNAMEARGSNSP, Anum_pg_proc_oid,
										 CStringGetDatum(name),
										 PointerGetDatum(buildoidvector(argtypes, nargs)),
										 ObjectIdGetDatum(namespace));
	const char *symbol;

	if (!OidIsValid(funcid))
		return InvalidOid;
	symbol = ulid_function_symbol(funcid);
	return symbol != NULL && strcmp(symbol, name) == 0 ? funcid : InvalidOid;
}

/*
 * The answers of ulid_family_operator(), remembered for the backend's life
 * as the symbols are: the simplification of constant time comparisons asks
 * once for every such comparison it plans, and a scan of the family's
 * members, each looked up in pg_proc, took microseconds each time (1,000
 * time windows planned in twice the time).  Any change to pg_amop or
 * pg_proc invalidates them all; they are dropped on the next look-up.
 */
typedef struct FamilyOperatorKey
{
	Oid			opfamily;
	Oid			type;
	Oid			wanted_funcid;
	char		wanted_symbol[64];	/* "" when wanted by OID */
} FamilyOperatorKey;

typedef struct FamilyOperator
{
	FamilyOperatorKey key;
	Oid			oper;
} FamilyOperator;

static HTAB *family_operators = NULL;
static bool family_operators_stale = false;

static void
family_operators_invalidate(Datum arg pg_attribute_unused(), int cacheid pg_attribute_unused(),
							uint32 hashvalue pg_attribute_unused())
{
	family_operators_stale = true;
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
Oid
ulid_family_operator(Oid opfamily, Oid type, Oid wanted_funcid, const char *wanted_symbol)
{
	static bool callbacks_registered = false;
	FamilyOperatorKey key;
	FamilyOperator *entry;
	bool		found;
	CatCList   *members;
	Oid			result = InvalidOid;

	if (wanted_symbol != NULL && strlen(wanted_symbol) >= sizeof(key.wanted_symbol))
		return InvalidOid;		/* none of ours is that long */
	if (family_operators_stale && family_operators != NULL)
	{
		hash_destroy(family_operators);
		family_operators = NULL;
	}
	family_operators_stale = false;
	if (family_operators == NULL)
	{
		HASHCTL		ctl;

		if (!callbacks_registered)
		{
			CacheRegisterSyscacheCallback(AMOPSTRATEGY, family_operators_invalidate, (Datum) 0);
			CacheRegisterSyscacheCallback(PROCOID, family_operators_invalidate, (Datum) 0);
			callbacks_registered = true;
		}
		memset(&ctl, 0, sizeof(ctl));
		ctl.keysize = sizeof(FamilyOperatorKey);
		ctl.entrysize = sizeof(FamilyOperator);
		ctl.hcxt = CacheMemoryContext;
		family_operators = hash_create("ulid family operators", 16, &ctl,
									   HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	}
	memset(&key, 0, sizeof(key));	/* the padding and the unused bytes hash too */
	key.opfamily = opfamily;
	key.type = type;
	key.wanted_funcid = wanted_symbol == NULL ? wanted_funcid : InvalidOid;
	if (wanted_symbol != NULL)
		strcpy(key.wanted_symbol, wanted_symbol);
	entry = hash_search(family_operators, &key, HASH_FIND, NULL);
	if (entry != NULL)
		return entry->oper;

	members = SearchSysCacheList3(AMOPSTRATEGY, ObjectIdGetDatum(opfamily),
								  ObjectIdGetDatum(type), ObjectIdGetDatum(type));
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
		symbol = ulid_function_symbol(funcid);
		if (symbol != NULL && strcmp(symbol, wanted_symbol) == 0)
			result = amop->amopopr;
	}
	ReleaseSysCacheList(members);

	/* the look-ups above may have taken invalidations: remember only a fresh answer */
	if (!family_operators_stale)
	{
		entry = hash_search(family_operators, &key, HASH_ENTER, &found);
		entry->oper = result;
	}
	return result;
}
