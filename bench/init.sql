-- Run by bench/run once in each cluster, before any workload.
CREATE EXTENSION ulid;

-- The plan of a query as one text, for the @check blocks that make sure a
-- case measures the plan it names (a Sort, a Hash Join, ...).
CREATE FUNCTION plan_of(query text) RETURNS text LANGUAGE plpgsql AS $f$
DECLARE
	line text;
	plan text := '';
BEGIN
	FOR line IN EXECUTE 'EXPLAIN ' || query LOOP
		plan := plan || line || E'\n';
	END LOOP;
	RETURN plan;
END
$f$;

-- pg_uuidv7, the most used UUIDv7 extension, where it is installed (Debian
-- ships it for 18 as postgresql-18-pg-uuidv7, which bin/setup installs
-- there): a peer in peers_v7.sql.
DO $$
BEGIN
	IF EXISTS (SELECT FROM pg_available_extensions WHERE name = 'pg_uuidv7') THEN
		CREATE EXTENSION pg_uuidv7;
	END IF;
END
$$;
