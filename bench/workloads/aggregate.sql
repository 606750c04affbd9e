-- What min(ulid)'s combine function buys: min() over :BULK unindexed ulids
-- run by the leader alone and with 2 parallel workers (partial aggregates
-- combined by ulid_smaller), against the same aggregate without a combine
-- function (min_nocombine, which cannot be split, nor can any aggregate
-- beside it in the query: count(*) here), against ORDER BY id LIMIT 1 (the
-- form that distributed engines push down to each shard), and both forms on
-- an indexed copy.  On 2 cores, 2 workers and the leader share them.
-- cluster: plain
-- rows: :BULK
-- baseline: min: serial
-- rounds: 9

-- @setup
-- Random times over a year: no order the scan could exploit.
CREATE TABLE agg AS
	SELECT gen_ulid(now() - random() * interval '365 days') AS id FROM generate_series(1, :BULK);
CREATE TABLE agg_indexed AS TABLE agg;
CREATE INDEX ON agg_indexed (id);
VACUUM ANALYZE agg, agg_indexed;
-- Two workers whatever the size (a quick run's table would get one).
ALTER TABLE agg SET (parallel_workers = 2);
-- min(ulid) as 1.0 defines it, less the combine function.
CREATE AGGREGATE min_nocombine(ulid) (
	SFUNC = ulid_smaller, STYPE = ulid, SORTOP = <, PARALLEL = SAFE
);

-- @check
-- With workers allowed, min() is split into partial aggregates and both
-- workers start; min_nocombine() is not split.
SET max_parallel_workers_per_gather = 2;
SELECT plan_of('ANALYZE SELECT min(id) FROM agg') LIKE '%Workers Launched: 2%Partial Aggregate%'
	AND plan_of('SELECT count(*), min(id) FROM agg') LIKE '%Partial Aggregate%'
	AND plan_of('SELECT min_nocombine(id) FROM agg') NOT LIKE '%Partial Aggregate%'
	AND plan_of('SELECT count(*), min_nocombine(id) FROM agg') NOT LIKE '%Partial Aggregate%';

-- @check
SET max_parallel_workers_per_gather = 2;
SELECT plan_of('SELECT id FROM agg ORDER BY id LIMIT 1') LIKE '%Gather Merge%'
	AND plan_of('SELECT min(id) FROM agg_indexed') LIKE '%Index Only Scan%'
	AND plan_of('SELECT id FROM agg_indexed ORDER BY id LIMIT 1') LIKE '%Index Only Scan%';

-- @check
-- All forms agree.
SET max_parallel_workers_per_gather = 2;
SELECT (SELECT min(id) FROM agg) = (SELECT min_nocombine(id) FROM agg)
	AND (SELECT min(id) FROM agg) = (SELECT id FROM agg ORDER BY id LIMIT 1)
	AND (SELECT min(id) FROM agg) = (SELECT min(id) FROM agg_indexed);

-- @case min: serial
SET max_parallel_workers_per_gather = 0;
-- @timed
SELECT min(id) FROM agg;

-- @case min: 2 workers vs min: serial
SET max_parallel_workers_per_gather = 2;
-- @timed
SELECT min(id) FROM agg;

-- @case min without combine: 2 workers vs min: 2 workers, min: serial
SET max_parallel_workers_per_gather = 2;
-- @timed
SELECT min_nocombine(id) FROM agg;

-- @case count and min: 2 workers vs min: 2 workers
SET max_parallel_workers_per_gather = 2;
-- @timed
SELECT count(*), min(id) FROM agg;

-- @case count and min without combine: 2 workers vs count and min: 2 workers
SET max_parallel_workers_per_gather = 2;
-- @timed
SELECT count(*), min_nocombine(id) FROM agg;

-- @case ORDER BY LIMIT 1: serial vs min: serial
SET max_parallel_workers_per_gather = 0;
-- @timed
SELECT id FROM agg ORDER BY id LIMIT 1;

-- @case ORDER BY LIMIT 1: 2 workers vs min: 2 workers, min: serial
SET max_parallel_workers_per_gather = 2;
-- @timed
SELECT id FROM agg ORDER BY id LIMIT 1;

-- @case min: indexed vs min: serial
SET max_parallel_workers_per_gather = 2;
-- @timed
SELECT min(id) FROM agg_indexed;

-- @case ORDER BY LIMIT 1: indexed vs min: indexed
SET max_parallel_workers_per_gather = 2;
-- @timed
SELECT id FROM agg_indexed ORDER BY id LIMIT 1;
