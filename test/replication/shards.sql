-- Run on the coordinator ("front") by test/replication.sh, with psql
-- variables shard1_host, shard1_port, shard2_host and shard2_port.  The
-- shard tables events_0 .. events_3 already exist on the shards.
CREATE SERVER shard1 FOREIGN DATA WRAPPER postgres_fdw
	OPTIONS (host :'shard1_host', port :'shard1_port', dbname 'postgres', extensions 'ulid', batch_size '500');
CREATE SERVER shard2 FOREIGN DATA WRAPPER postgres_fdw
	OPTIONS (host :'shard2_host', port :'shard2_port', dbname 'postgres', extensions 'ulid', batch_size '500');
CREATE USER MAPPING FOR CURRENT_USER SERVER shard1 OPTIONS (user 'postgres');
CREATE USER MAPPING FOR CURRENT_USER SERVER shard2 OPTIONS (user 'postgres');

CREATE TABLE events (id ulid NOT NULL DEFAULT gen_ulid(), body text) PARTITION BY HASH (id);
CREATE FOREIGN TABLE events_0 PARTITION OF events FOR VALUES WITH (MODULUS 4, REMAINDER 0) SERVER shard1;
CREATE FOREIGN TABLE events_1 PARTITION OF events FOR VALUES WITH (MODULUS 4, REMAINDER 1) SERVER shard2;
CREATE FOREIGN TABLE events_2 PARTITION OF events FOR VALUES WITH (MODULUS 4, REMAINDER 2) SERVER shard1;
CREATE FOREIGN TABLE events_3 PARTITION OF events FOR VALUES WITH (MODULUS 4, REMAINDER 3) SERVER shard2;
