import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.UUID;

import org.postgresql.PGConnection;
import org.postgresql.util.PGBinaryObject;
import org.postgresql.util.PGobject;

/**
 * A ulid value for pgjdbc: its 26-character text, its UUID and its 16 bytes.
 * After Ulid.register(conn), getObject returns a Ulid for ulid columns, in the
 * text and the binary format alike, and setObject(i, ulid) sends a ulid.
 */
public class Ulid extends PGobject implements PGBinaryObject, Comparable<Ulid> {
    private static final String CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
    private long msb;
    private long lsb;

    public Ulid() {
        type = "ulid";
    }

    /** Makes getObject return a Ulid for ulid columns on this connection. */
    public static void register(Connection conn) throws SQLException {
        conn.unwrap(PGConnection.class).addDataType("ulid", Ulid.class);
    }

    public static Ulid parse(String text) throws SQLException {
        Ulid ulid = new Ulid();
        ulid.setValue(text);
        return ulid;
    }

    public static Ulid fromUuid(UUID uuid) {
        Ulid ulid = new Ulid();
        ulid.set(uuid.getMostSignificantBits(), uuid.getLeastSignificantBits());
        return ulid;
    }

    public UUID toUuid() {
        return new UUID(msb, lsb);
    }

    public byte[] toBytes() {
        return ByteBuffer.allocate(16).putLong(msb).putLong(lsb).array();
    }

    /**
     * Reads the text form as the server does: 26 Crockford Base32 characters,
     * either case, I and L read as 1 and O as 0, the first one 0-7.
     * (The server also reads the uuid text form; here use fromUuid.)
     */
    @Override
    public void setValue(String text) throws SQLException {
        if (text == null || text.length() != 26 || digit(text.charAt(0)) > 7) {
            throw new SQLException("invalid ULID: \"" + text + "\"", "22P02");
        }
        long hi = 0;
        long lo = 0;
        for (int i = 0; i < 26; i++) {
            int digit = digit(text.charAt(i));
            if (digit < 0) {
                throw new SQLException("invalid ULID: \"" + text + "\"", "22P02");
            }
            hi = (hi << 5) | (lo >>> 59);
            lo = (lo << 5) | digit;
        }
        set(hi, lo);
    }

    /** The value of one character, or -1. ASCII only: Character.toUpperCase would read 'ſ' as S. */
    private static int digit(char c) {
        char upper = c >= 'a' && c <= 'z' ? (char) (c - 'a' + 'A') : c;
        switch (upper) {
            case 'I':
            case 'L':
                return 1;
            case 'O':
                return 0;
            default:
                return CROCKFORD.indexOf(upper);
        }
    }

    private void set(long hi, long lo) {
        msb = hi;
        lsb = lo;
        char[] text = new char[26];
        for (int i = 25; i >= 0; i--) {
            text[i] = CROCKFORD.charAt((int) (lo & 31));
            lo = (lo >>> 5) | (hi << 59);
            hi >>>= 5;
        }
        value = new String(text);
    }

    /** Reads the binary form: the 16 bytes. */
    @Override
    public void setByteValue(byte[] bytes, int offset) {
        ByteBuffer buffer = ByteBuffer.wrap(bytes, offset, 16);
        set(buffer.getLong(), buffer.getLong());
    }

    @Override
    public int lengthInBytes() {
        return 16;
    }

    @Override
    public void toBytes(byte[] bytes, int offset) {
        ByteBuffer.wrap(bytes, offset, 16).putLong(msb).putLong(lsb);
    }

    /** The order of ORDER BY id (UUID.compareTo compares signed numbers: not this order). */
    @Override
    public int compareTo(Ulid other) {
        int c = Long.compareUnsigned(msb, other.msb);
        return c != 0 ? c : Long.compareUnsigned(lsb, other.lsb);
    }
}
