<?php
// The recipe of docs/clients/php.md for Doctrine DBAL 3.6: a ulid column
// type, and a platform that writes a default of gen_ulid() as the call it
// is, given to connections by a driver middleware.  doctrine_test.php uses
// it and shows what fails without each piece.

declare(strict_types=1);

// --- docs/clients/php.md: Doctrine, the type -------------------------------
use Doctrine\DBAL\Platforms\AbstractPlatform;
use Doctrine\DBAL\Types\Type;

// A ulid column. PHP values are strings: the 26-character ULID, and a uuid
// string as a parameter (the server reads both).
final class UlidType extends Type
{
    public function getName(): string
    {
        return 'ulid';
    }

    public function getSQLDeclaration(array $column, AbstractPlatform $platform): string
    {
        return 'ulid';
    }

    // The schema manager maps a column of database type ulid to this type.
    public function getMappedDatabaseTypes(AbstractPlatform $platform): array
    {
        return ['ulid'];
    }
}
// --- end --------------------------------------------------------------------

// --- docs/clients/php.md: Doctrine, the platform ---------------------------
use Doctrine\DBAL\Driver;
use Doctrine\DBAL\Driver\Middleware;
use Doctrine\DBAL\Driver\Middleware\AbstractDriverMiddleware;
use Doctrine\DBAL\Platforms\PostgreSQL100Platform;

// DBAL writes every default of a type it does not know as a quoted string,
// DEFAULT 'gen_ulid()'. This platform writes a ulid column's default that
// calls a function without arguments as the call: DEFAULT gen_ulid().
final class UlidPostgreSQLPlatform extends PostgreSQL100Platform
{
    public function getDefaultValueDeclarationSQL($column)
    {
        $default = $column['default'] ?? null;
        if (($column['type'] ?? null) instanceof UlidType && is_string($default) && preg_match('/^\w+\(\)$/', $default)) {
            return ' DEFAULT ' . $default;
        }
        return parent::getDefaultValueDeclarationSQL($column);
    }
}

// Gives each connection the platform above (PostgreSQL 10 and later).
final class UlidMiddleware implements Middleware
{
    public function wrap(Driver $driver): Driver
    {
        return new class ($driver) extends AbstractDriverMiddleware {
            public function createDatabasePlatformForVersion($version)
            {
                return new UlidPostgreSQLPlatform();
            }
        };
    }
}
// --- end --------------------------------------------------------------------
