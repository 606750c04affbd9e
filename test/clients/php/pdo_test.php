<?php
// PDO (pdo_pgsql) against the ulid type; run by test/clients/php/run.
//
// The value's PHP type, the statement PDO prepares on the server and what
// emulated prepares change, lookups by a ULID and by a uuid, one and in a
// list (IN with placeholders, = ANY of an array literal, and the PHP array
// that is no parameter), a foreign key, ORDER BY, a time window, the bytea
// key of ulid_encrypt/ulid_decrypt bound as PDO::PARAM_LOB or as hex, and
// what binding it as a string does (natively and emulated), and 22P02 on
// text that is no ULID.  Connects through the libpq environment to a
// database where CREATE EXTENSION ulid has run.  The php code blocks of
// docs/clients/php.md appear verbatim below (test/check_docs.py checks).

declare(strict_types=1);

require __DIR__ . '/check.php';
$CLIENT = 'pdo';

// --- docs/clients/php.md: PDO, connect and the table -----------------------
$pdo = new PDO('pgsql:'); // host, port, user and database from PGHOST, PGPORT, ...
$pdo->exec('CREATE TABLE orders (id ulid PRIMARY KEY DEFAULT gen_ulid(), item text NOT NULL)');
$pdo->exec('CREATE TABLE order_lines (
    order_id ulid NOT NULL REFERENCES orders,
    product text NOT NULL
)');
// --- end --------------------------------------------------------------------

echo '# PHP ' . PHP_VERSION . ', libpq ' . $pdo->getAttribute(PDO::ATTR_CLIENT_VERSION) . "\n";
expect_equal('errors are exceptions (PHP 8 default)', $pdo->getAttribute(PDO::ATTR_ERRMODE), PDO::ERRMODE_EXCEPTION);

// --- docs/clients/php.md: PDO, insert and read -----------------------------
$insert = $pdo->prepare('INSERT INTO orders (item) VALUES (?) RETURNING id');
$insert->execute(['tea']);
$id = $insert->fetchColumn(); // a string of 26 characters: '01JX...'

$byId = $pdo->prepare('SELECT id, item FROM orders WHERE id = ?');
$byId->execute([$id]);
$row = $byId->fetch(PDO::FETCH_ASSOC); // ['id' => '01JX...', 'item' => 'tea']
// --- end --------------------------------------------------------------------

check('INSERT ... RETURNING id gives a string of 26 characters', is_string($id) && strlen($id) === 26, show($id));
expect_equal('a ulid column reads as a PHP string, unchanged', $row, ['id' => $id, 'item' => 'tea']);
$meta = $byId->getColumnMeta(0);
expect_equal('getColumnMeta: native_type ulid, pdo_type PARAM_STR', [$meta['native_type'], $meta['pdo_type']], ['ulid', PDO::PARAM_STR]);
// lastInsertId() reads lastval(), a sequence's: never the ulid.
expect_sqlstate('lastInsertId() after the insert: 55000, no sequence was used', fn () => $pdo->lastInsertId(),
    '55000', 'lastval is not yet defined in this session');

// Native prepares: the statement is prepared on the server, and the server
// types the parameter from the column.
expect_equal('pdo_pgsql does not emulate prepares by default', $pdo->getAttribute(PDO::ATTR_EMULATE_PREPARES), false);
$prepared = $pdo->query("SELECT parameter_types::text FROM pg_prepared_statements WHERE statement = 'SELECT id, item FROM orders WHERE id = \$1'");
expect_equal('the server prepares WHERE id = $1 with a ulid parameter', $prepared->fetchColumn(), '{ulid}');

// --- docs/clients/php.md: PDO, a uuid ---------------------------------------
$pdo->prepare('INSERT INTO orders (id, item) VALUES (?, ?)')->execute(['01563df3-6481-d676-4c61-efb99302bd5b', 'coffee']);
$byUuid = $pdo->prepare('SELECT id, id::uuid AS uuid FROM orders WHERE id = ?::uuid');
$byUuid->execute(['01563df3-6481-d676-4c61-efb99302bd5b']);
// ['id' => '01ARYZ6S41TSV4RRFFQ69G5FAV', 'uuid' => '01563df3-6481-d676-4c61-efb99302bd5b']
// --- end --------------------------------------------------------------------

expect_equal('a uuid string as a uuid parameter; id::uuid reads the uuid form',
    $byUuid->fetch(PDO::FETCH_ASSOC), ['id' => '01ARYZ6S41TSV4RRFFQ69G5FAV', 'uuid' => '01563df3-6481-d676-4c61-efb99302bd5b']);
$byId->execute(['01563df3-6481-d676-4c61-efb99302bd5b']);
expect_equal('a uuid string as the ulid parameter itself', $byId->fetch(PDO::FETCH_ASSOC)['item'] ?? null, 'coffee');
$byId->execute([strtolower($id)]);
expect_equal('lower case is read too', $byId->fetch(PDO::FETCH_ASSOC)['id'] ?? null, $id);

// --- docs/clients/php.md: PDO, lists ----------------------------------------
$ids = [$id, '01563df3-6481-d676-4c61-efb99302bd5b']; // ULID and uuid strings, mixed

$in = implode(', ', array_fill(0, count($ids), '?'));
$st = $pdo->prepare("SELECT item FROM orders WHERE id IN ($in) ORDER BY item");
$st->execute($ids);
$items = $st->fetchAll(PDO::FETCH_COLUMN); // ['coffee', 'tea']

$st = $pdo->prepare('SELECT item FROM orders WHERE id = ANY(?::ulid[]) ORDER BY item');
$st->execute(['{' . implode(',', $ids) . '}']); // an array literal, one string
$items = $st->fetchAll(PDO::FETCH_COLUMN); // ['coffee', 'tea']
// --- end --------------------------------------------------------------------

$st = $pdo->prepare("SELECT item FROM orders WHERE id IN ($in) ORDER BY item");
$st->execute($ids);
expect_equal('IN with a placeholder per id, ULID and uuid strings mixed', $st->fetchAll(PDO::FETCH_COLUMN), ['coffee', 'tea']);
expect_equal('= ANY(?::ulid[]) with an array literal', $items, ['coffee', 'tea']);

// The failure the literal prevents: PDO binds scalars only.  A PHP array
// becomes the string "Array", with a warning, and the server refuses it.
[$result, $warnings] = with_warnings(function () use ($pdo, $ids) {
    $st = $pdo->prepare('SELECT item FROM orders WHERE id = ANY(?::ulid[])');
    return $st->execute([$ids]);
});
expect_equal('without the literal: a PHP array parameter warns "Array to string conversion"', $warnings, ['Array to string conversion']);
check('without the literal: ... and is sent as "Array": 22P02 malformed array literal',
    $result instanceof PDOException && sqlstate($result) === '22P02' && str_contains($result->getMessage(), 'malformed array literal: "Array"'),
    $result instanceof Throwable ? $result->getMessage() : show($result));

$agg = $pdo->query('SELECT array_agg(id ORDER BY id) FROM orders')->fetchColumn();
expect_equal('a ulid[] result is its array literal, one string', $agg, '{01ARYZ6S41TSV4RRFFQ69G5FAV,' . $id . '}');

// A foreign key and ORDER BY.
$pdo->prepare('INSERT INTO order_lines (order_id, product) VALUES (?, ?)')->execute([$id, 'assam']);
$st = $pdo->prepare('SELECT o.item, l.product FROM order_lines l JOIN orders o ON o.id = l.order_id WHERE l.order_id = ?');
$st->execute([$id]);
expect_equal('a foreign key to a ulid key, joined', $st->fetchAll(PDO::FETCH_NUM), [['tea', 'assam']]);
expect_sqlstate('a line for an order that does not exist: 23503', function () use ($pdo) {
    $pdo->prepare('INSERT INTO order_lines (order_id, product) VALUES (?, ?)')->execute(['01ARYZ6S41TSV4RRFFQ69G5FAW', 'darjeeling']);
}, '23503', 'violates foreign key constraint');

for ($i = 0; $i < 20; $i++) {
    $insert->execute(["cup $i"]);
}
$ordered = $pdo->query('SELECT id FROM orders ORDER BY id')->fetchAll(PDO::FETCH_COLUMN);
$sorted = $ordered;
sort($sorted, SORT_STRING);
expect_equal('ORDER BY id is the order of the strings (sort with SORT_STRING)', $ordered, $sorted);
expect_equal('ORDER BY id: 22 rows, the 2016 id first', [count($ordered), $ordered[0]], [22, '01ARYZ6S41TSV4RRFFQ69G5FAV']);

// --- docs/clients/php.md: PDO, a time window --------------------------------
$recent = $pdo->query("SELECT count(*) FROM orders WHERE id > now() - interval '1 hour'")->fetchColumn();
// --- end --------------------------------------------------------------------
expect_equal('a time window: the rows of the last hour, not the 2016 one', $recent, 21);

// Emulated prepares: PDO writes each value into the SQL as a quoted literal,
// which the server reads as ulid input too.
$pdo->setAttribute(PDO::ATTR_EMULATE_PREPARES, true);
$st = $pdo->prepare('SELECT item, current_query() FROM orders WHERE id = ?');
$st->execute([$id]);
expect_equal('emulated prepares: the ULID is written into the SQL and works',
    $st->fetch(PDO::FETCH_NUM), ['tea', "SELECT item, current_query() FROM orders WHERE id = '$id'"]);
$pdo->setAttribute(PDO::ATTR_EMULATE_PREPARES, false);

expect_sqlstate('text that is no ULID: 22P02', function () use ($byId) {
    $byId->execute(['not-a-ulid']);
}, '22P02', 'invalid input syntax for type ulid: "not-a-ulid"');

// Public ids.  The key: 16 bytes that are not valid UTF-8 and hold a zero
// byte, as random keys usually do.
$keyHex = '5a0c3e61b2f94d87a6e1c0ffee421300';
putenv("PUBLIC_ID_KEY=$keyHex");
$want = $pdo->query("SELECT ulid_encrypt('$id', '\\x$keyHex')::text")->fetchColumn();

// --- docs/clients/php.md: PDO, public ids -----------------------------------
$key = hex2bin(getenv('PUBLIC_ID_KEY')); // 16 bytes, kept out of the code

$st = $pdo->prepare('SELECT ulid_encrypt(id, ?) FROM orders WHERE item = ?');
$st->bindValue(1, $key, PDO::PARAM_LOB); // sent as bytes, not as text
$st->bindValue(2, 'tea');
$st->execute();
$publicId = $st->fetchColumn(); // a uuid string that tells nothing of the time

$st = $pdo->prepare('SELECT item FROM orders WHERE id = ulid_decrypt(?, ?)');
$st->bindValue(1, $publicId);
$st->bindValue(2, $key, PDO::PARAM_LOB);
$st->execute();
$item = $st->fetchColumn(); // 'tea'
// --- end --------------------------------------------------------------------

expect_equal('ulid_encrypt with the key bound as PDO::PARAM_LOB', $publicId, $want);
expect_equal('ulid_decrypt with the key bound as PDO::PARAM_LOB finds the row', $item, 'tea');

// --- docs/clients/php.md: PDO, the key as hex -------------------------------
$st = $pdo->prepare("SELECT item FROM orders WHERE id = ulid_decrypt(?, decode(?, 'hex'))");
$st->execute([$publicId, bin2hex($key)]); // two strings: no bindValue needed
// --- end --------------------------------------------------------------------
expect_equal("the key as hex, decode(?, 'hex')", $st->fetchColumn(), 'tea');

// What binding the key as a string (PDO::PARAM_STR, what execute([...])
// does) gives: it is sent as text, and bytea input reads text.
$asString = function (string $key) use ($pdo, $id) {
    $st = $pdo->prepare('SELECT ulid_encrypt(?, ?)');
    $st->execute([$id, $key]);
    return $st->fetchColumn();
};
expect_sqlstate('the key as PARAM_STR: bytes that are not UTF-8 are refused (22021)',
    fn () => $asString($key), '22021', 'invalid byte sequence for encoding "UTF8"');
expect_sqlstate('the key as PARAM_STR: text ends at a zero byte (22023)',
    fn () => $asString(hex2bin('000102030405060708090a0b0c0d0e0f')), '22023', 'key must be 16 bytes, not 0');

// Emulated, a PARAM_LOB key still works but is written into the SQL text,
// where pg_stat_activity and the server's log show it; a PARAM_STR key that
// is not UTF-8 cannot be quoted, and execute() returns false with no
// exception and no error code.
$pdo->setAttribute(PDO::ATTR_EMULATE_PREPARES, true);
$st = $pdo->prepare('SELECT ulid_encrypt(?, ?), current_query()');
$st->bindValue(1, $id);
$st->bindValue(2, $key, PDO::PARAM_LOB);
$st->execute();
[$emulated, $query] = $st->fetch(PDO::FETCH_NUM);
check('emulated: a PARAM_LOB key works, and the key is in the SQL text',
    $emulated === $want && str_contains($query, "'\\x$keyHex'"), show([$emulated, $query]));
$st = $pdo->prepare("INSERT INTO orders (item) SELECT 'emulated' WHERE ulid_encrypt(?, ?) IS NOT NULL");
$st->bindValue(1, $id);
$st->bindValue(2, $key);
[$result, $warnings] = with_warnings(fn () => $st->execute());
expect_equal('emulated: a PARAM_STR key that is not UTF-8: execute() returns false, no exception, error code 00000',
    [$result, $warnings, $st->errorCode()], [false, [], '00000']);
$pdo->setAttribute(PDO::ATTR_EMULATE_PREPARES, false);
expect_equal('... and the statement was never sent', $pdo->query("SELECT count(*) FROM orders WHERE item = 'emulated'")->fetchColumn(), 0);


// Public ids without the database (public_id.php): the same as the
// server's for FIPS-197's vector, 200 ids the server made and the extremes,
// both ways, and a row found by a public id made here.
require __DIR__ . '/public_id.php';
$fips = hex2bin('000102030405060708090a0b0c0d0e0f');
expect_equal('PHP: FIPS-197 C.1 (00112233...ff under 000102...0f)',
    ulid_encrypt(bytes_to_ulid(hex2bin('00112233445566778899aabbccddeeff')), $fips),
    '69c4e0d8-6a7b-0430-d8cd-b78070b4c55a');
$st = $pdo->prepare("SELECT id::text, ulid_encrypt(id, ?)::text FROM (
    SELECT gen_ulid() AS id FROM generate_series(1, 200)
    UNION ALL VALUES ('00000000000000000000000000'::ulid), ('7ZZZZZZZZZZZZZZZZZZZZZZZZZ')) ids");
$st->bindValue(1, $key, PDO::PARAM_LOB);
$st->execute();
$pairs = $st->fetchAll(PDO::FETCH_NUM);
$mismatch = array_filter($pairs, fn ($p) => ulid_encrypt($p[0], $key) !== $p[1] || ulid_decrypt($p[1], $key) !== $p[0]);
check('PHP: ulid_encrypt and ulid_decrypt agree with the server on ' . count($pairs) . ' ids',
    count($pairs) === 202 && $mismatch === [], show(array_slice($mismatch, 0, 2)));
$st = $pdo->prepare('SELECT item FROM orders WHERE id = ulid_decrypt(?, ?)');
$st->bindValue(1, ulid_encrypt($id, $key));
$st->bindValue(2, $key, PDO::PARAM_LOB);
$st->execute();
expect_equal('PHP: a public id made in PHP finds its row through ulid_decrypt', $st->fetchColumn(), 'tea');
// What OPENSSL_ZERO_PADDING prevents: PKCS#7 padding, a second block.
expect_equal('PHP: without OPENSSL_ZERO_PADDING openssl_encrypt gives 32 bytes, not a public id',
    strlen(openssl_encrypt(ulid_to_bytes($id), 'aes-128-ecb', $key, OPENSSL_RAW_DATA)), 32);
// openssl_encrypt would take a 32-byte key for AES-128 by cutting it; the
// recipe refuses it with the server's message.
try {
    ulid_encrypt($id, $key . $key);
    check('PHP: a 32-byte key is refused', false, 'no exception');
} catch (InvalidArgumentException $e) {
    expect_equal('PHP: a 32-byte key is refused with the server\'s message', $e->getMessage(), 'key must be 16 bytes, not 32');
}

done();
