/*
 * ulid_convert_dry_run.c
 *		ulid_convert_column_dry_run(): what ulid_convert_column() would do,
 *		changing nothing.
 */
#include "postgres.h"

#include <ctype.h>

/* Some of these reach headers with unused parameters under -Wextra on 15. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "access/genam.h"
#include "access/htup_details.h"
#include "access/relation.h"
#include "access/table.h"
#include "catalog/dependency.h"
#include "catalog/index.h"
#include "catalog/indexing.h"
#include "catalog/namespace.h"
#include "catalog/objectaddress.h"
#include "catalog/partition.h"
#include "catalog/pg_attrdef.h"
#include "catalog/pg_constraint.h"
#include "catalog/pg_depend.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_language.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_policy.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_publication.h"
#include "catalog/pg_publication_rel.h"
#include "catalog/pg_rewrite.h"
#include "catalog/pg_statistic_ext.h"
#include "catalog/pg_trigger.h"
#include "catalog/pg_type.h"
#include "commands/event_trigger.h"
#include "commands/extension.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "storage/lmgr.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/ruleutils.h"
#include "utils/syscache.h"
#include "utils/tuplestore.h"
#pragma GCC diagnostic pop

#include "ulid.h"
#include "ulid_convert.h"

/* One row of the dry run's report. */
static void
report_row(ReturnSetInfo *rsinfo, int *step, const char *action, const char *object,
		   const char *detail)
{
	Datum		values[4];
	bool		nulls[4] = {false, false, false, detail == NULL};

	values[0] = Int32GetDatum(++*step);
	values[1] = CStringGetTextDatum(action);
	values[2] = CStringGetTextDatum(object);
	values[3] = detail == NULL ? (Datum) 0 : CStringGetTextDatum(detail);
	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
}

static char *
describe(Oid classid, Oid objid)
{
	ObjectAddress object = {classid, objid, 0};

	return getObjectDescription(&object, false);
}

/*
 * Whether text names the table name as a word (case-insensitively): the
 * dry run's guess at a function whose body uses a table.
 */
static bool
names_word(const char *text, const char *name)
{
	size_t		len = strlen(name);

	for (const char *p = text; *p != '\0'; p++)
	{
		char		before = p == text ? ' ' : p[-1];

		if (pg_strncasecmp(p, name, len) == 0 &&
			!(isalnum((unsigned char) before) || before == '_' || before == '$') &&
			!(isalnum((unsigned char) p[len]) || p[len] == '_' || p[len] == '$'))
			return true;
	}
	return false;
}

/* Functions found by report_functions(), by OID: creation order. */
static int
function_cmp(const ListCell *a, const ListCell *b)
{
	Oid			x = linitial_oid((List *) lfirst(a));
	Oid			y = linitial_oid((List *) lfirst(b));

	return x < y ? -1 : x > y ? 1 : 0;
}

/*
 * The functions to review before converting: those written in a language
 * with a body (not C or internal), outside pg_catalog and
 * information_schema, whose body names a table of tree.  A guess from the
 * text: PL/pgSQL's dependencies are not recorded (a function with a
 * SQL-standard body is in pg_depend, and ALTER COLUMN TYPE refuses its
 * column).  Each with what to do.
 */
static void
report_functions(ReturnSetInfo *rsinfo, int *step, List *tree)
{
	Relation	proc = table_open(ProcedureRelationId, AccessShareLock);
	SysScanDesc scan = systable_beginscan(proc, InvalidOid, false, NULL, 0, NULL);
	HeapTuple	tuple;
	List	   *found = NIL;
	ListCell   *lc;

	while (HeapTupleIsValid(tuple = systable_getnext(scan)))
	{
		Form_pg_proc p = (Form_pg_proc) GETSTRUCT(tuple);
		bool		isnull;
		Datum		src;
		char	   *body;
		bool		names = false;
		bool		uuid = p->prorettype == UUIDOID;

		if (p->prolang == INTERNALlanguageId || p->prolang == ClanguageId ||
			p->pronamespace == PG_CATALOG_NAMESPACE ||
			p->pronamespace == get_namespace_oid("information_schema", true))
			continue;
		src = heap_getattr(tuple, Anum_pg_proc_prosrc, RelationGetDescr(proc), &isnull);
		if (isnull)
			continue;
		(void) heap_getattr(tuple, Anum_pg_proc_prosqlbody, RelationGetDescr(proc), &isnull);
		if (!isnull)
			continue;			/* in pg_depend: a blocker if it uses the column */
		body = TextDatumGetCString(src);
		foreach(lc, tree)
			names |= names_word(body, get_rel_name(lfirst_oid(lc)));
		if (!names)
			continue;
		for (int i = 0; i < p->pronargs; i++)
			uuid |= p->proargtypes.values[i] == UUIDOID;
		{
			Datum		all = heap_getattr(tuple, Anum_pg_proc_proallargtypes,
										   RelationGetDescr(proc), &isnull);

			if (!isnull)
			{
				Datum	   *types;
				int			ntypes;

				deconstruct_array(DatumGetArrayTypeP(all), OIDOID, sizeof(Oid), true,
								  TYPALIGN_INT, &types, NULL, &ntypes);
				for (int i = 0; i < ntypes; i++)
					uuid |= DatumGetObjectId(types[i]) == UUIDOID;
			}
		}
		found = lappend(found, list_make2_oid(p->oid, (Oid) uuid));
	}
	systable_endscan(scan);
	table_close(proc, AccessShareLock);

	list_sort(found, function_cmp);
	foreach(lc, found)
	{
		List	   *f = lfirst(lc);

		report_row(rsinfo, step, "review", describe(ProcedureRelationId, linitial_oid(f)),
				   lsecond_oid(f) ?
				   "its body names the table and it takes or returns uuid: a uuid it declares for the column no longer matches, change it" :
				   "its body names the table: sessions that ran it before the conversion may fail until they reconnect");
	}
}

/*
 * What a dependent of the column (column_dependents()) becomes in a
 * conversion, as a row of the dry run: rebuilt, checked again (a scan), or a
 * blocker that ALTER COLUMN TYPE refuses.  Constraints of the types it
 * keeps as they are (not-null, from 18 on) give no row.
 */
static void
report_dependent(ReturnSetInfo *rsinfo, int *step, ObjectAddress *o, const char *col,
				 List *remade)
{
	char	   *what = getObjectDescription(o, true);

	if (what == NULL)
		return;
	switch (o->classId)
	{
		case RelationRelationId:
			{
				char		relkind = get_rel_relkind(o->objectId);

				if (relkind == RELKIND_SEQUENCE)
					return;
				if (o->objectSubId != 0)
					report_row(rsinfo, step, "blocker", what,
							   "a generated column uses the column: ALTER COLUMN TYPE refuses it; drop the generated column, convert, and add it again");
				else if (relkind == RELKIND_INDEX || relkind == RELKIND_PARTITIONED_INDEX)
					report_row(rsinfo, step, "rebuild", what,
							   psprintf(list_member_oid(remade, o->objectId) ?
										"on %s, dropped and made again with ulid's operator class" :
										"on %s",
										describe(RelationRelationId,
												 IndexGetRelation(o->objectId, false))));
				else
					report_row(rsinfo, step, "rebuild", what, NULL);
				return;
			}
		case ConstraintRelationId:
			{
				HeapTuple	tuple = SearchSysCache1(CONSTROID, ObjectIdGetDatum(o->objectId));
				Form_pg_constraint con;

				if (!HeapTupleIsValid(tuple))
					return;
				con = (Form_pg_constraint) GETSTRUCT(tuple);
				if (con->contype == CONSTRAINT_FOREIGN)
					report_row(rsinfo, step, con->convalidated ? "revalidate" : "rebuild", what,
							   con->convalidated ?
							   psprintf("a scan of %s, each row looked up in %s",
										describe(RelationRelationId, con->conrelid),
										describe(RelationRelationId, con->confrelid)) :
							   "NOT VALID: added again as it was, with no scan");
				else if (con->contype == CONSTRAINT_CHECK)
					report_row(rsinfo, step, "revalidate", what,
							   psprintf("a scan of %s",
										describe(RelationRelationId, con->conrelid)));
				else if (OidIsValid(con->conindid))
					report_row(rsinfo, step, "rebuild", describe(RelationRelationId, con->conindid),
							   psprintf("the index of %s", what));
				ReleaseSysCache(tuple);
				return;
			}
		case RewriteRelationId:
			report_row(rsinfo, step, "blocker", what,
					   "ALTER COLUMN TYPE refuses a column that a view or rule uses: drop it, convert, and create it again, in one transaction");
			return;
		case ProcedureRelationId:
			report_row(rsinfo, step, "blocker", what,
					   "ALTER COLUMN TYPE refuses a column that a function's SQL-standard body uses: drop it, convert, and create it again, in one transaction");
			return;
		case TriggerRelationId:
			report_row(rsinfo, step, "blocker", what,
					   "ALTER COLUMN TYPE refuses a column that a trigger's WHEN or UPDATE OF uses: drop it, convert, and create it again, in one transaction");
			return;
		case PolicyRelationId:
			report_row(rsinfo, step, "blocker", what,
					   "ALTER COLUMN TYPE refuses a column that a row security policy uses: drop it, convert, and create it again, in one transaction");
			return;
		case PublicationRelRelationId:
			{
				char	   *use;
				char	   *route;

				publication_column_use(o->objectId, col, &use, &route);
				report_row(rsinfo, step, "blocker", what,
						   psprintf("%s: ALTER COLUMN TYPE refuses it. %s", use, route));
				return;
			}
		case StatisticExtRelationId:
			report_row(rsinfo, step, "rebuild", what, "empty until the next ANALYZE");
			return;
		default:
			report_row(rsinfo, step, "rebuild", what, NULL);
			return;
	}
}

/*
 * ulid_convert_column_dry_run(tab, col): what ulid_convert_column(tab, col)
 * would do, one row per step in the order it takes them, changing nothing:
 * the tables it would lock (and why), what would stop it (blockers), the
 * tables converted and defaults replaced, the indexes and statistics
 * rebuilt, the constraints checked again with a scan, the publications
 * that publish the table, and the functions whose body names it.  The same
 * ownership check and column checks as the conversion, with the same
 * errors; the table is locked only as a SELECT locks it.
 */
PG_FUNCTION_INFO_V1(ulid_convert_column_dry_run);
Datum
ulid_convert_column_dry_run(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);
	char	   *col = NameStr(*PG_GETARG_NAME(1));
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	Oid			ext_schema = get_func_namespace(fcinfo->flinfo->fn_oid);
	Oid			ulid_type = extension_ulid_type(fcinfo->flinfo->fn_oid);
	bool		already_ulid;
	List	   *tree;
	List	   *locks;
	List	   *dependents;
	List	   *remade;
	ConvertTarget *targets;
	int			ntargets;
	int			step = 0;
	ListCell   *lc;

	InitMaterializedSRF(fcinfo, 0);
	check_owner(relid);
	LockRelationOid(relid, AccessShareLock);
	already_ulid = check_table_column(relid, col, ulid_type);
	locks = conversion_locks(relid, col, ulid_type, &tree);
	targets = classify_targets(tree, relid, col, already_ulid, ulid_type, false, &ntargets);
	dependents = already_ulid ? NIL : column_dependents(tree, col);
	remade = remade_indexes(tree, col, fcinfo->flinfo->fn_oid);

	foreach(lc, locks)
	{
		ConvertLock *lock = lfirst(lc);

		report_row(rsinfo, &step, "lock", describe(RelationRelationId, lock->relid),
				   psprintf("ACCESS EXCLUSIVE: %s", lock->why));
	}
	if (!already_ulid)
		foreach(lc, table_blockers(relid, col))
		{
			ConvertBlocker *b = lfirst(lc);

			report_row(rsinfo, &step, "blocker", b->object,
					   psprintf("%s: ALTER COLUMN TYPE refuses it, and so does the conversion, before it locks any other table",
								b->message));
		}
	foreach(lc, dependents)
		if (dependent_blocks(lfirst(lc)))
			report_dependent(rsinfo, &step, lfirst(lc), col, remade);
	for (int i = 0; i < ntargets; i++)
		if (targets[i].kind == UUID_DEFAULT_UNKNOWN)
		{
			ObjectAddress column = {RelationRelationId, targets[i].relid,
			get_attnum(targets[i].relid, col)};

			report_row(rsinfo, &step, "blocker",
					   psprintf("default of %s", getObjectDescription(&column, false)),
					   psprintf("%s is volatile and not a uuid generator the conversion knows: drop the default, convert, then set the default it should have",
								targets[i].old_default));
		}
	for (int i = 0; i < ntargets && !already_ulid; i++)
		report_row(rsinfo, &step, "convert", describe(RelationRelationId, targets[i].relid),
				   "uuid to ulid in place: no value changes, the table is not rewritten");
	for (int i = 0; i < ntargets; i++)
	{
		const char *to = NULL;

		if (targets[i].kind == UUID_DEFAULT_GENERATOR)
			to = psprintf("%s()", quote_qualified_identifier(get_namespace_name(ext_schema),
															 "gen_ulid"));
		else if (targets[i].kind == UUID_DEFAULT_UNCAST)
			to = default_text_of(targets[i].relid, targets[i].uncast_expr);
		if (to != NULL)
			report_row(rsinfo, &step, "default", describe(RelationRelationId, targets[i].relid),
					   psprintf("%s becomes %s", targets[i].old_default, to));
	}
	foreach(lc, dependents)
	{
		ObjectAddress *o = lfirst(lc);

		if (o->classId == RelationRelationId && o->objectSubId == 0)
			report_dependent(rsinfo, &step, o, col, remade);
	}
	/* the repair of a column already ulid makes its indexes with a uuid class again */
	if (already_ulid)
		foreach(lc, remade)
		{
			ObjectAddress index = {RelationRelationId, lfirst_oid(lc), 0};

			report_dependent(rsinfo, &step, &index, col, remade);
		}
	foreach(lc, dependents)
	{
		ObjectAddress *o = lfirst(lc);

		if (o->classId != RelationRelationId && !dependent_blocks(o))
			report_dependent(rsinfo, &step, o, col, remade);
	}
	if (!already_ulid)
		foreach(lc, tree_publications(relid, tree))
			report_row(rsinfo, &step, "publication", describe(PublicationRelationId, lfirst_oid(lc)),
					   "publishes the table: convert the column on each subscriber first");
	if (!already_ulid)
		report_functions(rsinfo, &step, tree);
	return (Datum) 0;
}
