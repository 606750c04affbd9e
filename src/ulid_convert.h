/*
 * ulid_convert.h
 *		What the conversion of uuid columns shares among its files:
 *		ulid_convert.c (ulid_convert_column() and the checks),
 *		ulid_convert_touch.c (what a conversion locks and rebuilds, and the
 *		publications of its tables), ulid_convert_dry_run.c (the dry run)
 *		and ulid_check_defaults.c (the event trigger).
 */
#ifndef ULID_CONVERT_H
#define ULID_CONVERT_H

#include "catalog/objectaddress.h"
#include "nodes/pg_list.h"
#include "utils/relcache.h"

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

/* One table a conversion changes: the named one and each inheriting one. */
typedef struct ConvertTarget
{
	Oid			relid;
	UuidDefaultKind kind;
	char	   *old_default;	/* as pg_get_expr() shows it, or NULL */
	Node	   *uncast_expr;	/* UUID_DEFAULT_UNCAST: the ulid expression */
	char	   *uncast_default; /* and its text, under pin_search_path() */
} ConvertTarget;

/* A table a conversion locks, and why. */
typedef struct ConvertLock
{
	Oid			relid;
	int			depth;			/* how many partition ancestors it has */
	const char *why;
} ConvertLock;

/* Something ALTER COLUMN TYPE refuses, with its error. */
typedef struct ConvertBlocker
{
	char	   *object;			/* what, as the dry run names it */
	int			sqlstate;
	char	   *message;
	char	   *detail;			/* or NULL */
} ConvertBlocker;

/* Whether roleid owns a relation (object_ownercheck() from 16 on). */
#if PG_VERSION_NUM < 160000
#define relation_ownercheck(relid, roleid) pg_class_ownercheck(relid, roleid)
#else
#define relation_ownercheck(relid, roleid) object_ownercheck(RelationRelationId, relid, roleid)
#endif

/* The publications that name a table (19 adds those that name it in EXCEPT). */
#if PG_VERSION_NUM >= 190000
#define relation_publications(relid) GetRelationIncludedPublications(relid)
#else
#define relation_publications(relid) GetRelationPublications(relid)
#endif

extern Node *under_cast(Node *expr, Oid type);
extern UuidDefaultKind classify_uuid_default(Node *expr, Oid ulid_type);
extern Node *column_default(Relation rel, AttrNumber attnum);
extern Node *column_default_of(Oid relid, AttrNumber attnum);
extern char *default_text(Relation rel, Node *expr);
extern char *default_text_of(Oid relid, Node *expr);
extern int pin_search_path(void);
extern Oid extension_ulid_type(Oid fn_oid);
extern void check_owner(Oid relid);
extern bool check_table_column(Oid relid, const char *col, Oid ulid_type);
extern ConvertTarget *classify_targets(List *tree, Oid relid, const char *col, bool already_ulid, Oid ulid_type, bool raise, int *ntargets);
extern List *column_dependents(List *tree, const char *col);
extern List *conversion_locks(Oid relid, const char *col, Oid ulid_type, List **tree);
extern List *lock_conversion(Oid relid, const char *col, Oid ulid_type);
extern List *table_blockers(Oid relid, const char *col);
extern bool dependent_blocks(ObjectAddress *o);
extern void refuse_dependent(ObjectAddress *o, Oid relid, const char *col);
extern List *remade_indexes(List *tree, const char *col, Oid fn_oid);
extern char *publication_names(List *pubids);
extern List *tree_publications(Oid relid, List *tree);
extern void publication_column_use(Oid prid, const char *col, char **use, char **route);

#endif							/* ULID_CONVERT_H */
