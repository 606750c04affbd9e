/*
 * ulid_check_defaults.c
 *		The event trigger that warns of uuid generators left as a ulid
 *		column's default (ulid_check_defaults()).
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
	 * place on some majors), so it is not used to skip the check.  CREATE
	 * SCHEMA may hold CREATE TABLEs: the trigger sees only the CREATE SCHEMA,
	 * and the tables among the commands it reports.
	 */
	if (IsA(parsetree, CreateStmt) || IsA(parsetree, CreateForeignTableStmt) ||
		IsA(parsetree, CreateSchemaStmt))
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
 * limits the check to the columns the statement named.  A column that a
 * CREATE TABLE took from a parent (INHERITS, PARTITION OF) and does not
 * declare itself has the parent's default, which was warned about where it
 * was set, and whose hint converts the inheriting tables too: once a
 * default, not once a table.  (pg_restore makes an inheriting table, then
 * sets its inherited column's default again with ALTER TABLE ONLY: that one
 * warning is its column's.)
 */
static void
warn_uuid_defaults(Oid ulid_type, List *columns)
{
	List	   *relids = NIL;
	ListCell   *lc;
	int			nestlevel = pin_search_path();

	SPI_connect();
	if (SPI_execute("SELECT classid, objid FROM pg_catalog.pg_event_trigger_ddl_commands()",
					false, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not read pg_event_trigger_ddl_commands()");
	AtEOXact_GUC(true, nestlevel);
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

			/* a ulid column, or one of a domain over ulid */
			if (att->attisdropped || !att->atthasdef ||
				(att->atttypid != ulid_type && getBaseType(att->atttypid) != ulid_type))
				continue;
			if (columns == NIL && !att->attislocal)
				continue;		/* inherited by CREATE TABLE */
			foreach(c, columns)
				named |= strcmp(lfirst(c), name) == 0;
			if (!named)
				continue;
			uuid_expr = under_cast(column_default(rel, att->attnum), UUIDOID);
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
					/* ulid_convert_column() takes no column of a domain */
					att->atttypid == ulid_type ?
					errhint("Replace it: SELECT * FROM ulid_convert_column(%s, %s), or ALTER TABLE %s ALTER COLUMN %s SET DEFAULT gen_ulid().",
							quote_literal_cstr(table), quote_literal_cstr(name),
							table, quote_identifier(name)) :
					errhint("Replace it: ALTER TABLE %s ALTER COLUMN %s SET DEFAULT gen_ulid().",
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
