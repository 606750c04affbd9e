// pgjdbc against the ulid type; run by test/clients/java/run.
//
// Connects over TCP (PGTCPHOST, PGPORT, PGUSER, PGDATABASE) to a database
// where CREATE EXTENSION ulid has run; its tables live in a schema of its own,
// java.  Prints "ok - pgjdbc: NAME" or "FAILED - pgjdbc: NAME : WHY" per
// check; exits non-zero if any check failed.  The Java code blocks of
// docs/clients/java.md appear verbatim here or in Ulid.java.

import java.io.StringReader;
import java.io.StringWriter;
import java.math.BigInteger;
import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Properties;
import java.util.Random;
import java.util.UUID;

import org.postgresql.PGConnection;
import org.postgresql.PGStatement;
import org.postgresql.copy.CopyManager;
import org.postgresql.util.PGobject;

public class UlidJdbcTest {
    static int failures = 0;
    static String url;

    interface Body {
        void run() throws Exception;
    }

    static void check(String name, boolean ok, Object why) {
        if (ok) {
            System.out.println("ok - pgjdbc: " + name);
        } else {
            failures++;
            System.out.println("FAILED - pgjdbc: " + name + " : " + String.valueOf(why).replaceAll("\\s+", " "));
        }
    }

    static void expectEqual(String name, Object got, Object want) {
        boolean ok = (got instanceof byte[] && want instanceof byte[])
            ? Arrays.equals((byte[]) got, (byte[]) want) : Objects.equals(got, want);
        check(name, ok, "got " + show(got) + ", want " + show(want));
    }

    static String show(Object o) {
        return o instanceof byte[] ? HexFormat.of().formatHex((byte[]) o) : String.valueOf(o);
    }

    // Runs a group of checks; an exception in it is one failed check.
    static void section(String name, Body body) {
        try {
            body.run();
        } catch (Exception e) {
            check(name, false, "unexpected " + e);
        }
    }

    // Expects body to fail with this SQLSTATE and a message that contains text.
    static void expectError(String name, String sqlstate, String text, Body body) {
        try {
            body.run();
            check(name, false, "no error");
        } catch (SQLException e) {
            System.out.println(name + ": " + e.getMessage().replace("\n", " | "));
            check(name, sqlstate.equals(e.getSQLState()) && e.getMessage().contains(text),
                "got " + e.getSQLState() + " " + e.getMessage());
        } catch (Exception e) {
            check(name, false, "got " + e);
        }
    }

    // The test's own Crockford Base32 codec, independent of Ulid.java and of the extension's C.
    static final String CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

    static String b32(byte[] bytes) {
        BigInteger n = new BigInteger(1, bytes);
        StringBuilder text = new StringBuilder();
        for (int i = 25; i >= 0; i--) {
            text.append(CROCKFORD.charAt(n.shiftRight(5 * i).intValue() & 31));
        }
        return text.toString();
    }

    static byte[] unb32(String text) {
        BigInteger n = BigInteger.ZERO;
        for (char c : text.toUpperCase().toCharArray()) {
            n = n.shiftLeft(5).add(BigInteger.valueOf(CROCKFORD.indexOf(c)));
        }
        byte[] raw = n.toByteArray();
        byte[] out = new byte[16];
        int len = Math.min(raw.length, 16);
        System.arraycopy(raw, raw.length - len, out, 16 - len, len);
        return out;
    }

    static UUID uuidOf(byte[] b) {
        return UUID.fromString(HexFormat.of().formatHex(b).replaceFirst(
            "(.{8})(.{4})(.{4})(.{4})(.{12})", "$1-$2-$3-$4-$5"));
    }

    static Connection connect(String extra) throws SQLException {
        return DriverManager.getConnection(url + extra);
    }

    // Known values: the ULID spec's example, the smallest and the largest ULID.
    static final String[][] VECTORS = {
        {"01ARYZ6S41TSV4RRFFQ69G5FAV", "01563df36481d6764c61efb99302bd5b"},
        {"00000000000000000000000000", "00000000000000000000000000000000"},
        {"7ZZZZZZZZZZZZZZZZZZZZZZZZZ", "ffffffffffffffffffffffffffffffff"},
    };

    public static void main(String[] args) throws Exception {
        url = "jdbc:postgresql://" + System.getenv("PGTCPHOST") + ":" + System.getenv("PGPORT") + "/"
            + System.getenv("PGDATABASE") + "?user=" + System.getenv("PGUSER") + "&currentSchema=java,public";
        long seed = System.getenv("ULID_TEST_SEED") != null
            ? Long.parseLong(System.getenv("ULID_TEST_SEED")) : new Random().nextLong();
        System.out.println("pgjdbc " + org.postgresql.util.DriverInfo.DRIVER_VERSION
            + ", Java " + System.getProperty("java.version") + ", ULID_TEST_SEED=" + seed);

        try (Connection conn = connect("")) {
            try (Statement st = conn.createStatement()) {
                st.execute("DROP SCHEMA IF EXISTS java CASCADE");
                st.execute("CREATE SCHEMA java");
                st.execute("CREATE TABLE java.orders (id ulid PRIMARY KEY DEFAULT gen_ulid(), item text)");
            }
            codec();
            defaults(conn);
            parameters(conn);
            reading(conn);
            arrays(conn);
            prepared(conn);
            ordering(conn, new Random(seed));
            roundTrips(conn, new Random(seed + 1));
            copy(conn);
            errors(conn);
        }
        long oid = binaryTrap();
        adapter(new Random(seed + 2), oid);
        try (Connection conn = connect(""); Statement st = conn.createStatement()) {
            st.execute("DROP SCHEMA java CASCADE");
        }
        System.exit(failures == 0 ? 0 : 1);
    }

    static void codec() {
        section("codec: known values", () -> {
            for (String[] v : VECTORS) {
                byte[] bytes = HexFormat.of().parseHex(v[1]);
                expectEqual("codec: test codec decodes " + v[0], unb32(v[0]), bytes);
                expectEqual("codec: Ulid.parse(" + v[0] + ").toBytes()", Ulid.parse(v[0]).toBytes(), bytes);
                expectEqual("codec: Ulid.fromUuid encodes " + v[0], Ulid.fromUuid(uuidOf(bytes)).getValue(), v[0]);
            }
        });
    }

    static void defaults(Connection conn) {
        section("insert with the default, RETURNING", () -> {
            // docs/clients/java.md snippet: RETURNING.
            String id;
            try (PreparedStatement ps = conn.prepareStatement("INSERT INTO orders (item) VALUES (?) RETURNING id")) {
                ps.setString(1, "tea");
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    id = rs.getString("id"); // "01JX...": 26 characters
                }
            }
            // End of snippet.
            check("insert with the default: RETURNING id gives 26 Crockford characters",
                id != null && id.matches("[0-7][0-9A-HJKMNP-TV-Z]{25}"), id);
            check("insert with the default: the id is gen_ulid()'s, from about now",
                Math.abs(new BigInteger(1, unb32(id)).shiftRight(80).longValue() - System.currentTimeMillis()) < 60000, id);

            // docs/clients/java.md snippet: getGeneratedKeys.
            String coffeeId;
            try (PreparedStatement ps = conn.prepareStatement(
                    "INSERT INTO orders (item) VALUES (?)", new String[] {"id"})) {
                ps.setString(1, "coffee");
                ps.executeUpdate();
                try (ResultSet keys = ps.getGeneratedKeys()) {
                    keys.next();
                    coffeeId = keys.getString("id");
                }
            }
            // End of snippet.
            try (PreparedStatement ps = conn.prepareStatement("SELECT item FROM orders WHERE id = ?::ulid")) {
                ps.setString(1, coffeeId);
                try (ResultSet rs = ps.executeQuery()) {
                    expectEqual("insert with the default: getGeneratedKeys gives the new row's id",
                        rs.next() ? rs.getString(1) : null, "coffee");
                }
            }
            // Two gen_ulid() values are ordered by their time only (the first 10 characters):
            // within one millisecond, their random parts may come in either order.
            check("insert with the default: the second id's time is not before the first's",
                coffeeId.substring(0, 10).compareTo(id.substring(0, 10)) >= 0 && !coffeeId.equals(id),
                id + " then " + coffeeId);
        });
    }

    static void parameters(Connection conn) {
        section("parameters", () -> {
            try (PreparedStatement ps = conn.prepareStatement("INSERT INTO orders (id, item) VALUES (?::ulid, ?)")) {
                ps.setString(1, "01ARYZ6S41TSV4RRFFQ69G5FAV");
                ps.setString(2, "cake");
                ps.executeUpdate();
            }
            // docs/clients/java.md snippet: UUID parameters.
            UUID orderId = UUID.fromString("01563df3-6481-d676-4c61-efb99302bd5b"); // 01ARYZ6S41TSV4RRFFQ69G5FAV
            String item;
            try (PreparedStatement ps = conn.prepareStatement("SELECT item FROM orders WHERE id = ?")) {
                ps.setObject(1, orderId);
                try (ResultSet rs = ps.executeQuery()) {
                    item = rs.next() ? rs.getString("item") : null; // "cake"
                }
            }
            // End of snippet.
            expectEqual("parameters: setObject(UUID) finds the row", item, "cake");

            try (Statement st = conn.createStatement()) {
                st.execute("SET enable_seqscan = off");
            }
            try (PreparedStatement ps = conn.prepareStatement("EXPLAIN SELECT item FROM orders WHERE id = ?")) {
                ps.setObject(1, orderId);
                StringBuilder plan = new StringBuilder();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        plan.append(rs.getString(1)).append(' ');
                    }
                }
                check("parameters: a UUID parameter uses the primary key's index",
                    plan.toString().contains("Index") && plan.toString().contains("orders_pkey"), plan);
            } finally {
                try (Statement st = conn.createStatement()) {
                    st.execute("RESET enable_seqscan");
                }
            }

            String id = "01ARYZ6S41TSV4RRFFQ69G5FAV";
            expectError("parameters: setString without stringtype is refused (42883)", "42883",
                "operator does not exist: ulid = character varying", () -> {
                    // docs/clients/java.md snippet: the setString trap.
                    try (PreparedStatement ps = conn.prepareStatement("SELECT item FROM orders WHERE id = ?")) {
                        ps.setString(1, id); // ERROR: operator does not exist: ulid = character varying
                        ps.executeQuery();
                    }
                    // End of snippet.
                });

            try (Statement st = conn.createStatement()) {
                st.execute("CREATE TABLE uuid_orders (id uuid PRIMARY KEY, item text)");
            }
            expectError("parameters: setString on a core uuid column is refused the same way (42883)", "42883",
                "operator does not exist: uuid = character varying", () -> {
                    try (PreparedStatement ps = conn.prepareStatement("SELECT item FROM uuid_orders WHERE id = ?")) {
                        ps.setString(1, "01563df3-6481-d676-4c61-efb99302bd5b");
                        ps.executeQuery();
                    }
                });

            // docs/clients/java.md snippet: Types.OTHER.
            try (PreparedStatement ps = conn.prepareStatement("SELECT item FROM orders WHERE id = ?")) {
                ps.setObject(1, id, Types.OTHER); // sent untyped: the server reads it as a ulid
                try (ResultSet rs = ps.executeQuery()) {
                    item = rs.next() ? rs.getString("item") : null;
                }
            }
            // End of snippet.
            expectEqual("parameters: setObject(text, Types.OTHER) finds the row", item, "cake");

            // docs/clients/java.md snippet: a cast in the SQL.
            try (PreparedStatement ps = conn.prepareStatement("SELECT item FROM orders WHERE id = ?::ulid")) {
                ps.setString(1, id);
                try (ResultSet rs = ps.executeQuery()) {
                    item = rs.next() ? rs.getString("item") : null;
                }
            }
            // End of snippet.
            expectEqual("parameters: setString with ?::ulid finds the row", item, "cake");

            // docs/clients/java.md snippet: stringtype=unspecified.
            Properties props = new Properties();
            props.setProperty("stringtype", "unspecified"); // every setString is sent untyped
            try (Connection untyped = DriverManager.getConnection(url, props);
                    PreparedStatement ps = untyped.prepareStatement("SELECT item FROM orders WHERE id = ?")) {
                ps.setString(1, id);
                try (ResultSet rs = ps.executeQuery()) {
                    item = rs.next() ? rs.getString("item") : null; // "cake"
                }
            }
            // End of snippet.
            expectEqual("parameters: setString with stringtype=unspecified (in Properties) finds the row", item, "cake");
            try (Connection untyped = connect("&stringtype=unspecified");
                    PreparedStatement ps = untyped.prepareStatement("SELECT item FROM orders WHERE id = ?")) {
                ps.setString(1, id);
                try (ResultSet rs = ps.executeQuery()) {
                    expectEqual("parameters: setString with stringtype=unspecified (in the URL) finds the row",
                        rs.next() ? rs.getString("item") : null, "cake");
                }
            }

            try (PreparedStatement ps = conn.prepareStatement("SELECT item FROM orders WHERE id = ?")) {
                ps.setObject(1, id.toLowerCase(), Types.OTHER);
                try (ResultSet rs = ps.executeQuery()) {
                    expectEqual("parameters: lower-case text finds the row", rs.next() ? rs.getString(1) : null, "cake");
                }
                ps.setObject(1, "01563df3-6481-d676-4c61-efb99302bd5b", Types.OTHER);
                try (ResultSet rs = ps.executeQuery()) {
                    expectEqual("parameters: the uuid text form, untyped, finds the row",
                        rs.next() ? rs.getString(1) : null, "cake");
                }
            }
            try (PreparedStatement ps = conn.prepareStatement("INSERT INTO orders (id, item) VALUES (?, ?)")) {
                ps.setObject(1, UUID.fromString("01563df3-6481-d676-4c61-efb99302bd5c"));
                ps.setString(2, "pie");
                ps.executeUpdate();
            }
            try (PreparedStatement ps = conn.prepareStatement("SELECT id FROM orders WHERE item = 'pie'");
                    ResultSet rs = ps.executeQuery()) {
                expectEqual("parameters: insert with a UUID value (uuid -> ulid assignment cast)",
                    rs.next() ? rs.getString(1) : null, "01ARYZ6S41TSV4RRFFQ69G5FAW");
            }
        });
    }

    static void reading(Connection conn) {
        section("reading", () -> {
            String id = "01ARYZ6S41TSV4RRFFQ69G5FAV";
            // docs/clients/java.md snippet: reading.
            String text;
            UUID uuid;
            byte[] bytes;
            try (PreparedStatement ps = conn.prepareStatement(
                    "SELECT id, id::uuid AS uuid, id::bytea AS bytes FROM orders WHERE item = ?")) {
                ps.setString(1, "cake");
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    text = rs.getString("id");               // "01ARYZ6S41TSV4RRFFQ69G5FAV"
                    uuid = rs.getObject("uuid", UUID.class); // 01563df3-6481-d676-4c61-efb99302bd5b
                    bytes = rs.getBytes("bytes");            // the 16 bytes
                }
            }
            // End of snippet.
            expectEqual("reading: getString gives the 26-character text", text, id);
            expectEqual("reading: getObject(UUID.class) on id::uuid", uuid, uuidOf(unb32(id)));
            expectEqual("reading: getBytes on id::bytea gives the 16 bytes", bytes, unb32(id));
            try (PreparedStatement ps = conn.prepareStatement("SELECT id FROM orders WHERE item = 'cake'")) {
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    Object raw = rs.getObject("id");
                    check("reading: getObject on the ulid column gives a PGobject of type ulid with the text",
                        raw instanceof PGobject && "ulid".equals(((PGobject) raw).getType())
                            && id.equals(((PGobject) raw).getValue()), raw == null ? null : raw.getClass());
                    try {
                        Object u = rs.getObject("id", UUID.class);
                        check("reading: getObject(UUID.class) on the ulid column itself is refused", false,
                            "returned " + u);
                    } catch (Exception e) {
                        // pgjdbc 42.5 throws a bare ClassCastException, not an SQLException.
                        check("reading: getObject(UUID.class) on the ulid column itself is refused",
                            e instanceof ClassCastException
                                && e.getMessage().contains("Cannot cast org.postgresql.util.PGobject to java.util.UUID"),
                            e);
                    }
                    expectEqual("reading: getBytes on the ulid column gives the text's bytes, not the 16",
                        new String(rs.getBytes("id"), "US-ASCII"), id);
                }
            }
        });
    }

    static void arrays(Connection conn) {
        section("arrays", () -> {
            List<String> want = List.of("01ARYZ6S41TSV4RRFFQ69G5FAV", "01ARYZ6S41TSV4RRFFQ69G5FAW");
            // docs/clients/java.md snippet: arrays.
            UUID[] uuids = {
                UUID.fromString("01563df3-6481-d676-4c61-efb99302bd5b"),
                UUID.fromString("01563df3-6481-d676-4c61-efb99302bd5c"),
            };
            List<String> found = new ArrayList<>();
            try (PreparedStatement ps = conn.prepareStatement("SELECT id FROM orders WHERE id = ANY(?) ORDER BY id")) {
                ps.setArray(1, conn.createArrayOf("uuid", uuids)); // a uuid[] parameter
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        found.add(rs.getString("id"));
                    }
                }
            }
            // End of snippet.
            expectEqual("arrays: = ANY(uuid[]) from createArrayOf(\"uuid\", UUID[])", found, want);
            found.clear();
            try (PreparedStatement ps = conn.prepareStatement("SELECT id FROM orders WHERE id = ANY(?) ORDER BY id")) {
                // docs/clients/java.md snippet: a ulid[] parameter.
                String[] texts = {"01ARYZ6S41TSV4RRFFQ69G5FAV", "01ARYZ6S41TSV4RRFFQ69G5FAW"};
                ps.setArray(1, conn.createArrayOf("ulid", texts)); // a ulid[] parameter
                // End of snippet.
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        found.add(rs.getString("id"));
                    }
                }
            }
            expectEqual("arrays: = ANY(ulid[]) from createArrayOf(\"ulid\", String[])", found, want);
            String[] texts = want.toArray(new String[0]);
            try (PreparedStatement ps = conn.prepareStatement("SELECT count(*) FROM orders WHERE id = ANY(?::ulid[])")) {
                ps.setArray(1, conn.createArrayOf("text", texts));
                try (ResultSet rs = ps.executeQuery()) {
                    expectEqual("arrays: = ANY(?::ulid[]) from createArrayOf(\"text\", String[])",
                        rs.next() ? rs.getLong(1) : null, 2L);
                }
            }
            expectError("arrays: a text[] without the cast is refused (42883)", "42883",
                "operator does not exist: ulid = text", () -> {
                    try (PreparedStatement ps = conn.prepareStatement("SELECT count(*) FROM orders WHERE id = ANY(?)")) {
                        ps.setArray(1, conn.createArrayOf("text", texts));
                        ps.executeQuery();
                    }
                });
            try (PreparedStatement ps = conn.prepareStatement(
                    "SELECT array_agg(id ORDER BY id) FROM orders WHERE id = ANY(?)")) {
                ps.setArray(1, conn.createArrayOf("uuid", new UUID[] {uuidOf(unb32(want.get(0))), uuidOf(unb32(want.get(1)))}));
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    Array a = rs.getArray(1);
                    Object[] elements = (Object[]) a.getArray();
                    List<String> got = new ArrayList<>();
                    for (Object e : elements) {
                        got.add(e.toString());
                    }
                    expectEqual("arrays: a ulid[] result: getArray gives PGobjects whose text is each id",
                        a.getBaseTypeName() + " " + elements[0].getClass().getName() + " " + got,
                        "ulid org.postgresql.util.PGobject " + want);
                }
            }
        });
    }

    static void prepared(Connection conn) {
        section("prepared", () -> {
            String id = "01ARYZ6S41TSV4RRFFQ69G5FAV";
            UUID uuid = UUID.fromString("01563df3-6481-d676-4c61-efb99302bd5b");
            List<String> wrong = new ArrayList<>();
            boolean serverPrepared = false;
            try (PreparedStatement ps = conn.prepareStatement(
                    "SELECT id, id::uuid, item FROM orders WHERE id = ? OR id = ?")) {
                for (int n = 1; n <= 10; n++) {
                    ps.setObject(1, uuid);
                    ps.setObject(2, id, Types.OTHER);
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        String got = rs.getString(1) + " " + rs.getObject(2, UUID.class) + " " + rs.getString(3)
                            + " " + ((PGobject) rs.getObject(1)).getValue() + " " + rs.next();
                        if (!got.equals(id + " " + uuid + " cake " + id + " false")) {
                            wrong.add(n + ": " + got);
                        }
                    }
                    if (n == 6) {
                        serverPrepared = ps.unwrap(PGStatement.class).isUseServerPrepare();
                    }
                }
            }
            check("prepared: the statement is server-prepared by its 6th execution (prepareThreshold 5)",
                serverPrepared, "isUseServerPrepare() false");
            check("prepared: 10 executions, uuid and untyped text parameters, text results right every time",
                wrong.isEmpty(), wrong);
            try (PreparedStatement ps = conn.prepareStatement("INSERT INTO orders (item) VALUES (?) RETURNING id")) {
                List<String> ids = new ArrayList<>();
                for (int n = 1; n <= 8; n++) {
                    ps.setString(1, "batch");
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        ids.add(rs.getString(1));
                    }
                }
                check("prepared: 8 inserts with RETURNING give 8 distinct ids, none null",
                    ids.stream().allMatch(s -> s != null && s.length() == 26) && ids.stream().distinct().count() == 8, ids);
            }
        });
    }

    static void ordering(Connection conn, Random random) {
        section("ordering", () -> {
            try (Statement st = conn.createStatement()) {
                st.execute("CREATE TABLE sorted (id ulid PRIMARY KEY)");
            }
            List<String> texts = new ArrayList<>();
            try (PreparedStatement ps = conn.prepareStatement("INSERT INTO sorted VALUES (?)")) {
                for (int n = 0; n < 200; n++) {
                    byte[] b = new byte[16];
                    random.nextBytes(b);
                    if (n < 4) {
                        b[0] = (byte) (n < 2 ? 0x7f : 0x80); // both sides of the sign bit
                    }
                    texts.add(b32(b));
                    ps.setObject(1, uuidOf(b));
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            List<String> got = new ArrayList<>();
            List<UUID> uuids = new ArrayList<>();
            try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery("SELECT id, id::uuid AS uuid FROM sorted ORDER BY id")) {
                while (rs.next()) {
                    got.add(rs.getString(1));
                    uuids.add(rs.getObject(2, UUID.class));
                }
            }
            List<String> want = new ArrayList<>(texts);
            Collections.sort(want);
            expectEqual("ordering: ORDER BY id equals the text order (200 values, batch insert of UUIDs)", got, want);
            List<UUID> javaOrder = new ArrayList<>(uuids);
            Collections.sort(javaOrder);
            check("ordering: java.util.UUID.compareTo does not sort as ORDER BY id (signed comparison)",
                !javaOrder.equals(uuids), "the same order");
            check("ordering: UUID.compareTo puts ffffffff-ffff-ffff-ffff-ffffffffffff before the zero UUID",
                new UUID(-1L, -1L).compareTo(new UUID(0L, 0L)) < 0, "it does not");
            List<Ulid> ulids = new ArrayList<>();
            for (String t : texts) {
                ulids.add(Ulid.parse(t));
            }
            Collections.sort(ulids);
            List<String> adapterOrder = new ArrayList<>();
            for (Ulid u : ulids) {
                adapterOrder.add(u.getValue());
            }
            expectEqual("ordering: Ulid.compareTo sorts as ORDER BY id", adapterOrder, got);
        });
    }

    static void roundTrips(Connection conn, Random random) {
        section("round trips", () -> {
            int bad = 0;
            String first = null;
            try (PreparedStatement ps = conn.prepareStatement(
                    "SELECT ?::ulid::text, ?::ulid::uuid, ?::ulid::bytea, ?::ulid::text, (?::uuid)::ulid::text")) {
                for (int n = 0; n < 300; n++) {
                    byte[] b = new byte[16];
                    random.nextBytes(b);
                    String text = b32(b);
                    UUID uuid = uuidOf(b);
                    ps.setString(1, text);
                    ps.setString(2, text);
                    ps.setString(3, text);
                    ps.setString(4, text.toLowerCase());
                    ps.setObject(5, uuid);
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        boolean ok = text.equals(rs.getString(1)) && uuid.equals(rs.getObject(2, UUID.class))
                            && Arrays.equals(b, rs.getBytes(3)) && text.equals(rs.getString(4))
                            && text.equals(rs.getString(5))
                            && Ulid.parse(text).toUuid().equals(uuid) && Ulid.fromUuid(uuid).getValue().equals(text);
                        if (!ok && bad++ == 0) {
                            first = text + " -> " + rs.getString(1) + " " + rs.getObject(2, UUID.class) + " "
                                + show(rs.getBytes(3)) + " " + rs.getString(4) + " " + rs.getString(5);
                        }
                    }
                }
            }
            check("round trips: 300 random values: text, lower-case text, uuid and bytes agree with the test's codec and Ulid",
                bad == 0, bad + " wrong, first " + first);
        });
    }

    static void copy(Connection conn) {
        section("copy", () -> {
            CopyManager copy = conn.unwrap(PGConnection.class).getCopyAPI();
            try (Statement st = conn.createStatement()) {
                st.execute("CREATE TABLE copied (id ulid, item text)");
            }
            long rows = copy.copyIn("COPY copied (id, item) FROM STDIN",
                new StringReader("01ARYZ6S41TSV4RRFFQ69G5FAV\ttea\n01563df3-6481-d676-4c61-efb99302bd5c\tpie\n"));
            StringWriter out = new StringWriter();
            copy.copyOut("COPY (SELECT id, item FROM copied ORDER BY id) TO STDOUT", out);
            expectEqual("copy: text COPY in (ULID and uuid text forms) and out with CopyManager", rows + "\n" + out,
                "2\n01ARYZ6S41TSV4RRFFQ69G5FAV\ttea\n01ARYZ6S41TSV4RRFFQ69G5FAW\tpie\n");
        });
    }

    static void errors(Connection conn) {
        expectError("errors: invalid text is SQLSTATE 22P02", "22P02",
            "invalid input syntax for type ulid: \"01ARYZ6S41TSV4RRFFQ69G5FA\"", () -> {
                try (PreparedStatement ps = conn.prepareStatement("SELECT item FROM orders WHERE id = ?")) {
                    ps.setObject(1, "01ARYZ6S41TSV4RRFFQ69G5FA", Types.OTHER);
                    ps.executeQuery();
                }
            });
        expectError("errors: a ULID above 7ZZZZZZZZZZZZZZZZZZZZZZZZZ is SQLSTATE 22P02", "22P02",
            "invalid input syntax for type ulid", () -> {
                try (PreparedStatement ps = conn.prepareStatement("SELECT ?::ulid")) {
                    ps.setString(1, "80000000000000000000000000");
                    ps.executeQuery();
                }
            });
        expectError("errors: Ulid.parse refuses bad text with 22P02, client side", "22P02",
            "invalid ULID", () -> Ulid.parse("01ARYZ6S41TSV4RRFFQ69G5FAU"));
        parsing(conn);
    }

    // What '...'::ulid gives, or "22P02" if the server refuses it.
    static String server(Connection conn, String text) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT ?::ulid::text")) {
            ps.setString(1, text);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        } catch (SQLException e) {
            if ("22P02".equals(e.getSQLState())) {
                return "22P02";
            }
            throw e;
        }
    }

    // What Ulid.parse gives, or "22P02" if it refuses the text.
    static String client(String text) throws SQLException {
        try {
            return Ulid.parse(text).getValue();
        } catch (SQLException e) {
            if ("22P02".equals(e.getSQLState())) {
                return "22P02";
            }
            throw e;
        }
    }

    // Ulid.parse reads the 26-character form as the server's ulid_in does.
    static void parsing(Connection conn) {
        String[][] cases = {
            // {what, text, the value both must give or 22P02}
            {"lower case", "01aryz6s41tsv4rrffq69g5fav", "01ARYZ6S41TSV4RRFFQ69G5FAV"},
            {"mixed case", "01aRyZ6s41TsV4rRfFq69g5FaV", "01ARYZ6S41TSV4RRFFQ69G5FAV"},
            {"the aliases O and I (read as 0 and 1)", "O1ARYZ6S4ITSV4RRFFQ69G5FAV", "01ARYZ6S41TSV4RRFFQ69G5FAV"},
            {"the alias L (read as 1)", "01ARYZ6S4LTSV4RRFFQ69G5FAV", "01ARYZ6S41TSV4RRFFQ69G5FAV"},
            {"the aliases in lower case", "o1aryz6s4itsv4rrffq69g5fav", "01ARYZ6S41TSV4RRFFQ69G5FAV"},
            {"an alias first (L is 1)", "LZZZZZZZZZZZZZZZZZZZZZZZZZ", "1ZZZZZZZZZZZZZZZZZZZZZZZZZ"},
            {"all O", "oooooooooooooooooooooooooo", "00000000000000000000000000"},
            {"the largest", "7zzzzzzzzzzzzzzzzzzzzzzzzz", "7ZZZZZZZZZZZZZZZZZZZZZZZZZ"},
            {"a first character of 8", "80000000000000000000000000", "22P02"},
            {"a first character of Z", "ZZZZZZZZZZZZZZZZZZZZZZZZZZ", "22P02"},
            {"a first character of z", "z0000000000000000000000000", "22P02"},
            {"25 characters", "01ARYZ6S41TSV4RRFFQ69G5FA", "22P02"},
            {"27 characters", "01ARYZ6S41TSV4RRFFQ69G5FAVV", "22P02"},
            {"the empty string", "", "22P02"},
            {"U", "01ARYZ6S41TSV4RRFFQ69G5FAU", "22P02"},
            {"a hyphen", "01ARYZ6S41-SV4RRFFQ69G5FAV", "22P02"},
            {"a space", " 1ARYZ6S41TSV4RRFFQ69G5FAV", "22P02"},
            {"non-ASCII that Java upper-cases to S", "01ARYZ6S41TSV4RRFFQ69G5FA\u017f", "22P02"},
            {"non-ASCII that Java upper-cases to I", "01ARYZ6S41TSV4RRFFQ69G5FA\u0131", "22P02"},
        };
        for (String[] c : cases) {
            section("parsing: " + c[0], () -> {
                expectEqual("parsing: " + c[0] + ": Ulid.parse and '...'::ulid agree",
                    client(c[1]) + " / " + server(conn, c[1]), c[2] + " / " + c[2]);
            });
        }
        // The one difference: the server also reads the uuid text form; Ulid.parse does not.
        section("parsing: the uuid text form", () -> {
            String uuidText = "01563df3-6481-d676-4c61-efb99302bd5b";
            expectEqual("parsing: the uuid text form: '...'::ulid reads it, Ulid.parse refuses it, fromUuid reads it",
                server(conn, uuidText) + " / " + client(uuidText) + " / " + Ulid.fromUuid(UUID.fromString(uuidText)),
                "01ARYZ6S41TSV4RRFFQ69G5FAV / 22P02 / 01ARYZ6S41TSV4RRFFQ69G5FAV");
        });
    }

    // binaryTransferEnable=<the ulid oid> without the adapter: pgjdbc asks for
    // the binary format once the statement is server-prepared and then cannot
    // read it as text.
    static long binaryTrap() throws SQLException {
        long oid;
        try (Connection conn = connect(""); Statement st = conn.createStatement();
                ResultSet rs = st.executeQuery("SELECT 'ulid'::regtype::oid")) {
            rs.next();
            oid = rs.getLong(1);
        }
        section("binary transfer trap", () -> {
            String id = "01ARYZ6S41TSV4RRFFQ69G5FAV";
            List<String> seen = new ArrayList<>();
            try (Connection conn = connect("&binaryTransferEnable=" + oid);
                    PreparedStatement ps = conn.prepareStatement("SELECT id FROM orders WHERE id = ?")) {
                for (int n = 1; n <= 8; n++) {
                    ps.setObject(1, id, Types.OTHER);
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        Object o = rs.getObject(1);
                        seen.add(n + ":" + rs.getString(1) + "/" + o.getClass().getSimpleName() + "("
                            + ((PGobject) o).getValue() + ")/" + show(rs.getBytes(1)));
                    }
                }
            }
            String text = id + "/PGobject(" + id + ")/" + show(id.getBytes("US-ASCII"));
            String binary = "null/PGobject(null)/01563df36481d6764c61efb99302bd5b";
            List<String> want = new ArrayList<>();
            for (int n = 1; n <= 8; n++) {
                want.add(n + ":" + (n <= 5 ? text : binary));
            }
            expectEqual("binary transfer trap: with binaryTransferEnable=<ulid oid>, executions 1-5 read the text, "
                + "from the 6th getString is null, getObject a PGobject whose value is null, getBytes the 16 raw bytes",
                seen, want);
        });
        return oid;
    }

    // The adapter, counting the values it reads in the binary format.
    public static class CountingUlid extends Ulid {
        static int binary = 0;

        @Override
        public void setByteValue(byte[] bytes, int offset) {
            binary++;
            super.setByteValue(bytes, offset);
        }
    }

    static void adapter(Random random, long oid) {
        section("adapter: binary results", () -> {
            try (Connection conn = connect("")) {
                conn.unwrap(PGConnection.class).addDataType("ulid", CountingUlid.class);
                List<String> got = new ArrayList<>();
                try (PreparedStatement ps = conn.prepareStatement("SELECT id FROM orders WHERE id = ?::ulid")) {
                    for (int n = 1; n <= 8; n++) {
                        ps.setString(1, "01ARYZ6S41TSV4RRFFQ69G5FAV");
                        try (ResultSet rs = ps.executeQuery()) {
                            rs.next();
                            Object value = rs.getObject(1);
                            got.add(n + ":" + CountingUlid.binary + ":" + value);
                        }
                    }
                }
                List<String> want = new ArrayList<>();
                for (int n = 1; n <= 8; n++) {
                    want.add(n + ":" + Math.max(0, n - 5) + ":01ARYZ6S41TSV4RRFFQ69G5FAV");
                }
                expectEqual("adapter: registered, results come in the binary format from the 6th execution, read right",
                    got, want);
            }
        });
        section("adapter", () -> {
            String id = "01ARYZ6S41TSV4RRFFQ69G5FAV";
            for (String extra : new String[] {"", "&binaryTransferEnable=" + oid}) {
                String how = extra.isEmpty() ? "" : " (binaryTransferEnable too)";
                try (Connection conn = connect(extra)) {
                    // docs/clients/java.md snippet: the adapter.
                    Ulid.register(conn); // once per connection
                    // End of snippet.
                    // docs/clients/java.md snippet: using the adapter.
                    Ulid order;
                    try (PreparedStatement ps = conn.prepareStatement("SELECT id FROM orders WHERE id = ?")) {
                        ps.setObject(1, Ulid.parse("01ARYZ6S41TSV4RRFFQ69G5FAV")); // sent as the 16 bytes
                        try (ResultSet rs = ps.executeQuery()) {
                            rs.next();
                            order = rs.getObject("id", Ulid.class); // rs.getString("id") works too
                        }
                    }
                    UUID uuid = order.toUuid();     // 01563df3-6481-d676-4c61-efb99302bd5b
                    byte[] bytes = order.toBytes(); // the 16 bytes
                    // End of snippet.
                    List<Ulid> found = new ArrayList<>();
                    try (PreparedStatement ps = conn.prepareStatement("SELECT id FROM orders WHERE id = ?")) {
                        for (int n = 1; n <= 8; n++) { // binary from the 6th execution on
                            ps.setObject(1, Ulid.parse(id));
                            try (ResultSet rs = ps.executeQuery()) {
                                rs.next();
                                found.add(rs.getObject("id", Ulid.class));
                            }
                        }
                    }
                    List<String> texts = new ArrayList<>();
                    for (Ulid u : found) {
                        texts.add(u.getValue());
                    }
                    expectEqual("adapter" + how + ": getObject(Ulid.class) right in all 8 executions, text and binary",
                        texts, Collections.nCopies(8, id));
                    expectEqual("adapter" + how + ": toUuid", uuid, uuidOf(unb32(id)));
                    expectEqual("adapter" + how + ": toBytes", bytes, unb32(id));

                    List<String> strings = new ArrayList<>();
                    try (PreparedStatement ps = conn.prepareStatement("SELECT id, ? FROM orders WHERE id = ?")) {
                        for (int n = 1; n <= 8; n++) {
                            ps.setInt(1, n);
                            ps.setObject(2, Ulid.fromUuid(uuid));
                            try (ResultSet rs = ps.executeQuery()) {
                                rs.next();
                                strings.add(rs.getString(1) + "/" + rs.getObject(1).getClass().getSimpleName());
                            }
                        }
                    }
                    expectEqual("adapter" + how + ": getString and getObject right in all 8 executions",
                        strings, Collections.nCopies(8, id + "/Ulid"));

                    int bad = 0;
                    String first = null;
                    try (PreparedStatement ps = conn.prepareStatement("SELECT ?::text, ?::uuid, ?::ulid")) {
                        for (int n = 0; n < 50; n++) {
                            byte[] b = new byte[16];
                            random.nextBytes(b);
                            Ulid u = Ulid.fromUuid(uuidOf(b));
                            ps.setObject(1, u);
                            ps.setObject(2, u);
                            ps.setObject(3, b32(b), Types.OTHER);
                            try (ResultSet rs = ps.executeQuery()) {
                                rs.next();
                                Ulid back = rs.getObject(3, Ulid.class);
                                boolean ok = b32(b).equals(rs.getString(1)) && uuidOf(b).equals(rs.getObject(2, UUID.class))
                                    && Arrays.equals(b, back.toBytes()) && back.equals(u) && back.compareTo(u) == 0;
                                if (!ok && bad++ == 0) {
                                    first = b32(b) + " -> " + rs.getString(1) + " " + rs.getString(2) + " " + back;
                                }
                            }
                        }
                    }
                    check("adapter" + how + ": 50 random Ulid parameters and results round trip",
                        bad == 0, bad + " wrong, first " + first);

                    try (PreparedStatement ps = conn.prepareStatement(
                            "SELECT array_agg(id ORDER BY id) FROM orders WHERE id = ANY(?)")) {
                        ps.setArray(1, conn.createArrayOf("ulid", new Ulid[] {Ulid.parse(id), Ulid.fromUuid(uuid)}));
                        List<String> got = new ArrayList<>();
                        for (int n = 1; n <= 7; n++) {
                            try (ResultSet rs = ps.executeQuery()) {
                                rs.next();
                                Object[] elements = (Object[]) rs.getArray(1).getArray();
                                got.add(elements.length + " " + elements[0].getClass().getSimpleName() + " " + elements[0]);
                            }
                        }
                        expectEqual("adapter" + how + ": createArrayOf(\"ulid\", Ulid[]) and a ulid[] result of Ulid, 7 executions",
                            got, Collections.nCopies(7, "1 Ulid " + id));
                    }

                    // A Ulid parameter goes out in the binary format: a wrong length reaches ulid_recv.
                    expectError("adapter" + how + ": Ulid parameters are sent as binary (a 15-byte one is 22P03)", "22P03",
                        "invalid length in external \"ulid\" value", () -> {
                            Ulid shortOne = new Ulid() {
                                @Override
                                public int lengthInBytes() {
                                    return 15;
                                }

                                @Override
                                public void toBytes(byte[] b, int offset) {
                                }
                            };
                            try (PreparedStatement ps = conn.prepareStatement("SELECT ?")) {
                                ps.setObject(1, shortOne);
                                ps.executeQuery();
                            }
                        });
                }
            }
        });
    }
}
