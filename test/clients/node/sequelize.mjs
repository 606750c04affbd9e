// Sequelize 6 (on node-postgres, with pg-hstore) against the ulid type; run
// by test/clients/node/run.
//
// Connects through the libpq environment (PGHOST, PGPORT, PGUSER,
// PGDATABASE) to a database where CREATE EXTENSION ulid has run.  Prints
// "ok - sequelize: WHAT" or "FAILED - sequelize: WHAT : WHY" per check;
// exits non-zero if any check failed.  The Sequelize code blocks of
// docs/clients/node.md appear verbatim below (test/check_docs.py checks).
import crypto from 'node:crypto';
import util from 'node:util';

import { DataTypes, Op, QueryTypes, Sequelize } from 'sequelize';

// The shared codec (ulid-codec.js): 16 bytes <-> 26 characters <-> uuid text.
import codec from './ulid-codec.js';

const { ulidToBytes, ulidToUuid, bytesToUlid } = codec;

import report from './report.js';

const { reporter, ULID_TEXT } = report;
const { check, expectEqual, done } = reporter('sequelize');


// What must fail gives the error's class and the server's SQLSTATE (on
// error.parent) and message, or 'no error'.
async function failure(query) {
  try {
    await (typeof query === 'function' ? query() : query);
    return 'no error';
  } catch (e) {
    return `${e.name} ${e.parent?.code ?? '-'}: ${e.message}`;
  }
}

// ulid_encrypt computed here, to compare with the server's.
function aes(id, key) {
  const cipher = crypto.createCipheriv('aes-128-ecb', key, null).setAutoPadding(false);
  return ulidToUuid(bytesToUlid(Buffer.concat([cipher.update(ulidToBytes(id)), cipher.final()])));
}

// Every statement Sequelize sends, to look at what it wrote.
const sent = [];

function connect(options = {}) {
  return new Sequelize({
    dialect: 'postgres', // needs the packages pg and pg-hstore
    host: process.env.PGHOST,
    port: process.env.PGPORT,
    username: process.env.PGUSER,
    database: process.env.PGDATABASE,
    logging: (statement) => sent.push(statement),
    ...options,
  });
}

// The recipe's column type, made and registered when called: the test
// first shows what happens without it.
function defineUlid() {
  // docs/clients/node.md snippet: Sequelize column type.
  // DataTypes.ABSTRACT is a Proxy whose constructor makes ABSTRACTs:
  // extend the class behind it.
  class ULID extends DataTypes.ABSTRACT.prototype.constructor {
    toSql() {
      return 'ulid';
    }

    // Values arrive as the 26-character string and stay so; parsing them
    // here makes Sequelize parse ulid[] arrays too.
    static parse(value) {
      return value;
    }
  }
  ULID.prototype.key = ULID.key = 'ULID';
  ULID.types = { postgres: ['ulid'] }; // the name whose oid Sequelize looks up when it connects
  DataTypes.postgres.ULID = ULID; // before new Sequelize(): registers the parser for ulid and ulid[]
  // End of docs/clients/node.md snippet.
  return ULID;
}

// The columns as the catalog has them: type and default.
async function catalog(sequelize) {
  const rows = await sequelize.query(`SELECT attrelid::regclass::text AS t, attname, format_type(atttypid, atttypmod) AS type,
      pg_get_expr(adbin, adrelid) AS "default"
    FROM pg_attribute LEFT JOIN pg_attrdef ON adrelid = attrelid AND adnum = attnum
    WHERE attrelid IN ('sequelize_orders'::regclass, 'sequelize_lines'::regclass) AND attnum > 0 AND NOT attisdropped
    ORDER BY 1, 2`, { type: QueryTypes.SELECT });
  return rows.map((r) => [r.t, r.attname, r.type, r.default]);
}

async function foreignKeys(sequelize) {
  const rows = await sequelize.query(`SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint
    WHERE conrelid = 'sequelize_lines'::regclass AND contype = 'f'`, { type: QueryTypes.SELECT });
  return rows.map((r) => r.def);
}

const dropAll = 'DROP TABLE IF EXISTS sequelize_lines, sequelize_orders, sequelize_uuid, sequelize_abstract, sequelize_text';

// The two first tries: DataTypes.UUID, and a subclass of DataTypes.ABSTRACT
// as written.  Then a string type and no registration: arrays unparsed.
async function naive() {
  const sequelize = connect();
  const strict = connect({ typeValidation: true });
  try {
    await sequelize.query(dropAll);
    const uuidKeyed = sequelize.define('UuidOrder', {
      id: { type: DataTypes.UUID, primaryKey: true, defaultValue: Sequelize.literal('gen_ulid()') },
      item: DataTypes.TEXT,
    }, { tableName: 'sequelize_uuid', timestamps: false });
    await uuidKeyed.sync();
    const made = await uuidKeyed.create({ item: 'tea' });
    const [{ type }] = await sequelize.query("SELECT format_type(atttypid, atttypmod) AS type FROM pg_attribute WHERE attrelid = 'sequelize_uuid'::regclass AND attname = 'id'", { type: QueryTypes.SELECT });
    expectEqual('DataTypes.UUID: sync() makes a uuid column, gen_ulid() cast into it, read as uuid text',
      [type, /^[0-9a-f]{8}-/.test(made.id)], ['uuid', true]);
    expectEqual('DataTypes.UUID: a ULID string is refused by the uuid column: 22P02',
      await failure(uuidKeyed.create({ id: '01ARYZ6S41TSV4RRFFQ69G5FAV', item: 'coffee' })),
      'SequelizeDatabaseError 22P02: invalid input syntax for type uuid: "01ARYZ6S41TSV4RRFFQ69G5FAV"');
    const strictKeyed = strict.define('UuidOrder', uuidKeyed.getAttributes(), { tableName: 'sequelize_uuid', timestamps: false });
    expectEqual('DataTypes.UUID with typeValidation: true: Sequelize refuses a ULID string before sending it',
      await failure(strictKeyed.findByPk('01ARYZ6S41TSV4RRFFQ69G5FAV')),
      'SequelizeValidationError -: "01ARYZ6S41TSV4RRFFQ69G5FAV" is not a valid uuid');

    class Abstract extends DataTypes.ABSTRACT {
      toSql() {
        return 'ulid';
      }
    }
    const abstractKeyed = sequelize.define('AbstractOrder', {
      id: { type: Abstract, primaryKey: true, defaultValue: Sequelize.literal('gen_ulid()') },
    }, { tableName: 'sequelize_abstract', timestamps: false });
    expectEqual('class ULID extends DataTypes.ABSTRACT: the instance is an ABSTRACT, toSql() is lost: 42704',
      await failure(abstractKeyed.sync()), 'SequelizeDatabaseError 42704: type "abstract" does not exist');

    // A string type is written as it is: the column works, ulid[] does not parse.
    const textKeyed = sequelize.define('TextOrder', {
      id: { type: 'ulid', primaryKey: true, defaultValue: Sequelize.literal('gen_ulid()') },
    }, { tableName: 'sequelize_text', timestamps: false });
    await textKeyed.sync();
    const { id } = await textKeyed.create({});
    const [{ ids }] = await sequelize.query('SELECT array_agg(id) AS ids FROM sequelize_text', { type: QueryTypes.SELECT });
    expectEqual("type: 'ulid' (a string): the column is made and reads as a string; ulid[] is the array literal, one string",
      [ULID_TEXT.test(id), ids], [true, `{${id}}`]);
    await sequelize.query(dropAll);
  } finally {
    await sequelize.close();
    await strict.close();
  }
}

async function models(sequelize, ULID) {
  // docs/clients/node.md snippet: Sequelize models.
  const Order = sequelize.define('Order', {
    id: { type: ULID, primaryKey: true, defaultValue: Sequelize.literal('gen_ulid()') },
    item: { type: DataTypes.TEXT, allowNull: false },
  }, { tableName: 'sequelize_orders', timestamps: false });
  const Line = sequelize.define('Line', {
    id: { type: ULID, primaryKey: true, defaultValue: Sequelize.literal('gen_ulid()') },
    qty: { type: DataTypes.INTEGER, allowNull: false },
  }, { tableName: 'sequelize_lines', timestamps: false });
  Order.hasMany(Line, { foreignKey: { name: 'orderId', allowNull: false } });
  Line.belongsTo(Order, { foreignKey: { name: 'orderId', allowNull: false } }); // orderId is a ulid too
  await sequelize.sync();
  // End of docs/clients/node.md snippet.
  return { Order, Line };
}

// A migration as sequelize-cli runs one, with the ULID type given.
function makeMigration(ULID) {
  // docs/clients/node.md snippet: Sequelize migration.
  const migration = {
    async up(queryInterface) {
      await queryInterface.createTable('sequelize_orders', {
        id: { type: ULID, primaryKey: true, defaultValue: Sequelize.literal('gen_ulid()') },
        item: { type: DataTypes.TEXT, allowNull: false },
      });
      await queryInterface.createTable('sequelize_lines', {
        id: { type: ULID, primaryKey: true, defaultValue: Sequelize.literal('gen_ulid()') },
        orderId: { type: ULID, allowNull: false, references: { model: 'sequelize_orders', key: 'id' }, onDelete: 'CASCADE' },
        qty: { type: DataTypes.INTEGER, allowNull: false },
      });
    },
    async down(queryInterface) {
      await queryInterface.dropTable('sequelize_lines');
      await queryInterface.dropTable('sequelize_orders');
    },
  };
  // End of docs/clients/node.md snippet.
  return migration;
}

async function schema(sequelize, ULID) {
  const { Order, Line } = await models(sequelize, ULID);
  const made = await catalog(sequelize);
  expectEqual('sync(): ulid keys with DEFAULT gen_ulid(), the foreign key column typed ulid', made, [
    ['sequelize_lines', 'id', 'ulid', 'gen_ulid()'], ['sequelize_lines', 'orderId', 'ulid', null],
    ['sequelize_lines', 'qty', 'integer', null],
    ['sequelize_orders', 'id', 'ulid', 'gen_ulid()'], ['sequelize_orders', 'item', 'text', null],
  ]);
  expectEqual('sync(): belongsTo makes the foreign key', await foreignKeys(sequelize),
    ['FOREIGN KEY ("orderId") REFERENCES sequelize_orders(id) ON UPDATE CASCADE ON DELETE CASCADE']);

  // docs/clients/node.md snippet: Sequelize describeTable.
  const described = await sequelize.getQueryInterface().describeTable('sequelize_lines');
  // described.id: { type: 'USER-DEFINED', allowNull: false, defaultValue: 'gen_ulid()', primaryKey: true, ... }
  // End of docs/clients/node.md snippet.
  expectEqual("describeTable(): a ulid column reads as type 'USER-DEFINED' (information_schema's data_type), the default kept",
    [described.id.type, described.id.defaultValue, described.id.primaryKey, described.orderId.type, described.orderId.allowNull],
    ['USER-DEFINED', 'gen_ulid()', true, 'USER-DEFINED', false]);

  await sequelize.sync({ alter: true });
  expectEqual('sync({ alter: true }) on the same models: columns, types and defaults unchanged', await catalog(sequelize), made);

  // Down, then the same tables from a migration (what sequelize-cli runs).
  const queryInterface = sequelize.getQueryInterface();
  await makeMigration(ULID).down(queryInterface);
  const gone = await sequelize.query("SELECT to_regclass('sequelize_orders') AS t", { type: QueryTypes.SELECT });
  await makeMigration(ULID).up(queryInterface);
  expectEqual('a migration down and up (queryInterface.createTable): the tables go, then come back as sync() made them',
    [gone, await catalog(sequelize), await foreignKeys(sequelize)],
    [[{ t: null }], made, ['FOREIGN KEY ("orderId") REFERENCES sequelize_orders(id) ON DELETE CASCADE']]);
  return { Order, Line };
}

async function queries(sequelize, Order) {
  // docs/clients/node.md snippet: Sequelize queries.
  const { id } = await Order.create({ item: 'tea' }); // RETURNING the default: '01JX...', 26 characters
  const coffee = await Order.create({ id: '01563df3-6481-d676-4c61-efb99302bd5b', item: 'coffee' });
  // coffee.id: '01ARYZ6S41TSV4RRFFQ69G5FAV', as the server returned it
  const tea = await Order.findByPk(id);
  const byUuid = await Order.findOne({ where: { id: { [Op.eq]: sequelize.cast('01563df3-6481-d676-4c61-efb99302bd5b', 'uuid') } } });
  const both = await Order.findAll({ where: { id: [id, '01563df3-6481-d676-4c61-efb99302bd5b'] }, order: [['id', 'ASC']] });
  // End of docs/clients/node.md snippet.

  check('create() with the default: RETURNING id, a 26-character string', typeof id === 'string' && ULID_TEXT.test(id), util.inspect(id));
  expectEqual('create() with uuid text: the instance holds the ULID text the server returned', coffee.id, '01ARYZ6S41TSV4RRFFQ69G5FAV');
  expectEqual('findByPk(id)', tea.get({ plain: true }), { id, item: 'tea' });
  expectEqual("findOne({ where: { id: { [Op.eq]: sequelize.cast(u, 'uuid') } } })", byUuid.item, 'coffee');
  expectEqual('findAll({ where: { id: [ULID, uuid] }, order: [[id, ASC]] })', both.map((o) => o.item), ['coffee', 'tea']);
  const pkByUuid = await Order.findByPk('01563df3-6481-d676-4c61-efb99302bd5b');
  expectEqual('findByPk(uuid text): untyped, read as ulid input', pkByUuid.item, 'coffee');
  expectEqual("{ id: sequelize.cast(u, 'uuid') } without an operator: the cast alone becomes the WHERE, 42804",
    await failure(Order.findOne({ where: { id: sequelize.cast('01563df3-6481-d676-4c61-efb99302bd5b', 'uuid') } })),
    'SequelizeDatabaseError 42804: argument of WHERE must be type boolean, not type uuid');
  const uuids = [ulidToUuid(id), '01563df3-6481-d676-4c61-efb99302bd5b'];
  const byUuids = await Order.findAll({ where: { id: { [Op.in]: uuids.map((u) => sequelize.cast(u, 'uuid')) } }, order: [['id', 'ASC']] });
  expectEqual("{ [Op.in]: uuids.map(u => sequelize.cast(u, 'uuid')) }: a list typed uuid", byUuids.map((o) => o.item), ['coffee', 'tea']);
  const where = `WHERE "Order"."id" IN ('${id}', '01563df3-6481-d676-4c61-efb99302bd5b')`;
  check('Sequelize writes the list into the SQL as quoted literals, which the server reads as ulid input',
    sent.some((s) => s.includes(where)), where);

  const made = Array.from({ length: 200 }, () => bytesToUlid(crypto.randomBytes(16)));
  await Order.bulkCreate(made.map((m, i) => ({ id: i % 2 ? m : ulidToUuid(m), item: 'random' })));
  const found = await Order.findAll({ attributes: ['id'], where: { id: { [Op.in]: made } } });
  expectEqual('200 random values, half as uuid text, bulkCreate: Op.in finds all, as ULID strings',
    found.map((o) => o.id).sort(), [...made].sort());

  const [{ ids }] = await sequelize.query('SELECT array_agg(id ORDER BY id) AS ids FROM sequelize_orders WHERE id = $1',
    { bind: [id], type: QueryTypes.SELECT });
  expectEqual('with the type registered: ulid[] (array_agg) parsed as an array of strings', ids, [id]);

  expectEqual('invalid text: SequelizeDatabaseError, 22P02 on error.parent',
    await failure(Order.findByPk('01ARYZ6S41TSV4RRFFQ69G5FAU')),
    'SequelizeDatabaseError 22P02: invalid input syntax for type ulid: "01ARYZ6S41TSV4RRFFQ69G5FAU"');
  expectEqual('a duplicate id: SequelizeUniqueConstraintError, 23505',
    (await failure(Order.create({ id, item: 'again' }))).slice(0, 36), 'SequelizeUniqueConstraintError 23505');
  return id;
}

async function foreignKeyAndOrder(sequelize, Order, Line, id) {
  for (let i = 0; i < 50; i++) await Order.create({ item: `gen ${i}` });
  // docs/clients/node.md snippet: Sequelize foreign key, order, time window.
  await Line.create({ orderId: id, qty: 2 });
  const withLines = await Order.findByPk(id, { include: Line });
  const newest = await Order.findAll({ order: [['id', 'DESC']], limit: 10 });
  const lastHour = await Order.findAll({ where: { id: { [Op.gt]: sequelize.literal("now() - interval '1 hour'") } } });
  const since = new Date(Date.now() - 3600 * 1000);
  const sinceDate = await Order.findAll({ where: { id: { [Op.gt]: sequelize.cast(since, 'timestamptz') } } });
  // End of docs/clients/node.md snippet.

  expectEqual('include: the order with its line, orderId a ULID string',
    withLines.Lines.map((l) => [l.orderId, l.qty]), [[id, 2]]);
  expectEqual('a line for an order that does not exist: SequelizeForeignKeyConstraintError, 23503',
    (await failure(Line.create({ orderId: bytesToUlid(Buffer.alloc(16, 1)), qty: 1 }))).slice(0, 40),
    'SequelizeForeignKeyConstraintError 23503');
  const all = (await Order.findAll({ attributes: ['id'], order: [['id', 'ASC']] })).map((o) => o.id);
  expectEqual("order: [['id', 'ASC']] equals the string order of the ids in JS", all, [...all].sort());
  expectEqual("order: [['id', 'DESC']], limit: 10: the last ten", newest.map((o) => o.id), all.slice(-10).reverse());
  const genMade = new Set((await Order.findAll({ where: { [Op.or]: [{ item: 'tea' }, { item: { [Op.like]: 'gen %' } }] } })).map((o) => o.id));
  expectEqual("{ [Op.gt]: sequelize.literal(\"now() - interval '1 hour'\") }: the ids made by gen_ulid() in this run",
    lastHour.filter((o) => genMade.has(o.id)).length, 51);
  expectEqual("{ [Op.gt]: sequelize.cast(date, 'timestamptz') }: the same rows",
    sinceDate.map((o) => o.id).sort(), lastHour.map((o) => o.id).sort());
  // Sequelize writes a Date as a quoted literal, which the server reads as ulid input.
  const dateFailure = await failure(Order.findAll({ where: { id: { [Op.gt]: since } } }));
  check('a time window with a Date and no cast: the date\'s text read as ulid input, 22P02',
    dateFailure.startsWith('SequelizeDatabaseError 22P02: invalid input syntax for type ulid: "'), dateFailure);
}

async function publicIds(sequelize, Order, id) {
  process.env.PUBLIC_ID_KEY ??= crypto.randomBytes(16).toString('hex');
  // docs/clients/node.md snippet: Sequelize public ids.
  const key = Buffer.from(process.env.PUBLIC_ID_KEY, 'hex'); // 16 bytes, kept out of the code
  const [{ shown }] = await sequelize.query('SELECT ulid_encrypt(id, $key) AS shown FROM sequelize_orders WHERE id = $id',
    { bind: { key, id }, type: QueryTypes.SELECT });
  const order = await Order.findOne({ where: sequelize.literal('id = ulid_decrypt($shown, $key)'), bind: { shown, key } });
  // order.item: 'tea'
  // End of docs/clients/node.md snippet.
  expectEqual('public ids: ulid_encrypt with a bound Buffer key is AES-128 of the 16 bytes; ulid_decrypt in a finder finds the row',
    [shown, order?.item], [aes(id, key), 'tea']);
  const boundSql = sent.findLast((s) => s.includes('ulid_decrypt'));
  check('public ids with bind: the key is a parameter ($2), not in the SQL text', boundSql && !boundSql.includes(key.toString('hex')), boundSql);

  // sequelize.fn() escapes its arguments into the SQL text: the key too.
  const inlined = await Order.findByPk(id, { attributes: [[sequelize.fn('ulid_encrypt', sequelize.col('id'), key), 'shown']] });
  const inlinedSql = sent.findLast((s) => s.includes('ulid_encrypt("id"'));
  check("sequelize.fn('ulid_encrypt', col, key): right, but the key is written into the SQL text (and the log)",
    inlined.get('shown') === shown && inlinedSql.includes(key.toString('hex')), inlinedSql);
  expectEqual('public ids: the key as a hex string is 32 bytes of bytea text: 22023',
    await failure(sequelize.query('SELECT ulid_encrypt($1, $2)', { bind: [id, key.toString('hex')] })),
    'SequelizeDatabaseError 22023: key must be 16 bytes, not 32');
}

async function main() {
  await naive();
  const ULID = defineUlid();
  const sequelize = connect();
  try {
    await sequelize.query(dropAll);
    const { Order, Line } = await schema(sequelize, ULID);
    const id = await queries(sequelize, Order);
    await foreignKeyAndOrder(sequelize, Order, Line, id);
    await publicIds(sequelize, Order, id);
    await sequelize.query(dropAll);
  } finally {
    await sequelize.close();
  }
  done();
}

main().catch((e) => {
  console.log(`FAILED - sequelize: the program broke : ${String(e.stack).replace(/\s+/g, ' ')} ${e.parent?.message ?? ''} ${sent.at(-1)}`);
  process.exitCode = 1;
});
