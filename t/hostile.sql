-- t/hostile.sql: what an ordinary role that owns a database can plant for a
-- superuser who uses ulid there with the default search_path ("$user",
-- public).  Run by that role (t/015_search_path.pl, t/014_tle.pl).
--
-- pg_catalog is searched first, but an exact match wins over a match that
-- needs a coercion wherever it is on the path: so, in schema public, an
-- operator or function with exact argument types for every signature that
-- pg_catalog lacks exactly but resolves with a coercion.  Operators: every
-- binary operator name below, for every pair of the types below (bigint &
-- integer, oid <> integer, numeric * integer, text || name ...).
-- Functions: every concrete form, over the same types, of the polymorphic
-- and VARIADIC "any" functions of pg_catalog that ulid's SQL calls
-- (unnest(oid[]), format(text, name, name), concat(text, text) ...).
--
-- Each trap returns what pg_catalog's own would, so that nothing but its
-- record tells: it counts its call in the sequence public.hijacked, writes
-- its name to public.hijacks, and if its caller is a superuser makes the
-- planting role one.  A test then checks that nothing was recorded.

CREATE SEQUENCE public.hijacked;
CREATE TABLE public.hijacks (trap text, by_role name DEFAULT current_user);
GRANT USAGE, UPDATE ON SEQUENCE public.hijacked TO PUBLIC;
GRANT INSERT ON public.hijacks TO PUBLIC;

CREATE FUNCTION public.hijacked_by(trap text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	stack pg_catalog.text;
BEGIN
	GET DIAGNOSTICS stack = PG_CONTEXT;
	RAISE LOG 'hijacked by %: %', trap, stack;
	PERFORM pg_catalog.nextval('public.hijacked'::pg_catalog.regclass);
	INSERT INTO public.hijacks (trap) VALUES (trap);
	IF (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname OPERATOR(pg_catalog.=) current_user) THEN
		EXECUTE pg_catalog.format('ALTER ROLE %I SUPERUSER',
			(SELECT nspowner::pg_catalog.regrole::pg_catalog.text FROM pg_catalog.pg_namespace
			 WHERE nspname OPERATOR(pg_catalog.=) 'public'));
	END IF;
END
$$;

DO $plant$
DECLARE
	types pg_catalog.text[] := ARRAY['smallint', 'integer', 'bigint', 'numeric', 'real', 'double precision',
		'oid', 'text', 'name', '"char"', 'bytea', 'boolean', 'timestamp with time zone', 'interval', 'uuid',
		'regclass', 'regnamespace', 'regtype'];
	ops pg_catalog.text[] := ARRAY['=', '<>', '<', '<=', '>', '>=', '+', '-', '*', '/', '%', '&', '|', '#',
		'<<', '>>', '||', '~', '!~', '~~', '!~~', '~*', '^', '@>', '<@', '&&'];
	fns pg_catalog.text[] := ARRAY['unnest', 'format', 'concat', 'concat_ws', 'array_agg', 'string_agg',
		'array_to_string', 'array_length', 'cardinality', 'pg_typeof', 'num_nonnulls', 'array_position',
		'array_append', 'to_jsonb', 'row_to_json', 'quote_literal', 'quote_nullable', 'textanycat', 'anytextcat', 'array_cat', 'array_dims', 'array_lower', 'array_upper',
		'generate_subscripts'];
	op pg_catalog.text;
	l pg_catalog.text;
	r pg_catalog.text;
	rt pg_catalog.text;
	fn pg_catalog.text;
	args pg_catalog.text;
	call pg_catalog.text;
	argtypes pg_catalog.text[];
	n pg_catalog.int4 := 0;
	k pg_catalog.int4;
BEGIN
	FOREACH op IN ARRAY ops LOOP
		FOREACH l IN ARRAY types LOOP
			FOREACH r IN ARRAY types LOOP
				CONTINUE WHEN EXISTS (SELECT FROM pg_catalog.pg_operator o
					WHERE o.oprname OPERATOR(pg_catalog.=) op
					  AND o.oprleft OPERATOR(pg_catalog.=) l::pg_catalog.regtype::pg_catalog.oid
					  AND o.oprright OPERATOR(pg_catalog.=) r::pg_catalog.regtype::pg_catalog.oid
					  AND o.oprnamespace OPERATOR(pg_catalog.=) 'pg_catalog'::pg_catalog.regnamespace::pg_catalog.oid);
				BEGIN
					EXECUTE pg_catalog.format('SELECT pg_catalog.format_type(pg_catalog.pg_typeof(NULL::%s OPERATOR(pg_catalog.%s) NULL::%s)::pg_catalog.oid, NULL)',
						l, op, r) INTO rt;
				EXCEPTION WHEN OTHERS THEN
					CONTINUE;
				END;
				n := n OPERATOR(pg_catalog.+) 1;
				EXECUTE pg_catalog.format($f$CREATE FUNCTION public.trap_%s(a %s, b %s) RETURNS %s LANGUAGE plpgsql AS $t$
					BEGIN PERFORM public.hijacked_by(%L); RETURN a OPERATOR(pg_catalog.%s) b; END $t$$f$,
					n, l, r, rt, pg_catalog.format('operator %s(%s, %s)', op, l, r), op);
				EXECUTE pg_catalog.format('CREATE OPERATOR public.%s (LEFTARG = %s, RIGHTARG = %s, FUNCTION = public.trap_%s)',
					op, l, r, n);
			END LOOP;
		END LOOP;
	END LOOP;

	-- Functions: one to four arguments of one type, the text first or not.
	FOREACH fn IN ARRAY fns LOOP
		FOREACH l IN ARRAY types LOOP
			FOR k IN 1 .. 4 LOOP
				FOREACH args IN ARRAY ARRAY[
					pg_catalog.array_to_string(pg_catalog.array_fill(l, ARRAY[k]), ', '),
					pg_catalog.array_to_string(pg_catalog.array_fill(l OPERATOR(pg_catalog.||) '[]', ARRAY[k]), ', '),
					pg_catalog.concat('text, ', pg_catalog.array_to_string(pg_catalog.array_fill(l, ARRAY[k]), ', '))]
				LOOP
					CONTINUE WHEN pg_catalog.to_regprocedure(pg_catalog.format('pg_catalog.%I(%s)', fn, args)) IS NOT NULL
						OR pg_catalog.to_regprocedure(pg_catalog.format('public.%I(%s)', fn, args)) IS NOT NULL;
					argtypes := pg_catalog.string_to_array(args, ', ');
					call := pg_catalog.format('pg_catalog.%I(%s)', fn,
						(SELECT pg_catalog.string_agg(pg_catalog.concat('$', i), ', ')
						 FROM pg_catalog.generate_subscripts(argtypes, 1) i));
					-- the type it returns, from a query that has a row even
					-- where the function returns none
					BEGIN
						EXECUTE pg_catalog.format('SELECT pg_catalog.format_type(pg_catalog.pg_typeof(x)::pg_catalog.oid, NULL)
							FROM (SELECT pg_catalog.%I(%s) AS x UNION ALL SELECT NULL) s LIMIT 1', fn,
							(SELECT pg_catalog.string_agg(pg_catalog.concat('NULL::', t), ', ')
							 FROM pg_catalog.unnest(argtypes) t)) INTO rt;
					EXCEPTION WHEN OTHERS THEN
						CONTINUE;
					END;
					CONTINUE WHEN rt IS NULL;
					n := n OPERATOR(pg_catalog.+) 1;
					BEGIN
						IF EXISTS (SELECT FROM pg_catalog.pg_proc p WHERE p.proname OPERATOR(pg_catalog.=) fn
								   AND p.pronamespace OPERATOR(pg_catalog.=) 'pg_catalog'::pg_catalog.regnamespace::pg_catalog.oid
								   AND p.proretset) THEN
							EXECUTE pg_catalog.format($f$CREATE FUNCTION public.%I(%s) RETURNS SETOF %s LANGUAGE plpgsql AS $t$
								BEGIN PERFORM public.hijacked_by(%L); RETURN QUERY SELECT %s; END $t$$f$,
								fn, args, rt, pg_catalog.format('function %s(%s)', fn, args), call);
						ELSE
							EXECUTE pg_catalog.format($f$CREATE FUNCTION public.%I(%s) RETURNS %s LANGUAGE plpgsql AS $t$
								BEGIN PERFORM public.hijacked_by(%L); RETURN %s; END $t$$f$,
								fn, args, rt, pg_catalog.format('function %s(%s)', fn, args), call);
						END IF;
					EXCEPTION WHEN OTHERS THEN
						NULL;	-- not a signature a function can have (an aggregate's, say)
					END;
				END LOOP;
			END LOOP;
		END LOOP;
	END LOOP;
	RAISE NOTICE 'planted % traps', n;
END
$plant$;
