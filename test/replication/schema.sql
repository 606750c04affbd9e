-- Tables replicated by test/replication.sh: created the same way on the
-- publisher and in both subscriber databases.
CREATE EXTENSION ulid;

-- A ulid primary key (the replica identity), a uuid and a nullable ulid
-- that is not a key.
CREATE TABLE orders (
	id     ulid PRIMARY KEY DEFAULT gen_ulid(),
	ref    uuid NOT NULL DEFAULT gen_random_uuid(),
	parent ulid,
	item   text NOT NULL,
	qty    int NOT NULL
);

-- No key: updates and deletes are matched on every column with each type's
-- default equality, ulid's = among them.
CREATE TABLE notes (
	order_id ulid NOT NULL,
	at       ulid NOT NULL DEFAULT gen_ulid(),
	body     text NOT NULL
);
ALTER TABLE notes REPLICA IDENTITY FULL;
