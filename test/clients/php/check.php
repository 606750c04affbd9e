<?php
// What the PHP client programs share: the check lines of t/007_clients.pl's
// contract, "ok - CLIENT: WHAT" or "FAILED - CLIENT: WHAT: WHY", one per
// check.  Each program sets $CLIENT, calls check() and its variants once per
// check and done() at the end, which exits 1 if a check failed.

declare(strict_types=1);

$CLIENT = 'php';
$FAILURES = 0;

function check(string $what, bool $ok, string $why = 'false'): void
{
    global $CLIENT, $FAILURES;
    if ($ok) {
        echo "ok - $CLIENT: $what\n";
        return;
    }
    $FAILURES++;
    // One line per check: t/007 reads the output line by line.
    echo "FAILED - $CLIENT: $what: " . preg_replace('/\s+/', ' ', $why) . "\n";
}

function show($value): string
{
    return preg_replace('/\s+/', ' ', var_export($value, true));
}

function expect_equal(string $what, $got, $want): void
{
    check($what, $got === $want, 'got ' . show($got) . ', want ' . show($want));
}

// The SQLSTATE of a PDO error or of a Doctrine DBAL driver error, null for
// anything else.
function sqlstate(Throwable $e): ?string
{
    if ($e instanceof PDOException) {
        return $e->errorInfo[0] ?? null;
    }
    if (method_exists($e, 'getSQLState')) {
        return $e->getSQLState();
    }
    return null;
}

// $fn() must throw an error with SQLSTATE $state whose message contains
// $message; returns the error, or null if it threw none or another.
function expect_sqlstate(string $what, callable $fn, string $state, string $message = ''): ?Throwable
{
    try {
        $fn();
    } catch (Throwable $e) {
        $ok = sqlstate($e) === $state && str_contains($e->getMessage(), $message);
        check($what, $ok, get_class($e) . ': ' . $e->getMessage());
        return $ok ? $e : null;
    }
    check($what, false, 'no error raised');
    return null;
}

// Deprecations (Doctrine's, with Deprecation::enableWithTriggerError()) are
// collected here rather than printed.
$DEPRECATIONS = [];

function collect_deprecation(int $no, string $message): bool
{
    global $DEPRECATIONS;
    if ($no !== E_USER_DEPRECATED && $no !== E_DEPRECATED) {
        return false;
    }
    $DEPRECATIONS[] = $message;
    return true;
}
set_error_handler('collect_deprecation', E_USER_DEPRECATED | E_DEPRECATED);

// $fn() with PHP's warnings collected rather than printed: [its result or
// the Throwable it threw, the warnings' messages].
function with_warnings(callable $fn): array
{
    $warnings = [];
    set_error_handler(function (int $no, string $message) use (&$warnings) {
        if (!collect_deprecation($no, $message)) {
            $warnings[] = $message;
        }
        return true;
    });
    try {
        $result = $fn();
    } catch (Throwable $e) {
        $result = $e;
    } finally {
        restore_error_handler();
    }
    return [$result, $warnings];
}

function done(): void
{
    global $CLIENT, $FAILURES;
    if ($FAILURES > 0) {
        echo "$CLIENT: $FAILURES failed\n";
        exit(1);
    }
}
