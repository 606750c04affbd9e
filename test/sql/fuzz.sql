-- 100,000 random strings through ulid_in: each is accepted and round-trips,
-- or is rejected with SQLSTATE 22P02.  No other error, no crash.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS ulid;
RESET client_min_messages;

-- Lengths 0-40; characters from the Base32 alphabet with aliases and U in
-- both cases (often), printable ASCII and controls, and any Unicode scalar
-- value (surrogates skipped, as UTF-8 cannot hold them).
CREATE FUNCTION pg_temp.random_string() RETURNS text LANGUAGE sql VOLATILE AS $$
	SELECT coalesce(string_agg(
		CASE WHEN r < 0.6 THEN substr('0123456789ABCDEFGHJKMNPQRSTVWXYZabcdefghjkmnpqrstvwxyzIiLlOoUu',
									  1 + floor(random() * 62)::int, 1)
			 WHEN r < 0.8 THEN chr(1 + floor(random() * 127)::int)
			 ELSE chr(CASE WHEN cp BETWEEN 55296 AND 57343 THEN cp + 2048 ELSE cp END)
		END, ''), '')
	FROM (SELECT random() AS r, 1 + floor(random() * 1114111)::int AS cp
		  FROM generate_series(1, floor(random() * 41)::int)) c
$$;

-- What the rules say about s, written without the type: canonical text or NULL.
CREATE FUNCTION pg_temp.expected(s text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
	SELECT CASE WHEN length(s) = 26
				 AND translate(upper(s COLLATE "C"), 'ILO', '110') ~ '^[0-7][0-9A-HJKMNP-TV-Z]{25}$'
			THEN translate(upper(s COLLATE "C"), 'ILO', '110') END
$$;

CREATE FUNCTION pg_temp.fuzz(n int, OUT accepted int, OUT rejected int, OUT wrong int)
LANGUAGE plpgsql AS $$
DECLARE
	s text;
	got text;
BEGIN
	accepted := 0; rejected := 0; wrong := 0;
	FOR i IN 1 .. n LOOP
		-- Every tenth string is a valid ULID in random case and aliases, to
		-- exercise acceptance as much as rejection.
		s := CASE WHEN i % 10 = 0
				  THEN substr('01234567oOiIlL', 1 + floor(random() * 14)::int, 1) ||
					   (SELECT string_agg(substr('0123456789ABCDEFGHJKMNPQRSTVWXYZabcdefghjkmnpqrstvwxyzIiLlOo',
												 1 + floor(random() * 60)::int, 1), '')
						FROM generate_series(1, 25))
				  ELSE pg_temp.random_string() END;
		BEGIN
			got := s::ulid::text;
			IF got IS DISTINCT FROM pg_temp.expected(s) OR got::ulid::text <> got THEN
				wrong := wrong + 1;
				RAISE NOTICE 'accepted %, gave %', s, got;
			ELSE
				accepted := accepted + 1;
			END IF;
		EXCEPTION
			WHEN invalid_text_representation THEN
				IF pg_temp.expected(s) IS NOT NULL THEN
					wrong := wrong + 1;
					RAISE NOTICE 'rejected valid %', s;
				ELSE
					rejected := rejected + 1;
				END IF;
		END;
	END LOOP;
END $$;

SELECT accepted >= 10000 AS many_accepted, rejected > 50000 AS many_rejected,
	accepted + rejected AS handled, wrong
FROM pg_temp.fuzz(100000);
