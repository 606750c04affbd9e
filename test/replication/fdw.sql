-- Run on the local cluster ("front") by test/replication.sh, with psql
-- variables host and port naming the remote cluster, which has the table
-- items and the ulid extension.  Two foreign servers on the same remote:
-- remote learns the extensions option below; remote_plain never does, so
-- its foreign table shows what is not pushed down without it.
CREATE EXTENSION ulid;
CREATE EXTENSION postgres_fdw;

CREATE SERVER remote FOREIGN DATA WRAPPER postgres_fdw
	OPTIONS (host :'host', port :'port', dbname 'postgres');
CREATE SERVER remote_plain FOREIGN DATA WRAPPER postgres_fdw
	OPTIONS (host :'host', port :'port', dbname 'postgres');
CREATE USER MAPPING FOR CURRENT_USER SERVER remote OPTIONS (user 'postgres');
CREATE USER MAPPING FOR CURRENT_USER SERVER remote_plain OPTIONS (user 'postgres');

ALTER SERVER remote OPTIONS (ADD extensions 'ulid');
IMPORT FOREIGN SCHEMA public LIMIT TO (items) FROM SERVER remote INTO public;

CREATE SCHEMA plain;
IMPORT FOREIGN SCHEMA public LIMIT TO (items) FROM SERVER remote_plain INTO plain;
