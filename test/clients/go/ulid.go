// The pgx adapter for the ulid type: the code docs/clients/go.md shows, which
// the checks in main.go run.  Between the "docs/clients/go.md" markers it is
// copied into the docs verbatim (test/check_docs.py checks).

package main

// docs/clients/go.md snippet: the adapter.
import (
	"context"
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/jackc/pgtype"
	"github.com/jackc/pgx/v4"
)

// ULID is a ULID as its 16 bytes: the bytes of the uuid with the same value.
// It is a pgx parameter and scan target for ulid columns as it is: binary
// parameters, text or binary results.
type ULID [16]byte

const crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// ParseULID reads the 26-character form as the server does: either case,
// and Crockford's aliases I and L for 1 and O for 0.
func ParseULID(s string) (ULID, error) {
	var u ULID
	var hi, lo uint64
	if len(s) != 26 {
		return u, fmt.Errorf("invalid ULID %q", s)
	}
	for i := 0; i < len(s); i++ { // bytes, not runes: non-ASCII is refused
		c := s[i]
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		switch c {
		case 'I', 'L':
			c = '1'
		case 'O':
			c = '0'
		}
		d := strings.IndexByte(crockford, c)
		if d < 0 || i == 0 && d > 7 { // above 7 first: more than 128 bits
			return u, fmt.Errorf("invalid ULID %q", s)
		}
		hi, lo = hi<<5|lo>>59, lo<<5|uint64(d)
	}
	binary.BigEndian.PutUint64(u[:8], hi)
	binary.BigEndian.PutUint64(u[8:], lo)
	return u, nil
}

// String returns the 26-character form the server prints.
func (u ULID) String() string {
	var out [26]byte
	hi, lo := binary.BigEndian.Uint64(u[:8]), binary.BigEndian.Uint64(u[8:])
	for i := len(out) - 1; i >= 0; i-- {
		out[i] = crockford[lo&31]
		hi, lo = hi>>5, lo>>5|hi<<59
	}
	return string(out[:])
}

// EncodeBinary, DecodeBinary, EncodeText and DecodeText are pgtype's
// interfaces: pgx calls them for ULID parameters and scan targets.
func (u ULID) EncodeBinary(ci *pgtype.ConnInfo, buf []byte) ([]byte, error) {
	return append(buf, u[:]...), nil
}

func (u *ULID) DecodeBinary(ci *pgtype.ConnInfo, src []byte) error {
	if len(src) != 16 {
		return fmt.Errorf("ulid: cannot scan NULL or %d bytes into ULID", len(src))
	}
	copy(u[:], src)
	return nil
}

func (u ULID) EncodeText(ci *pgtype.ConnInfo, buf []byte) ([]byte, error) {
	return append(buf, u.String()...), nil
}

func (u *ULID) DecodeText(ci *pgtype.ConnInfo, src []byte) (err error) {
	if src == nil {
		return fmt.Errorf("ulid: cannot scan NULL into ULID")
	}
	*u, err = ParseULID(string(src))
	return err
}

// ulidValue is what RegisterULID registers for the ulid type: pgtype.UUID,
// but its text is the 26-character form.
type ulidValue struct{ pgtype.UUID }

func (v *ulidValue) Set(src interface{}) error {
	if s, ok := src.(string); ok && len(s) == 26 {
		u, err := ParseULID(s)
		v.UUID = pgtype.UUID{Bytes: u, Status: pgtype.Present}
		return err
	}
	return v.UUID.Set(src)
}

func (v *ulidValue) AssignTo(dst interface{}) error {
	switch d := dst.(type) {
	case *string:
		if v.Status == pgtype.Present {
			*d = ULID(v.Bytes).String()
			return nil
		}
	case *pgtype.UUID:
		*d = v.UUID
		return nil
	}
	return v.UUID.AssignTo(dst)
}

func (v *ulidValue) DecodeText(ci *pgtype.ConnInfo, src []byte) error {
	if src == nil {
		return v.UUID.DecodeText(ci, nil)
	}
	u, err := ParseULID(string(src))
	v.UUID = pgtype.UUID{Bytes: u, Status: pgtype.Present}
	return err
}

// RegisterULID teaches conn the ulid and ulid[] types: results then come in
// binary, and [16]byte, pgtype.UUID, ULID and string values (and slices of
// them) work as parameters and scan targets.  Use it as pgxpool's AfterConnect.
func RegisterULID(ctx context.Context, conn *pgx.Conn) error {
	var oid, arrayOID uint32
	err := conn.QueryRow(ctx, "SELECT 'ulid'::regtype::oid, 'ulid[]'::regtype::oid").Scan(&oid, &arrayOID)
	if err != nil {
		return err
	}
	ci := conn.ConnInfo()
	ci.RegisterDataType(pgtype.DataType{Value: &ulidValue{}, Name: "ulid", OID: oid})
	ci.RegisterDataType(pgtype.DataType{
		Value: pgtype.NewArrayType("_ulid", oid, func() pgtype.ValueTranscoder { return &ulidValue{} }),
		Name:  "_ulid", OID: arrayOID,
	})
	return nil
}

// End of docs/clients/go.md snippet.
