// pgx v4 against the ulid type; built and run by test/clients/go/run.
//
// Connects through the libpq environment (PGHOST, PGPORT, PGUSER,
// PGDATABASE) to a database where CREATE EXTENSION ulid has run.  Prints
// "ok - pgx: WHAT" or "FAILED - pgx: WHAT : WHY" per check; exits non-zero if
// any check failed.  The Go blocks of docs/clients/go.md appear verbatim here
// and in ulid.go (test/check_docs.py checks).

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/big"
	"math/rand"
	"os"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"time"

	gofrs "github.com/gofrs/uuid"
	"github.com/jackc/pgconn"
	"github.com/jackc/pgtype"
	"github.com/jackc/pgx/v4"
	"github.com/jackc/pgx/v4/pgxpool"
)

var failures int

func check(what string, ok bool, why string, args ...interface{}) {
	if ok {
		fmt.Printf("ok - pgx: %s\n", what)
		return
	}
	failures++
	fmt.Printf("FAILED - pgx: %s : %s\n", what, strings.Join(strings.Fields(fmt.Sprintf(why, args...)), " "))
}

func expectEqual(what string, got, want interface{}) {
	check(what, reflect.DeepEqual(got, want), "got %#v, want %#v", got, want)
}

// expectError checks that err is not nil and its text contains want.
func expectError(what string, err error, want string) {
	check(what, err != nil && strings.Contains(err.Error(), want), "got error %v, want one containing %q", err, want)
}

// The test's own codec, independent of ULID.String and ParseULID: math/big's
// base 32 digits mapped onto the Crockford alphabet.
const bigDigits = "0123456789abcdefghijklmnopqrstuv"

func crockfordOf(b []byte) string {
	s := new(big.Int).SetBytes(b).Text(32)
	s = strings.Repeat("0", 26-len(s)) + s
	out := make([]byte, len(s))
	for i := range s {
		out[i] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"[strings.IndexByte(bigDigits, s[i])]
	}
	return string(out)
}

func bytesOf(text string) []byte {
	digits := make([]byte, len(text))
	for i := range text {
		digits[i] = bigDigits[strings.IndexByte("0123456789ABCDEFGHJKMNPQRSTVWXYZ", text[i])]
	}
	n, _ := new(big.Int).SetString(string(digits), 32)
	return n.FillBytes(make([]byte, 16))
}

func uuidTextOf(b []byte) string {
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// Inputs the server reads that are not its output: lower case, and the
// aliases I and L for 1 and O for 0.
var aliased = []string{
	"01aryz6s41tsv4rrffq69g5fav",
	"O1ARYZ6S4ITSV4RRFFQ69G5FAV",
	"o1aryz6s4lTSV4RRFFQ69G5FAv",
	"LOLOLOLOLOLOLOLOLOLOLOLOLO",
	"iolIOLiolIOLiolIOLiolIOLio",
	"7zzzzzzzzzzzzzzzzzzzzzzzzz",
}

var canonical = regexp.MustCompile(`^[0-7][0-9A-HJKMNP-TV-Z]{25}$`)

// Known values: text, uuid.
var known = [][2]string{
	{"01ARYZ6S41TSV4RRFFQ69G5FAV", "01563df3-6481-d676-4c61-efb99302bd5b"},
	{"00000000000000000000000000", "00000000-0000-0000-0000-000000000000"},
	{"7ZZZZZZZZZZZZZZZZZZZZZZZZZ", "ffffffff-ffff-ffff-ffff-ffffffffffff"},
}

func randomULID(r *rand.Rand) ULID {
	var u ULID
	r.Read(u[:])
	return u
}

func resetOrders(ctx context.Context, conn *pgx.Conn) error {
	_, err := conn.Exec(ctx, `DROP TABLE IF EXISTS orders;
		CREATE TABLE orders (id ulid PRIMARY KEY DEFAULT gen_ulid(), item text)`)
	return err
}

// resultFormat is the format (0 text, 1 binary) pgx asked for the first
// column of sql.
func resultFormat(ctx context.Context, conn *pgx.Conn, sql string, args ...interface{}) (int16, error) {
	rows, err := conn.Query(ctx, sql, args...)
	if err != nil {
		return -1, err
	}
	defer rows.Close()
	return rows.FieldDescriptions()[0].Format, rows.Err()
}

// Out of the box: strings, pgtype.UUID parameters, the uuid form for bytes.
func outOfTheBox(ctx context.Context, conn *pgx.Conn) error {
	if err := resetOrders(ctx, conn); err != nil {
		return err
	}
	// docs/clients/go.md snippet: text.
	var id string
	err := conn.QueryRow(ctx, "INSERT INTO orders (item) VALUES ($1) RETURNING id", "tea").Scan(&id)
	if err != nil {
		return err
	}
	var item string
	err = conn.QueryRow(ctx, "SELECT item FROM orders WHERE id = $1", id).Scan(&item)
	// End of docs/clients/go.md snippet.
	if err != nil {
		return err
	}
	check("out of the box: the gen_ulid() default comes back from RETURNING as a 26-character string",
		canonical.MatchString(id), "got %q", id)
	expectEqual("out of the box: a string parameter finds the row", item, "tea")
	var asUUID string
	var asBytea []byte
	err = conn.QueryRow(ctx, "SELECT id::uuid, id::bytea FROM orders WHERE id = $1", id).Scan(&asUUID, &asBytea)
	if err != nil {
		return err
	}
	expectEqual("out of the box: the test's codec of the returned text equals id::bytea", bytesOf(id), asBytea)
	expectEqual("out of the box: the uuid text of those bytes equals id::uuid", uuidTextOf(asBytea), asUUID)
	format, err := resultFormat(ctx, conn, "SELECT id FROM orders")
	if err != nil {
		return err
	}
	expectEqual("out of the box: pgx asks for ulid results in text (format 0): it does not know the type", format, int16(0))

	// docs/clients/go.md snippet: uuid values.
	orderID := pgtype.UUID{Bytes: [16]byte{0x01, 0x56, 0x3d, 0xf3, 0x64, 0x81, 0xd6, 0x76,
		0x4c, 0x61, 0xef, 0xb9, 0x93, 0x02, 0xbd, 0x5b}, Status: pgtype.Present} // 01ARYZ6S41TSV4RRFFQ69G5FAV
	_, err = conn.Exec(ctx, "INSERT INTO orders (id, item) VALUES ($1, $2)", orderID, "coffee")
	if err != nil {
		return err
	}
	var raw [16]byte // or pgtype.UUID: read the uuid form, which pgx knows
	err = conn.QueryRow(ctx, "SELECT id::uuid FROM orders WHERE id = $1", orderID).Scan(&raw)
	// End of docs/clients/go.md snippet.
	if err != nil {
		return err
	}
	expectEqual("out of the box: a pgtype.UUID parameter inserts and finds the row, id::uuid scans into [16]byte",
		raw, orderID.Bytes)
	var text string
	err = conn.QueryRow(ctx, "SELECT id FROM orders WHERE id = $1", &orderID).Scan(&text)
	if err != nil {
		return err
	}
	expectEqual("out of the box: a *pgtype.UUID parameter works too; the row's text", text, known[0][0])
	var gid gofrs.UUID = gofrs.FromStringOrNil(known[0][1])
	err = conn.QueryRow(ctx, "SELECT item FROM orders WHERE id = $1", gid).Scan(&item)
	if err != nil {
		check("out of the box: a github.com/gofrs/uuid UUID parameter finds the row", false, "%v", err)
	} else {
		expectEqual("out of the box: a github.com/gofrs/uuid UUID parameter finds the row", item, "coffee")
	}
	var gback gofrs.UUID
	err = conn.QueryRow(ctx, "SELECT id::uuid FROM orders WHERE id = $1", id).Scan(&gback)
	if err != nil {
		return err
	}
	expectEqual("out of the box: id::uuid scans into a gofrs UUID", gback.Bytes(), asBytea)
	err = conn.QueryRow(ctx, "SELECT id FROM orders WHERE id = $1", id).Scan(&gback)
	expectError("out of the box: scanning a ulid into a gofrs UUID fails (it gets the 26-character text)",
		err, "incorrect UUID length")

	// The failures the issue describes, and what each says.
	b := orderID.Bytes
	_, err = conn.Exec(ctx, "SELECT item FROM orders WHERE id = $1", b)
	expectError("out of the box: a [16]byte parameter fails before anything is sent",
		err, "Cannot encode [16]uint8 into oid")
	err = conn.QueryRow(ctx, "SELECT id FROM orders WHERE id = $1", id).Scan(&b)
	expectError("out of the box: scanning a ulid into [16]byte fails", err, "cannot be scanned into *[16]uint8")
	var pu pgtype.UUID
	err = conn.QueryRow(ctx, "SELECT id FROM orders WHERE id = $1", id).Scan(&pu)
	expectError("out of the box: scanning a ulid into pgtype.UUID fails (it gets the text)",
		err, "invalid length for UUID: 26")
	var rawText []byte
	err = conn.QueryRow(ctx, "SELECT id FROM orders WHERE id = $1", id).Scan(&rawText)
	if err != nil {
		return err
	}
	expectEqual("out of the box: scanning a ulid into []byte gives the 26 bytes of its text, not the 16", string(rawText), id)

	// Arrays.
	var ids []string
	err = conn.QueryRow(ctx, "SELECT array_agg(id ORDER BY id) FROM orders").Scan(&ids)
	expectError("out of the box: a ulid[] result does not scan into []string", err, "cannot be scanned into *[]string")
	// docs/clients/go.md snippet: arrays.
	var both, one int
	err = conn.QueryRow(ctx, "SELECT count(*) FROM orders WHERE id = ANY($1)", []string{id, "01ARYZ6S41TSV4RRFFQ69G5FAV"}).Scan(&both)
	if err != nil {
		return err
	}
	err = conn.QueryRow(ctx, "SELECT count(*) FROM orders WHERE id = ANY($1::uuid[])", [][16]byte{orderID.Bytes}).Scan(&one)
	if err != nil {
		return err
	}
	var all []string // a ulid[] result: cast it to text[]
	err = conn.QueryRow(ctx, "SELECT array_agg(id ORDER BY id)::text[] FROM orders").Scan(&all)
	// End of docs/clients/go.md snippet.
	if err != nil {
		return err
	}
	expectEqual("out of the box: id = ANY($1) with []string", both, 2)
	expectEqual("out of the box: id = ANY($1::uuid[]) with [][16]byte", one, 1)
	expectEqual("out of the box: a ulid[] result cast to text[] scans into []string", all, []string{known[0][0], id})
	_, err = conn.Exec(ctx, "SELECT item FROM orders WHERE id = ANY($1)", [][16]byte{orderID.Bytes})
	expectError("out of the box: id = ANY($1) with [][16]byte fails (ulid[] is unknown to pgx)", err,
		"Cannot encode [][16]uint8 into oid")

	// CopyFrom: binary, with the column types it looks up.
	_, err = conn.CopyFrom(ctx, pgx.Identifier{"orders"}, []string{"id", "item"},
		pgx.CopyFromRows([][]interface{}{{id[:25] + "0", "copied"}}))
	var pgErr *pgconn.PgError
	check("out of the box: CopyFrom sends a string id as raw bytes: 22P03 invalid length in external \"ulid\" value",
		errors.As(err, &pgErr) && pgErr.Code == "22P03", "got %v", err)
	_, err = conn.CopyFrom(ctx, pgx.Identifier{"orders"}, []string{"id", "item"},
		pgx.CopyFromRows([][]interface{}{{orderID.Bytes, "copied"}}))
	expectError("out of the box: CopyFrom with a [16]byte id fails", err, "[16]uint8")
	if err = copyFrom(ctx, conn, "out of the box: CopyFrom with a ULID id", ULID{4}, ULID{4}.String()); err != nil {
		return err
	}
	if err = copyFrom(ctx, conn, "out of the box: CopyFrom with a pgtype.UUID id", pgtype.UUID{Bytes: [16]byte{3}, Status: pgtype.Present}, ULID{3}.String()); err != nil {
		return err
	}

	// The simple protocol: everything is text, literals in the query.
	err = conn.QueryRow(ctx, "SELECT id FROM orders WHERE id = $1", pgx.QuerySimpleProtocol(true), id).Scan(&text)
	if err != nil {
		return err
	}
	expectEqual("out of the box, simple protocol: a string parameter and a string result", text, id)
	err = conn.QueryRow(ctx, "SELECT id FROM orders WHERE id = $1", pgx.QuerySimpleProtocol(true), orderID).Scan(&text)
	if err != nil {
		return err
	}
	expectEqual("out of the box, simple protocol: a pgtype.UUID parameter (sent as uuid text)", text, known[0][0])
	return nil
}

func collectStrings(rows pgx.Rows) ([]string, error) {
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// The ULID type without registering anything: binary parameters, text results.
func ulidType(ctx context.Context, conn *pgx.Conn, r *rand.Rand) error {
	for _, k := range known {
		u, err := ParseULID(k[0])
		if err != nil {
			return err
		}
		expectEqual("ULID: ParseULID("+k[0]+") gives the uuid's bytes", uuidTextOf(u[:]), k[1])
		expectEqual("ULID: String() of "+k[1], u.String(), k[0])
		lower, err := ParseULID(strings.ToLower(k[0]))
		expectEqual("ULID: ParseULID reads lower case: "+k[0], lower, u)
		check("ULID: ParseULID reads lower case without error: "+k[0], err == nil, "%v", err)
	}
	// ParseULID reads what the server reads, to the same bytes: either case,
	// I and L as 1, O as 0, also as the first character.
	for _, in := range aliased {
		var server []byte
		err := conn.QueryRow(ctx, "SELECT $1::ulid::bytea", in).Scan(&server)
		if err != nil {
			return err
		}
		u, perr := ParseULID(in)
		check(fmt.Sprintf("ULID: ParseULID(%q) equals the server's '%s'::ulid", in, in),
			perr == nil && bytes.Equal(u[:], server), "got %x, %v; server %x", u[:], perr, server)
	}
	// ... and refuses what the server refuses: 'ſ' is 2 bytes and upper-cases
	// to 'S', so the first string is 26 bytes, 25 runes.
	for _, bad := range []string{"01ARYZ6S41TSV4RRFFQ69G5Fſ", "01ARYZ6S41TSV4RRFFQ69G5Fé", "01ARYZ6S41TSV4RRFFQ69G5FÄV",
		"", "01ARYZ6S41TSV4RRFFQ69G5FA", "01ARYZ6S41TSV4RRFFQ69G5FAVV", "81ARYZ6S41TSV4RRFFQ69G5FAV",
		"zZZZZZZZZZZZZZZZZZZZZZZZZZ", "01ARYZ6S41TSV4RRFFQ69G5FAU", "01aryz6s41tsv4rrffq69g5fau",
		"01ARYZ6S41TSV4RRFFQ69G5FA ", known[0][1]} {
		_, perr := ParseULID(bad)
		_, err := conn.Exec(ctx, "SELECT $1::ulid", bad)
		var pgErr *pgconn.PgError
		serverRefuses := errors.As(err, &pgErr) && pgErr.Code == "22P02"
		if bad == known[0][1] {
			check(fmt.Sprintf("ULID: ParseULID(%q) is an error (the uuid form: the server reads it)", bad),
				perr != nil && err == nil, "ParseULID: %v; server: %v", perr, err)
			continue
		}
		check(fmt.Sprintf("ULID: ParseULID(%q) is an error, as the server's 22P02", bad),
			perr != nil && serverRefuses, "ParseULID: %v; server: %v", perr, err)
	}
	mismatch := 0
	for i := 0; i < 1000; i++ {
		u := randomULID(r)
		back, err := ParseULID(crockfordOf(u[:]))
		if u.String() != crockfordOf(u[:]) || err != nil || back != u {
			mismatch++
		}
	}
	expectEqual("ULID: String and ParseULID agree with the test's math/big codec on 1,000 random values", mismatch, 0)

	// docs/clients/go.md snippet: the ULID type.
	var newID ULID
	err := conn.QueryRow(ctx, "INSERT INTO orders (item) VALUES ($1) RETURNING id", "cake").Scan(&newID)
	if err != nil {
		return err
	}
	var item string
	err = conn.QueryRow(ctx, "SELECT item FROM orders WHERE id = $1", newID).Scan(&item)
	fmt.Println("new order", newID) // its String method: 01JX..., 26 characters
	// End of docs/clients/go.md snippet.
	if err != nil {
		return err
	}
	expectEqual("ULID, not registered: RETURNING id scans into a ULID, and the ULID parameter finds the row", item, "cake")
	var text string
	var asBytea []byte
	err = conn.QueryRow(ctx, "SELECT id::text, id::bytea FROM orders WHERE id = $1", newID).Scan(&text, &asBytea)
	if err != nil {
		return err
	}
	expectEqual("ULID, not registered: String() equals id::text", newID.String(), text)
	expectEqual("ULID, not registered: the bytes equal id::bytea", newID[:], asBytea)

	// Random values both ways: the parameter goes in binary, the result comes back as text.
	mismatch = 0
	var first string
	for i := 0; i < 200; i++ {
		u := randomULID(r)
		u[0] &= 0x7f // any 16 bytes are a ulid; keep some high ones too
		if i%2 == 0 {
			u[0] |= 0x80
		}
		var back ULID
		var asText, asUUID string
		var asBytes []byte
		err = conn.QueryRow(ctx, "SELECT $1::ulid, $1::ulid::text, $1::ulid::uuid::text, $1::ulid::bytea", u).
			Scan(&back, &asText, &asUUID, &asBytes)
		if err != nil {
			return err
		}
		if back != u || asText != crockfordOf(u[:]) || asUUID != uuidTextOf(u[:]) || !bytes.Equal(asBytes, u[:]) {
			mismatch++
			if first == "" {
				first = fmt.Sprintf("%x: back %x, text %s, uuid %s, bytea %x", u[:], back[:], asText, asUUID, asBytes)
			}
		}
	}
	check("ULID, not registered: 200 random values: ULID -> server -> ULID, ::text, ::uuid and ::bytea agree with the test's codec",
		mismatch == 0, "%d mismatches, first %s", mismatch, first)

	var back ULID
	err = conn.QueryRow(ctx, "SELECT $1::ulid", pgx.QuerySimpleProtocol(true), newID).Scan(&back)
	if err != nil {
		return err
	}
	expectEqual("ULID, simple protocol: the parameter goes as text and the text result scans back", back, newID)
	err = conn.QueryRow(ctx, "SELECT NULL::ulid").Scan(&back)
	expectError("ULID: scanning NULL into a ULID is an error", err, "NULL")
	var nullable *ULID
	err = conn.QueryRow(ctx, "SELECT NULL::ulid").Scan(&nullable)
	check("ULID: NULL scans into a *ULID as nil", err == nil && nullable == nil, "got %v, %v", nullable, err)
	return nil
}

// After RegisterULID: binary results; [16]byte, pgtype.UUID, arrays.
func registered(ctx context.Context, conn *pgx.Conn) error {
	// docs/clients/go.md snippet: registering.
	if err := RegisterULID(ctx, conn); err != nil {
		return err
	}
	var raw [16]byte
	var text string
	err := conn.QueryRow(ctx, "INSERT INTO orders (item) VALUES ($1) RETURNING id, id", "jam").Scan(&raw, &text)
	if err != nil {
		return err
	}
	var item string
	err = conn.QueryRow(ctx, "SELECT item FROM orders WHERE id = $1", raw).Scan(&item)
	// End of docs/clients/go.md snippet.
	if err != nil {
		return err
	}
	expectEqual("registered: a [16]byte parameter finds the row", item, "jam")
	check("registered: the same value scans into a string as the 26-character text", canonical.MatchString(text), "got %q", text)
	expectEqual("registered: [16]byte and string of the same result agree with the test's codec", crockfordOf(raw[:]), text)
	format, err := resultFormat(ctx, conn, "SELECT id FROM orders")
	if err != nil {
		return err
	}
	expectEqual("registered: pgx asks for ulid results in binary (format 1)", format, int16(1))

	var pu pgtype.UUID
	var u ULID
	var bs []byte
	var gid gofrs.UUID
	var iface interface{}
	err = conn.QueryRow(ctx, "SELECT id, id, id, id, id FROM orders WHERE id = $1", text).Scan(&pu, &u, &bs, &gid, &iface)
	if err != nil {
		return err
	}
	expectEqual("registered: scans into pgtype.UUID", pu, pgtype.UUID{Bytes: raw, Status: pgtype.Present})
	expectEqual("registered: scans into ULID", u, ULID(raw))
	expectEqual("registered: scans into []byte (16 bytes now)", bs, raw[:])
	expectEqual("registered: scans into a gofrs UUID", gid.Bytes(), raw[:])
	expectEqual("registered: rows.Values / interface{} gives [16]byte", iface, raw)
	for _, arg := range []interface{}{pu, &pu, u, gid, text, known[0][1]} {
		var n int
		err = conn.QueryRow(ctx, "SELECT count(*) FROM orders WHERE id = $1", arg).Scan(&n)
		what := fmt.Sprintf("registered: a %T parameter %v finds the row", arg, arg)
		if err != nil {
			check(what, false, "%v", err)
		} else {
			expectEqual(what, n, 1)
		}
	}
	var pnull pgtype.UUID
	var snull *string
	err = conn.QueryRow(ctx, "SELECT NULL::ulid, NULL::ulid").Scan(&pnull, &snull)
	check("registered: NULL scans into pgtype.UUID (Status Null) and *string (nil)",
		err == nil && pnull.Status == pgtype.Null && snull == nil, "got %v, %v, %v", pnull, snull, err)

	// Arrays.
	// docs/clients/go.md snippet: registered arrays.
	var n int
	err = conn.QueryRow(ctx, "SELECT count(*) FROM orders WHERE id = ANY($1)", [][16]byte{raw}).Scan(&n)
	if err != nil {
		return err
	}
	var all [][16]byte // or []string, []ULID, []pgtype.UUID
	err = conn.QueryRow(ctx, "SELECT array_agg(id ORDER BY id) FROM orders").Scan(&all)
	// End of docs/clients/go.md snippet.
	if err != nil {
		return err
	}
	expectEqual("registered: id = ANY($1) with [][16]byte", n, 1)
	var allText []string
	var allULID []ULID
	var allUUID []pgtype.UUID
	err = conn.QueryRow(ctx, "SELECT array_agg(id ORDER BY id), array_agg(id ORDER BY id), array_agg(id ORDER BY id) FROM orders").
		Scan(&allText, &allULID, &allUUID)
	if err != nil {
		check("registered: a ulid[] result scans into []string, []ULID and []pgtype.UUID", false, "%v", err)
	} else {
		ok := len(all) >= 4 && len(allText) == len(all) && len(allULID) == len(all) && len(allUUID) == len(all)
		for i := 0; ok && i < len(all); i++ {
			ok = crockfordOf(all[i][:]) == allText[i] && allULID[i] == ULID(all[i]) && allUUID[i].Bytes == all[i]
		}
		check("registered: a ulid[] result scans into [][16]byte, []string, []ULID and []pgtype.UUID, which agree",
			ok, "got %x, %v, %v, %v", all, allText, allULID, allUUID)
	}
	// The elements of a []string go through ulidValue.Set, so ParseULID.
	var nAliased int
	err = conn.QueryRow(ctx, "SELECT count(*) FROM orders WHERE id = ANY($1)", aliased[:3]).Scan(&nAliased)
	if err != nil {
		check("registered: id = ANY($1) with a []string in lower case and with aliases", false, "%v", err)
	} else {
		expectEqual("registered: id = ANY($1) with a []string in lower case and with aliases", nAliased, 1)
	}
	_, err = conn.Exec(ctx, "SELECT count(*) FROM orders WHERE id = ANY($1)", []string{"01ARYZ6S41TSV4RRFFQ69G5Fſ"})
	expectError("registered: id = ANY($1) with a []string of a 26-byte non-ASCII string fails in ParseULID", err, "invalid ULID")
	for _, arg := range []interface{}{[]ULID{u}, []pgtype.UUID{pu}, []string{text}} {
		rows, err := conn.Query(ctx, "SELECT item FROM orders WHERE id = ANY($1)", arg)
		var items []string
		if err == nil {
			items, err = collectStrings(rows)
		}
		if err != nil {
			check(fmt.Sprintf("registered: id = ANY($1) with %T", arg), false, "%v", err)
		} else {
			expectEqual(fmt.Sprintf("registered: id = ANY($1) with %T", arg), items, []string{"jam"})
		}
	}

	// The simple protocol asks for text: the registered type reads the 26 characters.
	var sraw [16]byte
	var stext string
	err = conn.QueryRow(ctx, "SELECT id, id FROM orders WHERE id = $1", pgx.QuerySimpleProtocol(true), text).Scan(&sraw, &stext)
	if err != nil {
		return err
	}
	check("registered, simple protocol: text results scan into [16]byte and string",
		sraw == raw && stext == text, "got %x, %q", sraw, stext)
	err = conn.QueryRow(ctx, "SELECT id FROM orders WHERE id = $1", pgx.QuerySimpleProtocol(true), u).Scan(&stext)
	if err != nil {
		return err
	}
	expectEqual("registered, simple protocol: a ULID parameter", stext, text)
	err = conn.QueryRow(ctx, "SELECT id FROM orders WHERE id = $1", pgx.QuerySimpleProtocol(true), text).Scan(&pu)
	expectError("registered, simple protocol: scanning into pgtype.UUID still fails (its own text decoder reads the text)",
		err, "invalid length for UUID: 26")
	_, err = conn.Exec(ctx, "SELECT id FROM orders WHERE id = $1", pgx.QuerySimpleProtocol(true), raw)
	expectError("registered, simple protocol: a [16]byte parameter still fails", err, "Cannot encode [16]uint8 in simple protocol")

	// CopyFrom sends binary, for which pgx needs the type: [16]byte works now.
	err = copyFrom(ctx, conn, "registered: CopyFrom with a [16]byte id", [16]byte{2}, ULID{2}.String())
	if err != nil {
		return err
	}
	_, err = conn.CopyFrom(ctx, pgx.Identifier{"orders"}, []string{"id", "item"},
		pgx.CopyFromRows([][]interface{}{{text[:25] + "0", "copied"}}))
	var pgErr *pgconn.PgError
	check("registered: CopyFrom still sends a string id as raw bytes: 22P03",
		errors.As(err, &pgErr) && pgErr.Code == "22P03", "got %v", err)
	var oid uint32
	if err = conn.QueryRow(ctx, "SELECT 'ulid'::regtype::oid").Scan(&oid); err != nil {
		return err
	}
	ulidType, ok := conn.ConnInfo().DataTypeForOID(oid)
	check("registered: the ConnInfo knows the ulid type by its oid", ok && ulidType.Name == "ulid", "got %v, %v", ulidType, ok)
	return nil
}

// copyFrom copies one row with id into orders and reads its text back.
func copyFrom(ctx context.Context, conn *pgx.Conn, what string, id interface{}, want string) error {
	n, err := conn.CopyFrom(ctx, pgx.Identifier{"orders"}, []string{"id", "item"},
		pgx.CopyFromRows([][]interface{}{{id, what}}))
	if err != nil {
		check(what, false, "%v", err)
		return nil
	}
	var text string
	err = conn.QueryRow(ctx, "SELECT id FROM orders WHERE item = $1", what).Scan(&text)
	if err != nil {
		return err
	}
	check(what, n == 1 && text == want, "copied %d, got %q, want %q", n, text, want)
	return nil
}

// A server-side prepared statement, executed many times, by each kind of value.
func prepared(ctx context.Context, conn *pgx.Conn, r *rand.Rand, registeredConn bool) error {
	label := "prepared, not registered"
	if registeredConn {
		label = "prepared, registered"
	}
	var ids []ULID
	for i := 0; i < 12; i++ {
		u := randomULID(r)
		if _, err := conn.Exec(ctx, "INSERT INTO orders (id, item) VALUES ($1, $2)", u, label+u.String()); err != nil {
			return err
		}
		ids = append(ids, u)
	}
	// docs/clients/go.md snippet: prepared statement.
	_, err := conn.Prepare(ctx, "order_item", "SELECT item FROM orders WHERE id = $1")
	if err != nil {
		return err
	}
	items := make([]string, len(ids))
	for i, id := range ids {
		if err := conn.QueryRow(ctx, "order_item", id).Scan(&items[i]); err != nil {
			return err
		}
	}
	// End of docs/clients/go.md snippet.
	for i, id := range ids {
		if items[i] != label+id.String() {
			return fmt.Errorf("%s: %s gave %q", label, id, items[i])
		}
	}
	sd, err := conn.Prepare(ctx, "order_item", "SELECT item FROM orders WHERE id = $1") // the same, described
	if err != nil {
		return err
	}
	var oid uint32
	if err = conn.QueryRow(ctx, "SELECT 'ulid'::regtype::oid").Scan(&oid); err != nil {
		return err
	}
	expectEqual(label+": the statement's parameter is typed ulid", sd.ParamOIDs, []uint32{oid})
	var named int
	err = conn.QueryRow(ctx, "SELECT count(*) FROM pg_prepared_statements WHERE name = 'order_item'").Scan(&named)
	if err != nil {
		return err
	}
	expectEqual(label+": the statement is prepared on the server", named, 1)
	check(label+": 12 executions with a ULID each find their row", true, "")
	for i, id := range ids {
		var item string
		var arg interface{} = id.String()
		if i%2 == 1 {
			arg = pgtype.UUID{Bytes: id, Status: pgtype.Present}
		}
		if err = conn.QueryRow(ctx, "order_item", arg).Scan(&item); err != nil {
			return err
		}
		if item != label+id.String() {
			return fmt.Errorf("%s: %v gave %q", label, arg, item)
		}
	}
	check(label+": 12 more executions, with strings and pgtype.UUID, find their rows", true, "")
	var item string
	err = conn.QueryRow(ctx, "order_item", [16]byte(ids[0])).Scan(&item)
	if registeredConn {
		check(label+": a [16]byte argument", err == nil && item == label+ids[0].String(), "got %q, %v", item, err)
	} else {
		expectError(label+": a [16]byte argument fails as without Prepare", err, "Cannot encode [16]uint8 into oid")
	}
	return conn.Deallocate(ctx, "order_item")
}

// ORDER BY id is the order of the text and of the bytes.
func ordering(ctx context.Context, conn *pgx.Conn, r *rand.Rand) error {
	if _, err := conn.Exec(ctx, "TRUNCATE orders"); err != nil {
		return err
	}
	for i := 0; i < 100; i++ {
		u := randomULID(r)
		if i%3 == 0 {
			u[0] &= 0x01 // share prefixes
		}
		if _, err := conn.Exec(ctx, "INSERT INTO orders (id, item) VALUES ($1, 'sorted')", u); err != nil {
			return err
		}
	}
	if _, err := conn.Exec(ctx, "INSERT INTO orders (item) SELECT 'sorted' FROM generate_series(1, 100)"); err != nil {
		return err
	}
	rows, err := conn.Query(ctx, "SELECT id FROM orders ORDER BY id")
	if err != nil {
		return err
	}
	var got []ULID
	for rows.Next() {
		var u ULID
		if err := rows.Scan(&u); err != nil {
			rows.Close()
			return err
		}
		got = append(got, u)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	texts := make([]string, len(got))
	for i, u := range got {
		texts[i] = u.String()
	}
	check("ordering: ORDER BY id of 200 values is the order of their text",
		len(got) == 200 && sort.StringsAreSorted(texts), "%d values", len(got))
	check("ordering: ... and of their bytes", sort.SliceIsSorted(got, func(i, j int) bool {
		return bytes.Compare(got[i][:], got[j][:]) < 0
	}), "not sorted")
	var n int
	err = conn.QueryRow(ctx, "SELECT count(*) FROM orders WHERE id > $1", got[99]).Scan(&n)
	if err != nil {
		return err
	}
	expectEqual("ordering: id > $1 with a ULID parameter", n, 100)
	return nil
}

func badInput(ctx context.Context, conn *pgx.Conn) error {
	// docs/clients/go.md snippet: errors.
	_, err := conn.Exec(ctx, "SELECT item FROM orders WHERE id = $1", "01ARYZ6S41TSV4RRFFQ69G5FAU")
	var pgErr *pgconn.PgError
	invalid := errors.As(err, &pgErr) && pgErr.Code == "22P02" // invalid input syntax for type ulid
	// End of docs/clients/go.md snippet.
	check("errors: an invalid string parameter is a *pgconn.PgError with Code 22P02",
		invalid && strings.Contains(pgErr.Message, `invalid input syntax for type ulid: "01ARYZ6S41TSV4RRFFQ69G5FAU"`),
		"got %T %v", err, err)
	_, err = conn.Exec(ctx, "SELECT 'nope'::ulid", pgx.QuerySimpleProtocol(true))
	check("errors: the same through the simple protocol", errors.As(err, &pgErr) && pgErr.Code == "22P02", "got %v", err)
	_, err = conn.Exec(ctx, "SELECT item FROM orders WHERE id = $1", []byte{1, 2, 3})
	check("errors: a []byte parameter goes as text (not the bytes): 22P02",
		errors.As(err, &pgErr) && pgErr.Code == "22P02", "got %v", err)
	_, err = conn.Exec(ctx, "SELECT item FROM orders WHERE id = $1::text", "01ARYZ6S41TSV4RRFFQ69G5FAV")
	check("errors: comparing with a text-typed parameter: operator does not exist: ulid = text (42883)",
		errors.As(err, &pgErr) && pgErr.Code == "42883" && strings.Contains(pgErr.Message, "operator does not exist: ulid = text"),
		"got %v", err)
	return nil
}

// Registering plain pgtype.UUID for the oid, as pgx's docs suggest for other
// types: bytes work, but strings then read and write the uuid form.
func plainUUID(ctx context.Context) error {
	conn, err := pgx.Connect(ctx, "")
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	var oid uint32
	if err = conn.QueryRow(ctx, "SELECT 'ulid'::regtype::oid").Scan(&oid); err != nil {
		return err
	}
	conn.ConnInfo().RegisterDataType(pgtype.DataType{Value: &pgtype.UUID{}, Name: "ulid", OID: oid})
	var raw [16]byte
	var text string
	err = conn.QueryRow(ctx, "SELECT $1::ulid, $1::ulid", known[0][0]).Scan(&raw, &text)
	if err != nil {
		return err
	}
	check("plain pgtype.UUID registered: [16]byte scans", uuidTextOf(raw[:]) == known[0][1], "got %x", raw)
	expectEqual("plain pgtype.UUID registered: a string scan now gives the uuid form, not the 26 characters", text, known[0][1])
	err = conn.QueryRow(ctx, "SELECT $1::ulid", pgx.QuerySimpleProtocol(true), known[0][0]).Scan(&raw)
	expectError("plain pgtype.UUID registered, simple protocol: [16]byte scans fail", err, "invalid length for UUID: 26")
	return nil
}

// The same values under each way pgx v4 runs a query: named prepared
// statements (the default), the anonymous statement (describe; no cache) and
// the simple protocol, each with and without RegisterULID.
func execModes(ctx context.Context) error {
	want, _ := ParseULID(known[0][0])
	for _, settings := range []string{"statement_cache_mode=prepare", "statement_cache_mode=describe",
		"statement_cache_capacity=0", "prefer_simple_protocol=true"} {
		for _, register := range []bool{false, true} {
			config, err := pgx.ParseConfig(settings)
			if err != nil {
				return err
			}
			conn, err := pgx.ConnectConfig(ctx, config)
			if err != nil {
				return err
			}
			if register {
				err = RegisterULID(ctx, conn)
			}
			var fromText, fromUUID ULID
			var text, uuidText string
			if err == nil {
				err = conn.QueryRow(ctx, "SELECT $1::ulid, $1::ulid::text", known[0][0]).Scan(&fromText, &text)
			}
			if err == nil {
				err = conn.QueryRow(ctx, "SELECT $1::ulid, $1::ulid::uuid::text",
					pgtype.UUID{Bytes: want, Status: pgtype.Present}).Scan(&fromUUID, &uuidText)
			}
			var raw [16]byte
			var rawErr error
			if register {
				rawErr = conn.QueryRow(ctx, "SELECT $1::ulid", want).Scan(&raw)
			}
			conn.Close(ctx)
			what := fmt.Sprintf("%s, registered %v: string and pgtype.UUID parameters, ULID and string results", settings, register)
			check(what, err == nil && fromText == want && text == known[0][0] && fromUUID == want && uuidText == known[0][1],
				"got %v %q %v %q, %v", fromText, text, fromUUID, uuidText, err)
			if register {
				check(settings+", registered: a [16]byte result", rawErr == nil && raw == want, "got %x, %v", raw, rawErr)
			}
		}
	}
	return nil
}

func pool(ctx context.Context) error {
	// docs/clients/go.md snippet: pgxpool.
	config, err := pgxpool.ParseConfig("")
	if err != nil {
		return err
	}
	config.AfterConnect = RegisterULID
	pool, err := pgxpool.ConnectConfig(ctx, config)
	// End of docs/clients/go.md snippet.
	if err != nil {
		return err
	}
	defer pool.Close()
	var raw [16]byte
	err = pool.QueryRow(ctx, "SELECT $1::ulid", known[0][0]).Scan(&raw)
	if err != nil {
		return err
	}
	expectEqual("pgxpool with AfterConnect: RegisterULID: [16]byte scans", uuidTextOf(raw[:]), known[0][1])
	return nil
}

func run(name string, err error) {
	if err != nil {
		failures++
		fmt.Printf("FAILED - pgx: %s : unexpected error: %s\n", name, strings.Join(strings.Fields(err.Error()), " "))
	}
}

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	seed := time.Now().UnixNano()
	fmt.Sscan(os.Getenv("ULID_TEST_SEED"), &seed)
	fmt.Printf("seed %d (ULID_TEST_SEED replays it)\n", seed)
	r := rand.New(rand.NewSource(seed))

	conn, err := pgx.Connect(ctx, "")
	if err != nil {
		fmt.Printf("FAILED - pgx: connect : %v\n", err)
		os.Exit(1)
	}
	run("out of the box", outOfTheBox(ctx, conn))
	run("ULID type", ulidType(ctx, conn, r))
	run("prepared, not registered", prepared(ctx, conn, r, false))
	run("errors", badInput(ctx, conn))

	// A connection of its own for the registered type.
	conn2, err := pgx.Connect(ctx, "")
	if err != nil {
		fmt.Printf("FAILED - pgx: connect : %v\n", err)
		os.Exit(1)
	}
	run("registered", registered(ctx, conn2))
	run("prepared, registered", prepared(ctx, conn2, r, true))
	run("ordering", ordering(ctx, conn2, r))
	run("pgxpool", pool(ctx))
	run("exec modes", execModes(ctx))
	run("plain pgtype.UUID", plainUUID(ctx))
	run("cleanup", func() error { _, err := conn.Exec(ctx, "DROP TABLE orders"); return err }())
	conn.Close(ctx)
	conn2.Close(ctx)
	if failures > 0 {
		os.Exit(1)
	}
}
