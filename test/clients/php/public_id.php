<?php
// Public ids without the database: ulid_encrypt() and ulid_decrypt() in PHP,
// with its openssl extension.  docs/clients/php.md shows this file's code
// (test/check_docs.py checks it); pdo_test.php tests it against the server.

declare(strict_types=1);

// --- docs/clients/php.md: public ids without the database -------------------
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

// The 16 bytes of a ULID in its canonical text (26 characters, upper case).
function ulid_to_bytes(string $ulid): string
{
    $bits = '';
    foreach (str_split(strtoupper($ulid)) as $c) {
        $bits .= str_pad(decbin(strpos(CROCKFORD, $c)), 5, '0', STR_PAD_LEFT);
    }
    return implode('', array_map(fn ($b) => chr(bindec($b)), str_split(substr($bits, 2), 8)));
}

// The canonical text of 16 bytes.
function bytes_to_ulid(string $bytes): string
{
    $bits = '00';
    foreach (str_split($bytes) as $byte) {
        $bits .= str_pad(decbin(ord($byte)), 8, '0', STR_PAD_LEFT);
    }
    return implode('', array_map(fn ($b) => CROCKFORD[bindec($b)], str_split($bits, 5)));
}

// ulid_encrypt(id, key): the 16 bytes as one AES-128 block, no padding.
function ulid_encrypt(string $ulid, string $key): string
{
    if (strlen($key) !== 16) {
        throw new InvalidArgumentException('key must be 16 bytes, not ' . strlen($key));
    }
    $block = openssl_encrypt(ulid_to_bytes($ulid), 'aes-128-ecb', $key,
        OPENSSL_RAW_DATA | OPENSSL_ZERO_PADDING);
    return implode('-', sscanf(bin2hex($block), '%8s%4s%4s%4s%12s'));
}

// ulid_decrypt(public_id, key): the ULID back.
function ulid_decrypt(string $publicId, string $key): string
{
    if (strlen($key) !== 16) {
        throw new InvalidArgumentException('key must be 16 bytes, not ' . strlen($key));
    }
    $bytes = openssl_decrypt(hex2bin(str_replace('-', '', $publicId)), 'aes-128-ecb', $key,
        OPENSSL_RAW_DATA | OPENSSL_ZERO_PADDING);
    return bytes_to_ulid($bytes);
}
// --- end --------------------------------------------------------------------
