-- The table the text I/O, sort, index, DISTINCT and join workloads read,
-- made once per cluster (the first workload that includes this file makes
-- it; the others find it).  d: :N ulids of random times over the past year
-- (so in no particular order, like a table that has lived a year), :N random
-- uuids, and both as text; d2 holds the same keys shuffled.
CREATE TABLE IF NOT EXISTS d AS
	SELECT u, g, u::text AS us, g::text AS gs
	FROM (SELECT gen_ulid(now() - random() * interval '365 days') AS u,
				 gen_random_uuid() AS g
		  FROM generate_series(1, :N)) s;
CREATE TABLE IF NOT EXISTS d2 AS SELECT u, g FROM d ORDER BY random();
VACUUM ANALYZE d, d2;
