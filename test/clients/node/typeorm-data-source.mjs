// TypeORM's data source for the ulid tables: the entities and the one line
// that lets TypeORM accept a column of type 'ulid'.  Imported by typeorm.mjs
// and given to TypeORM's CLI (migration:generate, migration:run) with -d.
//
// Connects through the libpq environment (PGHOST, PGPORT, PGUSER,
// PGDATABASE); migrations are written to and read from
// $ULID_CLIENT_BUILD/typeorm-migrations, so nothing is written here.  The
// code blocks of docs/clients/node.md's TypeORM section appear verbatim
// below (test/check_docs.py checks).
import { DataSource, EntitySchema } from 'typeorm';

export const connection = {
  type: 'postgres',
  host: process.env.PGHOST,
  port: Number(process.env.PGPORT),
  username: process.env.PGUSER,
  database: process.env.PGDATABASE,
};

// docs/clients/node.md snippet: TypeORM entities.
export const Order = new EntitySchema({
  name: 'Order',
  tableName: 'typeorm_orders',
  columns: {
    id: { type: 'ulid', primary: true, default: () => 'gen_ulid()' },
    item: { type: 'text' },
  },
  relations: {
    lines: { type: 'one-to-many', target: 'Line', inverseSide: 'order' },
  },
});

export const Line = new EntitySchema({
  name: 'Line',
  tableName: 'typeorm_lines',
  columns: {
    id: { type: 'ulid', primary: true, default: () => 'gen_ulid()' },
    qty: { type: 'int' },
  },
  relations: {
    order: { type: 'many-to-one', target: 'Order', joinColumn: { name: 'order_id' }, nullable: false, onDelete: 'CASCADE' },
  },
});
// End of docs/clients/node.md snippet.

const dataSource = new DataSource({
  ...connection,
  entities: [Order, Line],
  migrations: [`${process.env.ULID_CLIENT_BUILD}/typeorm-migrations/*.js`],
  migrationsTableName: 'typeorm_migrations',
});
// docs/clients/node.md snippet: TypeORM registration.
dataSource.driver.supportedDataTypes.push('ulid'); // before initialize(): TypeORM checks column types there
// End of docs/clients/node.md snippet.

export default dataSource;
