<?php
// Doctrine DBAL 3.6 (Debian's php-doctrine-dbal, on pdo_pgsql) against the
// ulid type; run by test/clients/php/run.
//
// Without the recipe of dbal_ulid.php first: the schema manager's
// "Unknown database type ulid", a type named ulid that still does not map,
// registerDoctrineTypeMapping, a mapping to string that dumps the column as
// VARCHAR, and DEFAULT 'gen_ulid()' refused by the server.  With it: tables
// declared with the Schema API (a ulid key with DEFAULT gen_ulid(), a
// foreign key), no diff between them and what the schema manager reads
// back, the schema dumped (its SQL) and loaded back; QueryBuilder inserts
// with RETURNING (lastInsertId() is no ulid), lookups by a ULID and by a
// uuid, one and in a list (ArrayParameterType::STRING, and what a bare
// array does), ORDER BY, a time window, the bytea key of the public-id
// functions bound as ParameterType::BINARY (and as a string, which fails),
// and the error classes.  Connects through the libpq environment to a
// database where CREATE EXTENSION ulid has run.  The php code blocks of
// docs/clients/php.md appear verbatim here and in dbal_ulid.php.

declare(strict_types=1);

require __DIR__ . '/check.php';
$CLIENT = 'doctrine-dbal';

require 'Doctrine/DBAL/autoload.php'; // Debian's autoloader, from /usr/share/php
require __DIR__ . '/dbal_ulid.php';

use Doctrine\DBAL\ArrayParameterType;
use Doctrine\DBAL\Configuration;
use Doctrine\DBAL\Connection;
use Doctrine\DBAL\DriverManager;
use Doctrine\DBAL\Exception\DriverException;
use Doctrine\DBAL\Exception\ForeignKeyConstraintViolationException;
use Doctrine\DBAL\Exception\UniqueConstraintViolationException;
use Doctrine\DBAL\ParameterType;
use Doctrine\DBAL\Platforms\PostgreSQL100Platform;
use Doctrine\DBAL\Schema\DefaultSchemaManagerFactory;
use Doctrine\DBAL\Schema\Schema;
use Doctrine\DBAL\Types\Type;
use Doctrine\DBAL\Types\Types;
use Doctrine\Deprecations\Deprecation;

// Every deprecation DBAL reports is collected (check.php): the recipe uses
// none.
Deprecation::enableWithTriggerError();

// The tables of this program: the PDO program's share the database.
function only_ours(Configuration $config): void
{
    $config->setSchemaAssetsFilter(fn ($name) => in_array($name, ['shipments', 'parcels', 'probe'], true));
}

// A connection from the libpq environment, with $middlewares.
function connect(array $middlewares = []): Connection
{
    $config = new Configuration();
    $config->setMiddlewares($middlewares);
    $config->setSchemaManagerFactory(new DefaultSchemaManagerFactory());
    only_ours($config);
    return DriverManager::getConnection([
        'driver' => 'pdo_pgsql',
        'host' => getenv('PGHOST'),
        'port' => (int) getenv('PGPORT'),
        'user' => getenv('PGUSER'),
        'dbname' => getenv('PGDATABASE'),
    ], $config);
}

// A type whose SQL is ulid, without getMappedDatabaseTypes().
final class BareUlidType extends Type
{
    public function getName(): string
    {
        return 'bare_ulid';
    }

    public function getSQLDeclaration(array $column, Doctrine\DBAL\Platforms\AbstractPlatform $platform): string
    {
        return 'ulid';
    }
}

$plain = connect();
$plain->executeStatement('CREATE TABLE probe (id ulid PRIMARY KEY DEFAULT gen_ulid())');
// Queries need no type: the values are strings.
$plain->insert('probe', ['id' => '01563df3-6481-d676-4c61-efb99302bd5b']);
expect_equal('without the type: queries with string parameters work',
    $plain->fetchOne('SELECT id FROM probe WHERE id = ?', ['01ARYZ6S41TSV4RRFFQ69G5FAV']), '01ARYZ6S41TSV4RRFFQ69G5FAV');
echo '# Doctrine DBAL from ' . dirname((new ReflectionClass(Connection::class))->getFileName()) . "\n";

// What the type prevents: the schema manager reads every column's type.
$unknown = 'Unknown database type ulid requested, Doctrine\DBAL\Platforms\PostgreSQL100Platform may not support it.';
$e = null;
try {
    $plain->createSchemaManager()->listTableColumns('probe');
} catch (Doctrine\DBAL\Exception $e) {
}
expect_equal('without the type: listTableColumns() throws "Unknown database type ulid requested, ..."',
    $e ? [get_class($e), $e->getMessage()] : null, [Doctrine\DBAL\Exception::class, $unknown]);

// A type is not enough: the platform maps database types to Doctrine
// types by getMappedDatabaseTypes(), which is empty by default.
Type::addType('bare_ulid', BareUlidType::class);
$bare = connect();
$e = null;
try {
    $bare->createSchemaManager()->introspectTable('probe');
} catch (Doctrine\DBAL\Exception $e) {
}
expect_equal('a type declared ulid without getMappedDatabaseTypes(): introspectTable() still throws it',
    $e ? $e->getMessage() : null, $unknown);
// The other way to map it: on the platform, once per connection.
$bare->getDatabasePlatform()->registerDoctrineTypeMapping('ulid', 'bare_ulid');
expect_equal('... and registerDoctrineTypeMapping(\'ulid\', NAME) on the platform maps it',
    get_class($bare->createSchemaManager()->introspectTable('probe')->getColumn('id')->getType()), BareUlidType::class);

// Mapped to string instead, the table is read, but as VARCHAR: its dump
// would make a text column with a default that is a string.
$plain->getDatabasePlatform()->registerDoctrineTypeMapping('ulid', 'string');
$asString = $plain->createSchemaManager()->introspectTable('probe');
expect_equal('mapped to string: the dump of the table has no ulid column left',
    $plain->getDatabasePlatform()->getCreateTablesSQL([$asString])[0],
    "CREATE TABLE probe (id VARCHAR(255) DEFAULT 'gen_ulid()' NOT NULL, PRIMARY KEY(id))");

// What the platform prevents: DEFAULT 'gen_ulid()', a string that is no ULID.
$probe = new Schema();
$probe->createTable('probe2')->addColumn('id', 'bare_ulid', ['default' => 'gen_ulid()']);
$sql = $probe->toSql($plain->getDatabasePlatform());
expect_equal('without the platform: the default is written as a string',
    $sql, ["CREATE TABLE probe2 (id ulid DEFAULT 'gen_ulid()' NOT NULL)"]);
expect_sqlstate('without the platform: the server refuses it (22P02)', fn () => $plain->executeStatement($sql[0]),
    '22P02', 'invalid input syntax for type ulid: "gen_ulid()"');
$plain->executeStatement('DROP TABLE probe');
$plain->close();
$bare->close();

// --- docs/clients/php.md: Doctrine, connect --------------------------------
Type::addType('ulid', UlidType::class); // once, before the first connection

$config = new Configuration();
$config->setMiddlewares([new UlidMiddleware()]);
$config->setSchemaManagerFactory(new DefaultSchemaManagerFactory());
$conn = DriverManager::getConnection([
    'driver' => 'pdo_pgsql',
    'host' => getenv('PGHOST'),
    'port' => (int) getenv('PGPORT'),
    'user' => getenv('PGUSER'),
    'dbname' => getenv('PGDATABASE'),
], $config);
// --- end --------------------------------------------------------------------
only_ours($config);
expect_equal('the middleware gives the connection the platform', get_class($conn->getDatabasePlatform()), UlidPostgreSQLPlatform::class);

// --- docs/clients/php.md: Doctrine, the schema ------------------------------
$schema = new Schema();
$shipments = $schema->createTable('shipments');
$shipments->addColumn('id', 'ulid', ['default' => 'gen_ulid()']);
$shipments->addColumn('destination', Types::TEXT);
$shipments->setPrimaryKey(['id']);

$parcels = $schema->createTable('parcels');
$parcels->addColumn('id', 'ulid', ['default' => 'gen_ulid()']);
$parcels->addColumn('shipment_id', 'ulid');
$parcels->setPrimaryKey(['id']);
$parcels->addForeignKeyConstraint('shipments', ['shipment_id'], ['id']);

foreach ($schema->toSql($conn->getDatabasePlatform()) as $sql) {
    $conn->executeStatement($sql); // CREATE TABLE shipments (id ulid DEFAULT gen_ulid() NOT NULL, ...
}
// --- end --------------------------------------------------------------------
expect_equal('the Schema API writes the ulid key with DEFAULT gen_ulid()',
    $schema->toSql($conn->getDatabasePlatform())[0],
    'CREATE TABLE shipments (id ulid DEFAULT gen_ulid() NOT NULL, destination TEXT NOT NULL, PRIMARY KEY(id))');

// --- docs/clients/php.md: Doctrine, read back --------------------------------
$schemaManager = $conn->createSchemaManager();
$column = $schemaManager->introspectTable('shipments')->getColumn('id');
// $column->getType(): the UlidType; $column->getDefault(): 'gen_ulid()'

$diff = $schemaManager->createComparator()->compareSchemas($schemaManager->introspectSchema(), $schema);
$migration = $conn->getDatabasePlatform()->getAlterSchemaSQL($diff); // []: nothing to change
// --- end --------------------------------------------------------------------
// The diff's tables, what a migration would change.
function tables_changed(Doctrine\DBAL\Schema\SchemaDiff $diff): array
{
    return array_merge(array_keys($diff->getCreatedTables()), array_keys($diff->getAlteredTables()), array_keys($diff->getDroppedTables()));
}

expect_equal('introspected: the UlidType, default gen_ulid(), NOT NULL',
    [get_class($column->getType()), $column->getDefault(), $column->getNotnull()], [UlidType::class, 'gen_ulid()', true]);
check('the comparator: no table changed, no SQL to run',
    tables_changed($diff) === [] && $migration === [], show([tables_changed($diff), $migration]));
// The introspected schema has the namespace public, the declared one none:
// the diff says public is dropped, and no SQL drops it.
expect_equal('the comparator: public "dropped", which getAlterSchemaSQL() ignores', array_values($diff->getDroppedSchemas()), ['public']);
$fks = $schemaManager->listTableForeignKeys('parcels');
expect_equal('the foreign key, read back',
    array_map(fn ($fk) => [$fk->getLocalColumns(), $fk->getForeignTableName(), $fk->getForeignColumns()], $fks),
    [[['shipment_id'], 'shipments', ['id']]]);

// The schema dumped and loaded back: the introspected schema's SQL, run
// after the tables are dropped, makes the same tables.
// --- docs/clients/php.md: Doctrine, dump and load -----------------------------
$dump = $conn->getDatabasePlatform()->getCreateTablesSQL($schemaManager->introspectSchema()->getTables());
// --- end --------------------------------------------------------------------
expect_equal('toSql() of an introspected schema begins with CREATE SCHEMA public (42P06 on loading)',
    $schemaManager->introspectSchema()->toSql($conn->getDatabasePlatform())[0], 'CREATE SCHEMA public');
$conn->executeStatement('DROP TABLE parcels, shipments');
foreach ($dump as $sql) {
    $conn->executeStatement($sql);
}
$again = $schemaManager->createComparator()->compareSchemas($schemaManager->introspectSchema(), $schema);
check('dumped, dropped and loaded back: no difference from the declared schema',
    tables_changed($again) === [] && $conn->getDatabasePlatform()->getAlterSchemaSQL($again) === [], show($dump));
$noPlatform = (new PostgreSQL100Platform())->getCreateTablesSQL($schemaManager->introspectSchema()->getTables());
check("without the platform the dump says DEFAULT 'gen_ulid()' and would not load",
    (bool) preg_grep("/^CREATE TABLE shipments \\(id ulid DEFAULT 'gen_ulid\\(\\)' NOT NULL/", $noPlatform), show($noPlatform));

// --- docs/clients/php.md: Doctrine, insert -----------------------------------
$qb = $conn->createQueryBuilder()
    ->insert('shipments')
    ->values(['destination' => ':destination'])
    ->setParameter('destination', 'Lyon');
$id = $conn->fetchOne($qb->getSQL() . ' RETURNING id', $qb->getParameters()); // '01JX...'

$conn->insert('shipments', ['id' => '01563df3-6481-d676-4c61-efb99302bd5b', 'destination' => 'Porto']);
// --- end --------------------------------------------------------------------
check('QueryBuilder insert + RETURNING id: a string of 26 characters', is_string($id) && strlen($id) === 26, show($id));
expect_sqlstate('lastInsertId() after the insert: 55000, no sequence was used', fn () => $conn->lastInsertId(),
    '55000', 'lastval is not yet defined in this session');

// --- docs/clients/php.md: Doctrine, select -----------------------------------
$row = $conn->createQueryBuilder()
    ->select('id', 'destination')
    ->from('shipments')
    ->where('id = :id')
    ->setParameter('id', $id, 'ulid')
    ->executeQuery()
    ->fetchAssociative(); // ['id' => '01JX...', 'destination' => 'Lyon']

$porto = $conn->createQueryBuilder()
    ->select('id', 'id::uuid AS uuid')
    ->from('shipments')
    ->where('id = :uuid::uuid')
    ->setParameter('uuid', '01563df3-6481-d676-4c61-efb99302bd5b')
    ->executeQuery()
    ->fetchAssociative(); // ['id' => '01ARYZ6S41TSV4RRFFQ69G5FAV', 'uuid' => '01563df3-...']

$destinations = $conn->createQueryBuilder()
    ->select('destination')
    ->from('shipments')
    ->where('id IN (:ids)')
    ->setParameter('ids', [$id, '01563df3-6481-d676-4c61-efb99302bd5b'], ArrayParameterType::STRING)
    ->orderBy('id')
    ->executeQuery()
    ->fetchFirstColumn(); // ['Porto', 'Lyon']: the 2016 id first
// --- end --------------------------------------------------------------------
expect_equal('select by a ULID: a string, unchanged', $row, ['id' => $id, 'destination' => 'Lyon']);
expect_equal('select by a uuid parameter; id::uuid reads the uuid form', $porto,
    ['id' => '01ARYZ6S41TSV4RRFFQ69G5FAV', 'uuid' => '01563df3-6481-d676-4c61-efb99302bd5b']);
expect_equal('IN (:ids) with ArrayParameterType::STRING, ULID and uuid strings, ORDER BY id', $destinations, ['Porto', 'Lyon']);
$byUuid = $conn->fetchFirstColumn('SELECT destination FROM shipments WHERE id = ANY(CAST(:ids AS uuid[])) ORDER BY id',
    ['ids' => '{01563df3-6481-d676-4c61-efb99302bd5b,' . $conn->fetchOne('SELECT CAST(:id AS ulid)::uuid', ['id' => $id]) . '}']);
expect_equal('= ANY of a uuid[] literal', $byUuid, ['Porto', 'Lyon']);

// Without ArrayParameterType, DBAL hands the PHP array to PDO, which sends
// "Array" with a warning: the server refuses it.
[$result, $warnings] = with_warnings(fn () => $conn->fetchFirstColumn('SELECT destination FROM shipments WHERE id IN (:ids)',
    ['ids' => [$id, '01ARYZ6S41TSV4RRFFQ69G5FAV']]));
check('without ArrayParameterType: "Array to string conversion", then 22P02',
    $warnings === ['Array to string conversion'] && $result instanceof DriverException && $result->getSQLState() === '22P02'
        && str_contains($result->getMessage(), 'invalid input syntax for type ulid: "Array"'),
    show($warnings) . ' ' . ($result instanceof Throwable ? $result->getMessage() : show($result)));

// A foreign key; ordering; a time window.
$conn->insert('parcels', ['shipment_id' => $id]);
$joined = $conn->fetchAllNumeric('SELECT s.destination, count(*) FROM parcels p JOIN shipments s ON s.id = p.shipment_id GROUP BY 1');
expect_equal('a parcel of a shipment, by the foreign key', $joined, [['Lyon', 1]]);
try {
    $conn->insert('parcels', ['shipment_id' => '01ARYZ6S41TSV4RRFFQ69G5FAW']);
    check('a parcel of no shipment: ForeignKeyConstraintViolationException', false, 'no error raised');
} catch (ForeignKeyConstraintViolationException $e) {
    expect_equal('a parcel of no shipment: ForeignKeyConstraintViolationException, 23503', $e->getSQLState(), '23503');
}
try {
    $conn->insert('shipments', ['id' => $id, 'destination' => 'again']);
    check('a duplicate id: UniqueConstraintViolationException', false, 'no error raised');
} catch (UniqueConstraintViolationException $e) {
    expect_equal('a duplicate id: UniqueConstraintViolationException, 23505', $e->getSQLState(), '23505');
}
for ($i = 0; $i < 20; $i++) {
    $conn->insert('shipments', ['destination' => "stop $i"]);
}
$ordered = $conn->createQueryBuilder()->select('id')->from('shipments')->orderBy('id')->executeQuery()->fetchFirstColumn();
$sorted = $ordered;
sort($sorted, SORT_STRING);
check('orderBy(\'id\') is the order of the strings, 22 rows, the 2016 id first',
    $ordered === $sorted && count($ordered) === 22 && $ordered[0] === '01ARYZ6S41TSV4RRFFQ69G5FAV', show($ordered));

// --- docs/clients/php.md: Doctrine, a time window ---------------------------
$recent = $conn->createQueryBuilder()
    ->select('count(*)')
    ->from('shipments')
    ->where("id > now() - interval '1 hour'") // where() takes SQL
    ->executeQuery()
    ->fetchOne(); // the shipments of the last hour
// --- end --------------------------------------------------------------------
expect_equal('a time window: the rows of the last hour, not the 2016 one', $recent, 21);

expect_sqlstate('text that is no ULID: 22P02', fn () => $conn->fetchOne('SELECT 1 FROM shipments WHERE id = ?', ['not-a-ulid']),
    '22P02', 'invalid input syntax for type ulid: "not-a-ulid"');

// Public ids, with a key of 16 bytes that are not valid UTF-8.
$keyHex = '5a0c3e61b2f94d87a6e1c0ffee421300';
putenv("PUBLIC_ID_KEY=$keyHex");
$want = $conn->fetchOne("SELECT ulid_encrypt(:id, '\\x$keyHex')::text", ['id' => $id]);

// --- docs/clients/php.md: Doctrine, public ids ------------------------------
$key = hex2bin(getenv('PUBLIC_ID_KEY')); // 16 bytes, kept out of the code

$publicId = $conn->createQueryBuilder()
    ->select('ulid_encrypt(id, :key)')
    ->from('shipments')
    ->where('id = :id')
    ->setParameter('id', $id)
    ->setParameter('key', $key, ParameterType::BINARY) // bytes, not text
    ->executeQuery()
    ->fetchOne(); // a uuid string that tells nothing of the time

$destination = $conn->fetchOne(
    'SELECT destination FROM shipments WHERE id = ulid_decrypt(:publicId, :key)',
    ['publicId' => $publicId, 'key' => $key],
    ['key' => ParameterType::BINARY],
); // 'Lyon'
// --- end --------------------------------------------------------------------
expect_equal('ulid_encrypt with the key as ParameterType::BINARY', $publicId, $want);
expect_equal('ulid_decrypt with the key as ParameterType::BINARY finds the row', $destination, 'Lyon');
foreach (['ParameterType::LARGE_OBJECT' => ParameterType::LARGE_OBJECT, "Types::BINARY ('binary')" => Types::BINARY] as $name => $type) {
    expect_equal("the key as $name works too",
        $conn->fetchOne('SELECT ulid_encrypt(:id, :key)', ['id' => $id, 'key' => $key], ['key' => $type]), $want);
}
expect_sqlstate('the key as a string (the default type): 22021, not UTF-8',
    fn () => $conn->fetchOne('SELECT ulid_encrypt(:id, :key)', ['id' => $id, 'key' => $key]),
    '22021', 'invalid byte sequence for encoding "UTF8"');
$e = expect_sqlstate('the key as a string: a DriverException with the SQLSTATE', fn () => $conn->fetchOne(
    'SELECT ulid_encrypt(:id, :key)', ['id' => $id, 'key' => hex2bin('000102030405060708090a0b0c0d0e0f')]),
    '22023', 'key must be 16 bytes, not 0');
check('... of class Doctrine\DBAL\Exception\DriverException', $e instanceof DriverException, $e ? get_class($e) : 'none');

// DBAL 3.6.1 reports five deprecations from its own code, whatever the
// caller does (the schema manager, Table and the comparator call what 3.6
// deprecates); any other is a deprecated API this program uses.
$ours = array_values(array_unique(array_filter($DEPRECATIONS,
    fn ($m) => !preg_match('~doctrine/dbal/(pull/(5595|5731|5476|5678)|issues/5284)~', $m))));
expect_equal('no deprecated DBAL API used', $ours, []);
echo '# DBAL reported ' . (count($DEPRECATIONS) - count($ours)) . " deprecations from its own code\n";

$conn->close();
done();
