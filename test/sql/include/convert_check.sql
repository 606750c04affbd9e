-- Helpers of the conversion's suites (convert, convert_scope): what a
-- statement locks, and the dry run held against what the conversion does.
-- Each runs the statement in a subtransaction that it then rolls back, so
-- nothing changes and the suite goes on as before.

-- pg_temp.table_locks(statement): the tables (not catalogs, not temporary)
-- that the statement leaves locked in this session, each with the
-- strongest mode held on it, by name; or one row with the error it raised.
CREATE FUNCTION pg_temp.table_locks(statement text, OUT "table" text, OUT mode text)
RETURNS SETOF record LANGUAGE plpgsql AS $$
DECLARE
	modes CONSTANT text[] := ARRAY['AccessShareLock', 'RowShareLock', 'RowExclusiveLock',
		'ShareUpdateExclusiveLock', 'ShareLock', 'ShareRowExclusiveLock', 'ExclusiveLock',
		'AccessExclusiveLock'];
	held text[];
BEGIN
	BEGIN
		SET LOCAL client_min_messages = error;
		EXECUTE statement;
		SELECT array_agg(format('%s=%s', h.relation::regclass, modes[h.strongest])
						 ORDER BY h.relation::regclass::text COLLATE "C")
		INTO held
		FROM (SELECT l.relation, max(array_position(modes, l.mode)) AS strongest
			  FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
			  WHERE l.pid = pg_backend_pid() AND l.locktype = 'relation' AND l.granted
				AND c.relkind IN ('r', 'p', 'f') AND c.relpersistence <> 't'
				AND c.relnamespace <> 'pg_catalog'::regnamespace
			  GROUP BY l.relation) h;
		RAISE EXCEPTION 'rolled back' USING ERRCODE = 'UC001';
	EXCEPTION
		WHEN SQLSTATE 'UC001' THEN
			NULL;
		WHEN OTHERS THEN
			"table" := 'error: ' || SQLERRM;
			RETURN NEXT;
			RETURN;
	END;
	RETURN QUERY SELECT split_part(h, '=', 1), split_part(h, '=', 2) FROM unnest(held) h;
END $$;

-- pg_temp.catalog_state(): what a conversion can change, one row per
-- object, named as the dry run names it: the type of each column of each
-- table ('convert'), each default ('default': its expression, less
-- the implicit cast to ulid that converting its column adds), and by OID (an object made
-- again has a new one) each index ('rebuild'), foreign key and check
-- constraint ('revalidate', or 'rebuild' for a NOT VALID key) and
-- statistics object ('rebuild').  A primary key, unique or exclusion
-- constraint is its index.  Outside pg_catalog, information_schema and
-- the temporary schemas.
CREATE FUNCTION pg_temp.catalog_state(OUT kind text, OUT object text, OUT state text)
RETURNS SETOF record LANGUAGE sql AS $$
	WITH tables AS (
		SELECT oid FROM pg_class
		WHERE relkind IN ('r', 'p', 'f') AND relnamespace::regnamespace::text NOT LIKE 'pg\_%'
		  AND relnamespace <> 'information_schema'::regnamespace)
	SELECT 'convert', format('table %s', a.attrelid::regclass),
		format('%I %s', a.attname, format_type(a.atttypid, a.atttypmod))
	FROM pg_attribute a JOIN tables t ON t.oid = a.attrelid
	WHERE a.attnum > 0 AND NOT a.attisdropped
	UNION ALL
	SELECT 'default', format('table %s', d.adrelid::regclass),
		format('%I %s %s', a.attname, pg_get_expr(d.adbin, d.adrelid),
			   regexp_replace(regexp_replace(d.adbin, ' :location -?[0-9]+', '', 'g'),
							  '^\{RELABELTYPE :arg (.*) :resulttype ' || 'ulid'::regtype::oid
							  || ' .*:relabelformat 2[^{}]*\}$', '\1'))
	FROM pg_attrdef d JOIN tables t ON t.oid = d.adrelid
	JOIN pg_attribute a ON a.attrelid = d.adrelid AND a.attnum = d.adnum
	UNION ALL
	SELECT 'rebuild', format('index %s', i.indexrelid::regclass), i.indexrelid::text
	FROM pg_index i JOIN tables t ON t.oid = i.indrelid
	UNION ALL
	SELECT CASE WHEN c.contype = 'f' AND NOT c.convalidated THEN 'rebuild' ELSE 'revalidate' END,
		format('constraint %s on table %s', quote_ident(c.conname), c.conrelid::regclass), c.oid::text
	FROM pg_constraint c JOIN tables t ON t.oid = c.conrelid
	WHERE c.contype IN ('f', 'c')
	UNION ALL
	SELECT 'rebuild', format('statistics object %s', quote_ident(s.stxname)), s.oid::text
	FROM pg_statistic_ext s JOIN tables t ON t.oid = s.stxrelid
$$;

-- pg_temp.dry_run_check(tab, col): ulid_convert_column_dry_run(tab, col)
-- held against what ulid_convert_column(tab, col) then does.  Done: the
-- tables the conversion holds ACCESS EXCLUSIVE ('lock'), and each object
-- whose catalog_state() changed.  said_not_done: the dry run's lock,
-- convert, default, rebuild and revalidate rows that nothing done
-- matches; done_not_said: what was done that no row announced.  A refused
-- conversion agrees if the dry run refused the same way or showed a
-- blocker.
CREATE FUNCTION pg_temp.dry_run_check(tab regclass, col name, OUT outcome text,
	OUT said_not_done text[], OUT done_not_said text[])
LANGUAGE plpgsql AS $$
DECLARE
	said text[];
	blockers bigint;
	dry_error text;
	done text[];
BEGIN
	BEGIN
		SELECT coalesce(array_agg(DISTINCT d.action || ': ' || d.object)
						FILTER (WHERE d.action <> 'blocker'), '{}'),
			count(*) FILTER (WHERE d.action = 'blocker')
		INTO said, blockers
		FROM ulid_convert_column_dry_run(tab, col) d
		WHERE d.action IN ('lock', 'convert', 'default', 'rebuild', 'revalidate', 'blocker');
	EXCEPTION WHEN OTHERS THEN
		dry_error := SQLERRM;
	END;
	BEGIN
		SET LOCAL client_min_messages = error;
		CREATE TEMP TABLE dry_run_check_before AS SELECT * FROM pg_temp.catalog_state();
		PERFORM ulid_convert_column(tab, col);
		SELECT coalesce(array_agg(DISTINCT x), '{}') INTO done
		FROM (SELECT s.kind || ': ' || s.object AS x
			  FROM (SELECT * FROM pg_temp.catalog_state()
					EXCEPT SELECT * FROM pg_temp.dry_run_check_before) s
			  UNION
			  SELECT format('lock: table %s', l.relation::regclass)
			  FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
			  WHERE l.pid = pg_backend_pid() AND l.locktype = 'relation' AND l.granted
				AND l.mode = 'AccessExclusiveLock' AND c.relkind IN ('r', 'p', 'f')
				AND c.relpersistence <> 't') d;
		RAISE EXCEPTION 'rolled back' USING ERRCODE = 'UC001';
	EXCEPTION
		WHEN SQLSTATE 'UC001' THEN
			NULL;
		WHEN OTHERS THEN
			outcome := CASE WHEN SQLERRM = dry_error THEN 'both refuse: '
						WHEN blockers > 0 THEN 'blocker shown, refused: '
						ELSE 'refused, no blocker shown: ' END || SQLERRM;
			said_not_done := '{}';
			done_not_said := '{}';
			RETURN;
	END;
	IF dry_error IS NOT NULL THEN
		outcome := 'dry run refused, conversion did not: ' || dry_error;
		RETURN;
	END IF;
	said_not_done := ARRAY(SELECT x FROM (SELECT unnest(said) EXCEPT SELECT unnest(done)) s(x)
						   ORDER BY x COLLATE "C");
	done_not_said := ARRAY(SELECT x FROM (SELECT unnest(done) EXCEPT SELECT unnest(said)) s(x)
						   ORDER BY x COLLATE "C");
	outcome := CASE WHEN blockers > 0 THEN 'blocker shown, not refused'
				WHEN said_not_done = '{}' AND done_not_said = '{}' THEN 'agrees'
				ELSE 'differs' END;
END $$;
